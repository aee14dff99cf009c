//! The `Tool` trait every step tool implements, its declaration (`ToolSpec`), and the registry.

use crate::input_schema::InputSchema;
use crate::limits::{Limit, LimitError};
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

mod call;

pub use call::{DeferredValue, ToolCall};

/// The future a tool returns.
pub type ToolFuture<'a> = Pin<Box<dyn Future<Output = Result<ToolOutput, ToolError>> + Send + 'a>>;

/// A step tool. Implementations live in the `vai-tools` crate (and, for `conditional` and `loop`,
/// in the executor itself, which only borrows their declarations).
pub trait Tool: Send + Sync + 'static {
    fn spec(&self) -> &ToolSpec;
    fn run<'a>(&'a self, call: ToolCall<'a>) -> ToolFuture<'a>;
}

/// Runs `tool` once on `inputs` outside any workflow run — no workflow defaults, no other steps
/// to reference — within `limits`: a call from a chat agent, an MCP client or a CLI command.
/// `caller` stands where a step id would in the tool's messages.
pub async fn run_alone(
    tool: &dyn Tool,
    caller: &str,
    inputs: serde_json::Map<String, Value>,
    limits: crate::limits::Limits,
) -> Result<ToolOutput, ToolError> {
    let defaults = Value::Object(serde_json::Map::new());
    let scope = crate::scope::Context::new();
    let call = ToolCall::standalone(caller, inputs, &defaults, &scope).with_limits(limits);
    tool.run(call).await
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
    /// Every category, in the order the palette, the catalog and docs/tools.md list them: the
    /// pipeline's own order (find, embed, manage, generate), then control flow, utilities and
    /// integrations.
    pub const ALL: [Category; 7] = [
        Category::Retrieval,
        Category::Embedding,
        Category::Management,
        Category::Generation,
        Category::ControlFlow,
        Category::Utility,
        Category::Integration,
    ];

    /// Where this category comes in [`Category::ALL`].
    pub fn rank(self) -> usize {
        Category::ALL
            .iter()
            .position(|c| *c == self)
            .unwrap_or(Category::ALL.len())
    }

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
    /// The `inputs` object: every input with its type, bounds, widget hint and default — the
    /// default the tool itself reads (`vai_tools::args`); `required` lists required inputs.
    pub input_schema: InputSchema,
    /// Output field names and a one-line description each, in order.
    pub outputs: &'static [(&'static str, &'static str)],
    /// Inputs the tool evaluates itself per element.
    pub deferred: &'static [DeferredInput],
    /// The input whose value best summarises a node ("query", "text", …).
    pub main_input: Option<&'static str>,
    /// Which provider calls one run of this tool makes, for `--dry-run` estimates.
    pub api_calls: ApiCalls,
    /// What running it does to the world, at worst: the MCP server's tool annotations.
    pub effects: Effects,
}

impl ToolSpec {
    pub fn colour(&self) -> &'static str {
        self.category.colour()
    }

    /// Names listed in the schema's `required` array.
    pub fn required_inputs(&self) -> Vec<&str> {
        self.input_schema
            .required
            .iter()
            .map(String::as_str)
            .collect()
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

/// What running a tool does besides returning its output: the MCP server's tool annotations are
/// these. Declared for the worst a call may do (any method, any flag), since a client reads them
/// before it knows the inputs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Effects {
    /// Changes nothing anywhere (reads, computes, calls a model).
    pub read_only: bool,
    /// May delete or overwrite existing data (only meaningful when not read_only).
    pub destructive: bool,
    /// Calling it again with the same inputs has no further effect.
    pub idempotent: bool,
    /// Reaches services outside vai (Voyage AI, MongoDB, an LLM API, arbitrary URLs) — true also
    /// when the offline local default may serve it instead, since a configured provider is remote.
    pub open_world: bool,
}

impl Effects {
    /// Computes on its inputs and vai's own data, reaching nothing outside the process.
    pub const PURE: Effects = Effects {
        read_only: true,
        destructive: false,
        idempotent: true,
        open_world: false,
    };

    /// Reads from or asks a provider (embeddings, vector search, an LLM) and changes nothing.
    pub const READS_REMOTE: Effects = Effects {
        read_only: true,
        destructive: false,
        idempotent: true,
        open_world: true,
    };
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
