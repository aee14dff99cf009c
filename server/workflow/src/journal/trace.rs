//! What history keeps of each step beyond its output: how it ended, when, for how long, with
//! which inputs and what its model calls used. A `trace` line per step is written from the
//! run's events by [`HistorySink`], which wraps the run's sink; reading a journal gathers them
//! into [`JournalState::traces`](super::JournalState).

use super::RunJournal;
use crate::events::{EventSink, RunEvent};
use crate::tool::Usage;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Most bytes of a step's inputs a trace keeps; larger inputs are noted by their size only
/// (the step's output, which the run replays, is always kept whole).
pub const MAX_TRACE_INPUTS: usize = 256 * 1024;

/// One step as history records it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StepTrace {
    /// `completed`, `failed`, `skipped` or `cancelled`.
    pub status: String,
    /// Milliseconds since the Unix epoch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub started_at: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub backend: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<Usage>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The resolved inputs the tool got (`{"$omitted": bytes}` past [`MAX_TRACE_INPUTS`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inputs: Option<Value>,
    /// Copied from the run this one restarted from, not run again.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub replayed: bool,
}

/// The key of step `id` within `at` in [`JournalState::traces`](super::JournalState): the
/// segments and the id joined by `/` (`answer`, `book[2]/search`).
pub fn trace_key(at: &[String], id: &str) -> String {
    let mut key = at.join("/");
    if !key.is_empty() {
        key.push('/');
    }
    key.push_str(id);
    key
}

/// A sink that journals a `trace` line for every step that ends (at any depth), then hands
/// the event on. It only sends to the journal's writer thread, so it never blocks the run.
pub struct HistorySink {
    inner: Arc<dyn EventSink>,
    journal: Arc<dyn RunJournal>,
    /// When each running step started, by trace key.
    started: Mutex<HashMap<String, u64>>,
}

impl HistorySink {
    pub fn wrap(inner: Arc<dyn EventSink>, journal: Arc<dyn RunJournal>) -> Arc<dyn EventSink> {
        Arc::new(Self {
            inner,
            journal,
            started: Mutex::new(HashMap::new()),
        })
    }

    fn note(&self, at: &mut Vec<String>, event: &RunEvent) {
        let ended = |status: &str| StepTrace {
            status: status.to_string(),
            ..StepTrace::default()
        };
        let (id, trace, inputs) = match event {
            RunEvent::StepStarted { step_id, .. } => {
                self.started
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .insert(trace_key(at, step_id), super::now_ms());
                return;
            }
            RunEvent::StepCompleted {
                step_id,
                duration_ms,
                summary,
                usage,
                backend,
                inputs,
                ..
            } => {
                // A replayed step's trace is in the journal already (a resumed run's own, or
                // copied from the run a restart came from).
                if matches!(backend.as_deref(), Some("replay" | "journal")) {
                    return;
                }
                let trace = StepTrace {
                    duration_ms: Some(*duration_ms),
                    summary: Some(summary.clone()),
                    backend: backend.clone(),
                    usage: usage.clone(),
                    ..ended("completed")
                };
                (step_id, trace, inputs.clone())
            }
            RunEvent::StepFailed {
                step_id,
                error,
                duration_ms,
                inputs,
                ..
            } => {
                let trace = StepTrace {
                    duration_ms: Some(*duration_ms),
                    error: Some(error.clone()),
                    ..ended("failed")
                };
                (step_id, trace, inputs.clone())
            }
            RunEvent::StepSkipped { step_id, reason } => {
                let trace = StepTrace {
                    reason: Some(reason.clone()),
                    ..ended("skipped")
                };
                (step_id, trace, None)
            }
            RunEvent::StepCancelled { step_id } => (step_id, ended("cancelled"), None),
            RunEvent::Child {
                step_id,
                item,
                event,
            } => {
                at.push(match item {
                    Some(i) => format!("{step_id}[{i}]"),
                    None => step_id.clone(),
                });
                self.note(at, event);
                at.pop();
                return;
            }
            _ => return,
        };
        let started_at = self
            .started
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&trace_key(at, id));
        let trace = StepTrace {
            started_at,
            ..trace
        };
        self.journal.trace(at, id, trace, inputs);
    }
}

impl EventSink for HistorySink {
    fn emit(&self, event: RunEvent) {
        self.note(&mut Vec::new(), &event);
        self.inner.emit(event);
    }
}

/// `value`'s bytes as compact JSON when at most `max`, else `None` — counted without building
/// the text, and stopping as soon as it is over.
pub(crate) fn json_len_within(value: &Value, max: usize) -> Option<usize> {
    struct Capped(usize, usize);
    impl std::io::Write for Capped {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0 += buf.len();
            if self.0 > self.1 {
                return Err(std::io::Error::other("over"));
            }
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut out = Capped(0, max);
    serde_json::to_writer(&mut out, value).ok().map(|()| out.0)
}
