//! Tests of the run-time limits: values nest at most `MAX_DEPTH`, and resolved values, step
//! outputs and a run's outputs stay within their byte budgets, each failing the step that would
//! pass them with `LIMIT_EXCEEDED` naming the field.

use super::*;
use crate::compile::{Mode, compile};
use crate::events::RunStatus;
use crate::limits::Limits;
use crate::test_support::registry;
use serde_json::{Map, Value, json};

/// `depth` arrays around `inner`, built without recursion.
fn nested(depth: usize, inner: Value) -> Value {
    (0..depth).fold(inner, |v, _| Value::Array(vec![v]))
}

async fn run_limited(wf: Value, inputs: Value, limits: Limits) -> RunResult {
    let reg = registry();
    let c = compile(&wf, &reg, Mode::Strict);
    let plan = c
        .plan
        .unwrap_or_else(|| panic!("invalid: {:#?}", c.diagnostics));
    let options = RunOptions {
        inputs: inputs.as_object().cloned().unwrap_or_default(),
        limits,
        ..RunOptions::default()
    };
    run(
        plan,
        Arc::new(reg),
        options,
        Arc::new(crate::events::NoEvents),
    )
    .await
    .expect("inputs ok")
}

fn step<'r>(result: &'r RunResult, id: &str) -> &'r StepRecord {
    result.steps.iter().find(|s| s.id == id).unwrap()
}

/// The failure of the run: it failed, at step `id`, with `LIMIT_EXCEEDED` on `field`.
fn assert_limit(result: &RunResult, id: &str, field: &str, limit: &str) {
    assert_eq!(result.status, RunStatus::Failed, "{:?}", result.error);
    let error = step(result, id).error.as_deref().unwrap_or_default();
    assert!(
        error.starts_with(&format!("{field}: ")) && error.ends_with("[LIMIT_EXCEEDED]"),
        "{error}"
    );
    assert!(error.contains(limit), "{error}");
    let run_error = result.error.as_deref().unwrap_or_default();
    assert!(
        run_error.starts_with(&format!("step \"{id}\" failed: {field}")),
        "{run_error}"
    );
}

#[tokio::test]
async fn a_chain_of_deep_wrappers_fails_at_the_first_step_past_the_nesting_bound() {
    // Each step wraps the previous output in 118 arrays: a value 9,000 levels deep by the end
    // of the chain, which would overflow the stack when copied or dropped.
    let mut steps = vec![json!({"id": "s0", "tool": "echo", "inputs": {"v": "{{ inputs.x }}"}})];
    for i in 1..80 {
        let wrapped = nested(118, json!(format!("{{{{ s{}.output }}}}", i - 1)));
        steps.push(json!({"id": format!("s{i}"), "tool": "echo", "inputs": {"v": wrapped}}));
    }
    let wf = json!({"name": "deep", "steps": steps, "output": "{{ s79.output }}"});
    let result = run_limited(wf, json!({"x": [1]}), Limits::DEFAULT).await;
    // s0's output nests 2 levels, s1's 121: s2 would make 240.
    assert_eq!(step(&result, "s1").status, StepOutcome::Completed);
    assert_limit(&result, "s2", "inputs.v", "deeper than 128 levels");
    assert_eq!(step(&result, "s3").status, StepOutcome::Pending);
}

#[tokio::test]
async fn a_tool_output_nested_too_deeply_fails_its_step() {
    // The echo tool wraps its input once more: an input exactly at the bound cannot come back.
    let wf = json!({"name": "t", "steps": [
        {"id": "a", "tool": "echo", "inputs": {"v": "{{ inputs.deep }}"}}
    ]});
    let deep = nested(127, json!(1));
    let result = run_limited(wf.clone(), json!({"deep": deep}), Limits::DEFAULT).await;
    assert_eq!(result.status, RunStatus::Completed, "{:?}", result.error);
    let deeper = nested(128, json!(1));
    let result = run_limited(wf, json!({"deep": deeper}), Limits::DEFAULT).await;
    assert_limit(&result, "a", "output", "deeper than 128 levels");
}

#[tokio::test]
async fn interpolated_text_past_the_value_budget_fails_the_step_before_it_is_built() {
    let wf = json!({"name": "t", "steps": [
        {"id": "render", "tool": "echo", "inputs": {"text": "{{ inputs.x }}".repeat(50_000)}}
    ]});
    let result = run_limited(wf, json!({"x": "y".repeat(40_000)}), Limits::DEFAULT).await;
    assert_limit(&result, "render", "inputs.text", "larger than 16 MiB");
}

