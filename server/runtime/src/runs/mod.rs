//! The run manager: starts runs on the engine (at most `max_runs` at once), keeps the running
//! ones and the newest finished ones within a count and a byte budget, tells listeners when a
//! run is created, and cancels everything on shutdown. A step-through run is started with its
//! settings checked (`step_through`) and resumed through its `Run`.

mod clock;
mod durable;
pub mod history;
pub mod kept;
mod resume;
mod run;
pub mod step_through;

pub use history::Restarting;
pub use resume::ResumeJournalError;
pub use run::{AnswerError, Outgoing, ResumeError, Run, RunOrigin, StepView};

use clock::now_ms;
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::Duration;
use tokio::sync::broadcast;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;
use vai_contract::{RunSnapshot, RunState, RunSummary, StepState, StepStatus};
use vai_workflow::exec::PAUSE_IDLE_LIMIT;
use vai_workflow::exec::{InputError, prepare_inputs};
use vai_workflow::journal::{RunBackend, RunStart};
use vai_workflow::{
    EventSink, Limits as RunLimits, OnlyStep, Plan, Registry, RunOptions, StepThrough, Stepping,
};

/// Work to finish before a run of this plan starts (seeding the local sample knowledge base when
/// the plan touches the store). Called before every run; it must be cheap once done.
pub type BeforeRun = Arc<dyn Fn(&Plan) -> Pin<Box<dyn Future<Output = ()> + Send>> + Send + Sync>;

/// Wraps the event sink of run `id` (to export its trace, say); it must pass every event on.
pub type WrapSink = Arc<dyn Fn(&str, Arc<dyn EventSink>) -> Arc<dyn EventSink> + Send + Sync>;

/// How many runs go at once and how much the finished ones may keep.
#[derive(Debug, Clone, Copy)]
pub struct RunBudget {
    /// Runs going at once; a start beyond it is refused with [`StartError::TooManyRuns`].
    pub max_runs: usize,
    /// Finished runs kept, at most (the newest).
    pub keep_runs: usize,
    /// Bytes the kept finished runs may hold together (their outputs, inputs and events as
    /// JSON); the oldest are dropped first. The newest finished run is kept even when it alone
    /// is larger.
    pub keep_bytes: usize,
    /// How long a step-through run may wait paused for Next or Continue before it is
    /// cancelled.
    pub pause_idle: Duration,
}

impl Default for RunBudget {
    fn default() -> Self {
        Self {
            max_runs: 8,
            keep_runs: 20,
            keep_bytes: 256 * 1024 * 1024,
            pause_idle: PAUSE_IDLE_LIMIT,
        }
    }
}

/// What to run.
#[derive(Debug, Clone)]
pub struct StartRequest {
    pub plan: Arc<Plan>,
    pub inputs: Map<String, Value>,
    /// The library id the workflow came from.
    pub workflow_id: Option<String>,
    pub only: Option<OnlyStep>,
    /// The version of the definition's stable text form, to tell later whether the file on
    /// disk is still what ran.
    pub definition_version: String,
    /// Run step by step; checked by [`step_through::check`] before the run starts.
    pub step_through: Option<StepThrough>,
    /// Start again from a step of a past run, replaying what came before it.
    pub restart: Option<Box<Restarting>>,
}

/// Why a run did not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error("{}", join(.0))]
    Inputs(Vec<InputError>),
    #[error("{0} runs are already running")]
    TooManyRuns(usize),
    /// Step-through settings out of bounds; the message names the field.
    #[error("{0}")]
    StepThrough(String),
}

fn join(errors: &[InputError]) -> String {
    let text: Vec<String> = errors.iter().map(ToString::to_string).collect();
    text.join("; ")
}

/// Every run the server holds. Cheap to clone.
#[derive(Clone)]
pub struct RunManager(Arc<Inner>);

