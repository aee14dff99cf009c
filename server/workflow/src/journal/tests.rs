//! The journal on disk: a header and entries folded back, a torn last line ignored, another
//! version refused, the lock refusing a second taker, and the interrupted status.

use super::*;
use crate::exec::durable::Journal;
use serde_json::{Value, json};

/// A step's context entry holding `output`.
fn entry(output: Value) -> Arc<Value> {
    Arc::new(json!({ "output": output }))
}

fn start(id: &str) -> RunStart {
    RunStart {
        run_id: id.into(),
        workflow: "w".into(),
        definition: json!({"name": "w", "steps": []}),
        source: json!({"path": "w.json"}),
        inputs: Map::new(),
        defaults_override: Map::new(),
        started_at: 1,
        ..RunStart::default()
    }
}

#[test]
fn entries_fold_back_into_what_a_resume_replays() {
    let dir = tempfile::tempdir().unwrap();
    let store = RunStore::open(dir.path()).unwrap();
    let journal = store.create(&start("r1"), 1 << 20).unwrap();
    let out = json!({"n": 1});
    journal.record(
        &[],
        Entry::Step {
            id: "a",
            entry: &entry(out.clone()),
            undo: None,
        },
    );
    journal.record(
        &["book".into()],
        Entry::Item {
            id: "x",
            index: 2,
            output: &out,
        },
    );
    journal.record(
        &[],
        Entry::Waiting {
            id: "ok",
            message: "go?",
            expects: &json!({}),
            deadline_ms: Some(9),
        },
    );
    // A process holds it: a second taker is refused.
    assert!(matches!(
        store.take("r1", 1 << 20),
        Err(JournalError::Busy(_))
    ));
    assert_eq!(store.info("r1").status, "waiting");
    drop(journal);
    let info = store.info("r1");
    assert_eq!(info.status, "waiting");
    assert_eq!(info.completed_steps, 1);
    let (state, journal) = store.take("r1", 1 << 20).unwrap();
    assert_eq!(state.recorded.order, ["a"]);
    assert_eq!(state.recorded.children["book"].items["x"][&2], out);
    assert_eq!(state.recorded.waits["ok"], Some(9));
    journal.answer(&[], "ok", &json!({"yes": true}));
    journal.end("completed", None);
    drop(journal);
    let state = store.read("r1").unwrap();
    assert_eq!(state.recorded.answers["ok"], json!({"yes": true}));
    assert!(state.waiting.is_none());
    assert_eq!(store.info("r1").status, "completed");
}

#[test]
fn a_torn_last_line_is_ignored_and_a_bad_one_elsewhere_is_not() {
    let header = json!({"t": "run", "v": VERSION, "start": start("r")}).to_string();
    let step = r#"{"t":"step","at":[],"id":"a","output":1}"#;
    let torn = format!("{header}\n{step}\n{{\"t\":\"st");
    assert_eq!(read(&torn).unwrap().completed, 1);
    let bad = format!("{header}\n{{\"t\":\"st\n{step}\n");
    assert!(read(&bad).unwrap_err().starts_with("line 2"));
    let other = json!({"t": "run", "v": 99, "start": start("r")}).to_string();
    assert!(read(&other).unwrap_err().contains("version 99"));
}

#[test]
fn a_run_nobody_holds_that_never_ended_was_interrupted() {
    let dir = tempfile::tempdir().unwrap();
    let store = RunStore::open(dir.path()).unwrap();
    let journal = store.create(&start("r2"), 1 << 20).unwrap();
    journal.record(
        &[],
        Entry::Step {
            id: "a",
            entry: &entry(json!(1)),
            undo: None,
        },
    );
    drop(journal);
    assert_eq!(store.info("r2").status, "interrupted");
    assert!(matches!(store.read("../x"), Err(JournalError::NotFound(_))));
}

#[test]
fn past_its_budget_a_journal_says_so_and_stops() {
    let dir = tempfile::tempdir().unwrap();
    let store = RunStore::open(dir.path()).unwrap();
    let journal = store.create(&start("r3"), 4096).unwrap();
    let big = json!("x".repeat(5000));
    journal.record(
        &[],
        Entry::Step {
            id: "a",
            entry: &entry(big),
            undo: None,
        },
    );
    drop(journal);
    let state = store.read("r3").unwrap();
    assert!(state.truncated);
    assert_eq!(state.completed, 0);
}

#[test]
fn changes_name_the_steps() {
    let a = json!({"steps": [{"id": "a", "tool": "x"}, {"id": "b", "tool": "y"}]});
    let b = json!({"steps": [{"id": "a", "tool": "z"}, {"id": "c", "tool": "y"}]});
    assert_eq!(
        changes(&a, &b),
        [
            "step \"a\" changed",
            "step \"b\" was removed",
            "step \"c\" was added"
        ]
    );
    assert!(changes(&a, &a).is_empty());
}
