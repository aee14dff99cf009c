//! Compensation (a saga): each completed step with a `compensate` leaves an `Undo`; a
//! completed `workflow` step leaves its child's. When a run ends badly they run once each, in
//! reverse order of completion, each with its own retries and time limit and none of the
//! run's cancellation (a cancelled run still undoes what it did). The report says, per step,
//! whether it was undone.

use super::durable::{Entry, JournalAt, Recorded, RecordedStep, UndoCall, split_segment};
use crate::events::{EventSink, RunEvent};
use crate::limits::Limits;
use crate::model::RetryPolicy;
use crate::tool::{Registry, ToolError, run_alone};
use serde::Serialize;
use serde_json::{Map, Value};
use std::sync::Arc;
use std::time::Duration;

/// Time limit of one compensation attempt when the step sets none.
pub const COMPENSATION_TIMEOUT: Duration = Duration::from_secs(60);

/// What undoes one completed step.
#[derive(Debug, Clone)]
pub(crate) enum Undo {
    Call {
        step_id: String,
        call: UndoCall,
    },
    /// A completed `workflow` step: its child runs' undos, in their order of completion.
    Child {
        step_id: String,
        inner: Vec<Undo>,
    },
}

/// How one step's compensation went.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CompensationReport {
    /// The step, with the `workflow` steps it sits in first (`book › hold`).
    pub step_id: String,
    pub status: CompensationStatus,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CompensationStatus {
    Compensated,
    CompensationFailed,
}

/// The undos `recorded` leaves, in order of completion: for resuming or cancelling a run
/// whose earlier part ran in another process.
pub(crate) fn recorded_undos(recorded: &Recorded) -> Vec<Undo> {
    let mut out = Vec::new();
    for id in &recorded.order {
        match recorded.steps.get(id) {
            Some(RecordedStep::Completed {
                undo: Some(call), ..
            }) => out.push(Undo::Call {
                step_id: id.clone(),
                call: call.clone(),
            }),
            Some(RecordedStep::Completed { undo: None, .. }) => {
                let inner = child_undos(recorded, id);
                if !inner.is_empty() {
                    out.push(Undo::Child {
                        step_id: id.clone(),
                        inner,
                    });
                }
            }
            _ => {}
        }
    }
    out
}

/// The undos of the child runs of step `id` (one, or one per `forEach` item).
pub(crate) fn child_undos(recorded: &Recorded, id: &str) -> Vec<Undo> {
    let mut segments: Vec<&String> = recorded
        .children
        .keys()
        .filter(|s| split_segment(s).0 == id)
        .collect();
    segments.sort_by_key(|s| split_segment(s).1.unwrap_or(0));
    segments
        .into_iter()
        .flat_map(|s| recorded_undos(&recorded.children[s]))
        .collect()
}

/// Whoever runs compensations: the tools, the limits, where to report.
pub(crate) struct Compensator<'a> {
    pub(crate) registry: &'a Registry,
    pub(crate) limits: Limits,
    pub(crate) sink: &'a Arc<dyn EventSink>,
    pub(crate) journal: Option<&'a JournalAt>,
    /// Compensations an earlier process already ran (a resumed run does not repeat them).
    pub(crate) done: Option<&'a Recorded>,
}

