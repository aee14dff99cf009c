//! The step shapes of orchestration: a `workflow` step's child name (a literal, never a path),
//! a `yield` step's answer schema and timeout, and any step's `compensate` call, whose templates
//! may read the step's own output and what the step itself reads.

use super::plan::{Compensate, StepKind};
use super::refs::{GLOBALS, parse_template, references_by_field, unknown_ref};
use super::step::StepCx;
use crate::control::{FAIL, ROUTER, WORKFLOW, YIELD};
use crate::diagnostic::{Diagnostic, DiagnosticCode};
use crate::expects::Expects;
use serde_json::Value;
use std::sync::Arc;
use std::time::Duration;

/// Why `name` cannot name a child workflow, when it cannot: it must be a plain name or file
/// name in the parent's directory (or a built-in), never a path or a template.
pub fn child_name_problem(name: &str) -> Option<&'static str> {
    if name.trim().is_empty() {
        Some("is empty")
    } else if name.contains("{{") {
        Some("must be a literal name, not a template")
    } else if name.contains('/') || name.contains('\\') || name.starts_with('.') {
        Some("must be a name beside this workflow or a built-in, never a path")
    } else if name.chars().any(char::is_control) || name.len() > 255 {
        Some("is not a usable file name")
    } else {
        None
    }
}

