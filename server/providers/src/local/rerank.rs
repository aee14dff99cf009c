//! `LocalReranker`: offline reranking by embedding similarity fused with BM25 over the
//! candidates.

use crate::local::store::LocalStore;
use crate::{
    EmbedInputType, EmbedRequest, Embedder, ProviderError, RerankRequest, RerankResponse,
    RerankScore, Reranker, TokenUsage, cosine_similarity,
};
use async_trait::async_trait;
use std::collections::HashMap;
use std::sync::Arc;

/// BM25 term-frequency saturation.
const K1: f64 = 1.2;
/// BM25 document-length normalisation.
const B: f64 = 0.75;
/// Share of the semantic score in the fused relevance; the rest is lexical.
const DEFAULT_SEMANTIC_WEIGHT: f64 = 0.7;

/// The offline reranker (`name()` = "local").
///
/// **Not a cross-encoder**: it never reads the query and a document together. Each document's
/// relevance is a weighted sum of two scores in [0, 1]:
///
/// - *semantic*: the cosine similarity between the query's embedding and the document's (both
///   from the embedder it was built with; a document's is read from the local store when it
///   holds that text, see [`LocalReranker::with_stored_vectors`]), negative similarities
///   counted as 0;
/// - *lexical*: BM25 (k1 = 1.2, b = 0.75) of the query's lowercase words against the candidate
///   documents, inverse document frequencies taken over the candidates themselves, divided by
///   the best candidate's BM25 so the strongest lexical match scores 1.
///
/// By default the semantic score weighs 0.7 and the lexical 0.3. It genuinely reorders — a
/// document that shares the query's meaning or its rarer words rises — but it is weaker than a
/// trained reranker such as Voyage's at judging subtle relevance, and scores from different
/// queries are not comparable. Results are best first (ties keep input order), at most `top_k`.
/// The request's model name is not used; the response names what scored it.
pub struct LocalReranker {
    embedder: Arc<dyn Embedder>,
    embedding_model: String,
    semantic_weight: f64,
    /// Where documents' embeddings may already be (the local store): those are not recomputed.
    stored: Option<Arc<LocalStore>>,
}

impl std::fmt::Debug for LocalReranker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LocalReranker")
            .field("embedder", &self.embedder.name())
            .field("embedding_model", &self.embedding_model)
            .field("semantic_weight", &self.semantic_weight)
            .finish()
    }
}

impl LocalReranker {
    /// Rerank with `embedder`'s vectors, asking it for an empty model name (the local embedder
    /// ignores the name; see [`LocalReranker::with_embedding_model`] for others).
    pub fn new(embedder: Arc<dyn Embedder>) -> Self {
        LocalReranker {
            embedder,
            embedding_model: String::new(),
            semantic_weight: DEFAULT_SEMANTIC_WEIGHT,
            stored: None,
        }
    }

    /// Take a document's embedding from `store` when it holds that exact text with a vector of
    /// the query's size (stored by this same embedder): a rerank of documents the local store
    /// just returned embeds only the query.
    pub fn with_stored_vectors(mut self, store: Arc<LocalStore>) -> Self {
        self.stored = Some(store);
        self
    }

    /// The model name sent with each embedding request.
    pub fn with_embedding_model(mut self, model: impl Into<String>) -> Self {
        self.embedding_model = model.into();
        self
    }

    /// Weigh the semantic score `weight` (clamped to [0, 1]) and the lexical `1 - weight`.
    pub fn with_semantic_weight(mut self, weight: f64) -> Self {
        self.semantic_weight = if weight.is_nan() {
            DEFAULT_SEMANTIC_WEIGHT
        } else {
            weight.clamp(0.0, 1.0)
        };
        self
    }
}

#[async_trait]
impl Reranker for LocalReranker {
    fn name(&self) -> &str {
        "local"
    }

    async fn rerank(&self, request: RerankRequest) -> Result<RerankResponse, ProviderError> {
        if request.documents.is_empty() || request.top_k == Some(0) {
            return Ok(RerankResponse {
                results: Vec::new(),
                model: "local-hybrid".into(),
                usage: TokenUsage::default(),
            });
        }
        let mut texts = Vec::with_capacity(request.documents.len() + 1);
        texts.push(request.query.clone());
        let query = self
            .embedder
            .embed(EmbedRequest {
                texts,
                model: self.embedding_model.clone(),
                input_type: Some(EmbedInputType::Query),
                dimensions: None,
            })
            .await?;
        let Some(q) = query.embeddings.first() else {
            return Err(wrong_count(self.embedder.name()));
        };
        let (vectors, doc_tokens, doc_model) =
            self.document_vectors(&request.documents, q.len()).await?;
        let lexical = bm25_normalised(&request.query, &request.documents);
        let w = self.semantic_weight;
        let mut results: Vec<RerankScore> = vectors
            .iter()
            .zip(&lexical)
            .enumerate()
            .map(|(index, (d, lex))| {
                let semantic = cosine_similarity(q, d).max(0.0);
                RerankScore {
                    index,
                    relevance_score: (w * semantic + (1.0 - w) * lex).clamp(0.0, 1.0),
                }
            })
            .collect();
        // Stable: equal scores keep the input order.
        results.sort_by(|a, b| b.relevance_score.total_cmp(&a.relevance_score));
        if let Some(k) = request.top_k {
            results.truncate(k);
        }
        Ok(RerankResponse {
            results,
            model: format!("local-hybrid ({} + bm25)", doc_model.unwrap_or(query.model)),
            usage: TokenUsage::input(query.usage.input_tokens + doc_tokens),
        })
    }
}

