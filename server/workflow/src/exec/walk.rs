//! The walk over a plan's dependency graph: how many steps each one still waits for, which are
//! ready to start, which are running, and when a finished step's output is read by nobody any
//! more. It knows nothing of what a step runs; the scheduler starts each step it hands out.

use crate::compile::Plan;
use std::collections::VecDeque;

enum State {
    /// Waiting for this many dependencies.
    Waiting(usize),
    Running,
    Done,
}

pub(super) struct Walk {
    state: Vec<State>,
    /// The steps that depend on each step.
    dependents: Vec<Vec<usize>>,
    /// Dependents of each step not yet done; at zero its output can go, unless `keep[i]` (the
    /// output mapping reads it).
    consumers: Vec<usize>,
    keep: Vec<bool>,
    /// Steps whose dependencies are all done, in the order they became ready.
    ready: VecDeque<usize>,
}

impl Walk {
    pub(super) fn new(plan: &Plan) -> Self {
        let n = plan.steps.len();
        let mut dependents = vec![Vec::new(); n];
        for (i, s) in plan.steps.iter().enumerate() {
            for &d in &s.deps {
                dependents[d].push(i);
            }
        }
        let state = plan
            .steps
            .iter()
            .map(|s| State::Waiting(s.deps.len()))
            .collect();
        let ready = (0..n).filter(|&i| plan.steps[i].deps.is_empty()).collect();
        let consumers = dependents.iter().map(Vec::len).collect();
        let keep = match &plan.output {
            None => vec![true; n],
            Some(output) => {
                let mut keep = vec![false; n];
                for r in output.references() {
                    if let Some(i) = plan.step_index(&r.root) {
                        keep[i] = true;
                    }
                }
                keep
            }
        };
        Self {
            state,
            dependents,
            consumers,
            keep,
            ready,
        }
    }

    /// The next step ready to start, if any.
    pub(super) fn next_ready(&mut self) -> Option<usize> {
        self.ready.pop_front()
    }

    /// Step `i` is running.
    pub(super) fn start(&mut self, i: usize) {
        self.state[i] = State::Running;
    }

    /// Step `i` ended the run: it is done, and nothing after it becomes ready.
    pub(super) fn stop(&mut self, i: usize) {
        self.state[i] = State::Done;
    }

    /// Step `i` is done: its dependencies (`deps`) have one reader less, and `unread` is called
    /// with each one nobody reads any more; the steps waiting only for it become ready.
    pub(super) fn done(&mut self, i: usize, deps: &[usize], mut unread: impl FnMut(usize)) {
        self.state[i] = State::Done;
        for &d in deps {
            self.consumers[d] -= 1;
            if self.consumers[d] == 0 && !self.keep[d] {
                unread(d);
            }
        }
        for &j in &self.dependents[i] {
            if let State::Waiting(n) = &mut self.state[j] {
                *n -= 1;
                if *n == 0 {
                    self.ready.push_back(j);
                }
            }
        }
    }

    /// The run stopped: each running step, and `paused` (the step the run waits before, taken
    /// from the ready ones but never started), is done, and `cancelled` is called with it, in
    /// step order.
    pub(super) fn cancel(&mut self, paused: Option<usize>, mut cancelled: impl FnMut(usize)) {
        for (i, state) in self.state.iter_mut().enumerate() {
            if matches!(state, State::Running) || paused == Some(i) {
                *state = State::Done;
                cancelled(i);
            }
        }
    }
}
