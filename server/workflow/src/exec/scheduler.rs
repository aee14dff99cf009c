//! The scheduler of one run: the event loop that takes each step as the walk finds it ready,
//! skips it (its condition, a branch not taken, a single-step run), pauses before it
//! (step-through), runs a `conditional` inline or spawns the step's task, and hands each end to
//! the ledger; a failure without `continueOnError` or a cancellation stops the steps still
//! running.

mod orchestrate;

use super::durable::{Entry, UndoCall};
use super::frame::Frame;
use super::ledger::Ledger;
use super::only::{Only, Turn};
use super::options::{Mocks, RunOptions};
use super::record::{RunResult, Stop, Waiting};
use super::step::{Finished, StepTask, Success};
use super::stepping::{self, PAUSE_IDLE_LIMIT, Resume, Stepping};
use super::undo::{Compensator, Undo};
use super::walk::Walk;
use crate::compile::{Plan, StepKind};
use crate::events::{EventSink, RunEvent};
use crate::limits::{Budget, LimitError, Limits};
use crate::scope::Context;
use crate::tool::{ApiCalls, Effects, Registry, ToolOutput};
use serde_json::Value;
use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::task::JoinSet;

/// Outputs of pure steps larger than this are computed again on resume rather than journaled.
const RECOMPUTE_OVER_BYTES: u64 = 64 * 1024;

/// One run of a plan: it takes the steps the walk hands out as they become ready, skips, pauses
/// before or launches each, and records and reports what each one did.
pub(super) struct Scheduler {
    plan: Arc<Plan>,
    registry: Arc<Registry>,
    mocks: Arc<Mocks>,
    sink: Arc<dyn EventSink>,
    walk: Walk,
    ledger: Ledger,
    /// Why a step is to be skipped when its turn comes, as a conditional decided: a branch not
    /// taken, or a conditional that failed or did not run.
    branch_skip: Vec<Option<String>>,
    limits: Limits,
    /// The budget of recorded inputs, when the run records them.
    record: Option<Arc<Budget>>,
    /// The most bytes of one step's inputs recorded.
    record_each: Option<u64>,
    /// With `RunOptions::only`: which steps run, replay or are skipped.
    only: Option<Only>,
    tasks: JoinSet<(usize, Finished)>,
    /// A step-through run's handle, and the step it waits before (taken from the walk's ready
    /// steps, not started; the steps ready after it wait behind it).
    stepping: Option<Stepping>,
    paused: Option<Paused>,
    started: Instant,
    /// What this run shares with its child runs (journal, replay, depth, budget).
    frame: Arc<Frame>,
    /// What undoes each completed step, in order of completion.
    undo: Vec<Undo>,
    /// The `yield` the run waits at: nothing new starts; the steps running finish first.
    waiting: Option<Waiting>,
}

/// A step the run waits before, and when the wait gives up (never, past the clock's range).
struct Paused {
    index: usize,
    deadline: Option<tokio::time::Instant>,
}

impl Scheduler {
    pub(super) fn new(
        plan: Arc<Plan>,
        registry: Arc<Registry>,
        options: RunOptions,
        sink: Arc<dyn EventSink>,
        context: Context,
        frame: Arc<Frame>,
    ) -> Self {
        let n = plan.steps.len();
        let walk = Walk::new(&plan);
        let ledger = Ledger::new(
            plan.clone(),
            sink.clone(),
            context,
            frame.run_budget.clone(),
        );
        let only = options.only.map(|only| Only::new(&plan, only));
        Self {
            limits: options.limits,
            record: options
                .capture_inputs
                .then(|| Arc::new(options.limits.run_budget())),
            record_each: options.capture_inputs_max,
            only,
            plan,
            registry,
            mocks: Arc::new(options.mocks),
            sink,
            walk,
            ledger,
            branch_skip: vec![None; n],
            tasks: JoinSet::new(),
            stepping: options.stepping,
            paused: None,
            started: Instant::now(),
            frame,
            undo: Vec::new(),
            waiting: None,
        }
    }

