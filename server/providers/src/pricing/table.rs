//! The list prices: every hosted model vai prices, in dollars per million tokens, with the page
//! each figure was read from, and the local models, which cost nothing.

use serde::Serialize;

/// The date the prices below were last compared with the vendors' pricing pages.
pub const PRICED_AT: &str = "2026-11-28";

/// Who sells (or runs) a model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Vendor {
    Voyage,
    #[serde(rename = "openai")]
    OpenAi,
    Anthropic,
    /// Runs on this machine: no bill.
    Local,
}

impl Vendor {
    pub fn as_str(self) -> &'static str {
        match self {
            Vendor::Voyage => "voyage",
            Vendor::OpenAi => "openai",
            Vendor::Anthropic => "anthropic",
            Vendor::Local => "local",
        }
    }

    /// The public page the vendor's prices were read from; local models have none.
    pub fn source(self) -> Option<&'static str> {
        match self {
            Vendor::Voyage => Some("https://docs.voyageai.com/docs/pricing"),
            Vendor::OpenAi => Some("https://openai.com/api/pricing/"),
            Vendor::Anthropic => Some("https://www.anthropic.com/pricing#api"),
            Vendor::Local => None,
        }
    }
}

/// What a model is called for: embedding and rerank calls have input tokens only.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ModelUse {
    Embedding,
    Rerank,
    Llm,
}

/// One row of the table.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ModelPrice {
    pub model: &'static str,
    pub vendor: Vendor,
    #[serde(rename = "use")]
    pub model_use: ModelUse,
    /// Dollars per million input tokens (the only kind embedding and rerank calls have).
    #[serde(rename = "inputPerMTok")]
    pub input: f64,
    /// Dollars per million output tokens; 0 for embedding and rerank models.
    #[serde(rename = "outputPerMTok")]
    pub output: f64,
}

impl ModelPrice {
    /// The vendor's pricing page.
    pub fn source(&self) -> Option<&'static str> {
        self.vendor.source()
    }
}

const fn voyage(model: &'static str, input: f64) -> ModelPrice {
    ModelPrice {
        model,
        vendor: Vendor::Voyage,
        model_use: ModelUse::Embedding,
        input,
        output: 0.0,
    }
}

const fn voyage_rerank(model: &'static str, input: f64) -> ModelPrice {
    ModelPrice {
        model_use: ModelUse::Rerank,
        ..voyage(model, input)
    }
}

const fn llm(vendor: Vendor, model: &'static str, input: f64, output: f64) -> ModelPrice {
    ModelPrice {
        model,
        vendor,
        model_use: ModelUse::Llm,
        input,
        output,
    }
}

const fn openai(model: &'static str, input: f64, output: f64) -> ModelPrice {
    llm(Vendor::OpenAi, model, input, output)
}

const fn anthropic(model: &'static str, input: f64, output: f64) -> ModelPrice {
    llm(Vendor::Anthropic, model, input, output)
}

const fn local(model: &'static str, model_use: ModelUse) -> ModelPrice {
    ModelPrice {
        model,
        vendor: Vendor::Local,
        model_use,
        input: 0.0,
        output: 0.0,
    }
}

/// Standard (not batch, not cached-input) list prices. Voyage AI's free token allowance is
/// left out: what a call costs depends on the account, and vai cannot see it.
pub static TABLE: &[ModelPrice] = &[
    voyage("voyage-4-large", 0.12),
    voyage("voyage-4", 0.06),
    voyage("voyage-4-lite", 0.02),
    voyage("voyage-3.5", 0.06),
    voyage("voyage-3.5-lite", 0.02),
    voyage("voyage-3-large", 0.18),
    voyage("voyage-3", 0.06),
    voyage("voyage-3-lite", 0.02),
    voyage("voyage-context-3", 0.18),
    voyage("voyage-code-3", 0.18),
    voyage("voyage-finance-2", 0.12),
    voyage("voyage-law-2", 0.12),
    // Text tokens; images are billed by pixel count on top, which vai does not send.
    voyage("voyage-multimodal-3.5", 0.12),
    voyage("voyage-multimodal-3", 0.12),
    voyage_rerank("rerank-2.5", 0.05),
    voyage_rerank("rerank-2.5-lite", 0.02),
    voyage_rerank("rerank-2", 0.05),
    voyage_rerank("rerank-2-lite", 0.02),
    openai("gpt-5.1", 1.25, 10.0),
    openai("gpt-5", 1.25, 10.0),
    openai("gpt-5-mini", 0.25, 2.0),
    openai("gpt-5-nano", 0.05, 0.40),
    openai("gpt-4.1", 2.0, 8.0),
    openai("gpt-4.1-mini", 0.40, 1.60),
    openai("gpt-4.1-nano", 0.10, 0.40),
    openai("gpt-4o", 2.50, 10.0),
    // The first gpt-4o snapshot kept its launch price.
    openai("gpt-4o-2024-05-13", 5.0, 15.0),
    openai("gpt-4o-mini", 0.15, 0.60),
    openai("o3", 2.0, 8.0),
    openai("o4-mini", 1.10, 4.40),
    openai("o3-mini", 1.10, 4.40),
    anthropic("claude-opus-4-5", 5.0, 25.0),
    anthropic("claude-opus-4-1", 15.0, 75.0),
    anthropic("claude-opus-4", 15.0, 75.0),
    anthropic("claude-sonnet-4-5", 3.0, 15.0),
    anthropic("claude-sonnet-4", 3.0, 15.0),
    anthropic("claude-haiku-4-5", 1.0, 5.0),
    anthropic("claude-3-7-sonnet", 3.0, 15.0),
    anthropic("claude-3-5-haiku", 0.80, 4.0),
    anthropic("claude-3-haiku", 0.25, 1.25),
    // Open weights, run by vai itself.
    local("all-minilm-l6-v2", ModelUse::Embedding),
    local("voyage-4-nano", ModelUse::Embedding),
    local("SmolLM2-135M-Instruct", ModelUse::Llm),
];
