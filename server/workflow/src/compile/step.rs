//! Checking one step: required inputs, its templates and conditions parsed into typed trees,
//! its references resolved to upstream steps, and the tool-specific shapes of `conditional` and
//! `loop`.

use super::diags::Diags;
use super::nearest::nearest;
use super::outline::InputRef;
use super::plan::{DependencyKind, Edge, PlannedStep, StepKind};
use super::refs::{GLOBALS, parse_template, references_by_field, syntax_diag, unknown_ref};
use crate::control::{CONDITIONAL, LOOP, LOOP_HARD_MAX};
use crate::diagnostic::DiagnosticCode;
use crate::diagnostic::{Diagnostic, Severity};
use crate::expr::Reference;
use crate::model::Step;
use crate::rules::{self, is_valid_id};
use crate::template::{Condition, Template};
use crate::tool::{DeferredKind, DeferredValue, Registry, ToolSpec};
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

/// The checks of one step: diagnostics go to `d`, dependency edges to `edges`; `ok` turns false
/// when the step cannot be planned.
pub(super) struct StepCx<'a> {
    pub(super) step: &'a Step,
    pub(super) i: usize,
    pub(super) index: &'a HashMap<String, usize>,
    pub(super) d: &'a mut Diags,
    pub(super) edges: &'a mut Vec<Edge>,
    /// Workflow inputs the step's templates read, for drawing.
    pub(super) input_refs: &'a mut Vec<InputRef>,
    pub(super) ok: bool,
}

