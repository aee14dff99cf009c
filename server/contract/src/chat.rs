//! Chat with the knowledge base: the turns, sessions and events `vai chat` prints and the
//! playground's Chat panel draws (docs/api.md, "Chat"). Turn states are events, so both front
//! ends render the same ones.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;
use vai_workflow::Usage;

/// How a turn finds its answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ChatMode {
    /// Embed → search → rerank → prompt → answer, the same steps every time.
    #[default]
    Pipeline,
    /// The model calls vai's tools until it can answer.
    Agent,
}

/// What the assistant is doing now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum TurnState {
    /// Searching the knowledge base for the question (pipeline mode).
    Retrieving,
    /// Waiting for the model to decide what to do (agent mode).
    Thinking,
    /// Running the tools the model asked for (agent mode).
    CallingTools,
    /// The answer is arriving.
    Answering,
}

/// How a turn ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum TurnStatus {
    Done,
    Failed,
    Cancelled,
}

/// A document an answer may cite as `[n]`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ChatSource {
    /// The citation number, from 1.
    pub index: u32,
    /// What the document is called: its `source`, title or id.
    pub title: String,
    /// The document's text (cut to 8 KB).
    pub text: String,
    /// Relevance after reranking (or the vector score without it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub score: Option<f64>,
    /// The collection it came from, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub collection: Option<String>,
    /// The passages of `text` the answer quotes (a grounded offline answer), in its order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub passages: Vec<String>,
}

/// How an answer was made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum AnswerMethod {
    /// The model wrote it.
    Generated,
    /// Sentences of the sources that answer the question, each cited (the small local model
    /// with retrieved context: it does not invent).
    Extractive,
    /// The sources do not answer the question, and the answer says so.
    Declined,
}

/// One tool call of an agent-mode turn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ChatToolCall {
    /// The model's id for the call.
    pub id: String,
    /// The tool as the model named it (`vai_query`).
    pub name: String,
    /// The arguments it ran with (defaults filled in).
    pub arguments: Value,
    /// What it is doing, for people: `Searching api_docs for "auth"`.
    pub label: String,
    pub ok: bool,
    /// One line on the result (`5 results, top score 0.91`) or the error.
    pub summary: String,
    /// The tool's output when its JSON is at most 16 KB.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub output: Option<Value>,
    #[ts(type = "number")]
    pub duration_ms: u64,
}

/// Where the time of a turn went.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ChatTimings {
    /// Retrieval (pipeline) or tool calls (agent).
    #[ts(type = "number")]
    pub retrieval_ms: u64,
    /// Waiting for and reading the model.
    #[ts(type = "number")]
    pub generation_ms: u64,
    #[ts(type = "number")]
    pub total_ms: u64,
}

/// One question and its answer, as kept in the history.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ChatTurn {
    pub id: String,
    pub question: String,
    /// The answer as far as it came (empty when the turn failed before any text).
    pub answer: String,
    pub status: TurnStatus,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub error: Option<String>,
    pub mode: ChatMode,
    /// A notice the turn carried (agent mode fell back to the pipeline, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub notice: Option<String>,
    pub sources: Vec<ChatSource>,
    /// How the answer was made; absent in turns saved before it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub method: Option<AnswerMethod>,
    pub tool_calls: Vec<ChatToolCall>,
    /// The LLM provider and model that answered.
    pub provider: String,
    pub model: String,
    pub usage: Usage,
    pub timings: ChatTimings,
    /// Milliseconds since the Unix epoch.
    #[ts(type = "number")]
    pub started_at: u64,
}

/// A conversation: its turns, oldest first.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ChatSession {
    pub id: String,
    /// The first question, cut to 80 characters.
    pub title: String,
    #[ts(type = "number")]
    pub created_at: u64,
    #[ts(type = "number")]
    pub updated_at: u64,
    pub turns: Vec<ChatTurn>,
}

/// A session as lists show it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ChatSessionSummary {
    pub id: String,
    pub title: String,
    #[ts(type = "number")]
    pub created_at: u64,
    #[ts(type = "number")]
    pub updated_at: u64,
    pub turn_count: usize,
}

/// `GET /api/chat/sessions`: newest first.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ChatSessionList {
    pub sessions: Vec<ChatSessionSummary>,
}

/// What a turn reports while it runs; `turn_finished` is always last.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(
    tag = "type",
    rename_all = "snake_case",
    rename_all_fields = "camelCase"
)]
pub enum ChatEvent {
    TurnStarted {
        session_id: String,
        turn_id: String,
        mode: ChatMode,
        provider: String,
        model: String,
    },
    /// The assistant moved to `state`; `label` says it for people.
    State {
        state: TurnState,
        label: String,
    },
    /// Something the user should know about this turn (a fallback, a cut context).
    Notice {
        message: String,
    },
    /// The documents the answer may cite.
    Sources {
        sources: Vec<ChatSource>,
    },
    ToolCallStarted {
        id: String,
        name: String,
        arguments: Value,
        label: String,
    },
    ToolCallFinished {
        call: ChatToolCall,
    },
    /// The next piece of the answer.
    Text {
        delta: String,
    },
    TurnFinished {
        turn: ChatTurn,
    },
}

/// A question and how to answer it (the playground's `chat_ask`; the CLI's flags).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ChatAsk {
    /// Continue this session; a new one when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub session_id: Option<String>,
    pub question: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub mode: Option<ChatMode>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub db: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub collection: Option<String>,
    /// Another model of the configured provider.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub model: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub max_context_docs: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub rerank: Option<bool>,
    /// Agent mode may call tools that change data (`vai_ingest`); off when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub allow_writes: Option<bool>,
}

/// `GET /api/chat/config`: what answers and where it looks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ChatConfig {
    /// No LLM is configured or present: chat cannot answer, `hint` says how to fix it.
    pub available: bool,
    pub provider: String,
    pub model: String,
    /// For people: `anthropic · claude-…`, or the local model's label.
    pub label: String,
    /// Whether agent mode can run (the model calls tools).
    pub supports_tools: bool,
    /// Models of the provider to choose from (the configured one first).
    pub models: Vec<String>,
    pub db: String,
    pub collection: String,
    pub mode: ChatMode,
    /// Where sessions are kept: `local`, `mongodb` or `memory`.
    pub history: String,
    /// The longest question answered, in bytes (UTF-8); a longer one is recorded as a failed
    /// turn.
    pub max_question_bytes: usize,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub hint: Option<String>,
}
