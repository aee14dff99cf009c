//! `POST /api/runs/{id}/test-case`: a finished run of a saved workflow becomes a test case
//! (`tests/<workflow>.<case>.test.json`, the format `vai workflow test` reads) with the run's
//! inputs, each provider step's actual output as a mock, and expectations the person can edit.
//!
//! The workflow is one the server itself resolved when the run started (a file the library
//! listed), and the case goes only into the start directory's `tests/`, through the library's
//! directory handle: no path from a request reaches the disk.

use super::json::Json;
use super::save::file_error;
use crate::error::ApiError;
use crate::state::AppState;
use axum::extract::{Path, State};
use serde_json::{Map, Value, json};
use std::collections::HashMap;
use vai_contract::{RunSnapshot, RunState, StepStatus, TestCaseRequest, TestCaseSaved};
use vai_runtime::library::{FILE_SUFFIX, read_listed, version_of};
use vai_runtime::runs::Run;
use vai_runtime::save::write_file;
use vai_workflow::Category;
use vai_workflow::fsutil::FileError;
use vai_workflow::load::MAX_FILE_BYTES;

/// Where test cases live, relative to the workflow.
const TESTS_DIR: &str = "tests";

pub(super) async fn save(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Json(body): Json<TestCaseRequest>,
) -> Result<Json<TestCaseSaved>, ApiError> {
    let run = state
        .runs()
        .get(&id)
        .ok_or_else(|| ApiError::NotFound(format!("no run with id \"{id}\"")))?;
    let case = &body.name;
    let valid = (1..=64).contains(&case.len())
        && case
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if !valid {
        return Err(ApiError::InvalidName(format!(
            "\"{case}\" is not a test case name: use 1 to 64 letters, digits, '_' and '-'"
        )));
    }
    let library = &state.inner().library;
    let dir = library.dir.clone().ok_or_else(|| {
        ApiError::NoDirectory("the playground has no directory to save tests into".into())
    })?;
    let snapshot = run.snapshot();
    let file = runnable_file(&run, &snapshot)?;
    let text = read_listed(&dir, &file).map_err(|_| {
        ApiError::Conflict(format!(
            "{file} is not in the playground's directory any more; save the workflow, run it again, then save the test case"
        ))
    })?;
    let definition: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
    if version_of(vai_workflow::format::format(&definition).as_bytes())
        != run.origin.definition_version
    {
        return Err(ApiError::Conflict(format!(
            "{file} is not what this run ran (it was edited since); save the workflow, run it again, then save the test case"
        )));
    }

    let stem = file.strip_suffix(FILE_SUFFIX).unwrap_or(&file);
    let file_name = format!("{stem}.{case}.test.json");
    let written = case_json(&state, &run, &snapshot, &definition, case, stem);
    let text = vai_workflow::format::format(&written);
    if text.len() as u64 > MAX_FILE_BYTES {
        return Err(ApiError::FileTooLarge(format!(
            "the test case is {} bytes; files are limited to {MAX_FILE_BYTES} bytes",
            text.len()
        )));
    }
    let overwrite = body.overwrite.unwrap_or(false);
    let name = file_name.clone();
    let bytes = text.clone();
    tokio::task::spawn_blocking(move || -> Result<(), ApiError> {
        // Opened once, never through a link; the case is written relative to this handle.
        let tests = dir.sub(TESTS_DIR, Some(0o777)).map_err(|e| match e {
            FileError::NotADirectory { .. } => ApiError::Conflict(format!(
                "{TESTS_DIR} is not a directory; vai does not write through links"
            )),
            e => file_error(e),
        })?;
        if !overwrite
            && tests
                .read(&name, MAX_FILE_BYTES)
                .map_err(file_error)?
                .is_some()
        {
            return Err(ApiError::Conflict(format!(
                "{TESTS_DIR}/{name} already exists; choose another case name, or overwrite it"
            )));
        }
        write_file(&tests, &name, bytes.as_bytes()).map_err(file_error)
    })
    .await
    .map_err(|e| ApiError::Internal(e.to_string()))??;
    Ok(Json(TestCaseSaved {
        path: format!("{TESTS_DIR}/{file_name}"),
        file_name,
        text,
    }))
}

/// The workflow file the run ran, when the run can become a test case.
fn runnable_file(run: &Run, snapshot: &RunSnapshot) -> Result<String, ApiError> {
    let file = snapshot
        .workflow_id
        .as_deref()
        .and_then(|id| id.strip_prefix("file:"))
        .ok_or_else(|| {
            ApiError::Conflict(
                "the run is not of a workflow saved in the playground's directory; save the workflow first, run it, then save the test case"
                    .into(),
            )
        })?;
    if run.origin.single_step {
        return Err(ApiError::Conflict(
            "only one step ran; run the whole workflow, then save the test case".into(),
        ));
    }
    match snapshot.status {
        RunState::Completed => Ok(file.to_string()),
        RunState::Running | RunState::Waiting => Err(ApiError::Conflict(
            "the run is still going; wait for it to complete".into(),
        )),
        RunState::Failed | RunState::Cancelled | RunState::Interrupted => Err(ApiError::Conflict(
            "the run did not complete; only a completed run can become a test case".into(),
        )),
    }
}

/// The test case: inputs as given, provider steps mocked with what they returned, every
/// step's status, and the output's values (scalars exactly, arrays by length, objects by
/// type) — all editable.
fn case_json(
    state: &AppState,
    run: &Run,
    snapshot: &RunSnapshot,
    definition: &Value,
    case: &str,
    stem: &str,
) -> Value {
    let tools: HashMap<&str, &str> = definition
        .get("steps")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|s| Some((s.get("id")?.as_str()?, s.get("tool")?.as_str()?)))
        .collect();
    let registry = &state.inner().registry;
    let outputs = run.outputs();
    let mut mocks = Map::new();
    let mut steps = Map::new();
    for (id, step) in &snapshot.steps {
        let status = match step.status {
            StepStatus::Completed => "completed",
            StepStatus::Skipped => "skipped",
            StepStatus::Failed => "failed",
            _ => continue,
        };
        steps.insert(id.clone(), json!({"status": status}));
        // A provider served it (it reported a backend), or it went out to the network.
        let integration = tools
            .get(id.as_str())
            .and_then(|t| registry.spec(t))
            .is_some_and(|s| s.category == Category::Integration);
        if step.status == StepStatus::Completed
            && (step.backend.is_some() || integration)
            && let Some(output) = outputs.get(id)
        {
            mocks.insert(id.clone(), output.clone());
        }
    }
    let mut output = Map::new();
    if let (_, Some(kept)) = run.output()
        && let Value::Object(fields) = kept.to_value()
    {
        for (key, value) in fields {
            let expect = match &value {
                Value::Null => continue,
                Value::Array(items) if items.is_empty() => json!({"type": "array"}),
                Value::Array(items) => json!({"type": "array", "minLength": items.len()}),
                Value::Object(_) => json!({"type": "object"}),
                scalar => json!({"equals": scalar}),
            };
            output.insert(key, expect);
        }
    }
    let failed = steps.values().any(|s| s["status"] == "failed");
    json!({
        "name": case,
        "description": format!("Saved from run {} of {stem}: its inputs, and the outputs of the steps that called a provider.", run.id),
        "inputs": run.origin.inputs,
        "mocks": mocks,
        "expect": {"steps": steps, "output": output, "noErrors": !failed},
    })
}
