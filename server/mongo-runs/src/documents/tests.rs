//! The collections' shape as data: every filter, update and pipeline the store sends, the rows
//! it reads back, and the pruning rule. (`wire_tests` runs the store itself.)

use super::*;
use serde_json::json;
use vai_workflow::Usage;
use vai_workflow::journal::RerunFrom;

fn meta() -> Meta {
    Meta {
        run_id: "r1".into(),
        workflow: "$where".into(),
        workflow_id: Some("builtin:rag".into()),
        started_at: 1_000,
        completed_steps: 2,
        waiting: None,
        end: None,
        hash: Some("abc".into()),
        from: Some(RerunFrom {
            run_id: "r0".into(),
            step: "$s".into(),
        }),
        inputs: "q=$x".into(),
        usage: None,
    }
}

fn waiting() -> Waiting {
    Waiting {
        step_id: "approve".into(),
        within: vec!["child".into()],
        message: "OK?".into(),
        expects: json!({"$schema": "x", "type": "object", "properties": {"a.b": {}}}),
        deadline_ms: Some(9),
    }
}

const MINUTE: Duration = Duration::from_secs(60);

#[test]
fn a_run_is_created_only_when_absent_and_leased_by_the_servers_clock() {
    assert_eq!(
        create_filter("r1"),
        doc! {"_id": "r1", "v": {"$exists": false}}
    );
    assert_eq!(
        create_update(&meta(), "host:1:ab", MINUTE),
        vec![doc! {"$set": {
            "v": 1_i64,
            // A name starting with `$` is a literal, not a field path.
            "workflow": {"$literal": "$where"},
            "startedAt": 1_000_i64,
            "workflowId": {"$literal": "builtin:rag"},
            "hash": {"$literal": "abc"},
            "from": {"$literal": {"runId": "r0", "step": "$s"}},
            "inputs": {"$literal": "q=$x"},
            "completedSteps": 2_i64,
            "waiting": Bson::Null,
            "end": Bson::Null,
            "usage": Bson::Null,
            "bytes": 0_i64,
            "truncated": false,
            "lease": {"owner": {"$literal": "host:1:ab"}, "expiresAt": {"$add": ["$$NOW", 60_000_i64]}},
        }}]
    );
}

#[test]
fn a_claim_matches_a_free_lapsed_or_own_lease_and_writes_are_fenced_by_it() {
    assert_eq!(
        claim_filter("r1", "me"),
        doc! {"_id": "r1", "$or": [
            {"lease": Bson::Null},
            {"lease.owner": "me"},
            {"$expr": {"$lt": ["$lease.expiresAt", "$$NOW"]}},
        ]}
    );
    assert_eq!(
        lease_update("me", Duration::from_millis(1500)),
        vec![
            doc! {"$set": {"lease": {"owner": {"$literal": "me"}, "expiresAt": {"$add": ["$$NOW", 1_500_i64]}}}}
        ]
    );
    assert_eq!(
        held_filter("r1", "me"),
        doc! {"_id": "r1", "lease.owner": "me"}
    );
    assert_eq!(release_update(), vec![doc! {"$set": {"lease": Bson::Null}}]);
}

