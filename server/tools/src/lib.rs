//! The step tools: one module per tool, each declaring its schema, category and icon in its
//! `ToolSpec`, and implementing `vai_workflow::Tool`.

pub mod args;
pub mod catalog;

// Data and control tools (no provider).
pub mod chunk;
pub mod estimate;
pub mod explain;
pub mod filter;
pub mod http;
pub mod merge;
pub mod models;
pub mod template;
pub mod transform;

// Provider-backed tools.
pub mod aggregate;
pub mod collections;
pub mod embed;
pub mod generate;
pub mod ingest;
pub mod query;
pub mod rerank;
pub mod search;
pub mod similarity;
