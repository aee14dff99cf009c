//! Same-origin guard: a request must name the playground itself (`vai_serve::HostGuard`: one
//! `Host`, `Origin` when sent, an absolute-form request line's authority), so neither a page on
//! another site nor a DNS-rebound name can drive the local server (docs/api.md).

use crate::error::ApiError;
use crate::state::AppState;
use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

pub(crate) async fn same_origin(
    State(state): State<AppState>,
    request: Request,
    next: Next,
) -> Response {
    if !state.inner().guard.allows(&request) {
        return ApiError::ForbiddenOrigin.into_response();
    }
    next.run(request).await
}
