//! `LocalReranker`: offline reranking of a vector search's candidates, three ways
//! ([`RerankMethod`]): cosine fused with BM25, that plus each candidate's best sentence, or late
//! interaction (MaxSim) over the model's token vectors. Each method's per-document work lives in
//! its own module; what they keep between reranks, in `cache`.

mod bm25;
mod cache;
pub mod late;
mod sentences;

use crate::local::store::LocalStore;
use crate::{
    EmbedInputType, EmbedRequest, Embedder, ProviderError, RerankRequest, RerankResponse,
    RerankScore, Reranker, TokenUsage, cosine_similarity,
};
use async_trait::async_trait;
use bm25::bm25_normalised;
use cache::DocumentCache;
use late::{Matrix, TokenEmbedder};
use std::sync::Arc;

/// Fused: the share of the cosine by default; the rest is BM25.
const DEFAULT_SEMANTIC_WEIGHT: f64 = 0.7;
/// Sentences: the weights of the document's cosine, its BM25 and its best sentence's cosine,
/// chosen on the tuning questions of `vai bench retrieval`.
const SENTENCE_WEIGHTS: [f64; 3] = [0.2, 0.2, 0.6];
/// Late interaction: the weights of the document's cosine and its MaxSim, chosen likewise.
const LATE_WEIGHTS: [f64; 2] = [0.2, 0.8];
/// Floats of sentence or token vectors kept per method (64 MB); the sample corpus's token
/// vectors take 5.5 million (14,332 word pieces).
const CACHE_BUDGET: usize = 16 << 20;

/// How [`LocalReranker`] scores a candidate. Each score is in [0, 1]; cosines and MaxSim below
/// 0 count as 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RerankMethod {
    /// `w × cosine + (1 − w) × BM25`, w = 0.7 unless [`LocalReranker::with_semantic_weight`]
    /// says otherwise: the document's embedding against the query's, and BM25 (k1 = 1.2,
    /// b = 0.75) of the query's lowercase words with document frequencies over the candidates,
    /// divided by the best candidate's so the strongest lexical match scores 1.
    #[default]
    Fused,
    /// `0.2 × cosine + 0.2 × BM25 + 0.6 × best sentence`: the last is the highest cosine
    /// between the query and one sentence of the candidate, each sentence embedded on its own.
    Sentences,
    /// `0.2 × cosine + 0.8 × MaxSim`, ColBERT's late interaction: each query word piece's best
    /// cosine with a word piece of the candidate, averaged over the query, on the token vectors
    /// of [`LocalReranker::with_token_embedder`]'s encoder.
    LateInteraction,
}

/// The offline reranker (`name()` = "local").
///
/// **Not a cross-encoder**: it never reads the query and a document together, and nothing in it
/// was trained to rerank. It scores each candidate by one of the [`RerankMethod`]s, whose
/// weights were chosen on the tuning questions of `vai bench retrieval`. On the held-out
/// questions (written before that choice; docs/benchmarks.md), over 20 vector-search candidates:
///
/// - [`RerankMethod::LateInteraction`] (needs [`LocalReranker::with_token_embedder`]) is the
///   only one that beats vector order: MRR@10 0.856 → 0.896, hit@1 0.78 → 0.86, hit@3 equal;
/// - [`RerankMethod::Sentences`] is within a question or two of vector order (MRR 0.869);
/// - [`RerankMethod::Fused`], what [`LocalReranker::new`] does, is **slightly worse than vector
///   order** (MRR 0.840, hit@1 0.76), though it looked better on the tuning questions. It is
///   kept as the default because it needs nothing beyond the query's embedding.
///
/// A trained reranker such as Voyage's judges subtle relevance better, and scores from different
/// queries are not comparable.
///
/// Embeddings are reused where they already exist: a document's vector from the local store
/// when it holds that text ([`LocalReranker::with_stored_vectors`]), and a document's sentence
/// or token vectors from earlier reranks (kept in memory, up to 64 MB per method). After the
/// first rerank that meets a document, a rerank costs the query's embedding and arithmetic
/// (late interaction: ~18 ms for 20 candidates on 2 cores); that first meeting costs a pass of
/// the model over the document's sentences (60–120 ms a document), which
/// [`LocalReranker::prepare`] can pay ahead. Results are best first (ties keep input order), at
/// most `top_k`. The request's model name is not used; the response names what scored it.
pub struct LocalReranker {
    embedder: Arc<dyn Embedder>,
    embedding_model: String,
    semantic_weight: f64,
    method: RerankMethod,
    /// Where documents' embeddings may already be (the local store): those are not recomputed.
    stored: Option<Arc<LocalStore>>,
    tokens: Option<Arc<dyn TokenEmbedder>>,
    sentence_cache: DocumentCache<Vec<Vec<f32>>>,
    token_cache: DocumentCache<Matrix>,
}

