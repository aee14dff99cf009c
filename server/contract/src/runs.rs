//! Runs over REST: starting, listing, snapshots and step details (docs/api.md, "Runs").

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use ts_rs::TS;
use vai_workflow::expects::FieldError;
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

/// `POST /api/runs/{id}/input`: the answer to the `yield` step the run waits at.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RunInput {
    /// The waiting step, when the client wants to be sure it answers that one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub step_id: Option<String>,
    /// The answer: an object that satisfies the step's `expects`.
    pub input: Map<String, Value>,
}

/// 202 reply to `POST /api/runs/{id}/input` (the run goes on), or to a resume of an
/// interrupted run (`POST /api/runs/{id}/continue`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct InputAccepted {
    pub run_id: String,
    pub status: RunState,
}

/// What a waiting run waits for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct WaitingFor {
    /// The `yield` step; for one inside a sub-workflow, the `workflow` step ids before it.
    pub step_id: String,
    #[serde(default)]
    pub within: Vec<String>,
    pub message: String,
    /// JSON Schema of the answer.
    pub expects: Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub deadline_ms: Option<u64>,
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
    /// Stopped at a `yield` step until `POST /api/runs/{id}/input` answers.
    Waiting,
    /// The process running it died (it never ended); `vai runs resume` or the playground's
    /// Resume goes on from its journal.
    Interrupted,
}

impl RunState {
    /// The state a run journal's status names (`vai runs list`'s words: `running`,
    /// `completed`, `failed`, `cancelled`, `waiting`, `interrupted`); `None` for any other
    /// (`unreadable`, or a run that has not ended).
    pub fn from_journal(status: &str) -> Option<Self> {
        match status {
            "running" => Some(Self::Running),
            "completed" => Some(Self::Completed),
            "failed" => Some(Self::Failed),
            "cancelled" => Some(Self::Cancelled),
            "waiting" => Some(Self::Waiting),
            "interrupted" => Some(Self::Interrupted),
            _ => None,
        }
    }
}

impl From<RunStatus> for RunState {
    fn from(s: RunStatus) -> Self {
        match s {
            RunStatus::Completed => Self::Completed,
            RunStatus::Failed => Self::Failed,
            RunStatus::Cancelled => Self::Cancelled,
            RunStatus::Waiting => Self::Waiting,
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
    /// A `yield` step waiting for a person.
    Waiting,
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
    /// The tokens a completed step used and what they cost (the canvas's cost overlay).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub usage: Option<Usage>,
    /// Its compensation, once the run ended badly after it completed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub compensation: Option<CompensationState>,
    /// The text the step has written so far while it runs (a `generate` answer arriving), at
    /// most [`StepState::TEXT_LIMIT`] bytes; gone once it ends (its output holds the whole).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub text: Option<String>,
}

/// Where a completed step's compensation is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum CompensationState {
    Compensating,
    Compensated,
    CompensationFailed,
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
            usage: None,
            compensation: None,
            text: None,
        }
    }

    /// Most bytes of running text a snapshot keeps per step.
    pub const TEXT_LIMIT: usize = 16 * 1024;

    /// Add `delta` to the running text, within [`StepState::TEXT_LIMIT`] (cut on a character).
    pub fn push_text(&mut self, delta: &str) {
        let text = self.text.get_or_insert_with(String::new);
        let room = Self::TEXT_LIMIT.saturating_sub(text.len());
        let mut end = delta.len().min(room);
        while !delta.is_char_boundary(end) {
            end -= 1;
        }
        text.push_str(&delta[..end]);
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
    /// What a waiting run waits for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub waiting: Option<WaitingFor>,
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

/// Every code a local server answers with, over HTTP (`{error: {code, message}}`) and on the
/// run socket (`error {code, message}`): the playground's and `vai mcp --http`'s transport layer.
/// docs/api.md lists each (a test checks).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ApiErrorCode {
    /// 400: a request the route cannot take (a field, an id).
    BadRequest,
    /// 400: the workflow has errors (`diagnostics` lists them).
    InvalidWorkflow,
    /// 400: the run's inputs are missing or of the wrong type.
    InvalidInputs,
    /// 400: a rename to an id that is not an id.
    InvalidId,
    /// 400: a rename to one of the engine's reserved words.
    ReservedId,
    /// 400: a rename to an id another step or input keeps.
    IdTaken,
    /// 400: a file or test case name that is not a plain name.
    InvalidName,
    /// 401: no access token (or bearer key).
    Unauthorized,
    /// 403: a request that does not name this server (Host, Origin, request line).
    ForbiddenOrigin,
    /// 404: no such run, workflow, step, session or route.
    NotFound,
    /// 409: the file changed on disk, already exists, or the run cannot do that now.
    Conflict,
    /// 409: the server has no directory to save into.
    NoDirectory,
    /// 409: a resume of a run that is not paused.
    NotPaused,
    /// 400: an answer to a waiting run that does not satisfy the step's `expects` (`fields`
    /// names each bad field).
    InvalidAnswer,
    /// 409: an answer to a run that is not waiting.
    NotWaiting,
    /// 413: a body or file over its limit.
    PayloadTooLarge,
    /// 422: a listed workflow file that cannot be read.
    Unreadable,
    /// 422: a chat answer that called no tools cannot become a workflow.
    NotExportable,
    /// 429: the most runs go at once already.
    TooManyRuns,
    /// 500: a bug; the cause is logged, never sent.
    Internal,
    /// 500: the chat history cannot be read or written; 503: the run history's store cannot be
    /// read now.
    HistoryUnavailable,
    /// 503: the most run sockets are open already.
    TooManySockets,
    /// 503: the most MCP sessions are open already (`vai mcp --http`).
    TooManySessions,
    /// 503: no chat on this server (no LLM).
    NotAvailable,
    /// Socket: a message that is not one of the protocol's.
    BadMessage,
    /// Socket: an empty question.
    BadQuestion,
    /// Socket: an answer is already being written (on the socket, the session or the server).
    Busy,
}