#[test]
fn the_summary_keeps_the_wait_as_text_and_the_end_as_a_literal() {
    let mut m = meta();
    m.waiting = Some(waiting());
    m.end = Some(RunEnd {
        status: "failed".into(),
        error: Some("$boom".into()),
        ended_at: 5,
        duration_ms: Some(4),
    });
    m.usage = Some(Usage {
        llm_input_tokens: 800,
        requests: 2,
        ..Usage::default()
    });
    let update = summary_update(&m, 321, true, "me", MINUTE);
    let set = update[0].get_document("$set").unwrap();
    // Usage as a literal, and read back from a row as it was.
    let usage = set.get_document("usage").unwrap().get("$literal").unwrap();
    let row = doc! {"_id": "r1", "usage": usage.clone(), "from": {"runId": "r0", "step": "s"}, "hash": "abc", "inputs": "q=1", "live": true};
    let info = info_of_row(&row).unwrap();
    assert_eq!(info.usage, m.usage);
    assert_eq!(
        (
            info.hash.as_deref(),
            info.inputs.as_str(),
            info.status.as_str()
        ),
        (Some("abc"), "q=1", "running")
    );
    assert_eq!(info.from.unwrap().step, "s");
    let text = set
        .get_document("waiting")
        .unwrap()
        .get_str("$literal")
        .unwrap();
    assert_eq!(serde_json::from_str::<Waiting>(text).unwrap(), waiting());
    assert_eq!(
        set.get_document("end").unwrap(),
        &doc! {"$literal": {"status": "failed", "endedAt": 5_i64, "error": "$boom", "durationMs": 4_i64}}
    );
    assert_eq!(set.get_i64("bytes"), Ok(321));
    assert_eq!(set.get_bool("truncated"), Ok(true));
    assert_eq!(set.get_i64("completedSteps"), Ok(2));
    assert!(set.get_document("lease").is_ok());
}

#[test]
fn listing_reads_summaries_and_tells_live_leases_by_the_servers_clock() {
    let projection = doc! {
        "workflow": 1, "workflowId": 1, "startedAt": 1, "completedSteps": 1, "waiting": 1,
        "end": 1, "hash": 1, "from": 1, "inputs": 1, "usage": 1,
        "live": {"$gt": ["$lease.expiresAt", "$$NOW"]},
    };
    assert_eq!(
        list_pipeline(),
        vec![
            doc! {"$sort": {"startedAt": -1, "_id": 1}},
            doc! {"$limit": MAX_LISTED},
            doc! {"$project": projection.clone()},
        ]
    );
    assert_eq!(
        info_pipeline("r1"),
        vec![
            doc! {"$match": {"_id": "r1"}},
            doc! {"$project": projection}
        ]
    );
    assert_eq!(
        run_index_keys(),
        [doc! {"startedAt": -1}, doc! {"end.endedAt": -1}]
    );
    assert_eq!(line_order(), doc! {"run": 1, "seq": 1});
}

fn row(extra: Document) -> Document {
    let mut row =
        doc! {"_id": "r1", "workflow": "rag", "startedAt": 7_i64, "completedSteps": 3_i32};
    row.extend(extra);
    row
}

#[test]
fn a_row_says_ended_waiting_running_or_interrupted() {
    let ended = info_of_row(&row(doc! {
        "end": {"status": "failed", "error": "x", "endedAt": 9_i64}, "live": true,
    }))
    .unwrap();
    assert_eq!(
        (
            ended.status.as_str(),
            ended.ended_at,
            ended.error.as_deref()
        ),
        ("failed", Some(9), Some("x"))
    );
    let text = serde_json::to_string(&waiting()).unwrap();
    let waits = info_of_row(&row(doc! {"waiting": text, "end": Bson::Null})).unwrap();
    assert_eq!(waits.status, "waiting");
    assert_eq!(waits.waiting, Some(waiting()));
    assert_eq!(
        info_of_row(&row(doc! {"live": true})).unwrap().status,
        "running"
    );
    let interrupted = info_of_row(&row(doc! {"live": false})).unwrap();
    assert_eq!(interrupted.status, "interrupted");
    assert_eq!(
        (
            interrupted.completed_steps,
            interrupted.started_at,
            interrupted.workflow_id
        ),
        (3, 7, None)
    );
    assert!(info_of_row(&row(doc! {"end": "done"})).is_err());
    assert!(info_of_row(&row(doc! {"waiting": {"stepId": "x"}})).is_err());
    assert!(info_of_row(&doc! {"workflow": "rag"}).is_err());
}

