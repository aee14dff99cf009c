//! Streamable HTTP at `/mcp` (the SDK's own transport), behind the playground's kind of guard: a
//! request must name this server in exactly one `Host` (and in `Origin`, when it sends one), so
//! neither a web page nor a DNS-rebound name can drive it, and must carry the bearer key when
//! one is set. Connections are served at most `max_connections` at once, each with a time limit
//! on sending its headers; request bodies are capped by the transport.

use crate::server::McpServer;
use axum::Router;
use axum::extract::{Request, State};
use axum::http::header::{AUTHORIZATION, CONTENT_TYPE, HOST, ORIGIN, WWW_AUTHENTICATE};
use axum::http::{HeaderMap, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use std::future::Future;
use std::io;
use std::pin::pin;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

/// The path the server answers on.
pub const PATH: &str = "/mcp";

/// How the HTTP transport is set up.
#[derive(Clone)]
pub struct HttpOptions {
    /// The key every request must present as `Authorization: Bearer <key>`; `None`: no key.
    pub key: Option<BearerKey>,
    /// The port requests must name in `Host`.
    pub port: u16,
    /// Host names besides the loopback ones that requests may name (the `--host` address when
    /// it is not loopback).
    pub extra_hosts: Vec<String>,
    /// Connections served at once; beyond it new ones wait in the listen queue.
    pub max_connections: usize,
    /// Client sessions open at once; an `initialize` beyond it is refused with 503
    /// `TOO_MANY_SESSIONS`. A session idle for five minutes is closed.
    pub max_sessions: usize,
    /// Largest request body.
    pub max_body_bytes: usize,
    /// Time a connection has to send a request's headers.
    pub header_timeout: Duration,
}

impl HttpOptions {
    /// The defaults for a server listening on `port`.
    pub fn new(port: u16) -> Self {
        Self {
            key: None,
            port,
            extra_hosts: Vec::new(),
            max_connections: 64,
            max_sessions: 64,
            max_body_bytes: 8 * 1024 * 1024,
            header_timeout: Duration::from_secs(10),
        }
    }
}

impl std::fmt::Debug for HttpOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpOptions")
            .field("key", &self.key.as_ref().map(|_| "…"))
            .field("port", &self.port)
            .field("extra_hosts", &self.extra_hosts)
            .finish_non_exhaustive()
    }
}

/// The bearer key: the same kind of secret as the playground's access token.
pub use vai_runtime::AccessToken as BearerKey;

/// What the guard checks against.
#[derive(Clone)]
struct Guard {
    /// `host:port` values a request's `Host` may hold.
    hosts: Arc<Vec<String>>,
    key: Option<BearerKey>,
    sessions: Arc<LocalSessionManager>,
    max_sessions: usize,
}

/// The `/mcp` route, guarded; `closing` ends every session when cancelled.
pub fn router(server: McpServer, options: &HttpOptions, closing: CancellationToken) -> Router {
    let config = StreamableHttpServerConfig::default()
        // The guard below checks Host with its port, and Origin, before the transport sees them.
        .disable_allowed_hosts()
        .with_max_request_body_bytes(options.max_body_bytes)
        .with_cancellation_token(closing);
    let sessions = Arc::new(LocalSessionManager::default());
    let service =
        StreamableHttpService::new(move || Ok(server.connection()), sessions.clone(), config);
    let hosts = ["127.0.0.1", "localhost", "[::1]"]
        .into_iter()
        .map(str::to_string)
        .chain(options.extra_hosts.iter().cloned())
        .map(|h| format!("{h}:{}", options.port))
        .collect();
    let guard = Guard {
        hosts: Arc::new(hosts),
        key: options.key.clone(),
        sessions,
        max_sessions: options.max_sessions,
    };
    Router::new()
        .route_service(PATH, service)
        .layer(axum::middleware::from_fn_with_state(guard, check))
}

