//! The `Tool` trait every step tool implements, its declaration (`ToolSpec`), and the registry.

use crate::inputs::Inputs;
use crate::limits::{Budget, Limit, LimitError, Limits};
use crate::scope::{Locals, Scope};
use crate::template::{Condition, Template};
use serde::Serialize;
use serde_json::{Map, Value};
use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

/// The future a tool returns.
pub type ToolFuture<'a> = Pin<Box<dyn Future<Output = Result<ToolOutput, ToolError>> + Send + 'a>>;

/// A step tool. Implementations live in the `vai-tools` crate (and, for `conditional` and `loop`,
/// in the executor itself, which only borrows their declarations).
pub trait Tool: Send + Sync + 'static {
    fn spec(&self) -> &ToolSpec;
    fn run<'a>(&'a self, call: ToolCall<'a>) -> ToolFuture<'a>;
}

/// Node colour group (DESIGN §2.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, schemars::JsonSchema)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Category {
    Retrieval,
    Embedding,
    Management,
    Utility,
    ControlFlow,
    Generation,
    Integration,
}

impl Category {
    pub fn colour(self) -> &'static str {
        match self {
            Category::Retrieval => "#40E0FF",
            Category::Embedding => "#B388FF",
            Category::Management => "#00D4AA",
            Category::Utility => "#FFB74D",
            Category::ControlFlow => "#90A4AE",
            Category::Generation => "#69F0AE",
            Category::Integration => "#F5A623",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Category::Retrieval => "Retrieval",
            Category::Embedding => "Embedding",
            Category::Management => "Management",
            Category::Utility => "Utility",
            Category::ControlFlow => "Control flow",
            Category::Generation => "Generation",
            Category::Integration => "Integration",
        }
    }
}

/// How the engine treats an input whose value is evaluated by the tool itself, per element,
/// with extra local names in scope (`item`, `index`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DeferredKind {
    /// A condition string (`item.score >= {{ inputs.min }}`), evaluated to a boolean.
    Condition,
    /// Any JSON holding templates (`{"title": "{{ item.name }}"}`), resolved per element.
    Template,
}

/// An input the engine must not resolve up front.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct DeferredInput {
    pub name: &'static str,
    pub kind: DeferredKind,
    /// Local names the tool binds when it evaluates this input.
    pub locals: &'static [&'static str],
}

/// Everything the engine, the CLI, the builder and the docs know about a tool: declared once.
#[derive(Debug, Clone, Serialize)]
pub struct ToolSpec {
    pub name: &'static str,
    /// Short human label ("Vector search").
    pub label: &'static str,
    pub category: Category,
    /// Icon name (Material icon identifiers, e.g. "Search"), used by the playground.
    pub icon: &'static str,
    /// One-line description.
    pub description: &'static str,
    /// Longer help: what it does and how, shown in the inspector and in `docs/workflows.md`.
    pub help: &'static str,
    /// JSON Schema (draft 2020-12) of the `inputs` object; `required` lists required inputs.
    pub input_schema: Value,
    /// Output field names and a one-line description each, in order.
    pub outputs: &'static [(&'static str, &'static str)],
    /// Inputs the tool evaluates itself per element.
    pub deferred: &'static [DeferredInput],
    /// The input whose value best summarises a node ("query", "text", …).
    pub main_input: Option<&'static str>,
    /// Which provider calls one run of this tool makes, for `--dry-run` estimates.
    pub api_calls: ApiCalls,
}

impl ToolSpec {
    pub fn colour(&self) -> &'static str {
        self.category.colour()
    }

    /// Names listed in the schema's `required` array.
    pub fn required_inputs(&self) -> Vec<&str> {
        self.input_schema
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default()
    }

    pub fn deferred(&self, name: &str) -> Option<&DeferredInput> {
        self.deferred.iter().find(|d| d.name == name)
    }
}

/// Provider calls made by one execution of a tool (an estimate for dry runs).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct ApiCalls {
    pub embed: u32,
    pub rerank: u32,
    pub vector_search: u32,
    pub llm: u32,
    pub http: u32,
}

/// What a tool returns: its output (stored in the run context) and bookkeeping for events.
#[derive(Debug, Clone, Default)]
pub struct ToolOutput {
    pub output: Value,
    pub usage: Option<Usage>,
    /// Which backend served the call ("voyage", "mongodb", "local", "anthropic", …).
    pub backend: Option<String>,
    /// The output's JSON size, when the tool built all of it within its call's budget
    /// ([`ToolCall::built`]); otherwise the engine measures the output itself.
    pub size: Option<u64>,
}

