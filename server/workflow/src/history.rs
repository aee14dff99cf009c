//! Run history read back from journals: a run's record — each top-level step's status, timing,
//! usage, inputs and output as the run left them — and the differences between two runs of a
//! workflow ([`diff`]).

mod diff;
mod rerun;
mod sink;
#[cfg(test)]
mod tests;

pub use diff::{FieldChange, ResultMove, ResultsDiff, RunDiff, RunSide, StepDiff, diff};
pub use rerun::{Restart, copy_into, downstream, restart};
pub use sink::HistorySink;

use crate::exec::durable::RecordedStep;
use crate::journal::{JournalState, RerunFrom, RunEnd, StepTrace};
use crate::tool::Usage;
use serde::Serialize;
use serde_json::{Map, Value};

/// One top-level step of a past run.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StepRecord {
    pub id: String,
    pub name: String,
    pub tool: String,
    /// `completed`, `failed`, `skipped`, `cancelled`, or `pending` (the run never reached it).
    pub status: String,
    #[serde(flatten)]
    pub trace: StepTrace,
    /// Its output, when it completed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output: Option<Value>,
}

/// A past run as its journal has it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RunRecord {
    pub run_id: String,
    pub workflow: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub workflow_id: Option<String>,
    /// Where the definition came from (`{"workflow": path}` or `{"workflowId": id}`).
    pub source: Value,
    /// The definition as it ran: the run opens even when its file is gone.
    pub definition: Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hash: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<RerunFrom>,
    pub inputs: Map<String, Value>,
    pub started_at: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end: Option<RunEnd>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub usage: Option<Usage>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output: Option<Value>,
    /// The journal outgrew its budget: later steps were not recorded.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub truncated: bool,
    /// Every top-level step of the definition, in file order.
    pub steps: Vec<StepRecord>,
}

impl RunRecord {
    /// The record of journal `state`.
    pub fn of(state: JournalState) -> Self {
        let usage = state.usage();
        let JournalState {
            start,
            recorded,
            end,
            truncated,
            traces,
            output,
            waiting,
            ..
        } = state;
        let steps = start
            .definition
            .get("steps")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or_default()
            .iter()
            .map(|step| {
                let text = |key: &str| step.get(key).and_then(Value::as_str).unwrap_or_default();
                let id = text("id").to_string();
                let mut trace = traces.get(&id).cloned().unwrap_or_default();
                let output = match recorded.steps.get(&id) {
                    Some(RecordedStep::Completed { output, .. }) => {
                        if trace.status.is_empty() {
                            trace.status = "completed".into();
                        }
                        Some(output.clone())
                    }
                    Some(RecordedStep::Failed { error }) => {
                        if trace.status.is_empty() {
                            trace.status = "failed".into();
                            trace.error = Some(error.clone());
                        }
                        None
                    }
                    None => None,
                };
                let waits = waiting
                    .as_ref()
                    .is_some_and(|w| w.within.is_empty() && w.step_id == id);
                let status = match trace.status.as_str() {
                    "" if waits => "waiting".to_string(),
                    "" => "pending".to_string(),
                    s => s.to_string(),
                };
                StepRecord {
                    name: Some(text("name"))
                        .filter(|n| !n.is_empty())
                        .unwrap_or(&id)
                        .to_string(),
                    tool: text("tool").to_string(),
                    id,
                    status,
                    trace,
                    output,
                }
            })
            .collect();
        let workflow_id = start
            .source
            .get("workflowId")
            .and_then(Value::as_str)
            .map(str::to_string);
        Self {
            run_id: start.run_id,
            workflow: start.workflow,
            workflow_id,
            source: start.source,
            definition: start.definition,
            hash: start.hash,
            from: start.from,
            inputs: start.inputs,
            started_at: start.started_at,
            duration_ms: end.as_ref().map(|e| e.took(start.started_at)),
            end,
            usage,
            output,
            truncated,
            steps,
        }
    }

    /// `completed`, `failed`, `cancelled`; `unfinished` for a run that has not ended.
    pub fn status(&self) -> &str {
        self.end
            .as_ref()
            .map_or("unfinished", |e| e.status.as_str())
    }

    pub fn step(&self, id: &str) -> Option<&StepRecord> {
        self.steps.iter().find(|s| s.id == id)
    }

    /// The run's cost in US dollars, when any of it was priced.
    pub fn cost_usd(&self) -> Option<f64> {
        self.usage.as_ref()?.cost.as_ref()?.usd
    }
}