struct Inner {
    registry: Arc<Registry>,
    before_run: Option<BeforeRun>,
    max_runs: usize,
    keep_runs: usize,
    keep_bytes: usize,
    pause_idle: Duration,
    /// Bounds on the values each run makes (`.vai.json` `limits`).
    run_limits: RunLimits,
    runs: Mutex<Runs>,
    created: broadcast::Sender<RunSummary>,
    tasks: TaskTracker,
    /// Cancelled when the server shuts down: sockets close so the server can stop.
    closing: CancellationToken,
    /// Where runs are journaled, when they are kept beyond this process (the data directory's
    /// files, or a team's shared store — chosen by whoever builds the manager).
    journals: Option<Arc<dyn RunBackend>>,
    /// What each run's event sink is wrapped in, once set.
    wrap_sink: OnceLock<WrapSink>,
}

#[derive(Default)]
struct Runs {
    by_id: HashMap<String, Arc<Run>>,
    /// Finished runs, oldest first, with the bytes each holds.
    finished: VecDeque<(String, usize)>,
    /// The sum of `finished`'s bytes.
    finished_bytes: usize,
    counter: u64,
}

impl Runs {
    fn running(&self) -> usize {
        self.by_id.len() - self.finished.len()
    }
}

impl RunManager {
    pub fn new(
        registry: Arc<Registry>,
        before_run: Option<BeforeRun>,
        budget: RunBudget,
        run_limits: RunLimits,
    ) -> Self {
        let (created, _) = broadcast::channel(64);
        Self(Arc::new(Inner {
            registry,
            before_run,
            max_runs: budget.max_runs,
            keep_runs: budget.keep_runs,
            keep_bytes: budget.keep_bytes,
            pause_idle: budget.pause_idle,
            run_limits,
            runs: Mutex::new(Runs::default()),
            created,
            tasks: TaskTracker::new(),
            closing: CancellationToken::new(),
            journals: None,
            wrap_sink: OnceLock::new(),
        }))
    }

    fn lock(&self) -> MutexGuard<'_, Runs> {
        self.0.runs.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Start a run; the inputs are checked first and nothing runs when they are wrong, or
    /// when `max_runs` runs are already going.
    pub fn start(&self, request: StartRequest) -> Result<Arc<Run>, StartError> {
        self.start_with(request, self.0.registry.clone())
    }

    /// Start a run whose tools are `registry`'s instead of the manager's: the same tools wired
    /// to other providers (the MCP server's `generate` asking the client's model).
    pub fn start_with(
        &self,
        request: StartRequest,
        registry: Arc<Registry>,
    ) -> Result<Arc<Run>, StartError> {
        prepare_inputs(&request.plan.workflow, &request.inputs).map_err(StartError::Inputs)?;
        let step_through = request
            .step_through
            .map(|settings| step_through::check(&request.plan, settings))
            .transpose()
            .map_err(StartError::StepThrough)?;
        let stepping = step_through
            .clone()
            .map(|settings| Stepping::new(settings, self.0.pause_idle));
        let plan = request.plan;
        let started_at = now_ms();
        let mut runs = self.lock();
        if runs.running() >= self.0.max_runs {
            return Err(StartError::TooManyRuns(self.0.max_runs));
        }
        runs.counter += 1;
        // Random bits too: playgrounds on other machines share a MongoDB run store, and two
        // of them may start a run in the same millisecond with the same count.
        let id = format!(
            "run-{started_at:x}-{}-{:06x}",
            runs.counter,
            vai_workflow::journal::random_bits()
        );
        let snapshot = first_snapshot(
            &id,
            &plan,
            request.workflow_id.clone(),
            started_at,
            step_through,
        );
        let origin = RunOrigin {
            inputs: request.inputs.clone(),
            definition_version: request.definition_version,
            single_step: request.only.is_some(),
        };
        let run = Run::new(id.clone(), snapshot, origin, stepping.clone());
        // Counted as running from here, under the same lock as the check.
        runs.by_id.insert(id, run.clone());
        drop(runs);
        // Nobody listening is fine.
        let _ = self.0.created.send(run.summary());

        let options = RunOptions {
            inputs: request.inputs,
            cancel: run.cancel.clone(),
            capture_inputs: true,
            limits: self.0.run_limits,
            only: request.only,
            stepping,
            ..RunOptions::default()
        };
        // The replayed steps go to the engine; the rest of the restart to the new journal.
        let (replay, restart) = match request.restart {
            Some(mut r) => (Some(std::mem::take(&mut r.restart.replay)), Some(r)),
            None => (None, None),
        };
        let journal = self.journal_for(
            &run,
            &plan,
            request.workflow_id.as_deref(),
            &options,
            restart,
        );
        self.launch(run.clone(), plan, registry, options, journal, replay);
        Ok(run)
    }

