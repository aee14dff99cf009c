//! Running one step's task: mocks, `forEach` with bounded concurrency, `loop`, and each tool
//! call's timeout and retries. Each step output is measured against the step output limit
//! before it leaves the task (a `forEach` or `loop` iteration by iteration, so an oversized
//! one stops early), and, when the run captures them, the inputs each call was given are
//! recorded as they were passed.

use super::resolve::{borrowed, resolve_inputs};
use super::{MAX_FOR_EACH_ITEMS, Mocks};
use crate::compile::{Plan, PlannedStep, StepKind};
use crate::control::{LOOP_DEFAULT_MAX, LOOP_HARD_MAX};
use crate::events::{EventSink, RunEvent};
use crate::inputs::{Inputs, JoinGuard};
use crate::limits::{self, Budget, Limit, LimitError, Limits};
use crate::model::RetryPolicy;
use crate::scope::{Context, Locals, Scope};
use crate::template::Template;
use crate::tool::{Registry, Tool, ToolCall, ToolError, ToolOutput, Usage};
use futures_util::StreamExt;
use serde_json::{Value, json};
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
    /// A step output, once it is known to fit the step output limit and the nesting bound.
    pub(crate) fn checked(
        output: Value,
        usage: Option<Usage>,
        backend: Option<String>,
        limits: &Limits,
    ) -> Result<Success, String> {
        let limit = Limit::StepOutputBytes(limits.step_output_bytes);
        let bytes = limits::measure(&output, 0, limit)
            .map_err(|l| LimitError::new("output", l).to_string())?;
        Ok(Success {
            output,
            usage,
            backend,
            bytes,
        })
    }
}

/// How a step's task ended, and the inputs it ran with (when the run records them).
pub(crate) type Outcome = (Result<Success, String>, Option<Value>);

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
}

impl StepTask {
    fn step(&self) -> &PlannedStep {
        &self.plan.steps[self.index]
    }

    pub(crate) async fn execute(&self) -> Outcome {
        let step = self.step();
        if let Some(mock) = self.mocks.for_step(&step.id, &step.tool) {
            // Inputs are still resolved, so a mocked run exercises the templates too.
            let guard = JoinGuard::new(&self.limits);
            return match resolve_inputs(&step.inputs, &self.scope, &self.limits, &guard) {
                Ok(inputs) => {
                    let recorded = self.record(&inputs);
                    let result =
                        Success::checked(mock.clone(), None, Some("mock".into()), &self.limits);
                    (result, recorded)
                }
                Err(e) => (Err(e), None),
            };
        }
        if let StepKind::Loop { var, tool, inputs } = &step.kind {
            return self.run_loop(var, tool, inputs).await;
        }
        let tool = match self.tool(&step.tool) {
            Ok(tool) => tool,
            Err(e) => return (Err(e), None),
        };
        match &step.for_each {
            None => {
                let guard = JoinGuard::new(&self.limits);
                let inputs = match resolve_inputs(&step.inputs, &self.scope, &self.limits, &guard) {
                    Ok(inputs) => inputs,
                    Err(e) => return (Err(e), None),
                };
                let recorded = self.record(&inputs);
                let result = self
                    .call_guarded(tool, inputs, &self.scope, &guard)
                    .await
                    .and_then(|o| Success::checked(o.output, o.usage, o.backend, &self.limits));
                (result, recorded)
            }
            Some(for_each) => self.run_for_each(tool, for_each).await,
        }
    }

    fn tool(&self, name: &str) -> Result<&Arc<dyn Tool>, String> {
        self.registry
            .tool(name)
            .ok_or_else(|| format!("tool \"{name}\" is not available in this build"))
    }

    /// A copy of `inputs` for the inspector, when the run records inputs.
    fn record(&self, inputs: &Inputs<'_>) -> Option<Value> {
        let budget = self.record.as_ref()?;
        Some(
            inputs
                .record(budget)
                .unwrap_or_else(|_| Value::String(NOT_RECORDED.into())),
        )
    }

    async fn run_for_each(&self, tool: &Arc<dyn Tool>, for_each: &Template) -> Outcome {
        let step = self.step();
        let budget = self.limits.value_budget();
        // Borrowed from the context: iterating over a step's results copies none of them.
        let items = match borrowed(for_each, &self.scope, &budget) {
            Ok(items) => items,
            Err(l) => return (Err(LimitError::new("forEach", l).to_string()), None),
        };
        let items = match items.as_deref() {
            Some(Value::Array(items)) => items,
            other => {
                let got = other.map_or("undefined".to_string(), |v| {
                    crate::value::truncate_chars(&v.to_string(), 60)
                });
                return (
                    Err(format!("forEach did not resolve to an array (got {got})")),
                    None,
                );
            }
        };
        if items.len() > MAX_FOR_EACH_ITEMS {
            let error = format!(
                "forEach has {} items; the limit is {MAX_FOR_EACH_ITEMS}",
                items.len()
            );
            return (Err(error), None);
        }
        let count = items.len();
        // By index: a closure taking `&Value` would tie each future to one borrow, which the
        // spawned task's `Send` bound cannot express.
        let calls = (0..count).map(|index| async move {
            let item = &items[index];
            let index_value = json!(index);
            let locals = [("item", item), ("index", &index_value)];
            let scope = Locals::new(&self.scope, &locals);
            let guard = JoinGuard::new(&self.limits);
            let inputs = match resolve_inputs(&step.inputs, &scope, &self.limits, &guard) {
                Ok(inputs) => inputs,
                Err(e) => return (Err(format!("item {index}: {e}")), None),
            };
            let recorded = self.record(&inputs);
            let result = self
                .call_guarded(tool, inputs, &scope, &guard)
                .await
                .map_err(|e| format!("item {index}: {e}"));
            (result, recorded)
        });
        let output_budget = self.limits.step_budget();
        let mut results = Vec::with_capacity(count);
        let mut recorded = Vec::new();
        let mut usage = Usage::default();
        let mut backend = None;
        let mut stream =
            futures_util::stream::iter(calls).buffered(step.for_each_concurrency.max(1));
        let mut failure = None;
        while let Some((out, inputs)) = stream.next().await {
            recorded.extend(inputs);
            let out = match out {
                Ok(out) => out,
                Err(e) => {
                    failure = Some(e);
                    break;
                }
            };
            // Each result sits two levels down: `{results: [result]}`.
            if let Err(l) = output_budget.measure(&out.output, 2) {
                let field = format!("output.results[{}]", results.len());
                failure = Some(LimitError::new(field, l).to_string());
                break;
            }
            if let Some(u) = &out.usage {
                usage.add(u);
            }
            backend = backend.or(out.backend);
            results.push(out.output);
        }
        let recorded = self.record.is_some().then_some(Value::Array(recorded));
        if let Some(error) = failure {
            return (Err(error), recorded);
        }
        let success = Success {
            output: json!({"results": results, "count": count}),
            usage: (usage != Usage::default()).then_some(usage),
            backend,
            bytes: output_budget.used() + 30,
        };
        (Ok(success), recorded)
    }

