//! Executor tests: readiness scheduling, skips, branches, forEach, loop, failures, retries,
//! timeouts, cancellation and output mapping.

use super::*;
use crate::compile::{Mode, compile};
use crate::events::{RunEvent, RunStatus};
use crate::test_support::{FnTool, registry, registry_with};
use crate::tool::ToolError;
use serde_json::{Value, json};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use tokio_util::sync::CancellationToken;

struct Recorder(Mutex<Vec<RunEvent>>);

impl EventSink for Recorder {
    fn emit(&self, event: RunEvent) {
        self.0.lock().unwrap().push(event);
    }
}

impl Recorder {
    fn new() -> Arc<Self> {
        Arc::new(Recorder(Mutex::new(Vec::new())))
    }

    /// Compact event log: "start a", "done a", "skip a: reason", "fail a", "cancel a", "retry a".
    fn log(&self) -> Vec<String> {
        self.0
            .lock()
            .unwrap()
            .iter()
            .filter_map(|e| match e {
                RunEvent::StepStarted { step_id, .. } => Some(format!("start {step_id}")),
                RunEvent::StepCompleted { step_id, .. } => Some(format!("done {step_id}")),
                RunEvent::StepSkipped { step_id, reason } => {
                    Some(format!("skip {step_id}: {reason}"))
                }
                RunEvent::StepFailed { step_id, .. } => Some(format!("fail {step_id}")),
                RunEvent::StepCancelled { step_id } => Some(format!("cancel {step_id}")),
                RunEvent::StepRetrying { step_id, .. } => Some(format!("retry {step_id}")),
                _ => None,
            })
            .collect()
    }
}

async fn run_with(reg: Registry, wf: Value, inputs: Value) -> (RunResult, Arc<Recorder>) {
    run_opts(
        reg,
        wf,
        RunOptions {
            inputs: inputs.as_object().cloned().unwrap_or_default(),
            ..RunOptions::default()
        },
    )
    .await
}

async fn run_opts(reg: Registry, wf: Value, options: RunOptions) -> (RunResult, Arc<Recorder>) {
    let c = compile(&wf, &reg, Mode::Strict);
    let plan = c
        .plan
        .unwrap_or_else(|| panic!("invalid: {:#?}", c.diagnostics));
    let rec = Recorder::new();
    let result = run(plan, Arc::new(reg), options, rec.clone())
        .await
        .expect("inputs ok");
    (result, rec)
}

fn status_of(r: &RunResult, id: &str) -> StepOutcome {
    r.steps.iter().find(|s| s.id == id).unwrap().status
}

#[tokio::test(start_paused = true)]
async fn steps_start_when_their_own_dependencies_finish() {
    let wf = json!({"name": "t", "steps": [
        {"id": "slow", "tool": "echo", "inputs": {"delayMs": 500}},
        {"id": "fast", "tool": "echo", "inputs": {"delayMs": 10}},
        {"id": "after_fast", "tool": "echo", "inputs": {"v": "{{ fast.output.delayMs }}"}}
    ]});
    let (r, rec) = run_with(registry(), wf, json!({})).await;
    assert_eq!(r.status, RunStatus::Completed);
    let log = rec.log();
    let pos = |s: &str| log.iter().position(|l| l == s).unwrap();
    assert!(pos("done after_fast") < pos("done slow"), "{log:?}");
    assert_eq!(r.output.unwrap()["after_fast"]["output"]["v"], json!(10));
}

#[tokio::test]
async fn condition_false_skips_and_dependents_see_null() {
    let wf = json!({"name": "t", "steps": [
        {"id": "a", "tool": "echo", "inputs": {"x": 1}, "condition": "{{ inputs.go }}"},
        {"id": "b", "tool": "echo", "inputs": {"seen": "{{ a.output }}", "skipped": "{{ a.skipped }}"}}
    ], "output": {"b": "{{ b.output }}"}});
    let (r, rec) = run_with(registry(), wf, json!({"go": false})).await;
    assert_eq!(
        rec.log(),
        vec!["skip a: condition not met", "start b", "done b"]
    );
    assert_eq!(
        r.output.unwrap(),
        json!({"b": {"seen": null, "skipped": true}})
    );
}

