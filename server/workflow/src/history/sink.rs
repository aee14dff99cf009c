//! The sink that writes a run's history as it goes: a `trace` line per step that ends.

use crate::events::{EventSink, RunEvent};
use crate::journal::{RunJournal, StepTrace, trace_key};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

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
                    .insert(trace_key(at, step_id), crate::journal::now_ms());
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
