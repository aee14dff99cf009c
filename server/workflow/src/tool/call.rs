//! One invocation of a tool: its resolved inputs, the deferred inputs it evaluates itself, the
//! budget within which it builds its output, and (an agent's) what it may call in turn.

use super::calls::Calls;
use super::outcome::{ToolError, ToolOutput};
use crate::events::{EventSink, RunEvent};
use crate::inputs::Inputs;
use crate::limits::{Budget, Limits};
use crate::scope::{Locals, Scope};
use crate::template::{Condition, Template};
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::fmt;

/// One invocation of a tool: resolved inputs plus access to deferred inputs.
pub struct ToolCall<'a> {
    pub step_id: &'a str,
    /// Inputs with every template resolved (deferred inputs are absent here).
    pub inputs: Inputs<'a>,
    /// The workflow's `defaults` (with CLI `--db`/`--collection` applied).
    pub defaults: &'a Value,
    pub(crate) deferred: &'a HashMap<String, DeferredValue>,
    pub(crate) scope: &'a dyn Scope,
    pub(crate) limits: Limits,
    /// What the tool may build for its output (fresh for every call).
    pub(crate) budget: Budget,
    /// Where [`ToolCall::stream_text`] reports (none outside a run).
    pub(crate) sink: Option<&'a dyn EventSink>,
    /// What the step may call (a step whose tool names callees, within a run).
    pub(crate) calls: Option<&'a dyn Calls>,
}

/// A parsed deferred input.
#[derive(Debug, Clone)]
pub enum DeferredValue {
    Condition(Condition),
    Template(Template),
}

impl<'a> ToolCall<'a> {
    /// A call with no deferred inputs, for tests and for tools invoked outside a run.
    pub fn standalone(
        step_id: &'a str,
        inputs: Map<String, Value>,
        defaults: &'a Value,
        scope: &'a dyn Scope,
    ) -> Self {
        static EMPTY: std::sync::OnceLock<HashMap<String, DeferredValue>> =
            std::sync::OnceLock::new();
        Self {
            step_id,
            inputs: inputs.into(),
            defaults,
            deferred: EMPTY.get_or_init(HashMap::new),
            scope,
            limits: Limits::DEFAULT,
            budget: Limits::DEFAULT.step_budget(),
            sink: None,
            calls: None,
        }
    }

