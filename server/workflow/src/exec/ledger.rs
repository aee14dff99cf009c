//! What a run has done so far: the context its steps read, a record of each step, the usage
//! and the step outputs' share of the run's budget. Each change is reported to the sink as it
//! is made, so the events and the final `RunResult` cannot disagree.

use super::record::{RunResult, StepOutcome, StepRecord, Stop};
use super::step::Finished;
use super::undo::{CompensationReport, Undo};
use crate::compile::Plan;
use crate::events::{EventSink, RunEvent, RunStatus};
use crate::limits::{Budget, LimitError, Limits};
use crate::scope::Context;
use crate::tool::Usage;
use crate::value::summarise;
use serde_json::{Map, Value, json};
use std::sync::Arc;
use std::time::Instant;

/// Step records keep outputs for runs of at most this many steps; larger runs rely on events
/// and the context.
const KEEP_OUTPUTS_UP_TO: usize = 200;

pub(super) struct Ledger {
    plan: Arc<Plan>,
    sink: Arc<dyn EventSink>,
    /// `inputs`, `defaults`, and the entry of each finished step someone still reads.
    context: Context,
    records: Vec<StepRecord>,
    usage: Usage,
    /// What the step outputs of this run (and the other runs of its tree) have taken so far.
    run_budget: Arc<Budget>,
}

impl Ledger {
    pub(super) fn new(
        plan: Arc<Plan>,
        sink: Arc<dyn EventSink>,
        context: Context,
        run_budget: Arc<Budget>,
    ) -> Self {
        let records = plan
            .steps
            .iter()
            .map(|s| StepRecord {
                id: s.id.clone(),
                tool: s.tool.clone(),
                status: StepOutcome::Pending,
                duration_ms: 0,
                error: None,
                reason: None,
                output: None,
            })
            .collect();
        Self {
            plan,
            sink,
            context,
            records,
            usage: Usage::default(),
            run_budget,
        }
    }

    pub(super) fn context(&self) -> &Context {
        &self.context
    }

    /// The part of the context step `i` may read: inputs, defaults and its dependencies.
    pub(super) fn scope_of(&self, i: usize) -> Context {
        let mut scope = Context::new();
        for name in ["inputs", "defaults"] {
            if let Some(v) = self.context.get_arc(name) {
                scope.insert(name, v.clone());
            }
        }
        for &d in &self.plan.steps[i].deps {
            let id = &self.plan.steps[d].id;
            if let Some(v) = self.context.get_arc(id) {
                scope.insert(id.clone(), v.clone());
            }
        }
        scope
    }

    /// Step `i`'s entry is read by nobody any more: it leaves the context.
    pub(super) fn forget(&mut self, i: usize) {
        if let Some(entry) = self.context.remove(&self.plan.steps[i].id) {
            release(entry);
        }
    }

    pub(super) fn started(&self, i: usize) {
        let step = &self.plan.steps[i];
        self.sink.emit(RunEvent::StepStarted {
            step_id: step.id.clone(),
            name: step.name.clone(),
            tool: step.tool.clone(),
        });
    }

    pub(super) fn skipped(&mut self, i: usize, reason: String) {
        let step = &self.plan.steps[i];
        self.sink.emit(RunEvent::StepSkipped {
            step_id: step.id.clone(),
            reason: reason.clone(),
        });
        self.context
            .insert(step.id.clone(), json!({"output": null, "skipped": true}));
        let rec = &mut self.records[i];
        rec.status = StepOutcome::Skipped;
        rec.reason = Some(reason);
    }

