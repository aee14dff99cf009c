//! vai's tools as other programs see them: which ones are offered on their own, by what name,
//! the JSON Schema of a tool's arguments, as MCP clients and chat models are given it, and the
//! hook a front end runs before a tool.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

/// The registry tools that make sense called on their own, one call each, outside a workflow —
/// retrieval, the knowledge base, models, costs and explanations — in the order they are
/// offered: a chat agent's tools, and the first of the MCP server's. Control flow, the tools
/// that only reshape other steps' outputs, `generate` and `http` are not among them.
pub const STANDALONE_TOOLS: [&str; 10] = [
    "query",
    "search",
    "rerank",
    "embed",
    "similarity",
    "collections",
    "models",
    "ingest",
    "explain",
    "estimate",
];

/// The name a chat model or an MCP client calls registry tool `name` by: `vai_<name>`.
pub fn public_name(name: &str) -> String {
    format!("vai_{name}")
}

/// Work to finish before a vai tool runs, given the tool's name (seeding the local sample
/// knowledge base before a tool that reads the store). It must be cheap once done.
pub type BeforeTool = Arc<dyn Fn(&str) -> Pin<Box<dyn Future<Output = ()> + Send>> + Send + Sync>;

/// A vai tool's argument schema (see [`vai_workflow::tool::tool_arguments`]).
pub use vai_workflow::tool::tool_arguments as tool_input;
