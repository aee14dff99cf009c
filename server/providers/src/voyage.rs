//! The Voyage AI client: embeddings (`POST {base}/embeddings`) and reranking (`POST
//! {base}/rerank`), with the base chosen from the key, inputs split into batches the service
//! accepts, and 429/5xx retried with backoff.
//!
//! Batching (`batch`) keeps order and sums the token usage of every request, so a step reports
//! what the whole call cost. The HTTP exchange and its error mapping live in `wire`.

mod batch;
mod wire;

#[cfg(test)]
mod tests;

pub use batch::{
    MAX_EMBED_INPUTS, MAX_RERANK_DOCUMENTS, embed_token_limit, estimate_tokens, plan,
    rerank_token_limit,
};

use crate::net::{self, RetryPolicy};
use crate::{
    EmbedRequest, EmbedResponse, Embedder, ProviderError, RerankRequest, RerankResponse,
    RerankScore, Reranker, TokenUsage,
};
use async_trait::async_trait;
use futures_util::future::BoxFuture;
use futures_util::{StreamExt, TryStreamExt, stream};
use reqwest::header::HeaderValue;
use std::fmt;
use std::ops::Range;
use std::time::Duration;

const NAME: &str = "voyage";

/// The MongoDB Atlas endpoint of Voyage AI (keys starting `al-`, and the default).
pub const ATLAS_BASE: &str = "https://ai.mongodb.com/v1";

/// Voyage AI's own endpoint (keys starting `pa-`).
pub const VOYAGE_BASE: &str = "https://api.voyageai.com/v1";

/// Batches of one call in flight at once; results are reassembled in input order.
const CONCURRENT_REQUESTS: usize = 4;

/// Where and how to reach Voyage AI. The composition root fills `base_url` from
/// `VOYAGE_API_BASE` or the user config; `None` picks the base from the key.
#[derive(Clone)]
pub struct VoyageConfig {
    pub api_key: String,
    pub base_url: Option<String>,
    /// Per request (each attempt), from connecting to the last byte of the answer.
    pub timeout: Duration,
    /// Retries of a request answered 429 or 5xx, or not answered in time.
    pub max_retries: u32,
    /// Wait before the first retry when the service gives no `Retry-After`; doubled each time.
    pub initial_backoff: Duration,
}

impl VoyageConfig {
    /// The defaults (30 s timeout, 4 retries from 500 ms) with `api_key`.
    pub fn new(api_key: impl Into<String>) -> Self {
        VoyageConfig {
            api_key: api_key.into(),
            ..VoyageConfig::default()
        }
    }
}

impl Default for VoyageConfig {
    fn default() -> Self {
        VoyageConfig {
            api_key: String::new(),
            base_url: None,
            timeout: Duration::from_secs(30),
            max_retries: 4,
            initial_backoff: Duration::from_millis(500),
        }
    }
}

impl fmt::Debug for VoyageConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("VoyageConfig")
            .field("api_key", &"[redacted]")
            .field("base_url", &self.base_url)
            .field("timeout", &self.timeout)
            .field("max_retries", &self.max_retries)
            .field("initial_backoff", &self.initial_backoff)
            .finish()
    }
}

/// The API base for a key, as the reference picks it: `al-` keys → MongoDB Atlas, `pa-` keys →
/// Voyage AI, anything else → the Atlas default.
pub fn base_for_key(key: &str) -> &'static str {
    if key.trim_start().starts_with("pa-") {
        VOYAGE_BASE
    } else {
        ATLAS_BASE
    }
}

/// Embeds and reranks with Voyage AI. Cheap to share behind an `Arc`; one connection pool.
pub struct VoyageClient {
    http: reqwest::Client,
    base: String,
    /// `Bearer <key>`, marked sensitive so it never shows in debug output.
    auth: HeaderValue,
    /// Only to scrub the key from anything the service echoes back.
    key: String,
    timeout: Duration,
    retry: RetryPolicy,
}

impl fmt::Debug for VoyageClient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("VoyageClient")
            .field("base", &self.base)
            .field("timeout", &self.timeout)
            .field("retry", &self.retry)
            .finish_non_exhaustive()
    }
}

impl VoyageClient {
    /// A client for `config`; fails when the key is empty or unusable, or the base URL is not an
    /// http(s) URL. Nothing is sent yet.
    pub fn new(config: VoyageConfig) -> Result<Self, ProviderError> {
        let key = config.api_key.trim().to_string();
        // Whatever text this process shows from now on, the key is masked in it.
        vai_redact::register(&key);
        if key.is_empty() {
            return Err(ProviderError::NotConfigured(
                "Voyage AI: the API key is empty. Set VOYAGE_API_KEY (or run `vai config set \
                 api-key <key>`)."
                    .into(),
            ));
        }
        let mut auth = HeaderValue::from_str(&format!("Bearer {key}")).map_err(|_| {
            ProviderError::NotConfigured(
                "Voyage AI: the API key holds characters an HTTP header cannot carry (a line \
                 break or quote?); check VOYAGE_API_KEY."
                    .into(),
            )
        })?;
        auth.set_sensitive(true);

        let base = match config.base_url.as_deref().map(str::trim) {
            Some(url) if !url.is_empty() => url.trim_end_matches('/').to_string(),
            _ => base_for_key(&key).to_string(),
        };
        match reqwest::Url::parse(&base) {
            Ok(url) if matches!(url.scheme(), "http" | "https") => {}
            _ => {
                return Err(ProviderError::NotConfigured(format!(
                    "Voyage AI: the API base {base:?} is not an http(s) URL; check \
                     VOYAGE_API_BASE (or `vai config set base-url`)."
                )));
            }
        }

        net::install_crypto_provider();
        let http = reqwest::Client::builder()
            .user_agent(concat!("vai/", env!("CARGO_PKG_VERSION")))
            .timeout(config.timeout)
            .connect_timeout(config.timeout.min(Duration::from_secs(10)))
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(|e| {
                ProviderError::other(NAME, format!("could not build the HTTP client: {e}"))
            })?;
        Ok(VoyageClient {
            http,
            base,
            auth,
            key,
            timeout: config.timeout,
            retry: RetryPolicy::new(config.max_retries, config.initial_backoff),
        })
    }

