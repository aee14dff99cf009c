//! The executor: runs a sealed `Plan` on tokio. A step starts as soon as its dependencies are
//! done; `condition` and conditional branches skip steps; a failure without `continueOnError`
//! cancels the steps still running; the user can cancel at any time; a step-through run pauses
//! before steps (`stepping`). Every change is reported as a `RunEvent`.

mod inputs;
mod iterate;
mod resolve;
mod step;
mod stepping;

pub use inputs::{InputError, coerce, prepare_inputs};
pub use stepping::{NotPaused, PAUSE_IDLE_LIMIT, Resume, ResumeAction, StepThrough, Stepping};

use crate::compile::{Plan, StepKind};
use crate::events::{EventSink, RunEvent, RunStatus};
use crate::limits::{Budget, LimitError, Limits};
use crate::scope::Context;
use crate::tool::{Registry, ToolOutput, Usage};
use crate::value::summarise;
use serde::Serialize;
use serde_json::{Map, Value, json};
use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;

/// Most elements a `forEach` may iterate over.
pub const MAX_FOR_EACH_ITEMS: usize = 10_000;

/// Canned outputs for `vai workflow test`: by step id (first) or by tool name.
#[derive(Debug, Clone, Default)]
pub struct Mocks {
    pub by_step: HashMap<String, Value>,
    pub by_tool: HashMap<String, Value>,
}

impl Mocks {
    fn for_step(&self, id: &str, tool: &str) -> Option<&Value> {
        self.by_step.get(id).or_else(|| self.by_tool.get(tool))
    }

    pub fn is_empty(&self) -> bool {
        self.by_step.is_empty() && self.by_tool.is_empty()
    }
}

/// What a run needs besides the plan and the tools.
#[derive(Debug, Clone, Default)]
pub struct RunOptions {
    /// Inputs as given by the user; defaults are applied and types coerced before the run.
    pub inputs: Map<String, Value>,
    /// Keys that override the workflow's `defaults` (the CLI's `--db`, `--collection`).
    pub defaults_override: Map<String, Value>,
    pub mocks: Mocks,
    /// Cancel the run from outside.
    pub cancel: CancellationToken,
    /// Hand each step's inputs, as its tool was given them, to the sink with the step's
    /// `StepCompleted` or `StepFailed` (the playground's inspector shows them). Off by default:
    /// it costs a copy of the inputs. The copies share a budget of `limits.run_bytes`; past
    /// it a step's inputs are replaced by a note saying so.
    pub capture_inputs: bool,
    /// Bounds on the values the run makes.
    pub limits: Limits,
    /// Run one step only, replaying what it depends on.
    pub only: Option<OnlyStep>,
    /// Pause before steps until resumed through this handle (a step-through run), and give
    /// each step its `pace`.
    pub stepping: Option<Stepping>,
}

/// A single-step run: `step` runs; the steps it depends on (directly or not) complete at once
/// with the outputs in `replay` (backend `replay`), or are skipped when none is given; every
/// other step is skipped.
#[derive(Debug, Clone, Default)]
pub struct OnlyStep {
    pub step: String,
    /// Outputs by step id, e.g. from an earlier run.
    pub replay: HashMap<String, Value>,
}

/// A step's part in a single-step run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    Target,
    Upstream,
    Other,
}

/// Final state of one step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StepOutcome {
    /// Never reached (the run stopped first).
    Pending,
    Completed,
    Skipped,
    Failed,
    Cancelled,
}

/// What happened to one step.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StepRecord {
    pub id: String,
    pub tool: String,
    pub status: StepOutcome,
    pub duration_ms: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output: Option<Value>,
}

/// The result of a run.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RunResult {
    pub status: RunStatus,
    /// The resolved `output` mapping (or the whole context when the workflow maps none).
    pub output: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// One record per step, in file order.
    pub steps: Vec<StepRecord>,
    pub duration_ms: u64,
    pub usage: Usage,
}

