//! Step tools: the `Tool` trait every tool implements and how one runs outside a workflow;
//! its declaration (`spec`), one invocation (`call`), what a call ends with (`outcome`), and
//! the registry a run takes its tools from (`registry`).

mod call;
mod outcome;
mod registry;
mod spec;

pub use call::{DeferredValue, ToolCall};
pub use outcome::{ToolError, ToolOutput, Usage};
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
