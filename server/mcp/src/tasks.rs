//! The protocol's tasks extension: when the client declares it, a workflow run (`w_*`,
//! `workflow_run`) answers at once with a task whose id is the run's; the client polls
//! `tasks/get` for its status and, once the run ended, the same result a waiting call returns;
//! `tasks/cancel` cancels the run. A run that waits for a person is `input_required`: its
//! question is an elicitation in `inputRequests`, and `tasks/update` answers it. Clients without it get the result when the run ends.

use crate::answers;
use crate::finished::{finished_now, finished_steps};
use rmcp::ErrorData as McpError;
use rmcp::RoleServer;
use rmcp::model::{
    CallToolResponse, CreateTaskResult, DetailedTask, ElicitRequest, ElicitResult, GetTaskResult,
    InputRequest, InputResponses, Task, TaskPayload, TaskStatus,
};
use rmcp::service::RequestContext;
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::{Duration, UNIX_EPOCH};
use vai_contract::{RunSnapshot, RunState};
use vai_runtime::{Run, RunManager};
use vai_workflow::Plan;
use vai_workflow::value::truncate_chars;

/// Tasks remembered at most; the oldest is forgotten first (its run may be kept longer by the
/// run manager, and `workflow_status` still reads it).
const MAX_TASKS: usize = 256;

/// How often a client should poll, in milliseconds.
const POLL_MS: u64 = 500;

/// The tasks this server created: each a run and the plan its result is shaped from.
#[derive(Default)]
pub(crate) struct Tasks(Mutex<Known>);

#[derive(Default)]
struct Known {
    plans: HashMap<String, Arc<Plan>>,
    order: VecDeque<String>,
}

/// Whether the client asked for tasks (at `initialize` or on this request).
pub(crate) fn wanted(context: &RequestContext<RoleServer>) -> bool {
    context
        .client_capabilities()
        .is_some_and(|caps| caps.supports_tasks())
}

impl Tasks {
    fn lock(&self) -> std::sync::MutexGuard<'_, Known> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The task for a run just started.
    pub(crate) fn create(&self, run: &Arc<Run>, plan: Arc<Plan>) -> CallToolResponse {
        let mut known = self.lock();
        known.plans.insert(run.id.clone(), plan);
        known.order.push_back(run.id.clone());
        while known.order.len() > MAX_TASKS {
            if let Some(old) = known.order.pop_front() {
                known.plans.remove(&old);
            }
        }
        drop(known);
        CallToolResponse::Task(CreateTaskResult::new(task(&run.snapshot())))
    }

    /// `tasks/get`.
    pub(crate) fn get(&self, runs: &RunManager, id: &str) -> Result<GetTaskResult, McpError> {
        let (run, plan) = self.find(runs, id)?;
        let snapshot = run.snapshot();
        let payload = match snapshot.status {
            RunState::Running => TaskPayload::Working,
            RunState::Cancelled => TaskPayload::Cancelled,
            // The question, keyed by the step that asks; `tasks/update` answers it.
            RunState::Waiting => TaskPayload::InputRequired {
                input_requests: snapshot
                    .waiting
                    .as_ref()
                    .and_then(|w| Some((w.step_id.clone(), answers::request(w, &[])?)))
                    .map(|(key, params)| {
                        (key, InputRequest::Elicitation(ElicitRequest::new(params)))
                    })
                    .into_iter()
                    .collect(),
            },
            // A failed run is a tool result with `isError`, as a waiting call gets it.
            RunState::Completed | RunState::Failed | RunState::Interrupted => {
                let result = finished_now(&run, plan).into_result();
                let value = serde_json::to_value(result)
                    .map_err(|e| McpError::internal_error(e.to_string(), None))?;
                let serde_json::Value::Object(result) = value else {
                    return Err(McpError::internal_error(
                        "a result that is not an object",
                        None,
                    ));
                };
                TaskPayload::Completed { result }
            }
        };
        Ok(GetTaskResult::new(DetailedTask::new(
            task(&snapshot),
            payload,
        )))
    }

