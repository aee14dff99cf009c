//! `MongoRuns` end to end over the wire fake, with the fake's small database behind it: the
//! commands the store sends, and what they do — a run written and read back as the file store
//! folds it, two processes racing for one run, a lapsed lease taken over, budgets, long lines,
//! failed writes, pruning and the errors people see.

use crate::fake_db::FakeDb;
use crate::{MongoRuns, RunsError};
use mongodb::bson::{Bson, doc};
use serde_json::{Map, Value, json};
use std::sync::Arc;
use std::time::Duration;
use vai_providers::mongo::MongoStore;
use vai_workflow::exec::durable::{Entry, Journal, UndoCall};
use vai_workflow::journal::{
    JournalState, MAX_TRACE_INPUTS, RerunFrom, Retention, RunInfo, RunJournal, RunStart, RunStore,
    StepTrace, now_ms,
};
use vai_workflow::{RunResult, RunStatus, Usage};

pub(crate) fn start(id: &str) -> RunStart {
    RunStart {
        run_id: id.into(),
        workflow: "rag".into(),
        definition: json!({"name": "rag", "steps": [{"id": "a", "tool": "template", "inputs": {"text": "x"}}]}),
        source: json!({"workflow": "rag.json", "workflowId": "builtin:rag"}),
        inputs: Map::from_iter([("q".to_string(), json!("$where"))]),
        defaults_override: Map::new(),
        started_at: now_ms(),
        hash: Some("0123456789abcdef".into()),
        from: Some(RerunFrom {
            run_id: "r0".into(),
            step: "$a".into(),
        }),
    }
}

/// A bit of everything a run journals: steps at the top and in a child run, an item, a step
/// that failed and went on, a compensation, traces (one with inputs too large to keep), a wait
/// on a question whose schema has `$`-keys.
pub(crate) fn record_sample(journal: &dyn RunJournal) {
    let output = Arc::new(
        json!({"output": {"results": [{"_id": {"$oid": "65f0a1b2c3d4e5f6a7b8c9d0"}, "a.b": 1}]}}),
    );
    let undo = UndoCall {
        tool: "http".into(),
        inputs: json!({"url": "http://x/undo"}),
        retry: None,
        timeout_ms: Some(5),
    };
    let child = ["book[2]".to_string()];
    journal.record(
        &[],
        Entry::Step {
            id: "a",
            entry: &output,
            undo: Some(&undo),
        },
    );
    journal.record(
        &[],
        Entry::Item {
            id: "each",
            index: 3,
            output: &json!("three"),
        },
    );
    journal.record(
        &child,
        Entry::Step {
            id: "inner",
            entry: &Arc::new(json!({"output": 1})),
            undo: None,
        },
    );
    journal.record(
        &[],
        Entry::Failed {
            id: "b",
            error: "boom",
        },
    );
    journal.record(
        &[],
        Entry::Compensated {
            id: "a",
            ok: true,
            error: None,
        },
    );
    let usage = Usage {
        llm_input_tokens: 10,
        llm_output_tokens: 3,
        requests: 1,
        ..Usage::default()
    };
    let trace = StepTrace {
        status: "completed".into(),
        started_at: Some(5),
        duration_ms: Some(7),
        usage: Some(usage),
        ..StepTrace::default()
    };
    journal.trace(&[], "a", trace.clone(), Some(Arc::new(json!({"q": "$x"}))));
    let huge = Arc::new(json!("x".repeat(MAX_TRACE_INPUTS + 1)));
    journal.trace(&child, "inner", trace, Some(huge));
    journal.record(
        &[],
        Entry::Waiting {
            id: "ask",
            message: "Approve?",
            expects: &json!({"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object"}),
            deadline_ms: Some(42),
        },
    );
}

/// What the file store reads and lists of the same entries, an answer and an end with
/// `output`.
fn file_store(start: &RunStart, answer: &Value, output: &Value) -> (JournalState, RunInfo) {
    let dir = tempfile::tempdir().unwrap();
    let store = RunStore::open(dir.path()).unwrap();
    let journal = store.create(start, 1 << 20).unwrap();
    record_sample(&journal);
    journal.answer(&[], "ask", answer);
    journal.finish(&completed(output));
    drop(journal);
    (
        store.read(&start.run_id).unwrap(),
        store.info(&start.run_id),
    )
}