    /// `run`, boxed: a child run is a step of its parent's run.
    pub(super) fn run_boxed(self) -> std::pin::Pin<Box<dyn Future<Output = RunResult> + Send>> {
        Box::pin(self.run())
    }

    pub(super) async fn run(mut self) -> RunResult {
        self.sink.emit(RunEvent::RunStarted {
            workflow: self.plan.workflow.name.clone(),
            layers: self.plan.layer_ids(),
            total_steps: self.plan.steps.len(),
        });
        let mut stop: Option<Stop> = None;
        loop {
            while stop.is_none() && self.paused.is_none() && self.waiting.is_none() {
                let Some(i) = self.walk.next_ready() else {
                    break;
                };
                let started = self.start(i);
                self.stop_on(started, &mut stop);
            }
            if stop.is_some() || (self.tasks.is_empty() && self.paused.is_none()) {
                break;
            }
            // While paused, the steps already running go on and their events flow.
            let paused = self.paused.is_some();
            let idle = self.paused.as_ref().and_then(|p| p.deadline);
            tokio::select! {
                biased;
                _ = self.frame.cancel.cancelled() => {
                    stop = Some(Stop::Cancelled("the run was cancelled".to_string()));
                    break;
                }
                resume = stepping::resumed(self.stepping.as_ref()), if paused => {
                    let resumed = self.resume(resume);
                    self.stop_on(resumed, &mut stop);
                }
                _ = tokio::time::sleep_until(idle.unwrap_or_else(tokio::time::Instant::now)), if idle.is_some() => {
                    let limit = self.stepping.as_ref().map_or(PAUSE_IDLE_LIMIT, Stepping::idle_limit);
                    stop = Some(Stop::Cancelled(format!(
                        "the run was paused for {} without Next or Continue",
                        stepping::describe(limit)
                    )));
                    break;
                }
                joined = self.tasks.join_next(), if !self.tasks.is_empty() => {
                    let Some(joined) = joined else { break };
                    match joined {
                        Ok((i, finished)) => {
                            let finished = self.finish(i, finished);
                            self.stop_on(finished, &mut stop);
                        }
                        Err(e) if e.is_panic() => {
                            stop = Some(Stop::Failed(format!("a step task panicked: {e}")));
                        }
                        Err(_) => {}
                    }
                }
            }
        }
        self.stop_running();
        if let Some(stepping) = &self.stepping {
            stepping.close();
        }
        let stop = match (stop, self.waiting.take()) {
            (None, Some(waiting)) => Some(Stop::Waiting(Box::new(waiting))),
            (stop, _) => stop,
        };
        let mut compensation = Vec::new();
        if matches!(stop, Some(Stop::Failed(_) | Stop::Cancelled(_))) && !self.undo.is_empty() {
            let compensator = Compensator {
                registry: &self.registry,
                limits: self.limits,
                sink: &self.sink,
                journal: self.frame.journal.as_ref(),
                done: self.frame.replay.as_deref(),
            };
            compensation = compensator.run(&self.undo).await;
        }
        let undo = std::mem::take(&mut self.undo);
        self.ledger
            .end(stop, compensation, undo, &self.limits, self.started)
    }

    /// Take what starting, resuming or finishing a step ended with: a `yield` makes the run
    /// wait (the steps running go on); a failure or cancellation stops it.
    fn stop_on(&mut self, result: Result<(), Stop>, stop: &mut Option<Stop>) {
        match result {
            Ok(()) => {}
            Err(Stop::Waiting(waiting)) => {
                if self.waiting.is_none() {
                    self.waiting = Some(*waiting);
                }
            }
            Err(e) => *stop = Some(e),
        }
    }