    /// `tasks/update`: the person's answer to the question the run waits at (the elicitation
    /// result under the key `tasks/get` gave it). Accepted, it goes to the run, checked first;
    /// declined or dismissed, the run is cancelled.
    pub(crate) async fn update(
        &self,
        runs: &RunManager,
        id: &str,
        responses: InputResponses,
    ) -> Result<(), McpError> {
        let (run, _) = self.find(runs, id)?;
        let snapshot = run.snapshot();
        let waiting = snapshot
            .waiting
            .filter(|_| snapshot.status == RunState::Waiting)
            .ok_or_else(|| {
                McpError::invalid_params(format!("task \"{id}\" is not waiting for input"), None)
            })?;
        let Some(response) = responses.get(&waiting.step_id) else {
            return Err(McpError::invalid_params(
                format!(
                    "task \"{id}\" waits for the input request \"{}\"",
                    waiting.step_id
                ),
                None,
            ));
        };
        let result: ElicitResult = serde_json::from_value(response.clone()).map_err(|e| {
            McpError::invalid_params(format!("not an elicitation result: {e}"), None)
        })?;
        match answers::reply(result) {
            Ok(answer) => answers::take(&run, Some(&waiting.step_id), snapshot.seq, answer)
                .await
                .map_err(|e| {
                    let failure = answers::rejected(&run, e);
                    McpError::invalid_params(failure.message, None)
                }),
            Err(_) => {
                run.cancel.cancel();
                Ok(())
            }
        }
    }

    /// `tasks/cancel`: cancel the run (a finished one stays as it ended).
    pub(crate) fn cancel(&self, runs: &RunManager, id: &str) -> Result<(), McpError> {
        let (run, _) = self.find(runs, id)?;
        run.cancel.cancel();
        Ok(())
    }

    fn find(&self, runs: &RunManager, id: &str) -> Result<(Arc<Run>, Arc<Plan>), McpError> {
        let unknown = || {
            McpError::invalid_params(
                format!(
                    "no task \"{}\" (finished tasks are forgotten after a while)",
                    truncate_chars(id, 80)
                ),
                None,
            )
        };
        let plan = self.lock().plans.get(id).cloned().ok_or_else(unknown)?;
        let run = runs.get(id).ok_or_else(unknown)?;
        Ok((run, plan))
    }
}

/// The task's base fields from the run's snapshot.
fn task(snapshot: &RunSnapshot) -> Task {
    let started = snapshot.started_at;
    let updated = started + snapshot.duration_ms.unwrap_or(0);
    let status = match snapshot.status {
        RunState::Running => TaskStatus::Working,
        RunState::Completed | RunState::Failed | RunState::Interrupted => TaskStatus::Completed,
        RunState::Waiting => TaskStatus::InputRequired,
        RunState::Cancelled => TaskStatus::Cancelled,
    };
    let done = finished_steps(snapshot);
    Task::new(
        snapshot.run_id.clone(),
        status,
        iso8601(started),
        iso8601(updated),
    )
    .with_status_message(format!(
        "{}: {done} of {} steps done",
        snapshot.workflow,
        snapshot.steps.len()
    ))
    .with_poll_interval_ms(POLL_MS)
}

/// Milliseconds since the Unix epoch as an ISO 8601 UTC timestamp.
fn iso8601(ms: u64) -> String {
    vai_providers::store::rfc3339_utc(UNIX_EPOCH + Duration::from_millis(ms))
}

#[cfg(test)]
mod tests {
    use super::iso8601;

    #[test]
    fn timestamps_are_iso_8601_utc() {
        assert_eq!(iso8601(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(iso8601(951_782_400_000), "2000-02-29T00:00:00.000Z");
        assert_eq!(iso8601(1_795_701_785_120), "2026-11-26T14:03:05.120Z");
    }
}
