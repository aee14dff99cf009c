//! The read-only questions about a workflow document, answered by the engine itself (compile,
//! input preparation, templates, the estimate): `workflow_validate`, `workflow_preview_inputs`,
//! `workflow_preview_rendered`, `workflow_step_plan` and `workflow_resolve_inputs`.

use super::args::string;
use super::source::{compiled, document, plan};
use crate::failure::{Failure, Violation};
use crate::schema;
use crate::server::McpServer;
use rmcp::model::CallToolResult;
use serde_json::{Map, Value, json};
use std::collections::BTreeSet;
use vai_workflow::diagnostic::has_errors;
use vai_workflow::exec::{InputError, coerce};
use vai_workflow::model::Workflow;
use vai_workflow::{Compiled, Condition, Context, Mode, Severity, Template, compile};

pub(super) fn validate(
    server: &McpServer,
    args: &Map<String, Value>,
) -> Result<CallToolResult, Failure> {
    let mode = match string(args, "mode") {
        Some("draft") => Mode::Draft,
        _ => Mode::Strict,
    };
    let diagnostics = match document(server, args)? {
        Ok(doc) => compile(&doc.value, &server.inner().registry, mode).diagnostics,
        Err(syntax) => vec![syntax],
    };
    let of = |severity: Severity| -> Vec<Value> {
        diagnostics
            .iter()
            .filter(|d| d.severity == severity)
            .map(|d| json!(Violation::of_diagnostic(d)))
            .collect()
    };
    Ok(CallToolResult::structured(json!({
        "valid": !has_errors(&diagnostics),
        "errors": of(Severity::Error),
        "warnings": of(Severity::Warning),
        "diagnostics": diagnostics,
    })))
}

/// The typed workflow of a document whose structure can be read, errors or not.
fn workflow(compiled: &Compiled) -> Result<Workflow, Failure> {
    compiled
        .workflow
        .clone()
        .ok_or_else(|| Failure::invalid_workflow(&compiled.diagnostics))
}

pub(super) fn preview_inputs(
    server: &McpServer,
    args: &Map<String, Value>,
) -> Result<CallToolResult, Failure> {
    let (_, compiled) = compiled(server, args, Mode::Draft)?;
    let workflow = workflow(&compiled)?;
    let inputs: Vec<Value> = workflow
        .inputs
        .iter()
        .map(|(name, decl)| {
            json!({
                "name": name,
                "type": decl.kind.as_str(),
                "required": decl.is_required(),
                "default": decl.default,
                "description": decl.description,
            })
        })
        .collect();
    let required: Vec<&String> = workflow
        .inputs
        .iter()
        .filter(|(_, d)| d.is_required() && d.default.is_none())
        .map(|(n, _)| n)
        .collect();
    Ok(CallToolResult::structured(json!({
        "inputs": inputs,
        "required": required,
        "input_schema": schema::workflow_input(&workflow),
    })))
}

/// Inputs as a run would take them, as far as they go: given values coerced to their declared
/// types, defaults for the rest; and every problem.
struct Resolved {
    values: Map<String, Value>,
    defaults_applied: Vec<String>,
    missing: Vec<String>,
    undeclared: Vec<String>,
    errors: Vec<InputError>,
}

fn resolve(workflow: &Workflow, given: &Map<String, Value>) -> Resolved {
    let mut out = Resolved {
        values: Map::new(),
        defaults_applied: Vec::new(),
        missing: Vec::new(),
        undeclared: Vec::new(),
        errors: Vec::new(),
    };
    for (name, decl) in &workflow.inputs {
        match given.get(name) {
            Some(v) => match coerce(decl.kind, v) {
                Some(v) => {
                    out.values.insert(name.clone(), v);
                }
                None => out.errors.push(InputError::WrongType {
                    name: name.clone(),
                    expected: decl.kind.as_str(),
                    got: v.to_string(),
                }),
            },
            None => match &decl.default {
                Some(d) => {
                    out.values.insert(name.clone(), d.clone());
                    out.defaults_applied.push(name.clone());
                }
                None if decl.is_required() => {
                    out.missing.push(name.clone());
                    out.errors.push(InputError::Missing {
                        name: name.clone(),
                        description: decl.description.clone(),
                    });
                }
                None => {}
            },
        }
    }
    for (name, v) in given {
        if !workflow.inputs.contains_key(name) {
            out.undeclared.push(name.clone());
            out.values.insert(name.clone(), v.clone());
        }
    }
    out
}

fn given_inputs(args: &Map<String, Value>) -> Map<String, Value> {
    args.get("inputs")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default()
}

fn input_errors(errors: &[InputError]) -> Vec<Value> {
    errors
        .iter()
        .map(|e| {
            let (name, rule) = match e {
                InputError::Missing { name, .. } => (name, "required"),
                InputError::WrongType { name, .. } => (name, "type"),
            };
            json!(Violation::new(name.clone(), rule, e.to_string()))
        })
        .collect()
}

pub(super) fn resolve_inputs(
    server: &McpServer,
    args: &Map<String, Value>,
) -> Result<CallToolResult, Failure> {
    let (_, compiled) = compiled(server, args, Mode::Strict)?;
    let workflow = workflow(&compiled)?;
    let resolved = resolve(&workflow, &given_inputs(args));
    let workflow_errors: Vec<Value> = compiled
        .errors()
        .map(|d| json!(Violation::of_diagnostic(d)))
        .collect();
    Ok(CallToolResult::structured(json!({
        "ready": resolved.errors.is_empty() && compiled.plan.is_some() && compiled.is_valid(),
        "resolved": resolved.values,
        "defaults_applied": resolved.defaults_applied,
        "missing": resolved.missing,
        "undeclared": resolved.undeclared,
        "errors": input_errors(&resolved.errors),
        "workflow_errors": workflow_errors,
    })))
}

