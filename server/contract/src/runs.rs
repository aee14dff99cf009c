//! Runs over REST: starting, listing, snapshots and step details (docs/api.md, "Runs").

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use ts_rs::TS;
use vai_workflow::{Diagnostic, ResumeAction, RunStatus, StepThrough, Usage};

/// `POST /api/runs`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct StartRun {
    /// The workflow as JSON.
    pub definition: Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub inputs: Option<Map<String, Value>>,
    /// The library id the definition came from, shown in run lists.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub workflow_id: Option<String>,
    /// Run only this step; the steps it depends on are replayed from `fromRun`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub step: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub from_run: Option<String>,
    /// Run step by step: pause before steps until `POST /api/runs/{id}/resume` (at most 10000
    /// ms of pace; breakpoints must name steps of the workflow).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub step_through: Option<StepThrough>,
}

/// The step a step-through run waits before.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PausedStep {
    pub step_id: String,
    /// It is a breakpoint (else the run pauses before every step).
    pub breakpoint: bool,
    /// When the pause began, in milliseconds since the Unix epoch; it is cancelled 10 minutes
    /// later unless resumed.
    #[ts(type = "number")]
    pub since: u64,
}

/// 202 reply to `POST /api/runs/{id}/resume`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ResumeAccepted {
    pub run_id: String,
    pub status: RunState,
    /// The step that goes ahead.
    pub step_id: String,
    pub action: ResumeAction,
}

/// 201 reply to `POST /api/runs`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RunCreated {
    pub run_id: String,
}

/// 202 reply to `POST /api/runs/{id}/cancel`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CancelAccepted {
    pub run_id: String,
    pub status: RunState,
}

/// A run's status, `running` included.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum RunState {
    Running,
    Completed,
    Failed,
    Cancelled,
}

impl From<RunStatus> for RunState {
    fn from(s: RunStatus) -> Self {
        match s {
            RunStatus::Completed => Self::Completed,
            RunStatus::Failed => Self::Failed,
            RunStatus::Cancelled => Self::Cancelled,
        }
    }
}

/// One run in lists.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RunSummary {
    pub run_id: String,
    /// The workflow's name.
    pub workflow: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub workflow_id: Option<String>,
    pub status: RunState,
    /// Milliseconds since the Unix epoch.
    #[ts(type = "number")]
    pub started_at: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub duration_ms: Option<u64>,
}

/// `GET /api/runs`: running runs and the last 20 finished, newest first.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct RunList {
    pub runs: Vec<RunSummary>,
}

/// A step's state within a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum StepStatus {
    Pending,
    Running,
    Retrying,
    Completed,
    Skipped,
    Failed,
    Cancelled,
}

/// One step of a snapshot.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct StepState {
    pub status: StepStatus,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub duration_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub summary: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub error: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub reason: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub backend: Option<String>,
    /// The attempt that failed transiently, while retrying.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub attempt: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub output_bytes: Option<usize>,
}

impl StepState {
    pub fn new(status: StepStatus) -> Self {
        Self {
            status,
            duration_ms: None,
            summary: None,
            error: None,
            reason: None,
            backend: None,
            attempt: None,
            output_bytes: None,
        }
    }
}

/// A run folded from its events up to `seq`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RunSnapshot {
    pub run_id: String,
    pub workflow: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub workflow_id: Option<String>,
    pub status: RunState,
    /// The last event folded into this snapshot (0 before the first).
    #[ts(type = "number")]
    pub seq: u64,
    #[ts(type = "number")]
    pub started_at: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub duration_ms: Option<u64>,
    pub layers: Vec<Vec<String>>,
    /// Every step of the workflow, in file order.
    #[ts(type = "Record<string, StepState>")]
    pub steps: IndexMap<String, StepState>,
    /// The run's output when its JSON is at most 16 KB.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub output: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub output_bytes: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub error: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub usage: Option<Usage>,
    /// A step-through run's settings as they are now.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub step_through: Option<StepThrough>,
    /// The step the run waits before, while it is paused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub paused: Option<PausedStep>,
}

/// `GET /api/runs/{id}/steps/{step}/output`: everything about one step, in full.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct StepDetail {
    pub step_id: String,
    pub status: StepStatus,
    /// The resolved inputs as the tool received them; while the run is paused before the step,
    /// as it will receive them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub inputs: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub output: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub error: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub reason: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub duration_ms: Option<u64>,
}

/// `GET /api/runs/{id}/output`: the run's final output in full, whatever its size (events carry
/// it inline only up to 16 KB).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RunOutput {
    pub run_id: String,
    pub status: RunState,
    /// Absent while the run is going, and when it ended without one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub output: Option<Value>,
}

/// The body of every non-2xx reply.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct ApiErrorBody {
    pub error: ErrorInfo,
}

/// What went wrong, for people; never internal causes.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct ErrorInfo {
    /// `NOT_FOUND`, `INVALID_WORKFLOW`, `INVALID_INPUTS`, `FORBIDDEN_ORIGIN`, ….
    pub code: String,
    pub message: String,
    /// Present on workflow errors.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub diagnostics: Option<Vec<Diagnostic>>,
}
