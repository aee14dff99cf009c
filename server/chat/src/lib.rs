//! Chat with a knowledge base (seed 001, and seed 000 §3): the fixed RAG pipeline, agent mode in
//! which the model calls vai's own tools, the session history and the conversation window.
//! `vai chat` and the playground's Chat panel are two views of this one engine: both render the
//! same [`vai_contract::ChatEvent`]s.

mod agent;
mod engine;
pub mod export;
pub mod history;
mod options;
mod pipeline;
mod prompt;
mod sources;
pub mod tools;

pub use engine::{ChatEngine, ChatError, TurnSink};
pub use export::{ExportError, export_workflow};
pub use history::{FileHistory, History, HistoryError, MemoryHistory, MongoHistory};
pub use options::{ChatOptions, MAX_CONTEXT_DOCS, MAX_ITERATIONS, MAX_QUESTION_BYTES, MAX_TURNS};

#[cfg(test)]
mod tests;
