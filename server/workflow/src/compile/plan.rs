//! Semantic checks and the sealed plan: tool inputs, templates parsed into typed trees,
//! references resolved to step indices, dependencies, cycles and Kahn layers.

use super::{Diags, nearest};
use crate::control::{CONDITIONAL, LOOP, LOOP_HARD_MAX};
use crate::diagnostic::{Diagnostic, Severity};
use crate::expr::Reference;
use crate::model::{RetryPolicy, Step, Workflow, is_valid_id};
use crate::template::{Condition, Template, TemplateError};
use crate::tool::{DeferredKind, DeferredValue, Registry, ToolSpec};
use serde::Serialize;
use serde_json::{Map, Value};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;

/// Default number of `forEach` iterations in flight.
pub const DEFAULT_FOR_EACH_CONCURRENCY: usize = 4;

/// A validated workflow, ready to run. Read-only once built.
#[derive(Debug, Clone)]
pub struct Plan {
    pub workflow: Workflow,
    pub steps: Vec<PlannedStep>,
    /// Kahn layers of step indices, for display and dry runs (execution is by readiness).
    pub layers: Vec<Vec<usize>>,
    pub edges: Vec<Edge>,
    pub output: Option<Template>,
    index: HashMap<String, usize>,
}

impl Plan {
    pub fn step_index(&self, id: &str) -> Option<usize> {
        self.index.get(id).copied()
    }

    pub fn layer_ids(&self) -> Vec<Vec<String>> {
        self.layers
            .iter()
            .map(|l| l.iter().map(|&i| self.steps[i].id.clone()).collect())
            .collect()
    }
}

/// One step, with everything the executor needs already parsed.
#[derive(Debug, Clone)]
pub struct PlannedStep {
    pub id: String,
    pub name: String,
    pub tool: String,
    /// The inputs resolved before each call (deferred inputs and control-flow fields excluded).
    pub inputs: Template,
    pub deferred: Arc<HashMap<String, DeferredValue>>,
    pub condition: Option<Condition>,
    pub for_each: Option<Template>,
    pub for_each_concurrency: usize,
    pub continue_on_error: bool,
    pub retry: Option<RetryPolicy>,
    pub timeout: Option<Duration>,
    /// Indices of the steps this one waits for, ascending.
    pub deps: Vec<usize>,
    pub kind: StepKind,
}

/// How the executor runs a step.
#[derive(Debug, Clone)]
pub enum StepKind {
    Tool,
    Conditional {
        condition: Condition,
        then: Vec<usize>,
        otherwise: Vec<usize>,
    },
    Loop {
        var: String,
        tool: String,
        inputs: Template,
    },
}

/// Why one step depends on another.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EdgeKind {
    Reference,
    DependsOn,
    Then,
    Else,
}

/// A dependency edge, `from` → `to`, with the expression or field that made it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Edge {
    pub from: usize,
    pub to: usize,
    pub kind: EdgeKind,
    /// The referenced path (`search.output.results`), or the field (`dependsOn`, `then`).
    pub label: String,
    /// Where in the dependent step the reference sits (`inputs.query`, `condition`).
    pub field: String,
}

const GLOBALS: &[&str] = &["inputs", "defaults"];