    /// Begin step `i`: skip it, pause before it, or launch it.
    fn start(&mut self, i: usize) -> Result<(), Stop> {
        let step = &self.plan.steps[i];
        if let Some(only) = &mut self.only {
            match only.turn(i, &step.id) {
                Turn::Run => {}
                Turn::Replay(output) => return self.replay(i, output),
                Turn::Skip(reason) => return self.skip(i, reason),
            }
        }
        if let Some(reason) = self.branch_skip[i].take() {
            return self.skip(i, reason);
        }
        if let Some(cond) = &step.condition {
            match cond.eval(self.ledger.context(), &self.limits.value_budget()) {
                Ok(true) => {}
                Ok(false) => return self.skip(i, "condition not met".to_string()),
                Err(l) => return self.fail_at_start(i, LimitError::new("condition", l)),
            }
        }
        let recorded = self
            .frame
            .replay
            .as_ref()
            .and_then(|r| r.steps.get(&step.id))
            .cloned();
        if let Some(recorded) = recorded {
            return self.replay_recorded(i, recorded);
        }
        if let Some(breakpoint) = self.stepping.as_ref().and_then(|s| s.pauses_at(&step.id)) {
            self.pause(i, breakpoint);
            return Ok(());
        }
        self.launch(i)
    }

    /// Wait before step `i` (whose skip and condition are decided) until a resume, showing the
    /// inputs it will get.
    fn pause(&mut self, i: usize, breakpoint: bool) {
        let Some(stepping) = &self.stepping else {
            return;
        };
        let step = &self.plan.steps[i];
        let inputs = self.task(i).preview().map(Arc::new);
        stepping.pause(&step.id);
        let deadline = tokio::time::Instant::now().checked_add(stepping.idle_limit());
        self.sink.emit(RunEvent::Paused {
            step_id: step.id.clone(),
            name: step.name.clone(),
            tool: step.tool.clone(),
            breakpoint,
            inputs,
        });
        self.paused = Some(Paused { index: i, deadline });
    }

    /// Launch the step the run is paused before.
    fn resume(&mut self, resume: Resume) -> Result<(), Stop> {
        let Some(paused) = self.paused.take() else {
            return Ok(());
        };
        self.sink.emit(RunEvent::Resumed {
            step_id: self.plan.steps[paused.index].id.clone(),
            action: resume.action,
            breakpoints: resume.breakpoints,
        });
        self.launch(paused.index)
    }

    /// Step `i`'s task, over the part of the context it may read.
    fn task(&self, i: usize) -> StepTask {
        StepTask {
            plan: self.plan.clone(),
            index: i,
            registry: self.registry.clone(),
            mocks: self.mocks.clone(),
            sink: self.sink.clone(),
            scope: self.ledger.scope_of(i),
            limits: self.limits,
            record: self.record.clone(),
            record_each: self.record_each,
            frame: self.frame.clone(),
            side: Default::default(),
        }
    }

    /// A minimum duration for each step's report (step-through runs), zero otherwise.
    fn pace(&self) -> Duration {
        self.stepping
            .as_ref()
            .map_or(Duration::ZERO, Stepping::pace)
    }

    /// Start step `i`: run a conditional, a `yield` or a `fail` inline, or spawn its task.
    fn launch(&mut self, i: usize) -> Result<(), Stop> {
        self.mark_started(i);
        let step = &self.plan.steps[i];
        let pace = self.pace();
        match &step.kind {
            StepKind::Yield {
                expects,
                timeout,
                on_timeout,
            } => {
                let (expects, timeout, on_timeout) =
                    (expects.clone(), *timeout, on_timeout.clone());
                return self.ask(i, &expects, timeout, on_timeout);
            }
            StepKind::Fail => return self.fail_on_purpose(i),
            _ => {}
        }
        if let StepKind::Conditional {
            condition,
            then,
            otherwise,
        } = &step.kind
        {
            let started = Instant::now();
            let decision = match crate::control::decide(
                &self.plan,
                condition,
                then,
                otherwise,
                self.ledger.context(),
                &self.limits,
            ) {
                Ok(decision) => decision,
                Err(e) => {
                    return self.finish(i, Finished::failed(e.to_string(), started.elapsed()));
                }
            };
            for j in decision.skipped {
                self.branch_skip[j] = Some("conditional branch not taken".to_string());
            }
            let finished = Finished::new(
                Success::checked(ToolOutput::new(decision.output), &self.limits),
                started.elapsed(),
                None,
            );
            if pace.is_zero() {
                return self.finish(i, finished);
            }
            // Reported after the pace, like any other step; the branch is decided already.
            self.tasks.spawn(async move {
                tokio::time::sleep(pace).await;
                (i, finished)
            });
            return Ok(());
        }
        let task = self.task(i);
        self.tasks.spawn(async move {
            let paced = tokio::time::Instant::now() + pace;
            let started = Instant::now();
            let (result, inputs) = task.execute().await;
            // The step's own time; the pace only holds its report back.
            let duration = started.elapsed();
            if !pace.is_zero() {
                tokio::time::sleep_until(paced).await;
            }
            let side = std::mem::take(&mut *task.side.lock().unwrap_or_else(|e| e.into_inner()));
            let mut finished = Finished::new(result, duration, inputs.map(Arc::new));
            finished.undo = side.undo;
            finished.waiting = side.waiting;
            (i, finished)
        });
        Ok(())
    }

