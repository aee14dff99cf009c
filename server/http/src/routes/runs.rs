//! `/api/runs`: start, list, inspect, resume (step-through runs) and cancel runs, and fetch one
//! step's full detail.

use super::json::Json;
use crate::error::{ApiError, QUOTE_LIMIT, clip};
use crate::state::AppState;
use axum::body::{Body, Bytes};
use axum::extract::{Path, State};
use axum::http::header::CONTENT_TYPE;
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use std::convert::Infallible;
use std::sync::Arc;
use vai_contract::{
    CancelAccepted, InputAccepted, ResumeAccepted, RunCreated, RunInput, RunList, RunSnapshot,
    RunState, StartRun,
};
use vai_runtime::library::version_of;
use vai_runtime::runs::history::HistoryError;
use vai_runtime::runs::kept::Kept;
use vai_runtime::runs::{AnswerError, ResumeError, ResumeJournalError, StartError, StartRequest};
use vai_workflow::format::format;
use vai_workflow::{Mode, OnlyStep, Resume, compile_with};

pub(super) async fn start(
    State(state): State<AppState>,
    Json(body): Json<StartRun>,
) -> Result<(StatusCode, Json<RunCreated>), ApiError> {
    // Refused before the workflow is compiled, so a client retrying at the cap costs little;
    // `start` checks again, under the lock that counts.
    if state.runs().is_full() {
        return Err(ApiError::TooManyRuns(state.limits().max_runs));
    }
    // The run's workflow id is kept with it and later names the file a test case is saved
    // beside: only an id of the library's own (a built-in, an example, a file its listing
    // returns) is taken, never a path a client made up.
    if let Some(id) = &body.workflow_id
        && !state.inner().library.contains(id)
    {
        return Err(ApiError::BadRequest(format!(
            "workflowId \"{}\" is not a workflow of this playground (a built-in, an example or a file in its directory)",
            clip(id, QUOTE_LIMIT)
        )));
    }
    let label = body
        .workflow_id
        .as_deref()
        .and_then(|id| id.split_once(':'))
        .map_or("", |(_, name)| name);
    let compiled = compile_with(
        &body.definition,
        &state.inner().registry,
        Mode::Strict,
        &state.inner().library,
        label,
    );
    let plan = match compiled.plan {
        Some(plan) if compiled.diagnostics.iter().all(|d| !d.is_error()) => plan,
        _ => return Err(ApiError::InvalidWorkflow(compiled.diagnostics)),
    };
    let only = match &body.step {
        None => None,
        Some(step) => {
            if plan.step_index(step).is_none() {
                return Err(ApiError::BadRequest(format!(
                    "the workflow has no step \"{}\"",
                    clip(step, QUOTE_LIMIT)
                )));
            }
            let replay = match &body.from_run {
                Some(id) => match state.runs().get(id) {
                    Some(live) => live.outputs(),
                    // A past run: its recorded outputs.
                    None => state
                        .runs()
                        .record(id)
                        .await
                        .map_err(|e| match e {
                            HistoryError::Store(cause) => ApiError::RunHistory(cause),
                            _ => not_found(&state, id),
                        })?
                        .steps
                        .into_iter()
                        .filter_map(|s| Some((s.id, s.output?)))
                        .collect(),
                },
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
        step_through: body.step_through,
        restart: None,
    };
    launch(&state, request)
}

/// Start `request`'s run: 201 with its id, or why it did not start.
pub(super) fn launch(
    state: &AppState,
    request: StartRequest,
) -> Result<(StatusCode, Json<RunCreated>), ApiError> {
    let run = state.runs().start(request).map_err(|e| match e {
        StartError::Inputs(_) => ApiError::InvalidInputs(e.to_string()),
        StartError::TooManyRuns(n) => ApiError::TooManyRuns(n),
        StartError::StepThrough(message) => ApiError::BadRequest(message),
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
        runs: state.runs().list().await,
    })
}

pub(super) async fn get(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<RunSnapshot>, ApiError> {
    match state.runs().get(&id) {
        Some(run) => Ok(Json(run.snapshot())),
        None => match state.runs().saved_snapshot(&id).await {
            Some(snapshot) => Ok(Json(snapshot)),
            None => Err(not_found(&state, &id)),
        },
    }
}

/// `POST /api/runs/{id}/continue`: take up a run the journal has as interrupted (its process
/// died): completed steps replay, the rest runs, under the same id.
pub(super) async fn continue_run(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<(StatusCode, Json<InputAccepted>), ApiError> {
    let (run, _) = state
        .runs()
        .resume_journaled(&id, None, &state.inner().library)
        .await
        .map_err(|e| journal_error(&state, &id, e))?;
    Ok((
        StatusCode::ACCEPTED,
        Json(InputAccepted {
            run_id: run.id.clone(),
            status: RunState::Running,
        }),
    ))
}

fn journal_error(state: &AppState, id: &str, e: ResumeJournalError) -> ApiError {
    match e {
        ResumeJournalError::NotFound => not_found(state, id),
        ResumeJournalError::Invalid(fields) => ApiError::InvalidAnswer(String::new(), fields),
        ResumeJournalError::NeedsAnswer | ResumeJournalError::NotWaiting => {
            ApiError::NotWaiting(format!("run \"{}\": {e}", clip(id, QUOTE_LIMIT)))
        }
        ResumeJournalError::NotResumable(why) => ApiError::Conflict(format!(
            "run \"{}\" cannot be resumed: {why}",
            clip(id, QUOTE_LIMIT)
        )),
        ResumeJournalError::Store(cause) => ApiError::RunHistory(cause),
    }
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

/// End a step-through run's pause with Next or Continue.
pub(super) async fn resume(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Json(body): Json<Resume>,
) -> Result<(StatusCode, Json<ResumeAccepted>), ApiError> {
    let run = run(&state, &id)?;
    let action = body.action;
    let step_id = run.resume(body).map_err(|e| {
        let why = match e {
            ResumeError::Breakpoints(message) => return ApiError::BadRequest(message),
            ResumeError::NotSteppingThrough => "it was not started to step through",
            ResumeError::NotPaused if run.summary().status == RunState::Running => "it is running",
            ResumeError::NotPaused => "it has ended",
        };
        ApiError::NotPaused(format!("run \"{}\" is not paused: {why}", run.id))
    })?;
    Ok((
        StatusCode::ACCEPTED,
        Json(ResumeAccepted {
            run_id: run.id.clone(),
            status: run.summary().status,
            step_id,
            action,
        }),
    ))
}

/// `POST /api/runs/{id}/input`: the answer to the `yield` step the run waits at.
pub(super) async fn input(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Json(body): Json<RunInput>,
) -> Result<(StatusCode, Json<InputAccepted>), ApiError> {
    let Some(run) = state.runs().get(&id) else {
        // A run saved as waiting by an earlier process: taken up here with the answer.
        let (run, _) = state
            .runs()
            .resume_journaled(
                &id,
                Some(serde_json::Value::Object(body.input)),
                &state.inner().library,
            )
            .await
            .map_err(|e| journal_error(&state, &id, e))?;
        return Ok((
            StatusCode::ACCEPTED,
            Json(InputAccepted {
                run_id: run.id.clone(),
                status: RunState::Running,
            }),
        ));
    };
    let waiting = run.snapshot().waiting.map(|w| w.step_id);
    run.answer(
        body.step_id.as_deref(),
        serde_json::Value::Object(body.input),
    )
    .map_err(|e| match e {
        AnswerError::Invalid(fields) => {
            ApiError::InvalidAnswer(waiting.clone().unwrap_or_default(), fields)
        }
        AnswerError::NotWaiting => ApiError::NotWaiting(match (&waiting, &body.step_id) {
            (Some(w), Some(asked)) => format!(
                "run \"{}\" waits at step \"{w}\", not \"{}\"",
                run.id,
                clip(asked, QUOTE_LIMIT)
            ),
            _ => format!("run \"{}\" is not waiting for an answer", run.id),
        }),
    })?;
    Ok((
        StatusCode::ACCEPTED,
        Json(InputAccepted {
            run_id: run.id.clone(),
            status: RunState::Running,
        }),
    ))
}

/// `RunOutput`, its output spliced in from the run's kept copy: a finished run's output is
/// serialised once and shared by every request, never copied per request.
pub(super) async fn output(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let Some(live) = state.runs().get(&id) else {
        return saved_output(&state, &id).await;
    };
    let (head, output) = live.output();
    spliced(&head, [("output", output)])
}

/// `StepDetail`, its inputs and output spliced in like `output`'s.
pub(super) async fn step(
    State(state): State<AppState>,
    Path((id, step)): Path<(String, String)>,
) -> Result<Response, ApiError> {
    let Some(live) = state.runs().get(&id) else {
        let (detail, output) = state
            .runs()
            .saved_step(&id, &step)
            .await
            .ok_or_else(|| not_found(&state, &id))?;
        let output = output.map(|o| Kept::value(Arc::new(o)));
        return spliced(&detail, [("output", output)]);
    };
    let view = live.step(&step).ok_or_else(|| {
        ApiError::NotFound(format!(
            "run \"{}\" has no step \"{}\"",
            clip(&id, QUOTE_LIMIT),
            clip(&step, QUOTE_LIMIT)
        ))
    })?;
    spliced(
        &view.detail,
        [("inputs", view.inputs), ("output", view.output)],
    )
}

/// A past run's output, from its journal.
async fn saved_output(state: &AppState, id: &str) -> Result<Response, ApiError> {
    let record = state
        .runs()
        .record(id)
        .await
        .map_err(|_| not_found(state, id))?;
    // A run that never ended is one whose process died.
    let status = RunState::from_journal(record.status()).unwrap_or(RunState::Interrupted);
    let head = vai_contract::RunOutput {
        run_id: record.run_id.clone(),
        status,
        output: None,
    };
    let output = record.output.map(|o| Kept::value(Arc::new(o)));
    spliced(&head, [("output", output)])
}

fn run(state: &AppState, id: &str) -> Result<Arc<vai_runtime::runs::Run>, ApiError> {
    state.runs().get(id).ok_or_else(|| not_found(state, id))
}

fn not_found(state: &AppState, id: &str) -> ApiError {
    let limits = state.limits();
    ApiError::NotFound(format!(
        "no run \"{}\" (the server keeps the last {} finished runs, up to {})",
        clip(id, QUOTE_LIMIT),
        limits.keep_runs,
        size(limits.keep_bytes)
    ))
}

/// `n` bytes for people: whole MB, else KB.
fn size(n: usize) -> String {
    const MB: usize = 1024 * 1024;
    if n >= MB {
        format!("{} MB", n / MB)
    } else {
        format!("{} KB", n / 1024)
    }
}

/// `head` as JSON (an object whose spliced fields are absent), with each present field added
/// from its kept JSON text. The body is streamed as chunks, so the kept bytes are sent as they
/// are, not copied into one buffer.
fn spliced<const N: usize>(
    head: &impl Serialize,
    fields: [(&'static str, Option<Kept>); N],
) -> Result<Response, ApiError> {
    let mut text = serde_json::to_vec(head).map_err(|e| ApiError::Internal(e.to_string()))?;
    if text.pop() != Some(b'}') {
        return Err(ApiError::Internal("a reply is not a JSON object".into()));
    }
    let mut chunks: Vec<Bytes> = Vec::with_capacity(2 * N + 2);
    let mut first = text.len() == 1;
    chunks.push(text.into());
    for (name, value) in fields {
        let Some(value) = value else { continue };
        let comma = if first { "" } else { "," };
        first = false;
        chunks.push(format!("{comma}\"{name}\":").into());
        // Serialised outside the run's lock (only a running run's values still need it).
        chunks.push(value.json());
    }
    chunks.push(Bytes::from_static(b"}"));
    let stream = futures_util::stream::iter(chunks.into_iter().map(Ok::<_, Infallible>));
    let mut response = Body::from_stream(stream).into_response();
    response
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    Ok(response)
}
