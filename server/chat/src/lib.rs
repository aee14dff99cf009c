//! Chat with a knowledge base (docs/chat.md): the fixed RAG pipeline, agent mode in which the
//! model calls vai's own tools, the session history and the conversation window. `vai chat` and
//! the playground's Chat panel are two views of this one engine: both render the same
//! [`vai_contract::ChatEvent`]s.
//!
//! The engine (`engine`) sits on top: it makes a turn (`turn`), answers it with the agent
//! (`agent`) or the pipeline (`pipeline`), both of which work through the turn, and records
//! it in the history.

mod agent;
mod engine;
pub mod export;
pub mod history;
mod options;
mod pipeline;
mod prompt;
mod sources;
pub mod tools;
mod turn;

pub use engine::{ChatEngine, ChatError};
pub use export::{ExportError, export_workflow};
pub use history::{FileHistory, History, HistoryError, MemoryHistory, MongoHistory};
pub use options::{
    ChatOptions, MAX_ANSWER_TOKENS, MAX_CONTEXT_DOCS, MAX_ITERATIONS, MAX_QUESTION_BYTES, MAX_TURNS,
};
pub use turn::TurnSink;

#[cfg(test)]
mod tests;
