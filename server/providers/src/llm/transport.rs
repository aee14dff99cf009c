//! The HTTP plumbing the LLM clients share: POST with retries (429 and 5xx, honouring
//! `Retry-After`), status codes mapped to [`ProviderError`], server-sent events read chunk by
//! chunk under an idle timeout, an overall time cap, and API keys scrubbed from every message.

use super::sse::{SseEvent, SseParser};
use crate::ProviderError;
use crate::net::{AttemptError, RetryPolicy, install_crypto_provider, parse_retry_after, retry};
use reqwest::header::{HeaderMap, RETRY_AFTER};
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::future::Future;
use std::ops::ControlFlow;
use std::time::Duration;

/// How long a call may take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Connecting and receiving the response headers, per attempt.
    pub first_byte: Duration,
    /// Between two chunks of a streamed answer.
    pub idle: Duration,
    /// The whole call, retries and streaming included.
    pub total: Duration,
}

impl Limits {
    /// The whole-call cap when only a per-request timeout is configured: long answers stream
    /// for minutes.
    pub const DEFAULT_TOTAL: Duration = Duration::from_secs(600);

    /// `timeout` for the first byte and between chunks, and the default cap on the whole call.
    pub fn with_timeout(timeout: Duration) -> Self {
        Limits {
            first_byte: timeout,
            idle: timeout,
            total: Self::DEFAULT_TOTAL.max(timeout),
        }
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits::with_timeout(super::LlmConfig::DEFAULT_TIMEOUT)
    }
}

/// An HTTP client for one provider. Rate limits (429), server errors (5xx), timeouts and
/// network failures before the answer starts are retried per its [`RetryPolicy`]; other 4xx
/// never are.
pub(crate) struct Transport {
    pub provider: &'static str,
    client: reqwest::Client,
    pub limits: Limits,
    pub retry: RetryPolicy,
    /// Scrubbed from every error message.
    secret: Option<String>,
}

impl Transport {
    pub(super) fn new(provider: &'static str, secret: Option<&str>) -> Result<Self, ProviderError> {
        install_crypto_provider();
        let client = reqwest::Client::builder()
            .user_agent(concat!("vai/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| {
                ProviderError::other(provider, format!("cannot build an HTTP client: {e}"))
            })?;
        Ok(Transport {
            provider,
            client,
            limits: Limits::default(),
            retry: RetryPolicy::new(3, Duration::from_millis(500)),
            secret: secret.map(|s| {
                vai_redact::register(s);
                s.to_string()
            }),
        })
    }

    /// Run `call` within the overall time cap.
    pub(super) async fn capped<T>(
        &self,
        call: impl Future<Output = Result<T, ProviderError>>,
    ) -> Result<T, ProviderError> {
        tokio::time::timeout(self.limits.total, call)
            .await
            .unwrap_or_else(|_| Err(self.timeout(self.limits.total)))
    }

    /// POST `body` as JSON, retrying transient failures; returns the successful response, whose
    /// body is still to be read.
    pub(super) async fn post(
        &self,
        url: &str,
        headers: &[(&str, &str)],
        body: &Value,
    ) -> Result<reqwest::Response, ProviderError> {
        retry(&self.retry, |_| async {
            self.post_once(url, headers, body)
                .await
                .map_err(AttemptError::from)
        })
        .await
        .map_err(|failed| failed.error)
    }

    async fn post_once(
        &self,
        url: &str,
        headers: &[(&str, &str)],
        body: &Value,
    ) -> Result<reqwest::Response, ProviderError> {
        let mut request = self.client.post(url).json(body);
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let response = tokio::time::timeout(self.limits.first_byte, request.send())
            .await
            .map_err(|_| self.timeout(self.limits.first_byte))?
            .map_err(|e| self.network(&e))?;
        let status = response.status().as_u16();
        if response.status().is_success() {
            return Ok(response);
        }
        let retry_after = retry_after(response.headers());
        let text = tokio::time::timeout(self.limits.idle, response.text())
            .await
            .ok()
            .and_then(Result::ok)
            .unwrap_or_default();
        let message = self.redact(error_message(&text));
        let provider = self.provider.to_string();
        Err(match status {
            401 | 403 => ProviderError::Auth { provider, message },
            429 => ProviderError::RateLimited {
                provider,
                message,
                retry_after,
            },
            500.. => ProviderError::Server {
                provider,
                status,
                message,
            },
            _ => ProviderError::InvalidRequest { provider, message },
        })
    }

    /// Read a response as server-sent events, handing each to `on_event` until it breaks or the
    /// body ends. Each chunk must arrive within the idle timeout.
    pub(super) async fn events(
        &self,
        mut response: reqwest::Response,
        mut on_event: impl FnMut(SseEvent) -> Result<ControlFlow<()>, ProviderError>,
    ) -> Result<(), ProviderError> {
        let mut parser = SseParser::new();
        loop {
            let chunk = tokio::time::timeout(self.limits.idle, response.chunk())
                .await
                .map_err(|_| self.timeout(self.limits.idle))?
                .map_err(|e| self.network(&e))?;
            let Some(chunk) = chunk else {
                return Ok(());
            };
            let events = parser
                .push(&chunk)
                .map_err(|e| self.malformed(format!("malformed event stream: {e}")))?;
            for event in events {
                if on_event(event)?.is_break() {
                    return Ok(());
                }
            }
        }
    }

    /// The whole body of a response that is not an event stream.
    pub(super) async fn body(&self, response: reqwest::Response) -> Result<String, ProviderError> {
        response.text().await.map_err(|e| self.network(&e))
    }