pub(super) fn build(w: &Workflow, registry: &Registry, d: &mut Diags) -> Option<Plan> {
    let index: HashMap<String, usize> = w
        .steps
        .iter()
        .enumerate()
        .map(|(i, s)| (s.id.clone(), i))
        .collect();
    let mut edges = Vec::new();
    let mut steps = Vec::with_capacity(w.steps.len());
    let mut complete = true;
    for (i, step) in w.steps.iter().enumerate() {
        let mut cx = StepCx {
            step,
            i,
            index: &index,
            d,
            edges: &mut edges,
            ok: true,
        };
        let planned = match registry.spec(&step.tool) {
            Some(spec) => cx.plan(spec, registry),
            None => None,
        };
        complete &= cx.ok;
        steps.push(planned);
    }

    let output = w.output.as_ref().and_then(|o| {
        let tpl = parse_template(o, "output", None, d)?;
        for r in tpl.references() {
            if !GLOBALS.contains(&r.root.as_str()) && !index.contains_key(&r.root) {
                unknown_ref(d, None, "output", &r, &index);
            }
        }
        Some(tpl)
    });

    // Dependencies, cycles and layers over the steps whose references resolved.
    let mut deps: Vec<Vec<usize>> = vec![Vec::new(); w.steps.len()];
    for e in &edges {
        if e.from != e.to && !deps[e.to].contains(&e.from) {
            deps[e.to].push(e.from);
        }
    }
    for list in &mut deps {
        list.sort_unstable();
    }
    if let Some(cycles) = find_cycles(&deps) {
        for cycle in cycles {
            let names: Vec<&str> = cycle.iter().map(|&i| w.steps[i].id.as_str()).collect();
            d.push(
                Diagnostic::error(
                    "CIRCULAR_DEPENDENCY",
                    format!("circular dependency: {}", names.join(" -> ")),
                )
                .step(names[0]),
            );
        }
        return None;
    }
    if w.steps.len() > 1 {
        let mut dependents = vec![false; w.steps.len()];
        for list in &deps {
            for &j in list {
                dependents[j] = true;
            }
        }
        for (i, s) in w.steps.iter().enumerate() {
            if deps[i].is_empty() && !dependents[i] {
                d.draft_only(
                    Diagnostic::info("ORPHAN_NODE", "the step is not connected to any other step")
                        .step(&s.id),
                );
            }
        }
    }
    let layers = kahn_layers(&deps);
    if !complete {
        return None;
    }
    let steps = steps
        .into_iter()
        .zip(deps)
        .map(|(s, deps)| s.map(|s| PlannedStep { deps, ..s }))
        .collect::<Option<Vec<_>>>()?;
    Some(Plan {
        workflow: w.clone(),
        steps,
        layers,
        edges,
        output,
        index,
    })
}

struct StepCx<'a> {
    step: &'a Step,
    i: usize,
    index: &'a HashMap<String, usize>,
    d: &'a mut Diags,
    edges: &'a mut Vec<Edge>,
    ok: bool,
}

