//! Same-origin guard: a request must name the playground itself in exactly one `Host`, and in
//! `Origin` when it sends one, so neither a page on another site nor a DNS-rebound name can
//! drive the local server (docs/api.md).

use crate::error::ApiError;
use crate::state::AppState;
use axum::extract::{Request, State};
use axum::http::HeaderMap;
use axum::http::header::{HOST, ORIGIN};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

pub(crate) async fn same_origin(
    State(state): State<AppState>,
    request: Request,
    next: Next,
) -> Response {
    if !allowed(&state, request.headers()) {
        return ApiError::ForbiddenOrigin.into_response();
    }
    next.run(request).await
}

fn allowed(state: &AppState, headers: &HeaderMap) -> bool {
    let hosts = &state.inner().hosts;
    // Two `Host` headers are refused whatever they say: a proxy or tool in between may read the
    // other one than we do.
    let mut all = headers.get_all(HOST).iter();
    let host_ok = match (all.next(), all.next()) {
        (Some(host), None) => host
            .to_str()
            .is_ok_and(|h| hosts.iter().any(|a| a.eq_ignore_ascii_case(h))),
        _ => false,
    };
    host_ok
        && headers
            .get(ORIGIN)
            .is_none_or(|o| origin_matches(state, o.to_str().ok()))
}

/// True when `origin` is `http://<one of the playground's hosts>`.
pub(crate) fn origin_matches(state: &AppState, origin: Option<&str>) -> bool {
    origin
        .and_then(|o| o.strip_prefix("http://"))
        .is_some_and(|rest| {
            state
                .inner()
                .hosts
                .iter()
                .any(|a| a.eq_ignore_ascii_case(rest))
        })
}
