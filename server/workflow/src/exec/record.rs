//! What a run hands back: how it ended, its output, its usage, and a record of each step.

use crate::events::RunStatus;
use crate::tool::Usage;
use serde::Serialize;
use serde_json::Value;

/// Final state of one step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StepOutcome {
    /// Never reached (the run stopped first).
    Pending,
    Completed,
    Skipped,
    Failed,
    Cancelled,
}

/// What happened to one step.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StepRecord {
    pub id: String,
    pub tool: String,
    pub status: StepOutcome,
    pub duration_ms: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output: Option<Value>,
}

/// The result of a run.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RunResult {
    pub status: RunStatus,
    /// The resolved `output` mapping (or the whole context when the workflow maps none).
    pub output: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// One record per step, in file order.
    pub steps: Vec<StepRecord>,
    pub duration_ms: u64,
    pub usage: Usage,
}

/// Why a run stopped before its end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Stop {
    /// A step failed without `continueOnError`, or the engine could not go on.
    Failed(String),
    /// The user cancelled, or a step-through pause was left idle too long.
    Cancelled(String),
}
