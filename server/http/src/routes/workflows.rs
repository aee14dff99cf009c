//! `/api/workflows`: the library, validation and the plan graph.

use super::json::Json;
use crate::error::ApiError;
use crate::graph;
use crate::state::AppState;
use axum::extract::{Path, State};
use serde_json::Value;
use vai_contract::{
    PlanResponse, StarterList, ValidateResponse, WorkflowBody, WorkflowDocument, WorkflowList,
    WorkflowStarter,
};
use vai_runtime::library::LibraryError;
use vai_workflow::starters::Starter;
use vai_workflow::{Compiled, Diagnostic, Mode, compile_with};

pub(super) async fn list(State(state): State<AppState>) -> Json<WorkflowList> {
    Json(WorkflowList {
        workflows: state.inner().library.list(),
    })
}

/// The starting points of a new workflow, each named after its label until the person names it.
pub(super) async fn starters() -> Json<StarterList> {
    Json(StarterList {
        starters: Starter::ALL
            .into_iter()
            .map(|s| WorkflowStarter {
                id: s.id().to_owned(),
                label: s.label().to_owned(),
                description: s.description().to_owned(),
                definition: s.workflow(s.label()),
            })
            .collect(),
    })
}

pub(super) async fn get(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<WorkflowDocument>, ApiError> {
    state
        .inner()
        .library
        .get(&id)
        .map(Json)
        .map_err(|e| match e {
            LibraryError::NotFound(_) => ApiError::NotFound(e.to_string()),
            LibraryError::Read(cause) => ApiError::Unreadable(cause),
        })
}

pub(super) async fn validate(
    State(state): State<AppState>,
    Json(body): Json<WorkflowBody>,
) -> Result<Json<ValidateResponse>, ApiError> {
    let mode = body.mode.unwrap_or_default();
    let diagnostics = match definition(body)? {
        Ok(value) => {
            compile_with(
                &value,
                &state.inner().registry,
                mode,
                &state.inner().library,
                "",
            )
            .diagnostics
        }
        Err(syntax) => vec![syntax],
    };
    Ok(Json(ValidateResponse {
        valid: !vai_workflow::diagnostic::has_errors(&diagnostics),
        diagnostics,
    }))
}

pub(super) async fn plan(
    State(state): State<AppState>,
    Json(body): Json<WorkflowBody>,
) -> Result<Json<PlanResponse>, ApiError> {
    let registry = &state.inner().registry;
    let mode = body.mode.unwrap_or_default();
    Ok(Json(match definition(body)? {
        Ok(value) => {
            let library = &state.inner().library;
            let compiled: Compiled = compile_with(&value, registry, mode, library, "");
            let mut graph = graph::view(&compiled, registry);
            if let Some(graph) = graph.as_mut().filter(|_| mode == Mode::Draft) {
                // Draft mode softens what a run needs; whether it can run is the strict answer.
                graph.runnable = compile_with(&value, registry, Mode::Strict, library, "")
                    .plan
                    .is_some();
            }
            PlanResponse {
                valid: compiled.is_valid(),
                graph,
                diagnostics: compiled.diagnostics,
            }
        }
        Err(syntax) => PlanResponse {
            valid: false,
            diagnostics: vec![syntax],
            graph: None,
        },
    }))
}

/// The workflow JSON from a body holding exactly one of `definition` and `text`; a syntax error
/// in `text` comes back as a diagnostic with line and column.
fn definition(body: WorkflowBody) -> Result<Result<Value, Diagnostic>, ApiError> {
    match (body.definition, body.text) {
        (Some(value), None) => Ok(Ok(value)),
        (None, Some(text)) => Ok(vai_workflow::load::parse_json(&text).map_err(|d| *d)),
        _ => Err(ApiError::BadRequest(
            "send exactly one of \"definition\" and \"text\"".into(),
        )),
    }
}
