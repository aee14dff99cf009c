//! The playground's runs kept in a team's shared store (MongoDB, over the wire fake and its
//! small database) rather than the data directory: a run started in one playground is in the
//! store's history, a run that waits is listed by a second playground, refused there while the
//! first holds it, and answered there once the first has stopped and let it go.

use crate::support::{TestApp, chain, registry};
use axum::http::StatusCode;
use serde_json::{Value, json};
use std::time::Duration;
use vai_mongo_runs::MongoRuns;
use vai_mongo_runs::fake_db::FakeDb;
use vai_providers::mongo::MongoStore;

fn asks() -> Value {
    json!({"name": "Asks", "steps": [
        {"id": "a", "tool": "echo", "inputs": {"text": "flight"}},
        {"id": "ok", "tool": "yield", "inputs": {"message": "Book the {{ a.output.text }}?",
            "expects": {"type": "object", "properties": {"approved": {"type": "boolean"}},
              "required": ["approved"]}}},
        {"id": "b", "tool": "echo", "inputs": {"text": "{{ ok.output.approved }}"}}
    ], "output": {"approved": "{{ b.output.text }}"}})
}

/// The shared store as machine `name` sees it. Tests share one process, which holds each run
/// once per owner: each owner is named after the test's own fake server too.
fn store(db: &FakeDb, name: &str) -> MongoRuns {
    MongoRuns::new(MongoStore::connect(&db.server.uri).unwrap(), "team")
        .with_owner(format!("{name}-{}", db.server.uri))
}

fn history_status(list: &Value, id: &str) -> Value {
    list["runs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["runId"] == id)
        .map(|r| r["status"].clone())
        .unwrap_or(Value::Null)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_playground_keeps_its_runs_in_the_shared_store_and_another_takes_one_up() {
    let db = FakeDb::start().await;
    let dir = TestApp::new().dir;
    let a = TestApp::reopen(dir.clone(), registry(), store(&db, "a"));

    // A run that ends is in the store's history, with its record.
    let done = a.start(chain(), json!({"q": "one"})).await;
    assert_eq!(a.wait_finished(&done).await["status"], "completed");
    let b = TestApp::reopen(dir.clone(), registry(), store(&db, "b"));
    let mut listed = Value::Null;
    for _ in 0..200 {
        listed = b.get("/api/history").await.1;
        if history_status(&listed, &done) == "completed" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(history_status(&listed, &done), "completed", "{listed}");
    let (code, record) = b.get(&format!("/api/history/{done}")).await;
    assert_eq!(code, StatusCode::OK, "{record}");
    assert_eq!(record["inputs"], json!({"q": "one"}));
    let (code, output) = b.get(&format!("/api/runs/{done}/output")).await;
    assert_eq!(code, StatusCode::OK, "{output}");
    assert_eq!(output["output"], json!({"answer": "one!"}));
    // Nothing went to the data directory.
    let files = std::path::PathBuf::from(format!("{}-data", dir.display())).join("runs");
    assert!(!files.join(format!("{done}.jsonl")).exists());

    // A run that waits, in playground a: playground b lists it as waiting from the store…
    let id = a.start(asks(), json!({})).await;
    a.wait_for(&id, "waiting").await;
    let (code, runs) = b.get("/api/runs").await;
    assert_eq!(code, StatusCode::OK);
    let row = runs["runs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["runId"] == id.as_str())
        .cloned()
        .unwrap_or_else(|| panic!("b lists the waiting run: {runs}"));
    assert_eq!(row["status"], "waiting");
    let (code, snapshot) = b.get(&format!("/api/runs/{id}")).await;
    assert_eq!(code, StatusCode::OK, "{snapshot}");
    assert_eq!(snapshot["waiting"]["stepId"], "ok");

    // …but cannot take it while a holds it…
    let uri = format!("/api/runs/{id}/input");
    let (code, body) = b.post(&uri, json!({"input": {"approved": true}})).await;
    assert_eq!(code, StatusCode::CONFLICT, "{body}");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("cannot be resumed"),
        "{body}"
    );

    // …and answers it once a has stopped and let it go: what completed replays.
    a.state.runs().shutdown().await;
    let (code, body) = b.post(&uri, json!({"input": {"approved": true}})).await;
    assert_eq!(code, StatusCode::ACCEPTED, "{body}");
    let finished = b.wait_for(&id, "completed").await;
    assert_eq!(finished["output"]["approved"], true);
    assert_eq!(finished["steps"]["a"]["backend"], "journal");
    b.state.runs().shutdown().await;

    // The store has the run's end, for whoever reads it next.
    let c = TestApp::reopen(dir, registry(), store(&db, "c"));
    let (_, listed) = c.get("/api/history").await;
    assert_eq!(history_status(&listed, &id), "completed", "{listed}");
}