async fn check(State(guard): State<Guard>, request: Request, next: Next) -> Response {
    if !same_origin(&guard, request.headers()) {
        return refuse(
            StatusCode::FORBIDDEN,
            "FORBIDDEN_ORIGIN",
            "the request must name this server in Host (and Origin, when it sends one)",
        );
    }
    if let Some(key) = &guard.key {
        let presented = request
            .headers()
            .get(AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "));
        if !presented.is_some_and(|p| key.matches(p.trim())) {
            let mut response = refuse(
                StatusCode::UNAUTHORIZED,
                "UNAUTHORIZED",
                "send the server's key as Authorization: Bearer <key> (VAI_MCP_SERVER_KEY, or the key vai mcp printed)",
            );
            response
                .headers_mut()
                .insert(WWW_AUTHENTICATE, "Bearer".parse().expect("a valid header"));
            return response;
        }
    }
    // A request without a session id opens one (`initialize`).
    if !request.headers().contains_key(SESSION_HEADER)
        && guard.sessions.sessions.read().await.len() >= guard.max_sessions
    {
        return refuse(
            StatusCode::SERVICE_UNAVAILABLE,
            "TOO_MANY_SESSIONS",
            "too many MCP sessions are open; close one (or wait for an idle one to expire) and connect again",
        );
    }
    next.run(request).await
}

/// The header naming a request's session.
const SESSION_HEADER: &str = "mcp-session-id";

fn same_origin(guard: &Guard, headers: &HeaderMap) -> bool {
    // Two `Host` headers are refused whatever they say.
    let mut all = headers.get_all(HOST).iter();
    let host_ok = match (all.next(), all.next()) {
        (Some(host), None) => host
            .to_str()
            .is_ok_and(|h| guard.hosts.iter().any(|a| a.eq_ignore_ascii_case(h))),
        _ => false,
    };
    host_ok
        && headers.get(ORIGIN).is_none_or(|o| {
            o.to_str()
                .ok()
                .and_then(|o| o.strip_prefix("http://"))
                .is_some_and(|rest| guard.hosts.iter().any(|a| a.eq_ignore_ascii_case(rest)))
        })
}

fn refuse(status: StatusCode, code: &str, message: &str) -> Response {
    let body = serde_json::json!({"error": {"code": code, "message": message}}).to_string();
    (status, [(CONTENT_TYPE, "application/json")], body).into_response()
}

/// Serve `server` on `listener` until `shutdown` resolves; then end every session, stop
/// accepting, and return once the open connections have closed (or after a few seconds).
pub async fn serve(
    listener: TcpListener,
    server: McpServer,
    options: HttpOptions,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> io::Result<()> {
    let closing = CancellationToken::new();
    let router = router(server.clone(), &options, closing.clone());
    let slots = Arc::new(Semaphore::new(options.max_connections.max(1)));
    let connections = TaskTracker::new();
    let mut shutdown = pin!(shutdown);
    loop {
        let slot = tokio::select! {
            slot = slots.clone().acquire_owned() => slot.map_err(io::Error::other)?,
            () = &mut shutdown => break,
        };
        let tcp = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((tcp, _)) => tcp,
                Err(e) => {
                    tracing::warn!(error = %e, "cannot accept a connection");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let _ = tcp.set_nodelay(true);
        let service = TowerToHyperService::new(router.clone());
        let closing = closing.clone();
        let header_timeout = options.header_timeout;
        connections.spawn(async move {
            let _slot = slot;
            let conn = http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(header_timeout)
                .serve_connection(TokioIo::new(tcp), service);
            let mut conn = pin!(conn);
            tokio::select! {
                _ = conn.as_mut() => {}
                () = closing.cancelled() => {
                    conn.as_mut().graceful_shutdown();
                    let _ = tokio::time::timeout(Duration::from_secs(5), conn).await;
                }
            }
        });
    }
    drop(listener);
    closing.cancel();
    server.close();
    connections.close();
    let _ = tokio::time::timeout(Duration::from_secs(10), connections.wait()).await;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_and_origin_must_name_this_server() {
        let guard = Guard {
            hosts: Arc::new(vec!["127.0.0.1:3100".into(), "localhost:3100".into()]),
            key: None,
            sessions: Arc::new(LocalSessionManager::default()),
            max_sessions: 1,
        };
        let headers = |pairs: &[(&str, &str)]| {
            let mut h = HeaderMap::new();
            for (k, v) in pairs {
                h.append(
                    axum::http::HeaderName::from_bytes(k.as_bytes()).unwrap(),
                    v.parse().unwrap(),
                );
            }
            h
        };
        assert!(same_origin(&guard, &headers(&[("host", "127.0.0.1:3100")])));
        assert!(same_origin(
            &guard,
            &headers(&[
                ("host", "localhost:3100"),
                ("origin", "http://localhost:3100")
            ])
        ));
        assert!(!same_origin(&guard, &headers(&[])));
        assert!(!same_origin(
            &guard,
            &headers(&[("host", "evil.example:3100")])
        ));
        assert!(!same_origin(
            &guard,
            &headers(&[("host", "127.0.0.1:3101")])
        ));
        assert!(!same_origin(
            &guard,
            &headers(&[("host", "127.0.0.1:3100"), ("host", "127.0.0.1:3100")])
        ));
        assert!(!same_origin(
            &guard,
            &headers(&[
                ("host", "127.0.0.1:3100"),
                ("origin", "http://evil.example")
            ])
        ));
        assert!(!same_origin(
            &guard,
            &headers(&[("host", "127.0.0.1:3100"), ("origin", "null")])
        ));
    }
}