#[tokio::test]
async fn conditional_skips_the_branch_not_taken() {
    let wf = json!({"name": "t", "steps": [
        {"id": "s", "tool": "search", "inputs": {"query": "q", "results": "{{ inputs.found }}"}},
        {"id": "c", "tool": "conditional", "inputs": {"condition": "{{ s.output.resultCount > 0 }}", "then": ["use"], "else": ["fallback"]}},
        {"id": "use", "tool": "echo", "inputs": {}},
        {"id": "fallback", "tool": "echo", "inputs": {}}
    ], "output": {"c": "{{ c.output }}"}});
    let (r, _) = run_with(registry(), wf.clone(), json!({"found": [1]})).await;
    assert_eq!(status_of(&r, "use"), StepOutcome::Completed);
    assert_eq!(status_of(&r, "fallback"), StepOutcome::Skipped);
    assert_eq!(
        r.steps[3].reason.as_deref(),
        Some("conditional branch not taken")
    );
    assert_eq!(
        r.output.unwrap()["c"],
        json!({"conditionResult": true, "branchTaken": "then", "enabledSteps": ["use"], "skippedSteps": ["fallback"]})
    );
    let (r, _) = run_with(registry(), wf, json!({"found": []})).await;
    assert_eq!(status_of(&r, "use"), StepOutcome::Skipped);
    assert_eq!(status_of(&r, "fallback"), StepOutcome::Completed);
}

#[tokio::test]
async fn a_skipped_conditional_runs_neither_branch() {
    let wf = json!({"name": "t", "steps": [
        {"id": "c", "tool": "conditional", "condition": "{{ false }}", "inputs": {"condition": "{{ true }}", "then": ["a"], "else": ["b"]}},
        {"id": "a", "tool": "echo", "inputs": {}},
        {"id": "b", "tool": "echo", "inputs": {}}
    ]});
    let (r, _) = run_with(registry(), wf, json!({})).await;
    assert_eq!(status_of(&r, "a"), StepOutcome::Skipped);
    assert_eq!(status_of(&r, "b"), StepOutcome::Skipped);
    assert_eq!(
        r.steps[1].reason.as_deref(),
        Some("conditional \"c\" did not run")
    );
}

