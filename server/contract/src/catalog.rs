//! The tool catalog and configuration status (docs/api.md, "Tools and configuration").

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use vai_workflow::{ApiCalls, Category, InputSchema};

/// `GET /api/tools`.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct ToolCatalog {
    pub tools: Vec<ToolView>,
    pub categories: Vec<CategoryView>,
}

/// One tool, declared once in Rust and rendered by the builder's forms and the inspector.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ToolView {
    pub name: String,
    pub label: String,
    pub category: Category,
    pub color: String,
    /// A Material icon name.
    pub icon: String,
    pub description: String,
    pub help: String,
    /// JSON Schema (draft 2020-12 subset) of the step's `inputs`, with `format` widget hints.
    pub input_schema: InputSchema,
    pub outputs: Vec<ToolOutputField>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub main_input: Option<String>,
    pub api_calls: ApiCalls,
    /// What a step of this tool is doing in a RAG pipeline, for the inspector's "What is
    /// happening here"; absent for tools without a note.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub explain: Option<ToolExplanation>,
}

/// A few plain sentences on what a step of a tool is doing, and the `vai explain` topic that says
/// more (the same texts as the `explain` tool).
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct ToolExplanation {
    /// The topic's key, as `vai explain <topic>` takes it ("reranking").
    pub topic: String,
    /// The topic's title ("Reranking").
    pub title: String,
    pub text: String,
}

/// One output field of a tool.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct ToolOutputField {
    pub name: String,
    pub description: String,
}

/// A node colour group.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct CategoryView {
    pub id: Category,
    pub label: String,
    pub color: String,
}

/// `GET /api/config/status`: which backend serves each capability. Never holds a secret.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct ConfigStatus {
    /// True when every capability runs on the local default.
    pub offline: bool,
    pub providers: Vec<ProviderStatus>,
}

/// A capability the providers serve.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ProviderId {
    Embeddings,
    Rerank,
    Store,
    Llm,
}

/// The backend that serves a capability.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum Backend {
    Voyage,
    Mongodb,
    Local,
    Anthropic,
    Openai,
    Ollama,
    None,
}

/// One capability's status.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct ProviderStatus {
    pub id: ProviderId,
    pub label: String,
    pub backend: Backend,
    pub configured: bool,
    /// Where the setting came from (`VOYAGE_API_KEY from the environment`); never a value.
    pub detail: String,
}

/// `GET /api/pricing`: what model calls cost as runs price them — vai's price table with the
/// project's `.vai.json` `pricing` over it. Dollars per million tokens.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PricingTable {
    /// The date the table's prices were last compared with the vendors' pages.
    pub priced_at: String,
    pub models: Vec<ModelPriceView>,
}

/// One model's price.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ModelPriceView {
    pub model: String,
    /// `voyage`, `openai`, `anthropic` or `local`; absent for a model only `.vai.json` prices.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub vendor: Option<String>,
    /// `embedding`, `rerank` or `llm`; absent for a model only `.vai.json` prices.
    #[serde(rename = "use", skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub model_use: Option<String>,
    #[serde(rename = "inputPerMTok")]
    pub input_per_mtok: f64,
    /// 0 for embedding and rerank models, which have no output tokens.
    #[serde(rename = "outputPerMTok")]
    pub output_per_mtok: f64,
    /// The table's date, `local` (runs on this machine, no bill) or `.vai.json`.
    pub priced_at: String,
    /// The vendor's pricing page the figure was read from.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub source: Option<String>,
}
