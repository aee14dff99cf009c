//! Sub-workflows at validation: each `workflow` step's child is loaded (through the caller's
//! `Children`, never by path), compiled in turn, and its findings reported on the calling step
//! with the chain that leads to them (`book › book-flight.vai-workflow.json: step "x": …`). A
//! workflow that calls itself, directly or not, is refused naming the cycle; the child's
//! declared inputs are checked against what the step passes. The workflows an agent step lists
//! in its `tools` are loaded the same way (`callees` reads the names).

use super::callees::{self, Named};
use super::orchestration::child_name_problem;
use super::plan::{Callee, Callees};
use super::{Compiled, Mode};
use crate::control::{MAX_WORKFLOW_DEPTH, WORKFLOW};
use crate::diagnostic::{Diagnostic, DiagnosticCode, Severity, has_errors};
use crate::model::Workflow;
use crate::tool::Registry;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::Arc;

/// Where `workflow` steps find the workflows they call.
pub trait Children: Send + Sync {
    /// The workflow `name` names (a built-in name, or a file beside the calling workflow):
    /// what it was found as (a file or built-in name, unique per workflow) and its JSON.
    fn load(&self, name: &str) -> Result<(String, Value), String>;
}

/// For callers with no library: every child is reported as not loadable here.
pub struct NoChildren;

impl Children for NoChildren {
    fn load(&self, name: &str) -> Result<(String, Value), String> {
        Err(format!(
            "cannot load \"{name}\" here: sub-workflows are found beside a workflow file or among the built-ins"
        ))
    }
}

/// Compile `value` (known as `label`) and, through `children`, every workflow it calls.
pub fn compile_with(
    value: &Value,
    registry: &Registry,
    mode: Mode,
    children: &dyn Children,
    label: &str,
) -> Compiled {
    compile_chain(
        value,
        registry,
        mode,
        children,
        &mut vec![label.to_string()],
    )
}

fn compile_chain(
    value: &Value,
    registry: &Registry,
    mode: Mode,
    children: &dyn Children,
    chain: &mut Vec<String>,
) -> Compiled {
    let mut compiled = super::compile_alone(value, registry, mode);
    let Some(workflow) = compiled.workflow.clone() else {
        return compiled;
    };
    let severity = |s: Severity| match (mode, s) {
        (Mode::Draft, Severity::Error) => Severity::Warning,
        (_, s) => s,
    };
    let mut found = Vec::new();
    let mut plans = HashMap::new();
    for (i, step) in workflow.steps.iter().enumerate() {
        if step.tool != WORKFLOW {
            continue;
        }
        let Some(Value::String(name)) = step.inputs.get("workflow") else {
            continue;
        };
        if child_name_problem(name).is_some() {
            continue; // reported with the step
        }
        let at = Within {
            step: &step.id,
            field: "inputs.workflow",
            tool: WORKFLOW,
        };
        let (label, child_value) = match children.load(name) {
            Ok(found) => found,
            Err(e) => {
                found.push(at.diag(DiagnosticCode::UnknownWorkflow, format!("workflow: {e}")));
                continue;
            }
        };
        let Some(child) = compile_child(
            &at,
            name,
            &label,
            &child_value,
            registry,
            children,
            chain,
            &mut found,
        ) else {
            continue;
        };
        if let Some(child_workflow) = &child.workflow {
            let given = step.inputs.get("inputs").and_then(Value::as_object);
            for (input, decl) in &child_workflow.inputs {
                let passed = given.is_some_and(|g| g.get(input).is_some_and(|v| !v.is_null()));
                if decl.is_required() && decl.default.is_none() && !passed {
                    found.push(
                        Diagnostic::error(
                            DiagnosticCode::MissingRequiredInput,
                            format!("workflow: {label} needs input \"{input}\""),
                        )
                        .step(&step.id)
                        .field(format!("inputs.inputs.{input}")),
                    );
                }
            }
            for key in given.into_iter().flat_map(|g| g.keys()) {
                if !child_workflow.inputs.contains_key(key) {
                    found.push(
                        Diagnostic::warning(
                            DiagnosticCode::InvalidInput,
                            format!("workflow: {label} declares no input \"{key}\"; it is ignored"),
                        )
                        .step(&step.id)
                        .field(format!("inputs.inputs.{key}")),
                    );
                }
            }
        }
        if let Some(plan) = child.plan {
            plans.insert(i, plan);
        }
    }
    let callees = load_callees(&workflow, registry, children, chain, &mut found);
    for d in found {
        let s = severity(d.severity);
        compiled.diagnostics.push(d.with_severity(s));
    }
    compiled.diagnostics.sort_by_key(|d| d.severity);
    if has_errors(&compiled.diagnostics) {
        compiled.plan = None;
        return compiled;
    }
    if let Some(plan) = compiled.plan.take() {
        let mut plan = Arc::try_unwrap(plan).unwrap_or_else(|p| (*p).clone());
        plan.children = plans;
        plan.callees = callees;
        plan.label = chain.last().cloned().unwrap_or_default();
        compiled.plan = Some(Arc::new(plan));
    }
    compiled
}