/// A run that completed with `output` in 12 ms.
fn completed(output: &Value) -> RunResult {
    RunResult::ended(RunStatus::Completed, Some(output.clone()), None, 12)
}

/// `state` and `info` with the end's time set aside (two stores never end at the same
/// millisecond).
fn timeless(mut state: JournalState, mut info: RunInfo) -> (JournalState, RunInfo) {
    if let Some(end) = &mut state.end {
        end.ended_at = 0;
    }
    info.ended_at = None;
    info.duration_ms = None;
    (state, info)
}

/// The store as machine `owner` sees it. Tests run side by side in one process, which holds
/// each run once per owner, so each test's owners are its own (named after its fake's port).
fn runs(db: &FakeDb, owner: &str) -> MongoRuns {
    let port = db.server.uri.rsplit('-').next().unwrap_or_default();
    MongoRuns::new(MongoStore::connect(&db.server.uri).unwrap(), "team")
        .with_owner(format!("{owner}-{port}"))
}

fn lease_of(db: &FakeDb, id: &str) -> Bson {
    db.documents("runs")
        .into_iter()
        .find(|d| d.get_str("_id") == Ok(id))
        .and_then(|d| d.get("lease").cloned())
        .unwrap_or(Bson::Null)
}

#[tokio::test]
async fn a_run_is_written_read_back_as_the_file_store_folds_it_and_listed_from_its_summary() {
    let db = FakeDb::start().await;
    let store = runs(&db, "m1:1:aa");
    let start = start("r1");
    let journal = store.create(&start, 1 << 20).await.unwrap();
    record_sample(&journal);
    journal.flush().await.unwrap();

    let info = store.info("r1").await.unwrap();
    assert_eq!((info.status.as_str(), info.completed_steps), ("waiting", 1));
    assert_eq!(info.workflow_id.as_deref(), Some("builtin:rag"));
    assert_eq!(info.waiting.as_ref().unwrap().step_id, "ask");

    let (answer, output) = (json!({"ok": true}), json!({"answer": "$42"}));
    journal.answer(&[], "ask", &answer).await.unwrap();
    let state = store.read("r1").await.unwrap();
    assert_eq!(state.waiting, None);
    assert_eq!(state.traces.len(), 2);
    assert_eq!(store.info("r1").await.unwrap().status, "running");

    journal.finish(&completed(&output)).await.unwrap();
    journal.close().await.unwrap();
    let kept = (
        store.read("r1").await.unwrap(),
        store.info("r1").await.unwrap(),
    );
    assert_eq!(kept.0.output, Some(output.clone()));
    assert_eq!(kept.1.usage.as_ref().unwrap().llm_input_tokens, 10);
    assert_eq!(kept.1.duration_ms, Some(12));
    let (file_state, file_info) = file_store(&start, &answer, &output);
    assert_eq!(timeless(kept.0, kept.1), timeless(file_state, file_info));
    let listed = store.list().await.unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!(
        (listed[0].status.as_str(), listed[0].waiting.is_none()),
        ("completed", true)
    );
    assert_eq!(lease_of(&db, "r1"), Bson::Null);

    assert_eq!(
        db.server.command_names(),
        [
            // create: the indexes, prune, the run (leased), its header and summary
            "createIndexes",
            "createIndexes",
            "aggregate $match",
            "update",
            "insert",
            "update",
            // the sample's lines, then the summary
            "insert",
            "update",
            "aggregate $match",
            // the answer
            "insert",
            "update",
            "find",
            "aggregate $match",
            // the end, then the lease let go
            "insert",
            "update",
            "update",
            "find",
            "aggregate $match",
            "aggregate $sort",
        ]
    );
    let commands = db.server.commands();
    for c in &commands {
        assert_eq!(c.get_str("$db"), Ok("team"), "{c}");
    }
    assert_eq!(commands[0].get_str("createIndexes"), Ok("runs"));
    assert_eq!(
        commands[1].get_array("indexes").unwrap()[0]
            .as_document()
            .unwrap(),
        &doc! {"key": {"run": 1, "seq": 1}, "name": "run_1_seq_1", "unique": true}
    );
    assert_eq!(
        commands[11].get_document("sort"),
        Ok(&doc! {"run": 1, "seq": 1})
    );
    // Lines are numbered without gaps, the header first, and typed for people reading them.
    let lines = db.documents("run_lines");
    let types: Vec<&str> = lines.iter().map(|d| d.get_str("t").unwrap()).collect();
    assert_eq!(
        types,
        [
            "run",
            "step",
            "item",
            "step",
            "failed",
            "compensated",
            "trace",
            "trace",
            "waiting",
            "answer",
            "end"
        ]
    );
    for (n, line) in lines.iter().enumerate() {
        assert_eq!(line.get_i64("seq"), Ok(n as i64));
    }
    let summary = &db.documents("runs")[0];
    assert_eq!(
        summary.get_i64("bytes").unwrap() as usize,
        lines
            .iter()
            .map(|l| l.get_str("text").unwrap().len() + 1)
            .sum::<usize>()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_racing_for_one_run_one_wins_and_the_other_is_told_who_holds_it() {
    let db = FakeDb::start().await;
    let first = runs(&db, "m1:1:aa");
    first
        .create(&start("r1"), 1 << 20)
        .await
        .unwrap()
        .close()
        .await
        .unwrap();
    for round in 0..5 {
        let (b, c) = (runs(&db, "m2:2:bb"), runs(&db, "m3:3:cc"));
        let (x, y) = tokio::join!(b.take("r1", 1 << 20), c.take("r1", 1 << 20));
        let (won, lost, winner) = match (x, y) {
            (Ok(w), Err(l)) => (w, l, b.owner().to_string()),
            (Err(l), Ok(w)) => (w, l, c.owner().to_string()),
            (x, y) => panic!("round {round}: exactly one must win: {x:?} / {y:?}"),
        };
        let RunsError::Busy { id, holder } = &lost else {
            panic!("{lost:?}");
        };
        assert_eq!(id, "r1");
        assert!(
            holder.starts_with(&format!("held by {winner} until 20")),
            "{holder}"
        );
        assert!(
            lost.to_string()
                .starts_with("run \"r1\" is being run by another process (held by"),
            "{lost}"
        );
        // The winner holds it until it lets go; then it is free again.
        assert!(matches!(
            first.take("r1", 1 << 20).await,
            Err(RunsError::Busy { .. })
        ));
        won.1.close().await.unwrap();
    }
    let (_, again) = first.take("r1", 1 << 20).await.unwrap();
    // A second claim in the same process is refused before MongoDB is asked.
    let before = db.server.commands().len();
    let err = first.take("r1", 1 << 20).await.unwrap_err();
    assert_eq!(
        err.to_string(),
        "run \"r1\" is being run by another process (held by this process)"
    );
    assert_eq!(db.server.commands().len(), before);
    again.close().await.unwrap();
}

#[tokio::test]
async fn a_lapsed_lease_is_taken_over_and_the_old_holder_stops_writing() {
    let db = FakeDb::start().await;
    let (dead, other) = (runs(&db, "m1:1:aa"), runs(&db, "m2:2:bb"));
    let old = dead.create(&start("r1"), 1 << 20).await.unwrap();
    record_sample(&old);
    old.flush().await.unwrap();
    assert_eq!(dead.info("r1").await.unwrap().status, "waiting");
    assert!(matches!(
        other.take("r1", 1 << 20).await,
        Err(RunsError::Busy { .. })
    ));

    // m1 stops renewing (its machine died); a minute later by the server's clock the lease
    // has lapsed and m2 takes the run up where m1 left it.
    db.advance(61_000);
    let (state, new) = other.take("r1", 1 << 20).await.unwrap();
    assert_eq!(state.completed, 1);
    assert_eq!(state.waiting.as_ref().unwrap().step_id, "ask");
    new.resumed();
    new.answer(&[], "ask", &json!({"ok": 1})).await.unwrap();
    assert_eq!(other.info("r1").await.unwrap().status, "running");

    // m1 wakes up: its next write finds the lines taken, and it writes nothing more.
    old.append(json!({"t": "resumed", "atMs": 1}));
    let err = old.flush().await.unwrap_err();
    assert!(
        err.to_string().starts_with(
            "the journal of run \"r1\" stopped being written: another process wrote its lines"
        ),
        "{err}"
    );
    assert!(old.end("completed", None).await.is_err());
    new.end("completed", None).await.unwrap();
    new.close().await.unwrap();
    let state = other.read("r1").await.unwrap();
    assert_eq!(state.end.unwrap().status, "completed");
    assert_eq!(other.info("r1").await.unwrap().status, "completed");

    // A holder whose lease was taken while it had nothing to write learns it at its summary.
    let (a, b) = (runs(&db, "m3:3:cc"), runs(&db, "m4:4:dd"));
    let first = a.create(&start("r2"), 1 << 20).await.unwrap();
    db.advance(61_000);
    let (_, second) = b.take("r2", 1 << 20).await.unwrap();
    first.append(json!({"t": "resumed", "atMs": 1}));
    assert!(first.flush().await.is_err());
    second.close().await.unwrap();
    // The interrupted run: nobody holds it, it never ended.
    assert_eq!(a.info("r2").await.unwrap().status, "interrupted");
}

#[tokio::test]
async fn a_dropped_journal_lets_its_run_go_and_a_dead_one_shows_interrupted_once_lapsed() {
    let db = FakeDb::start().await;
    let store = runs(&db, "m1:1:aa");
    let journal = store.create(&start("r1"), 1 << 20).await.unwrap();
    drop(journal);
    for _ in 0..50 {
        if lease_of(&db, "r1") == Bson::Null {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(lease_of(&db, "r1"), Bson::Null);
    assert_eq!(store.info("r1").await.unwrap().status, "interrupted");

    let held = store.create(&start("r2"), 1 << 20).await.unwrap();
    assert_eq!(store.info("r2").await.unwrap().status, "running");
    db.advance(60_001);
    assert_eq!(store.info("r2").await.unwrap().status, "interrupted");
    drop(held);
}

#[tokio::test]
async fn past_its_budget_a_journal_ends_with_truncated_and_long_lines_span_documents() {
    let db = FakeDb::start().await;
    let store = runs(&db, "m1:1:aa");
    let journal = store.create(&start("r1"), 4096).await.unwrap();
    let big = Arc::new(json!({"output": "x".repeat(5000)}));
    let small = Arc::new(json!({"output": 1}));
    for (id, entry) in [("a", &small), ("b", &big), ("c", &small)] {
        journal.record(
            &[],
            Entry::Step {
                id,
                entry,
                undo: None,
            },
        );
    }
    journal.end("completed", None).await.unwrap();
    let state = store.read("r1").await.unwrap();
    assert!(state.truncated);
    assert_eq!(state.completed, 1);
    // The summary goes on past the budget, as the file store's does.
    let info = store.info("r1").await.unwrap();
    assert_eq!(
        (info.status.as_str(), info.completed_steps),
        ("completed", 3)
    );
    assert_eq!(db.documents("runs")[0].get_bool("truncated"), Ok(true));
    journal.close().await.unwrap();

    let journal = store.create(&start("r2"), 64 << 20).await.unwrap();
    let long = Arc::new(json!({"output": "é".repeat(5 << 20)}));
    journal.record(
        &[],
        Entry::Step {
            id: "a",
            entry: &long,
            undo: None,
        },
    );
    journal.close().await.unwrap();
    let parts = db
        .documents("run_lines")
        .into_iter()
        .filter(|d| d.get_str("run") == Ok("r2"))
        .count();
    assert_eq!(parts, 1 + 3);
    let state = store.read("r2").await.unwrap();
    match &state.recorded.steps["a"] {
        vai_workflow::exec::durable::RecordedStep::Completed { output, .. } => {
            assert_eq!(output, &long["output"]);
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn a_failed_insert_is_sent_again_from_what_landed_and_a_refused_one_stops_the_journal() {
    let db = FakeDb::start().await;
    let store = runs(&db, "m1:1:aa");
    let journal = store.create(&start("r1"), 1 << 20).await.unwrap();
    db.fail(
        "insert",
        1,
        doc! {"ok": 0, "code": 2, "codeName": "BadValue", "errmsg": "flaky"},
    );
    record_sample(&journal);
    journal.flush().await.unwrap();
    let names = db.server.command_names();
    let tail: Vec<&str> = names[names.len() - 5..]
        .iter()
        .map(String::as_str)
        .collect();
    assert_eq!(tail, ["update", "insert", "find", "insert", "update"]);
    assert_eq!(store.read("r1").await.unwrap().completed, 1);

    db.fail(
        "insert",
        3,
        doc! {"ok": 0, "code": 2, "codeName": "BadValue", "errmsg": "refused"},
    );
    journal.resumed();
    let err = journal.flush().await.unwrap_err();
    assert!(
        err.to_string().starts_with(
            "the journal of run \"r1\" stopped being written: its lines could not be stored:"
        ),
        "{err}"
    );
    assert!(err.to_string().contains("refused"), "{err}");
    // Nothing more is written: a gap would make the journal unreadable.
    journal.resumed();
    assert!(journal.flush().await.is_err());
    assert_eq!(store.read("r1").await.unwrap().completed, 1);
}

#[tokio::test]
async fn pruning_removes_finished_runs_and_their_lines_and_keeps_the_rest() {
    let db = FakeDb::start().await;
    let store = runs(&db, "m1:1:aa");
    for id in ["old", "mid", "new"] {
        let journal = store.create(&start(id), 1 << 20).await.unwrap();
        journal.end("completed", None).await.unwrap();
        journal.close().await.unwrap();
        tokio::time::sleep(Duration::from_millis(3)).await;
    }
    let open = store.create(&start("open"), 1 << 20).await.unwrap();
    open.close().await.unwrap();
    let retention = Retention {
        keep: 1,
        max_age: Duration::from_secs(3600),
        max_bytes: u64::MAX,
    };
    let pruned = store.prune(&retention).await.unwrap();
    let mut gone = pruned.run_ids.clone();
    gone.sort();
    assert_eq!(gone, ["mid", "old"]);
    assert!(pruned.bytes > 0);
    let mut left: Vec<String> = store
        .list()
        .await
        .unwrap()
        .into_iter()
        .map(|r| r.run_id)
        .collect();
    left.sort();
    assert_eq!(left, ["new", "open"]);
    let mut lines: Vec<String> = db
        .documents("run_lines")
        .iter()
        .map(|d| d.get_str("run").unwrap().to_string())
        .collect();
    lines.dedup();
    assert_eq!(lines, ["new", "open"]);
}

#[tokio::test]
async fn unknown_bad_duplicate_and_corrupt_runs_are_refused_clearly() {
    let db = FakeDb::start().await;
    let store = runs(&db, "m1:1:aa");
    for id in ["", "../x", "a b"] {
        assert!(matches!(
            store.take(id, 1).await,
            Err(RunsError::NotFound(_))
        ));
        assert!(matches!(store.read(id).await, Err(RunsError::NotFound(_))));
    }
    assert!(db.server.commands().is_empty());
    let err = store.take("nobody", 1).await.unwrap_err();
    assert_eq!(err.to_string(), "no run \"nobody\"");
    assert!(matches!(
        store.read("nobody").await,
        Err(RunsError::NotFound(_))
    ));
    assert!(matches!(
        store.info("nobody").await,
        Err(RunsError::NotFound(_))
    ));

    store
        .create(&start("r1"), 1 << 20)
        .await
        .unwrap()
        .close()
        .await
        .unwrap();
    let err = store.create(&start("r1"), 1 << 20).await.unwrap_err();
    assert_eq!(err.to_string(), "a run \"r1\" already exists");

    let journal = store.create(&start("r2"), 1 << 20).await.unwrap();
    record_sample(&journal);
    journal.close().await.unwrap();
    db.edit("run_lines", |lines| {
        lines.retain(|d| !(d.get_str("run") == Ok("r2") && d.get_i64("seq") == Ok(2)));
    });
    let err = store.take("r2", 1 << 20).await.unwrap_err();
    assert_eq!(
        err.to_string(),
        "the journal of run \"r2\" cannot be used: its line document 2 is missing"
    );
    // Refused, and let go at once.
    assert_eq!(lease_of(&db, "r2"), Bson::Null);
}

#[tokio::test]
async fn an_unreachable_server_is_reported_without_the_password() {
    let store = MongoRuns::new(
        MongoStore::connect(
            "mongodb://ann:hunter22@127.0.0.1:1/?serverSelectionTimeoutMS=300&connectTimeoutMS=300&appName=vai-runs-unreachable-test",
        )
        .unwrap(),
        "team",
    );
    let err = store.list().await.unwrap_err().to_string();
    assert!(
        err.starts_with(
            "the runs in MongoDB cannot be read or written: mongodb: network error: no MongoDB \
             server reachable within 0.3s"
        ),
        "{err}"
    );
    assert!(!err.contains("hunter22"), "{err}");
    let err = store.create(&start("r1"), 1 << 20).await.unwrap_err();
    assert!(!err.to_string().contains("hunter22"), "{err}");
    assert!(store.location().starts_with("MongoDB team.runs"));
}
