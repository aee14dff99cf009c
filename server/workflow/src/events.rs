//! Typed run events: one stream that the CLI renders now and the playground streams later.

use crate::tool::Usage;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::sync::Arc;

/// Something that happened during a run, in order.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(
    tag = "type",
    rename_all = "snake_case",
    rename_all_fields = "camelCase"
)]
pub enum RunEvent {
    RunStarted {
        workflow: String,
        /// Step ids per Kahn layer.
        layers: Vec<Vec<String>>,
        total_steps: usize,
    },
    /// A step-through run waits before this step (its condition passed; it has not started)
    /// until Next or Continue. Steps already running go on meanwhile.
    Paused {
        step_id: String,
        name: String,
        tool: String,
        /// The step is a breakpoint (else the run pauses before every step).
        breakpoint: bool,
        /// The inputs the step's tool will get, resolved at the pause, for in-process
        /// subscribers; not part of the wire form (the step route serves them).
        #[serde(skip)]
        inputs: Option<Arc<Value>>,
    },
    /// The paused step goes ahead: `step_started` follows.
    Resumed {
        step_id: String,
        action: ResumeAction,
        /// The breakpoints from now on, when this resume changed them.
        #[serde(skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        breakpoints: Option<Vec<String>>,
    },
    StepStarted {
        step_id: String,
        name: String,
        tool: String,
    },
    /// The next piece of the text a running step writes (a `generate` answer as it arrives);
    /// the step's output, when it completes, holds the whole text.
    StepText {
        step_id: String,
        delta: String,
    },
    /// A transient failure that will be retried after `delay_ms`.
    StepRetrying {
        step_id: String,
        attempt: u32,
        error: String,
        #[cfg_attr(feature = "ts", ts(type = "number"))]
        delay_ms: u64,
    },
    /// Item `index` of `forEach` step `step_id` called its tool and got an answer (or an
    /// error) after `duration_ms`. Not sent for items replayed from a journal, nor for a
    /// `workflow` step's items (their child runs' events say as much).
    ItemEnded {
        step_id: String,
        #[cfg_attr(feature = "ts", ts(type = "number"))]
        index: usize,
        #[cfg_attr(feature = "ts", ts(type = "number"))]
        duration_ms: u64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        error: Option<String>,
    },
    StepCompleted {
        step_id: String,
        #[cfg_attr(feature = "ts", ts(type = "number"))]
        duration_ms: u64,
        /// One line describing the output ("12 results").
        summary: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        usage: Option<Usage>,
        /// Which backend served the step (voyage, mongodb, local, …).
        #[serde(skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        backend: Option<String>,
        /// The step's context entry `{output}`, for in-process subscribers; not part of the
        /// wire form (large outputs are fetched on demand).
        #[serde(skip)]
        entry: Arc<Value>,
        /// The inputs the step ran with, for in-process subscribers that asked for them
        /// (`RunOptions::capture_inputs`); not part of the wire form.
        #[serde(skip)]
        inputs: Option<Arc<Value>>,
    },
    StepSkipped {
        step_id: String,
        reason: String,
    },
    StepFailed {
        step_id: String,
        error: String,
        #[cfg_attr(feature = "ts", ts(type = "number"))]
        duration_ms: u64,
        /// True when `continueOnError` let the run go on.
        continued: bool,
        /// The inputs the step ran with, when they resolved and `RunOptions::capture_inputs`
        /// asked for them; not part of the wire form.
        #[serde(skip)]
        inputs: Option<Arc<Value>>,
    },
    /// A running step stopped because the run failed or was cancelled, or the run ended while
    /// paused before this step (it never started).
    StepCancelled {
        step_id: String,
    },
    /// A `yield` step waits for a person's answer: the run stops here (the steps already
    /// running finish first) and is saved as waiting until an answer resumes it.
    Waiting {
        step_id: String,
        message: String,
        /// JSON Schema of the answer (an object).
        expects: Value,
        /// When the wait times out, in milliseconds since the Unix epoch.
        #[serde(skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional, type = "number"))]
        deadline_ms: Option<u64>,
    },
    /// The run ended badly: the compensation of this completed step starts.
    Compensating {
        step_id: String,
        tool: String,
    },
    /// A compensation ended: `ok`, or not with `error`.
    Compensated {
        step_id: String,
        ok: bool,
        #[serde(skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        error: Option<String>,
    },
    /// An event of the child run of `workflow` step `step_id` (for a `forEach` step, of item
    /// `item`'s child run).
    Child {
        step_id: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        item: Option<usize>,
        event: Box<RunEvent>,
    },
    RunFinished {
        status: RunStatus,
        #[cfg_attr(feature = "ts", ts(type = "number"))]
        duration_ms: u64,
        #[serde(skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        error: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        usage: Option<Usage>,
        /// The run's resolved output when it completed, for in-process subscribers; not part
        /// of the wire form.
        #[serde(skip)]
        output: Option<Arc<Value>>,
    },
}

/// How a paused run goes on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum ResumeAction {
    /// Run the paused step, and pause again before the next one.
    Next,
    /// Run until the next breakpoint (to the end when there is none).
    Continue,
}

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum RunStatus {
    Completed,
    Failed,
    Cancelled,
    /// Stopped at a `yield` step until a person answers; saved, and resumable.
    Waiting,
}

impl RunStatus {
    /// The status as written on the wire and in journals (`completed`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Completed => "completed",
            Self::Failed => "failed",
            Self::Cancelled => "cancelled",
            Self::Waiting => "waiting",
        }
    }
}

/// Receives run events. Must not block: the executor calls it inline.
pub trait EventSink: Send + Sync {
    fn emit(&self, event: RunEvent);
}

impl<F: Fn(RunEvent) + Send + Sync> EventSink for F {
    fn emit(&self, event: RunEvent) {
        self(event);
    }
}

/// A sink that drops everything.
pub struct NoEvents;

impl EventSink for NoEvents {
    fn emit(&self, _event: RunEvent) {}
}

impl EventSink for tokio::sync::mpsc::UnboundedSender<RunEvent> {
    fn emit(&self, event: RunEvent) {
        let _ = self.send(event);
    }
}
