//! Against a real server, only when `VAI_TEST_MONGODB_URI` is set (MongoDB 4.2 or later):
//! `VAI_TEST_MONGODB_URI=mongodb://… cargo test -p vai-mongo-runs live`. Each test uses a
//! fresh database and drops it. A machine that dies is played by a runtime of its own (on its
//! own connection) that is shut down with its journal still held.

use crate::wire_tests::{record_sample, start};
use crate::{MongoRuns, RunsError};
use serde_json::json;
use std::time::Duration;
use vai_providers::mongo::MongoStore;
use vai_workflow::exec::durable::{Entry, Journal};

fn uri() -> Option<String> {
    let uri = std::env::var("VAI_TEST_MONGODB_URI").ok();
    if uri.is_none() {
        eprintln!("skipped: set VAI_TEST_MONGODB_URI to run the live MongoDB run-store tests");
    }
    uri
}

fn scratch() -> String {
    let mut bytes = [0_u8; 6];
    getrandom::fill(&mut bytes).unwrap();
    let tag: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!("vai_runs_test_{tag}")
}

async fn drop_database(uri: &str, db: &str) {
    let store = MongoStore::connect(uri).unwrap();
    store
        .client()
        .await
        .unwrap()
        .database(db)
        .drop()
        .await
        .unwrap();
}

#[tokio::test]
async fn live_write_read_list_and_prune() {
    let Some(uri) = uri() else { return };
    let db = scratch();
    let store = MongoRuns::new(MongoStore::connect(&uri).unwrap(), &db);
    let outcome = async {
        let journal = store.create(&start("r1"), 1 << 20).await?;
        record_sample(&journal);
        journal.flush().await?;
        let waiting = store.info("r1").await?;
        journal.answer(&[], "ask", &json!({"ok": true})).await?;
        journal.end("completed", None).await?;
        journal.close().await?;
        let state = store.read("r1").await?;
        let listed = store.list().await?;
        let other = store.create(&start("r2"), 1 << 20).await?;
        other.end("failed", Some("boom")).await?;
        other.close().await?;
        let retention = vai_workflow::journal::Retention {
            keep: 1,
            max_age: Duration::from_secs(3600),
            max_bytes: u64::MAX,
        };
        let pruned = store.prune(&retention).await?.run_ids;
        let left = store.list().await?;
        Ok::<_, RunsError>((waiting, state, listed, pruned, left))
    }
    .await;
    drop_database(&uri, &db).await;
    let (waiting, state, listed, pruned, left) = outcome.unwrap();
    assert_eq!(
        (waiting.status.as_str(), waiting.completed_steps),
        ("waiting", 1)
    );
    assert_eq!(state.end.unwrap().status, "completed");
    assert_eq!(state.completed, 1);
    assert!(state.recorded.answers.contains_key("ask"));
    assert_eq!(listed[0].status, "completed");
    assert_eq!(pruned, ["r1"]);
    assert_eq!(left.len(), 1);
    assert_eq!(left[0].run_id, "r2");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn live_one_of_two_racing_claims_wins() {
    let Some(uri) = uri() else { return };
    let db = scratch();
    let connect = || MongoStore::connect(&uri).unwrap();
    let a = MongoRuns::new(connect(), &db).with_owner("live-a");
    let (b, c) = (
        MongoRuns::new(connect(), &db).with_owner("live-b"),
        MongoRuns::new(connect(), &db).with_owner("live-c"),
    );
    let outcome = async {
        a.create(&start("r1"), 1 << 20).await?.close().await?;
        let (x, y) = tokio::join!(b.take("r1", 1 << 20), c.take("r1", 1 << 20));
        let wins = [x.is_ok(), y.is_ok()];
        let busy = [&x, &y]
            .iter()
            .any(|r| matches!(r, Err(RunsError::Busy { .. })));
        for (_, journal) in [x, y].into_iter().flatten() {
            journal.close().await?;
        }
        Ok::<_, RunsError>((wins, busy))
    }
    .await;
    drop_database(&uri, &db).await;
    let (wins, busy) = outcome.unwrap();
    assert_eq!(wins.iter().filter(|w| **w).count(), 1, "{wins:?}");
    assert!(busy);
}

#[test]
fn live_a_dead_machines_lease_lapses_and_another_takes_the_run_up() {
    let Some(uri) = uri() else { return };
    let db = scratch();
    let lease = Duration::from_secs(2);
    // The machine that dies: its own connection (a client lives on the runtime that made it).
    let dead_uri = format!(
        "{uri}{}appName=vai-runs-dead-machine",
        if uri.contains('?') { "&" } else { "/?" }
    );
    let dead = tokio::runtime::Runtime::new().unwrap();
    dead.block_on(async {
        let store = MongoRuns::new(MongoStore::connect(&dead_uri).unwrap(), &db)
            .with_owner("live-dead")
            .with_lease(lease);
        let journal = store.create(&start("r1"), 1 << 20).await.unwrap();
        let output = std::sync::Arc::new(json!({"output": 1}));
        journal.record(
            &[],
            Entry::Step {
                id: "a",
                entry: &output,
                undo: None,
            },
        );
        journal.flush().await.unwrap();
        std::mem::forget(journal);
    });
    dead.shutdown_background();

    let alive = tokio::runtime::Runtime::new().unwrap();
    let outcome = alive.block_on(async {
        let store = MongoRuns::new(MongoStore::connect(&uri).unwrap(), &db)
            .with_owner("live-alive")
            .with_lease(lease);
        let early = store.take("r1", 1 << 20).await.err();
        let running = store.info("r1").await?.status;
        tokio::time::sleep(lease + Duration::from_millis(500)).await;
        let lapsed = store.info("r1").await?.status;
        let (state, journal) = store.take("r1", 1 << 20).await?;
        journal.end("completed", None).await?;
        journal.close().await?;
        let ended = store.info("r1").await?.status;
        Ok::<_, RunsError>((early, running, lapsed, state.completed, ended))
    });
    alive.block_on(drop_database(&uri, &db));
    let (early, running, lapsed, completed, ended) = outcome.unwrap();
    assert!(matches!(early, Some(RunsError::Busy { .. })), "{early:?}");
    assert_eq!(running, "running");
    assert_eq!(lapsed, "interrupted");
    assert_eq!(completed, 1);
    assert_eq!(ended, "completed");
}