#[tokio::test(start_paused = true)]
async fn for_each_keeps_input_order_and_bounds_concurrency() {
    let tool = FnTool::new("echo2", &[], |i| Ok(Value::Object(i)));
    let max = tool.max_running.clone();
    let reg = registry_with(|r| r.register(Arc::new(tool)));
    let wf = json!({"name": "t", "steps": [
        {"id": "each", "tool": "echo2", "forEach": "{{ inputs.delays }}", "forEachConcurrency": 2,
         "inputs": {"delayMs": "{{ item }}", "at": "{{ index }}"}}
    ], "output": "{{ each.output }}"});
    let (r, _) = run_with(reg, wf, json!({"delays": [50, 10, 30, 5, 1]})).await;
    let out = r.output.unwrap();
    assert_eq!(out["count"], json!(5));
    let ats: Vec<u64> = out["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["at"].as_u64().unwrap())
        .collect();
    assert_eq!(ats, vec![0, 1, 2, 3, 4]);
    assert_eq!(max.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn for_each_must_resolve_to_an_array() {
    let wf = json!({"name": "t", "steps": [{"id": "each", "tool": "echo", "forEach": "{{ inputs.x }}", "inputs": {}}]});
    let (r, _) = run_with(registry(), wf, json!({"x": "nope"})).await;
    assert_eq!(r.status, RunStatus::Failed);
    assert!(
        r.error
            .unwrap()
            .contains("forEach did not resolve to an array (got \"nope\")")
    );
}

#[tokio::test]
async fn continue_on_error_records_the_error_and_goes_on() {
    let wf = json!({"name": "t", "steps": [
        {"id": "bad", "tool": "broken", "inputs": {"message": "no luck"}, "continueOnError": true},
        {"id": "next", "tool": "echo", "inputs": {"err": "{{ bad.error }}", "out": "{{ bad.output }}"}}
    ], "output": "{{ next.output }}"});
    let (r, _) = run_with(registry(), wf, json!({})).await;
    assert_eq!(r.status, RunStatus::Completed);
    assert_eq!(status_of(&r, "bad"), StepOutcome::Failed);
    assert_eq!(r.output.unwrap(), json!({"err": "no luck", "out": null}));
}

#[tokio::test(start_paused = true)]
async fn a_failure_cancels_running_steps_and_starts_no_more() {
    let wf = json!({"name": "t", "steps": [
        {"id": "slow", "tool": "echo", "inputs": {"delayMs": 10000}},
        {"id": "bad", "tool": "broken", "inputs": {"delayMs": 10}},
        {"id": "later", "tool": "echo", "inputs": {"x": "{{ bad.output }}"}}
    ]});
    let (r, rec) = run_with(registry(), wf, json!({})).await;
    assert_eq!(r.status, RunStatus::Failed);
    assert_eq!(r.error.as_deref(), Some("step \"bad\" failed: boom"));
    assert_eq!(status_of(&r, "slow"), StepOutcome::Cancelled);
    assert_eq!(status_of(&r, "later"), StepOutcome::Pending);
    assert!(rec.log().contains(&"cancel slow".to_string()));
    assert!(r.output.is_none());
}

#[tokio::test(start_paused = true)]
async fn transient_errors_are_retried_with_backoff() {
    let attempts = Arc::new(AtomicUsize::new(0));
    let seen = attempts.clone();
    let flaky = FnTool::new("flaky", &[], move |_| {
        if seen.fetch_add(1, Ordering::SeqCst) < 2 {
            Err(ToolError::Transient {
                message: "rate limited".into(),
                retry_after: None,
            })
        } else {
            Ok(json!({"ok": true}))
        }
    });
    let reg = registry_with(|r| r.register(Arc::new(flaky)));
    let wf = json!({"name": "t", "steps": [{"id": "f", "tool": "flaky", "inputs": {}, "retry": {"maxAttempts": 3, "initialDelayMs": 100}}]});
    let (r, rec) = run_with(reg, wf, json!({})).await;
    assert_eq!(r.status, RunStatus::Completed);
    assert_eq!(attempts.load(Ordering::SeqCst), 3);
    assert_eq!(rec.log(), vec!["start f", "retry f", "retry f", "done f"]);
}

#[tokio::test]
async fn permanent_errors_are_not_retried() {
    let wf = json!({"name": "t", "steps": [{"id": "f", "tool": "broken", "inputs": {}, "retry": {"maxAttempts": 5, "initialDelayMs": 1}}]});
    let (r, rec) = run_with(registry(), wf, json!({})).await;
    assert_eq!(r.status, RunStatus::Failed);
    assert!(!rec.log().iter().any(|l| l.starts_with("retry")));
}

#[tokio::test(start_paused = true)]
async fn timeouts_apply_per_attempt() {
    let wf = json!({"name": "t", "steps": [{"id": "s", "tool": "echo", "inputs": {"delayMs": 5000}, "timeoutMs": 100, "retry": {"maxAttempts": 2, "initialDelayMs": 10}}]});
    let (r, rec) = run_with(registry(), wf, json!({})).await;
    assert_eq!(r.status, RunStatus::Failed);
    assert_eq!(
        r.error.as_deref(),
        Some("step \"s\" failed: timed out after 100 ms (after 2 attempts)")
    );
    assert_eq!(rec.log(), vec!["start s", "retry s", "fail s"]);
}

#[tokio::test(start_paused = true)]
async fn the_user_can_cancel_a_run() {
    let cancel = CancellationToken::new();
    let trigger = cancel.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(50)).await;
        trigger.cancel();
    });
    let wf = json!({"name": "t", "steps": [
        {"id": "long", "tool": "echo", "inputs": {"delayMs": 60000}},
        {"id": "after", "tool": "echo", "inputs": {"x": "{{ long.output }}"}}
    ]});
    let (r, rec) = run_opts(
        registry(),
        wf,
        RunOptions {
            cancel,
            ..RunOptions::default()
        },
    )
    .await;
    assert_eq!(r.status, RunStatus::Cancelled);
    assert_eq!(status_of(&r, "long"), StepOutcome::Cancelled);
    assert_eq!(status_of(&r, "after"), StepOutcome::Pending);
    assert_eq!(rec.log(), vec!["start long", "cancel long"]);
}

