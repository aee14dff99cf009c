//! One step's task and each of its tool calls: the task owns what a spawned step needs, each
//! call gets the step's timeout and retries, and each step output is measured against the step
//! output limit before it leaves the task; when the run captures them, the inputs each call was
//! given are recorded as they were passed. What the task runs — a mock, a `loop`, a `forEach` or
//! one call — is `execute`'s choice.

use super::frame::Frame;
use super::options::Mocks;
use super::record::Waiting;
use super::undo::Undo;
use crate::compile::{Plan, PlannedStep};
use crate::events::{EventSink, RunEvent};
use crate::inputs::{Inputs, JoinGuard};
use crate::limits::{self, Budget, Limit, LimitError, Limits};
use crate::model::RetryPolicy;
use crate::scope::{Context, Scope};
use crate::tool::{Calls, Registry, Tool, ToolCall, ToolError, ToolOutput, Usage};
use serde_json::Value;
use std::sync::Arc;
use std::time::Duration;

/// What a step's inspector shows when the run's recorded inputs have reached `runBytes`.
const NOT_RECORDED: &str =
    "(not recorded: the inputs recorded for this run reached limits.runBytes)";

/// A successful step.
pub(crate) struct Success {
    pub(crate) output: Value,
    pub(crate) usage: Option<Usage>,
    pub(crate) backend: Option<String>,
    /// The output's JSON size.
    pub(crate) bytes: u64,
}

impl Success {
    /// A step output, once it is known to fit the step output limit and the nesting bound:
    /// measured, unless the tool built it within its call's budget and says how large it is.
    pub(crate) fn checked(out: ToolOutput, limits: &Limits) -> Result<Success, String> {
        let limit = Limit::StepOutputBytes(limits.step_output_bytes);
        let bytes = match out.size {
            Some(size) if size <= limits.step_output_bytes => Ok(size),
            Some(_) => Err(limit),
            None => limits::measure(&out.output, 0, limit),
        }
        .map_err(|l| LimitError::new("output", l).to_string())?;
        Ok(Success {
            output: out.output,
            usage: out.usage,
            backend: out.backend,
            bytes,
        })
    }
}

/// How a step's task ended, and the inputs it ran with (when the run records them).
pub(crate) type Outcome = (Result<Success, String>, Option<Value>);

/// What a finished step task hands back to the scheduler.
pub(crate) struct Finished {
    pub(crate) result: Result<Success, String>,
    pub(crate) duration: Duration,
    /// The inputs the step ran with, when the run records them.
    pub(crate) inputs: Option<Arc<Value>>,
    /// What the child runs of a `workflow` step leave to undo them.
    pub(crate) undo: Vec<Undo>,
    /// The child run of a `workflow` step waits for a person (the result is not an outcome).
    pub(crate) waiting: Option<Waiting>,
    /// Replayed from an earlier run's journal, so not journaled again.
    pub(crate) replayed: bool,
}

impl Finished {
    pub(super) fn new(
        result: Result<Success, String>,
        duration: Duration,
        inputs: Option<Arc<Value>>,
    ) -> Self {
        Self {
            result,
            duration,
            inputs,
            undo: Vec::new(),
            waiting: None,
            replayed: false,
        }
    }

    pub(super) fn failed(error: String, duration: Duration) -> Self {
        Self::new(Err(error), duration, None)
    }
}

/// What a step's child runs leave besides its outcome.
#[derive(Default)]
pub(crate) struct ChildSide {
    pub(crate) undo: Vec<Undo>,
    pub(crate) waiting: Option<Waiting>,
}

/// Everything a spawned step needs, owned.
pub(crate) struct StepTask {
    pub(crate) plan: Arc<Plan>,
    pub(crate) index: usize,
    pub(crate) registry: Arc<Registry>,
    pub(crate) mocks: Arc<Mocks>,
    pub(crate) sink: Arc<dyn EventSink>,
    /// Inputs, defaults and the step's dependencies.
    pub(crate) scope: Context,
    pub(crate) limits: Limits,
    /// The run's budget for recorded inputs, when it records them.
    pub(crate) record: Option<Arc<Budget>>,
    /// The most bytes of one step's inputs recorded.
    pub(crate) record_each: Option<u64>,
    /// What the run shares with child runs: cancellation, journal, replay, depth, budget.
    pub(crate) frame: Arc<Frame>,
    /// What child runs leave besides the outcome (a `workflow` step).
    pub(crate) side: std::sync::Mutex<ChildSide>,
}

