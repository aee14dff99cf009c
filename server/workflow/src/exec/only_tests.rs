//! Tests of single-step runs (`RunOptions::only`) and of resolved inputs on `StepStarted`.

use super::*;
use crate::compile::{Mode, compile};
use crate::test_support::registry;
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
    assert_eq!(side.status, StepStatus::Skipped);
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
    assert_eq!(a.status, StepStatus::Skipped);
    let b = result.steps.iter().find(|s| s.id == "b").unwrap();
    assert_eq!(b.status, StepStatus::Completed);
}

#[tokio::test]
async fn started_events_carry_resolved_inputs_when_asked() {
    let mut inputs = Map::new();
    inputs.insert("q".into(), json!("hello"));
    let options = RunOptions {
        inputs: inputs.clone(),
        capture_inputs: true,
        ..RunOptions::default()
    };
    let (_, events) = run_events(chain(), options).await;
    let resolved: Vec<(String, Option<Value>)> = events
        .iter()
        .filter_map(|e| match e {
            RunEvent::StepStarted {
                step_id, inputs, ..
            } => Some((step_id.clone(), inputs.as_deref().cloned())),
            _ => None,
        })
        .collect();
    assert!(resolved.contains(&("a".into(), Some(json!({"q": "hello"})))));
    assert!(resolved.contains(&("b".into(), Some(json!({"from": "hello"})))));

    let options = RunOptions {
        inputs,
        ..RunOptions::default()
    };
    let (_, events) = run_events(chain(), options).await;
    assert!(events.iter().all(|e| !matches!(
        e,
        RunEvent::StepStarted {
            inputs: Some(_),
            ..
        }
    )));
}
