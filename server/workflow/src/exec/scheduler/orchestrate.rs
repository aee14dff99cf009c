//! The steps the scheduler runs itself besides `conditional`: a `yield` (answered from a
//! resume, timed out, or the run waits), a `fail` (the run ends with its message), and a step
//! an earlier run of the plan completed (replayed from its journal, never run twice).

use super::Scheduler;
use crate::compile::StepKind;
use crate::events::RunEvent;
use crate::exec::durable::{Entry, RecordedStep};
use crate::exec::record::{Stop, Waiting};
use crate::exec::resolve::resolve_inputs;
use crate::exec::step::{Finished, Success};
use crate::exec::undo::child_undos;
use crate::expects::Expects;
use crate::inputs::JoinGuard;
use crate::tool::ToolOutput;
use serde_json::Value;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Milliseconds since the Unix epoch.
pub(crate) fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

impl Scheduler {
    /// A `yield` step: its answer when a resume brought one, the timeout's outcome when the
    /// wait is over, else the run waits for a person.
    pub(in crate::exec) fn ask(
        &mut self,
        i: usize,
        expects: &Expects,
        timeout: Option<Duration>,
        on_timeout: Option<Value>,
    ) -> Result<(), Stop> {
        let id = self.plan.steps[i].id.clone();
        let replay = self.frame.replay.clone();
        // A test case answers with a mock of the step.
        let mocked = self.mocks.for_step(&id, crate::control::YIELD).cloned();
        let recorded = replay.as_ref().and_then(|r| r.answers.get(&id)).cloned();
        if let Some(answer) = mocked.or(recorded) {
            let errors = expects.check(&answer);
            if errors.is_empty() {
                let out = ToolOutput {
                    backend: Some("person".into()),
                    ..ToolOutput::new(answer)
                };
                return self.finish(
                    i,
                    Finished::new(Success::checked(out, &self.limits), Duration::ZERO, None),
                );
            }
            let list: Vec<String> = errors
                .iter()
                .map(|e| format!("{} {}", e.field, e.message))
                .collect();
            let error = format!("the answer does not satisfy expects: {}", list.join("; "));
            return self.end_with(i, error);
        }
        let now = now_ms();
        let deadline = match replay.as_ref().and_then(|r| r.waits.get(&id)) {
            Some(recorded) => *recorded,
            None => timeout.map(|t| now.saturating_add(t.as_millis() as u64)),
        };
        if deadline.is_some_and(|d| now >= d) {
            return match on_timeout {
                Some(default) => {
                    let out = ToolOutput {
                        backend: Some("default".into()),
                        ..ToolOutput::new(default)
                    };
                    let result = Success::checked(out, &self.limits);
                    self.finish(i, Finished::new(result, Duration::ZERO, None))
                }
                None => self.end_with(i, "nobody answered before the wait timed out".into()),
            };
        }
        let message = match self.message(i) {
            Ok(m) => m,
            Err(e) => return self.finish(i, Finished::failed(e, Duration::ZERO)),
        };
        self.sink.emit(RunEvent::Waiting {
            step_id: id.clone(),
            message: message.clone(),
            expects: expects.schema.clone(),
            deadline_ms: deadline,
        });
        if let Some(journal) = &self.frame.journal {
            journal.record(Entry::Waiting {
                id: &id,
                message: &message,
                expects: &expects.schema,
                deadline_ms: deadline,
            });
        }
        self.ledger.waiting(i);
        self.walk.stop(i);
        Err(Stop::Waiting(Box::new(Waiting {
            step_id: id,
            within: Vec::new(),
            message,
            expects: expects.schema.clone(),
            deadline_ms: deadline,
        })))
    }

    /// A `fail` step: the run ends failed with its message, whatever `continueOnError` says.
    pub(in crate::exec) fn fail_on_purpose(&mut self, i: usize) -> Result<(), Stop> {
        match self.message(i) {
            Ok(message) => self.end_with(i, message),
            Err(e) => self.end_with(i, e),
        }
    }

    /// Step `i` fails and the run ends with `error` as its own.
    fn end_with(&mut self, i: usize, error: String) -> Result<(), Stop> {
        let _ = self
            .ledger
            .finished(i, Finished::failed(error.clone(), Duration::ZERO));
        self.walk.stop(i);
        Err(Stop::Failed(error))
    }

    /// Step `i`'s `message` input, resolved.
    fn message(&self, i: usize) -> Result<String, String> {
        let step = &self.plan.steps[i];
        let scope = self.ledger.scope_of(i);
        let guard = JoinGuard::new(&self.limits);
        let inputs = resolve_inputs(&step.inputs, &scope, &self.limits, &guard)?;
        Ok(match inputs.get("message") {
            Some(Value::String(s)) => s.clone(),
            None | Some(Value::Null) => String::new(),
            Some(other) => other.to_string(),
        })
    }

    /// Complete step `i` as an earlier run of the plan did: its output (and, for a
    /// conditional, its decision) or the error it went on after.
    pub(in crate::exec) fn replay_recorded(
        &mut self,
        i: usize,
        recorded: RecordedStep,
    ) -> Result<(), Stop> {
        self.mark_started(i);
        let step = &self.plan.steps[i];
        let mut finished = match recorded {
            RecordedStep::Completed { output, .. } => {
                if let StepKind::Conditional { .. } = &step.kind {
                    let skipped = output.get("skippedSteps").and_then(Value::as_array);
                    for id in skipped.into_iter().flatten().filter_map(Value::as_str) {
                        if let Some(j) = self.plan.step_index(id) {
                            self.branch_skip[j] = Some("conditional branch not taken".into());
                        }
                    }
                }
                let undo = match (&step.kind, &self.frame.replay) {
                    (StepKind::Workflow { .. }, Some(replay)) => child_undos(replay, &step.id),
                    _ => Vec::new(),
                };
                let out = ToolOutput {
                    backend: Some("journal".into()),
                    ..ToolOutput::new(output)
                };
                let mut finished =
                    Finished::new(Success::checked(out, &self.limits), Duration::ZERO, None);
                finished.undo = undo;
                finished
            }
            RecordedStep::Failed { error } => Finished::failed(error, Duration::ZERO),
        };
        finished.replayed = true;
        self.finish(i, finished)
    }
}
