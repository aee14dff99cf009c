//! Tests of single-step runs (`RunOptions::only`) and of the inputs finished steps record.

use super::*;
use crate::compile::{Mode, compile};
use crate::events::{RunEvent, RunStatus};
use crate::limits::Limits;
use crate::test_support::registry;
use serde_json::{Map, Value, json};
use std::collections::HashMap;
use std::sync::Mutex;

async fn run_events(wf: Value, options: RunOptions) -> (RunResult, Vec<RunEvent>) {
    let reg = registry();
    let plan = compile(&wf, &reg, Mode::Strict).plan.expect("valid");
    let events = Arc::new(Mutex::new(Vec::new()));
    let sink = {
        let events = events.clone();
        move |e: RunEvent| events.lock().unwrap().push(e)
    };
    let result = run(plan, Arc::new(reg), options, Arc::new(sink))
        .await
        .expect("inputs ok");
    let events = std::mem::take(&mut *events.lock().unwrap());
    (result, events)
}

fn chain() -> Value {
    json!({"name": "t", "inputs": {"q": {"type": "string"}}, "steps": [
        {"id": "a", "tool": "echo", "inputs": {"q": "{{ inputs.q }}"}},
        {"id": "b", "tool": "echo", "inputs": {"from": "{{ a.output.q }}"}},
        {"id": "c", "tool": "echo", "inputs": {"from": "{{ b.output.from }}"}},
        {"id": "side", "tool": "echo", "inputs": {"x": 1}}
    ]})
}

#[tokio::test]
async fn only_the_target_runs_and_its_upstream_is_replayed() {
    let options = RunOptions {
        only: Some(OnlyStep {
            step: "c".into(),
            replay: HashMap::from([
                ("a".to_string(), json!({"q": "old"})),
                ("b".to_string(), json!({"from": "replayed"})),
            ]),
        }),
        ..RunOptions::default()
    };
    let (result, events) = run_events(chain(), options).await;
    assert_eq!(result.status, RunStatus::Completed);
    let backends: Vec<(String, Option<String>)> = events
        .iter()
        .filter_map(|e| match e {
            RunEvent::StepCompleted {
                step_id, backend, ..
            } => Some((step_id.clone(), backend.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(
        backends,
        vec![
            ("a".into(), Some("replay".into())),
            ("b".into(), Some("replay".into())),
            ("c".into(), None),
        ]
    );
    let c = result.steps.iter().find(|s| s.id == "c").unwrap();
    assert_eq!(c.output, Some(json!({"from": "replayed"})));
    let side = result.steps.iter().find(|s| s.id == "side").unwrap();
    assert_eq!(side.status, StepOutcome::Skipped);
    assert_eq!(side.reason.as_deref(), Some("only step \"c\" was run"));
}

#[tokio::test]
async fn upstream_without_a_recorded_output_is_skipped() {
    let options = RunOptions {
        only: Some(OnlyStep {
            step: "b".into(),
            replay: HashMap::new(),
        }),
        ..RunOptions::default()
    };
    let (result, _) = run_events(chain(), options).await;
    let a = result.steps.iter().find(|s| s.id == "a").unwrap();
    assert_eq!(a.status, StepOutcome::Skipped);
    let b = result.steps.iter().find(|s| s.id == "b").unwrap();
    assert_eq!(b.status, StepOutcome::Completed);
}

/// The inputs each step's terminal event carries: `(step, inputs)`.
fn recorded(events: &[RunEvent]) -> Vec<(String, Option<Value>)> {
    events
        .iter()
        .filter_map(|e| match e {
            RunEvent::StepCompleted {
                step_id, inputs, ..
            }
            | RunEvent::StepFailed {
                step_id, inputs, ..
            } => Some((step_id.clone(), inputs.as_deref().cloned())),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn finished_events_carry_the_inputs_the_step_used_when_asked() {
    let mut inputs = Map::new();
    inputs.insert("q".into(), json!("hello"));
    let options = RunOptions {
        inputs: inputs.clone(),
        capture_inputs: true,
        ..RunOptions::default()
    };
    let (_, events) = run_events(chain(), options).await;
    let resolved = recorded(&events);
    assert!(resolved.contains(&("a".into(), Some(json!({"q": "hello"})))));
    assert!(resolved.contains(&("b".into(), Some(json!({"from": "hello"})))));

    let options = RunOptions {
        inputs,
        ..RunOptions::default()
    };
    let (_, events) = run_events(chain(), options).await;
    assert!(recorded(&events).iter().all(|(_, inputs)| inputs.is_none()));
}

#[tokio::test]
async fn inputs_over_the_per_step_bound_are_noted_not_copied() {
    let mut inputs = Map::new();
    inputs.insert("q".into(), json!("x".repeat(200)));
    let options = RunOptions {
        inputs,
        capture_inputs: true,
        capture_inputs_max: Some(100),
        ..RunOptions::default()
    };
    let (_, events) = run_events(chain(), options).await;
    let resolved = recorded(&events);
    let note = json!("(not recorded: this step's inputs are over 100 bytes)");
    for step in ["a", "b", "c"] {
        assert!(
            resolved.contains(&(step.into(), Some(note.clone()))),
            "{resolved:?}"
        );
    }
    // Small inputs are still copied whole.
    assert!(
        resolved.contains(&("side".into(), Some(json!({"x": 1})))),
        "{resolved:?}"
    );
}

#[tokio::test]
async fn for_each_records_what_each_item_was_given_and_failures_keep_theirs() {
    let wf = json!({"name": "t", "steps": [
        {"id": "each", "tool": "echo", "forEach": "{{ inputs.list }}",
         "inputs": {"q": "{{ item }}!", "at": "{{ index }}"}},
        {"id": "bad", "tool": "broken", "continueOnError": true,
         "inputs": {"message": "{{ each.output.count }} done"}}
    ]});
    let mut inputs = Map::new();
    inputs.insert("list".into(), json!(["x", "y"]));
    let options = RunOptions {
        inputs,
        capture_inputs: true,
        ..RunOptions::default()
    };
    let (_, events) = run_events(wf, options).await;
    assert_eq!(
        recorded(&events),
        vec![
            (
                "each".into(),
                Some(json!([{"q": "x!", "at": 0}, {"q": "y!", "at": 1}]))
            ),
            ("bad".into(), Some(json!({"message": "2 done"}))),
        ]
    );
}

#[tokio::test]
async fn recorded_inputs_stop_at_the_run_budget_without_failing_the_run() {
    let wf = json!({"name": "t", "inputs": {"big": {"type": "string"}}, "steps": [
        {"id": "a", "tool": "echo", "inputs": {"n": 1}},
        {"id": "b", "tool": "search", "inputs": {"query": "{{ inputs.big }}", "results": ["{{ a.output.n }}"]}}
    ], "output": "{{ b.output.resultCount }}"});
    let mut inputs = Map::new();
    inputs.insert("big".into(), json!("x".repeat(5_000)));
    let options = RunOptions {
        inputs,
        capture_inputs: true,
        limits: Limits {
            run_bytes: 4_000,
            ..Limits::DEFAULT
        },
        ..RunOptions::default()
    };
    let (result, events) = run_events(wf, options).await;
    assert_eq!(result.status, RunStatus::Completed, "{:?}", result.error);
    let resolved = recorded(&events);
    assert_eq!(resolved[0], ("a".into(), Some(json!({"n": 1}))));
    let b = resolved[1].1.as_ref().unwrap();
    assert!(b.as_str().unwrap().contains("limits.runBytes"), "{b}");
}