impl LocalReranker {
    /// Each document's embedding: the stored one when the store has it at `dims`, else
    /// computed (all the missing ones in one request). Also the tokens and model of that
    /// request, when one was made.
    async fn document_vectors(
        &self,
        documents: &[String],
        dims: usize,
    ) -> Result<(Vec<Vec<f32>>, u64, Option<String>), ProviderError> {
        let mut vectors: Vec<Option<Vec<f32>>> = match &self.stored {
            Some(store) => documents
                .iter()
                .map(|d| store.stored_vector(d, dims))
                .collect(),
            None => vec![None; documents.len()],
        };
        let missing: Vec<usize> = (0..documents.len())
            .filter(|&i| vectors[i].is_none())
            .collect();
        if missing.is_empty() {
            return Ok((vectors.into_iter().flatten().collect(), 0, None));
        }
        let embedded = self
            .embedder
            .embed(EmbedRequest {
                texts: missing.iter().map(|&i| documents[i].clone()).collect(),
                model: self.embedding_model.clone(),
                input_type: Some(EmbedInputType::Document),
                dimensions: None,
            })
            .await?;
        if embedded.embeddings.len() != missing.len() {
            return Err(wrong_count(self.embedder.name()));
        }
        for (i, v) in missing.into_iter().zip(embedded.embeddings) {
            vectors[i] = Some(v);
        }
        let tokens = embedded.usage.input_tokens;
        Ok((
            vectors.into_iter().flatten().collect(),
            tokens,
            Some(embedded.model),
        ))
    }
}

fn wrong_count(embedder: &str) -> ProviderError {
    ProviderError::other(
        "local",
        format!("rerank: the {embedder} embedder returned the wrong number of vectors"),
    )
}

