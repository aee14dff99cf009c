//! Run history over REST: past runs of the journal, one run's record, two runs compared, and a
//! restart from a step (docs/api.md, "Run history").

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use ts_rs::TS;
use vai_workflow::Usage;
use vai_workflow::journal::{RerunFrom, RunInfo};

/// One past run in `GET /api/history`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct HistoryEntry {
    pub run_id: String,
    pub workflow: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub workflow_id: Option<String>,
    /// `running`, `waiting`, `interrupted`, `completed`, `failed`, `cancelled` or `unreadable`.
    pub status: String,
    #[ts(type = "number")]
    pub started_at: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub duration_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub usage: Option<Usage>,
    /// The inputs in one short line.
    pub inputs: String,
    /// The definition's version.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub hash: Option<String>,
    /// The run this one restarted from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub from: Option<RestartedFrom>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub error: Option<String>,
}

/// Where a restarted run came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RestartedFrom {
    pub run_id: String,
    pub step: String,
}

impl From<RerunFrom> for RestartedFrom {
    fn from(f: RerunFrom) -> Self {
        Self {
            run_id: f.run_id,
            step: f.step,
        }
    }
}

impl From<RunInfo> for HistoryEntry {
    fn from(r: RunInfo) -> Self {
        Self {
            run_id: r.run_id,
            workflow: r.workflow,
            workflow_id: r.workflow_id,
            status: r.status,
            started_at: r.started_at,
            duration_ms: r.duration_ms,
            usage: r.usage,
            inputs: r.inputs,
            hash: r.hash,
            from: r.from.map(Into::into),
            error: r.error,
        }
    }
}

/// `GET /api/history[?workflowId=&status=&since=]`: journaled runs, newest first.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct HistoryList {
    pub runs: Vec<HistoryEntry>,
}

/// `GET /api/history/{id}`: what a past run ran — its definition as it ran (even when its file
/// is gone) and inputs — and how the workflow differs now. Its steps are in
/// `GET /api/runs/{id}` and `GET /api/runs/{id}/steps/{step}/output`, as for any run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct HistoryRecord {
    pub run: HistoryEntry,
    pub definition: Value,
    pub inputs: Map<String, Value>,
    /// How the library's workflow differs now from what ran (empty: unchanged); absent when
    /// the run's workflow is not in the library any more.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub changed_since: Option<Vec<String>>,
}

/// `POST /api/history/{id}/restart`: run again from `from`, the steps upstream replaying the
/// past run's outputs. `definition` (an edited workflow) and `inputs` replace the run's own.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RestartRun {
    pub from: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub definition: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub inputs: Option<Map<String, Value>>,
}