impl StepTask {
    pub(super) fn step(&self) -> &PlannedStep {
        &self.plan.steps[self.index]
    }

    pub(super) fn tool(&self, name: &str) -> Result<&Arc<dyn Tool>, String> {
        self.registry
            .tool(name)
            .ok_or_else(|| format!("tool \"{name}\" is not available in this build"))
    }

    /// A copy of `inputs` for the inspector, when the run records inputs.
    pub(super) fn record(&self, inputs: &Inputs<'_>) -> Option<Value> {
        let budget = self.record.as_ref()?;
        let recorded = match self.record_each {
            // Copied within the step's own bound first (stopping as soon as it is over), then
            // charged to the run's.
            Some(max) => {
                let each = Budget::new(Limit::ValueBytes(max));
                inputs
                    .record(&each)
                    .and_then(|v| budget.charge(each.used()).map(|()| v))
            }
            None => inputs.record(budget),
        };
        Some(recorded.unwrap_or_else(|limit| {
            Value::String(match (limit, self.record_each) {
                (Limit::ValueBytes(_), Some(max)) => {
                    format!("(not recorded: this step's inputs are over {max} bytes)")
                }
                _ => NOT_RECORDED.into(),
            })
        }))
    }

    /// One tool call on inputs whose lists join within `guard`: a list the tool joined past the
    /// value limit fails the call, whatever the tool made of the `null` it got instead.
    pub(super) async fn call_guarded(
        &self,
        tool: &Arc<dyn Tool>,
        inputs: Inputs<'_>,
        scope: &dyn Scope,
        guard: &JoinGuard,
    ) -> Result<ToolOutput, String> {
        let out = self.call(tool, inputs, scope).await;
        match guard.tripped() {
            Some(e) => Err(e.to_string()),
            None => out,
        }
    }

    /// One tool call with the step's timeout and retry policy.
    async fn call(
        &self,
        tool: &Arc<dyn Tool>,
        inputs: Inputs<'_>,
        scope: &dyn Scope,
    ) -> Result<ToolOutput, String> {
        let step = self.step();
        let policy = step.retry.clone().unwrap_or(RetryPolicy {
            max_attempts: 1,
            ..RetryPolicy::default()
        });
        static NULL: Value = Value::Null;
        let defaults = self.scope.get("defaults").unwrap_or(&NULL);
        let mut delay = Duration::from_millis(policy.initial_delay_ms);
        let mut inputs = Some(inputs);
        let calls = self.calls();
        for attempt in 1..=policy.max_attempts {
            let last = attempt == policy.max_attempts;
            let attempt_inputs = if last {
                inputs.take().unwrap_or_default()
            } else {
                inputs.clone().unwrap_or_default()
            };
            let call = ToolCall {
                step_id: &step.id,
                inputs: attempt_inputs,
                defaults,
                deferred: &step.deferred,
                scope,
                limits: self.limits,
                budget: self.limits.step_budget(),
                sink: Some(self.sink.as_ref()),
                calls: calls.as_ref().map(|c| c as &dyn Calls),
            };
            let result = match step.timeout {
                Some(limit) => match tokio::time::timeout(limit, tool.run(call)).await {
                    Ok(r) => r,
                    Err(_) => Err(ToolError::Transient {
                        message: format!("timed out after {} ms", limit.as_millis()),
                        retry_after: None,
                    }),
                },
                None => tool.run(call).await,
            };
            match result {
                Ok(out) => return Ok(out),
                Err(e) if e.is_transient() && !last => {
                    let wait = match &e {
                        ToolError::Transient {
                            retry_after: Some(after),
                            ..
                        } => (*after).max(delay),
                        _ => delay,
                    }
                    .min(Duration::from_millis(policy.max_delay_ms));
                    self.sink.emit(RunEvent::StepRetrying {
                        step_id: step.id.clone(),
                        attempt,
                        error: e.to_string(),
                        delay_ms: wait.as_millis() as u64,
                    });
                    tokio::time::sleep(wait).await;
                    delay = Duration::from_secs_f64(
                        (delay.as_secs_f64() * policy.backoff_rate)
                            .min(policy.max_delay_ms as f64 / 1000.0),
                    );
                }
                Err(e) if e.is_transient() && policy.max_attempts > 1 => {
                    return Err(format!("{e} (after {} attempts)", policy.max_attempts));
                }
                Err(e) => return Err(e.to_string()),
            }
        }
        Err("no attempt was made".to_string())
    }
}
