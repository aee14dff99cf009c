//! `w_<name>`: every workflow of the library that compiles becomes one tool (docs/mcp.md,
//! "Workflow tools") — its input schema from the workflow's `inputs`, its description the
//! workflow's own plus an outline of its steps, its annotations what its steps' tools may do
//! together. A call runs the whole DAG through the run manager and returns the workflow's output
//! and a step summary (or, when a step waits for a person, their answer or the wait: `running`). How workflows are named is `names`'s.

use super::entry::{Entry, Target, WorkflowTool, annotations};
use crate::finished::{output_schema, step_tool};
use crate::names::{PREFIX, slug};
use crate::running::{self, RunRequest};
use crate::schema;
use crate::server::{Connection, McpServer};
use rmcp::RoleServer;
use rmcp::model::{CallToolResponse, Tool};
use rmcp::service::RequestContext;
use serde_json::{Map, Value};
use std::sync::Arc;
use vai_contract::{WorkflowDocument, WorkflowSummary};
use vai_runtime::version_of;
use vai_workflow::compile::StepKind;
use vai_workflow::value::truncate_chars;
use vai_workflow::{Effects, Mode, Plan, Registry, compile};

/// A workflow of the library as the server shows it.
#[derive(Debug, Clone)]
pub(crate) struct Listed {
    pub(crate) summary: WorkflowSummary,
    /// Its name in tool and resource names (`rag_chat`).
    pub(crate) slug: String,
    pub(crate) document: Option<WorkflowDocument>,
    /// Its plan, when it compiles with no error: only then is it a tool.
    pub(crate) plan: Option<Arc<Plan>>,
}

impl Listed {
    /// Its tool's name, when it has one.
    pub(crate) fn tool_name(&self) -> Option<String> {
        self.plan.as_ref().map(|_| format!("{PREFIX}{}", self.slug))
    }
}

/// Every workflow of the library, named, read and compiled.
pub(crate) fn listed(server: &McpServer) -> Vec<Listed> {
    let inner = server.inner();
    let summaries = inner.library.list();
    let bases: Vec<(&str, String)> = summaries
        .iter()
        .map(|s| (s.id.as_str(), slug(&s.name)))
        .collect();
    let slugs = inner.names.assign(&bases);
    summaries
        .into_iter()
        .zip(slugs)
        .map(|(summary, slug)| {
            let document = inner.library.get(&summary.id).ok();
            let plan = document
                .as_ref()
                .and_then(|d| d.definition.as_ref())
                .and_then(|value| {
                    let compiled = compile(value, &inner.registry, Mode::Strict);
                    let valid = compiled.is_valid();
                    compiled.plan.filter(|_| valid)
                });
            Listed {
                summary,
                slug,
                document,
                plan,
            }
        })
        .collect()
}

pub(crate) fn entries(server: &McpServer) -> Vec<Entry> {
    let registry = &server.inner().registry;
    listed(server)
        .into_iter()
        .filter_map(|w| {
            let name = w.tool_name()?;
            let plan = w.plan?;
            let definition = w.document.as_ref()?.definition.as_ref()?;
            let definition_version =
                version_of(vai_workflow::format::format(definition).as_bytes());
            let tool = Tool::new(
                name,
                description(&w.summary, &plan),
                schema::object(schema::workflow_input(&plan.workflow)),
            )
            .with_title(plan.workflow.name.clone())
            .with_raw_output_schema(schema::object(output_schema()))
            .with_annotations(annotations(&plan.workflow.name, effects(&plan, registry)));
            Some(Entry {
                tool,
                target: Target::Workflow(WorkflowTool {
                    id: w.summary.id,
                    plan,
                    definition_version,
                }),
            })
        })
        .collect()
}

/// The workflow's description, what running it does, and its steps in order.
fn description(summary: &WorkflowSummary, plan: &Plan) -> String {
    let mut out = String::new();
    if let Some(d) = plan
        .workflow
        .description
        .as_deref()
        .filter(|d| !d.is_empty())
    {
        out.push_str(d.trim_end_matches('.'));
        out.push_str(".\n\n");
    }
    out.push_str(&format!(
        "Runs the whole vai workflow \"{}\" ({}) in one call, with no model in the loop, and returns its output and a summary of each step.\n",
        plan.workflow.name, summary.id
    ));
    out.push_str(&format!(
        "Steps (→ then, ∥ at the same time): {}",
        outline(plan)
    ));
    if let Some(Value::Object(fields)) = &plan.workflow.output {
        let names: Vec<&str> = fields.keys().map(String::as_str).collect();
        out.push_str(&format!("\nOutput: {}", names.join(", ")));
    }
    if asks(plan) {
        out.push_str("\nA step asks a person: a client that shows forms (elicitation) asks them; otherwise the result has status \"waiting\" with the question, and workflow_resume answers it.");
    }
    out
}

/// Whether a run of `plan` may wait for a person: a `yield` step, here or in a workflow it calls.
fn asks(plan: &Plan) -> bool {
    plan.steps
        .iter()
        .any(|s| matches!(s.kind, StepKind::Yield { .. }))
        || plan.children.values().any(|child| asks(child))
}

/// `retrieve (query) → rerank (rerank) ∥ expand (generate) → answer (generate)`, cut when long.
pub(crate) fn outline(plan: &Plan) -> String {
    const MAX: usize = 600;
    let layers: Vec<String> = plan
        .layers
        .iter()
        .map(|layer| {
            layer
                .iter()
                .map(|&i| {
                    let s = &plan.steps[i];
                    format!("{} ({})", s.id, step_tool(s))
                })
                .collect::<Vec<_>>()
                .join(" ∥ ")
        })
        .collect();
    let text = layers.join(" → ");
    truncate_chars(&text, MAX)
}

/// What running the plan may do, at worst: read-only only when every step is, destructive when
/// any step is, idempotent only when every step is, open-world when any step is.
pub(crate) fn effects(plan: &Plan, registry: &Registry) -> Effects {
    let mut all = Effects::PURE;
    for step in &plan.steps {
        let Some(spec) = registry.spec(step_tool(step)) else {
            continue;
        };
        let e = spec.effects;
        all.read_only &= e.read_only;
        all.destructive |= e.destructive;
        all.idempotent &= e.idempotent;
        all.open_world |= e.open_world;
    }
    all
}

/// Run the workflow with `args` as its inputs.
pub(crate) async fn call(
    connection: &Connection,
    tool: &WorkflowTool,
    args: Map<String, Value>,
    context: &RequestContext<RoleServer>,
) -> CallToolResponse {
    let request = RunRequest {
        plan: tool.plan.clone(),
        inputs: args,
        workflow_id: Some(tool.id.clone()),
        definition_version: tool.definition_version.clone(),
        client: Some(context.peer.clone()),
    };
    running::respond(&connection.server, request, context)
        .await
        .unwrap_or_else(|failure| failure.into_result().into())
}