/// Run `plan` with `registry`'s tools. Returns the input problems, if any, before anything runs.
pub async fn run(
    plan: Arc<Plan>,
    registry: Arc<Registry>,
    options: RunOptions,
    sink: Arc<dyn EventSink>,
) -> Result<RunResult, Vec<InputError>> {
    let inputs = prepare_inputs(&plan.workflow, &options.inputs)?;
    let mut defaults = plan.workflow.defaults.clone();
    defaults.extend(options.defaults_override.clone());
    let mut context = Context::new();
    context.insert("inputs", Value::Object(inputs));
    context.insert("defaults", Value::Object(defaults));
    let scheduler = Scheduler::new(plan, registry, options, sink, context);
    Ok(scheduler.run().await)
}

/// What a finished step task hands back to the scheduler.
pub(crate) struct Finished {
    pub(crate) result: Result<step::Success, String>,
    pub(crate) duration: Duration,
    /// The inputs the step ran with, when the run records them.
    pub(crate) inputs: Option<Arc<Value>>,
}

impl Finished {
    fn failed(error: String, duration: Duration) -> Self {
        Self {
            result: Err(error),
            duration,
            inputs: None,
        }
    }
}

enum State {
    Waiting(usize),
    Running,
    Done,
}

struct Scheduler {
    plan: Arc<Plan>,
    registry: Arc<Registry>,
    mocks: Arc<Mocks>,
    cancel: CancellationToken,
    sink: Arc<dyn EventSink>,
    context: Context,
    state: Vec<State>,
    dependents: Vec<Vec<usize>>,
    /// Dependents of each step not yet done; at zero its context entry can go, unless
    /// `keep[i]` (the output mapping reads it).
    consumers: Vec<usize>,
    keep: Vec<bool>,
    branch_skip: Vec<Option<String>>,
    records: Vec<StepRecord>,
    limits: Limits,
    /// What the step outputs of this run have taken so far.
    run_budget: Budget,
    /// The budget of recorded inputs, when the run records them.
    record: Option<Arc<Budget>>,
    /// With `RunOptions::only`: each step's role, and the outputs to replay.
    only: Option<(String, Vec<Role>, HashMap<String, Value>)>,
    ready: VecDeque<usize>,
    tasks: JoinSet<(usize, Finished)>,
    /// A step-through run's handle, and the step it waits before (popped from `ready`, not
    /// started; the steps after it in `ready` wait behind it).
    stepping: Option<Stepping>,
    paused: Option<Paused>,
    usage: Usage,
    started: Instant,
}

/// A step the run waits before, and when the wait gives up (never, past the clock's range).
struct Paused {
    index: usize,
    deadline: Option<tokio::time::Instant>,
}

impl Scheduler {
    fn new(
        plan: Arc<Plan>,
        registry: Arc<Registry>,
        options: RunOptions,
        sink: Arc<dyn EventSink>,
        context: Context,
    ) -> Self {
        let n = plan.steps.len();
        let mut dependents = vec![Vec::new(); n];
        for (i, s) in plan.steps.iter().enumerate() {
            for &d in &s.deps {
                dependents[d].push(i);
            }
        }
        let state = plan
            .steps
            .iter()
            .map(|s| State::Waiting(s.deps.len()))
            .collect();
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
        let ready = (0..n).filter(|&i| plan.steps[i].deps.is_empty()).collect();
        let consumers = dependents.iter().map(Vec::len).collect();
        let keep = match &plan.output {
            None => vec![true; n],
            Some(output) => {
                let mut keep = vec![false; n];
                for r in output.references() {
                    if let Some(i) = plan.step_index(&r.root) {
                        keep[i] = true;
                    }
                }
                keep
            }
        };
        let only = options.only.map(|only| {
            let roles = roles(&plan, &only.step);
            (only.step, roles, only.replay)
        });
        Self {
            limits: options.limits,
            run_budget: options.limits.run_budget(),
            record: options
                .capture_inputs
                .then(|| Arc::new(options.limits.run_budget())),
            only,
            plan,
            registry,
            mocks: Arc::new(options.mocks),
            cancel: options.cancel,
            sink,
            context,
            state,
            dependents,
            consumers,
            keep,
            branch_skip: vec![None; n],
            records,
            ready,
            tasks: JoinSet::new(),
            stepping: options.stepping,
            paused: None,
            usage: Usage::default(),
            started: Instant::now(),
        }
    }

