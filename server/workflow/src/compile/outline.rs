//! The outline of a workflow: its dependency edges, display layers, and which inputs and steps
//! the templates and the output mapping read. Built from the parsed templates alongside the
//! plan, and kept even when the workflow has errors so the playground can draw it.

use super::graph::kahn_layers;
use super::plan::Edge;
use crate::expr::Reference;

/// How a workflow is wired. Step indices are positions in `Workflow::steps`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Outline {
    /// Step → step edges, including those of steps that could not be planned.
    pub edges: Vec<Edge>,
    /// Kahn layers of step indices; steps caught in a cycle come last, in one layer.
    pub layers: Vec<Vec<usize>>,
    /// Workflow inputs read by step templates.
    pub inputs: Vec<InputRef>,
    /// What the output mapping reads.
    pub output: Vec<OutputRef>,
}

/// A step template reading `inputs.<input>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputRef {
    pub step: usize,
    /// The input's name (empty when the template reads `inputs` as a whole).
    pub input: String,
    /// The referenced path (`inputs.query`).
    pub path: String,
    /// Where in the step it sits (`inputs.query`, `condition`).
    pub field: String,
}

/// The output mapping reading a step or a workflow input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutputRef {
    /// The step read, or `None` for `inputs.*`.
    pub step: Option<usize>,
    /// The referenced path (`summarize.output.text`).
    pub path: String,
    /// Where in the mapping it sits (`output.answer`).
    pub field: String,
}

impl InputRef {
    pub(super) fn new(step: usize, r: &Reference, field: &str) -> Self {
        let rest = r.path.strip_prefix("inputs").unwrap_or_default();
        let rest = rest.strip_prefix('.').unwrap_or(rest);
        let input = rest
            .split(['.', '['])
            .next()
            .unwrap_or_default()
            .to_string();
        Self {
            step,
            input,
            path: r.path.clone(),
            field: field.to_string(),
        }
    }
}

/// Layers for display: Kahn layers, then any steps a cycle kept out of them.
pub(super) fn display_layers(deps: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let mut layers = kahn_layers(deps);
    let mut placed = vec![false; deps.len()];
    for &i in layers.iter().flatten() {
        placed[i] = true;
    }
    let rest: Vec<usize> = (0..deps.len()).filter(|&i| !placed[i]).collect();
    if !rest.is_empty() {
        layers.push(rest);
    }
    layers
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_names_from_paths() {
        let r = |path: &str| Reference {
            root: "inputs".into(),
            path: path.into(),
            span: 0..0,
            names: Vec::new(),
        };
        assert_eq!(InputRef::new(0, &r("inputs.query"), "f").input, "query");
        assert_eq!(InputRef::new(0, &r("inputs.q.len"), "f").input, "q");
        assert_eq!(InputRef::new(0, &r("inputs.list[0]"), "f").input, "list");
        assert_eq!(InputRef::new(0, &r("inputs"), "f").input, "");
    }

    #[test]
    fn cyclic_steps_are_still_placed() {
        // 0 → 1 → 2 → 1
        let deps = vec![vec![], vec![0, 2], vec![1]];
        assert_eq!(display_layers(&deps), vec![vec![0], vec![1, 2]]);
    }
}
