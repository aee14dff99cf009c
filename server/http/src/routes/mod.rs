//! The `/api` routes, one file per resource (the JSON body extractor they share is `json`).

mod chat;
mod config;
mod edit;
mod history;
mod json;
pub(crate) mod pricing;
mod runs;
mod save;
mod test_case;
mod tools;
mod workflows;
pub(crate) mod ws;

use crate::error::ApiError;
use crate::state::AppState;
use axum::Router;
use axum::routing::{get, post};

pub(crate) fn router() -> Router<AppState> {
    Router::new()
        .route("/workflows", get(workflows::list))
        .route("/workflows/validate", post(workflows::validate))
        .route("/workflows/plan", post(workflows::plan))
        .route("/workflows/references", post(edit::references))
        .route("/workflows/rewrite", post(edit::rewrite))
        .route("/workflows/complete", post(edit::complete))
        .route("/workflows/format", post(edit::format))
        .route("/workflows/save", post(save::save))
        .route("/workflows/starters", get(workflows::starters))
        .route("/workflows/{id}", get(workflows::get))
        .route("/tools", get(tools::catalog))
        .route("/config/status", get(config::status))
        .route("/pricing", get(pricing::table))
        .route("/history", get(history::list))
        .route("/history/diff", get(history::diff))
        .route("/history/{id}", get(history::record))
        .route("/history/{id}/restart", post(history::restart))
        .route("/runs", get(runs::list).post(runs::start))
        .route("/runs/{id}", get(runs::get))
        .route("/runs/{id}/cancel", post(runs::cancel))
        .route("/runs/{id}/resume", post(runs::resume))
        .route("/runs/{id}/input", post(runs::input))
        .route("/runs/{id}/continue", post(runs::continue_run))
        .route("/runs/{id}/output", get(runs::output))
        .route("/runs/{id}/test-case", post(test_case::save))
        .route("/runs/{id}/steps/{step}/output", get(runs::step))
        .route("/chat/config", get(chat::config))
        .route("/chat/sessions", get(chat::sessions))
        .route(
            "/chat/sessions/{id}",
            get(chat::session).delete(chat::delete),
        )
        .route(
            "/chat/sessions/{id}/turns/{turn}/workflow",
            get(chat::workflow),
        )
        .route("/ws", get(ws::upgrade))
        .fallback(not_found)
}

async fn not_found() -> ApiError {
    ApiError::NotFound("no such API route".into())
}
