//! Tests of the outline: edges, input and output references, and drawing invalid workflows.

use super::*;
use crate::test_support::registry;
use serde_json::json;

fn outline(v: Value) -> (Compiled, Arc<Outline>) {
    let c = compile(&v, &registry(), Mode::Strict);
    let o = c.outline.clone().expect("outline");
    (c, o)
}

#[test]
fn input_and_output_references_come_with_their_fields() {
    let (c, o) = outline(
        json!({"name": "t", "inputs": {"q": {"type": "string"}}, "steps": [
        {"id": "a", "tool": "echo", "inputs": {"q": "{{ inputs.q }}", "n": "x {{ inputs.q }} {{ 'inputs.z' }}"}},
        {"id": "b", "tool": "echo", "condition": "inputs.q != ''", "inputs": {"v": "{{ a.output.q }}"}}
    ], "output": {"answer": "{{ b.output.v }}", "question": "{{ inputs.q }}"}}),
    );
    assert!(c.plan.is_some());
    let inputs: Vec<(usize, &str, &str)> = o
        .inputs
        .iter()
        .map(|r| (r.step, r.input.as_str(), r.field.as_str()))
        .collect();
    assert_eq!(
        inputs,
        vec![
            (0, "q", "inputs.q"),
            (0, "q", "inputs.n"),
            (1, "q", "condition")
        ]
    );
    let output: Vec<(Option<usize>, &str, &str)> = o
        .output
        .iter()
        .map(|r| (r.step, r.path.as_str(), r.field.as_str()))
        .collect();
    assert_eq!(
        output,
        vec![
            (Some(1), "b.output.v", "output.answer"),
            (None, "inputs.q", "output.question")
        ]
    );
    assert_eq!(o.edges.len(), 1);
    assert_eq!(o.layers, vec![vec![0], vec![1]]);
}

#[test]
fn an_invalid_workflow_still_has_an_outline() {
    let (c, o) = outline(json!({"name": "t", "steps": [
        {"id": "a", "tool": "echo", "inputs": {}},
        {"id": "b", "tool": "no_such_tool", "inputs": {"v": "{{ a.output }}"}},
        {"id": "c", "tool": "echo", "inputs": {"v": "{{ b.output }} {{ ghost.output }}"}}
    ]}));
    assert!(c.plan.is_none());
    assert!(!c.is_valid());
    let edges: Vec<(usize, usize)> = o.edges.iter().map(|e| (e.from, e.to)).collect();
    assert_eq!(edges, vec![(0, 1), (1, 2)]);
    assert_eq!(o.layers, vec![vec![0], vec![1], vec![2]]);
}

#[test]
fn a_cycle_is_drawn_too() {
    let (c, o) = outline(json!({"name": "t", "steps": [
        {"id": "a", "tool": "echo", "inputs": {"v": "{{ b.output }}"}},
        {"id": "b", "tool": "echo", "inputs": {"v": "{{ a.output }}"}}
    ]}));
    assert!(c.plan.is_none());
    assert_eq!(o.edges.len(), 2);
    assert_eq!(o.layers, vec![vec![0, 1]]);
}

#[test]
fn no_outline_without_steps() {
    let c = compile(&json!({"name": "t"}), &registry(), Mode::Strict);
    assert!(c.outline.is_none());
}
