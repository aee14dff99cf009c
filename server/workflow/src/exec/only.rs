//! Single-step runs (`RunOptions::only`): the part each step plays when only one of them runs —
//! the target runs, the steps it depends on replay an earlier output, the rest are skipped.

use super::options::OnlyStep;
use crate::compile::Plan;
use serde_json::Value;
use std::collections::HashMap;

/// A step's part in a single-step run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    Target,
    Upstream,
    Other,
}

/// What a single-step run does with a step when its turn comes.
pub(super) enum Turn {
    Run,
    /// Complete it at once with this output.
    Replay(Value),
    Skip(String),
}

/// A single-step run under way: its target, each step's role, and the outputs not replayed yet.
pub(super) struct Only {
    target: String,
    roles: Vec<Role>,
    replay: HashMap<String, Value>,
}

impl Only {
    pub(super) fn new(plan: &Plan, only: OnlyStep) -> Self {
        Self {
            roles: roles(plan, &only.step),
            target: only.step,
            replay: only.replay,
        }
    }

    /// Step `i`'s (`id`'s) turn; an upstream step's output is replayed once.
    pub(super) fn turn(&mut self, i: usize, id: &str) -> Turn {
        match self.roles[i] {
            Role::Target => Turn::Run,
            Role::Upstream => match self.replay.remove(id) {
                Some(output) => Turn::Replay(output),
                None => Turn::Skip("no output from the earlier run to replay".to_string()),
            },
            Role::Other => Turn::Skip(format!("only step \"{}\" was run", self.target)),
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
