//! How a chat answers: the mode, where it looks, how much it sends the model. The CLI fills
//! these from its flags and `.vai.json` `chat`; the playground's `chat_ask` overrides a few per
//! question.

use serde_json::Value;
use vai_contract::{ChatAsk, ChatMode};

/// The longest question accepted, in bytes; a longer one is recorded as a failed turn.
pub const MAX_QUESTION_BYTES: usize = 16 * 1024;

/// Bounds on what a caller may ask for.
pub const MAX_CONTEXT_DOCS: usize = 50;
pub const MAX_ITERATIONS: usize = 50;
pub const MAX_TURNS: usize = 200;
pub const MAX_ANSWER_TOKENS: u32 = 32_768;

#[derive(Debug, Clone, PartialEq)]
pub struct ChatOptions {
    pub mode: ChatMode,
    /// The database and collection searched; `None` uses the configured (or sample) ones.
    pub db: Option<String>,
    pub collection: Option<String>,
    /// Another model of the configured provider.
    pub model: Option<String>,
    /// The longest answer, in tokens; `None` leaves it to the provider (the local model: 256).
    pub max_tokens: Option<u32>,
    /// Documents retrieved as context for an answer (pipeline mode).
    pub max_context_docs: usize,
    /// Earlier turns loaded as the conversation (fewer when they do not fit the budget).
    pub max_turns: usize,
    pub rerank: bool,
    /// Stream the answer as it arrives; `false` waits for all of it.
    pub stream: bool,
    /// Replaces the default system prompt.
    pub system_prompt: Option<String>,
    /// A MongoDB pre-filter for the vector search.
    pub filter: Option<Value>,
    /// Rounds of tool calls an agent turn may make before it must answer.
    pub max_iterations: usize,
    /// Agent mode may call tools that change data (`vai_ingest`). Off unless the person turned
    /// it on for the session.
    pub allow_writes: bool,
}

impl Default for ChatOptions {
    fn default() -> Self {
        ChatOptions {
            mode: ChatMode::Pipeline,
            db: None,
            collection: None,
            model: None,
            max_tokens: None,
            max_context_docs: 5,
            max_turns: 20,
            rerank: true,
            stream: true,
            system_prompt: None,
            filter: None,
            max_iterations: 10,
            allow_writes: false,
        }
    }
}

impl ChatOptions {
    /// These options with the choices of one playground question applied (bounded).
    pub fn with_ask(&self, ask: &ChatAsk) -> ChatOptions {
        let text = |v: &Option<String>| v.as_ref().filter(|s| !s.trim().is_empty()).cloned();
        let mut options = self.clone();
        if let Some(mode) = ask.mode {
            options.mode = mode;
        }
        if let Some(db) = text(&ask.db) {
            options.db = Some(db);
        }
        if let Some(collection) = text(&ask.collection) {
            options.collection = Some(collection);
        }
        if let Some(model) = text(&ask.model) {
            options.model = Some(model);
        }
        if let Some(docs) = ask.max_context_docs {
            options.max_context_docs = docs as usize;
        }
        if let Some(rerank) = ask.rerank {
            options.rerank = rerank;
        }
        if let Some(allow) = ask.allow_writes {
            options.allow_writes = allow;
        }
        options.bounded()
    }

    /// The options with every count within its bound (at least 1).
    pub fn bounded(mut self) -> Self {
        self.max_context_docs = self.max_context_docs.clamp(1, MAX_CONTEXT_DOCS);
        self.max_iterations = self.max_iterations.clamp(1, MAX_ITERATIONS);
        self.max_turns = self.max_turns.min(MAX_TURNS);
        self
    }
}