/// Lowercase alphanumeric words.
fn tokens(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// BM25 of `query` against each document, with document frequencies over `documents`, divided
/// by the largest score (all zeros when no document shares a query word).
fn bm25_normalised(query: &str, documents: &[String]) -> Vec<f64> {
    let docs: Vec<Vec<String>> = documents.iter().map(|d| tokens(d)).collect();
    let n = docs.len() as f64;
    let avg_len = (docs.iter().map(Vec::len).sum::<usize>() as f64 / n).max(1.0);
    let mut terms = tokens(query);
    terms.sort();
    terms.dedup();
    let frequencies: Vec<HashMap<&str, usize>> = docs
        .iter()
        .map(|d| {
            let mut tf = HashMap::new();
            for w in d {
                *tf.entry(w.as_str()).or_insert(0) += 1;
            }
            tf
        })
        .collect();
    let mut scores = vec![0.0f64; docs.len()];
    for term in &terms {
        let df = frequencies
            .iter()
            .filter(|tf| tf.contains_key(term.as_str()))
            .count() as f64;
        if df == 0.0 {
            continue;
        }
        // The "plus one" IDF (as in Lucene) stays positive even for words in every candidate.
        let idf = (1.0 + (n - df + 0.5) / (df + 0.5)).ln();
        for ((score, tf), doc) in scores.iter_mut().zip(&frequencies).zip(&docs) {
            let f = tf.get(term.as_str()).copied().unwrap_or(0) as f64;
            if f > 0.0 {
                let norm = K1 * (1.0 - B + B * doc.len() as f64 / avg_len);
                *score += idf * f * (K1 + 1.0) / (f + norm);
            }
        }
    }
    let best = scores.iter().copied().fold(0.0, f64::max);
    if best > 0.0 {
        scores.iter_mut().for_each(|s| *s /= best);
    }
    scores
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bm25_weighs_rarer_words_more_and_normalises_to_one() {
        let docs: Vec<String> = [
            "the cat sat on the mat",
            "the dog",
            "a cat and a dog",
            "the end",
            "nothing in common",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let s = bm25_normalised("the cat", &docs);
        assert_eq!(s[0], 1.0);
        assert_eq!(s[4], 0.0);
        assert!(s[2] > s[1], "cat is rarer than the: {s:?}");
        assert!(s.iter().all(|x| (0.0..=1.0).contains(x)));
        assert!(bm25_normalised("zebra", &docs).iter().all(|x| *x == 0.0));
    }

    #[cfg(feature = "fakes")]
    mod with_the_fake_embedder {
        use super::super::*;
        use crate::fakes::FakeEmbedder;

        fn request(query: &str, documents: &[&str], top_k: Option<usize>) -> RerankRequest {
            RerankRequest {
                query: query.into(),
                documents: documents.iter().map(|d| d.to_string()).collect(),
                model: "rerank-2.5".into(),
                top_k,
            }
        }

        #[tokio::test]
        async fn the_document_about_the_query_moves_to_the_top() {
            let r = LocalReranker::new(Arc::new(FakeEmbedder::new(256)));
            assert_eq!(r.name(), "local");
            let response = r
                .rerank(request(
                    "how does vector search rank documents",
                    &[
                        "Cooking pasta takes ten minutes in salted water.",
                        "The stock market closed higher today.",
                        "A search engine ranks web pages by links.",
                        "Vector search ranks documents by the similarity of their embeddings.",
                    ],
                    Some(3),
                ))
                .await
                .unwrap();
            let order: Vec<usize> = response.results.iter().map(|s| s.index).collect();
            assert_eq!(order.len(), 3);
            assert_eq!(order[..2], [3, 2]);
            let scores: Vec<f64> = response.results.iter().map(|s| s.relevance_score).collect();
            assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
            assert!(scores.iter().all(|s| (0.0..=1.0).contains(s)));
            assert!(response.model.starts_with("local-hybrid"));
            assert!(response.usage.input_tokens > 0);
        }

        #[tokio::test]
        async fn weights_choose_between_meaning_and_words_and_nothing_to_rank_is_empty() {
            let embedder = Arc::new(FakeEmbedder::new(64));
            let lexical_only = LocalReranker::new(embedder.clone()).with_semantic_weight(0.0);
            let response = lexical_only
                .rerank(request(
                    "zebra",
                    &["a horse", "zebra zebra", "the zebra"],
                    None,
                ))
                .await
                .unwrap();
            assert_eq!(response.results.len(), 3);
            assert_eq!(response.results[0].relevance_score, 1.0);
            assert_eq!(response.results[2].relevance_score, 0.0);
            assert_eq!(response.results[2].index, 0);

            let calls = embedder.requests().len();
            let none = LocalReranker::new(embedder.clone())
                .rerank(request("q", &[], Some(5)))
                .await
                .unwrap();
            assert!(none.results.is_empty());
            assert_eq!(
                embedder.requests().len(),
                calls,
                "no embedding call for nothing"
            );
        }

        #[tokio::test]
        async fn documents_the_store_holds_are_not_embedded_again() {
            use crate::{Namespace, VectorIndex, VectorQuery, VectorStore, vector_to_json};
            let dir = std::env::temp_dir().join(format!("vai-rerank-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            let store = Arc::new(LocalStore::open(&dir.join("store.sqlite3")).unwrap());
            let embedder = Arc::new(FakeEmbedder::new(32));
            let ns = Namespace::new("db", "docs");
            let index = VectorIndex {
                name: "vector_index".into(),
                path: "embedding".into(),
                dimensions: 32,
            };
            store.ensure_vector_index(&ns, &index).await.unwrap();
            let stored = [
                "Vector search ranks documents by similarity.",
                "Cooking pasta takes ten minutes.",
            ];
            let docs = stored
                .iter()
                .map(|t| {
                    let mut d = serde_json::Map::new();
                    d.insert("text".into(), (*t).into());
                    d.insert("embedding".into(), vector_to_json(&embedder.vector(t)));
                    d
                })
                .collect();
            store.insert(&ns, docs).await.unwrap();
            // A search loads the collection, as the query step before a rerank does.
            let query = VectorQuery {
                namespace: ns,
                index: "vector_index".into(),
                path: "embedding".into(),
                vector: embedder.vector("vector search"),
                limit: 2,
                num_candidates: 2,
                filter: None,
                fields: vec!["text".into()],
            };
            store.vector_search(query).await.unwrap();

            let before = embedder.requests().len();
            let with_store =
                LocalReranker::new(embedder.clone()).with_stored_vectors(store.clone());
            let documents = [stored[1], "A document the store does not hold.", stored[0]];
            let reranked = with_store
                .rerank(request("how does vector search rank", &documents, None))
                .await
                .unwrap();
            let asked: Vec<Vec<String>> = embedder.requests()[before..]
                .iter()
                .map(|r| r.texts.clone())
                .collect();
            assert_eq!(
                asked,
                [
                    vec!["how does vector search rank".to_string()],
                    vec![documents[1].to_string()]
                ]
            );
            // The same order as embedding every document.
            let plain = LocalReranker::new(embedder.clone())
                .rerank(request("how does vector search rank", &documents, None))
                .await
                .unwrap();
            let order = |r: &RerankResponse| r.results.iter().map(|s| s.index).collect::<Vec<_>>();
            assert_eq!(order(&reranked), order(&plain));
            let _ = std::fs::remove_dir_all(&dir);
        }

        #[tokio::test]
        async fn embedder_failures_are_passed_on() {
            let embedder = Arc::new(FakeEmbedder::new(8));
            embedder.fail_next(ProviderError::other("fake", "boom"));
            let err = LocalReranker::new(embedder)
                .rerank(request("q", &["d"], None))
                .await
                .unwrap_err();
            assert_eq!(err.to_string(), "fake: boom");
        }
    }
}