#[tokio::test]
async fn output_mapping_absent_gives_the_whole_context() {
    let wf = json!({"name": "t", "defaults": {"db": "d"}, "steps": [{"id": "a", "tool": "echo", "inputs": {"n": "{{ inputs.n }}"}}]});
    let (r, _) = run_opts(
        registry(),
        wf,
        RunOptions {
            inputs: json!({"n": 3}).as_object().cloned().unwrap(),
            defaults_override: json!({"collection": "c"}).as_object().cloned().unwrap(),
            ..RunOptions::default()
        },
    )
    .await;
    assert_eq!(
        r.output.unwrap(),
        json!({"inputs": {"n": 3}, "defaults": {"db": "d", "collection": "c"}, "a": {"output": {"n": 3}}})
    );
}

#[tokio::test]
async fn sole_templates_keep_types_and_string_outputs_interpolate() {
    let wf = json!({"name": "t", "inputs": {"n": {"type": "number"}, "tags": {"type": "array"}},
        "steps": [{"id": "a", "tool": "echo", "inputs": {"n": "{{ inputs.n }}", "tags": "{{ inputs.tags }}", "sum": "{{ inputs.n + 1 }}"}}],
        "output": "n={{ a.output.n }} tags={{ a.output.tags }}"});
    let (r, _) = run_with(registry(), wf, json!({"n": "41", "tags": "a,b"})).await;
    assert_eq!(r.output.unwrap(), json!("n=41 tags=[\"a\",\"b\"]"));
    assert_eq!(r.steps[0].output.as_ref().unwrap()["sum"], json!(42));
}

#[tokio::test]
async fn deferred_conditions_see_item_and_index() {
    let wf = json!({"name": "t", "steps": [{"id": "k", "tool": "keep", "inputs": {"array": "{{ inputs.xs }}", "condition": "item.score >= {{ inputs.min }} && index < 3"}}],
        "output": "{{ k.output.results }}"});
    let (r, _) = run_with(
        registry(),
        wf,
        json!({"xs": [{"score": 1}, {"score": 5}, {"score": 7}, {"score": 9}], "min": 5}),
    )
    .await;
    assert_eq!(r.output.unwrap(), json!([{"score": 5}, {"score": 7}]));
}

#[tokio::test]
async fn loops_collect_results_errors_and_truncation() {
    let wf = json!({"name": "t", "steps": [{"id": "l", "tool": "loop", "inputs": {
        "items": "{{ inputs.qs }}", "as": "q", "maxIterations": 3,
        "step": {"tool": "search", "inputs": {"query": "{{ q }}", "results": ["{{ q }}-{{ _loopIndex }}"]}}
    }}], "output": "{{ l.output }}"});
    let (r, _) = run_with(registry(), wf, json!({"qs": ["a", "", "c", "d"]})).await;
    let out = r.output.unwrap();
    assert_eq!(out["iterations"], json!(2));
    assert_eq!(out["results"][1]["results"], json!(["c-2"]));
    assert_eq!(out["errors"][0]["index"], json!(1));
    assert!(
        out["errors"][0]["error"]
            .as_str()
            .unwrap()
            .contains("query"),
        "{out}"
    );
    assert_eq!(
        out["errors"][1],
        json!({"index": 3, "error": "Loop truncated at maxIterations (3)"})
    );
}