impl ToolOutput {
    pub fn new(output: Value) -> Self {
        Self {
            output,
            usage: None,
            backend: None,
            size: None,
        }
    }
}

/// Token and request counts a tool reports for cost display. Never stored in the context.
#[derive(Debug, Clone, Default, PartialEq, Serialize, serde::Deserialize, schemars::JsonSchema)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Usage {
    #[serde(skip_serializing_if = "is_zero")]
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(optional, type = "number"))]
    pub embed_tokens: u64,
    #[serde(skip_serializing_if = "is_zero")]
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(optional, type = "number"))]
    pub rerank_tokens: u64,
    #[serde(skip_serializing_if = "is_zero")]
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(optional, type = "number"))]
    pub llm_input_tokens: u64,
    #[serde(skip_serializing_if = "is_zero")]
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(optional, type = "number"))]
    pub llm_output_tokens: u64,
    #[serde(skip_serializing_if = "is_zero")]
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(optional, type = "number"))]
    pub requests: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl Usage {
    pub fn add(&mut self, other: &Usage) {
        self.embed_tokens += other.embed_tokens;
        self.rerank_tokens += other.rerank_tokens;
        self.llm_input_tokens += other.llm_input_tokens;
        self.llm_output_tokens += other.llm_output_tokens;
        self.requests += other.requests;
    }
}

/// Why a tool failed.
#[derive(Debug, Clone, thiserror::Error)]
pub enum ToolError {
    /// An input is missing or has the wrong shape; never retried.
    #[error("{tool}: input \"{field}\" {message}")]
    InvalidInput {
        tool: &'static str,
        field: String,
        message: String,
    },
    /// A provider, service or setting is not configured; the message says how to configure it.
    #[error("{0}")]
    NotConfigured(String),
    /// A transient failure (rate limit, 5xx, network, timeout): `retry` may try again.
    #[error("{message}")]
    Transient {
        message: String,
        retry_after: Option<Duration>,
    },
    /// A value the tool was building ran into a limit (`LIMIT_EXCEEDED`); never retried.
    #[error("{0}")]
    Limit(#[from] LimitError),
    /// Any other failure.
    #[error("{0}")]
    Failed(String),
}

impl ToolError {
    pub fn invalid(
        tool: &'static str,
        field: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        ToolError::InvalidInput {
            tool,
            field: field.into(),
            message: message.into(),
        }
    }

    pub fn required(tool: &'static str, field: impl Into<String>) -> Self {
        Self::invalid(tool, field, "is required")
    }

    /// A limit hit while making the value of `field`.
    pub fn limit(field: impl Into<String>, limit: Limit) -> Self {
        ToolError::Limit(LimitError::new(field, limit))
    }

    pub fn is_transient(&self) -> bool {
        matches!(self, ToolError::Transient { .. })
    }
}

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
        }
    }

    /// The same call within other limits (tests of the limits).
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self.budget = limits.step_budget();
        self
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

/// The tools a run may use, by name.
#[derive(Clone, Default)]
pub struct Registry {
    tools: BTreeMap<&'static str, Arc<dyn Tool>>,
    specs: BTreeMap<&'static str, Arc<ToolSpec>>,
}

impl Registry {
    pub fn new() -> Self {
        let mut registry = Self::default();
        for spec in crate::control::specs() {
            registry.specs.insert(spec.name, Arc::new(spec));
        }
        registry
    }

    pub fn register(&mut self, tool: Arc<dyn Tool>) {
        let spec = Arc::new(tool.spec().clone());
        self.specs.insert(spec.name, spec);
        self.tools.insert(tool.spec().name, tool);
    }

    pub fn tool(&self, name: &str) -> Option<&Arc<dyn Tool>> {
        self.tools.get(name)
    }

    pub fn spec(&self, name: &str) -> Option<&ToolSpec> {
        self.specs.get(name).map(|s| s.as_ref())
    }

    pub fn specs(&self) -> impl Iterator<Item = &ToolSpec> {
        self.specs.values().map(|s| s.as_ref())
    }

    pub fn names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.specs.keys().copied()
    }
}

impl fmt::Debug for Registry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.specs.keys()).finish()
    }
}