    /// Drive `run` on a task of the manager's: its journal opened first (a shared store
    /// answers over the network, so not while the run is being started), then the work before
    /// a run, then the engine's runs and the waits between them ([`durable::drive`]).
    fn launch(
        &self,
        run: Arc<Run>,
        plan: Arc<Plan>,
        registry: Arc<Registry>,
        options: RunOptions,
        journal: impl Future<Output = durable::RunJournal> + Send + 'static,
        replay: Option<vai_workflow::exec::durable::Recorded>,
    ) {
        let manager = self.clone();
        self.0.tasks.spawn(async move {
            // Moves the run to the finished ones however this task ends, a panic included, so
            // it never holds a place under `max_runs` for good.
            let _finish = Finish {
                manager: manager.clone(),
                run: run.clone(),
            };
            let journal = journal.await;
            if let Some(prepare) = &manager.0.before_run {
                tokio::select! {
                    _ = prepare(&plan) => {}
                    _ = run.cancel.cancelled() => {}
                }
            }
            let outlet = durable::Outlet {
                sink: manager.sink_for(&run),
                closing: manager.closing(),
            };
            durable::drive(run, plan, registry, options, journal, replay, outlet).await;
        });
    }

    /// Wrap every run's event sink from now on in `wrap` (set once; a second call is ignored).
    pub fn wrap_sinks(&self, wrap: WrapSink) {
        let _ = self.0.wrap_sink.set(wrap);
    }

    /// `run`'s event sink: its log and snapshot, wrapped as [`Self::wrap_sinks`] asked.
    fn sink_for(&self, run: &Arc<Run>) -> Arc<dyn EventSink> {
        let sink: Arc<dyn EventSink> = Arc::new(run::RunSink(run.clone()));
        match self.0.wrap_sink.get() {
            Some(wrap) => wrap(&run.id, sink),
            None => sink,
        }
    }

    /// Keep each run's journal in `store` (the data directory's `runs/`, or a team's shared
    /// store): a run waiting for a person, or cut off by the end of the process, is found
    /// there after a restart — by another machine too, when the store is shared.
    pub fn with_journals(mut self, store: Arc<dyn RunBackend>) -> Self {
        if let Some(inner) = Arc::get_mut(&mut self.0) {
            inner.journals = Some(store);
        }
        self
    }

