//! Restarting a past run from one of its steps: everything upstream of the step replays the
//! recorded outputs, the step and everything downstream of it run again.

use crate::compile::Plan;
use crate::exec::durable::{Entry, Recorded, RecordedStep};
use crate::journal::{JournalState, RunJournal, StepTrace};
use std::collections::HashSet;
use std::sync::Arc;

/// What a restart replays.
#[derive(Debug, Clone)]
pub struct Restart {
    /// The recorded steps to replay, for `RunOptions::replay`.
    pub replay: Recorded,
    /// Their ids, in the order the past run completed them.
    pub kept: Vec<String>,
}

/// The steps of `plan` that step `from` leads to (itself included).
pub fn downstream(plan: &Plan, from: usize) -> HashSet<usize> {
    let mut out = HashSet::from([from]);
    // File order need not follow dependencies: repeat until nothing is added.
    loop {
        let before = out.len();
        for (i, step) in plan.steps.iter().enumerate() {
            if step.deps.iter().any(|d| out.contains(d)) {
                out.insert(i);
            }
        }
        if out.len() == before {
            return out;
        }
    }
}

/// What restarting `past` at step `from` of `plan` (the workflow as it is now, maybe edited)
/// replays: every step the past run completed that `from` does not lead to and that `plan`
/// still has (upstream steps it did not complete run again). `Err` names a step `plan` lacks.
pub fn restart(past: &JournalState, plan: &Plan, from: &str) -> Result<Restart, String> {
    let Some(i) = plan.step_index(from) else {
        let ids: Vec<&str> = plan.steps.iter().map(|s| s.id.as_str()).collect();
        return Err(format!(
            "the workflow has no step \"{from}\" (its steps: {})",
            ids.join(", ")
        ));
    };
    let again = downstream(plan, i);
    let mut replay = Recorded::default();
    let mut kept = Vec::new();
    for id in &past.recorded.order {
        let Some(j) = plan.step_index(id) else {
            continue;
        };
        if again.contains(&j) {
            continue;
        }
        if let Some(step @ RecordedStep::Completed { .. }) = past.recorded.steps.get(id) {
            replay.steps.insert(id.clone(), step.clone());
            replay.order.push(id.clone());
            if let Some(child) = past.recorded.children.get(id) {
                replay.children.insert(id.clone(), child.clone());
            }
            kept.push(id.clone());
        }
    }
    Ok(Restart { replay, kept })
}

/// Write the replayed steps into the new run's journal as if it had run them (with their
/// recorded traces, marked replayed), so it opens, diffs and resumes like any run.
pub fn copy_into(journal: &dyn RunJournal, past: &JournalState, restart: &Restart) {
    for id in &restart.kept {
        let Some(RecordedStep::Completed { output, undo }) = past.recorded.steps.get(id) else {
            continue;
        };
        let entry = Arc::new(serde_json::json!({ "output": output }));
        journal.record(
            &[],
            Entry::Step {
                id,
                entry: &entry,
                undo: undo.as_ref(),
            },
        );
        let trace = StepTrace {
            replayed: true,
            ..past.traces.get(id).cloned().unwrap_or_else(|| StepTrace {
                status: "completed".into(),
                ..StepTrace::default()
            })
        };
        let inputs = trace.inputs.clone().map(Arc::new);
        journal.trace(
            &[],
            id,
            StepTrace {
                inputs: None,
                ..trace
            },
            inputs,
        );
    }
}
