//! Streamable HTTP at `/mcp` (the SDK's own transport), behind the guard every vai server uses
//! (`vai_serve::HostGuard`: the request must name this server in exactly one `Host`, in
//! `Origin` when it sends one, and in an absolute-form request line), so neither a web page nor
//! a DNS-rebound name can drive it, and with the bearer key when one is set. Connections are
//! served by the bounded accept loop the playground uses too (`vai_serve::serve_bounded`: a
//! cap in all and per address, header, body and idle timeouts); request bodies are capped by
//! the transport.

use crate::server::McpServer;
use axum::Router;
use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::http::header::{AUTHORIZATION, WWW_AUTHENTICATE};
use axum::middleware::Next;
use axum::response::Response;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use std::future::Future;
use std::io;
use std::sync::Arc;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;
use vai_contract::ApiErrorCode;
use vai_serve::{HostGuard, ServeLimits, error_response};

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
    /// Connections (in all and per address), header, body and idle timeouts.
    pub limits: ServeLimits,
    /// Client sessions open at once; an `initialize` beyond it is refused with 503
    /// `TOO_MANY_SESSIONS`. A session idle for five minutes is closed.
    pub max_sessions: usize,
    /// Largest request body.
    pub max_body_bytes: usize,
}

impl HttpOptions {
    /// The defaults for a server listening on `port`.
    pub fn new(port: u16) -> Self {
        Self {
            key: None,
            port,
            extra_hosts: Vec::new(),
            // Each session may hold a standing event stream besides its requests.
            limits: ServeLimits {
                max_connections: 256,
                max_connections_per_ip: 128,
                ..ServeLimits::default()
            },
            max_sessions: 64,
            max_body_bytes: 8 * 1024 * 1024,
        }
    }
}

impl std::fmt::Debug for HttpOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpOptions")
            .field("key", &self.key.as_ref().map(|_| "…"))
            .field("port", &self.port)
            .field("extra_hosts", &self.extra_hosts)
            .field("limits", &self.limits)
            .finish_non_exhaustive()
    }
}

/// The bearer key: the same kind of secret as the playground's access token.
pub use vai_runtime::AccessToken as BearerKey;

/// What the guard checks against.
#[derive(Clone)]
struct Guard {
    hosts: HostGuard,
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
    let guard = Guard {
        hosts: HostGuard::new(options.port, &options.extra_hosts),
        key: options.key.clone(),
        sessions,
        max_sessions: options.max_sessions,
    };
    Router::new()
        .route_service(PATH, service)
        .layer(axum::middleware::from_fn_with_state(guard, check))
}

async fn check(State(guard): State<Guard>, request: Request, next: Next) -> Response {
    if !guard.hosts.allows(&request) {
        return error_response(
            StatusCode::FORBIDDEN,
            ApiErrorCode::ForbiddenOrigin,
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
            let mut response = error_response(
                StatusCode::UNAUTHORIZED,
                ApiErrorCode::Unauthorized,
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
        return error_response(
            StatusCode::SERVICE_UNAVAILABLE,
            ApiErrorCode::TooManySessions,
            "too many MCP sessions are open; close one (or wait for an idle one to expire) and connect again",
        );
    }
    next.run(request).await
}

/// The header naming a request's session.
const SESSION_HEADER: &str = "mcp-session-id";

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
    let shutdown = async move {
        shutdown.await;
        // Standing event streams end with their sessions, so connections can close.
        closing.cancel();
        server.close();
    };
    vai_serve::serve_bounded(listener, router, options.limits, shutdown).await
}
