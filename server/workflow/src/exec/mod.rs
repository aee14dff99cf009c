//! The executor: runs a sealed `Plan` on tokio. A step starts as soon as its dependencies are
//! done (`walk`); `condition` and conditional branches skip steps (`control::decide`); a
//! failure without `continueOnError` cancels the steps still running; the user can cancel at
//! any time; a step-through run pauses before steps (`stepping`, `preview`). The `scheduler`
//! drives all of it and reports every change as a `RunEvent`; what one step runs is its task's
//! (`execute`, `step`, `iterate`), a `workflow` step's child run (`child`) included. A run
//! that ends badly undoes its completed steps (`undo`); a journaled run replays what an
//! earlier run of the plan recorded (`durable`).

mod child;
pub mod durable;
mod execute;
mod inputs;
mod iterate;
mod ledger;
mod only;
mod options;
mod preview;
mod record;
mod resolve;
mod scheduler;
mod step;
mod stepping;
mod undo;
mod walk;

pub use inputs::{InputError, coerce, prepare_inputs};
pub use iterate::MAX_FOR_EACH_ITEMS;
pub use options::{Mocks, OnlyStep, RunOptions};
pub use record::{RunResult, StepOutcome, StepRecord, Waiting};
pub use stepping::{NotPaused, PAUSE_IDLE_LIMIT, Resume, StepThrough, Stepping};
pub use undo::{COMPENSATION_TIMEOUT, CompensationReport, CompensationStatus};

use crate::compile::Plan;
use crate::events::EventSink;
use crate::limits::Limits;
use crate::scope::Context;
use crate::tool::Registry;
use durable::{JournalAt, Recorded};
use scheduler::Scheduler;
use serde_json::{Map, Value};
use std::sync::Arc;

/// Run `plan` with `registry`'s tools. Returns the input problems, if any, before anything runs.
pub async fn run(
    plan: Arc<Plan>,
    registry: Arc<Registry>,
    options: RunOptions,
    sink: Arc<dyn EventSink>,
) -> Result<RunResult, Vec<InputError>> {
    let inputs = prepare_inputs(&plan.workflow, &options.inputs)?;
    let context = run_context(&plan, inputs, &options.defaults_override);
    let frame = Frame {
        cancel: options.cancel.clone(),
        journal: options.journal.clone(),
        replay: options.replay.clone(),
        depth: 0,
        run_budget: Arc::new(options.limits.run_budget()),
        defaults_override: options.defaults_override.clone(),
    };
    let scheduler = Scheduler::new(plan, registry, options, sink, context, Arc::new(frame));
    Ok(scheduler.run().await)
}

/// Undo what an earlier run recorded (its completed steps' compensations, in reverse order of
/// completion, skipping those that already ran): cancelling a waiting or interrupted run
/// that no process runs any more.
pub async fn compensate_recorded(
    recorded: &Recorded,
    registry: &Registry,
    limits: Limits,
    sink: Arc<dyn EventSink>,
    journal: Option<JournalAt>,
) -> Vec<CompensationReport> {
    let undos = undo::recorded_undos(recorded);
    let compensator = undo::Compensator {
        registry,
        limits,
        sink: &sink,
        journal: journal.as_ref(),
        done: Some(recorded),
    };
    compensator.run(&undos).await
}

/// The context a run of `plan` starts with: its inputs and its defaults, overridden.
fn run_context(plan: &Plan, inputs: Map<String, Value>, overrides: &Map<String, Value>) -> Context {
    let mut defaults = plan.workflow.defaults.clone();
    defaults.extend(overrides.clone());
    let mut context = Context::new();
    context.insert("inputs", Value::Object(inputs));
    context.insert("defaults", Value::Object(defaults));
    context
}

/// What a run shares with the child runs of its `workflow` steps.
pub(crate) struct Frame {
    pub(crate) cancel: tokio_util::sync::CancellationToken,
    pub(crate) journal: Option<JournalAt>,
    /// This level's part of what an earlier run did.
    pub(crate) replay: Option<Arc<Recorded>>,
    /// 0 for the top-level run.
    pub(crate) depth: usize,
    /// The step outputs' share of the bytes the whole tree of runs may keep.
    pub(crate) run_budget: Arc<crate::limits::Budget>,
    pub(crate) defaults_override: Map<String, Value>,
}

#[cfg(test)]
mod limits_tests;
#[cfg(test)]
mod only_tests;
#[cfg(test)]
mod orchestration_tests;
#[cfg(test)]
mod stepping_tests;
#[cfg(test)]
mod tests;
