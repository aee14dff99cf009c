//! A compiled workflow drawn as a graph (`GraphView`): the inputs node, one node per step, the
//! output node, and edges from the engine's outline — also for workflows with errors.

use std::collections::HashSet;
use vai_contract::{EdgeKind, GraphEdge, GraphNode, GraphView, InputField, StepNode};
use vai_workflow::compile::DependencyKind;
use vai_workflow::rules::edge_id;
use vai_workflow::{Category, Compiled, Registry};

pub(crate) use vai_workflow::rules::{INPUTS_NODE, OUTPUT_NODE};

/// Longest node summary, in characters.
const SUMMARY_CHARS: usize = 80;

/// The graph of `compiled`, when its structure could be read.
pub(crate) fn view(compiled: &Compiled, registry: &Registry) -> Option<GraphView> {
    let workflow = compiled.workflow.as_ref()?;
    let outline = compiled.outline.as_ref()?;
    let steps = &workflow.steps;
    let id = |i: usize| steps[i].id.clone();

    let mut nodes = Vec::with_capacity(steps.len() + 2);
    nodes.push(GraphNode::Inputs {
        id: INPUTS_NODE.into(),
        inputs: workflow
            .inputs
            .iter()
            .map(|(name, decl)| InputField {
                name: name.clone(),
                kind: decl.kind,
                required: decl.is_required(),
                default: decl.default.clone(),
                description: decl.description.clone(),
            })
            .collect(),
    });
    for step in steps {
        let spec = registry.spec(&step.tool);
        // An unknown tool still draws, in neutral grey.
        let category = spec.map_or(Category::Utility, |s| s.category);
        nodes.push(GraphNode::Step(StepNode {
            id: step.id.clone(),
            name: step.display_name().to_string(),
            tool: step.tool.clone(),
            category,
            color: spec.map_or("#9E9E9E", |s| s.colour()).to_string(),
            icon: spec.map_or("HelpOutline", |s| s.icon).to_string(),
            description: step.description.clone(),
            summary: spec
                .and_then(|s| s.main_input)
                .and_then(|k| step.inputs.get(k))
                .map(summary),
            condition: step.condition.clone(),
            for_each: step.for_each.clone(),
            continue_on_error: step.continue_on_error.unwrap_or(false),
        }));
    }
    if let Some(output) = &workflow.output {
        nodes.push(GraphNode::Output {
            id: OUTPUT_NODE.into(),
            fields: output
                .as_object()
                .map(|m| m.keys().cloned().collect())
                .unwrap_or_default(),
        });
    }

    let mut edges = Edges::default();
    for r in &outline.inputs {
        edges.push(
            INPUTS_NODE.into(),
            id(r.step),
            EdgeKind::Input,
            &r.path,
            &r.field,
        );
    }
    for e in &outline.edges {
        let (kind, label) = match e.kind {
            DependencyKind::Reference => (EdgeKind::Reference, e.label.clone()),
            DependencyKind::DependsOn => (EdgeKind::DependsOn, id(e.from)),
            DependencyKind::Then => (EdgeKind::Then, id(e.to)),
            DependencyKind::Else => (EdgeKind::Else, id(e.to)),
            DependencyKind::Route => (EdgeKind::Route, e.label.clone()),
        };
        edges.push(id(e.from), id(e.to), kind, &label, &e.field);
    }
    if workflow.output.is_some() {
        for r in &outline.output {
            let source = r.step.map_or_else(|| INPUTS_NODE.to_string(), id);
            edges.push(
                source,
                OUTPUT_NODE.into(),
                EdgeKind::Output,
                &r.path,
                &r.field,
            );
        }
    }

    Some(GraphView {
        name: workflow.name.clone(),
        description: workflow.description.clone(),
        nodes,
        edges: edges.list,
        layers: outline
            .layers
            .iter()
            .map(|l| l.iter().map(|&i| id(i)).collect())
            .collect(),
        estimate: match &compiled.plan {
            Some(plan) => vai_workflow::estimate_plan(plan, registry),
            None => vai_workflow::estimate(workflow, registry),
        },
        runnable: compiled.plan.is_some() && compiled.is_valid(),
    })
}

/// Edges, one per (source, target, field).
#[derive(Default)]
struct Edges {
    seen: HashSet<(String, String, String)>,
    list: Vec<GraphEdge>,
}

impl Edges {
    fn push(&mut self, source: String, target: String, kind: EdgeKind, label: &str, field: &str) {
        if !self
            .seen
            .insert((source.clone(), target.clone(), field.to_string()))
        {
            return;
        }
        self.list.push(GraphEdge {
            id: edge_id(&source, &target, field),
            source,
            target,
            kind,
            label: label.to_string(),
            field: field.to_string(),
        });
    }
}

/// One line for a node: the main input's text, or its JSON, shortened.
fn summary(value: &serde_json::Value) -> String {
    let text = match value {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    vai_workflow::value::truncate_chars(&line, SUMMARY_CHARS)
}