impl Compensator<'_> {
    /// Run `undos` in reverse order; the report lists each, innermost steps named with their
    /// `workflow` steps.
    pub(crate) async fn run(&self, undos: &[Undo]) -> Vec<CompensationReport> {
        let mut report = Vec::new();
        self.run_level(undos, &[], self.done, &mut report).await;
        report
    }

    async fn run_level(
        &self,
        undos: &[Undo],
        within: &[String],
        done: Option<&Recorded>,
        report: &mut Vec<CompensationReport>,
    ) {
        for undo in undos.iter().rev() {
            match undo {
                Undo::Call { step_id, call } => {
                    let name = qualified(within, step_id);
                    let (ok, error) = match done.and_then(|d| d.compensated.get(step_id)) {
                        Some(&ok) => (ok, (!ok).then(|| "failed in an earlier attempt".into())),
                        None => self.call(&name, step_id, call, within).await,
                    };
                    report.push(CompensationReport {
                        step_id: name,
                        status: if ok {
                            CompensationStatus::Compensated
                        } else {
                            CompensationStatus::CompensationFailed
                        },
                        error,
                    });
                }
                Undo::Child { step_id, inner } => {
                    let mut path = within.to_vec();
                    path.push(step_id.clone());
                    let child_done = done.and_then(|d| d.children.get(step_id));
                    Box::pin(self.run_level(inner, &path, child_done, report)).await;
                }
            }
        }
    }

    /// One compensation, with its retries and time limit.
    async fn call(
        &self,
        name: &str,
        step_id: &str,
        call: &UndoCall,
        within: &[String],
    ) -> (bool, Option<String>) {
        self.sink.emit(wrap(
            within,
            RunEvent::Compensating {
                step_id: step_id.to_string(),
                tool: call.tool.clone(),
            },
        ));
        let result = self.attempts(name, call).await;
        let (ok, error) = match result {
            Ok(()) => (true, None),
            Err(e) => (false, Some(vai_redact::mask(&e).into_owned())),
        };
        if let Some(journal) = self.journal {
            let journal = within
                .iter()
                .fold(journal.clone(), |j, s| j.child(s.clone()));
            journal.record(Entry::Compensated {
                id: step_id,
                ok,
                error: error.as_deref(),
            });
        }
        self.sink.emit(wrap(
            within,
            RunEvent::Compensated {
                step_id: step_id.to_string(),
                ok,
                error: error.clone(),
            },
        ));
        (ok, error)
    }

    async fn attempts(&self, name: &str, call: &UndoCall) -> Result<(), String> {
        let Some(tool) = self.registry.tool(&call.tool) else {
            return Err(format!("tool \"{}\" is not available", call.tool));
        };
        let policy = call.retry.clone().unwrap_or(RetryPolicy {
            max_attempts: 1,
            ..RetryPolicy::default()
        });
        let limit = call
            .timeout_ms
            .map_or(COMPENSATION_TIMEOUT, Duration::from_millis);
        let inputs = match &call.inputs {
            Value::Object(m) => m.clone(),
            _ => Map::new(),
        };
        let mut delay = Duration::from_millis(policy.initial_delay_ms);
        let caller = format!("{name} (compensation)");
        for attempt in 1..=policy.max_attempts.max(1) {
            let run = run_alone(tool.as_ref(), &caller, inputs.clone(), self.limits);
            let result = match tokio::time::timeout(limit, run).await {
                Ok(r) => r,
                Err(_) => Err(ToolError::Transient {
                    message: format!("timed out after {} ms", limit.as_millis()),
                    retry_after: None,
                }),
            };
            match result {
                Ok(_) => return Ok(()),
                Err(e) if e.is_transient() && attempt < policy.max_attempts => {
                    tokio::time::sleep(delay.min(Duration::from_millis(policy.max_delay_ms))).await;
                    delay = delay.mul_f64(policy.backoff_rate.max(1.0));
                }
                Err(e) => return Err(e.to_string()),
            }
        }
        Err("no attempt was made".into())
    }
}

/// `event` as the run at `within` reports it to the top-level sink.
fn wrap(within: &[String], event: RunEvent) -> RunEvent {
    within.iter().rev().fold(event, |event, segment| {
        let (step_id, item) = split_segment(segment);
        RunEvent::Child {
            step_id: step_id.to_string(),
            item,
            event: Box::new(event),
        }
    })
}

fn qualified(within: &[String], step_id: &str) -> String {
    within
        .iter()
        .map(String::as_str)
        .chain([step_id])
        .collect::<Vec<_>>()
        .join(" › ")
}
