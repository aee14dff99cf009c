//! `FakeReranker`: scores documents by the share of query words they contain (tests only).

use super::{Faults, Log, words};
use crate::{ProviderError, RerankRequest, RerankResponse, RerankScore, Reranker, TokenUsage};
use async_trait::async_trait;
use std::collections::HashSet;

/// Test-only reranker: a document's score is the fraction of the query's distinct words it
/// contains (0 to 1). Ties keep the documents' input order; `top_k` truncates.
#[derive(Debug)]
pub struct FakeReranker {
    name: String,
    requests: Log<RerankRequest>,
    faults: Faults,
}

impl Default for FakeReranker {
    fn default() -> Self {
        Self::new()
    }
}

impl FakeReranker {
    pub fn new() -> Self {
        FakeReranker {
            name: "fake".into(),
            requests: Log::new(),
            faults: Faults::default(),
        }
    }

    pub fn named(mut self, name: impl Into<String>) -> Self {
        self.name = name.into();
        self
    }

    pub fn requests(&self) -> Vec<RerankRequest> {
        self.requests.all()
    }

    pub fn fail_next(&self, error: ProviderError) {
        self.faults.push(error);
    }
}

#[async_trait]
impl Reranker for FakeReranker {
    fn name(&self) -> &str {
        &self.name
    }

    async fn rerank(&self, request: RerankRequest) -> Result<RerankResponse, ProviderError> {
        self.requests.push(request.clone());
        self.faults.take()?;
        let query: HashSet<String> = words(&request.query).collect();
        let mut results: Vec<RerankScore> = request
            .documents
            .iter()
            .enumerate()
            .map(|(index, doc)| {
                let doc: HashSet<String> = words(doc).collect();
                let shared = query.iter().filter(|w| doc.contains(*w)).count();
                RerankScore {
                    index,
                    relevance_score: if query.is_empty() {
                        0.0
                    } else {
                        shared as f64 / query.len() as f64
                    },
                }
            })
            .collect();
        // A stable sort keeps input order among equal scores.
        results.sort_by(|a, b| b.relevance_score.total_cmp(&a.relevance_score));
        if let Some(k) = request.top_k {
            results.truncate(k);
        }
        let query_tokens = words(&request.query).count() as u64;
        let tokens = request
            .documents
            .iter()
            .map(|d| query_tokens + words(d).count() as u64)
            .sum();
        Ok(RerankResponse {
            results,
            model: request.model,
            usage: TokenUsage::input(tokens),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn scores_by_shared_words_best_first_ties_in_input_order() {
        let r = FakeReranker::new();
        let response = r
            .rerank(RerankRequest {
                query: "vector search index".into(),
                documents: vec![
                    "cooking pasta".into(),
                    "create a search index".into(),
                    "vector search with an index".into(),
                    "pasta index".into(),
                ],
                model: "rerank-2.5".into(),
                top_k: Some(3),
            })
            .await
            .unwrap();
        let order: Vec<usize> = response.results.iter().map(|s| s.index).collect();
        assert_eq!(order, vec![2, 1, 3]);
        assert_eq!(response.results[0].relevance_score, 1.0);
        assert!((response.results[1].relevance_score - 2.0 / 3.0).abs() < 1e-12);
        assert_eq!(r.requests().len(), 1);
    }
}
