//! The `Reranker` trait: scores documents against a query with a cross-encoder model.

use crate::{ProviderError, TokenUsage};
use async_trait::async_trait;

/// One rerank call.
#[derive(Debug, Clone, PartialEq)]
pub struct RerankRequest {
    pub query: String,
    pub documents: Vec<String>,
    pub model: String,
    /// Keep only the best `top_k`; `None` scores and returns every document.
    pub top_k: Option<usize>,
}

/// One document's score; `index` points into `RerankRequest::documents`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RerankScore {
    pub index: usize,
    pub relevance_score: f64,
}

#[derive(Debug, Clone, PartialEq)]
pub struct RerankResponse {
    /// Best first; at most `top_k` entries.
    pub results: Vec<RerankScore>,
    pub model: String,
    pub usage: TokenUsage,
}

/// Orders documents by relevance to a query.
#[async_trait]
pub trait Reranker: Send + Sync {
    /// The backend's name, reported per step ("voyage", "local", …).
    fn name(&self) -> &str;

    async fn rerank(&self, request: RerankRequest) -> Result<RerankResponse, ProviderError>;
}
