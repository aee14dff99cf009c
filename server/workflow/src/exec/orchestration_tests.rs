//! Sub-workflows, waiting for a person, compensation and resuming from what an earlier run
//! recorded.

use super::durable::{Entry, Journal, JournalAt, Recorded};
use super::*;
use crate::compile::{Children, Mode, compile_with};
use crate::events::{RunEvent, RunStatus};
use crate::journal;
use crate::test_support::{FnTool, registry_with};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Child workflows by name, from memory.
struct Library(HashMap<&'static str, Value>);

impl Children for Library {
    fn load(&self, name: &str) -> Result<(String, Value), String> {
        self.0
            .get(name)
            .map(|v| (format!("{name}.vai-workflow.json"), v.clone()))
            .ok_or_else(|| format!("no workflow \"{name}\" beside this one"))
    }
}

/// A registry whose `undo` tool logs the `what` input it is called with.
fn registry_logging(log: Arc<Mutex<Vec<String>>>) -> Registry {
    registry_with(move |r| {
        r.register(Arc::new(FnTool::new("undo", &[], move |inputs| {
            let what = inputs
                .get("what")
                .map(|v| v.to_string())
                .unwrap_or_default();
            log.lock().unwrap().push(what.trim_matches('"').to_string());
            Ok(json!({}))
        })));
    })
}

/// Events: keeps everything.
struct Events(Mutex<Vec<RunEvent>>);

impl EventSink for Events {
    fn emit(&self, event: RunEvent) {
        self.0.lock().unwrap().push(event);
    }
}

/// A journal kept in memory, folded the way files are read back.
struct Memory(Mutex<Vec<Value>>);

impl Journal for Memory {
    fn record(&self, at: &[String], entry: Entry<'_>) {
        self.0.lock().unwrap().push(journal::entry_line(at, entry));
    }
}

impl Memory {
    /// What the lines so far replay, with `answers` given to waits at the top level.
    fn recorded(&self, answers: &[(&str, Value)]) -> Recorded {
        let header = json!({"t": "run", "v": journal::VERSION, "start": {
            "runId": "r", "workflow": "w", "definition": {}, "source": {}, "inputs": {},
            "startedAt": 0}});
        let mut text = format!("{header}\n");
        for line in self.0.lock().unwrap().iter() {
            text.push_str(&format!("{line}\n"));
        }
        for (id, value) in answers {
            text.push_str(&format!(
                "{}\n",
                json!({"t": "answer", "at": [], "id": id, "value": value})
            ));
        }
        journal::read(&text).unwrap().recorded
    }
}

fn plan_of(wf: &Value, reg: &Registry, lib: &Library) -> Arc<Plan> {
    let c = compile_with(wf, reg, Mode::Strict, lib, "main.vai-workflow.json");
    c.plan
        .unwrap_or_else(|| panic!("invalid: {:#?}", c.diagnostics))
}

async fn go(plan: &Arc<Plan>, reg: &Registry, options: RunOptions) -> (RunResult, Arc<Events>) {
    let events = Arc::new(Events(Mutex::new(Vec::new())));
    let result = run(plan.clone(), Arc::new(reg.clone()), options, events.clone())
        .await
        .expect("inputs ok");
    (result, events)
}

fn child() -> Value {
    json!({"name": "child", "inputs": {"city": {"type": "string", "required": true}},
        "steps": [
            {"id": "hold", "tool": "echo", "inputs": {"seat": "{{ inputs.city }}-1A"},
             "compensate": {"tool": "undo", "inputs": {"what": "release {{ hold.output.seat }}"}}},
            {"id": "pay", "tool": "echo", "inputs": {"for": "{{ hold.output.seat }}"},
             "compensate": {"tool": "undo", "inputs": {"what": "refund {{ pay.output.for }}"}}}
        ],
        "output": {"seat": "{{ hold.output.seat }}"}})
}

#[tokio::test]
async fn a_child_workflow_runs_with_its_inputs_and_its_output_is_the_step_output() {
    let reg = registry_logging(Arc::default());
    let lib = Library(HashMap::from([("book", child())]));
    let wf = json!({"name": "trip", "steps": [
        {"id": "book", "tool": "workflow", "inputs": {"workflow": "book", "inputs": {"city": "Oslo"}}},
        {"id": "say", "tool": "echo", "inputs": {"seat": "{{ book.output.seat }}"}}
    ], "output": "{{ say.output.seat }}"});
    let plan = plan_of(&wf, &reg, &lib);
    let (result, events) = go(&plan, &reg, RunOptions::default()).await;
    assert_eq!(result.status, RunStatus::Completed, "{:?}", result.error);
    assert_eq!(result.output, Some(json!("Oslo-1A")));
    let children = events
        .0
        .lock()
        .unwrap()
        .iter()
        .filter(|e| matches!(e, RunEvent::Child { step_id, .. } if step_id == "book"))
        .count();
    assert!(children >= 4, "the child's events reach the sink wrapped");
}

#[test]
fn validation_follows_the_chain_of_workflows() {
    let reg = registry_logging(Arc::default());
    let broken = json!({"name": "b", "steps": [{"id": "x", "tool": "nope", "inputs": {}}]});
    let calls_a = json!({"name": "b", "steps": [
        {"id": "back", "tool": "workflow", "inputs": {"workflow": "a"}}]});
    let lib = Library(HashMap::from([
        ("book", child()),
        ("broken", broken),
        (
            "a",
            json!({"name": "a", "steps": [
            {"id": "to_b", "tool": "workflow", "inputs": {"workflow": "b"}}]}),
        ),
        ("b", calls_a),
    ]));
    let check = |wf: Value| compile_with(&wf, &reg, Mode::Strict, &lib, "main.vai-workflow.json");
    let one = |step: Value| json!({"name": "m", "steps": [step]});

    let c = check(one(
        json!({"id": "s", "tool": "workflow", "inputs": {"workflow": "broken"}}),
    ));
    let d = c.errors().next().unwrap();
    assert_eq!(d.step_id.as_deref(), Some("s"));
    assert!(
        d.message
            .starts_with("s › broken.vai-workflow.json: step \"x\": unknown tool \"nope\""),
        "{}",
        d.message
    );

    let c = check(one(
        json!({"id": "s", "tool": "workflow", "inputs": {"workflow": "a"}}),
    ));
    let cycle = c
        .errors()
        .map(|d| d.message.clone())
        .collect::<Vec<_>>()
        .join("\n");
    assert!(
        cycle.contains("a.vai-workflow.json → b.vai-workflow.json → a.vai-workflow.json"),
        "{cycle}"
    );

    let c = check(one(
        json!({"id": "s", "tool": "workflow", "inputs": {"workflow": "book",
        "inputs": {"town": "x"}}}),
    ));
    let fields: Vec<(bool, String)> = c
        .diagnostics
        .iter()
        .map(|d| (d.is_error(), d.field.clone().unwrap_or_default()))
        .collect();
    assert!(
        fields.contains(&(true, "inputs.inputs.city".into())),
        "{fields:?}"
    );
    assert!(
        fields.contains(&(false, "inputs.inputs.town".into())),
        "{fields:?}"
    );

    for bad in ["../book", "/etc/passwd", "{{ inputs.w }}", "missing"] {
        let c = check(one(
            json!({"id": "s", "tool": "workflow", "inputs": {"workflow": bad}}),
        ));
        let d = c
            .errors()
            .next()
            .unwrap_or_else(|| panic!("{bad} accepted"));
        assert_eq!(d.field.as_deref(), Some("inputs.workflow"), "{bad}");
    }

    let c = check(one(json!({"id": "s", "tool": "echo", "inputs": {},
        "compensate": {"tool": "nope"}})));
    assert_eq!(
        c.errors().next().unwrap().field.as_deref(),
        Some("compensate.tool")
    );
    let c = check(one(json!({"id": "s", "tool": "fail", "inputs": {}})));
    assert_eq!(
        c.errors().next().unwrap().field.as_deref(),
        Some("inputs.message")
    );
    let c = check(one(
        json!({"id": "s", "tool": "yield", "inputs": {"message": "m",
        "expects": {"type": "array"}}}),
    ));
    assert_eq!(
        c.errors().next().unwrap().field.as_deref(),
        Some("inputs.expects.type")
    );
}

#[tokio::test]
async fn a_failing_run_undoes_completed_steps_in_reverse_including_the_childs() {
    let log = Arc::new(Mutex::new(Vec::new()));
    let reg = registry_logging(log.clone());
    let lib = Library(HashMap::from([("book", child())]));
    let wf = json!({"name": "trip", "steps": [
        {"id": "note", "tool": "echo", "inputs": {"n": 1},
         "compensate": {"tool": "undo", "inputs": {"what": "unnote {{ note.output.n }}"}}},
        {"id": "book", "tool": "workflow", "dependsOn": ["note"],
         "inputs": {"workflow": "book", "inputs": {"city": "Oslo"}}},
        {"id": "stop", "tool": "fail", "dependsOn": ["book"],
         "inputs": {"message": "no seats on {{ book.output.seat }}"}},
        {"id": "never", "tool": "echo", "dependsOn": ["stop"], "inputs": {},
         "compensate": {"tool": "undo", "inputs": {"what": "never"}}}
    ]});
    let plan = plan_of(&wf, &reg, &lib);
    let (result, events) = go(&plan, &reg, RunOptions::default()).await;
    assert_eq!(result.status, RunStatus::Failed);
    assert_eq!(result.error.as_deref(), Some("no seats on Oslo-1A"));
    assert_eq!(
        *log.lock().unwrap(),
        ["refund Oslo-1A", "release Oslo-1A", "unnote 1"]
    );
    let report: Vec<&str> = result
        .compensation
        .iter()
        .map(|r| r.step_id.as_str())
        .collect();
    assert_eq!(report, ["book › pay", "book › hold", "note"]);
    assert!(
        result
            .compensation
            .iter()
            .all(|r| r.status == CompensationStatus::Compensated)
    );
    let compensated = events
        .0
        .lock()
        .unwrap()
        .iter()
        .filter(|e| matches!(e, RunEvent::Compensated { ok: true, .. }))
        .count();
    assert_eq!(
        compensated, 1,
        "the child's own are reported inside child events"
    );
}

#[tokio::test]
async fn a_cancelled_run_is_compensated_too_and_a_failing_compensation_is_reported() {
    let reg = registry_logging(Arc::default());
    let lib = Library(HashMap::new());
    let wf = json!({"name": "w", "steps": [
        {"id": "a", "tool": "echo", "inputs": {},
         "compensate": {"tool": "broken", "inputs": {"message": "refund refused"}}},
        {"id": "slow", "tool": "echo", "dependsOn": ["a"], "inputs": {"delayMs": 5000}}
    ]});
    let plan = plan_of(&wf, &reg, &lib);
    let cancel = tokio_util::sync::CancellationToken::new();
    let later = cancel.clone();
    tokio::spawn(async move {
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        later.cancel();
    });
    let (result, _) = go(
        &plan,
        &reg,
        RunOptions {
            cancel,
            ..RunOptions::default()
        },
    )
    .await;
    assert_eq!(result.status, RunStatus::Cancelled);
    assert_eq!(result.compensation.len(), 1);
    assert_eq!(
        result.compensation[0].status,
        CompensationStatus::CompensationFailed
    );
    assert!(
        result.compensation[0]
            .error
            .as_deref()
            .unwrap()
            .contains("refund refused")
    );
}

fn approval() -> Value {
    json!({"name": "w", "steps": [
        {"id": "find", "tool": "echo", "inputs": {"title": "Oslo"}},
        {"id": "ok", "tool": "yield", "inputs": {"message": "Book {{ find.output.title }}?",
            "expects": {"type": "object", "properties": {"approved": {"type": "boolean"}},
                        "required": ["approved"]}}},
        {"id": "book", "tool": "counted", "inputs": {"approved": "{{ ok.output.approved }}"}}
    ], "output": "{{ book.output.approved }}"})
}

fn counting(calls: Arc<AtomicUsize>) -> Registry {
    registry_with(move |r| {
        r.register(Arc::new(FnTool::new("counted", &[], move |inputs| {
            calls.fetch_add(1, Ordering::SeqCst);
            Ok(Value::Object(inputs))
        })));
    })
}

#[tokio::test]
async fn a_yield_makes_the_run_wait_and_an_answer_resumes_it_without_rerunning() {
    let calls = Arc::new(AtomicUsize::new(0));
    let reg = counting(calls.clone());
    let plan = plan_of(&approval(), &reg, &Library(HashMap::new()));
    let memory = Arc::new(Memory(Mutex::new(Vec::new())));
    let options = RunOptions {
        journal: Some(JournalAt::new(memory.clone())),
        ..RunOptions::default()
    };
    let (result, _) = go(&plan, &reg, options).await;
    assert_eq!(result.status, RunStatus::Waiting);
    let waiting = result.waiting.unwrap();
    assert_eq!(waiting.step_id, "ok");
    assert_eq!(waiting.message, "Book Oslo?");
    assert_eq!(calls.load(Ordering::SeqCst), 0);

    // A bad answer fails the step; the resumer checks first, so this is the engine's guard.
    let replay = memory.recorded(&[("ok", json!({"approved": "yes"}))]);
    let (bad, _) = go(
        &plan,
        &reg,
        RunOptions {
            replay: Some(Arc::new(replay)),
            ..RunOptions::default()
        },
    )
    .await;
    assert_eq!(bad.status, RunStatus::Failed);
    assert!(bad.error.unwrap().contains("approved must be a boolean"));

    let replay = memory.recorded(&[("ok", json!({"approved": true}))]);
    let (done, events) = go(
        &plan,
        &reg,
        RunOptions {
            replay: Some(Arc::new(replay)),
            ..RunOptions::default()
        },
    )
    .await;
    assert_eq!(done.status, RunStatus::Completed, "{:?}", done.error);
    assert_eq!(done.output, Some(json!(true)));
    assert_eq!(calls.load(Ordering::SeqCst), 1);
    let replayed = events
        .0
        .lock()
        .unwrap()
        .iter()
        .filter(|e| matches!(e, RunEvent::StepCompleted { backend: Some(b), .. } if b == "journal"))
        .count();
    assert_eq!(replayed, 1, "find is replayed, not run");
}

#[tokio::test]
async fn a_wait_past_its_deadline_fails_or_takes_its_default() {
    let reg = counting(Arc::default());
    let lib = Library(HashMap::new());
    let mut wf = approval();
    wf["steps"][1]["inputs"]["timeoutMs"] = json!(1);
    let plan = plan_of(&wf, &reg, &lib);
    let mut recorded = Recorded::default();
    recorded.waits.insert("ok".into(), Some(1));
    let options = || RunOptions {
        replay: Some(Arc::new(recorded.clone())),
        ..RunOptions::default()
    };
    let (failed, _) = go(&plan, &reg, options()).await;
    assert_eq!(failed.status, RunStatus::Failed);
    assert!(failed.error.unwrap().contains("timed out"));

    wf["steps"][1]["inputs"]["onTimeout"] = json!("default");
    wf["steps"][1]["inputs"]["default"] = json!({"approved": false});
    let plan = plan_of(&wf, &reg, &lib);
    let (done, _) = go(&plan, &reg, options()).await;
    assert_eq!(done.status, RunStatus::Completed);
    assert_eq!(done.output, Some(json!(false)));
}

#[tokio::test]
async fn a_yield_inside_a_child_makes_the_parent_wait_and_resume() {
    let calls = Arc::new(AtomicUsize::new(0));
    let reg = counting(calls.clone());
    let lib = Library(HashMap::from([("approve", approval())]));
    let wf = json!({"name": "p", "steps": [
        {"id": "inner", "tool": "workflow", "inputs": {"workflow": "approve"}}
    ], "output": "{{ inner.output }}"});
    let plan = plan_of(&wf, &reg, &lib);
    let memory = Arc::new(Memory(Mutex::new(Vec::new())));
    let options = RunOptions {
        journal: Some(JournalAt::new(memory.clone())),
        ..RunOptions::default()
    };
    let (result, _) = go(&plan, &reg, options).await;
    assert_eq!(result.status, RunStatus::Waiting);
    let waiting = result.waiting.unwrap();
    assert_eq!(
        (waiting.step_id.as_str(), waiting.within.clone()),
        ("ok", vec!["inner".to_string()])
    );

    let mut recorded = memory.recorded(&[]);
    recorded
        .level_mut(&["inner".to_string()])
        .answers
        .insert("ok".into(), json!({"approved": true}));
    let (done, _) = go(
        &plan,
        &reg,
        RunOptions {
            replay: Some(Arc::new(recorded)),
            ..RunOptions::default()
        },
    )
    .await;
    assert_eq!(done.status, RunStatus::Completed, "{:?}", done.error);
    assert_eq!(done.output, Some(json!(true)));
    assert_eq!(calls.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn a_resumed_for_each_runs_only_the_items_not_yet_done() {
    let calls = Arc::new(AtomicUsize::new(0));
    let reg = counting(calls.clone());
    let wf = json!({"name": "w", "inputs": {"xs": {"type": "array"}}, "steps": [
        {"id": "each", "tool": "counted", "forEach": "{{ inputs.xs }}", "inputs": {"x": "{{ item }}"}}
    ], "output": "{{ each.output.count }}"});
    let plan = plan_of(&wf, &reg, &Library(HashMap::new()));
    let mut recorded = Recorded::default();
    let done: HashMap<usize, Value> = (0..5).map(|i| (i, json!({"x": i}))).collect();
    recorded.items.insert("each".into(), done);
    let inputs = json!({"xs": (0..10).collect::<Vec<_>>()});
    let (result, events) = go(
        &plan,
        &reg,
        RunOptions {
            inputs: inputs.as_object().cloned().unwrap(),
            replay: Some(Arc::new(recorded)),
            ..RunOptions::default()
        },
    )
    .await;
    assert_eq!(result.status, RunStatus::Completed);
    assert_eq!(result.output, Some(json!(10)));
    assert_eq!(calls.load(Ordering::SeqCst), 5);
    // Each item that called its tool says so (a trace's item spans); replayed ones do not.
    let mut ended: Vec<usize> = events
        .0
        .lock()
        .unwrap()
        .iter()
        .filter_map(|e| match e {
            RunEvent::ItemEnded {
                step_id,
                index,
                error: None,
                ..
            } if step_id == "each" => Some(*index),
            _ => None,
        })
        .collect();
    ended.sort_unstable();
    assert_eq!(ended, [5, 6, 7, 8, 9]);
}

#[tokio::test]
async fn a_resumed_loop_runs_only_the_items_not_yet_done() {
    let calls = Arc::new(AtomicUsize::new(0));
    let reg = counting(calls.clone());
    let wf = json!({"name": "w", "steps": [
        {"id": "each", "tool": "loop", "inputs": {"items": [1, 2, 3, 4, 5, 6], "as": "n",
            "step": {"tool": "counted", "inputs": {"x": "{{ n }}"}}}}
    ], "output": "{{ each.output.iterations }}"});
    let plan = plan_of(&wf, &reg, &Library(HashMap::new()));
    let memory = Arc::new(Memory(Mutex::new(Vec::new())));
    let mut recorded = Recorded::default();
    let done: HashMap<usize, Value> = (0..3).map(|i| (i, json!({"x": i + 1}))).collect();
    recorded.items.insert("each".into(), done);
    let (result, _) = go(
        &plan,
        &reg,
        RunOptions {
            journal: Some(JournalAt::new(memory.clone())),
            replay: Some(Arc::new(recorded)),
            ..RunOptions::default()
        },
    )
    .await;
    assert_eq!(result.status, RunStatus::Completed);
    assert_eq!(result.output, Some(json!(6)));
    assert_eq!(calls.load(Ordering::SeqCst), 3);
    let journaled_items = memory
        .0
        .lock()
        .unwrap()
        .iter()
        .filter(|l| l["t"] == "item")
        .count();
    assert_eq!(journaled_items, 3, "only the items run now are journaled");
}

#[tokio::test]
async fn a_large_output_of_a_pure_step_is_recomputed_on_resume_not_journaled() {
    // `echo` is declared pure by the test registry, `counted` is not.
    let calls = Arc::new(AtomicUsize::new(0));
    let mut reg = counting(calls.clone());
    let mut pure = FnTool::new("pure", &[], |inputs| Ok(Value::Object(inputs)));
    pure.spec_mut().effects = crate::tool::Effects::PURE;
    reg.register(Arc::new(pure));
    let wf = json!({"name": "w", "inputs": {"big": {"type": "string"}}, "steps": [
        {"id": "small", "tool": "pure", "inputs": {"n": 1}},
        {"id": "large", "tool": "pure", "inputs": {"text": "{{ inputs.big }}"}},
        {"id": "paid", "tool": "counted", "inputs": {"len": "{{ large.output.text.length }}", "n": "{{ small.output.n }}"}}
    ], "output": "{{ paid.output.len }}"});
    let plan = plan_of(&wf, &reg, &Library(HashMap::new()));
    let memory = Arc::new(Memory(Mutex::new(Vec::new())));
    let inputs = json!({"big": "x".repeat(100_000)})
        .as_object()
        .cloned()
        .unwrap();
    let (first, _) = go(
        &plan,
        &reg,
        RunOptions {
            inputs: inputs.clone(),
            journal: Some(JournalAt::new(memory.clone())),
            ..RunOptions::default()
        },
    )
    .await;
    assert_eq!(first.status, RunStatus::Completed);
    let journaled: Vec<String> = memory
        .0
        .lock()
        .unwrap()
        .iter()
        .filter(|l| l["t"] == "step")
        .map(|l| l["id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(journaled, ["small", "paid"]);
    // Resumed from that journal: `large` is computed again, `paid` is not called again.
    let (again, _) = go(
        &plan,
        &reg,
        RunOptions {
            inputs,
            replay: Some(Arc::new(memory.recorded(&[]))),
            ..RunOptions::default()
        },
    )
    .await;
    assert_eq!(again.output, Some(json!(100_000)));
    assert_eq!(calls.load(Ordering::SeqCst), 1);
}
