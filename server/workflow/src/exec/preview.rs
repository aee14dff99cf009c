//! What a pause shows: the inputs the paused step's tool will get, resolved ahead of its run.

use super::iterate::MAX_FOR_EACH_ITEMS;
use super::resolve::{borrowed, resolve_inputs};
use super::step::StepTask;
use crate::inputs::{Inputs, JoinGuard};
use crate::scope::Locals;
use serde_json::{Value, json};

/// What a pause shows instead of inputs larger than one step output may be.
const NOT_SHOWN: &str = "(not shown: the inputs are larger than limits.stepOutputBytes)";

impl StepTask {
    /// The inputs the step's tool will get, resolved ahead of the run for a pause to show, as a
    /// finished step's recorded inputs are: an object, or for a `forEach` step an array of each
    /// element's inputs (elements whose inputs do not resolve are left out, as they are from the
    /// record). `None` when they do not resolve; a note when they are larger than a step output
    /// may be. Each pause has a budget of its own: a preview never takes from the run's budget
    /// of recorded inputs.
    pub(super) fn preview(&self) -> Option<Value> {
        let step = self.step();
        let budget = self.limits.step_budget();
        let shown =
            |inputs: &Inputs<'_>| -> Result<Value, ()> { inputs.record(&budget).map_err(|_| ()) };
        let note = || Value::String(NOT_SHOWN.into());
        // As `execute` goes: a mock or a loop resolves the step's inputs once.
        let per_item = self.mocks.for_step(&step.id, &step.tool).is_none();
        match &step.for_each {
            Some(for_each) if per_item => {
                let items = borrowed(for_each, &self.scope, &self.limits.value_budget()).ok()??;
                let Value::Array(items) = items.as_ref() else {
                    return None;
                };
                let mut shown_items = Vec::new();
                for (index, item) in items.iter().enumerate().take(MAX_FOR_EACH_ITEMS) {
                    let index_value = json!(index);
                    let locals = [("item", item), ("index", &index_value)];
                    let scope = Locals::new(&self.scope, &locals);
                    let guard = JoinGuard::new(&self.limits);
                    if let Ok(inputs) = resolve_inputs(&step.inputs, &scope, &self.limits, &guard) {
                        match shown(&inputs) {
                            Ok(v) => shown_items.push(v),
                            Err(()) => return Some(note()),
                        }
                    }
                }
                Some(Value::Array(shown_items))
            }
            _ => {
                let guard = JoinGuard::new(&self.limits);
                let inputs =
                    resolve_inputs(&step.inputs, &self.scope, &self.limits, &guard).ok()?;
                Some(shown(&inputs).unwrap_or_else(|()| note()))
            }
        }
    }
}