    /// Record how step `i`'s task ended: its output, once the run's budget has room for it, or
    /// its error (masked), which only a step that continues on error leaves in the context.
    /// Returns the output's size as JSON, or the error when the step failed.
    pub(super) fn finished(&mut self, i: usize, finished: Finished) -> Result<u64, String> {
        let step = &self.plan.steps[i];
        let duration_ms = finished.duration.as_millis() as u64;
        self.records[i].duration_ms = duration_ms;
        // The output counts towards the run's budget before it is kept.
        let result =
            finished
                .result
                .and_then(|success| match self.run_budget.charge(success.bytes) {
                    Ok(()) => Ok(success),
                    Err(l) => Err(LimitError::new("output", l).to_string()),
                });
        let inputs = finished.inputs;
        match result {
            Ok(success) => {
                let bytes = success.bytes;
                if let Some(u) = &success.usage {
                    self.usage.add(u);
                }
                let summary = summarise(&success.output);
                let mut entry = Map::with_capacity(1);
                entry.insert("output".into(), success.output);
                let entry = Arc::new(Value::Object(entry));
                self.records[i].status = StepOutcome::Completed;
                if self.plan.steps.len() <= KEEP_OUTPUTS_UP_TO {
                    self.records[i].output = entry.get("output").cloned();
                }
                self.context.insert(step.id.clone(), entry.clone());
                self.sink.emit(RunEvent::StepCompleted {
                    step_id: step.id.clone(),
                    duration_ms,
                    summary,
                    usage: success.usage,
                    backend: success.backend,
                    entry,
                    inputs,
                });
                Ok(bytes)
            }
            Err(error) => {
                // A provider may have echoed a key; nothing downstream (events, the context,
                // the run's failure) sees it.
                let error = vai_redact::mask(&error).into_owned();
                let continued = step.continue_on_error;
                self.sink.emit(RunEvent::StepFailed {
                    step_id: step.id.clone(),
                    error: error.clone(),
                    duration_ms,
                    continued,
                    inputs,
                });
                self.records[i].status = StepOutcome::Failed;
                self.records[i].error = Some(error.clone());
                if continued {
                    self.context
                        .insert(step.id.clone(), json!({"output": null, "error": error}));
                }
                Err(error)
            }
        }
    }

    /// Step `i` (a `yield`, or a `workflow` whose child reached one) waits for a person.
    pub(super) fn waiting(&mut self, i: usize) {
        self.records[i].status = StepOutcome::Waiting;
    }

    /// Step `i` stopped with the run, or never started though the run was paused before it.
    pub(super) fn cancelled(&mut self, i: usize) {
        self.records[i].status = StepOutcome::Cancelled;
        self.sink.emit(RunEvent::StepCancelled {
            step_id: self.plan.steps[i].id.clone(),
        });
    }

    /// The end of the run, reported and returned: cancelled or failed with why, or completed
    /// with its output — failed after all when the output cannot be made within `limits`.
    pub(super) fn end(
        self,
        stop: Option<Stop>,
        compensation: Vec<CompensationReport>,
        undo: Vec<Undo>,
        limits: &Limits,
        started: Instant,
    ) -> RunResult {
        let mut waiting = None;
        let (status, mut error) = match stop {
            None => (RunStatus::Completed, None),
            Some(Stop::Failed(e)) => (RunStatus::Failed, Some(e)),
            Some(Stop::Cancelled(e)) => (RunStatus::Cancelled, Some(e)),
            Some(Stop::Waiting(w)) => {
                waiting = Some(*w);
                (RunStatus::Waiting, None)
            }
        };
        let mut output = None;
        if status == RunStatus::Completed {
            match self.output(limits) {
                Ok(value) => output = Some(Arc::new(value)),
                Err(e) => error = Some(e.to_string()),
            }
        }
        let status = if output.is_none() && status == RunStatus::Completed {
            RunStatus::Failed
        } else {
            status
        };
        let duration_ms = started.elapsed().as_millis() as u64;
        let usage = (self.usage != Usage::default()).then(|| self.usage.clone());
        self.sink.emit(RunEvent::RunFinished {
            status,
            duration_ms,
            error: error.clone(),
            usage,
            output: output.clone(),
        });
        // Copied only when a subscriber kept the shared output.
        let output = output.map(|o| Arc::try_unwrap(o).unwrap_or_else(|o| (*o).clone()));
        RunResult {
            status,
            output,
            error,
            steps: self.records,
            duration_ms,
            usage: self.usage,
            waiting,
            compensation,
            undo,
        }
    }

    /// The run's output: the `output` mapping, resolved within the step output limit, or the
    /// whole context (every step output kept, within the run limit already).
    fn output(&self, limits: &Limits) -> Result<Value, LimitError> {
        match &self.plan.output {
            Some(tpl) => tpl
                .resolve(&self.context, &limits.step_budget())
                .map(|v| v.unwrap_or(Value::Null))
                .map_err(|l| LimitError::new("output", l)),
            None => Ok(self.context.to_value()),
        }
    }
}

/// Drop a context entry nobody reads any more. Freeing a large output takes a while, so it
/// happens on a worker rather than in the scheduler's loop.
fn release(entry: Arc<Value>) {
    if Arc::strong_count(&entry) == 1 {
        tokio::spawn(async move { drop(entry) });
    }
}