#[tokio::test]
async fn step_outputs_are_held_to_the_step_limit() {
    // Ten references to one input cost nothing to resolve (they are borrowed), but the echo
    // tool's output copies each: 10 × 2 KB against a 10 KB limit.
    let inputs: Map<String, Value> = (0..10)
        .map(|i| (format!("k{i}"), json!("{{ inputs.x }}")))
        .collect();
    let wf = json!({"name": "t", "steps": [
        {"id": "copy", "tool": "echo", "inputs": inputs},
        {"id": "after", "tool": "echo", "inputs": {"n": 1}}
    ]});
    let limits = Limits {
        step_output_bytes: 10_000,
        ..Limits::DEFAULT
    };
    let result = run_limited(wf, json!({"x": "y".repeat(2_000)}), limits).await;
    assert_limit(&result, "copy", "output", "larger than 10000 bytes");
}

#[tokio::test]
async fn for_each_results_count_towards_one_step_output() {
    let wf = json!({"name": "t", "steps": [
        {"id": "each", "tool": "echo", "forEach": "{{ inputs.list }}",
         "inputs": {"text": "{{ inputs.x }}"}}
    ]});
    let limits = Limits {
        step_output_bytes: 10_000,
        ..Limits::DEFAULT
    };
    let list: Vec<usize> = (0..100).collect();
    let result = run_limited(wf, json!({"list": list, "x": "y".repeat(1_000)}), limits).await;
    // Nine results fit in 10,000 bytes; the tenth does not.
    assert_limit(
        &result,
        "each",
        "output.results[9]",
        "limits.stepOutputBytes",
    );
}

#[tokio::test]
async fn the_run_budget_stops_the_step_that_would_pass_it() {
    let steps: Vec<Value> = (0..5)
        .map(|i| json!({"id": format!("s{i}"), "tool": "echo", "inputs": {"text": "{{ inputs.x }}"}}))
        .collect();
    let wf = json!({"name": "t", "steps": steps});
    let limits = Limits {
        run_bytes: 3_500,
        ..Limits::DEFAULT
    };
    let result = run_limited(wf, json!({"x": "y".repeat(1_000)}), limits).await;
    assert_eq!(result.status, RunStatus::Failed);
    let completed = result
        .steps
        .iter()
        .filter(|s| s.status == StepOutcome::Completed)
        .count();
    assert_eq!(completed, 3, "{:?}", result.error);
    let failed = result
        .steps
        .iter()
        .find(|s| s.status == StepOutcome::Failed)
        .unwrap();
    assert!(
        failed
            .error
            .as_deref()
            .unwrap()
            .contains("the run's step outputs would together be larger than 3500 bytes"),
        "{:?}",
        failed.error
    );
}

#[tokio::test]
async fn lists_joined_past_the_value_budget_fail_the_step() {
    // A list of references is free until the tool asks for it whole; echo does.
    let wf = json!({"name": "t", "steps": [
        {"id": "join", "tool": "echo", "inputs": {"all": vec!["{{ inputs.x }}"; 100]}}
    ]});
    let limits = Limits {
        value_bytes: 10_000,
        ..Limits::DEFAULT
    };
    let result = run_limited(wf, json!({"x": "y".repeat(1_000)}), limits).await;
    assert_limit(&result, "join", "inputs.all", "limits.valueBytes");
}

#[tokio::test]
async fn conditions_and_the_output_mapping_are_bounded_too() {
    let concat = vec!["inputs.x"; 30].join(" + ");
    let limits = Limits {
        value_bytes: 10_000,
        step_output_bytes: 10_000,
        ..Limits::DEFAULT
    };
    let x = json!({"x": "y".repeat(1_000)});
    let wf = json!({"name": "t", "steps": [
        {"id": "guarded", "tool": "echo", "condition": format!("{{{{ {concat} }}}} != ''"), "inputs": {"n": 1}}
    ]});
    let result = run_limited(wf, x.clone(), limits).await;
    assert_limit(&result, "guarded", "condition", "limits.valueBytes");

    let wf = json!({"name": "t", "steps": [
        {"id": "a", "tool": "echo", "inputs": {"text": "{{ inputs.x }}"}}
    ], "output": vec!["{{ a.output.text }}"; 30]});
    let result = run_limited(wf, x, limits).await;
    assert_eq!(result.status, RunStatus::Failed);
    assert_eq!(result.output, None);
    let error = result.error.unwrap();
    assert!(
        error.starts_with("output: ") && error.contains("limits.stepOutputBytes"),
        "{error}"
    );
}
