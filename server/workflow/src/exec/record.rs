//! What a run hands back: how it ended, its output, its usage, and a record of each step.

use super::undo::{CompensationReport, Undo};
use crate::events::RunStatus;
use crate::tool::Usage;
use serde::{Deserialize, Serialize};
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
    /// A `yield` step waiting for a person (the run is waiting).
    Waiting,
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
    /// What a waiting run waits for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub waiting: Option<Waiting>,
    /// The compensations a run that ended badly ran, in the order they ran.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub compensation: Vec<CompensationReport>,
    /// What would undo this run's completed steps (a completed child run hands it to the
    /// `workflow` step that called it).
    #[serde(skip)]
    pub(crate) undo: Vec<Undo>,
}

impl RunResult {
    /// A result that says only how a run ended (status, output, error, duration): what a
    /// journal records of it, for callers and tests outside the engine.
    pub fn ended(
        status: RunStatus,
        output: Option<Value>,
        error: Option<String>,
        duration_ms: u64,
    ) -> Self {
        RunResult {
            status,
            output,
            error,
            steps: Vec::new(),
            duration_ms,
            usage: Usage::default(),
            waiting: None,
            compensation: Vec::new(),
            undo: Vec::new(),
        }
    }
}

/// The `yield` step a run waits at (also as its journal and summary record it).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Waiting {
    pub step_id: String,
    /// The `workflow` steps the `yield` sits in, outermost first (segments such as `book`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub within: Vec<String>,
    pub message: String,
    /// JSON Schema of the answer.
    pub expects: Value,
    /// When the wait gives up, in milliseconds since the Unix epoch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deadline_ms: Option<u64>,
}

/// Why a run stopped before its end.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Stop {
    /// A step failed without `continueOnError`, or the engine could not go on.
    Failed(String),
    /// The user cancelled, or a step-through pause was left idle too long.
    Cancelled(String),
    /// A `yield` step waits for a person: nothing new starts; the run is saved as waiting.
    Waiting(Box<Waiting>),
}
