//! The executor: runs a sealed `Plan` on tokio. A step starts as soon as its dependencies are
//! done (`walk`); `condition` and conditional branches skip steps (`branch`); a failure without
//! `continueOnError` cancels the steps still running; the user can cancel at any time; a
//! step-through run pauses before steps (`stepping`, `preview`). The `scheduler` drives all of
//! it and reports every change as a `RunEvent`; what one step runs is its task's (`execute`,
//! `step`, `iterate`).

mod branch;
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
mod walk;

pub use inputs::{InputError, coerce, prepare_inputs};
pub use iterate::MAX_FOR_EACH_ITEMS;
pub use options::{Mocks, OnlyStep, RunOptions};
pub use record::{RunResult, StepOutcome, StepRecord};
pub use stepping::{NotPaused, PAUSE_IDLE_LIMIT, Resume, StepThrough, Stepping};

use crate::compile::Plan;
use crate::events::EventSink;
use crate::scope::Context;
use crate::tool::Registry;
use scheduler::Scheduler;
use serde_json::Value;
use std::sync::Arc;

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

#[cfg(test)]
mod limits_tests;
#[cfg(test)]
mod only_tests;
#[cfg(test)]
mod stepping_tests;
#[cfg(test)]
mod tests;
