//! A `conditional` step, which the scheduler runs inline rather than as a task: its condition
//! picks the branch that runs, and the steps of the other branch are to be skipped.

use crate::compile::Plan;
use crate::limits::{LimitError, Limits};
use crate::scope::Context;
use crate::template::Condition;
use serde_json::{Value, json};

/// What a conditional decided.
pub(super) struct Decision {
    /// The step's output: `conditionResult`, `branchTaken`, `enabledSteps`, `skippedSteps`.
    pub(super) output: Value,
    /// The steps of the branch not taken that the taken one does not list too.
    pub(super) skipped: Vec<usize>,
}

/// The branch `condition` takes over `context`: `then` when it is true, `otherwise` when not.
pub(super) fn decide(
    plan: &Plan,
    condition: &Condition,
    then: &[usize],
    otherwise: &[usize],
    context: &Context,
    limits: &Limits,
) -> Result<Decision, LimitError> {
    let taken = condition
        .eval(context, &limits.value_budget())
        .map_err(|l| LimitError::new("inputs.condition", l))?;
    let (enabled, skipped) = if taken {
        (then, otherwise)
    } else {
        (otherwise, then)
    };
    let ids = |l: &[usize]| {
        l.iter()
            .map(|&j| Value::String(plan.steps[j].id.clone()))
            .collect::<Vec<_>>()
    };
    let output = json!({
        "conditionResult": taken,
        "branchTaken": if taken { "then" } else { "else" },
        "enabledSteps": ids(enabled),
        "skippedSteps": ids(skipped),
    });
    let skipped = skipped
        .iter()
        .copied()
        .filter(|j| !enabled.contains(j))
        .collect();
    Ok(Decision { output, skipped })
}
