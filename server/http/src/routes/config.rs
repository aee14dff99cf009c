//! `/api/config/status`: which backend serves each capability, as the composition root
//! described it. Never a secret.

use super::json::Json;
use crate::state::AppState;
use axum::extract::State;
use vai_contract::ConfigStatus;

pub(super) async fn status(State(state): State<AppState>) -> Json<ConfigStatus> {
    Json(state.inner().config.clone())
}