impl ApiErrorCode {
    /// Every code, for docs and tests.
    pub const ALL: [ApiErrorCode; 27] = [
        ApiErrorCode::BadRequest,
        ApiErrorCode::InvalidWorkflow,
        ApiErrorCode::InvalidInputs,
        ApiErrorCode::InvalidId,
        ApiErrorCode::ReservedId,
        ApiErrorCode::IdTaken,
        ApiErrorCode::InvalidName,
        ApiErrorCode::Unauthorized,
        ApiErrorCode::ForbiddenOrigin,
        ApiErrorCode::NotFound,
        ApiErrorCode::Conflict,
        ApiErrorCode::NoDirectory,
        ApiErrorCode::NotPaused,
        ApiErrorCode::InvalidAnswer,
        ApiErrorCode::NotWaiting,
        ApiErrorCode::PayloadTooLarge,
        ApiErrorCode::Unreadable,
        ApiErrorCode::NotExportable,
        ApiErrorCode::TooManyRuns,
        ApiErrorCode::Internal,
        ApiErrorCode::HistoryUnavailable,
        ApiErrorCode::TooManySockets,
        ApiErrorCode::TooManySessions,
        ApiErrorCode::NotAvailable,
        ApiErrorCode::BadMessage,
        ApiErrorCode::BadQuestion,
        ApiErrorCode::Busy,
    ];

    /// The code as clients read it (`NOT_FOUND`), as serde writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            ApiErrorCode::BadRequest => "BAD_REQUEST",
            ApiErrorCode::InvalidWorkflow => "INVALID_WORKFLOW",
            ApiErrorCode::InvalidInputs => "INVALID_INPUTS",
            ApiErrorCode::InvalidId => "INVALID_ID",
            ApiErrorCode::ReservedId => "RESERVED_ID",
            ApiErrorCode::IdTaken => "ID_TAKEN",
            ApiErrorCode::InvalidName => "INVALID_NAME",
            ApiErrorCode::Unauthorized => "UNAUTHORIZED",
            ApiErrorCode::ForbiddenOrigin => "FORBIDDEN_ORIGIN",
            ApiErrorCode::NotFound => "NOT_FOUND",
            ApiErrorCode::Conflict => "CONFLICT",
            ApiErrorCode::NoDirectory => "NO_DIRECTORY",
            ApiErrorCode::NotPaused => "NOT_PAUSED",
            ApiErrorCode::InvalidAnswer => "INVALID_ANSWER",
            ApiErrorCode::NotWaiting => "NOT_WAITING",
            ApiErrorCode::PayloadTooLarge => "PAYLOAD_TOO_LARGE",
            ApiErrorCode::Unreadable => "UNREADABLE",
            ApiErrorCode::NotExportable => "NOT_EXPORTABLE",
            ApiErrorCode::TooManyRuns => "TOO_MANY_RUNS",
            ApiErrorCode::Internal => "INTERNAL",
            ApiErrorCode::HistoryUnavailable => "HISTORY_UNAVAILABLE",
            ApiErrorCode::TooManySockets => "TOO_MANY_SOCKETS",
            ApiErrorCode::TooManySessions => "TOO_MANY_SESSIONS",
            ApiErrorCode::NotAvailable => "NOT_AVAILABLE",
            ApiErrorCode::BadMessage => "BAD_MESSAGE",
            ApiErrorCode::BadQuestion => "BAD_QUESTION",
            ApiErrorCode::Busy => "BUSY",
        }
    }
}

/// The body of every non-2xx reply.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct ApiErrorBody {
    pub error: ErrorInfo,
}

/// What went wrong, for people; never internal causes.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct ErrorInfo {
    pub code: ApiErrorCode,
    pub message: String,
    /// Present on workflow errors.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub diagnostics: Option<Vec<Diagnostic>>,
    /// Present on `INVALID_ANSWER`: each field of the answer that is wrong.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub fields: Option<Vec<FieldError>>,
}

#[cfg(test)]
mod tests {
    use super::RunState;

    #[test]
    fn a_journal_status_names_the_state_of_the_same_wire_name() {
        use RunState::*;
        for state in [Running, Completed, Failed, Cancelled, Waiting, Interrupted] {
            let name = serde_json::to_value(state).unwrap();
            assert_eq!(RunState::from_journal(name.as_str().unwrap()), Some(state));
        }
        assert_eq!(RunState::from_journal("unreadable"), None);
        assert_eq!(RunState::from_journal("unfinished"), None);
    }
}
