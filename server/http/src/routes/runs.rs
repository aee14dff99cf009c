//! `/api/runs`: start, list, inspect and cancel runs, and fetch one step's full detail.

use super::Json;
use crate::error::ApiError;
use crate::library::version_of;
use crate::runs::StartRequest;
use crate::state::AppState;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use std::sync::Arc;
use vai_contract::{
    CancelAccepted, RunCreated, RunList, RunOutput, RunSnapshot, StartRun, StepDetail,
};
use vai_workflow::format::format;
use vai_workflow::{Mode, OnlyStep, compile};

pub(super) async fn start(
    State(state): State<AppState>,
    Json(body): Json<StartRun>,
) -> Result<(StatusCode, Json<RunCreated>), ApiError> {
    let compiled = compile(&body.definition, &state.inner().registry, Mode::Strict);
    let plan = match compiled.plan {
        Some(plan) if compiled.diagnostics.iter().all(|d| !d.is_error()) => plan,
        _ => return Err(ApiError::InvalidWorkflow(compiled.diagnostics)),
    };
    let only = match &body.step {
        None => None,
        Some(step) => {
            if plan.step_index(step).is_none() {
                return Err(ApiError::BadRequest(format!(
                    "the workflow has no step \"{step}\""
                )));
            }
            let replay = match &body.from_run {
                Some(id) => run(&state, id)?.outputs(),
                None => Default::default(),
            };
            Some(OnlyStep {
                step: step.clone(),
                replay,
            })
        }
    };
    let request = StartRequest {
        plan,
        inputs: body.inputs.unwrap_or_default(),
        workflow_id: body.workflow_id,
        only,
        definition_version: version_of(format(&body.definition).as_bytes()),
    };
    let run = state.runs().start(request).map_err(|errors| {
        let text: Vec<String> = errors.iter().map(ToString::to_string).collect();
        ApiError::InvalidInputs(text.join("; "))
    })?;
    Ok((
        StatusCode::CREATED,
        Json(RunCreated {
            run_id: run.id.clone(),
        }),
    ))
}

pub(super) async fn list(State(state): State<AppState>) -> Json<RunList> {
    Json(RunList {
        runs: state.runs().list(),
    })
}

pub(super) async fn get(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<RunSnapshot>, ApiError> {
    Ok(Json(run(&state, &id)?.snapshot()))
}

pub(super) async fn cancel(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<(StatusCode, Json<CancelAccepted>), ApiError> {
    let run = run(&state, &id)?;
    run.cancel.cancel();
    Ok((
        StatusCode::ACCEPTED,
        Json(CancelAccepted {
            run_id: run.id.clone(),
            status: run.summary().status,
        }),
    ))
}

pub(super) async fn output(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<RunOutput>, ApiError> {
    Ok(Json(run(&state, &id)?.output()))
}

pub(super) async fn step(
    State(state): State<AppState>,
    Path((id, step)): Path<(String, String)>,
) -> Result<Json<StepDetail>, ApiError> {
    run(&state, &id)?
        .step(&step)
        .map(Json)
        .ok_or_else(|| ApiError::NotFound(format!("run \"{id}\" has no step \"{step}\"")))
}

fn run(state: &AppState, id: &str) -> Result<Arc<crate::runs::Run>, ApiError> {
    state.runs().get(id).ok_or_else(|| {
        ApiError::NotFound(format!("no run \"{id}\" (the server keeps the last 20)"))
    })
}
