//! What history keeps of each step beyond its output: how it ended, when, for how long, with
//! which inputs and what its model calls used. A `trace` line per step is written from the
//! run's events by `history::HistorySink`, which wraps the run's sink; reading a journal
//! gathers them into `JournalState::traces`.

use crate::tool::Usage;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Most bytes of a step's inputs a trace keeps; larger inputs are noted by their size only
/// (the step's output, which the run replays, is always kept whole).
pub const MAX_TRACE_INPUTS: usize = 64 * 1024;

/// One step as history records it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StepTrace {
    /// `completed`, `failed`, `skipped` or `cancelled`.
    pub status: String,
    /// Milliseconds since the Unix epoch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub started_at: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub backend: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<Usage>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The resolved inputs the tool got (`{"$omitted": bytes}` past [`MAX_TRACE_INPUTS`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inputs: Option<Value>,
    /// Copied from the run this one restarted from, not run again.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub replayed: bool,
}

/// The key of step `id` within `at` in [`JournalState::traces`](super::JournalState): the
/// segments and the id joined by `/` (`answer`, `book[2]/search`).
pub fn trace_key(at: &[String], id: &str) -> String {
    let mut key = at.join("/");
    if !key.is_empty() {
        key.push('/');
    }
    key.push_str(id);
    key
}

/// Whether `value` takes at most about `max` bytes as JSON: measured by walking it (strings
/// by their length, without escapes), never serialised, and stopping as soon as it is over.
pub(crate) fn fits(value: &Value, max: usize) -> bool {
    crate::limits::measure(value, 0, crate::limits::Limit::ValueBytes(max as u64)).is_ok()
}