impl StepCx<'_> {
    /// The kind of an orchestration step (`None` when the tool is another one); `ok` turns
    /// false when the step's shape is wrong.
    pub(super) fn orchestration_kind(&mut self, tool: &str) -> Option<StepKind> {
        match tool {
            WORKFLOW => self.workflow_kind(),
            YIELD => {
                self.refuse_for_each(YIELD);
                self.yield_kind()
            }
            FAIL => {
                self.refuse_for_each(FAIL);
                Some(StepKind::Fail)
            }
            ROUTER => {
                self.refuse_for_each(ROUTER);
                self.router_kind()
            }
            _ => None,
        }
    }

    fn refuse_for_each(&mut self, tool: &str) {
        if self.step.for_each.is_some() {
            self.fail(
                Diagnostic::error(
                    DiagnosticCode::InvalidForeach,
                    format!("a \"{tool}\" step cannot have forEach"),
                )
                .field("forEach"),
            );
        }
    }

    fn workflow_kind(&mut self) -> Option<StepKind> {
        let name = match self.step.inputs.get("workflow") {
            Some(Value::String(name)) => name.clone(),
            None | Some(Value::Null) => return None, // reported as a missing required input
            Some(_) => {
                self.fail(
                    Diagnostic::error(
                        DiagnosticCode::InvalidInput,
                        "workflow: \"workflow\" must be a name such as \"book-flight\"",
                    )
                    .field("inputs.workflow"),
                );
                return None;
            }
        };
        if let Some(problem) = child_name_problem(&name) {
            self.fail(
                Diagnostic::error(
                    DiagnosticCode::InvalidInput,
                    format!("workflow: \"{name}\" {problem}"),
                )
                .field("inputs.workflow"),
            );
            return None;
        }
        match self.step.inputs.get("inputs") {
            None | Some(Value::Null | Value::Object(_)) => {}
            Some(_) => self.fail(
                Diagnostic::error(
                    DiagnosticCode::InvalidInput,
                    "workflow: \"inputs\" must be an object of the child's inputs",
                )
                .field("inputs.inputs"),
            ),
        }
        Some(StepKind::Workflow { name })
    }

    fn yield_kind(&mut self) -> Option<StepKind> {
        let inputs = &self.step.inputs;
        let expects = match inputs.get("expects") {
            None | Some(Value::Null) => Expects::empty(),
            Some(schema) => match Expects::parse(schema) {
                Ok(e) => e,
                Err((at, message)) => {
                    let field = if at.is_empty() {
                        "inputs.expects".to_string()
                    } else {
                        format!("inputs.expects.{at}")
                    };
                    self.fail(
                        Diagnostic::error(
                            DiagnosticCode::InvalidInput,
                            format!("yield: expects{} {message}", dotted(&at)),
                        )
                        .field(field),
                    );
                    return None;
                }
            },
        };
        let timeout = match inputs.get("timeoutMs") {
            None | Some(Value::Null) => None,
            Some(v) => match v.as_u64() {
                Some(ms) if ms >= 1 => Some(Duration::from_millis(ms)),
                _ => {
                    self.fail(
                        Diagnostic::error(
                            DiagnosticCode::InvalidInput,
                            "yield: \"timeoutMs\" must be a whole number of milliseconds",
                        )
                        .field("inputs.timeoutMs"),
                    );
                    return None;
                }
            },
        };
        let on_timeout = match inputs.get("onTimeout").and_then(Value::as_str) {
            None | Some("fail") => None,
            Some("default") => match inputs.get("default") {
                Some(d @ Value::Object(_)) => {
                    let errors = expects.check(d);
                    if let Some(e) = errors.first() {
                        self.fail(
                            Diagnostic::error(
                                DiagnosticCode::InvalidInput,
                                format!("yield: default.{} {}", e.field, e.message),
                            )
                            .field(format!("inputs.default.{}", e.field)),
                        );
                        return None;
                    }
                    Some(d.clone())
                }
                _ => {
                    self.fail(
                        Diagnostic::error(
                            DiagnosticCode::MissingRequiredInput,
                            "yield: onTimeout \"default\" needs a \"default\" object",
                        )
                        .field("inputs.default"),
                    );
                    return None;
                }
            },
            Some(other) => {
                self.fail(
                    Diagnostic::error(
                        DiagnosticCode::InvalidInput,
                        format!("yield: onTimeout is \"{other}\"; use \"fail\" or \"default\""),
                    )
                    .field("inputs.onTimeout"),
                );
                return None;
            }
        };
        Some(StepKind::Yield {
            expects: Arc::new(expects),
            timeout,
            on_timeout,
        })
    }

    /// The step's `compensate`, parsed: its templates may read the step itself and the steps
    /// it reads or depends on (call after the step's own references are known).
    pub(super) fn compensation(&mut self) -> Option<Compensate> {
        let c = self.step.compensate.as_ref()?;
        let field = "compensate.inputs";
        let tpl = parse_template(
            &Value::Object(c.inputs.clone()),
            field,
            Some(&self.step.id),
            self.d,
        );
        let Some(tpl) = tpl else {
            self.ok = false;
            return None;
        };
        let readable: Vec<usize> = self
            .edges
            .iter()
            .filter(|e| e.to == self.i)
            .map(|e| e.from)
            .collect();
        let mut found = Vec::new();
        references_by_field(&tpl, field, &mut found);
        for (at, refs) in found {
            for r in refs {
                if GLOBALS.contains(&r.root.as_str()) || r.root == self.step.id {
                    continue;
                }
                match self.index.get(&r.root) {
                    Some(j) if readable.contains(j) => {}
                    Some(_) => self.fail(
                        Diagnostic::error(
                            DiagnosticCode::NotUpstream,
                            format!(
                                "\"{}\": a compensation reads only its own step and what that step reads",
                                r.path
                            ),
                        )
                        .field(at.clone())
                        .referencing(&r.root),
                    ),
                    None => {
                        let id = self.step.id.clone();
                        unknown_ref(self.d, Some(&id), &at, &r, self.index);
                        self.ok = false;
                    }
                }
            }
        }
        Some(Compensate {
            tool: c.tool.clone(),
            inputs: tpl,
            retry: c.retry.clone(),
            timeout: c.timeout_ms.map(Duration::from_millis),
        })
    }
}

fn dotted(at: &str) -> String {
    if at.is_empty() {
        String::new()
    } else {
        format!(".{at}")
    }
}
