//! History read back: traces written through the sink (children included), records built from
//! journals, result lists compared (order, entered and left, score changes), restart sets and
//! retention.

use super::*;
use crate::events::{NoEvents, RunEvent};
use crate::journal::{Retention, RunStart, RunStore};
use serde_json::json;
use std::sync::Arc;
use std::time::Duration;

fn start(id: &str, steps: Value, inputs: Value) -> RunStart {
    RunStart {
        run_id: id.into(),
        workflow: "search".into(),
        definition: json!({"name": "search", "steps": steps}),
        source: json!({"workflow": "/w/search.json"}),
        inputs: inputs.as_object().cloned().unwrap_or_default(),
        started_at: 1_000,
        ..RunStart::default()
    }
}

fn completed(id: &str, output: Value, inputs: Value, ms: u64) -> RunEvent {
    RunEvent::StepCompleted {
        step_id: id.into(),
        duration_ms: ms,
        summary: "done".into(),
        usage: None,
        backend: Some("local".into()),
        entry: Arc::new(json!({ "output": output })),
        inputs: Some(Arc::new(inputs)),
    }
}

/// Run `events` through a history sink into a new journal `id`, recording each completed
/// step's output as the engine would, and read the record back.
fn record_of(store: &RunStore, start: &RunStart, events: Vec<RunEvent>) -> RunRecord {
    let journal = Arc::new(store.create(start, 1 << 20).unwrap());
    let sink = HistorySink::wrap(Arc::new(NoEvents), journal.clone());
    for event in events {
        if let RunEvent::StepCompleted { step_id, entry, .. } = &event {
            use crate::exec::durable::{Entry, Journal};
            journal.record(
                &[],
                Entry::Step {
                    id: step_id,
                    entry,
                    undo: None,
                },
            );
        }
        sink.emit(event);
    }
    journal.finish(&crate::exec::RunResult {
        status: crate::RunStatus::Completed,
        output: Some(json!({"ok": true})),
        error: None,
        steps: Vec::new(),
        duration_ms: 42,
        usage: Usage::default(),
        waiting: None,
        compensation: Vec::new(),
        undo: Vec::new(),
    });
    drop(journal);
    RunRecord::of(store.read(&start.run_id).unwrap())
}

fn hits(list: &[(&str, f64)]) -> Value {
    Value::Array(
        list.iter()
            .map(|(id, score)| json!({"_id": id, "source": format!("doc {id}"), "text": "…", "score": score}))
            .collect(),
    )
}

const STEPS: &str = r#"[{"id": "search", "name": "Search", "tool": "query"},
                        {"id": "answer", "tool": "template"},
                        {"id": "never", "tool": "template"}]"#;

#[test]
fn a_record_has_each_steps_trace_output_and_the_runs_end() {
    let dir = tempfile::tempdir().unwrap();
    let store = RunStore::open(dir.path()).unwrap();
    let steps: Value = serde_json::from_str(STEPS).unwrap();
    let record = record_of(
        &store,
        &start("r1", steps, json!({"q": "keys", "limit": 3})),
        vec![
            RunEvent::StepStarted {
                step_id: "search".into(),
                name: "Search".into(),
                tool: "query".into(),
            },
            completed(
                "search",
                json!({"results": hits(&[("a", 0.9)])}),
                json!({"limit": 3}),
                40,
            ),
            RunEvent::StepSkipped {
                step_id: "answer".into(),
                reason: "condition not met".into(),
            },
            // A child run's step is kept under its segment, not as a top-level step.
            RunEvent::Child {
                step_id: "search".into(),
                item: Some(2),
                event: Box::new(completed("inner", json!(1), json!({}), 5)),
            },
        ],
    );
    assert_eq!(record.status(), "completed");
    // The engine's time, not the journal's.
    assert_eq!(record.duration_ms, Some(42));
    assert_eq!(record.output, Some(json!({"ok": true})));
    assert_eq!(record.inputs["limit"], 3);
    let search = record.step("search").unwrap();
    assert_eq!(
        (search.name.as_str(), search.status.as_str()),
        ("Search", "completed")
    );
    assert_eq!(search.trace.duration_ms, Some(40));
    assert!(search.trace.started_at.is_some());
    assert_eq!(search.trace.inputs, Some(json!({"limit": 3})));
    assert_eq!(search.output.as_ref().unwrap()["results"][0]["_id"], "a");
    let answer = record.step("answer").unwrap();
    assert_eq!(answer.status, "skipped");
    assert_eq!(answer.trace.reason.as_deref(), Some("condition not met"));
    assert_eq!(record.step("never").unwrap().status, "pending");
    let state = store.read("r1").unwrap();
    assert!(
        state.traces.contains_key("search[2]/inner"),
        "{:?}",
        state.traces.keys()
    );
}