impl StepCx<'_> {
    pub(super) fn plan(&mut self, spec: &ToolSpec, registry: &Registry) -> Option<PlannedStep> {
        let step = self.step;
        let id = step.id.as_str();
        let for_each_locals: &[&str] = if step.for_each.is_some() {
            &["item", "index"]
        } else {
            &[]
        };

        for req in spec.required_inputs() {
            if step.inputs.get(req).is_none_or(Value::is_null) {
                self.soft(
                    Diagnostic::error(
                        DiagnosticCode::MissingRequiredInput,
                        format!("{}: input \"{req}\" is required", spec.name),
                    )
                    .field(format!("inputs.{req}")),
                );
            }
        }

        if let Some(tool) = registry.tool(spec.name) {
            for (field, message) in tool.check_inputs(&step.inputs) {
                self.soft(
                    Diagnostic::error(
                        DiagnosticCode::InvalidInput,
                        format!("{}: input \"{field}\" {message}", spec.name),
                    )
                    .field(format!("inputs.{field}")),
                );
            }
        }

        let condition = step
            .condition
            .as_deref()
            .and_then(|c| self.condition(c, "condition", &[]));
        let for_each = step.for_each.as_ref().and_then(|f| {
            let tpl = self.template(&Value::String(f.clone()), "forEach", &[])?;
            Some(tpl)
        });

        let mut resolved = Map::new();
        let mut deferred = HashMap::new();
        let mut kind = StepKind::Tool;
        match spec.name {
            CONDITIONAL => {
                let cond = match step.inputs.get("condition") {
                    Some(Value::String(s)) if !s.trim().is_empty() => {
                        self.condition(s, "inputs.condition", for_each_locals)
                    }
                    Some(Value::Bool(b)) => {
                        Condition::parse(if *b { "true" } else { "false" }).ok()
                    }
                    Some(Value::String(_)) => {
                        self.soft(
                            Diagnostic::error(
                                DiagnosticCode::EmptyCondition,
                                "conditional: \"condition\" is empty",
                            )
                            .field("inputs.condition"),
                        );
                        None
                    }
                    Some(_) => {
                        self.fail(
                            Diagnostic::error(
                                DiagnosticCode::InvalidCondition,
                                "conditional: \"condition\" must be a string expression",
                            )
                            .field("inputs.condition"),
                        );
                        None
                    }
                    None => None,
                };
                let then = self.branch("then", DependencyKind::Then);
                let otherwise = self.branch("else", DependencyKind::Else);
                match cond {
                    Some(condition) => {
                        kind = StepKind::Conditional {
                            condition,
                            then,
                            otherwise,
                        }
                    }
                    None => self.ok = false,
                }
                for (k, v) in &step.inputs {
                    if !["condition", "then", "else"].contains(&k.as_str()) {
                        resolved.insert(k.clone(), v.clone());
                    }
                }
            }
            LOOP => {
                kind = self.loop_kind(registry).unwrap_or(StepKind::Tool);
                for (k, v) in &step.inputs {
                    if k != "step" && k != "as" {
                        resolved.insert(k.clone(), v.clone());
                    }
                }
                if let Some(Value::Number(n)) = step.inputs.get("maxIterations")
                    && n.as_f64().is_some_and(|n| n > LOOP_HARD_MAX as f64)
                {
                    self.fail(
                        Diagnostic::error(
                            DiagnosticCode::LimitExceeded,
                            format!("loop: maxIterations is {n}; the limit is {LOOP_HARD_MAX}"),
                        )
                        .field("inputs.maxIterations"),
                    );
                }
            }
            _ => {
                for (k, v) in &step.inputs {
                    match spec.deferred(k) {
                        Some(def) => {
                            let locals: Vec<&str> =
                                def.locals.iter().chain(for_each_locals).copied().collect();
                            let field = format!("inputs.{k}");
                            let parsed = match (def.kind, v) {
                                (DeferredKind::Condition, Value::String(s)) => self
                                    .condition(s, &field, &locals)
                                    .map(DeferredValue::Condition),
                                (DeferredKind::Condition, Value::Bool(b)) => {
                                    Condition::parse(if *b { "true" } else { "false" })
                                        .ok()
                                        .map(DeferredValue::Condition)
                                }
                                (DeferredKind::Condition, _) => {
                                    self.fail(Diagnostic::error(DiagnosticCode::InvalidCondition, format!("{}: \"{k}\" must be a string expression such as \"item.score > 0.5\"", spec.name)).field(field));
                                    None
                                }
                                (DeferredKind::Template, v) => self
                                    .template(v, &field, &locals)
                                    .map(DeferredValue::Template),
                            };
                            if let Some(p) = parsed {
                                deferred.insert(k.clone(), p);
                            }
                        }
                        None => {
                            resolved.insert(k.clone(), v.clone());
                        }
                    }
                }
            }
        }
        if let Some(k) = self.orchestration_kind(spec.name) {
            kind = k;
        }
        let inputs = self.template(&Value::Object(resolved), "inputs", for_each_locals);
        self.depends_on();
        let compensate = self.compensation();

        Some(PlannedStep {
            id: id.to_string(),
            name: step.display_name().to_string(),
            tool: step.tool.clone(),
            inputs: inputs?,
            deferred: Arc::new(deferred),
            condition,
            for_each,
            for_each_concurrency: step.for_each_concurrency.map_or(
                rules::default_int(rules::FOR_EACH_CONCURRENCY) as usize,
                |n| n as usize,
            ),
            continue_on_error: step.continue_on_error.unwrap_or(false),
            retry: step.retry.clone(),
            timeout: step.timeout_ms.map(Duration::from_millis),
            deps: Vec::new(),
            kind,
            compensate,
        })
    }

    /// The references of a step whose tool is unknown: it cannot run, but it can be drawn
    /// with its edges. Templates are parsed as for any step (so their errors are reported).
    pub(super) fn sketch(&mut self) {
        let step = self.step;
        let locals: &[&str] = if step.for_each.is_some() {
            &["item", "index"]
        } else {
            &[]
        };
        if let Some(c) = step.condition.as_deref() {
            self.condition(c, "condition", &[]);
        }
        if let Some(f) = &step.for_each {
            self.template(&Value::String(f.clone()), "forEach", &[]);
        }
        self.template(&Value::Object(step.inputs.clone()), "inputs", locals);
        self.depends_on();
        self.ok = false;
    }

    fn depends_on(&mut self) {
        for dep in self.step.depends_on.iter().flatten() {
            match self.index.get(dep) {
                Some(&j) if j == self.i => self.fail(
                    Diagnostic::error(
                        DiagnosticCode::CircularDependency,
                        "a step cannot depend on itself",
                    )
                    .field("dependsOn"),
                ),
                Some(&j) => self.edges.push(Edge {
                    from: j,
                    to: self.i,
                    kind: DependencyKind::DependsOn,
                    label: "dependsOn".into(),
                    field: "dependsOn".into(),
                }),
                None => {
                    let hint = nearest(dep, self.index.keys().map(String::as_str))
                        .map(|n| format!("; did you mean \"{n}\"?"))
                        .unwrap_or_default();
                    self.fail(
                        Diagnostic::error(
                            DiagnosticCode::UnknownDependsOn,
                            format!("dependsOn names unknown step \"{dep}\"{hint}"),
                        )
                        .field("dependsOn")
                        .referencing(dep),
                    );
                }
            }
        }
    }

    fn loop_kind(&mut self, registry: &Registry) -> Option<StepKind> {
        let inputs = &self.step.inputs;
        let var = match inputs.get("as") {
            Some(Value::String(s)) if is_valid_id(s) => s.clone(),
            Some(_) => {
                self.fail(
                    Diagnostic::error(
                        DiagnosticCode::MissingRequiredInput,
                        "loop: \"as\" must be a name such as \"chunk\"",
                    )
                    .field("inputs.as"),
                );
                return None;
            }
            None => return None,
        };
        if self.index.contains_key(&var) {
            self.d.push(
                Diagnostic::warning(
                    DiagnosticCode::InvalidInput,
                    format!(
                        "loop: \"as\" name \"{var}\" hides the step of that id inside the loop"
                    ),
                )
                .step(&self.step.id)
                .field("inputs.as"),
            );
        }
        let body = match inputs.get("step") {
            Some(Value::Object(o)) => o,
            Some(_) => {
                self.fail(
                    Diagnostic::error(
                        DiagnosticCode::MissingRequiredInput,
                        "loop: \"step\" must be an object {\"tool\": …, \"inputs\": {…}}",
                    )
                    .field("inputs.step"),
                );
                return None;
            }
            None => return None,
        };
        let tool = match body.get("tool") {
            Some(Value::String(t)) if t == CONDITIONAL || t == LOOP => {
                self.fail(
                    Diagnostic::error(
                        DiagnosticCode::InvalidTool,
                        format!("loop: the inner step cannot be a \"{t}\""),
                    )
                    .field("inputs.step.tool"),
                );
                return None;
            }
            Some(Value::String(t)) => match registry.spec(t) {
                Some(spec) => spec,
                None => {
                    let hint = nearest(t, registry.names())
                        .map(|n| format!("; did you mean \"{n}\"?"))
                        .unwrap_or_default();
                    self.fail(
                        Diagnostic::error(
                            DiagnosticCode::InvalidTool,
                            format!("loop: inner step has unknown tool \"{t}\"{hint}"),
                        )
                        .field("inputs.step.tool"),
                    );
                    return None;
                }
            },
            _ => {
                self.fail(
                    Diagnostic::error(
                        DiagnosticCode::MissingTool,
                        "loop: the inner step needs a string \"tool\"",
                    )
                    .field("inputs.step.tool"),
                );
                return None;
            }
        };
        let inner = match body.get("inputs") {
            Some(Value::Object(o)) => o.clone(),
            None => Map::new(),
            Some(_) => {
                self.fail(
                    Diagnostic::error(
                        DiagnosticCode::MissingInputs,
                        "loop: the inner step's \"inputs\" must be an object",
                    )
                    .field("inputs.step.inputs"),
                );
                return None;
            }
        };
        for req in tool.required_inputs() {
            if inner.get(req).is_none_or(Value::is_null) {
                self.soft(
                    Diagnostic::error(
                        DiagnosticCode::MissingRequiredInput,
                        format!("loop: inner {}: input \"{req}\" is required", tool.name),
                    )
                    .field(format!("inputs.step.inputs.{req}")),
                );
            }
        }
        let locals = [var.as_str(), "item", "index", "_loopIndex"];
        let inputs = self.template(&Value::Object(inner), "inputs.step.inputs", &locals)?;
        Some(StepKind::Loop {
            var,
            tool: tool.name.to_string(),
            inputs,
        })
    }

    fn branch(&mut self, key: &str, kind: DependencyKind) -> Vec<usize> {
        let field = format!("inputs.{key}");
        let ids = match self.step.inputs.get(key) {
            None | Some(Value::Null) => return Vec::new(),
            Some(Value::Array(a)) if a.iter().all(Value::is_string) => a,
            Some(_) => {
                self.fail(
                    Diagnostic::error(
                        DiagnosticCode::MissingRequiredInput,
                        format!("conditional: \"{key}\" must be an array of step ids"),
                    )
                    .field(field),
                );
                return Vec::new();
            }
        };
        let what = format!("conditional {key}");
        self.listed_steps(ids, &field, kind, key, &what)
    }

    /// The steps `ids` (strings) name, each made to depend on this step by an edge of `kind`
    /// labelled `label`; unknown ids and this step itself are reported on `field` as `what`
    /// ("conditional then", "router route \"billing\"").
    pub(super) fn listed_steps(
        &mut self,
        ids: &[Value],
        field: &str,
        kind: DependencyKind,
        label: &str,
        what: &str,
    ) -> Vec<usize> {
        let mut out = Vec::new();
        for id in ids.iter().filter_map(Value::as_str) {
            match self.index.get(id) {
                Some(&j) if j == self.i => self.fail(
                    Diagnostic::error(
                        DiagnosticCode::CircularDependency,
                        format!("{what} lists the step itself"),
                    )
                    .field(field),
                ),
                Some(&j) => {
                    self.edges.push(Edge {
                        from: self.i,
                        to: j,
                        kind,
                        label: label.to_string(),
                        field: field.to_string(),
                    });
                    out.push(j);
                }
                None => {
                    let hint = nearest(id, self.index.keys().map(String::as_str))
                        .map(|n| format!("; did you mean \"{n}\"?"))
                        .unwrap_or_default();
                    let diag = Diagnostic::error(
                        DiagnosticCode::UnknownStepRef,
                        format!("{what} references unknown step \"{id}\"{hint}"),
                    )
                    .field(field)
                    .referencing(id);
                    self.soft(diag);
                }
            }
        }
        out
    }

    fn condition(&mut self, src: &str, field: &str, locals: &[&str]) -> Option<Condition> {
        match Condition::parse(src) {
            Ok(c) => {
                self.references(&c.references(), field, locals);
                Some(c)
            }
            Err(e) => {
                self.fail(syntax_diag(&e, field));
                None
            }
        }
    }

    fn template(&mut self, value: &Value, field: &str, locals: &[&str]) -> Option<Template> {
        let tpl = parse_template(value, field, Some(&self.step.id), self.d);
        if tpl.is_none() {
            self.ok = false;
        }
        let tpl = tpl?;
        let mut found = Vec::new();
        references_by_field(&tpl, field, &mut found);
        for (at, refs) in found {
            self.references(&refs, &at, locals);
        }
        Some(tpl)
    }

    fn references(&mut self, refs: &[Reference], field: &str, locals: &[&str]) {
        for r in refs {
            let root = r.root.as_str();
            if root == "inputs" && !locals.contains(&root) {
                self.input_refs.push(InputRef::new(self.i, r, field));
            }
            if GLOBALS.contains(&root) || locals.contains(&root) {
                continue;
            }
            match self.index.get(root) {
                Some(&j) if j == self.i => self.fail(
                    Diagnostic::error(DiagnosticCode::NotUpstream, format!("\"{}\" reads this step's own output; a step can only read steps upstream of it", r.path))
                        .field(field)
                        .referencing(root),
                ),
                Some(&j) => self.edges.push(Edge { from: j, to: self.i, kind: DependencyKind::Reference, label: r.path.clone(), field: field.to_string() }),
                None => {
                    let id = self.step.id.clone();
                    unknown_ref(self.d, Some(&id), field, r, self.index);
                    if !self.d.is_draft() {
                        self.ok = false;
                    }
                }
            }
        }
    }

    pub(super) fn fail(&mut self, d: Diagnostic) {
        self.ok = false;
        self.d.push(d.step(&self.step.id));
    }

    pub(super) fn soft(&mut self, d: Diagnostic) {
        if !self.d.is_draft() {
            self.ok = false;
        }
        let d = d.step(&self.step.id);
        let sev = if d.code == DiagnosticCode::UnknownStepRef {
            Severity::Warning
        } else {
            Severity::Info
        };
        self.d.soft(d, sev);
    }
}
