//! The executor: runs a sealed `Plan` on tokio. A step starts as soon as its dependencies are
//! done (`walk`); `condition` and conditional branches skip steps (`control::decide`); a
//! failure without `continueOnError` cancels the steps still running; the user can cancel at
//! any time; a step-through run pauses before steps (`stepping`, `preview`). The `scheduler`
//! drives all of it and reports every change as a `RunEvent`; what one step runs is its task's
//! (`execute`, `step`, `iterate`), a `workflow` step's child run (`child`) included, and what
//! an agent step calls (`calls`). A run
//! that ends badly undoes its completed steps (`undo`); a journaled run replays what an
//! earlier run of the plan recorded (`durable`).

mod calls;
mod child;
pub mod durable;
mod execute;
mod frame;
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
use crate::tool::Registry;
use durable::{JournalAt, Recorded};
use frame::{Frame, run_context};
use scheduler::Scheduler;
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

#[cfg(test)]
mod calls_tests;
#[cfg(test)]
mod limits_tests;
#[cfg(test)]
mod only_tests;
#[cfg(test)]
mod orchestration_tests;
#[cfg(test)]
mod router_tests;
#[cfg(test)]
mod stepping_tests;
#[cfg(test)]
mod tests;
