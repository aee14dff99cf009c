//! How a workflow run reads as a tool result: once it completed, its output and a summary of
//! each step; while it waits for a person, their question and the answer it expects; once it
//! failed or was cancelled, a failure naming the failed step. A call that
//! waits for its run, `tasks/get` and the `w_*` tools' output schema all take it from here.

use crate::codes::ErrorCode;
use crate::failure::{Failure, Violation};
use rmcp::model::CallToolResult;
use serde_json::{Value, json};
use std::sync::Arc;
use vai_contract::{RunSnapshot, RunState, StepStatus};
use vai_runtime::Run;
use vai_workflow::Plan;
use vai_workflow::compile::{PlannedStep, StepKind};

/// A run that ended (or was given up on after being cancelled).
pub(crate) struct Finished {
    pub(crate) plan: Arc<Plan>,
    pub(crate) snapshot: RunSnapshot,
    pub(crate) output: Option<Value>,
}

/// The run as it stands: its snapshot and, once it ended, its output.
pub(crate) fn finished_now(run: &Run, plan: Arc<Plan>) -> Finished {
    Finished {
        plan,
        snapshot: run.snapshot(),
        output: run.output().1.map(|kept| kept.to_value()),
    }
}

impl Finished {
    /// Completed: the output and step summary. Waiting: the question. Failed or cancelled: a
    /// failure naming the step.
    pub(crate) fn into_result(self) -> CallToolResult {
        let snap = &self.snapshot;
        let steps = steps_json(&self.plan, snap);
        match snap.status {
            RunState::Waiting => {
                let mut body = json!({
                    "run_id": snap.run_id,
                    "status": snap.status,
                    "steps": steps,
                });
                if let Some(id) = &snap.workflow_id {
                    body["workflow_id"] = json!(id);
                }
                if let Some(waiting) = &snap.waiting {
                    body["step_id"] = json!(waiting.step_id);
                    body["message"] = json!(waiting.message);
                    body["expects"] = waiting.expects.clone();
                    if let Some(ms) = waiting.deadline_ms {
                        body["deadline_ms"] = json!(ms);
                    }
                }
                body["next"] = json!(
                    "ask the person the message, then call workflow_resume with this run_id and their answer as input (an object that satisfies expects)"
                );
                CallToolResult::structured(body)
            }
            RunState::Completed | RunState::Running => {
                let mut body = json!({
                    "run_id": snap.run_id,
                    "status": snap.status,
                    "steps": steps,
                });
                if let Some(id) = &snap.workflow_id {
                    body["workflow_id"] = json!(id);
                }
                if let Some(output) = self.output {
                    body["output"] = output;
                }
                if let Some(ms) = snap.duration_ms {
                    body["duration_ms"] = json!(ms);
                }
                if let Some(usage) = &snap.usage {
                    body["usage"] = json!(usage);
                }
                CallToolResult::structured(body)
            }
            RunState::Failed | RunState::Cancelled | RunState::Interrupted => {
                self.failure().into_result()
            }
        }
    }

    fn failure(&self) -> Failure {
        let snap = &self.snapshot;
        let failed: Vec<(&String, &vai_contract::StepState)> = snap
            .steps
            .iter()
            .filter(|(_, s)| s.status == StepStatus::Failed)
            .collect();
        let mut failure = if snap.status == RunState::Cancelled {
            Failure::new(
                ErrorCode::RunCancelled,
                format!("the run of \"{}\" was cancelled", snap.workflow),
                "run it again if you still need its output",
            )
        } else {
            Failure::new(
            ErrorCode::RunFailed,
            format!(
                    "the run of \"{}\" failed: {}",
                    snap.workflow,
                    snap.error.as_deref().unwrap_or("a step failed")
                ),
                "read the failed step's error; correct the inputs (or the workflow: workflow_get, workflow_save) and run it again",
            )
            .violations(
                failed
                    .iter()
                    .map(|(id, s)| {
                        Violation::new(
                            format!("steps[{id}]"),
                            "STEP_FAILED",
                            s.error.clone().unwrap_or_default(),
                        )
                    })
                    .collect(),
            )
        };
        failure = failure.run(snap.run_id.clone());
        if let Some(id) = &snap.workflow_id {
            failure = failure.workflow(id.clone());
        }
        if let Some((id, _)) = failed.first() {
            failure = failure.step((*id).clone());
        }
        failure
    }
}

/// Steps that are done one way or another.
pub(crate) fn finished_steps(snapshot: &RunSnapshot) -> usize {
    snapshot
        .steps
        .values()
        .filter(|s| {
            matches!(
                s.status,
                StepStatus::Completed
                    | StepStatus::Skipped
                    | StepStatus::Failed
                    | StepStatus::Cancelled
            )
        })
        .count()
}

/// The output schema of a tool that returns a finished run.
pub(crate) fn output_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "run_id": {"type": "string", "description": "the run's id (workflow_status reads it again while the server keeps it)"},
            "workflow_id": {"type": "string", "description": "the library id of the workflow that ran"},
            "status": {"type": "string", "enum": ["completed", "running", "waiting"], "description": "waiting: a step asks a person (message, expects); answer with workflow_resume"},
            "output": {"description": "the workflow's output, as its `output` maps it (the whole run context when it maps none)"},
            "steps": {
                "type": "array",
                "description": "every step in file order: id, tool, status, duration_ms, summary, backend, error, reason",
                "items": {"type": "object"}
            },
            "duration_ms": {"type": "number"},
            "usage": {"type": "object", "description": "the run's model calls: embedTokens, rerankTokens, llmInputTokens, llmOutputTokens, requests, and cost {usd, inputPerMTok, outputPerMTok, pricedAt} (usd null, with unpriced and reason, when a model has no known price)"},
            "step_id": {"type": "string", "description": "waiting: the yield step that asks"},
            "message": {"type": "string", "description": "waiting: the question for the person"},
            "expects": {"type": "object", "description": "waiting: the JSON Schema of the answer (an object of strings, numbers, integers and booleans)"},
            "deadline_ms": {"type": "number", "description": "waiting: when the step stops waiting (ms since the Unix epoch)"},
            "next": {"type": "string"}
        },
        "required": ["run_id", "status"]
    })
}

/// The step summary of a finished run, as `w_*` results carry it.
fn steps_json(plan: &Plan, snapshot: &RunSnapshot) -> Value {
    let steps: Vec<Value> = plan
        .steps
        .iter()
        .map(|s| {
            let state = snapshot.steps.get(&s.id);
            let mut step = json!({
                "id": s.id,
                "tool": step_tool(s),
                "status": state.map(|st| st.status),
            });
            if let Some(st) = state {
                for (key, value) in [
                    ("duration_ms", st.duration_ms.map(|d| json!(d))),
                    ("summary", st.summary.as_ref().map(|v| json!(v))),
                    ("backend", st.backend.as_ref().map(|v| json!(v))),
                    ("error", st.error.as_ref().map(|v| json!(v))),
                    ("reason", st.reason.as_ref().map(|v| json!(v))),
                ] {
                    if let Some(value) = value {
                        step[key] = value;
                    }
                }
            }
            step
        })
        .collect();
    Value::Array(steps)
}

/// The tool a step runs: a loop's body tool, else its own.
pub(crate) fn step_tool(step: &PlannedStep) -> &str {
    match &step.kind {
        StepKind::Loop { tool, .. } => tool,
        _ => &step.tool,
    }
}
