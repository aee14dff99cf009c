//! `MongoHistory` against the scripted MongoDB wire fake of vai-providers (the commands it sends
//! and how it reads the replies), and a live round trip when `VAI_TEST_MONGODB_URI` names a
//! server.

use super::tests::{bare_turn, full_turn, row, session};
use super::*;
use crate::history::{new_id, now_ms, summary_of};
use std::sync::Mutex;
use vai_providers::mongo::fake_server::{FakeMongo, command_error, cursor};

/// A fake that keeps inserted documents and answers `find` and `delete` by `sessionId`, and
/// `aggregate` with the rows the test gives.
async fn fake_collection(rows: Vec<Document>) -> FakeMongo {
    let kept: Mutex<Vec<Document>> = Mutex::default();
    FakeMongo::start(move |name, body| {
        let mut kept = kept.lock().unwrap();
        let session = |filter: &Document| filter.get_str("sessionId").unwrap_or("").to_string();
        match name {
            "createIndexes" => doc! {"ok": 1},
            "insert" => {
                let documents = body.get_array("documents").unwrap();
                kept.extend(documents.iter().map(|d| d.as_document().unwrap().clone()));
                doc! {"n": documents.len() as i32, "ok": 1}
            }
            "find" => {
                let wanted = session(body.get_document("filter").unwrap());
                let found = kept
                    .iter()
                    .filter(|d| d.get_str("sessionId") == Ok(wanted.as_str()))
                    .cloned()
                    .collect();
                cursor(found)
            }
            "aggregate" => cursor(rows.clone()),
            "delete" => {
                let delete = body.get_array("deletes").unwrap()[0].as_document().unwrap();
                let wanted = session(delete.get_document("q").unwrap());
                let before = kept.len();
                kept.retain(|d| d.get_str("sessionId") != Ok(wanted.as_str()));
                doc! {"n": (before - kept.len()) as i32, "ok": 1}
            }
            other => panic!("unexpected {other}: {body}"),
        }
    })
    .await
}

#[tokio::test]
async fn append_load_list_and_delete_over_the_wire() {
    let server = fake_collection(vec![row("s1", "How do I rotate keys?", 2)]).await;
    let store = MongoStore::connect(&server.uri).unwrap();
    let history = MongoHistory::new(store, "myapp", Some(Duration::from_secs(2_592_000)));
    assert_eq!(history.kind(), "mongodb");
    let turns = [full_turn("t1", 1_000), bare_turn("t2", 2_000)];
    for turn in &turns {
        history.append("s1", turn).await.unwrap();
    }
    history.append("s2", &bare_turn("t9", 3_000)).await.unwrap();
    assert_eq!(
        history.load("s1").await.unwrap(),
        Some(session("s1", &turns))
    );
    assert_eq!(history.load("nobody").await.unwrap(), None);
    let listed = history.list().await.unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!((listed[0].id.as_str(), listed[0].turn_count), ("s1", 2));
    assert!(history.delete("s1").await.unwrap());
    assert!(!history.delete("s1").await.unwrap());
    assert_eq!(history.load("s1").await.unwrap(), None);

    // The indexes once, before the first write; every read bounded on the server.
    assert_eq!(
        server.command_names(),
        [
            "createIndexes",
            "createIndexes",
            "insert",
            "insert",
            "insert",
            "find",
            "find",
            "aggregate $sort",
            "delete",
            "delete",
            "find",
        ]
    );
    let commands = server.commands();
    let index = |i: usize| {
        commands[i].get_array("indexes").unwrap()[0]
            .as_document()
            .unwrap()
            .clone()
    };
    assert_eq!(
        index(0),
        doc! {"key": {"sessionId": 1, "timestamp": 1}, "name": "sessionId_1_timestamp_1"}
    );
    assert_eq!(
        index(1),
        doc! {"key": {"timestamp": 1}, "expireAfterSeconds": 2_592_000, "name": "timestamp_1"}
    );
    for command in &commands {
        assert_eq!(command.get_str("$db"), Ok("myapp"), "{command}");
    }
    for i in [0, 1, 5, 7] {
        assert_eq!(
            commands[i].get_i32("maxTimeMS"),
            Ok(10_000),
            "{}",
            commands[i]
        );
    }
    assert_eq!(
        commands[5].get_document("sort").unwrap(),
        &doc! {"timestamp": 1, "_id": 1}
    );
    assert_eq!(commands[3].get_str("insert"), Ok("vai_chat_history"));
}

