//! `w_<name>`: every workflow of the library that compiles becomes one tool (seed 002) — its
//! input schema from the workflow's `inputs`, its description the workflow's own plus an outline
//! of its steps, its annotations what its steps' tools may do together. A call runs the whole
//! DAG through the run manager and returns the workflow's output and a step summary.
//!
//! Names are the workflow's name lowercased, every run of other characters one `_`, at most 64
//! characters in all; a name already taken (in library order: built-ins, examples, files) gets
//! `_2`, `_3`, … A workflow keeps its name for as long as the server runs and it is listed under
//! the same name: a file saved later that clashes gets the suffix, never the one that was there.
//! The same name, without `w_`, names the workflow's resource.

use super::{Entry, Target, annotations};
use crate::running::{self, RunRequest};
use crate::schema;
use crate::server::{Connection, McpServer};
use rmcp::RoleServer;
use rmcp::model::{CallToolResponse, Tool};
use rmcp::service::RequestContext;
use serde_json::{Map, Value, json};
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use vai_contract::{WorkflowDocument, WorkflowSummary};
use vai_runtime::version_of;
use vai_workflow::compile::{PlannedStep, StepKind};
use vai_workflow::{Effects, Mode, Plan, Registry, compile};

/// Longest tool name clients accept.
const MAX_NAME: usize = 64;
const PREFIX: &str = "w_";

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

/// What a `w_*` call runs.
#[derive(Debug, Clone)]
pub(crate) struct WorkflowTool {
    pub(crate) id: String,
    pub(crate) plan: Arc<Plan>,
    /// The version of the definition's stable text form.
    pub(crate) definition_version: String,
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

/// The names given so far: library id → (the name's base, the name given).
#[derive(Debug, Default)]
pub(crate) struct Names(Mutex<HashMap<String, (String, String)>>);

impl Names {
    /// A unique name for each `(id, base)`, in order: a workflow named before under the same
    /// base keeps its name; the others get theirs, suffixed when taken, in library order.
    /// Workflows no longer listed are forgotten.
    fn assign(&self, workflows: &[(&str, String)]) -> Vec<String> {
        let mut given = self.0.lock().unwrap_or_else(|e| e.into_inner());
        given.retain(|id, _| workflows.iter().any(|(listed, _)| listed == id));
        let mut taken = HashSet::new();
        let mut names: Vec<Option<String>> = workflows
            .iter()
            .map(|(id, base)| match given.get(*id) {
                Some((was, name)) if was == base && taken.insert(name.clone()) => {
                    Some(name.clone())
                }
                _ => None,
            })
            .collect();
        for ((id, base), name) in workflows.iter().zip(&mut names) {
            if name.is_none() {
                let new = unique(&mut taken, base);
                given.insert(id.to_string(), (base.clone(), new.clone()));
                *name = Some(new);
            }
        }
        names.into_iter().flatten().collect()
    }
}

/// `name` as it appears in tool names: lowercase ASCII letters and digits, other runs `_`.
pub(crate) fn slug(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('_') {
            out.push('_');
        }
    }
    let trimmed = out.trim_matches('_');
    let mut slug = if trimmed.is_empty() {
        "workflow".to_string()
    } else {
        trimmed.to_string()
    };
    slug.truncate(MAX_NAME - PREFIX.len());
    slug
}

/// `base`, or `base_2`, `base_3`, … when taken; recorded as taken.
fn unique(taken: &mut HashSet<String>, base: &str) -> String {
    let mut candidate = base.to_string();
    let mut n = 2;
    while taken.contains(&candidate) {
        let suffix = format!("_{n}");
        let keep = base.len().min(MAX_NAME - PREFIX.len() - suffix.len());
        candidate = format!("{}{suffix}", &base[..keep]);
        n += 1;
    }
    taken.insert(candidate.clone());
    candidate
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
            .with_raw_output_schema(schema::object(running::output_schema()))
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
    out
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
    crate::server::clip(&text, MAX)
}

fn step_tool(step: &PlannedStep) -> &str {
    match &step.kind {
        StepKind::Loop { tool, .. } => tool,
        _ => &step.tool,
    }
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

/// The step summary of a finished run, as `w_*` results carry it.
pub(crate) fn steps_json(plan: &Plan, snapshot: &vai_contract::RunSnapshot) -> Value {
    let steps: Vec<Value> = plan
        .steps
        .iter()
        .map(|s| {
            let state = snapshot.steps.get(&s.id);
            let mut step = json!({
                "id": s.id,
                "tool": step_tool(s),
                "status": state.map(|st| st.status),
            });
            if let Some(st) = state {
                for (key, value) in [
                    ("duration_ms", st.duration_ms.map(|d| json!(d))),
                    ("summary", st.summary.as_ref().map(|v| json!(v))),
                    ("backend", st.backend.as_ref().map(|v| json!(v))),
                    ("error", st.error.as_ref().map(|v| json!(v))),
                    ("reason", st.reason.as_ref().map(|v| json!(v))),
                ] {
                    if let Some(value) = value {
                        step[key] = value;
                    }
                }
            }
            step
        })
        .collect();
    Value::Array(steps)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_lowercase_words_joined_by_one_underscore() {
        assert_eq!(slug("RAG Chat"), "rag_chat");
        assert_eq!(slug("Search with Fallback"), "search_with_fallback");
        assert_eq!(slug("  a -- b!! "), "a_b");
        assert_eq!(slug("Ünïcode ✓"), "n_code");
        assert_eq!(slug("✓✓"), "workflow");
        assert_eq!(slug(&"x".repeat(100)).len(), 62);
    }

    #[test]
    fn a_workflow_keeps_its_name_when_a_clashing_one_appears_before_it() {
        let names = Names::default();
        let first = names.assign(&[("file:b.vai-workflow.json", "search".into())]);
        assert_eq!(first, ["search"]);
        // A new file listed before it, with the same name: the newcomer gets the suffix.
        let both = names.assign(&[
            ("file:a.vai-workflow.json", "search".into()),
            ("file:b.vai-workflow.json", "search".into()),
        ]);
        assert_eq!(both, ["search_2", "search"]);
        // Renamed inside (another base): it gets a name for that base.
        let renamed = names.assign(&[
            ("file:a.vai-workflow.json", "search".into()),
            ("file:b.vai-workflow.json", "lookup".into()),
        ]);
        assert_eq!(renamed, ["search_2", "lookup"]);
        // Gone and back: forgotten, so named afresh, around the name that stayed.
        names.assign(&[("file:a.vai-workflow.json", "search".into())]);
        let back = names.assign(&[
            ("file:a.vai-workflow.json", "search".into()),
            ("file:b.vai-workflow.json", "search".into()),
        ]);
        assert_eq!(back, ["search_2", "search"]);
    }

    #[test]
    fn taken_names_get_a_number_and_stay_within_64() {
        let mut taken = HashSet::new();
        assert_eq!(unique(&mut taken, "a"), "a");
        assert_eq!(unique(&mut taken, "a"), "a_2");
        assert_eq!(unique(&mut taken, "a"), "a_3");
        let long = "y".repeat(62);
        assert_eq!(unique(&mut taken, &long), long);
        let second = unique(&mut taken, &long);
        assert_eq!(second.len(), 62);
        assert!(second.ends_with("_2"));
    }
}
