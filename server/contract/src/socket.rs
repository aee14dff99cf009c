//! WebSocket messages on `/api/ws` (docs/api.md, "WebSocket").

use crate::chat::{ChatAsk, ChatEvent};
use crate::runs::{ApiErrorCode, RunSnapshot, RunSummary};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;
use vai_workflow::RunEvent;

/// Server → client.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(
    tag = "type",
    rename_all = "snake_case",
    rename_all_fields = "camelCase"
)]
pub enum ServerMessage {
    /// On connect: the runs the server holds.
    Hello { runs: Vec<RunSummary> },
    /// To every socket when a run starts, so another tab can follow it.
    RunCreated { run: RunSummary },
    /// In reply to `subscribe`.
    Snapshot { run: Box<RunSnapshot> },
    /// One run event; `seq` counts from 1 per run with no gaps.
    Event {
        run_id: String,
        #[ts(type = "number")]
        seq: u64,
        event: RunEvent,
        /// On `step_completed` and `run_finished`, when its JSON is at most 16 KB.
        #[serde(skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        output: Option<Value>,
        #[serde(skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        output_bytes: Option<usize>,
    },
    /// One event of a chat turn this socket asked for.
    Chat {
        session_id: String,
        event: ChatEvent,
    },
    /// An unknown run, a malformed message, a question that cannot be asked now. `runId` names
    /// the run it is about and `sessionId` the chat session, when there is one (as the client
    /// sent it, cut to 64 characters).
    Error {
        code: ApiErrorCode,
        message: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        run_id: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        session_id: Option<String>,
    },
}

/// Client → server.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(
    tag = "type",
    rename_all = "snake_case",
    rename_all_fields = "camelCase"
)]
pub enum ClientMessage {
    /// Send a snapshot of the run, then every later event.
    Subscribe {
        run_id: String,
    },
    Unsubscribe {
        run_id: String,
    },
    /// Ask a question; the turn's events come back as `chat` messages to this socket.
    ChatAsk {
        ask: ChatAsk,
    },
    /// Stop the answer of the session's running turn (it is kept, marked cancelled).
    ChatCancel {
        session_id: String,
    },
}