    /// Tell the sink step `i` started, and count it as running.
    fn mark_started(&mut self, i: usize) {
        self.ledger.started(i);
        self.walk.start(i);
    }

    /// Fail step `i` before it ran (its condition could not be evaluated).
    fn fail_at_start(&mut self, i: usize, error: LimitError) -> Result<(), Stop> {
        self.mark_started(i);
        self.finish(i, Finished::failed(error.to_string(), Duration::ZERO))
    }

    /// Complete step `i` at once with an output recorded earlier (single-step runs).
    fn replay(&mut self, i: usize, output: Value) -> Result<(), Stop> {
        self.mark_started(i);
        let mut finished = Finished::new(
            Success::checked(
                ToolOutput {
                    backend: Some("replay".into()),
                    ..ToolOutput::new(output)
                },
                &self.limits,
            ),
            Duration::ZERO,
            None,
        );
        finished.replayed = true;
        self.finish(i, finished)
    }

    fn skip(&mut self, i: usize, reason: String) -> Result<(), Stop> {
        self.ledger.skipped(i, reason);
        // A conditional or router that did not run decides nothing: no branch runs.
        self.skip_branches(i, "did not run");
        self.done(i);
        Ok(())
    }

    /// When step `i` is a conditional or a router that decided nothing, skip every branch or
    /// route of it, saying so.
    fn skip_branches(&mut self, i: usize, what_happened: &str) {
        let step = &self.plan.steps[i];
        let (tool, listed): (&str, Vec<usize>) = match &step.kind {
            StepKind::Conditional {
                then, otherwise, ..
            } => (
                "conditional",
                then.iter().chain(otherwise).copied().collect(),
            ),
            StepKind::Router { routes } => (
                "router",
                routes
                    .iter()
                    .flat_map(|r| r.steps.iter().copied())
                    .collect(),
            ),
            _ => return,
        };
        for j in listed {
            self.branch_skip[j] = Some(format!("{tool} \"{}\" {what_happened}", step.id));
        }
    }

    /// Step `i`, a router, completed with `output`: the steps of the routes it did not choose
    /// are skipped. `Err` when the output names no route of it.
    fn take_route(&mut self, i: usize, output: &Value) -> Result<(), String> {
        let step = &self.plan.steps[i];
        let StepKind::Router { routes } = &step.kind else {
            return Ok(());
        };
        let k = crate::control::chosen_route(routes, output)?;
        let reason = format!("router \"{}\" chose \"{}\"", step.id, routes[k].id);
        let untaken = routes.iter().enumerate().filter(|&(n, _)| n != k);
        for (_, route) in untaken {
            for &j in &route.steps {
                self.branch_skip[j] = Some(reason.clone());
            }
        }
        Ok(())
    }

