//! The vai playground server: `app(state)` is the whole axum router — REST routes under `/api`,
//! the WebSocket of run and chat events at `/api/ws`, and the embedded web app for everything
//! else — and `serve` accepts connections for it within the limits; both used by
//! `vai playground` and by the tests alike.

mod assets;
mod auth;
mod chat;
mod error;
mod graph;
mod guard;
mod limits;
mod routes;
mod serve;
mod state;

pub use error::ApiError;
pub use limits::{Limits, MAX_SOCKET_MESSAGE};
pub use routes::pricing::pricing_table;
pub use routes::ws::serve as serve_socket;
pub use serve::serve;
pub use state::{AppState, ServerSettings};
pub use vai_runtime::{AccessToken, BeforeRun, Library, LibraryEntry, RunManager, TokenError};

use axum::Router;
use axum::extract::DefaultBodyLimit;

/// Largest request body accepted (workflow files are limited to 5 MB; JSON adds overhead).
pub const MAX_BODY_BYTES: usize = 6 * 1024 * 1024;

/// The playground's router over `state`.
pub fn app(state: AppState) -> Router {
    let api = routes::router();
    Router::new()
        .nest("/api", api)
        .fallback(assets::serve)
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        // Inside the origin guard: a foreign page is refused before its token is looked at.
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            auth::require_token,
        ))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            guard::same_origin,
        ))
        .layer(tower_http::compression::CompressionLayer::new())
        .with_state(state)
}
