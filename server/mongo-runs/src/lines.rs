//! The lines a journal's writer task is sent, and how each reads as the file journal writes it.

use crate::RunsError;
use serde::Serialize;
use serde_json::Value;
use std::sync::Arc;
use tokio::sync::oneshot;
use vai_workflow::Usage;
use vai_workflow::exec::Waiting;
use vai_workflow::exec::durable::UndoCall;
use vai_workflow::journal::{Meta, StepTrace, trace_line};

/// What the writer task is asked to do.
pub(crate) enum Job {
    Line(Line),
    /// Write everything sent so far, and say how it went.
    Flush(oneshot::Sender<Result<(), RunsError>>),
    /// Write everything, let the run go, and stop.
    Close(oneshot::Sender<Result<(), RunsError>>),
}

/// A line, owned, to be serialised on the writer task.
pub(crate) enum Line {
    /// A completed step: `entry` is its context entry (`{output}`).
    Step {
        at: Vec<String>,
        id: String,
        entry: Arc<Value>,
        undo: Option<UndoCall>,
    },
    /// How a step ended: its inputs are serialised (or noted by size) on the writer task.
    Trace {
        at: Vec<String>,
        id: String,
        trace: Box<StepTrace>,
        inputs: Option<Arc<Value>>,
    },
    Value(Value),
}

/// A completed step's line as the file journal writes it.
#[derive(Serialize)]
struct StepLine<'a> {
    t: &'static str,
    at: &'a [String],
    id: &'a str,
    output: &'a Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    undo: Option<&'a UndoCall>,
}

impl Line {
    pub(crate) fn t(&self) -> &str {
        match self {
            Line::Step { .. } => "step",
            Line::Trace { .. } => "trace",
            Line::Value(v) => v.get("t").and_then(Value::as_str).unwrap_or_default(),
        }
    }

    pub(crate) fn text(&self) -> serde_json::Result<String> {
        static NULL: Value = Value::Null;
        match self {
            Line::Step {
                at,
                id,
                entry,
                undo,
            } => serde_json::to_string(&StepLine {
                t: "step",
                at,
                id,
                output: entry.get("output").unwrap_or(&NULL),
                undo: undo.as_ref(),
            }),
            Line::Trace {
                at,
                id,
                trace,
                inputs,
            } => serde_json::to_string(&trace_line(at, id, trace, inputs.as_deref())),
            Line::Value(v) => serde_json::to_string(v),
        }
    }

    /// What the line changes in the run's summary (as the file journal's summary follows it).
    pub(crate) fn apply(&self, meta: &mut Meta) -> bool {
        let value = match self {
            Line::Step { at, .. } => {
                if at.is_empty() {
                    meta.completed_steps += 1;
                }
                return at.is_empty();
            }
            Line::Trace { at, trace, .. } => {
                let Some(usage) = trace.usage.as_ref().filter(|_| at.is_empty()) else {
                    return false;
                };
                meta.usage.get_or_insert_with(Usage::default).add(usage);
                return true;
            }
            Line::Value(v) => v,
        };
        match value.get("t").and_then(Value::as_str) {
            Some("waiting") => {
                let at = serde_json::from_value(value["at"].clone()).unwrap_or_default();
                meta.waiting = Some(Waiting {
                    within: at,
                    step_id: value["id"].as_str().unwrap_or_default().to_string(),
                    message: value["message"].as_str().unwrap_or_default().to_string(),
                    expects: value.get("expects").cloned().unwrap_or(Value::Null),
                    deadline_ms: value.get("deadlineMs").and_then(Value::as_u64),
                });
            }
            Some("answer") => meta.waiting = None,
            Some("end") => {
                meta.waiting = None;
                meta.end = serde_json::from_value(value["end"].clone()).ok();
            }
            _ => return false,
        }
        true
    }
}
