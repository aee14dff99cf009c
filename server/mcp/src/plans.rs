//! The plan of each run this server started, by run id. A result is shaped from its run's plan
//! (its steps in file order, each with its tool), and a call that answers a waiting run
//! (`workflow_resume`) comes long after the call that started it. Bounded: the oldest is
//! forgotten first.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use vai_workflow::Plan;

/// Plans remembered at most.
const MAX_PLANS: usize = 256;

#[derive(Default)]
pub(crate) struct Plans(Mutex<Known>);

#[derive(Default)]
struct Known {
    by_run: HashMap<String, Arc<Plan>>,
    order: VecDeque<String>,
}

impl Plans {
    fn lock(&self) -> std::sync::MutexGuard<'_, Known> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub(crate) fn remember(&self, run_id: &str, plan: Arc<Plan>) {
        let mut known = self.lock();
        if known.by_run.insert(run_id.to_string(), plan).is_none() {
            known.order.push_back(run_id.to_string());
        }
        while known.order.len() > MAX_PLANS {
            if let Some(old) = known.order.pop_front() {
                known.by_run.remove(&old);
            }
        }
    }

    pub(crate) fn get(&self, run_id: &str) -> Option<Arc<Plan>> {
        self.lock().by_run.get(run_id).cloned()
    }
}