impl std::fmt::Debug for LocalReranker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LocalReranker")
            .field("embedder", &self.embedder.name())
            .field("embedding_model", &self.embedding_model)
            .field("semantic_weight", &self.semantic_weight)
            .field("method", &self.method)
            .finish()
    }
}

impl LocalReranker {
    /// Rerank with `embedder`'s vectors by [`RerankMethod::Fused`], asking it for an empty
    /// model name (the local embedder ignores the name; see
    /// [`LocalReranker::with_embedding_model`] for others).
    pub fn new(embedder: Arc<dyn Embedder>) -> Self {
        LocalReranker {
            embedder,
            embedding_model: String::new(),
            semantic_weight: DEFAULT_SEMANTIC_WEIGHT,
            method: RerankMethod::default(),
            stored: None,
            tokens: None,
            sentence_cache: DocumentCache::new(CACHE_BUDGET),
            token_cache: DocumentCache::new(CACHE_BUDGET),
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

    /// For [`RerankMethod::Fused`]: weigh the cosine `weight` (clamped to [0, 1]) and BM25
    /// `1 - weight`.
    pub fn with_semantic_weight(mut self, weight: f64) -> Self {
        self.semantic_weight = if weight.is_nan() {
            DEFAULT_SEMANTIC_WEIGHT
        } else {
            weight.clamp(0.0, 1.0)
        };
        self
    }

    /// Score by `method`. [`RerankMethod::LateInteraction`] also needs
    /// [`LocalReranker::with_token_embedder`]; without one, a rerank fails.
    pub fn with_method(mut self, method: RerankMethod) -> Self {
        self.method = method;
        self
    }

    /// Score by [`RerankMethod::LateInteraction`] on `tokens`' token vectors, which must come
    /// from the model behind the embedder (all-MiniLM-L6-v2 for the local one): the query's
    /// embedding is then the mean of its token vectors, one pass of the model instead of two.
    pub fn with_token_embedder(mut self, tokens: Arc<dyn TokenEmbedder>) -> Self {
        self.tokens = Some(tokens);
        self.method = RerankMethod::LateInteraction;
        self
    }

    /// The method this reranker scores by.
    pub fn method(&self) -> RerankMethod {
        self.method
    }

    /// Compute now what the method keeps per document (sentence or token vectors) for those of
    /// `documents` not kept yet, so later reranks of them pay only for the query: what an index
    /// would hold. Nothing to do for [`RerankMethod::Fused`]. Returns the tokens read.
    pub async fn prepare(&self, documents: &[String]) -> Result<u64, ProviderError> {
        match self.method {
            RerankMethod::Fused => Ok(0),
            RerankMethod::Sentences => Ok(self.sentence_vectors(documents).await?.1),
            RerankMethod::LateInteraction => Ok(self.token_matrices(documents).await?.1),
        }
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
                model: self.model_name(None),
                usage: TokenUsage::default(),
            });
        }
        // Late interaction reads the query once: the mean of its token vectors is its embedding.
        let (q, query_tokens, mut tokens_read, query_model) = match self.method {
            RerankMethod::LateInteraction => {
                let encoder = self.token_embedder()?;
                let encoded = encoder.embed_tokens(vec![request.query.clone()]).await?;
                let Some(query) = encoded.first() else {
                    return Err(wrong_count(encoder.model()));
                };
                let read = query.tokens.len() as u64;
                (
                    late::pooled(query),
                    Matrix::of(&encoded),
                    read,
                    encoder.model().to_string(),
                )
            }
            _ => {
                let (q, read, model) = self.embed_query(&request.query).await?;
                (q, Matrix::default(), read, model)
            }
        };
        let (vectors, doc_tokens, doc_model) =
            self.document_vectors(&request.documents, q.len()).await?;
        tokens_read += doc_tokens;
        let cosines: Vec<f64> = vectors
            .iter()
            .map(|d| cosine_similarity(&q, d).max(0.0))
            .collect();