#[test]
fn inputs_past_the_trace_budget_are_noted_by_size() {
    let dir = tempfile::tempdir().unwrap();
    let store = RunStore::open(dir.path()).unwrap();
    let big = json!({"text": "x".repeat(crate::journal::MAX_TRACE_INPUTS + 1)});
    let record = record_of(
        &store,
        &start("r1", json!([{"id": "s", "tool": "embed"}]), json!({})),
        vec![completed("s", json!(1), big, 1)],
    );
    let inputs = record.step("s").unwrap().trace.inputs.clone().unwrap();
    assert!(
        inputs["$omitted"].as_str().unwrap().starts_with("over "),
        "{inputs}"
    );
}

#[test]
fn result_lists_say_what_entered_left_and_moved_with_score_changes() {
    let dir = tempfile::tempdir().unwrap();
    let store = RunStore::open(dir.path()).unwrap();
    let steps = json!([{"id": "search", "tool": "query"}]);
    let a = record_of(
        &store,
        &start("a", steps.clone(), json!({"limit": 3})),
        vec![completed(
            "search",
            json!({"results": hits(&[("x", 0.9), ("y", 0.8), ("z", 0.7)]), "resultCount": 3}),
            json!({"limit": 3}),
            10,
        )],
    );
    let b = record_of(
        &store,
        &start("b", steps, json!({"limit": 4})),
        vec![completed(
            "search",
            json!({"results": hits(&[("y", 0.95), ("x", 0.9), ("w", 0.5), ("v", 0.4)]), "resultCount": 4}),
            json!({"limit": 4}),
            25,
        )],
    );
    let d = diff(&a, &b).unwrap();
    assert_eq!(
        d.inputs,
        vec![FieldChange {
            field: "limit".into(),
            a: Some(json!(3)),
            b: Some(json!(4))
        }]
    );
    let s = &d.steps[0];
    assert_eq!(s.change, "changed");
    assert_eq!((s.duration_a, s.duration_b), (Some(10), Some(25)));
    let r = s.results.as_ref().unwrap();
    assert_eq!(r.field, "results");
    let keys = |m: &[ResultMove]| m.iter().map(|m| m.key.clone()).collect::<Vec<_>>();
    assert_eq!(keys(&r.entered), ["w", "v"]);
    assert_eq!(r.entered[0].rank_b, Some(3));
    assert_eq!(keys(&r.left), ["z"]);
    assert_eq!((r.left[0].rank_a, r.left[0].score_a), (Some(3), Some(0.7)));
    // y moved up one place with a new score; x moved down one with the same score.
    assert_eq!(keys(&r.moved), ["y", "x"]);
    assert_eq!((r.moved[0].rank_a, r.moved[0].rank_b), (Some(2), Some(1)));
    assert_eq!(
        (r.moved[0].score_a, r.moved[0].score_b),
        (Some(0.8), Some(0.95))
    );
    assert_eq!(r.moved[0].label, "doc y");
    assert_eq!(r.unchanged, 0);
    // The other output fields are listed beside the list.
    assert_eq!(
        s.outputs,
        vec![FieldChange {
            field: "resultCount".into(),
            a: Some(json!(3)),
            b: Some(json!(4))
        }]
    );
}