#[test]
fn pruning_reads_finished_runs_and_deletes_them_with_their_lines() {
    assert_eq!(
        finished_pipeline(),
        vec![
            doc! {"$match": {"end": {"$ne": Bson::Null}}},
            doc! {"$sort": {"end.endedAt": -1, "_id": 1}},
            doc! {"$project": {"endedAt": "$end.endedAt", "bytes": 1, "live": {"$gt": ["$lease.expiresAt", "$$NOW"]}}},
        ]
    );
    let ids = vec!["a".to_string(), "b".to_string()];
    assert_eq!(
        prune_runs_filter(&ids),
        doc! {"_id": {"$in": ["a", "b"]}, "end": {"$ne": Bson::Null}}
    );
    assert_eq!(prune_lines_filter(&ids), doc! {"run": {"$in": ["a", "b"]}});
    assert_eq!(
        finished_of_row(&doc! {"_id": "a", "endedAt": 5_i64, "bytes": 10_i32, "live": false}),
        Some(Finished {
            id: "a".into(),
            ended_at: 5,
            bytes: 10,
            live: false
        })
    );
    assert_eq!(finished_of_row(&doc! {"_id": "a"}), None);
}

fn finished(id: &str, ended_at: u64, bytes: u64, live: bool) -> Finished {
    Finished {
        id: id.into(),
        ended_at,
        bytes,
        live,
    }
}

#[test]
fn pruning_follows_the_file_stores_rule() {
    let now = 1_000_000;
    let runs = [
        finished("new", now, 10, false),
        finished("mid", now - 10, 10, false),
        finished("old", now - 500_000, 10, false),
        finished("held", now - 600_000, 10, true),
    ];
    // Beyond the newest two.
    assert_eq!(to_prune(&runs[..3], 2, MINUTE * 60, u64::MAX, now), ["old"]);
    // Older than the age (a run still held stays).
    assert_eq!(
        to_prune(&runs, 100, Duration::from_secs(100), u64::MAX, now),
        ["old"]
    );
    // Past the byte cap the older go, but the newest stays whatever its size.
    assert_eq!(
        to_prune(&runs[..3], 100, MINUTE * 60, 15, now),
        ["mid", "old"]
    );
    assert_eq!(
        to_prune(&[finished("huge", now, 99, false)], 100, MINUTE, 1, now),
        Vec::<String>::new()
    );
}

#[test]
fn a_long_line_spans_documents_cut_between_characters_and_reads_back_whole() {
    let long = format!("{{\"t\":\"step\",\"x\":\"{}\"}}", "é".repeat(PART_BYTES));
    let documents = line_documents("r1", 4, "step", &long);
    assert_eq!(documents.len(), 3);
    for (n, d) in documents.iter().enumerate() {
        assert_eq!(seq_of(d), Some(4 + n as u64));
        assert_eq!(d.get_str("t"), Ok("step"));
        assert_eq!(d.get_bool("cont").is_ok(), n < 2);
        assert!(d.get_str("text").unwrap().len() <= PART_BYTES);
    }
    let mut all = line_documents("r1", 0, "run", "{\"t\":\"run\"}");
    all.extend(line_documents("r1", 1, "step", "{\"t\":\"step\"}"));
    assert_eq!(
        journal_text(&all).unwrap(),
        "{\"t\":\"run\"}\n{\"t\":\"step\"}\n"
    );
    let mut with_long = all.clone();
    with_long.extend(line_documents("r1", 2, "step", &long));
    assert_eq!(
        journal_text(&with_long).unwrap(),
        format!("{{\"t\":\"run\"}}\n{{\"t\":\"step\"}}\n{long}\n")
    );
    // A part missing (a gap) is refused, never read past.
    let mut gap = all;
    gap.extend(line_documents("r1", 3, "step", "{}"));
    assert_eq!(
        journal_text(&gap).unwrap_err(),
        "its line document 2 is missing"
    );
    assert_eq!(lines_filter("r1", 0), doc! {"run": "r1"});
    assert_eq!(
        lines_filter("r1", 3),
        doc! {"run": "r1", "seq": {"$gte": 3_i64}}
    );
}
