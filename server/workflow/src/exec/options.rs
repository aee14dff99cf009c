//! What a run is given besides the plan and the tools: the user's inputs, overrides of the
//! workflow's defaults, canned outputs, cancellation, limits, a single-step run and step-through.

use super::durable::{JournalAt, Recorded};
use super::stepping::Stepping;
use crate::limits::Limits;
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;
use tokio_util::sync::CancellationToken;

/// Canned outputs for `vai workflow test`: by step id (first) or by tool name.
#[derive(Debug, Clone, Default)]
pub struct Mocks {
    pub by_step: HashMap<String, Value>,
    pub by_tool: HashMap<String, Value>,
}

impl Mocks {
    pub(super) fn for_step(&self, id: &str, tool: &str) -> Option<&Value> {
        self.by_step.get(id).or_else(|| self.by_tool.get(tool))
    }

    pub fn is_empty(&self) -> bool {
        self.by_step.is_empty() && self.by_tool.is_empty()
    }
}

/// What a run needs besides the plan and the tools.
#[derive(Debug, Clone, Default)]
pub struct RunOptions {
    /// Inputs as given by the user; defaults are applied and types coerced before the run.
    pub inputs: Map<String, Value>,
    /// Keys that override the workflow's `defaults` (the CLI's `--db`, `--collection`).
    pub defaults_override: Map<String, Value>,
    pub mocks: Mocks,
    /// Cancel the run from outside.
    pub cancel: CancellationToken,
    /// Hand each step's inputs, as its tool was given them, to the sink with the step's
    /// `StepCompleted` or `StepFailed` (the playground's inspector shows them). Off by default:
    /// it costs a copy of the inputs. The copies share a budget of `limits.run_bytes`; past
    /// it a step's inputs are replaced by a note saying so.
    pub capture_inputs: bool,
    /// With `capture_inputs`: at most this many bytes of one step's inputs are copied (larger
    /// ones are replaced by the note, and cost no copy). `None`: bounded by the run's budget only.
    pub capture_inputs_max: Option<u64>,
    /// Bounds on the values the run makes.
    pub limits: Limits,
    /// Run one step only, replaying what it depends on.
    pub only: Option<OnlyStep>,
    /// Pause before steps until resumed through this handle (a step-through run), and give
    /// each step its `pace`.
    pub stepping: Option<Stepping>,
    /// Where the run tells each completed step, item, wait and compensation (a durable run).
    pub journal: Option<JournalAt>,
    /// What an earlier run of this plan did: replayed instead of run again (a resumed run).
    pub replay: Option<Arc<Recorded>>,
}

impl fmt::Debug for JournalAt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("JournalAt")
    }
}

/// A single-step run: `step` runs; the steps it depends on (directly or not) complete at once
/// with the outputs in `replay` (backend `replay`), or are skipped when none is given; every
/// other step is skipped.
#[derive(Debug, Clone, Default)]
pub struct OnlyStep {
    pub step: String,
    /// Outputs by step id, e.g. from an earlier run.
    pub replay: HashMap<String, Value>,
}