/// Where a child is called from: the step, its field, and its tool (for messages).
struct Within<'a> {
    step: &'a str,
    field: &'a str,
    tool: &'a str,
}

impl Within<'_> {
    fn diag(&self, code: DiagnosticCode, message: String) -> Diagnostic {
        Diagnostic::error(code, message)
            .step(self.step)
            .field(self.field)
    }
}

/// Compile the child `name` (found as `label`), called from `at`: a cycle or a chain too deep
/// is refused, and the child's own problems are reported on the calling step with the chain
/// that leads to them. `None` when it was refused.
#[expect(
    clippy::too_many_arguments,
    reason = "one recursion step of compile_chain"
)]
fn compile_child(
    at: &Within<'_>,
    name: &str,
    label: &str,
    value: &Value,
    registry: &Registry,
    children: &dyn Children,
    chain: &mut Vec<String>,
    found: &mut Vec<Diagnostic>,
) -> Option<Compiled> {
    let tool = at.tool;
    if let Some(pos) = chain.iter().position(|l| *l == label) {
        let mut cycle: Vec<&str> = chain[pos..].iter().map(String::as_str).collect();
        cycle.push(label);
        found.push(at.diag(
            DiagnosticCode::CircularDependency,
            format!(
                "{tool}: calling \"{name}\" makes a cycle: {}",
                cycle.join(" → ")
            ),
        ));
        return None;
    }
    if chain.len() > MAX_WORKFLOW_DEPTH {
        found.push(at.diag(
            DiagnosticCode::TooDeep,
            format!(
                "{tool}: {} calls nest deeper than {MAX_WORKFLOW_DEPTH}",
                chain.join(" → ")
            ),
        ));
        return None;
    }
    chain.push(label.to_string());
    let child = compile_chain(value, registry, Mode::Strict, children, chain);
    chain.pop();
    for d in child
        .diagnostics
        .iter()
        .filter(|d| d.severity != Severity::Info)
    {
        let within = d
            .step_id
            .as_ref()
            .map(|s| format!("step \"{s}\": "))
            .unwrap_or_default();
        found.push(
            Diagnostic {
                message: format!("{} › {label}: {within}{}", at.step, d.message),
                step_id: Some(at.step.to_string()),
                field: Some(at.field.to_string()),
                referenced_step: None,
                line: None,
                column: None,
                ..d.clone()
            }
            .with_severity(d.severity),
        );
    }
    Some(child)
}

/// What each step whose tool calls tools may call, its workflows loaded and compiled; problems
/// go to `found`.
fn load_callees(
    workflow: &Workflow,
    registry: &Registry,
    children: &dyn Children,
    chain: &mut Vec<String>,
    found: &mut Vec<Diagnostic>,
) -> HashMap<usize, Arc<Callees>> {
    let mut out = HashMap::new();
    for listed in callees::read(workflow, registry, found) {
        let step = &workflow.steps[listed.step].id;
        let mut list = Vec::new();
        for named in listed.names {
            let (name, field) = match named {
                Named::Tool(name) => {
                    list.push(Callee::Tool(name));
                    continue;
                }
                Named::Workflow { name, field } => (name, field),
            };
            let (label, value) = match children.load(&name) {
                Ok(found) => found,
                Err(e) => {
                    found.push(
                        callees::unknown(&listed.tool, &name, &field, &e, registry).step(step),
                    );
                    continue;
                }
            };
            let at = Within {
                step,
                field: &field,
                tool: &listed.tool,
            };
            let child = compile_child(&at, &name, &label, &value, registry, children, chain, found);
            if let Some(plan) = child.and_then(|c| c.plan) {
                list.push(Callee::Workflow { name, plan });
            }
        }
        out.insert(listed.step, Arc::new(Callees(list)));
    }
    out
}
