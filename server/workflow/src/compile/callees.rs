//! The names a step's tool may call (an `agent`'s `tools`: the input whose format is
//! `tool-names`), read as literals: each a registry tool that may be offered (see
//! [`offerable`]), else a workflow, which `children` loads with the `workflow` steps' children —
//! so an unknown name or a cycle through an agent is refused the same way.

use super::nearest::nearest;
use super::orchestration::child_name_problem;
use crate::diagnostic::{Diagnostic, DiagnosticCode};
use crate::model::Workflow;
use crate::tool::{Category, Registry, calls_input, has_template, offerable};
use serde_json::Value;

/// Most names one step may list.
pub(super) const MAX_CALLEES: usize = 64;

/// One name a step lists, as read.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Named {
    Tool(String),
    /// A workflow to load; `field` is where the step names it (`inputs.tools[2]`).
    Workflow {
        name: String,
        field: String,
    },
}

/// The names one step lists.
#[derive(Debug)]
pub(super) struct Listed {
    pub(super) step: usize,
    /// The step's tool, for messages (`agent`).
    pub(super) tool: String,
    pub(super) names: Vec<Named>,
}

/// What each step of `workflow` may call; problems with the names go to `found`.
pub(super) fn read(
    workflow: &Workflow,
    registry: &Registry,
    found: &mut Vec<Diagnostic>,
) -> Vec<Listed> {
    let mut out = Vec::new();
    for (i, step) in workflow.steps.iter().enumerate() {
        let Some(spec) = registry.spec(&step.tool) else {
            continue;
        };
        let Some(input) = calls_input(spec) else {
            continue;
        };
        let tool = spec.name;
        let at = |field: String, message: String| {
            Diagnostic::error(DiagnosticCode::InvalidInput, format!("{tool}: {message}"))
                .step(&step.id)
                .field(field)
        };
        let list = match step.inputs.get(input) {
            None | Some(Value::Null) => continue,
            Some(v) if has_template(v) => {
                found.push(at(
                    format!("inputs.{input}"),
                    format!(
                        "\"{input}\" must list names, not templates: the workflows it names are \
                         loaded when the workflow is checked"
                    ),
                ));
                continue;
            }
            Some(Value::Array(list)) if list.len() > MAX_CALLEES => {
                found.push(at(
                    format!("inputs.{input}"),
                    format!(
                        "\"{input}\" lists {} names; at most {MAX_CALLEES}",
                        list.len()
                    ),
                ));
                continue;
            }
            Some(Value::Array(list)) => list,
            Some(_) => {
                found.push(at(
                    format!("inputs.{input}"),
                    format!(
                        "\"{input}\" must be an array of tool and workflow names, such as \
                         [\"query\", \"book-flight\"]"
                    ),
                ));
                continue;
            }
        };
        let mut names = Vec::new();
        let mut seen: Vec<&str> = Vec::new();
        for (n, item) in list.iter().enumerate() {
            let field = format!("inputs.{input}[{n}]");
            let Some(name) = item.as_str() else {
                found.push(at(
                    field,
                    format!("{input}[{n}] must be a tool or workflow name"),
                ));
                continue;
            };
            if seen.contains(&name) {
                found.push(at(field, format!("\"{name}\" is listed twice")));
                continue;
            }
            seen.push(name);
            match registry.spec(name) {
                Some(called) if !offerable(called) => {
                    let why = if called.category == Category::ControlFlow {
                        "is control flow, which steers a run and means nothing called alone"
                    } else {
                        "calls tools itself; a step's tool cannot hand its work to another one"
                    };
                    found.push(at(field, format!("\"{name}\" {why}")));
                }
                Some(_) => names.push(Named::Tool(name.to_string())),
                None => match child_name_problem(name) {
                    Some(problem) => found.push(at(
                        field,
                        format!(
                            "\"{name}\" is not a vai tool, and as a workflow name it {problem}"
                        ),
                    )),
                    None => names.push(Named::Workflow {
                        name: name.to_string(),
                        field,
                    }),
                },
            }
        }
        out.push(Listed {
            step: i,
            tool: tool.to_string(),
            names,
        });
    }
    out
}

/// Why `name`, listed at `field` of a step of tool `tool`, names nothing: neither a tool nor a
/// workflow that could be loaded (`error`), with the nearest tool it may have meant.
pub(super) fn unknown(
    tool: &str,
    name: &str,
    field: &str,
    error: &str,
    registry: &Registry,
) -> Diagnostic {
    let tools = registry.specs().filter(|s| offerable(s)).map(|s| s.name);
    let hint = nearest(name, tools)
        .map(|n| format!("; did you mean \"{n}\"?"))
        .unwrap_or_default();
    Diagnostic::error(
        DiagnosticCode::InvalidTool,
        format!("{tool}: \"{name}\" is neither a vai tool nor a workflow ({error}){hint}"),
    )
    .field(field)
}