    /// Where `run` is journaled, once the returned future has opened it: in the manager's
    /// store when it has one (not for a single-step run, which replays what another run did),
    /// else memory.
    fn journal_for(
        &self,
        run: &Run,
        plan: &Plan,
        workflow_id: Option<&str>,
        options: &RunOptions,
        restart: Option<Box<Restarting>>,
    ) -> impl Future<Output = durable::RunJournal> + Send + 'static {
        let store = self.0.journals.clone().filter(|_| options.only.is_none());
        let start = store
            .as_ref()
            .map(|_| run_start(run, plan, workflow_id, options, restart.as_deref()));
        let limit = options.limits.run_bytes.saturating_mul(2);
        async move {
            match (store, start) {
                (Some(store), Some(start)) => {
                    let restart = restart.as_deref().map(|r| (&r.past, &r.restart));
                    durable::RunJournal::create(store, start, limit, restart).await
                }
                _ => durable::RunJournal::memory(),
            }
        }
    }

    /// Move a run to the finished ones, then drop the oldest finished runs until at most
    /// `keep_runs` holding at most `keep_bytes` are left — but never the one just finished, so
    /// whoever ran it can still read it.
    fn finished(&self, id: &str, bytes: usize) {
        let mut runs = self.lock();
        runs.finished.push_back((id.to_string(), bytes));
        runs.finished_bytes += bytes;
        while runs.finished.len() > 1
            && (runs.finished.len() > self.0.keep_runs || runs.finished_bytes > self.0.keep_bytes)
        {
            if let Some((old, old_bytes)) = runs.finished.pop_front() {
                runs.by_id.remove(&old);
                runs.finished_bytes -= old_bytes;
            }
        }
    }

    /// True when `max_runs` runs are going: a start now would be refused.
    pub fn is_full(&self) -> bool {
        self.lock().running() >= self.0.max_runs
    }

    /// Finished runs kept, and the bytes they hold.
    pub fn kept(&self) -> (usize, usize) {
        let runs = self.lock();
        (runs.finished.len(), runs.finished_bytes)
    }

    pub fn get(&self, id: &str) -> Option<Arc<Run>> {
        self.lock().by_id.get(id).cloned()
    }

    /// Running runs, the last finished ones, and the journaled runs that wait for a person or
    /// were interrupted, newest first.
    pub async fn list(&self) -> Vec<RunSummary> {
        let saved = self.saved().await;
        let runs: Vec<Arc<Run>> = self.lock().by_id.values().cloned().collect();
        let mut list: Vec<RunSummary> = runs.iter().map(|r| r.summary()).collect();
        // A saved run this process took up while the store was read is listed once, live.
        let saved = saved.into_iter().filter(|r| self.get(&r.run_id).is_none());
        list.extend(saved.map(|r| RunSummary {
            status: RunState::from_journal(&r.status).unwrap_or(RunState::Interrupted),
            run_id: r.run_id,
            workflow: r.workflow,
            workflow_id: r.workflow_id,
            started_at: r.started_at,
            duration_ms: None,
        }));
        list.sort_by(|a, b| {
            b.started_at
                .cmp(&a.started_at)
                .then_with(|| b.run_id.cmp(&a.run_id))
        });
        list
    }

    /// A receiver of every run created from now on.
    pub fn created(&self) -> broadcast::Receiver<RunSummary> {
        self.0.created.subscribe()
    }

    /// Cancelled when the server begins to shut down.
    pub fn closing(&self) -> CancellationToken {
        self.0.closing.clone()
    }

    /// Close the sockets, cancel every running run and wait until each has reported how it
    /// ended.
    pub async fn shutdown(&self) {
        self.0.closing.cancel();
        let runs: Vec<Arc<Run>> = self.lock().by_id.values().cloned().collect();
        for run in runs {
            run.cancel.cancel();
        }
        self.0.tasks.close();
        self.0.tasks.wait().await;
    }
}

/// The start line of `run`'s journal.
fn run_start(
    run: &Run,
    plan: &Plan,
    workflow_id: Option<&str>,
    options: &RunOptions,
    restart: Option<&Restarting>,
) -> RunStart {
    let definition = serde_json::to_value(&plan.workflow).unwrap_or(Value::Null);
    RunStart {
        run_id: run.id.clone(),
        workflow: plan.workflow.name.clone(),
        hash: Some(vai_workflow::journal::definition_hash(&definition)),
        definition,
        source: serde_json::json!({ "workflowId": workflow_id }),
        inputs: options.inputs.clone(),
        defaults_override: Map::new(),
        started_at: now_ms(),
        from: restart.map(|r| r.from.clone()),
    }
}

/// A run's snapshot before its first event: every step pending.
fn first_snapshot(
    id: &str,
    plan: &Plan,
    workflow_id: Option<String>,
    started_at: u64,
    step_through: Option<StepThrough>,
) -> RunSnapshot {
    RunSnapshot {
        run_id: id.to_string(),
        workflow: plan.workflow.name.clone(),
        workflow_id,
        status: RunState::Running,
        seq: 0,
        started_at,
        duration_ms: None,
        layers: plan.layer_ids(),
        steps: plan
            .steps
            .iter()
            .map(|s| (s.id.clone(), StepState::new(StepStatus::Pending)))
            .collect(),
        output: None,
        output_bytes: None,
        error: None,
        usage: None,
        step_through,
        paused: None,
        waiting: None,
    }
}

/// Moves its run to the finished ones when dropped.
struct Finish {
    manager: RunManager,
    run: Arc<Run>,
}

impl Drop for Finish {
    fn drop(&mut self) {
        if self.run.summary().status == RunState::Running {
            self.run.abort("the run stopped unexpectedly".to_string());
        }
        let bytes = self.run.freeze();
        self.manager.finished(&self.run.id, bytes);
    }
}

impl std::fmt::Debug for RunManager {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RunManager").finish_non_exhaustive()
    }
}

#[cfg(test)]
mod wrap_tests;
