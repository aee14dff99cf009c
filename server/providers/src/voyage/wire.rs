//! The Voyage AI wire format: request and response bodies, one HTTP exchange with retries, and
//! how a failed exchange becomes a [`ProviderError`] that says what to do about it.

use super::{NAME, Part, VoyageClient};
use crate::net::{self, AttemptError, Failed};
use crate::{EmbedRequest, ProviderError, RerankRequest, RerankScore};
use reqwest::StatusCode;
use reqwest::header::{AUTHORIZATION, CONTENT_TYPE, RETRY_AFTER};
use serde::de::{DeserializeOwned, IgnoredAny};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::ops::Range;
use std::time::Duration;

/// Longest piece of a service message kept in an error.
const MAX_DETAIL_CHARS: usize = 500;

#[derive(Serialize)]
struct EmbedBody<'a> {
    input: &'a [String],
    model: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    input_type: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    output_dimension: Option<u32>,
    /// Texts longer than the model's context are cut rather than failing the whole call
    /// (Voyage's default, sent so the behaviour does not depend on it).
    truncation: bool,
}

#[derive(Deserialize)]
struct EmbedReply {
    data: Vec<Embedding>,
    model: Option<String>,
    #[serde(default)]
    usage: Usage,
}

#[derive(Deserialize)]
struct Embedding {
    embedding: Vec<f32>,
    index: usize,
}

#[derive(Serialize)]
struct RerankBody<'a> {
    query: &'a str,
    documents: &'a [String],
    model: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    top_k: Option<usize>,
    truncation: bool,
}

#[derive(Deserialize)]
struct RerankReply {
    data: Vec<Score>,
    model: Option<String>,
    #[serde(default)]
    usage: Usage,
}

#[derive(Deserialize)]
struct Score {
    index: usize,
    relevance_score: f64,
}

#[derive(Deserialize, Default)]
struct Usage {
    #[serde(default)]
    total_tokens: u64,
}

