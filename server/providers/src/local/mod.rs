//! The embedded offline default: a persistent local vector store, a local sentence-embedding
//! model, a local reranker, a small local LLM, and the sample knowledge base.

pub mod embed;
pub mod llm;
pub mod rerank;
pub mod sample;
pub mod store;
