//! What a run shares with the child runs of its `workflow` steps, and the context a run
//! starts with.

use super::durable::{JournalAt, Recorded};
use crate::compile::Plan;
use crate::scope::Context;
use serde_json::{Map, Value};
use std::sync::Arc;

/// The context a run of `plan` starts with: its inputs and its defaults, overridden.
pub(super) fn run_context(
    plan: &Plan,
    inputs: Map<String, Value>,
    overrides: &Map<String, Value>,
) -> Context {
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