#[tokio::test]
async fn a_changed_ttl_is_given_to_the_existing_index_and_a_failed_index_build_is_retried() {
    let builds = Mutex::new(0);
    let server = FakeMongo::start(move |name, body| match name {
        "createIndexes" => {
            let mut builds = builds.lock().unwrap();
            *builds += 1;
            match *builds {
                1 => command_error(13, "Unauthorized", "not authorized on myapp"),
                3 => command_error(
                    85,
                    "IndexOptionsConflict",
                    "An equivalent index already exists with a different expireAfterSeconds",
                ),
                _ => doc! {"ok": 1},
            }
        }
        "collMod" | "insert" => doc! {"ok": 1, "n": 2},
        other => panic!("unexpected {other}: {body}"),
    })
    .await;
    let store = MongoStore::connect(&server.uri).unwrap();
    let history = MongoHistory::new(store, "myapp", Some(Duration::from_secs(3600)));
    let err = history.append("s1", &bare_turn("t1", 1)).await.unwrap_err();
    assert!(
        err.to_string().starts_with(
            "the chat history cannot be read or written: mongodb: authentication failed: not \
             authorized on myapp"
        ),
        "{err}"
    );
    history.append("s1", &bare_turn("t1", 1)).await.unwrap();
    history.append("s1", &bare_turn("t2", 2)).await.unwrap();
    assert_eq!(
        server.command_names(),
        [
            "createIndexes",
            "createIndexes",
            "createIndexes",
            "collMod",
            "insert",
            "insert"
        ]
    );
    assert_eq!(
        server.commands()[3],
        doc! {
            "collMod": "vai_chat_history",
            "index": {"keyPattern": {"timestamp": 1}, "expireAfterSeconds": 3600_i64},
            "$db": "myapp",
        }
    );
}

#[tokio::test]
async fn bad_ids_are_refused_before_any_query() {
    let server = fake_collection(Vec::new()).await;
    let history = MongoHistory::new(MongoStore::connect(&server.uri).unwrap(), "myapp", None);
    for id in ["", "../x", "a b"] {
        assert!(matches!(
            history.load(id).await,
            Err(HistoryError::BadId(_))
        ));
        assert!(matches!(
            history.delete(id).await,
            Err(HistoryError::BadId(_))
        ));
        assert!(matches!(
            history.append(id, &bare_turn("t", 1)).await,
            Err(HistoryError::BadId(_))
        ));
    }
    assert!(server.commands().is_empty());
}

#[tokio::test]
async fn an_unreachable_server_is_reported_without_the_password() {
    let store = MongoStore::connect(
        "mongodb://ann:hunter22@127.0.0.1:1/?serverSelectionTimeoutMS=300&connectTimeoutMS=300&appName=vai-history-unreachable-test",
    )
    .unwrap();
    let history = MongoHistory::new(store, "myapp", None);
    let err = history.list().await.unwrap_err().to_string();
    assert!(
        err.starts_with(
            "the chat history cannot be read or written: mongodb: network error: no MongoDB \
             server reachable within 0.3s"
        ),
        "{err}"
    );
    assert!(!err.contains("hunter22"), "{err}");
    let err = history.append("s1", &bare_turn("t1", 1)).await.unwrap_err();
    assert!(!err.to_string().contains("hunter22"), "{err}");
}

/// Against a real server: `VAI_TEST_MONGODB_URI=mongodb://… cargo test -p vai-chat history`.
#[tokio::test]
async fn live_round_trip_on_a_scratch_database() {
    let Ok(uri) = std::env::var("VAI_TEST_MONGODB_URI") else {
        eprintln!("skipped: set VAI_TEST_MONGODB_URI to run the live MongoDB history test");
        return;
    };
    let store = MongoStore::connect(&uri).unwrap();
    let db = format!("vai_history_test_{}", new_id());
    let history = MongoHistory::new(store.clone(), &db, Some(Duration::from_secs(3600)));
    let id = new_id();
    let turns = [full_turn("t1", now_ms()), bare_turn("t2", now_ms() + 5)];
    let outcome = async {
        for turn in &turns {
            history.append(&id, turn).await?;
        }
        let loaded = history.load(&id).await?;
        let listed = history.list().await?;
        let deleted = history.delete(&id).await?;
        let after = history.load(&id).await?;
        Ok::<_, HistoryError>((loaded, listed, deleted, after))
    }
    .await;
    let client = store.client().await.unwrap();
    client.database(&db).drop().await.unwrap();

    let (loaded, listed, deleted, after) = outcome.unwrap();
    assert_eq!(loaded, Some(session(&id, &turns)));
    assert_eq!(listed, vec![summary_of(&session(&id, &turns))]);
    assert!(deleted);
    assert_eq!(after, None);
}
