//! Building the plan: each step checked (`step`), the output mapping checked (`refs`), then
//! dependencies, cycles and Kahn layers (`graph`). The outline is built alongside, and kept
//! even when the plan cannot be.

use super::diags::Diags;
use super::graph::{find_cycles, kahn_layers};
use super::outline::{Outline, OutputRef, display_layers};
use super::plan::{Edge, Plan, PlannedStep};
use super::refs::{parse_template, references_by_field, unknown_ref};
use super::step::StepCx;
use crate::diagnostic::Diagnostic;
use crate::diagnostic::DiagnosticCode;
use crate::model::Workflow;
use crate::tool::Registry;
use std::collections::HashMap;

/// The plan, when every step could be planned and there is no cycle, and the outline always.
pub(super) fn plan(w: &Workflow, registry: &Registry, d: &mut Diags) -> (Option<Plan>, Outline) {
    let index: HashMap<String, usize> = w
        .steps
        .iter()
        .enumerate()
        .map(|(i, s)| (s.id.clone(), i))
        .collect();
    let mut edges = Vec::new();
    let mut input_refs = Vec::new();
    let mut steps = Vec::with_capacity(w.steps.len());
    let mut complete = true;
    for (i, step) in w.steps.iter().enumerate() {
        let mut cx = StepCx {
            step,
            i,
            index: &index,
            d,
            edges: &mut edges,
            input_refs: &mut input_refs,
            ok: true,
        };
        let planned = match registry.spec(&step.tool) {
            Some(spec) => cx.plan(spec, registry),
            None => {
                // Not runnable, but its references still draw.
                cx.sketch();
                None
            }
        };
        complete &= cx.ok;
        steps.push(planned);
    }

    let mut output_refs = Vec::new();
    let output = w.output.as_ref().and_then(|o| {
        let tpl = parse_template(o, "output", None, d)?;
        let mut found = Vec::new();
        references_by_field(&tpl, "output", &mut found);
        for (field, refs) in found {
            for r in refs {
                let step = index.get(&r.root).copied();
                if step.is_none() && r.root != "inputs" {
                    if r.root != "defaults" {
                        unknown_ref(d, None, "output", &r, &index);
                    }
                    continue;
                }
                output_refs.push(OutputRef {
                    step,
                    path: r.path,
                    field: field.clone(),
                });
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
    let outline = |edges: Vec<Edge>, deps: &[Vec<usize>]| Outline {
        edges,
        layers: display_layers(deps),
        inputs: input_refs,
        output: output_refs,
    };
    if let Some(cycles) = find_cycles(&deps) {
        for cycle in cycles {
            let names: Vec<&str> = cycle.iter().map(|&i| w.steps[i].id.as_str()).collect();
            d.push(
                Diagnostic::error(
                    DiagnosticCode::CircularDependency,
                    format!("circular dependency: {}", names.join(" -> ")),
                )
                .step(names[0]),
            );
        }
        return (None, outline(edges, &deps));
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
                    Diagnostic::info(
                        DiagnosticCode::OrphanNode,
                        "the step is not connected to any other step",
                    )
                    .step(&s.id),
                );
            }
        }
    }
    let layers = kahn_layers(&deps);
    let outline = outline(edges.clone(), &deps);
    if !complete {
        return (None, outline);
    }
    let steps = steps
        .into_iter()
        .zip(deps)
        .map(|(s, deps)| s.map(|s| PlannedStep { deps, ..s }))
        .collect::<Option<Vec<_>>>();
    let plan = steps.map(|steps| Plan::new(w.clone(), steps, layers, edges, output, index));
    (plan, outline)
}
