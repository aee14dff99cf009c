//! Running one step's task: mocks, `forEach` with bounded concurrency, `loop`, and each tool
//! call's timeout and retries.

use super::{MAX_FOR_EACH_ITEMS, Mocks};
use crate::compile::{Plan, PlannedStep, StepKind};
use crate::control::{LOOP_DEFAULT_MAX, LOOP_HARD_MAX};
use crate::events::{EventSink, RunEvent};
use crate::inputs::Inputs;
use crate::model::RetryPolicy;
use crate::scope::{Context, Locals, Scope};
use crate::template::Template;
use crate::tool::{Registry, Tool, ToolCall, ToolError, ToolOutput, Usage};
use futures_util::StreamExt;
use serde_json::{Value, json};
use std::borrow::Cow;
use std::sync::Arc;
use std::time::Duration;

/// A successful step.
pub(crate) struct Success {
    pub(crate) output: Value,
    pub(crate) usage: Option<Usage>,
    pub(crate) backend: Option<String>,
}

impl From<ToolOutput> for Success {
    fn from(o: ToolOutput) -> Self {
        Success {
            output: o.output,
            usage: o.usage,
            backend: o.backend,
        }
    }
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
}

impl StepTask {
    fn step(&self) -> &PlannedStep {
        &self.plan.steps[self.index]
    }

    pub(crate) async fn execute(&self) -> Result<Success, String> {
        let step = self.step();
        if let Some(mock) = self.mocks.for_step(&step.id, &step.tool) {
            // Inputs are still resolved, so a mocked run exercises the templates too.
            resolve_inputs(&step.inputs, &self.scope)?;
            return Ok(Success {
                output: mock.clone(),
                usage: None,
                backend: Some("mock".into()),
            });
        }
        if let StepKind::Loop { var, tool, inputs } = &step.kind {
            return self.run_loop(var, tool, inputs).await;
        }
        let tool = self.tool(&step.tool)?;
        match &step.for_each {
            None => {
                let inputs = resolve_inputs(&step.inputs, &self.scope)?;
                self.call(tool, inputs, &self.scope)
                    .await
                    .map(Success::from)
            }
            Some(for_each) => self.run_for_each(tool, for_each).await,
        }
    }

    fn tool(&self, name: &str) -> Result<&Arc<dyn Tool>, String> {
        self.registry
            .tool(name)
            .ok_or_else(|| format!("tool \"{name}\" is not available in this build"))
    }

    async fn run_for_each(
        &self,
        tool: &Arc<dyn Tool>,
        for_each: &Template,
    ) -> Result<Success, String> {
        let step = self.step();
        let items = match for_each.resolve(&self.scope) {
            Some(Value::Array(items)) => items,
            other => {
                return Err(format!(
                    "forEach did not resolve to an array (got {})",
                    other.map_or("undefined".to_string(), |v| crate::value::truncate_chars(
                        &v.to_string(),
                        60
                    ))
                ));
            }
        };
        if items.len() > MAX_FOR_EACH_ITEMS {
            return Err(format!(
                "forEach has {} items; the limit is {MAX_FOR_EACH_ITEMS}",
                items.len()
            ));
        }
        let count = items.len();
        let calls = items
            .into_iter()
            .enumerate()
            .map(|(index, item)| async move {
                let index_value = json!(index);
                let locals = [("item", &item), ("index", &index_value)];
                let scope = Locals::new(&self.scope, &locals);
                let inputs = resolve_inputs(&step.inputs, &scope)?;
                self.call(tool, inputs, &scope)
                    .await
                    .map_err(|e| format!("item {index}: {e}"))
            });
        let mut results = Vec::with_capacity(count);
        let mut usage = Usage::default();
        let mut backend = None;
        let mut stream =
            futures_util::stream::iter(calls).buffered(step.for_each_concurrency.max(1));
        while let Some(out) = stream.next().await {
            let out = out?;
            if let Some(u) = &out.usage {
                usage.add(u);
            }
            backend = backend.or(out.backend);
            results.push(out.output);
        }
        Ok(Success {
            output: json!({"results": results, "count": count}),
            usage: (usage != Usage::default()).then_some(usage),
            backend,
        })
    }

    async fn run_loop(
        &self,
        var: &str,
        tool_name: &str,
        inner: &Template,
    ) -> Result<Success, String> {
        let step = self.step();
        let inputs = resolve_inputs(&step.inputs, &self.scope)?;
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
            let outcome = match (mock, tool) {
                (Some(m), _) => resolve_inputs(inner, &scope).map(|_| ToolOutput::new(m.clone())),
                (None, Some(tool)) => match resolve_inputs(inner, &scope) {
                    Ok(inputs) => self.call(tool, inputs, &scope).await,
                    Err(e) => Err(e),
                },
                (None, None) => unreachable!("a loop has either a mock or a tool"),
            };
            match outcome {
                Ok(out) => {
                    if let Some(u) = &out.usage {
                        usage.add(u);
                    }
                    backend = backend.or(out.backend);
                    results.push(out.output);
                }
                Err(error) => errors.push(json!({"index": index, "error": error})),
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
        })
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

/// A template's value, borrowed from the template or the scope where it can be.
fn borrowed<'a>(template: &'a Template, scope: &'a dyn Scope) -> Option<Cow<'a, Value>> {
    match template {
        Template::Literal(v) => Some(Cow::Borrowed(v)),
        Template::Sole(expr) => expr.eval_cow(scope),
        other => other.resolve(scope).map(Cow::Owned),
    }
}

/// Resolve a step's input template to the inputs a tool receives. Literal values and values a
/// sole template reads from the context are borrowed, not copied.
fn resolve_inputs<'a>(template: &'a Template, scope: &'a dyn Scope) -> Result<Inputs<'a>, String> {
    let mut inputs = Inputs::new();
    match template {
        Template::Literal(Value::Object(map)) => {
            for (k, v) in map {
                inputs.insert(k.clone(), Cow::Borrowed(v));
            }
        }
        Template::Object(entries) => {
            for (k, t) in entries {
                match t {
                    // A list of templates (`["{{ a.output }}", "{{ b.output }}"]`) is kept as
                    // borrowed members, so tools such as merge copy only what they keep.
                    Template::Array(items)
                        if items
                            .iter()
                            .all(|i| matches!(i, Template::Sole(_) | Template::Literal(_))) =>
                    {
                        let members = items
                            .iter()
                            .map(|i| borrowed(i, scope).unwrap_or(Cow::Owned(Value::Null)))
                            .collect();
                        inputs.insert_list(k.clone(), members);
                    }
                    other => {
                        if let Some(v) = borrowed(other, scope) {
                            inputs.insert(k.clone(), v);
                        }
                    }
                }
            }
        }
        other => match other.resolve(scope) {
            Some(Value::Object(map)) => inputs = map.into(),
            None => {}
            Some(v) => return Err(format!("inputs resolved to {v}, not an object")),
        },
    }
    Ok(inputs)
}