    async fn run(mut self) -> RunResult {
        self.sink.emit(RunEvent::RunStarted {
            workflow: self.plan.workflow.name.clone(),
            layers: self.plan.layer_ids(),
            total_steps: self.plan.steps.len(),
        });
        let mut failure: Option<String> = None;
        // Why the run was cancelled, when it was.
        let mut cancelled: Option<String> = None;
        loop {
            while failure.is_none() && self.paused.is_none() {
                let Some(i) = self.ready.pop_front() else {
                    break;
                };
                if let Err(e) = self.start(i) {
                    failure = Some(e);
                }
            }
            if failure.is_some() || (self.tasks.is_empty() && self.paused.is_none()) {
                break;
            }
            // While paused, the steps already running go on and their events flow.
            let paused = self.paused.is_some();
            let idle = self.paused.as_ref().and_then(|p| p.deadline);
            tokio::select! {
                biased;
                _ = self.cancel.cancelled() => {
                    cancelled = Some("the run was cancelled".to_string());
                    break;
                }
                resume = stepping::resumed(self.stepping.as_ref()), if paused => {
                    if let Err(e) = self.resume(resume) {
                        failure = Some(e);
                    }
                }
                _ = tokio::time::sleep_until(idle.unwrap_or_else(tokio::time::Instant::now)), if idle.is_some() => {
                    let limit = self.stepping.as_ref().map_or(PAUSE_IDLE_LIMIT, Stepping::idle_limit);
                    cancelled = Some(format!(
                        "the run was paused for {} without Next or Continue",
                        stepping::describe(limit)
                    ));
                    break;
                }
                joined = self.tasks.join_next(), if !self.tasks.is_empty() => {
                    let Some(joined) = joined else { break };
                    match joined {
                        Ok((i, finished)) => {
                            if let Err(e) = self.finish(i, finished) {
                                failure = Some(e);
                            }
                        }
                        Err(e) if e.is_panic() => failure = Some(format!("a step task panicked: {e}")),
                        Err(_) => {}
                    }
                }
            }
        }
        self.stop_running();
        if let Some(stepping) = &self.stepping {
            stepping.close();
        }
        let status = if cancelled.is_some() {
            RunStatus::Cancelled
        } else if failure.is_some() {
            RunStatus::Failed
        } else {
            RunStatus::Completed
        };
        let mut error = cancelled.or(failure);
        let mut output = None;
        if status == RunStatus::Completed {
            match self.output() {
                Ok(value) => output = Some(Arc::new(value)),
                Err(e) => error = Some(e.to_string()),
            }
        }
        let status = if output.is_none() && status == RunStatus::Completed {
            RunStatus::Failed
        } else {
            status
        };
        let duration_ms = self.started.elapsed().as_millis() as u64;
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
        }
    }

    /// The run's output: the `output` mapping, resolved within the step output limit, or the
    /// whole context (every step output kept, within the run limit already).
    fn output(&self) -> Result<Value, LimitError> {
        match &self.plan.output {
            Some(tpl) => tpl
                .resolve(&self.context, &self.limits.step_budget())
                .map(|v| v.unwrap_or(Value::Null))
                .map_err(|l| LimitError::new("output", l)),
            None => Ok(self.context.to_value()),
        }
    }

    /// Begin step `i`: skip it, pause before it, or launch it.
    fn start(&mut self, i: usize) -> Result<(), String> {
        let step = &self.plan.steps[i];
        if let Some((target, roles, replay)) = &mut self.only {
            match roles[i] {
                Role::Target => {}
                Role::Upstream => {
                    return match replay.remove(&step.id) {
                        Some(output) => self.replay(i, output),
                        None => {
                            self.skip(i, "no output from the earlier run to replay".to_string())
                        }
                    };
                }
                Role::Other => {
                    let reason = format!("only step \"{target}\" was run");
                    return self.skip(i, reason);
                }
            }
        }
        if let Some(reason) = self.branch_skip[i].take() {
            return self.skip(i, reason);
        }
        if let Some(cond) = &step.condition {
            match cond.eval(&self.context, &self.limits.value_budget()) {
                Ok(true) => {}
                Ok(false) => return self.skip(i, "condition not met".to_string()),
                Err(l) => return self.fail_at_start(i, LimitError::new("condition", l)),
            }
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
    fn resume(&mut self, resume: Resume) -> Result<(), String> {
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
    fn task(&self, i: usize) -> step::StepTask {
        step::StepTask {
            plan: self.plan.clone(),
            index: i,
            registry: self.registry.clone(),
            mocks: self.mocks.clone(),
            sink: self.sink.clone(),
            scope: self.step_scope(i),
            limits: self.limits,
            record: self.record.clone(),
        }
    }

    /// A minimum duration for each step's report (step-through runs), zero otherwise.
    fn pace(&self) -> Duration {
        self.stepping
            .as_ref()
            .map_or(Duration::ZERO, Stepping::pace)
    }

    /// Start step `i`: run a conditional inline, or spawn its task.
    fn launch(&mut self, i: usize) -> Result<(), String> {
        self.mark_started(i);
        let step = &self.plan.steps[i];
        let pace = self.pace();
        if let StepKind::Conditional {
            condition,
            then,
            otherwise,
        } = &step.kind
        {
            let started = Instant::now();
            let taken = match condition.eval(&self.context, &self.limits.value_budget()) {
                Ok(taken) => taken,
                Err(l) => {
                    let error = LimitError::new("inputs.condition", l).to_string();
                    return self.finish(i, Finished::failed(error, started.elapsed()));
                }
            };
            let (enabled, skipped) = if taken {
                (then, otherwise)
            } else {
                (otherwise, then)
            };
            let ids = |l: &[usize]| {
                l.iter()
                    .map(|&j| Value::String(self.plan.steps[j].id.clone()))
                    .collect::<Vec<_>>()
            };
            let output = json!({
                "conditionResult": taken,
                "branchTaken": if taken { "then" } else { "else" },
                "enabledSteps": ids(enabled),
                "skippedSteps": ids(skipped),
            });
            for &j in skipped {
                if !enabled.contains(&j) {
                    self.branch_skip[j] = Some("conditional branch not taken".to_string());
                }
            }
            let finished = Finished {
                result: step::Success::checked(ToolOutput::new(output), &self.limits),
                duration: started.elapsed(),
                inputs: None,
            };
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
            let finished = Finished {
                result,
                duration,
                inputs: inputs.map(Arc::new),
            };
            (i, finished)
        });
        Ok(())
    }

    /// Tell the sink step `i` started, and count it as running.
    fn mark_started(&mut self, i: usize) {
        let step = &self.plan.steps[i];
        self.sink.emit(RunEvent::StepStarted {
            step_id: step.id.clone(),
            name: step.name.clone(),
            tool: step.tool.clone(),
        });
        self.state[i] = State::Running;
    }

    /// Fail step `i` before it ran (its condition could not be evaluated).
    fn fail_at_start(&mut self, i: usize, error: LimitError) -> Result<(), String> {
        self.mark_started(i);
        self.finish(i, Finished::failed(error.to_string(), Duration::ZERO))
    }

    /// The part of the context step `i` may read: inputs, defaults and its dependencies.
    fn step_scope(&self, i: usize) -> Context {
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

    /// Complete step `i` at once with an output recorded earlier (single-step runs).
    fn replay(&mut self, i: usize, output: Value) -> Result<(), String> {
        self.mark_started(i);
        let finished = Finished {
            result: step::Success::checked(
                ToolOutput {
                    backend: Some("replay".into()),
                    ..ToolOutput::new(output)
                },
                &self.limits,
            ),
            duration: Duration::ZERO,
            inputs: None,
        };
        self.finish(i, finished)
    }

    fn skip(&mut self, i: usize, reason: String) -> Result<(), String> {
        let step = &self.plan.steps[i];
        self.sink.emit(RunEvent::StepSkipped {
            step_id: step.id.clone(),
            reason: reason.clone(),
        });
        if let StepKind::Conditional {
            then, otherwise, ..
        } = &step.kind
        {
            // A conditional that did not run decides nothing: neither branch runs.
            for &j in then.iter().chain(otherwise) {
                self.branch_skip[j] = Some(format!("conditional \"{}\" did not run", step.id));
            }
        }
        self.context
            .insert(step.id.clone(), json!({"output": null, "skipped": true}));
        let rec = &mut self.records[i];
        rec.status = StepOutcome::Skipped;
        rec.reason = Some(reason);
        self.done(i);
        Ok(())
    }

    /// Record a finished task; `Err` when the failure ends the run.
    fn finish(&mut self, i: usize, finished: Finished) -> Result<(), String> {
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
                if let Some(u) = &success.usage {
                    self.usage.add(u);
                }
                let summary = summarise(&success.output);
                let mut entry = Map::with_capacity(1);
                entry.insert("output".into(), success.output);
                let entry = Arc::new(Value::Object(entry));
                self.records[i].status = StepOutcome::Completed;
                if self.keep_outputs() {
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
                self.done(i);
                Ok(())
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
                if !continued {
                    self.state[i] = State::Done;
                    return Err(format!("step \"{}\" failed: {error}", step.id));
                }
                if let StepKind::Conditional {
                    then, otherwise, ..
                } = &step.kind
                {
                    for &j in then.iter().chain(otherwise) {
                        self.branch_skip[j] = Some(format!("conditional \"{}\" failed", step.id));
                    }
                }
                self.context
                    .insert(step.id.clone(), json!({"output": null, "error": error}));
                self.done(i);
                Ok(())
            }
        }
    }

    /// Step records keep outputs for small runs only; large runs rely on events and the context.
    fn keep_outputs(&self) -> bool {
        self.plan.steps.len() <= 200
    }

    fn done(&mut self, i: usize) {
        self.state[i] = State::Done;
        for k in 0..self.plan.steps[i].deps.len() {
            let d = self.plan.steps[i].deps[k];
            self.consumers[d] -= 1;
            if self.consumers[d] == 0
                && !self.keep[d]
                && let Some(entry) = self.context.remove(&self.plan.steps[d].id)
            {
                release(entry);
            }
        }
        for k in 0..self.dependents[i].len() {
            let j = self.dependents[i][k];
            if let State::Waiting(n) = &mut self.state[j] {
                *n -= 1;
                if *n == 0 {
                    self.ready.push_back(j);
                }
            }
        }
    }

    /// Cancel the running steps, and the one the run is paused before (it never started).
    fn stop_running(&mut self) {
        self.tasks.abort_all();
        let paused = self.paused.take().map(|p| p.index);
        for (i, state) in self.state.iter_mut().enumerate() {
            if matches!(state, State::Running) || paused == Some(i) {
                *state = State::Done;
                self.records[i].status = StepOutcome::Cancelled;
                self.sink.emit(RunEvent::StepCancelled {
                    step_id: self.plan.steps[i].id.clone(),
                });
            }
        }
    }
}

/// Each step's role when only `target` runs: it, the steps it depends on, and the rest. An
/// unknown target leaves every step `Other`.
fn roles(plan: &Plan, target: &str) -> Vec<Role> {
    let mut roles = vec![Role::Other; plan.steps.len()];
    let Some(t) = plan.step_index(target) else {
        return roles;
    };
    roles[t] = Role::Target;
    let mut stack = plan.steps[t].deps.clone();
    while let Some(d) = stack.pop() {
        if roles[d] == Role::Other {
            roles[d] = Role::Upstream;
            stack.extend(plan.steps[d].deps.iter().copied());
        }
    }
    roles
}

/// Drop a context entry nobody reads any more. Freeing a large output takes a while, so it
/// happens on a worker rather than in the scheduler's loop.
fn release(entry: Arc<Value>) {
    if Arc::strong_count(&entry) == 1 {
        tokio::spawn(async move { drop(entry) });
    }
}

#[cfg(test)]
mod limits_tests;
#[cfg(test)]
mod only_tests;
#[cfg(test)]
mod stepping_tests;
#[cfg(test)]
mod tests;