    /// The same call within other limits (tests of the limits).
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self.budget = limits.step_budget();
        self
    }

    /// The same call able to call what `calls` offers (tests of tools that call tools).
    pub fn with_calls(mut self, calls: &'a dyn Calls) -> Self {
        self.calls = Some(calls);
        self
    }

    /// What the step may call: the tools and workflows it names (see [`Calls`]); `None`
    /// outside a run, and for a step whose tool names none.
    pub fn calls(&self) -> Option<&'a dyn Calls> {
        self.calls
    }

    /// Build a call with deferred inputs parsed from raw JSON (used by tests of deferred tools).
    pub fn with_deferred(
        step_id: &'a str,
        inputs: Map<String, Value>,
        defaults: &'a Value,
        deferred: &'a HashMap<String, DeferredValue>,
        scope: &'a dyn Scope,
    ) -> Self {
        Self {
            step_id,
            inputs: inputs.into(),
            defaults,
            deferred,
            scope,
            limits: Limits::DEFAULT,
            budget: Limits::DEFAULT.step_budget(),
            sink: None,
            calls: None,
        }
    }

    /// Report the next piece of the text this step is writing (`step_text`), so the canvas
    /// and the inspector show it while the step runs. Nothing happens outside a run.
    pub fn stream_text(&self, delta: &str) {
        if let Some(sink) = self.sink.filter(|_| !delta.is_empty()) {
            sink.emit(RunEvent::StepText {
                step_id: self.step_id.to_string(),
                delta: delta.to_string(),
            });
        }
    }

    pub fn input(&self, name: &str) -> Option<&Value> {
        self.inputs.get(name).filter(|v| !v.is_null())
    }

    pub fn str_input(&self, name: &str) -> Option<&str> {
        self.input(name).and_then(Value::as_str)
    }

    pub fn has_deferred(&self, name: &str) -> bool {
        self.deferred.contains_key(name)
    }

    /// The run's limits.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The budget of what this call builds for its output. Tools that copy or create more than
    /// they were given charge it as they go, so an oversized output is refused before it is made.
    pub fn budget(&self) -> &Budget {
        &self.budget
    }

    /// Account for `bytes` of the output field `field` about to be built.
    pub fn charge(&self, field: &str, bytes: u64) -> Result<(), ToolError> {
        self.budget
            .charge(bytes)
            .map_err(|l| ToolError::limit(field, l))
    }

    /// A copy of `value` for the output field `field`, where it will sit `depth` levels deep
    /// (`results[i]` is 2), charged to the call's budget and refused when it would nest the
    /// output deeper than [`MAX_DEPTH`](crate::limits::MAX_DEPTH).
    pub fn copy(&self, field: &str, value: &Value, depth: usize) -> Result<Value, ToolError> {
        self.budget
            .copy(value, depth)
            .map_err(|l| ToolError::limit(field, l))
    }

    /// Copies of `values` for the output field `field`, each sitting `depth` levels deep:
    /// measured together and charged once, then copied (nothing is, when they do not fit).
    pub fn copy_all(
        &self,
        field: &str,
        values: &[&Value],
        depth: usize,
    ) -> Result<Vec<Value>, ToolError> {
        self.budget
            .copy_all(values, depth)
            .map_err(|l| ToolError::limit(field, l))
    }

    /// `output`, every part of which was charged to this call's budget (copies at their true
    /// depth, the structure around them with [`ToolCall::charge`]): its size is what was
    /// charged, and the engine takes it instead of walking the output again.
    pub fn built(&self, output: Value) -> ToolOutput {
        ToolOutput {
            size: Some(self.budget.used()),
            ..ToolOutput::new(output)
        }
    }

    /// Evaluate a deferred condition input with `locals` bound; `None` when the input is absent.
    pub fn eval_condition(
        &self,
        name: &str,
        locals: &[(&str, &Value)],
    ) -> Result<Option<bool>, ToolError> {
        let scope = Locals::new(self.scope, locals);
        let budget = self.limits.value_budget();
        let held = match self.deferred.get(name) {
            None => return Ok(None),
            Some(DeferredValue::Condition(c)) => c.eval(&scope, &budget),
            Some(DeferredValue::Template(t)) => t
                .resolve(&scope, &budget)
                .map(|v| crate::value::truthy_opt(v.as_ref())),
        };
        held.map(Some)
            .map_err(|l| ToolError::limit(format!("inputs.{name}"), l))
    }

    /// Resolve a deferred template input with `locals` bound; `None` when absent or undefined.
    /// The value is charged to the call's budget: it becomes part of the output.
    pub fn resolve_deferred(
        &self,
        name: &str,
        locals: &[(&str, &Value)],
    ) -> Result<Option<Value>, ToolError> {
        match self.deferred.get(name) {
            None => Ok(None),
            Some(DeferredValue::Template(t)) => {
                self.resolve_with(&format!("inputs.{name}"), t, locals)
            }
            Some(DeferredValue::Condition(_)) => self
                .eval_condition(name, locals)
                .map(|b| b.map(Value::Bool)),
        }
    }

    /// The deferred input's template, to walk object-shaped inputs such as `transform.mapping`.
    pub fn deferred_template(&self, name: &str) -> Option<&Template> {
        match self.deferred.get(name)? {
            DeferredValue::Template(t) => Some(t),
            DeferredValue::Condition(_) => None,
        }
    }

    /// Resolve any template (the value of input `field`) with `locals` bound over the run
    /// context: within the value limit, and charged to the call's budget.
    pub fn resolve_with(
        &self,
        field: &str,
        template: &Template,
        locals: &[(&str, &Value)],
    ) -> Result<Option<Value>, ToolError> {
        let budget = self.limits.value_budget();
        let value = template
            .resolve(&Locals::new(self.scope, locals), &budget)
            .and_then(|v| self.budget.charge(budget.used()).map(|()| v))
            .map_err(|l| ToolError::limit(field, l))?;
        Ok(value)
    }
}

impl fmt::Debug for ToolCall<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolCall")
            .field("step_id", &self.step_id)
            .field("inputs", &self.inputs)
            .finish_non_exhaustive()
    }
}
