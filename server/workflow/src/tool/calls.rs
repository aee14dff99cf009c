//! What a step's tool may call while it runs — an `agent`'s `tools`: registry tools and
//! workflows, named in the step's input whose format is `tool-names`. The names are checked
//! and the workflows loaded when the workflow is checked (`compile::callees`); during a run the
//! engine hands the tool a [`Calls`] handle that runs them (`exec::calls`).

use super::ToolFuture;
use super::spec::{Category, ToolSpec};
use crate::input_schema::WidgetFormat;
use crate::model::Workflow;
use serde_json::{Map, Value};

/// One thing a step may call, as its tool describes it to a model.
#[derive(Debug, Clone, Copy)]
pub enum Callable<'a> {
    /// A registry tool.
    Tool(&'a ToolSpec),
    /// A workflow, run as a child run of the step; `name` as the step gave it.
    Workflow {
        name: &'a str,
        workflow: &'a Workflow,
    },
}

impl Callable<'_> {
    /// The name the step gave it (`query`, `book-flight`).
    pub fn name(&self) -> &str {
        match self {
            Callable::Tool(spec) => spec.name,
            Callable::Workflow { name, .. } => name,
        }
    }
}

/// The tools and workflows a step may call, during a run.
pub trait Calls: Send + Sync {
    /// What the step may call, in the order it lists them.
    fn callable(&self) -> Vec<Callable<'_>>;

    /// Run `name` on `inputs`: a registry tool within the run's limits (a fresh step budget,
    /// the run's defaults, canned outputs by tool), or a workflow as a child run sharing the
    /// run's budget and cancellation. A name the step does not list is refused, never run.
    /// The output's `usage` is what the call cost.
    fn call<'a>(&'a self, name: &'a str, inputs: Map<String, Value>) -> ToolFuture<'a>;
}

/// The input of `spec` that names what its steps may call (format `tool-names`), if any.
pub fn calls_input(spec: &ToolSpec) -> Option<&str> {
    spec.input_schema
        .properties
        .iter()
        .find(|(_, p)| p.format == Some(WidgetFormat::ToolNames))
        .map(|(name, _)| name.as_str())
}

/// Whether a step's tool may call registry tool `spec`: every tool but control flow (which
/// steers a run and means nothing alone) and the tools that call tools themselves (an agent
/// does not hand its work to another agent).
pub fn offerable(spec: &ToolSpec) -> bool {
    spec.category != Category::ControlFlow && calls_input(spec).is_none()
}
