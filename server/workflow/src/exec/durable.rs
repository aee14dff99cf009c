//! What makes a run durable, as the engine sees it: a `Journal` it tells each completed step,
//! item, wait and compensation as they happen, and the `Recorded` state of an earlier run of
//! the same plan, which a resumed run replays instead of running again. Where and how the
//! journal is stored is the caller's (`crate::journal` writes files).

use crate::model::RetryPolicy;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::HashMap;
use std::sync::Arc;

/// Where a run's progress goes as it is made. Must not block for long: the scheduler calls it
/// inline at step boundaries.
pub trait Journal: Send + Sync {
    /// `at`: the `workflow` steps (segments such as `book` or `book[3]` for a `forEach` item)
    /// from the top-level run down to the run the entry is about.
    fn record(&self, at: &[String], entry: Entry<'_>);
}

/// One thing a run did, as journaled.
#[derive(Debug, Clone, Copy)]
pub enum Entry<'a> {
    /// A step completed; `entry` is its context entry (`{output}`), shared, and `undo` its
    /// compensation, resolved.
    Step {
        id: &'a str,
        entry: &'a Arc<Value>,
        undo: Option<&'a UndoCall>,
    },
    /// A step failed and the run went on (`continueOnError`).
    Failed { id: &'a str, error: &'a str },
    /// Item `index` of a `forEach` step completed with `output`.
    Item {
        id: &'a str,
        index: usize,
        output: &'a Value,
    },
    /// A `yield` step began to wait.
    Waiting {
        id: &'a str,
        message: &'a str,
        expects: &'a Value,
        deadline_ms: Option<u64>,
    },
    /// A compensation ran.
    Compensated {
        id: &'a str,
        ok: bool,
        error: Option<&'a str>,
    },
}

/// A journal and the place in the tree of runs its entries are about.
#[derive(Clone)]
pub struct JournalAt {
    journal: Arc<dyn Journal>,
    at: Vec<String>,
}

impl JournalAt {
    pub fn new(journal: Arc<dyn Journal>) -> Self {
        Self {
            journal,
            at: Vec::new(),
        }
    }

    pub(crate) fn record(&self, entry: Entry<'_>) {
        self.journal.record(&self.at, entry);
    }

    /// The journal of the child run under `segment`.
    pub(crate) fn child(&self, segment: String) -> Self {
        let mut at = self.at.clone();
        at.push(segment);
        Self {
            journal: self.journal.clone(),
            at,
        }
    }
}

/// A compensation resolved when its step completed: what to call to undo it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UndoCall {
    pub tool: String,
    pub inputs: Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry: Option<RetryPolicy>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout_ms: Option<u64>,
}

/// How a step ended in an earlier run of the plan.
#[derive(Debug, Clone, PartialEq)]
pub enum RecordedStep {
    Completed {
        output: Value,
        undo: Option<UndoCall>,
    },
    /// Failed, and the run went on.
    Failed { error: String },
}

/// What an earlier run of a plan did, to be replayed by a resumed run: one level of the tree
/// of runs (the top-level run, or one child run).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Recorded {
    pub steps: HashMap<String, RecordedStep>,
    /// Step ids in the order they completed (their compensations run in reverse).
    pub order: Vec<String>,
    /// Completed items of `forEach` steps that had not completed, by step id and index.
    pub items: HashMap<String, HashMap<usize, Value>>,
    /// Answers to `yield` steps, by step id.
    pub answers: HashMap<String, Value>,
    /// When each `yield` step that began to wait gives up, by step id (`None`: never).
    pub waits: HashMap<String, Option<u64>>,
    /// Compensations that already ran, by step id.
    pub compensated: HashMap<String, bool>,
    /// Child runs, by segment (`book`, `book[3]`).
    pub children: HashMap<String, Recorded>,
}

impl Recorded {
    /// The level `at` leads to, made when missing.
    pub fn level_mut(&mut self, at: &[String]) -> &mut Recorded {
        let mut level = self;
        for segment in at {
            level = level.children.entry(segment.clone()).or_default();
        }
        level
    }

    pub(crate) fn child(&self, segment: &str) -> Option<Arc<Recorded>> {
        self.children.get(segment).cloned().map(Arc::new)
    }
}

/// A segment of a journal path as the step it names and, for a `forEach` item's child run,
/// the item: `book[3]` → (`book`, Some(3)); `book` → (`book`, None).
pub fn split_segment(segment: &str) -> (&str, Option<usize>) {
    match segment.split_once('[') {
        Some((id, rest)) => (id, rest.trim_end_matches(']').parse().ok()),
        None => (segment, None),
    }
}