    /// Parse `data` (part of an answer) as JSON, or say it is malformed.
    pub(super) fn parse<T: DeserializeOwned>(
        &self,
        what: &str,
        data: &str,
    ) -> Result<T, ProviderError> {
        serde_json::from_str(data).map_err(|e| {
            self.malformed(format!("malformed JSON in {what} ({e}): {}", snippet(data)))
        })
    }

    pub(super) fn malformed(&self, message: String) -> ProviderError {
        ProviderError::other(self.provider, self.redact(message))
    }

    fn timeout(&self, after: Duration) -> ProviderError {
        ProviderError::Timeout {
            provider: self.provider.to_string(),
            after,
        }
    }

    fn network(&self, e: &reqwest::Error) -> ProviderError {
        if e.is_timeout() {
            return self.timeout(self.limits.first_byte);
        }
        // reqwest's message names the URL; its causes say what went wrong.
        let mut message = e.to_string();
        let mut source = std::error::Error::source(e);
        while let Some(cause) = source {
            message.push_str(": ");
            message.push_str(&cause.to_string());
            source = cause.source();
        }
        ProviderError::Network {
            provider: self.provider.to_string(),
            message: self.redact(message),
        }
    }

    /// `message` without the key, whole or in part (`vai_redact`).
    fn redact(&self, message: String) -> String {
        let message = match &self.secret {
            Some(secret) if !secret.is_empty() => {
                message.replace(secret.as_str(), vai_redact::REDACTED)
            }
            _ => message,
        };
        vai_redact::mask(&message).into_owned()
    }
}

/// A configured base URL without trailing slashes or a trailing `/v1`, which the clients add
/// themselves (`http://localhost:11434/v1` is a common way to write Ollama's).
pub(crate) fn base_url(base: &str) -> &str {
    let base = base.trim().trim_end_matches('/');
    base.strip_suffix("/v1")
        .unwrap_or(base)
        .trim_end_matches('/')
}

/// Whether the answer is streamed (`text/event-stream`) rather than one JSON body.
pub(crate) fn is_event_stream(response: &reqwest::Response) -> bool {
    response
        .headers()
        .get(reqwest::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_none_or(|v| v.trim_start().starts_with("text/event-stream"))
}

/// A JSON value cut short for an error message.
pub(crate) fn short(value: &Value) -> String {
    snippet(&value.to_string())
}

/// The wait a 429 or 503 asked for: `retry-after-ms` (OpenAI) or `Retry-After` (seconds or an
/// HTTP date).
fn retry_after(headers: &HeaderMap) -> Option<Duration> {
    let header = |name: &str| headers.get(name)?.to_str().ok();
    match header("retry-after-ms").and_then(|ms| ms.trim().parse::<f64>().ok()) {
        Some(ms) => Duration::try_from_secs_f64(ms / 1000.0).ok(),
        None => parse_retry_after(header(RETRY_AFTER.as_str())?),
    }
}

/// The human part of an error body: `error.message` (with Anthropic's `error.type`), a bare
/// `error` string (Ollama), or the start of the body.
fn error_message(body: &str) -> String {
    if let Ok(v) = serde_json::from_str::<Value>(body) {
        let message = v
            .pointer("/error/message")
            .or_else(|| v.get("error").filter(|e| e.is_string()))
            .or_else(|| v.get("message"))
            .and_then(Value::as_str);
        if let Some(message) = message {
            return match v.pointer("/error/type").and_then(Value::as_str) {
                Some(kind) => format!("{kind}: {message}"),
                None => message.to_string(),
            };
        }
    }
    match body.trim() {
        "" => "no details in the response".to_string(),
        text => snippet(text),
    }
}

/// At most 300 characters of `text`, for error messages.
fn snippet(text: &str) -> String {
    const MAX: usize = 300;
    match text.char_indices().nth(MAX) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use reqwest::header::HeaderValue;

    #[test]
    fn retry_after_headers() {
        let headers = |pairs: &[(&'static str, &'static str)]| {
            let mut map = HeaderMap::new();
            for (k, v) in pairs {
                map.insert(*k, HeaderValue::from_static(v));
            }
            map
        };
        assert_eq!(
            retry_after(&headers(&[("retry-after", "2")])),
            Some(Duration::from_secs(2))
        );
        assert_eq!(
            retry_after(&headers(&[("retry-after", "2"), ("retry-after-ms", "150")])),
            Some(Duration::from_millis(150))
        );
        assert_eq!(
            retry_after(&headers(&[(
                "retry-after",
                "Wed, 21 Oct 2015 07:28:00 GMT"
            )])),
            Some(Duration::ZERO)
        );
        assert_eq!(retry_after(&headers(&[("retry-after", "soon")])), None);
        assert_eq!(retry_after(&HeaderMap::new()), None);
    }

    #[test]
    fn error_bodies_of_each_provider() {
        assert_eq!(
            error_message(
                r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#
            ),
            "overloaded_error: Overloaded"
        );
        assert_eq!(
            error_message(
                r#"{"error":{"message":"Incorrect API key","type":null,"code":"invalid_api_key"}}"#
            ),
            "Incorrect API key"
        );
        assert_eq!(
            error_message(r#"{"error":"model \"x\" not found"}"#),
            "model \"x\" not found"
        );
        assert_eq!(error_message("  "), "no details in the response");
        assert_eq!(error_message(&"x".repeat(400)).chars().count(), 301);
    }
}