impl VoyageClient {
    /// Embeds `request.texts[range]` in one request; vectors come back in input order.
    pub(super) async fn embed_batch(
        &self,
        request: &EmbedRequest,
        range: Range<usize>,
    ) -> Result<Part<Vec<f32>>, ProviderError> {
        let texts = &request.texts[range];
        let body = EmbedBody {
            input: texts,
            model: &request.model,
            input_type: request.input_type.map(|t| t.as_str()),
            output_dimension: request.dimensions,
            truncation: true,
        };
        let reply: EmbedReply = self.post("embeddings", &body).await?;
        if reply.data.len() != texts.len() {
            let got = reply.data.len();
            return Err(malformed(
                "embeddings",
                format!("{got} embeddings for {} inputs", texts.len()),
            ));
        }
        // Voyage sends `index` with each vector; order by it rather than trusting the list order.
        let mut slots: Vec<Option<Vec<f32>>> = vec![None; texts.len()];
        for Embedding { embedding, index } in reply.data {
            let slot = slots.get_mut(index).ok_or_else(|| {
                malformed(
                    "embeddings",
                    format!("index {index} for {} inputs", texts.len()),
                )
            })?;
            if slot.replace(embedding).is_some() {
                return Err(malformed("embeddings", format!("index {index} twice")));
            }
        }
        let items = slots
            .into_iter()
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| malformed("embeddings", "an input without an embedding".to_string()))?;
        Ok(Part {
            items,
            model: reply.model.unwrap_or_else(|| request.model.clone()),
            tokens: reply.usage.total_tokens,
        })
    }

    /// Scores `request.documents[range]` in one request; indices in the result point into the
    /// whole `request.documents`. `top_k` is sent only when the range is every document.
    pub(super) async fn rerank_batch(
        &self,
        request: &RerankRequest,
        range: Range<usize>,
    ) -> Result<Part<RerankScore>, ProviderError> {
        let whole = range.len() == request.documents.len();
        let offset = range.start;
        let documents = &request.documents[range];
        let body = RerankBody {
            query: &request.query,
            documents,
            model: &request.model,
            top_k: request.top_k.filter(|&k| whole && k < documents.len()),
            truncation: true,
        };
        let reply: RerankReply = self.post("rerank", &body).await?;
        let items = reply
            .data
            .into_iter()
            .map(
                |Score {
                     index,
                     relevance_score,
                 }| {
                    if index < documents.len() {
                        Ok(RerankScore {
                            index: offset + index,
                            relevance_score,
                        })
                    } else {
                        let n = documents.len();
                        Err(malformed(
                            "rerank",
                            format!("index {index} for {n} documents"),
                        ))
                    }
                },
            )
            .collect::<Result<_, _>>()?;
        Ok(Part {
            items,
            model: reply.model.unwrap_or_else(|| request.model.clone()),
            tokens: reply.usage.total_tokens,
        })
    }

    /// POSTs `body` to `{base}/{endpoint}`, retrying transient failures, and reads the answer.
    async fn post<T: DeserializeOwned>(
        &self,
        endpoint: &str,
        body: &impl Serialize,
    ) -> Result<T, ProviderError> {
        let url = format!("{}/{endpoint}", self.base);
        let body = serde_json::to_vec(body).map_err(|e| {
            ProviderError::other(
                NAME,
                format!("could not encode the /{endpoint} request: {e}"),
            )
        })?;
        let bytes = net::retry(&self.retry, |_| self.attempt(&url, &body))
            .await
            .map_err(|failed| self.exhausted(failed))?;
        serde_json::from_slice(&bytes).map_err(|e| {
            // A typed parse reports a shape error at the first surprise, even in broken JSON;
            // checking the syntax on its own tells the two apart.
            let (what, e) = match serde_json::from_slice::<IgnoredAny>(&bytes) {
                Err(syntax) => ("malformed JSON", syntax),
                Ok(_) => ("an unexpected shape", e),
            };
            let start = self.redact(&String::from_utf8_lossy(&bytes[..bytes.len().min(80)]));
            ProviderError::other(
                NAME,
                format!(
                    "Voyage AI answered /{endpoint} with {what} ({e}); the body starts {start:?}"
                ),
            )
        })
    }

    async fn attempt(&self, url: &str, body: &[u8]) -> Result<Vec<u8>, AttemptError> {
        let response = self
            .http
            .post(url)
            .header(AUTHORIZATION, self.auth.clone())
            .header(CONTENT_TYPE, "application/json")
            .body(body.to_vec())
            .send()
            .await
            .map_err(|e| self.transport(&e))?;
        let status = response.status();
        let retry_after = response
            .headers()
            .get(RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .and_then(net::parse_retry_after);
        let bytes = response.bytes().await.map_err(|e| self.transport(&e))?;
        if status.is_success() {
            return Ok(bytes.to_vec());
        }
        let error = self.status_error(status, &bytes, retry_after);
        Err(AttemptError { error, retry_after })
    }

    fn transport(&self, e: &reqwest::Error) -> AttemptError {
        let provider = NAME.to_string();
        let error = if e.is_timeout() {
            ProviderError::Timeout {
                provider,
                after: self.timeout,
            }
        } else {
            let what = if e.is_connect() {
                "could not connect to"
            } else {
                "request failed to"
            };
            let message = format!("{what} Voyage AI at {}: {}", self.base, root_cause(e));
            ProviderError::Network { provider, message }
        };
        error.into()
    }

    fn status_error(
        &self,
        status: StatusCode,
        body: &[u8],
        retry_after: Option<Duration>,
    ) -> ProviderError {
        let code = status.as_u16();
        let detail = match self.redact(&detail_of(body)) {
            d if d.is_empty() => status
                .canonical_reason()
                .unwrap_or("no details")
                .to_string(),
            d => d,
        };
        let provider = NAME.to_string();
        match code {
            401 | 403 => ProviderError::Auth {
                provider,
                message: format!(
                    "Voyage AI rejected the API key ({code}): check VOYAGE_API_KEY{}. Voyage AI \
                     said: {detail}",
                    self.key_base_hint()
                ),
            },
            429 => ProviderError::RateLimited {
                provider,
                message: detail,
                retry_after,
            },
            500..=599 => ProviderError::Server {
                provider,
                status: code,
                message: detail,
            },
            404 => ProviderError::InvalidRequest {
                provider,
                message: format!(
                    "{detail} (HTTP 404 from {}; check VOYAGE_API_BASE)",
                    self.base
                ),
            },
            400..=499 => ProviderError::InvalidRequest {
                provider,
                message: format!("{detail} (HTTP {code})"),
            },
            _ => ProviderError::other(
                NAME,
                format!("unexpected HTTP {code} from {}: {detail}", self.base),
            ),
        }
    }

    /// The error a caller sees once retries are over, saying how many attempts were made.
    fn exhausted(&self, Failed { error, attempts }: Failed) -> ProviderError {
        let tries = if attempts == 1 {
            "1 attempt".to_string()
        } else {
            format!("{attempts} attempts")
        };
        match error {
            ProviderError::RateLimited {
                provider,
                message,
                retry_after,
            } => ProviderError::RateLimited {
                provider,
                message: format!("rate limited by Voyage AI after {tries}: {message}"),
                retry_after,
            },
            ProviderError::Server {
                provider,
                status,
                message,
            } if attempts > 1 => {
                let message = format!("{message} (after {tries})");
                ProviderError::Server {
                    provider,
                    status,
                    message,
                }
            }
            ProviderError::Network { provider, message } if attempts > 1 => {
                ProviderError::Network {
                    provider,
                    message: format!("{message} (after {tries})"),
                }
            }
            other => other,
        }
    }

    /// When a 401 may come from sending a key to the other endpoint, say so.
    pub(super) fn key_base_hint(&self) -> String {
        let (atlas_key, voyage_key) = (self.key.starts_with("al-"), self.key.starts_with("pa-"));
        let to_voyage = self.base.contains("api.voyageai.com");
        let to_atlas = self.base.contains("ai.mongodb.com");
        if (atlas_key && to_voyage) || (voyage_key && to_atlas) {
            let kind = if atlas_key {
                "a MongoDB Atlas key (al-)"
            } else {
                "a Voyage AI key (pa-)"
            };
            format!(
                " (it looks like {kind} but requests go to {}; check VOYAGE_API_BASE)",
                self.base
            )
        } else {
            String::new()
        }
    }

    /// `text` without the API key, whole or in part, in case the service echoed it.
    fn redact(&self, text: &str) -> String {
        vai_redact::mask(&text.replace(&self.key, vai_redact::REDACTED)).into_owned()
    }
}

fn malformed(endpoint: &str, what: String) -> ProviderError {
    ProviderError::other(NAME, format!("Voyage AI answered /{endpoint} with {what}"))
}

/// The service's explanation: `detail` (Voyage's field), `message` or `error` of a JSON body,
/// else the body's text; cut to a readable length.
fn detail_of(body: &[u8]) -> String {
    let text = match serde_json::from_slice::<Value>(body) {
        Ok(json) => ["detail", "message", "error"]
            .iter()
            .find_map(|field| match json.get(field) {
                None | Some(Value::Null) => None,
                Some(Value::String(s)) => Some(s.clone()),
                Some(other) => Some(other.to_string()),
            })
            .unwrap_or_else(|| json.to_string()),
        Err(_) => String::from_utf8_lossy(body).trim().to_string(),
    };
    match text.char_indices().nth(MAX_DETAIL_CHARS) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}

/// The innermost cause of a transport error ("Connection refused (os error 111)"), which says
/// more than reqwest's "error sending request".
fn root_cause(e: &reqwest::Error) -> String {
    let mut cause: &dyn std::error::Error = e;
    while let Some(inner) = cause.source() {
        cause = inner;
    }
    cause.to_string()
}