/// Templates resolved as far as inputs and defaults go.
struct Preview {
    scope: Context,
    budget_limits: vai_workflow::Limits,
}

/// Roots a preview can read: everything else is known only once steps have run.
fn known_now(root: &str) -> bool {
    matches!(root, "inputs" | "defaults")
}

impl Preview {
    fn new(server: &McpServer, workflow: &Workflow, inputs: Map<String, Value>) -> Self {
        let mut scope = Context::new();
        scope.insert("inputs", Value::Object(inputs));
        scope.insert("defaults", Value::Object(workflow.defaults.clone()));
        Self {
            scope,
            budget_limits: server.inner().run_limits,
        }
    }

    /// `value` with each string whose templates read only inputs and defaults resolved; others
    /// kept as written, their references added to `pending`.
    fn render(&self, value: &Value, pending: &mut BTreeSet<String>) -> Value {
        match value {
            Value::String(s) if s.contains("{{") => {
                let Ok(template) = Template::parse(value) else {
                    return value.clone();
                };
                let later: Vec<String> = template
                    .references()
                    .into_iter()
                    .filter(|r| !known_now(&r.root))
                    .map(|r| r.path)
                    .collect();
                if !later.is_empty() {
                    pending.extend(later);
                    return value.clone();
                }
                match template.resolve(&self.scope, &self.budget_limits.value_budget()) {
                    Ok(Some(v)) => v,
                    // Undefined (or too large to build): shown as written.
                    Ok(None) | Err(_) => value.clone(),
                }
            }
            Value::Array(items) => {
                Value::Array(items.iter().map(|v| self.render(v, pending)).collect())
            }
            Value::Object(map) => Value::Object(
                map.iter()
                    .map(|(k, v)| (k.clone(), self.render(v, pending)))
                    .collect(),
            ),
            other => other.clone(),
        }
    }

    /// Whether `condition` holds now, when it reads only inputs and defaults.
    fn condition(&self, condition: &str) -> Option<bool> {
        let parsed = Condition::parse(condition).ok()?;
        if parsed.references().iter().any(|r| !known_now(&r.root)) {
            return None;
        }
        parsed
            .eval(&self.scope, &self.budget_limits.value_budget())
            .ok()
    }
}

pub(super) fn preview_rendered(
    server: &McpServer,
    args: &Map<String, Value>,
) -> Result<CallToolResult, Failure> {
    let (_, compiled) = compiled(server, args, Mode::Draft)?;
    let workflow = workflow(&compiled)?;
    let resolved = resolve(&workflow, &given_inputs(args));
    let preview = Preview::new(server, &workflow, resolved.values.clone());
    let steps: Vec<Value> = workflow
        .steps
        .iter()
        .map(|step| {
            let mut pending = BTreeSet::new();
            let inputs = preview.render(&Value::Object(step.inputs.clone()), &mut pending);
            let mut out = json!({"id": step.id, "tool": step.tool, "inputs": inputs});
            if let Some(c) = &step.condition {
                out["condition"] = json!(c);
                out["condition_holds"] = json!(preview.condition(c));
            }
            if let Some(f) = &step.for_each {
                out["for_each"] = preview.render(&json!(f), &mut pending);
            }
            out["pending"] = json!(pending);
            out
        })
        .collect();
    Ok(CallToolResult::structured(json!({
        "inputs": resolved.values,
        "input_errors": input_errors(&resolved.errors),
        "steps": steps,
    })))
}

pub(super) fn step_plan(
    server: &McpServer,
    args: &Map<String, Value>,
) -> Result<CallToolResult, Failure> {
    let (_, plan) = plan(server, args)?;
    let resolved = resolve(&plan.workflow, &given_inputs(args));
    let preview = Preview::new(server, &plan.workflow, resolved.values);
    let layer_of = |i: usize| plan.layers.iter().position(|l| l.contains(&i));
    let steps: Vec<Value> = plan
        .steps
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let model = &plan.workflow.steps[i];
            let because: Vec<Value> = plan
                .edges
                .iter()
                .filter(|e| e.to == i)
                .map(|e| {
                    json!({"step": plan.steps[e.from].id, "kind": e.kind, "label": e.label, "field": e.field})
                })
                .collect();
            let mut out = json!({
                "id": s.id,
                "name": s.name,
                "tool": s.tool,
                "layer": layer_of(i),
                "depends_on": s.deps.iter().map(|&d| plan.steps[d].id.clone()).collect::<Vec<_>>(),
                "because": because,
                "continue_on_error": s.continue_on_error,
            });
            if let Some(c) = &model.condition {
                out["condition"] = json!(c);
                out["condition_holds"] = json!(preview.condition(c));
            }
            if let Some(f) = &model.for_each {
                out["for_each"] = json!(f);
            }
            if let Some(t) = s.timeout {
                out["timeout_ms"] = json!(t.as_millis() as u64);
            }
            out
        })
        .collect();
    Ok(CallToolResult::structured(json!({
        "steps": steps,
        "layers": plan.layer_ids(),
        "estimate": vai_workflow::estimate(&plan.workflow, &server.inner().registry),
    })))
}
