//! Step tools: the `Tool` trait every tool implements and how one runs outside a workflow;
//! its declaration (`spec`), one invocation (`call`), what a call ends with (`outcome`), the
//! registry a run takes its tools from (`registry`), what a step's tool may call in turn
//! (`calls`), the argument schemas a model is given for those (`arguments`), and what estimates
//! price calls with (`pricer`).

mod arguments;
mod call;
mod calls;
mod outcome;
mod pricer;
mod registry;
mod spec;

pub use arguments::{tool_arguments, workflow_arguments};
pub use call::{DeferredValue, ToolCall};
pub use calls::{Callable, Calls, calls_input, offerable};
pub use outcome::{Cost, ToolError, ToolOutput, Usage};
pub use pricer::CallPricer;
pub use registry::Registry;
pub use spec::{ApiCalls, Category, DeferredInput, DeferredKind, Effects, ToolSpec};

use crate::limits::Limits;
use crate::scope::Context;
use serde_json::{Map, Value};
use std::future::Future;
use std::pin::Pin;

/// The future a tool returns.
pub type ToolFuture<'a> = Pin<Box<dyn Future<Output = Result<ToolOutput, ToolError>> + Send + 'a>>;

/// A step tool. Implementations live in the `vai-tools` crate (and, for `conditional` and `loop`,
/// in the executor itself, which only borrows their declarations).
pub trait Tool: Send + Sync + 'static {
    fn spec(&self) -> &ToolSpec;
    fn run<'a>(&'a self, call: ToolCall<'a>) -> ToolFuture<'a>;

    /// What is wrong with the step's inputs that can be told before a run, as `(field, message)`
    /// pairs (`inputs.metrics[1].name`, "\"a\" is listed twice"): checked when a workflow is
    /// validated, so a bad literal fails `vai workflow validate`, not the run. Inputs holding a
    /// template are the run's to check.
    fn check_inputs(&self, _inputs: &Map<String, Value>) -> Vec<(String, String)> {
        Vec::new()
    }
}

/// Whether `value` holds a `{{ template }}` anywhere (its value is only known at run time).
pub fn has_template(value: &Value) -> bool {
    match value {
        Value::String(s) => s.contains("{{"),
        Value::Array(items) => items.iter().any(has_template),
        Value::Object(map) => map.values().any(has_template),
        _ => false,
    }
}

/// Runs `tool` once on `inputs` outside any workflow run — no workflow defaults, no other steps
/// to reference — within `limits`: a call from a chat agent, an MCP client or a CLI command.
/// `caller` stands where a step id would in the tool's messages.
pub async fn run_alone(
    tool: &dyn Tool,
    caller: &str,
    inputs: Map<String, Value>,
    limits: Limits,
) -> Result<ToolOutput, ToolError> {
    let defaults = Value::Object(Map::new());
    let scope = Context::new();
    let call = ToolCall::standalone(caller, inputs, &defaults, &scope).with_limits(limits);
    tool.run(call).await
}