        let scores: Vec<f64> = match self.method {
            RerankMethod::Fused => {
                let w = self.semantic_weight;
                let lexical = bm25_normalised(&request.query, &request.documents);
                cosines
                    .iter()
                    .zip(&lexical)
                    .map(|(c, l)| w * c + (1.0 - w) * l)
                    .collect()
            }
            RerankMethod::Sentences => {
                let [wc, wl, ws] = SENTENCE_WEIGHTS;
                let lexical = bm25_normalised(&request.query, &request.documents);
                let (sentences, read) = self.sentence_vectors(&request.documents).await?;
                tokens_read += read;
                cosines
                    .iter()
                    .zip(&lexical)
                    .zip(&sentences)
                    .map(|((c, l), s)| wc * c + wl * l + ws * sentences::best(&q, s))
                    .collect()
            }
            RerankMethod::LateInteraction => {
                let [wc, wm] = LATE_WEIGHTS;
                let (documents, read) = self.token_matrices(&request.documents).await?;
                tokens_read += read;
                cosines
                    .iter()
                    .zip(&documents)
                    .map(|(c, d)| wc * c + wm * late::max_sim(&query_tokens, d).max(0.0))
                    .collect()
            }
        };
        let mut results: Vec<RerankScore> = scores
            .into_iter()
            .enumerate()
            .map(|(index, s)| RerankScore {
                index,
                relevance_score: s.clamp(0.0, 1.0),
            })
            .collect();
        // Stable: equal scores keep the input order.
        results.sort_by(|a, b| b.relevance_score.total_cmp(&a.relevance_score));
        if let Some(k) = request.top_k {
            results.truncate(k);
        }
        let model = doc_model.unwrap_or(query_model);
        Ok(RerankResponse {
            results,
            model: self.model_name(Some(&model)),
            usage: TokenUsage::input(tokens_read),
        })
    }
}

impl LocalReranker {
    /// What the response's `model` says scored it, naming the embedding model when one was
    /// asked.
    fn model_name(&self, embedding_model: Option<&str>) -> String {
        let (name, parts) = match self.method {
            RerankMethod::Fused => ("local-hybrid", "+ bm25"),
            RerankMethod::Sentences => ("local-sentences", "+ sentences + bm25"),
            RerankMethod::LateInteraction => ("local-late-interaction", "+ maxsim"),
        };
        match embedding_model {
            Some(model) => format!("{name} ({model} {parts})"),
            None => name.to_string(),
        }
    }

    /// The query's embedding, the tokens read and the model that made it.
    async fn embed_query(&self, query: &str) -> Result<(Vec<f32>, u64, String), ProviderError> {
        let embedded = self
            .embedder
            .embed(EmbedRequest {
                texts: vec![query.to_string()],
                model: self.embedding_model.clone(),
                input_type: Some(EmbedInputType::Query),
                dimensions: None,
            })
            .await?;
        let tokens = embedded.usage.input_tokens;
        let model = embedded.model;
        match embedded.embeddings.into_iter().next() {
            Some(q) => Ok((q, tokens, model)),
            None => Err(wrong_count(self.embedder.name())),
        }
    }

    fn token_embedder(&self) -> Result<&Arc<dyn TokenEmbedder>, ProviderError> {
        self.tokens.as_ref().ok_or_else(|| {
            ProviderError::other(
                "local",
                "rerank: late interaction needs a token embedder (with_token_embedder)",
            )
        })
    }

    /// Each document's sentence vectors, kept or computed, and the tokens read for them.
    async fn sentence_vectors(
        &self,
        documents: &[String],
    ) -> Result<(Vec<Arc<Vec<Vec<f32>>>>, u64), ProviderError> {
        self.sentence_cache
            .get_or_compute(documents, |missing| {
                sentences::vectors(self.embedder.as_ref(), &self.embedding_model, missing)
            })
            .await
    }

    /// Each document's token vectors, kept or computed, and the tokens read for them.
    async fn token_matrices(
        &self,
        documents: &[String],
    ) -> Result<(Vec<Arc<Matrix>>, u64), ProviderError> {
        let encoder = self.token_embedder()?.clone();
        self.token_cache
            .get_or_compute(documents, |missing| async move {
                let texts: Vec<&str> = missing.iter().map(String::as_str).collect();
                late::document_matrices(encoder.as_ref(), &texts).await
            })
            .await
    }

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

#[cfg(test)]
mod tests;
