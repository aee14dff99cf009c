//! Workflow library, validation and plan bodies: what the browser needs to list, open and draw
//! a workflow (docs/api.md, "Workflows").

use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;
use vai_workflow::model::InputType;
use vai_workflow::{Category, Diagnostic, Estimate, Mode};

/// Where a workflow in the library comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum WorkflowSource {
    Builtin,
    Example,
    File,
}

/// One entry of `GET /api/workflows`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct WorkflowSummary {
    /// `builtin:<name>`, `example:<name>` or `file:<file name>`.
    pub id: String,
    /// The workflow's `name` field, or the file stem when it has none.
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub description: Option<String>,
    pub source: WorkflowSource,
    pub step_count: usize,
    /// Declared input names, in file order.
    pub inputs: Vec<String>,
    /// Built-ins and examples: open them and "Save as" a file.
    pub read_only: bool,
    /// Why the file could not be read or parsed (too large, unreadable, not JSON); such files
    /// are still listed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub error: Option<String>,
}

/// `GET /api/workflows`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct WorkflowList {
    pub workflows: Vec<WorkflowSummary>,
}

/// One starting point of the "New workflow" menu (`vai workflow init --template <id>`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct WorkflowStarter {
    /// `search`, `rag` or `ingest`.
    pub id: String,
    pub label: String,
    pub description: String,
    /// The new workflow, as `vai workflow init` writes it.
    pub definition: Value,
}

/// `GET /api/workflows/starters`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct StarterList {
    pub starters: Vec<WorkflowStarter>,
}

/// `GET /api/workflows/{id}`: the file verbatim and, when it is JSON, parsed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct WorkflowDocument {
    pub summary: WorkflowSummary,
    pub text: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub definition: Option<Value>,
    /// The first 16 hex digits of the SHA-256 of the file's bytes: what `save` compares
    /// `baseVersion` with.
    pub version: String,
}

/// Body of `POST /api/workflows/validate` and `/plan`: exactly one of `definition` (the workflow
/// as JSON) or `text` (raw file text, so syntax errors come back with line and column).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
pub struct WorkflowBody {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub definition: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub text: Option<String>,
    /// `draft` for a half-built workflow in the builder (missing pieces are warnings or infos);
    /// `strict` (the default) when it must run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub mode: Option<Mode>,
}

/// `POST /api/workflows/validate`.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct ValidateResponse {
    pub valid: bool,
    pub diagnostics: Vec<Diagnostic>,
}

/// `POST /api/workflows/plan`.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct PlanResponse {
    pub valid: bool,
    pub diagnostics: Vec<Diagnostic>,
    /// Present whenever the file's structure could be read, even with errors.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub graph: Option<GraphView>,
}

/// A workflow drawn as a DAG.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct GraphView {
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub description: Option<String>,
    pub nodes: Vec<GraphNode>,
    pub edges: Vec<GraphEdge>,
    /// Step ids per Kahn layer.
    pub layers: Vec<Vec<String>>,
    /// Expected provider calls: per run, and per item of each `forEach` or `loop` (the same
    /// estimate `vai workflow run --dry-run` prints).
    pub estimate: Estimate,
    /// False when the workflow has errors: it can be drawn, not run.
    pub runnable: bool,
}

/// A node of the graph: the inputs node, a step, or the output node.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(
    tag = "kind",
    rename_all = "snake_case",
    rename_all_fields = "camelCase"
)]
pub enum GraphNode {
    /// Always present, first; id `__inputs`.
    Inputs {
        id: String,
        inputs: Vec<InputField>,
    },
    Step(StepNode),
    /// Present when the workflow has an `output` mapping; id `__output`.
    Output {
        id: String,
        fields: Vec<String>,
    },
}

/// A step node.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct StepNode {
    pub id: String,
    pub name: String,
    pub tool: String,
    pub category: Category,
    pub color: String,
    /// A Material icon name.
    pub icon: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub description: Option<String>,
    /// One line rendering the tool's main input (`"{{ inputs.query }}"`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub summary: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub condition: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub for_each: Option<String>,
    pub continue_on_error: bool,
}

/// A declared workflow input, as the inputs node and the run bar show it.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct InputField {
    pub name: String,
    #[serde(rename = "type")]
    pub kind: InputType,
    pub required: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub default: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub description: Option<String>,
}

/// Why an edge exists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum EdgeKind {
    /// From `__inputs`: a template reads `inputs.x`.
    Input,
    /// A template reads another step's output.
    Reference,
    DependsOn,
    Then,
    Else,
    /// A `router` to a step of one of its routes; the label is the route id.
    Route,
    /// Into `__output`: the output mapping reads a step (or an input).
    Output,
}

/// One edge per (source, target, field).
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct GraphEdge {
    pub id: String,
    pub source: String,
    pub target: String,
    pub kind: EdgeKind,
    /// The referenced path (`search.output.results`, `inputs.query`) or the step id for
    /// `dependsOn` and branches.
    pub label: String,
    /// Where in the target it sits (`inputs.query`, `condition`, `output.answer`).
    pub field: String,
}