    /// Record a finished task; `Err` when the failure ends the run, or when the step's child
    /// run waits for a person.
    fn finish(&mut self, i: usize, mut finished: Finished) -> Result<(), Stop> {
        if let Some(waiting) = finished.waiting.take() {
            self.ledger.waiting(i);
            self.walk.stop(i);
            return Err(Stop::Waiting(Box::new(waiting)));
        }
        let replayed = finished.replayed;
        let child_undo = std::mem::take(&mut finished.undo);
        if let Ok(success) = &finished.result
            && let Err(e) = self.take_route(i, &success.output)
        {
            finished.result = Err(e);
        }
        let finished = self.ledger.finished(i, finished);
        if let Err(error) = finished {
            let step = &self.plan.steps[i];
            if !step.continue_on_error {
                self.walk.stop(i);
                return Err(Stop::Failed(format!(
                    "step \"{}\" failed: {error}",
                    step.id
                )));
            }
            if !replayed && let Some(journal) = &self.frame.journal {
                journal.record(Entry::Failed {
                    id: &step.id,
                    error: &error,
                });
            }
            self.skip_branches(i, "failed");
        } else if let Ok(bytes) = finished {
            self.completed(i, child_undo, replayed, bytes)?;
        }
        self.done(i);
        Ok(())
    }

    /// Step `i` completed: what undoes it is kept (its child runs' compensations, then its
    /// own, resolved now over what it read and its output), and the journal is told.
    fn completed(
        &mut self,
        i: usize,
        child_undo: Vec<Undo>,
        replayed: bool,
        bytes: u64,
    ) -> Result<(), Stop> {
        let step = &self.plan.steps[i];
        if !child_undo.is_empty() {
            self.undo.push(Undo::Child {
                step_id: step.id.clone(),
                inner: child_undo,
            });
        }
        let mut call = None;
        if let Some(compensate) = &step.compensate {
            let mut scope = self.ledger.scope_of(i);
            if let Some(entry) = self.ledger.context().get_arc(&step.id) {
                scope.insert(step.id.clone(), entry.clone());
            }
            let inputs = compensate
                .inputs
                .resolve(&scope, &self.limits.value_budget())
                .map_err(|l| {
                    Stop::Failed(format!(
                        "step \"{}\": {}",
                        step.id,
                        LimitError::new("compensate.inputs", l)
                    ))
                })?
                .unwrap_or(Value::Null);
            let undo = UndoCall {
                tool: compensate.tool.clone(),
                inputs,
                retry: compensate.retry.clone(),
                timeout_ms: compensate.timeout.map(|t| t.as_millis() as u64),
            };
            self.undo.push(Undo::Call {
                step_id: step.id.clone(),
                call: undo.clone(),
            });
            call = Some(undo);
        }
        let Some(journal) = self.frame.journal.as_ref().filter(|_| !replayed) else {
            return Ok(());
        };
        // A large output of a step that only computes on its inputs is not journaled: a resumed
        // run computes it again from the same inputs, paying nothing and changing nothing.
        let recomputable = call.is_none()
            && bytes > RECOMPUTE_OVER_BYTES
            && self.registry.spec(&step.tool).is_some_and(|spec| {
                spec.effects == Effects::PURE && spec.api_calls == ApiCalls::NONE
            });
        if !recomputable && let Some(entry) = self.ledger.context().get_arc(&step.id) {
            journal.record(Entry::Step {
                id: &step.id,
                entry,
                undo: call.as_ref(),
            });
        }
        Ok(())
    }

    /// Step `i` is done: the steps waiting for it may start, and the outputs nobody reads any
    /// more leave the context.
    fn done(&mut self, i: usize) {
        let ledger = &mut self.ledger;
        self.walk
            .done(i, &self.plan.steps[i].deps, |d| ledger.forget(d));
    }

    /// Cancel the running steps, and the one the run is paused before (it never started).
    fn stop_running(&mut self) {
        self.tasks.abort_all();
        let paused = self.paused.take().map(|p| p.index);
        let ledger = &mut self.ledger;
        self.walk.cancel(paused, |i| ledger.cancelled(i));
    }
}