impl StepCx<'_> {
    fn plan(&mut self, spec: &ToolSpec, registry: &Registry) -> Option<PlannedStep> {
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
                        "MISSING_REQUIRED_INPUT",
                        format!("{}: input \"{req}\" is required", spec.name),
                    )
                    .field(format!("inputs.{req}")),
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
                                "EMPTY_CONDITION",
                                "conditional: \"condition\" is empty",
                            )
                            .field("inputs.condition"),
                        );
                        None
                    }
                    Some(_) => {
                        self.fail(
                            Diagnostic::error(
                                "INVALID_CONDITION",
                                "conditional: \"condition\" must be a string expression",
                            )
                            .field("inputs.condition"),
                        );
                        None
                    }
                    None => None,
                };
                let then = self.branch("then", EdgeKind::Then);
                let otherwise = self.branch("else", EdgeKind::Else);
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
                            "LIMIT_EXCEEDED",
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
                                    self.fail(Diagnostic::error("INVALID_CONDITION", format!("{}: \"{k}\" must be a string expression such as \"item.score > 0.5\"", spec.name)).field(field));
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
        let inputs = self.template(&Value::Object(resolved), "inputs", for_each_locals);

        for dep in step.depends_on.iter().flatten() {
            match self.index.get(dep) {
                Some(&j) if j == self.i => self.fail(
                    Diagnostic::error("CIRCULAR_DEPENDENCY", "a step cannot depend on itself")
                        .field("dependsOn"),
                ),
                Some(&j) => self.edges.push(Edge {
                    from: j,
                    to: self.i,
                    kind: EdgeKind::DependsOn,
                    label: "dependsOn".into(),
                    field: "dependsOn".into(),
                }),
                None => {
                    let hint = nearest(dep, self.index.keys().map(String::as_str))
                        .map(|n| format!("; did you mean \"{n}\"?"))
                        .unwrap_or_default();
                    self.fail(
                        Diagnostic::error(
                            "UNKNOWN_DEPENDS_ON",
                            format!("dependsOn names unknown step \"{dep}\"{hint}"),
                        )
                        .field("dependsOn")
                        .referencing(dep),
                    );
                }
            }
        }

        Some(PlannedStep {
            id: id.to_string(),
            name: step.display_name().to_string(),
            tool: step.tool.clone(),
            inputs: inputs?,
            deferred: Arc::new(deferred),
            condition,
            for_each,
            for_each_concurrency: step
                .for_each_concurrency
                .map_or(DEFAULT_FOR_EACH_CONCURRENCY, |n| n as usize),
            continue_on_error: step.continue_on_error.unwrap_or(false),
            retry: step.retry.clone(),
            timeout: step.timeout_ms.map(Duration::from_millis),
            deps: Vec::new(),
            kind,
        })
    }

    fn loop_kind(&mut self, registry: &Registry) -> Option<StepKind> {
        let inputs = &self.step.inputs;
        let var = match inputs.get("as") {
            Some(Value::String(s)) if is_valid_id(s) => s.clone(),
            Some(_) => {
                self.fail(
                    Diagnostic::error(
                        "MISSING_REQUIRED_INPUT",
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
                    "INVALID_INPUT",
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
                        "MISSING_REQUIRED_INPUT",
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
                        "INVALID_TOOL",
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
                            "INVALID_TOOL",
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
                        "MISSING_TOOL",
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
                        "MISSING_INPUTS",
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
                        "MISSING_REQUIRED_INPUT",
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

    fn branch(&mut self, key: &str, kind: EdgeKind) -> Vec<usize> {
        let field = format!("inputs.{key}");
        let ids = match self.step.inputs.get(key) {
            None | Some(Value::Null) => return Vec::new(),
            Some(Value::Array(a)) if a.iter().all(Value::is_string) => a,
            Some(_) => {
                self.fail(
                    Diagnostic::error(
                        "MISSING_REQUIRED_INPUT",
                        format!("conditional: \"{key}\" must be an array of step ids"),
                    )
                    .field(field),
                );
                return Vec::new();
            }
        };
        let mut out = Vec::new();
        for id in ids.iter().filter_map(Value::as_str) {
            match self.index.get(id) {
                Some(&j) if j == self.i => self.fail(
                    Diagnostic::error(
                        "CIRCULAR_DEPENDENCY",
                        format!("conditional: \"{key}\" lists the conditional itself"),
                    )
                    .field(field.clone()),
                ),
                Some(&j) => {
                    self.edges.push(Edge {
                        from: self.i,
                        to: j,
                        kind,
                        label: key.to_string(),
                        field: field.clone(),
                    });
                    out.push(j);
                }
                None => {
                    let hint = nearest(id, self.index.keys().map(String::as_str))
                        .map(|n| format!("; did you mean \"{n}\"?"))
                        .unwrap_or_default();
                    let diag = Diagnostic::error(
                        "UNKNOWN_STEP_REF",
                        format!("conditional {key} references unknown step \"{id}\"{hint}"),
                    )
                    .field(field.clone())
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
            if GLOBALS.contains(&root) || locals.contains(&root) {
                continue;
            }
            match self.index.get(root) {
                Some(&j) if j == self.i => self.fail(
                    Diagnostic::error("NOT_UPSTREAM", format!("\"{}\" reads this step's own output; a step can only read steps upstream of it", r.path))
                        .field(field)
                        .referencing(root),
                ),
                Some(&j) => self.edges.push(Edge { from: j, to: self.i, kind: EdgeKind::Reference, label: r.path.clone(), field: field.to_string() }),
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

    fn fail(&mut self, d: Diagnostic) {
        self.ok = false;
        self.d.push(d.step(&self.step.id));
    }

    fn soft(&mut self, d: Diagnostic) {
        if !self.d.is_draft() {
            self.ok = false;
        }
        let d = d.step(&self.step.id);
        let sev = if d.code == "UNKNOWN_STEP_REF" {
            Severity::Warning
        } else {
            Severity::Info
        };
        self.d.soft(d, sev);
    }
}

/// The references of a template, each with the field path it sits at (`inputs.arrays[1]`).
fn references_by_field(tpl: &Template, field: &str, out: &mut Vec<(String, Vec<Reference>)>) {
    match tpl {
        Template::Literal(_) => {}
        Template::Object(entries) => {
            for (k, t) in entries {
                references_by_field(t, &format!("{field}.{k}"), out);
            }
        }
        Template::Array(items) => {
            for (i, t) in items.iter().enumerate() {
                references_by_field(t, &format!("{field}[{i}]"), out);
            }
        }
        other => out.push((field.to_string(), other.references())),
    }
}

fn unknown_ref(
    d: &mut Diags,
    step: Option<&str>,
    field: &str,
    r: &Reference,
    index: &HashMap<String, usize>,
) {
    let hint = nearest(
        &r.root,
        index
            .keys()
            .map(String::as_str)
            .chain(GLOBALS.iter().copied()),
    )
    .map(|n| format!("; did you mean \"{n}\"?"))
    .unwrap_or_default();
    let mut diag = Diagnostic::error(
        "UNKNOWN_STEP_REF",
        format!(
            "\"{}\" references unknown step \"{}\"{hint}",
            r.path, r.root
        ),
    )
    .field(field)
    .referencing(&r.root);
    if let Some(s) = step {
        diag = diag.step(s);
    }
    d.soft(diag, Severity::Warning);
}

fn parse_template(
    value: &Value,
    field: &str,
    step: Option<&str>,
    d: &mut Diags,
) -> Option<Template> {
    match Template::parse(value) {
        Ok(t) => Some(t),
        Err(errors) => {
            for e in errors {
                let mut diag = syntax_diag(&e, &join_pointer(field, &e.pointer));
                if let Some(s) = step {
                    diag = diag.step(s);
                }
                d.push(diag);
            }
            None
        }
    }
}

fn syntax_diag(e: &TemplateError, field: &str) -> Diagnostic {
    Diagnostic::error(
        "TEMPLATE_SYNTAX",
        format!(
            "template syntax error: {} at position {}",
            e.message, e.position
        ),
    )
    .field(field)
}

/// `inputs` + `/arrays/1/x` → `inputs.arrays[1].x`.
fn join_pointer(field: &str, pointer: &str) -> String {
    let mut out = field.to_string();
    for seg in pointer.split('/').skip(1) {
        let seg = seg.replace("~1", "/").replace("~0", "~");
        if !seg.is_empty() && seg.chars().all(|c| c.is_ascii_digit()) {
            out.push_str(&format!("[{seg}]"));
        } else {
            out.push('.');
            out.push_str(&seg);
        }
    }
    out
}

/// Every elementary cycle found by a depth-first search (one per strongly connected group).
fn find_cycles(deps: &[Vec<usize>]) -> Option<Vec<Vec<usize>>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        Open,
        Done,
    }
    let n = deps.len();
    let mut mark = vec![Mark::New; n];
    let mut cycles = Vec::new();
    let mut in_cycle = HashSet::new();
    for start in 0..n {
        if mark[start] != Mark::New {
            continue;
        }
        // Iterative DFS along dependency edges: (node, next dep position).
        let mut stack: Vec<(usize, usize)> = vec![(start, 0)];
        mark[start] = Mark::Open;
        while let Some(&mut (node, ref mut pos)) = stack.last_mut() {
            if let Some(&next) = deps[node].get(*pos) {
                *pos += 1;
                match mark[next] {
                    Mark::New => {
                        mark[next] = Mark::Open;
                        stack.push((next, 0));
                    }
                    Mark::Open if !in_cycle.contains(&next) => {
                        let from = stack.iter().position(|&(s, _)| s == next).unwrap_or(0);
                        // Dependencies point backwards in execution order: reverse to read forwards.
                        let mut cycle: Vec<usize> = stack[from..].iter().map(|&(s, _)| s).collect();
                        cycle.reverse();
                        // Start at the step that comes first in the file.
                        let first = (0..cycle.len()).min_by_key(|&k| cycle[k]).unwrap_or(0);
                        cycle.rotate_left(first);
                        in_cycle.extend(cycle.iter().copied());
                        cycle.push(cycle[0]);
                        cycles.push(cycle);
                    }
                    _ => {}
                }
            } else {
                mark[node] = Mark::Done;
                stack.pop();
            }
        }
    }
    (!cycles.is_empty()).then_some(cycles)
}

fn kahn_layers(deps: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let n = deps.len();
    let mut indegree: Vec<usize> = deps.iter().map(Vec::len).collect();
    let mut dependents = vec![Vec::new(); n];
    for (i, list) in deps.iter().enumerate() {
        for &j in list {
            dependents[j].push(i);
        }
    }
    let mut layer: Vec<usize> = (0..n).filter(|&i| indegree[i] == 0).collect();
    let mut layers = Vec::new();
    while !layer.is_empty() {
        let mut next = Vec::new();
        for &i in &layer {
            for &k in &dependents[i] {
                indegree[k] -= 1;
                if indegree[k] == 0 {
                    next.push(k);
                }
            }
        }
        next.sort_unstable();
        layers.push(std::mem::replace(&mut layer, next));
    }
    layers
}