    /// The API base requests go to (no trailing slash).
    pub fn base_url(&self) -> &str {
        &self.base
    }

    /// Runs `call` on `range`; when the service rejects a batch of several items as too large
    /// (the token estimate fell short), runs it again as two halves and joins the answers.
    fn split_on_rejection<'a, T: Send + 'a>(
        &'a self,
        range: Range<usize>,
        call: &'a (dyn Fn(Range<usize>) -> BoxFuture<'a, Result<Part<T>, ProviderError>> + Sync),
    ) -> BoxFuture<'a, Result<Part<T>, ProviderError>> {
        Box::pin(async move {
            match call(range.clone()).await {
                Err(e) if range.len() > 1 && is_batch_too_large(&e) => {
                    let mid = range.start + range.len() / 2;
                    let left = self.split_on_rejection(range.start..mid, call).await?;
                    let right = self.split_on_rejection(mid..range.end, call).await?;
                    Ok(left.join(right))
                }
                other => other,
            }
        })
    }
}

/// What one or more requests returned for a run of inputs.
struct Part<T> {
    items: Vec<T>,
    model: String,
    tokens: u64,
}

impl<T> Part<T> {
    fn join(mut self, other: Part<T>) -> Part<T> {
        self.items.extend(other.items);
        self.tokens += other.tokens;
        self
    }
}

/// Joins parts in order: the first part's model (or `fallback_model` when there was no request),
/// every item, the tokens of all.
fn join_parts<T>(parts: Vec<Part<T>>, fallback_model: &str) -> Part<T> {
    let mut parts = parts.into_iter();
    let first = parts.next().unwrap_or_else(|| Part {
        items: Vec::new(),
        model: fallback_model.to_string(),
        tokens: 0,
    });
    parts.fold(first, Part::join)
}

#[async_trait]
impl Embedder for VoyageClient {
    fn name(&self) -> &str {
        NAME
    }

    async fn embed(&self, request: EmbedRequest) -> Result<EmbedResponse, ProviderError> {
        let costs = request.texts.iter().map(|t| estimate_tokens(t));
        let batches = plan(costs, MAX_EMBED_INPUTS, embed_token_limit(&request.model));
        let call = |range: Range<usize>| -> BoxFuture<'_, Result<Part<Vec<f32>>, ProviderError>> {
            Box::pin(self.embed_batch(&request, range))
        };
        let parts: Vec<_> = stream::iter(batches)
            .map(|range| self.split_on_rejection(range, &call))
            .buffered(CONCURRENT_REQUESTS)
            .try_collect()
            .await?;
        let all = join_parts(parts, &request.model);
        Ok(EmbedResponse {
            embeddings: all.items,
            model: all.model,
            usage: TokenUsage::input(all.tokens),
        })
    }
}

#[async_trait]
impl Reranker for VoyageClient {
    fn name(&self) -> &str {
        NAME
    }

    async fn rerank(&self, request: RerankRequest) -> Result<RerankResponse, ProviderError> {
        if request.top_k == Some(0) {
            return Ok(RerankResponse {
                results: Vec::new(),
                model: request.model,
                usage: TokenUsage::default(),
            });
        }
        // Voyage counts the query once per document.
        let query_tokens = estimate_tokens(&request.query);
        let costs = request
            .documents
            .iter()
            .map(|d| query_tokens + estimate_tokens(d));
        let batches = plan(
            costs,
            MAX_RERANK_DOCUMENTS,
            rerank_token_limit(&request.model),
        );
        let call =
            |range: Range<usize>| -> BoxFuture<'_, Result<Part<RerankScore>, ProviderError>> {
                Box::pin(self.rerank_batch(&request, range))
            };
        let parts: Vec<_> = stream::iter(batches)
            .map(|range| self.split_on_rejection(range, &call))
            .buffered(CONCURRENT_REQUESTS)
            .try_collect()
            .await?;
        // Scores of a cross-encoder do not depend on the other documents of the batch, so the
        // batches' results merge into one ranking.
        let mut all = join_parts(parts, &request.model);
        all.items.sort_by(|a, b| {
            b.relevance_score
                .total_cmp(&a.relevance_score)
                .then(a.index.cmp(&b.index))
        });
        if let Some(k) = request.top_k {
            all.items.truncate(k);
        }
        Ok(RerankResponse {
            results: all.items,
            model: all.model,
            usage: TokenUsage::input(all.tokens),
        })
    }
}

/// Whether the service refused a batch for holding too many tokens, which a smaller batch fixes.
fn is_batch_too_large(error: &ProviderError) -> bool {
    match error {
        ProviderError::InvalidRequest { message, .. } => {
            let m = message.to_ascii_lowercase();
            m.contains("batch") && m.contains("token")
        }
        _ => false,
    }
}
