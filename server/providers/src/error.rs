//! `ProviderError`: why a provider call failed, and whether trying again may help.

use std::time::Duration;

/// A failed provider call. `provider` is the backend's `name()` ("voyage", "mongodb", …).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ProviderError {
    /// Nothing is configured for this capability (or a setting it needs is missing); the message
    /// says what to set.
    #[error("{0}")]
    NotConfigured(String),
    /// The credentials were refused (401/403).
    #[error("{provider}: authentication failed: {message}")]
    Auth { provider: String, message: String },
    /// Too many requests (429); `retry_after` comes from the `Retry-After` header when sent.
    #[error("{provider}: rate limited{}: {message}", retry_hint(.retry_after))]
    RateLimited {
        provider: String,
        message: String,
        retry_after: Option<Duration>,
    },
    /// No answer within the time allowed.
    #[error("{provider}: timed out after {}ms", .after.as_millis())]
    Timeout { provider: String, after: Duration },
    /// The connection failed before an answer arrived (refused, reset, DNS).
    #[error("{provider}: network error: {message}")]
    Network { provider: String, message: String },
    /// The service failed (5xx).
    #[error("{provider}: server error {status}: {message}")]
    Server {
        provider: String,
        status: u16,
        message: String,
    },
    /// The service rejected the request as malformed (4xx other than auth and rate limits), or a
    /// backend cannot do what was asked.
    #[error("{provider}: invalid request: {message}")]
    InvalidRequest { provider: String, message: String },
    /// Anything else (an unexpected response shape, …).
    #[error("{provider}: {message}")]
    Other { provider: String, message: String },
}

fn retry_hint(retry_after: &Option<Duration>) -> String {
    match retry_after {
        Some(d) => format!(" (retry after {}ms)", d.as_millis()),
        None => String::new(),
    }
}

impl ProviderError {
    /// Rate limits, timeouts, network failures and 5xx: the same call may succeed later.
    pub fn is_transient(&self) -> bool {
        matches!(
            self,
            ProviderError::RateLimited { .. }
                | ProviderError::Timeout { .. }
                | ProviderError::Network { .. }
                | ProviderError::Server { .. }
        )
    }

    /// How long the service asked us to wait before retrying, when it said.
    pub fn retry_after(&self) -> Option<Duration> {
        match self {
            ProviderError::RateLimited { retry_after, .. } => *retry_after,
            _ => None,
        }
    }

    pub fn invalid_request(provider: impl Into<String>, message: impl Into<String>) -> Self {
        ProviderError::InvalidRequest {
            provider: provider.into(),
            message: message.into(),
        }
    }

    pub fn other(provider: impl Into<String>, message: impl Into<String>) -> Self {
        ProviderError::Other {
            provider: provider.into(),
            message: message.into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transient_errors_are_rate_limits_timeouts_network_and_server_failures() {
        let p = || "voyage".to_string();
        let transient = [
            ProviderError::RateLimited {
                provider: p(),
                message: "slow down".into(),
                retry_after: Some(Duration::from_secs(2)),
            },
            ProviderError::Timeout {
                provider: p(),
                after: Duration::from_secs(30),
            },
            ProviderError::Network {
                provider: p(),
                message: "connection refused".into(),
            },
            ProviderError::Server {
                provider: p(),
                status: 503,
                message: "unavailable".into(),
            },
        ];
        assert!(transient.iter().all(ProviderError::is_transient));
        let permanent = [
            ProviderError::NotConfigured("set X".into()),
            ProviderError::Auth {
                provider: p(),
                message: "bad key".into(),
            },
            ProviderError::invalid_request(p(), "bad model"),
            ProviderError::other(p(), "odd"),
        ];
        assert!(!permanent.iter().any(ProviderError::is_transient));
    }

    #[test]
    fn rate_limit_message_carries_the_retry_delay() {
        let e = ProviderError::RateLimited {
            provider: "voyage".into(),
            message: "too many requests".into(),
            retry_after: Some(Duration::from_millis(1500)),
        };
        assert_eq!(e.retry_after(), Some(Duration::from_millis(1500)));
        assert_eq!(
            e.to_string(),
            "voyage: rate limited (retry after 1500ms): too many requests"
        );
    }
}
