//! The steps that call their tool many times: `forEach` (one call per element, with bounded
//! concurrency) and `loop` (one call per item, in order). Each call's output is measured as it
//! arrives against one step output budget, so an oversized result stops the step early.

use super::durable::Entry;
use super::execute::Callee;
use super::resolve::{borrowed, resolve_inputs};
use super::step::{Outcome, StepTask, Success};
use crate::RunEvent;
use crate::control::{LOOP_DEFAULT_MAX, LOOP_HARD_MAX};
use crate::inputs::{Inputs, JoinGuard};
use crate::limits::LimitError;
use crate::scope::Locals;
use crate::template::Template;
use crate::tool::{ToolOutput, Usage};
use futures_util::StreamExt;
use serde_json::{Value, json};

/// Most elements a `forEach` may iterate over.
pub const MAX_FOR_EACH_ITEMS: usize = 10_000;

impl StepTask {
    pub(super) async fn run_for_each(&self, callee: Callee<'_>, for_each: &Template) -> Outcome {
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
        // Items an earlier run of this step completed are not run again.
        let done = self
            .frame
            .replay
            .as_ref()
            .and_then(|r| r.items.get(&step.id));
        // By index: a closure taking `&Value` would tie each future to one borrow, which the
        // spawned task's `Send` bound cannot express.
        let calls = (0..count).map(|index| async move {
            if let Some(output) = done.and_then(|d| d.get(&index)) {
                let out = ToolOutput {
                    backend: Some("journal".into()),
                    ..ToolOutput::new(output.clone())
                };
                return (Ok((out, true)), None);
            }
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
            let result = match callee {
                Callee::Tool(tool) => {
                    let began = std::time::Instant::now();
                    let result = self.call_guarded(tool, inputs, &scope, &guard).await;
                    self.sink.emit(RunEvent::ItemEnded {
                        step_id: step.id.clone(),
                        index,
                        duration_ms: began.elapsed().as_millis() as u64,
                        error: result.as_ref().err().cloned(),
                    });
                    result
                }
                Callee::Child => self.run_child(&inputs, Some(index)).await,
            }
            .map(|out| (out, false))
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
            let (out, replayed) = match out {
                Ok(out) => out,
                Err(e) => {
                    failure = Some(e);
                    break;
                }
            };
            if !replayed && let Some(journal) = &self.frame.journal {
                journal.record(Entry::Item {
                    id: &step.id,
                    index: results.len(),
                    output: &out.output,
                });
            }
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

    pub(super) async fn run_loop(&self, var: &str, tool_name: &str, inner: &Template) -> Outcome {
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
        // Items an earlier run of this step completed are not run again.
        let done = self
            .frame
            .replay
            .as_ref()
            .and_then(|r| r.items.get(&self.step().id));
        for (index, item) in items.iter().take(max).enumerate() {
            if let Some(output) = done.and_then(|d| d.get(&index)) {
                output_budget.measure(output, 2).map_err(|l| {
                    LimitError::new(format!("output.results[{}]", results.len()), l).to_string()
                })?;
                results.push(output.clone());
                continue;
            }
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
                    if let Some(journal) = &self.frame.journal {
                        journal.record(Entry::Item {
                            id: &self.step().id,
                            index,
                            output: &out.output,
                        });
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
}