#[test]
fn steps_added_or_removed_between_versions_are_named_and_unrelated_runs_refused() {
    let dir = tempfile::tempdir().unwrap();
    let store = RunStore::open(dir.path()).unwrap();
    let a = record_of(
        &store,
        &start(
            "a",
            json!([{"id": "s", "tool": "query"}, {"id": "old", "tool": "template"}]),
            json!({}),
        ),
        vec![],
    );
    let b = record_of(
        &store,
        &start(
            "b",
            json!([{"id": "s", "tool": "query"}, {"id": "new", "tool": "template"}]),
            json!({}),
        ),
        vec![],
    );
    let d = diff(&a, &b).unwrap();
    let changes: Vec<(&str, &str)> = d
        .steps
        .iter()
        .map(|s| (s.id.as_str(), s.change.as_str()))
        .collect();
    assert_eq!(
        changes,
        [("s", "same"), ("new", "added"), ("old", "removed")]
    );
    assert!(
        d.workflow_changes
            .contains(&"step \"old\" was removed".to_string())
    );
    let mut other = start("c", json!([{"id": "z", "tool": "template"}]), json!({}));
    other.workflow = "other".into();
    let c = record_of(&store, &other, vec![]);
    assert!(diff(&a, &c).unwrap_err().contains("unrelated workflows"));
}

#[test]
fn pruning_by_count_age_and_bytes_keeps_the_newest_and_reports_what_went() {
    let dir = tempfile::tempdir().unwrap();
    let store = RunStore::open(dir.path()).unwrap();
    for id in ["r1", "r2", "r3"] {
        let j = store
            .create(&start(id, json!([]), json!({})), 1 << 20)
            .unwrap();
        j.append(
            json!({"t": "item", "at": [], "id": "pad", "i": 0, "output": "x".repeat(10_000)}),
            false,
        );
        j.end("completed", None);
        std::thread::sleep(Duration::from_millis(5));
    }
    let keep_all = Retention {
        keep: 10,
        max_age: Duration::from_secs(3600),
        max_bytes: 1 << 30,
    };
    assert!(store.prune(&keep_all).run_ids.is_empty());
    // Two runs' bytes fit, a third does not: the oldest goes.
    let by_bytes = Retention {
        max_bytes: 25_000,
        ..keep_all
    };
    let pruned = store.prune(&by_bytes);
    assert_eq!(pruned.run_ids, ["r1"]);
    assert!(pruned.bytes > 10_000);
    let by_count = Retention {
        keep: 1,
        ..keep_all
    };
    assert_eq!(store.prune(&by_count).run_ids, ["r2"]);
    // Past the age limit even the newest finished run goes.
    let by_age = Retention {
        max_age: Duration::ZERO,
        ..keep_all
    };
    std::thread::sleep(Duration::from_millis(2));
    assert_eq!(store.prune(&by_age).run_ids, ["r3"]);
}

#[test]
fn a_store_keeping_n_runs_holds_n_finished_runs_after_each_run_ends() {
    let dir = tempfile::tempdir().unwrap();
    let store = RunStore::open(dir.path())
        .unwrap()
        .with_retention(Retention {
            keep: 2,
            ..Retention::default()
        });
    for id in ["r1", "r2", "r3", "r4"] {
        let j = store
            .create(&start(id, json!([]), json!({})), 1 << 20)
            .unwrap();
        j.end("completed", None);
        drop(j);
        std::thread::sleep(Duration::from_millis(5));
        let kept: Vec<String> = store.list().into_iter().map(|r| r.run_id).collect();
        assert!(kept.len() <= 2, "after {id}: {kept:?}");
        assert!(kept.contains(&id.to_string()), "after {id}: {kept:?}");
    }
    let mut kept: Vec<String> = store.list().into_iter().map(|r| r.run_id).collect();
    kept.sort();
    assert_eq!(kept, ["r3", "r4"]);
}
