//! What history keeps of each step beyond its output: how it ended, when, for how long, with
//! which inputs and what its model calls used. A `trace` line per step is written from the
//! run's events by `history::HistorySink`, which wraps the run's sink; reading a journal
//! gathers them into `JournalState::traces`.

use crate::tool::Usage;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Most bytes of a step's inputs a trace keeps; larger inputs are noted by their size only
/// (the step's output, which the run replays, is always kept whole).
pub const MAX_TRACE_INPUTS: usize = 256 * 1024;

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

/// `value`'s bytes as compact JSON when at most `max`, else `None` — counted without building
/// the text, and stopping as soon as it is over.
pub(crate) fn json_len_within(value: &Value, max: usize) -> Option<usize> {
    struct Capped(usize, usize);
    impl std::io::Write for Capped {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0 += buf.len();
            if self.0 > self.1 {
                return Err(std::io::Error::other("over"));
            }
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut out = Capped(0, max);
    serde_json::to_writer(&mut out, value).ok().map(|()| out.0)
}