    async fn run_loop(&self, var: &str, tool_name: &str, inner: &Template) -> Outcome {
        let step = self.step();
        let guard = JoinGuard::new(&self.limits);
        let inputs = match resolve_inputs(&step.inputs, &self.scope, &self.limits, &guard) {
            Ok(inputs) => inputs,
            Err(e) => return (Err(e), None),
        };
        let recorded = self.record(&inputs);
        let result = self.iterate(var, tool_name, inner, &inputs).await;
        match guard.tripped() {
            Some(e) => (Err(e.to_string()), recorded),
            None => (result, recorded),
        }
    }

    /// A loop's iterations over its resolved `items`.
    async fn iterate(
        &self,
        var: &str,
        tool_name: &str,
        inner: &Template,
        inputs: &Inputs<'_>,
    ) -> Result<Success, String> {
        let items = match inputs.get("items") {
            Some(Value::Array(items)) => items,
            other => {
                return Err(format!(
                    "loop: \"items\" must resolve to an array (got {})",
                    other.map_or("undefined".to_string(), |v| crate::value::truncate_chars(
                        &v.to_string(),
                        60
                    ))
                ));
            }
        };
        let max = match inputs.get("maxIterations") {
            None | Some(Value::Null) => LOOP_DEFAULT_MAX,
            Some(v) => match v
                .as_f64()
                .or_else(|| v.as_str().and_then(|s| s.trim().parse().ok()))
            {
                Some(n) if n >= 1.0 && n <= LOOP_HARD_MAX as f64 => n as u64,
                _ => {
                    return Err(format!(
                        "loop: \"maxIterations\" must be a whole number from 1 to {LOOP_HARD_MAX}, got {v}"
                    ));
                }
            },
        } as usize;
        let mock = self.mocks.by_tool.get(tool_name);
        let tool = match mock {
            Some(_) => None,
            None => Some(self.tool(tool_name)?),
        };
        let output_budget = self.limits.step_budget();
        let mut results = Vec::new();
        let mut errors = Vec::new();
        let mut usage = Usage::default();
        let mut backend = None;
        for (index, item) in items.iter().take(max).enumerate() {
            let index_value = json!(index);
            let locals = [
                (var, item),
                ("item", item),
                ("index", &index_value),
                ("_loopIndex", &index_value),
            ];
            let scope = Locals::new(&self.scope, &locals);
            let guard = JoinGuard::new(&self.limits);
            let outcome = match (mock, tool) {
                (Some(m), _) => resolve_inputs(inner, &scope, &self.limits, &guard)
                    .map(|_| ToolOutput::new(m.clone())),
                (None, Some(tool)) => match resolve_inputs(inner, &scope, &self.limits, &guard) {
                    Ok(inputs) => self.call_guarded(tool, inputs, &scope, &guard).await,
                    Err(e) => Err(e),
                },
                (None, None) => unreachable!("a loop has either a mock or a tool"),
            };
            match outcome {
                Ok(out) => {
                    // Each result sits two levels down: `{results: [result]}`.
                    output_budget.measure(&out.output, 2).map_err(|l| {
                        LimitError::new(format!("output.results[{}]", results.len()), l).to_string()
                    })?;
                    if let Some(u) = &out.usage {
                        usage.add(u);
                    }
                    backend = backend.or(out.backend);
                    results.push(out.output);
                }
                Err(error) => {
                    output_budget
                        .charge(error.len() as u64 + 30)
                        .map_err(|l| LimitError::new("output.errors", l).to_string())?;
                    errors.push(json!({"index": index, "error": error}));
                }
            }
        }
        if items.len() > max {
            errors.push(
                json!({"index": max, "error": format!("Loop truncated at maxIterations ({max})")}),
            );
        }
        Ok(Success {
            output: json!({"iterations": results.len(), "results": results, "errors": errors}),
            usage: (usage != Usage::default()).then_some(usage),
            backend,
            bytes: output_budget.used() + 80,
        })
    }

    /// One tool call on inputs whose lists join within `guard`: a list the tool joined past the
    /// value limit fails the call, whatever the tool made of the `null` it got instead.
    async fn call_guarded(
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