#[tokio::test]
async fn mocks_by_step_win_over_mocks_by_tool() {
    let wf = json!({"name": "t", "steps": [
        {"id": "a", "tool": "search", "inputs": {"query": "x"}},
        {"id": "b", "tool": "search", "inputs": {"query": "y"}}
    ], "output": {"a": "{{ a.output.resultCount }}", "b": "{{ b.output.resultCount }}"}});
    let mut mocks = Mocks::default();
    mocks
        .by_tool
        .insert("search".into(), json!({"results": [], "resultCount": 0}));
    mocks
        .by_step
        .insert("b".into(), json!({"results": [1], "resultCount": 1}));
    let (r, _) = run_opts(
        registry(),
        wf,
        RunOptions {
            mocks,
            ..RunOptions::default()
        },
    )
    .await;
    assert_eq!(r.output.unwrap(), json!({"a": 0, "b": 1}));
}

#[tokio::test]
async fn missing_required_inputs_stop_before_the_run() {
    let wf = json!({"name": "t", "inputs": {"q": {"type": "string", "required": true}}, "steps": [{"id": "a", "tool": "echo", "inputs": {}}]});
    let reg = registry();
    let plan = compile(&wf, &reg, Mode::Strict).plan.unwrap();
    let rec = Recorder::new();
    let errors = run(plan, Arc::new(reg), RunOptions::default(), rec.clone())
        .await
        .unwrap_err();
    assert_eq!(errors[0].to_string(), "missing required input \"q\"");
    assert!(rec.0.lock().unwrap().is_empty());
}

#[tokio::test]
async fn events_carry_timings_summaries_and_the_final_status() {
    let wf = json!({"name": "t", "steps": [{"id": "s", "tool": "search", "inputs": {"query": "x", "results": [1, 2]}}]});
    let (_, rec) = run_with(registry(), wf, json!({})).await;
    let events = rec.0.lock().unwrap();
    assert!(matches!(
        &events[0],
        RunEvent::RunStarted { total_steps: 1, .. }
    ));
    assert!(
        matches!(&events[2], RunEvent::StepCompleted { summary, .. } if summary == "2 results")
    );
    assert!(matches!(
        events.last(),
        Some(RunEvent::RunFinished {
            status: RunStatus::Completed,
            ..
        })
    ));
}

/// A provider that echoed part of a registered key: the failure event, the run's error and
/// what later steps see carry none of it.
#[tokio::test]
async fn a_key_echoed_in_a_step_error_is_masked_everywhere() {
    vai_redact::register("sk-exec-test-9f8e7d6c5b4a3210");
    let wf = json!({"name": "t", "steps": [
        {"id": "call", "tool": "broken", "continueOnError": true,
         "inputs": {"message": "401: key sk-exec-test-9f8e7d6c… is not valid"}},
        {"id": "after", "tool": "echo", "inputs": {"seen": "{{ call.error }}"}},
        {"id": "fatal", "tool": "broken", "dependsOn": ["after"],
         "inputs": {"message": "again SK-EXEC-TEST-9F8E7D6C5B4A3210"}}
    ]});
    let (result, rec) = run_with(registry(), wf, json!({})).await;
    let shown = format!("{:?} {:?}", rec.0.lock().unwrap(), result.error);
    assert!(!shown.to_ascii_lowercase().contains("9f8e7d6c"), "{shown}");
    assert!(
        shown.contains("401: key <redacted>… is not valid"),
        "{shown}"
    );
    assert!(shown.contains("again <redacted>"), "{shown}");
}
