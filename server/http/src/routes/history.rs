//! `/api/history`: the journaled runs — listed, one run's record, two runs compared, and a run
//! started again from a past run's step. A past run's steps are served by the `/api/runs`
//! routes like a live run's.

use super::json::Json;
use crate::error::{ApiError, QUOTE_LIMIT, clip};
use crate::state::AppState;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use serde::Deserialize;
use serde_json::Value;
use vai_contract::{HistoryEntry, HistoryList, HistoryRecord, RestartRun, RunCreated, RunDiff};
use vai_runtime::library::version_of;
use vai_runtime::runs::StartRequest;
use vai_runtime::runs::history::HistoryError;
use vai_workflow::format::format;
use vai_workflow::{Mode, Workflow, compile_with};

/// Most runs one listing returns.
const MAX_LISTED: usize = 500;

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct ListQuery {
    workflow_id: Option<String>,
    status: Option<String>,
    /// Milliseconds since the Unix epoch.
    since: Option<u64>,
}

pub(super) async fn list(
    State(state): State<AppState>,
    Query(q): Query<ListQuery>,
) -> Result<Json<HistoryList>, ApiError> {
    let runs = state
        .runs()
        .history()
        .await
        .map_err(history_error)?
        .into_iter()
        .filter(|r| {
            q.workflow_id
                .as_deref()
                .is_none_or(|w| r.workflow_id.as_deref() == Some(w))
        })
        .filter(|r| q.status.as_deref().is_none_or(|s| r.status == s))
        .filter(|r| q.since.is_none_or(|t| r.started_at >= t))
        .take(MAX_LISTED)
        .map(HistoryEntry::from)
        .collect();
    Ok(Json(HistoryList { runs }))
}

pub(super) async fn record(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<HistoryRecord>, ApiError> {
    let runs = state.runs();
    let record = runs.record(&id).await.map_err(history_error)?;
    let info = runs.history_info(&id).await;
    let changed_since = record
        .workflow_id
        .as_deref()
        .and_then(|id| state.inner().library.get(id).ok())
        .and_then(|doc| doc.definition)
        .map(|now| changes_since(&record.definition, &now));
    let Some(info) = info else {
        return Err(ApiError::NotFound(format!(
            "no run \"{}\" in the run history",
            clip(&record.run_id, QUOTE_LIMIT)
        )));
    };
    Ok(Json(HistoryRecord {
        run: info.into(),
        definition: record.definition,
        inputs: record.inputs,
        changed_since,
    }))
}

/// How the library's definition `now` differs from `ran` (the playground journals the
/// definition as the engine read it, so `now` is read the same way first).
fn changes_since(ran: &Value, now: &Value) -> Vec<String> {
    let now = serde_json::from_value::<Workflow>(now.clone())
        .ok()
        .and_then(|w| serde_json::to_value(w).ok())
        .unwrap_or_else(|| now.clone());
    vai_workflow::journal::changes(ran, &now)
}

#[derive(Debug, Deserialize)]
pub(super) struct DiffQuery {
    a: String,
    b: String,
}

pub(super) async fn diff(
    State(state): State<AppState>,
    Query(q): Query<DiffQuery>,
) -> Result<Json<RunDiff>, ApiError> {
    let runs = state.runs();
    let a = runs.record(&q.a).await.map_err(history_error)?;
    let b = runs.record(&q.b).await.map_err(history_error)?;
    vai_workflow::history::diff(&a, &b)
        .map(Json)
        .map_err(ApiError::BadRequest)
}

/// `POST /api/history/{id}/restart`: a new run of the past run's workflow (or the edited one
/// sent), from step `from`, the steps upstream replaying the past run's outputs.
pub(super) async fn restart(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Json(body): Json<RestartRun>,
) -> Result<(StatusCode, Json<RunCreated>), ApiError> {
    if state.runs().is_full() {
        return Err(ApiError::TooManyRuns(state.limits().max_runs));
    }
    let record = state.runs().record(&id).await.map_err(history_error)?;
    let definition = body.definition.unwrap_or(record.definition);
    let workflow_id = record
        .workflow_id
        .filter(|w| state.inner().library.contains(w));
    let label = workflow_id
        .as_deref()
        .and_then(|w| w.split_once(':'))
        .map_or("", |(_, name)| name);
    let compiled = compile_with(
        &definition,
        &state.inner().registry,
        Mode::Strict,
        &state.inner().library,
        label,
    );
    let plan = match compiled.plan {
        Some(plan) if compiled.diagnostics.iter().all(|d| !d.is_error()) => plan,
        _ => return Err(ApiError::InvalidWorkflow(compiled.diagnostics)),
    };
    let restarting = state
        .runs()
        .restarting(&id, &plan, &body.from)
        .await
        .map_err(history_error)?;
    let mut inputs = record.inputs;
    inputs.extend(body.inputs.unwrap_or_default());
    let request = StartRequest {
        plan,
        inputs,
        workflow_id,
        only: None,
        definition_version: version_of(format(&definition).as_bytes()),
        step_through: None,
        restart: Some(Box::new(restarting)),
    };
    super::runs::launch(&state, request)
}

fn history_error(e: HistoryError) -> ApiError {
    match e {
        HistoryError::NotFound(id) => ApiError::NotFound(format!(
            "no run \"{}\" in the run history",
            clip(&id, QUOTE_LIMIT)
        )),
        HistoryError::Unusable(message) => ApiError::BadRequest(message),
        // The cause is logged; the client is told the history cannot be read now.
        HistoryError::Store(cause) => ApiError::RunHistory(cause),
    }
}
