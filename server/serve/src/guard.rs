//! Same-origin guard: a request must name this server in exactly one `Host`, in `Origin` when
//! it sends one, and in its request line when that line is absolute-form (`GET http://host/…`),
//! so neither a page on another site, nor a DNS-rebound name, nor a proxy-style request for
//! another authority can drive a local server.

use axum::Json;
use axum::extract::Request;
use axum::http::header::{HOST, ORIGIN};
use axum::http::{HeaderMap, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use std::sync::Arc;
use vai_contract::{ApiErrorBody, ApiErrorCode, ErrorInfo};

/// The `host:port` names a server answers to.
#[derive(Debug, Clone)]
pub struct HostGuard {
    hosts: Arc<[String]>,
}

impl HostGuard {
    /// A server on `port` answers to `127.0.0.1`, `localhost` and `[::1]`, and to `extra_hosts`
    /// (the `--host` address when it is not loopback).
    pub fn new(port: u16, extra_hosts: &[String]) -> Self {
        let hosts = ["127.0.0.1", "localhost", "[::1]"]
            .into_iter()
            .chain(extra_hosts.iter().map(String::as_str))
            .map(|h| format!("{h}:{port}"))
            .collect();
        Self { hosts }
    }

    /// Whether `request` names this server (see the module's comment).
    pub fn allows(&self, request: &Request) -> bool {
        self.authority_ok(request.uri())
            && self.host_ok(request.headers())
            && request
                .headers()
                .get(ORIGIN)
                .is_none_or(|o| self.origin_allowed(o.to_str().ok()))
    }

    /// True when `origin` is `http://<one of this server's names>`.
    pub fn origin_allowed(&self, origin: Option<&str>) -> bool {
        origin
            .and_then(|o| o.strip_prefix("http://"))
            .is_some_and(|rest| self.names(rest))
    }

    fn names(&self, host: &str) -> bool {
        self.hosts.iter().any(|a| a.eq_ignore_ascii_case(host))
    }

    /// Exactly one `Host`, naming this server: with two, a proxy or tool in between may read
    /// the other one than we do.
    fn host_ok(&self, headers: &HeaderMap) -> bool {
        let mut all = headers.get_all(HOST).iter();
        match (all.next(), all.next()) {
            (Some(host), None) => host.to_str().is_ok_and(|h| self.names(h)),
            _ => false,
        }
    }

    /// An absolute-form request line must name this server too (with its port: the default
    /// port of the scheme is not ours).
    fn authority_ok(&self, uri: &Uri) -> bool {
        match uri.authority() {
            None => true,
            Some(authority) => {
                uri.scheme_str() == Some("http")
                    && authority.port().is_some()
                    && self.names(authority.as_str())
            }
        }
    }
}

/// The one error body of vai's local servers: `{"error": {"code", "message"}}`.
pub fn error_response(
    status: StatusCode,
    code: ApiErrorCode,
    message: impl Into<String>,
) -> Response {
    let body = ApiErrorBody {
        error: ErrorInfo {
            code,
            message: message.into(),
            diagnostics: None,
            fields: None,
        },
    };
    (status, Json(body)).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(uri: &str, headers: &[(&str, &str)]) -> Request {
        let mut builder = Request::builder().uri(uri);
        for (k, v) in headers {
            builder = builder.header(*k, *v);
        }
        builder.body(axum::body::Body::empty()).unwrap()
    }

    #[test]
    fn host_origin_and_authority_must_name_this_server() {
        let guard = HostGuard::new(3100, &[]);
        let ok = |uri: &str, headers: &[(&str, &str)]| guard.allows(&request(uri, headers));
        assert!(ok("/", &[("host", "127.0.0.1:3100")]));
        assert!(ok("/", &[("host", "LOCALHOST:3100")]));
        assert!(ok(
            "/",
            &[
                ("host", "localhost:3100"),
                ("origin", "http://localhost:3100")
            ]
        ));
        assert!(ok(
            "http://127.0.0.1:3100/api",
            &[("host", "127.0.0.1:3100")]
        ));

        assert!(!ok("/", &[]));
        assert!(!ok("/", &[("host", "evil.example:3100")]));
        assert!(!ok("/", &[("host", "127.0.0.1:3101")]));
        assert!(!ok(
            "/",
            &[("host", "127.0.0.1:3100"), ("host", "127.0.0.1:3100")]
        ));
        assert!(!ok(
            "/",
            &[
                ("host", "127.0.0.1:3100"),
                ("origin", "http://evil.example")
            ]
        ));
        assert!(!ok("/", &[("host", "127.0.0.1:3100"), ("origin", "null")]));
        // Absolute-form request lines for another authority, with a right Host.
        assert!(!ok(
            "http://evil.example/api",
            &[("host", "127.0.0.1:3100")]
        ));
        assert!(!ok(
            "http://evil.example:3100/",
            &[("host", "127.0.0.1:3100")]
        ));
        assert!(!ok("http://127.0.0.1/", &[("host", "127.0.0.1:3100")]));
        assert!(!ok(
            "https://127.0.0.1:3100/",
            &[("host", "127.0.0.1:3100")]
        ));
    }

    #[test]
    fn extra_hosts_are_named_with_the_port() {
        let guard = HostGuard::new(8080, &["192.168.1.5".to_string()]);
        assert!(guard.origin_allowed(Some("http://192.168.1.5:8080")));
        assert!(!guard.origin_allowed(Some("http://192.168.1.5")));
        assert!(!guard.origin_allowed(None));
    }
}
