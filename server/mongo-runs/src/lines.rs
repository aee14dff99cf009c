//! The lines a journal's writer task is sent, and how each reads as the file journal writes it.

use crate::RunsError;
use serde_json::Value;
use tokio::sync::oneshot;
use vai_workflow::Usage;
use vai_workflow::exec::Waiting;
use vai_workflow::journal::Meta;

/// What the writer task is asked to do.
pub(crate) enum Job {
    Line(Line),
    /// Write everything sent so far, and say how it went.
    Flush(oneshot::Sender<Result<(), RunsError>>),
    /// Write everything, let the run go, and stop.
    Close(oneshot::Sender<Result<(), RunsError>>),
}

pub(crate) use vai_workflow::journal::Line;

/// The line as JSON text.
pub(crate) fn text(line: &Line) -> serde_json::Result<String> {
    let mut out = Vec::new();
    line.write(&mut out)?;
    // serde_json writes UTF-8.
    Ok(String::from_utf8_lossy(&out).into_owned())
}

/// What the line changes in the run's summary (as the file journal's summary follows it).
pub(crate) fn apply(line: &Line, meta: &mut Meta) -> bool {
    let value = match line {
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
