//! The run manager: starts runs on the engine, keeps the running ones and the last 20 finished,
//! tells sockets when a run is created, and cancels everything on shutdown.

mod run;

pub use run::{Outgoing, Run};

use crate::state::BeforeRun;
use indexmap::IndexMap;
use run::RunSink;
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{SystemTime, UNIX_EPOCH};
use tokio::sync::broadcast;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;
use vai_contract::{RunSnapshot, RunState, RunSummary, StepState, StepStatus};
use vai_workflow::exec::{InputError, prepare_inputs};
use vai_workflow::{Limits, OnlyStep, Plan, Registry, RunOptions};

/// Finished runs kept for late subscribers and the step route.
pub const KEEP_FINISHED: usize = 20;

/// What to run.
#[derive(Debug, Clone)]
pub struct StartRequest {
    pub plan: Arc<Plan>,
    pub inputs: Map<String, Value>,
    /// The library id the workflow came from.
    pub workflow_id: Option<String>,
    pub only: Option<OnlyStep>,
}

/// Every run the server holds. Cheap to clone.
#[derive(Clone)]
pub struct RunManager(Arc<Inner>);

struct Inner {
    registry: Arc<Registry>,
    before_run: Option<BeforeRun>,
    limits: Limits,
    runs: Mutex<Runs>,
    created: broadcast::Sender<RunSummary>,
    tasks: TaskTracker,
    /// Cancelled when the server shuts down: sockets close so the server can stop.
    closing: CancellationToken,
}

#[derive(Default)]
struct Runs {
    by_id: HashMap<String, Arc<Run>>,
    /// Ids of finished runs, oldest first.
    finished: VecDeque<String>,
    counter: u64,
}

impl RunManager {
    pub fn new(registry: Arc<Registry>, before_run: Option<BeforeRun>, limits: Limits) -> Self {
        let (created, _) = broadcast::channel(64);
        Self(Arc::new(Inner {
            registry,
            before_run,
            limits,
            runs: Mutex::new(Runs::default()),
            created,
            tasks: TaskTracker::new(),
            closing: CancellationToken::new(),
        }))
    }

    fn lock(&self) -> MutexGuard<'_, Runs> {
        self.0.runs.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Start a run; the inputs are checked first and nothing runs when they are wrong.
    pub fn start(&self, request: StartRequest) -> Result<Arc<Run>, Vec<InputError>> {
        prepare_inputs(&request.plan.workflow, &request.inputs)?;
        let plan = request.plan;
        let started_at = now_ms();
        let id = {
            let mut runs = self.lock();
            runs.counter += 1;
            format!("run-{started_at:x}-{}", runs.counter)
        };
        let steps: IndexMap<String, StepState> = plan
            .steps
            .iter()
            .map(|s| (s.id.clone(), StepState::new(StepStatus::Pending)))
            .collect();
        let snapshot = RunSnapshot {
            run_id: id.clone(),
            workflow: plan.workflow.name.clone(),
            workflow_id: request.workflow_id,
            status: RunState::Running,
            seq: 0,
            started_at,
            duration_ms: None,
            layers: plan.layer_ids(),
            steps,
            output: None,
            output_bytes: None,
            error: None,
            usage: None,
        };
        let run = Run::new(id.clone(), snapshot);
        self.lock().by_id.insert(id, run.clone());
        // Nobody listening is fine.
        let _ = self.0.created.send(run.summary());

        let options = RunOptions {
            inputs: request.inputs,
            cancel: run.cancel.clone(),
            capture_inputs: true,
            limits: self.0.limits,
            only: request.only,
            ..RunOptions::default()
        };
        let manager = self.clone();
        let task_run = run.clone();
        self.0.tasks.spawn(async move {
            let run = task_run;
            if let Some(prepare) = &manager.0.before_run {
                tokio::select! {
                    _ = prepare(&plan) => {}
                    _ = run.cancel.cancelled() => {}
                }
            }
            let sink = Arc::new(RunSink(run.clone()));
            let registry = manager.0.registry.clone();
            if let Err(errors) = vai_workflow::run(plan, registry, options, sink).await {
                let text: Vec<String> = errors.iter().map(ToString::to_string).collect();
                run.abort(text.join("; "));
            }
            manager.finished(&run.id);
        });
        Ok(run)
    }

    fn finished(&self, id: &str) {
        let mut runs = self.lock();
        runs.finished.push_back(id.to_string());
        while runs.finished.len() > KEEP_FINISHED {
            if let Some(old) = runs.finished.pop_front() {
                runs.by_id.remove(&old);
            }
        }
    }

    pub fn get(&self, id: &str) -> Option<Arc<Run>> {
        self.lock().by_id.get(id).cloned()
    }

    /// Running runs and the last finished ones, newest first.
    pub fn list(&self) -> Vec<RunSummary> {
        let runs: Vec<Arc<Run>> = self.lock().by_id.values().cloned().collect();
        let mut list: Vec<RunSummary> = runs.iter().map(|r| r.summary()).collect();
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

impl std::fmt::Debug for RunManager {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RunManager").finish_non_exhaustive()
    }
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}
