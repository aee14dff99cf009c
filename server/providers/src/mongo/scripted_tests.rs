//! `MongoStore` against the scripted wire-protocol fake: the commands it sends, in order, and how
//! it reads Atlas's and Community's replies. (A real server is exercised by `live_tests`.)

use super::fake_server::{FakeMongo, command_error, cursor, first_stage};
use super::*;
use mongodb::bson::{DateTime, oid::ObjectId};
use serde_json::json;
use std::sync::atomic::{AtomicUsize, Ordering};

fn ns() -> Namespace {
    Namespace::new("kb", "docs")
}

fn index(dimensions: usize) -> VectorIndex {
    VectorIndex {
        name: "vector_index".into(),
        path: "embedding".into(),
        dimensions,
    }
}

fn query() -> VectorQuery {
    VectorQuery {
        namespace: ns(),
        index: "vector_index".into(),
        path: "embedding".into(),
        vector: vec![1.0, 0.0],
        limit: 2,
        num_candidates: 30,
        filter: Some(json!({"source": "a.md"}).as_object().unwrap().clone()),
        fields: ["text", "source"].map(String::from).to_vec(),
    }
}

fn search_index(status: &str, queryable: bool, dimensions: i32) -> Document {
    doc! {
        "id": "66a0", "name": "vector_index", "type": "vectorSearch",
        "status": status, "queryable": queryable,
        "latestDefinition": {"fields": [
            {"type": "vector", "path": "embedding", "numDimensions": dimensions, "similarity": "cosine"}
        ]}
    }
}

fn collection(name: &str, kind: &str) -> Document {
    doc! {"name": name, "type": kind, "options": {}, "info": {"readOnly": false}}
}

const NOT_ATLAS: (i32, &str, &str) = (
    6047401,
    "Location6047401",
    "$vectorSearch stage is only allowed on MongoDB Atlas",
);

#[tokio::test]
async fn first_ingest_creates_collection_and_index_then_waits_until_queryable() {
    let polls = Arc::new(AtomicUsize::new(0));
    let seen = polls.clone();
    let server = FakeMongo::start(move |name, body| match name {
        "listCollections" => cursor(vec![]),
        "create" => doc! {"ok": 1},
        "aggregate" => match seen.fetch_add(1, Ordering::SeqCst) {
            0 => cursor(vec![]),
            1 => cursor(vec![search_index("PENDING", false, 2)]),
            _ => cursor(vec![search_index("READY", true, 2)]),
        },
        "createSearchIndexes" => {
            doc! {"indexesCreated": [{"id": "66a0", "name": "vector_index"}], "ok": 1}
        }
        other => panic!("unexpected {other}: {body}"),
    })
    .await;
    let store = MongoStore::connect(&server.uri).unwrap();
    assert!(store.ensure_vector_index(&ns(), &index(2)).await.unwrap());

    assert_eq!(
        server.command_names(),
        [
            "listCollections",
            "create",
            "aggregate $listSearchIndexes",
            "createSearchIndexes",
            "aggregate $listSearchIndexes",
            "aggregate $listSearchIndexes",
        ]
    );
    let commands = server.commands();
    assert_eq!(
        commands[0].get_document("filter").unwrap(),
        &doc! {"name": "docs"}
    );
    assert_eq!(commands[0].get_str("$db").unwrap(), "kb");
    assert_eq!(commands[1].get_str("create").unwrap(), "docs");
    let stage = commands[2].get_array("pipeline").unwrap()[0]
        .as_document()
        .unwrap();
    assert_eq!(
        stage,
        &doc! {"$listSearchIndexes": {"name": "vector_index"}}
    );
    assert_eq!(
        commands[3].get_array("indexes").unwrap()[0]
            .as_document()
            .unwrap(),
        &doc! {
            "definition": vector_index_definition(&index(2)),
            "name": "vector_index",
            "type": "vectorSearch",
        }
    );
}

#[tokio::test]
async fn an_existing_index_is_reused_or_refused_when_its_size_differs() {
    let server = FakeMongo::start(|name, _| match name {
        "listCollections" => cursor(vec![doc! {"name": "docs", "type": "collection"}]),
        _ => cursor(vec![search_index("READY", true, 2)]),
    })
    .await;
    let store = MongoStore::connect(&server.uri).unwrap();
    assert!(!store.ensure_vector_index(&ns(), &index(2)).await.unwrap());
    let err = store
        .ensure_vector_index(&ns(), &index(3))
        .await
        .unwrap_err();
    assert!(matches!(err, ProviderError::InvalidRequest { .. }));
    assert!(
        err.to_string()
            .contains("vector index \"vector_index\" on kb.docs holds 2-dimensional vectors but these embeddings have 3"),
        "{err}"
    );
    assert!(
        !server
            .command_names()
            .iter()
            .any(|c| c == "create" || c == "createSearchIndexes")
    );
}

#[tokio::test]
async fn an_index_still_building_times_out_with_a_message_saying_so() {
    let server = FakeMongo::start(|name, _| match name {
        "listCollections" => cursor(vec![doc! {"name": "docs", "type": "collection"}]),
        _ => cursor(vec![search_index("BUILDING", false, 2)]),
    })
    .await;
    let store = MongoStore::connect(&server.uri)
        .unwrap()
        .with_index_wait(Duration::from_millis(300));
    let err = store
        .ensure_vector_index(&ns(), &index(2))
        .await
        .unwrap_err();
    assert!(err.is_transient());
    assert_eq!(
        err.to_string(),
        "mongodb: vector index \"vector_index\" on kb.docs is still building (Atlas keeps \
         building it; run the step again once it is ready): timed out after 300ms"
    );
}

#[tokio::test]
async fn search_sends_the_pipeline_and_reads_ids_and_scores() {
    let oid = ObjectId::parse_str("65a1b2c3d4e5f60718293a4b").unwrap();
    let server = FakeMongo::start(move |_, _| {
        cursor(vec![
            doc! {"_id": oid, "text": "alpha", "source": "a.md", "score": 0.93},
            doc! {"_id": "custom", "text": "gamma", "score": 0.71},
        ])
    })
    .await;
    let store = MongoStore::connect(&server.uri).unwrap();
    let hits = store.vector_search(query()).await.unwrap();
    assert_eq!(hits.len(), 2);
    assert_eq!(
        Value::Object(hits[0].document.clone()),
        json!({"_id": "65a1b2c3d4e5f60718293a4b", "text": "alpha", "source": "a.md"})
    );
    assert_eq!(hits[0].score, 0.93);
    assert_eq!(hits[1].document["_id"], "custom");

    let commands = server.commands();
    assert_eq!(commands.len(), 1);
    assert_eq!(commands[0].get_str("aggregate").unwrap(), "docs");
    let sent: Vec<Document> = commands[0]
        .get_array("pipeline")
        .unwrap()
        .iter()
        .map(|s| s.as_document().unwrap().clone())
        .collect();
    assert_eq!(sent, vector_search_pipeline(&query()).unwrap());
}

#[tokio::test]
async fn an_empty_search_is_checked_for_a_missing_index_but_not_a_missing_collection() {
    let exists = Arc::new(AtomicUsize::new(1));
    let flag = exists.clone();
    let server = FakeMongo::start(
        move |name, body| match (name, first_stage(body).as_deref()) {
            ("aggregate", Some("$vectorSearch" | "$listSearchIndexes")) => cursor(vec![]),
            ("listCollections", _) if flag.load(Ordering::SeqCst) == 1 => {
                cursor(vec![doc! {"name": "docs", "type": "collection"}])
            }
            ("listCollections", _) => cursor(vec![]),
            (other, _) => panic!("unexpected {other}"),
        },
    )
    .await;
    let store = MongoStore::connect(&server.uri).unwrap();
    let err = store.vector_search(query()).await.unwrap_err();
    assert_eq!(
        err.to_string(),
        "mongodb: invalid request: kb.docs has no vector search index named \"vector_index\"; \
         ingest into it with vai (which creates the index) or create it in Atlas"
    );
    exists.store(0, Ordering::SeqCst);
    assert!(store.vector_search(query()).await.unwrap().is_empty());
}

#[tokio::test]
async fn community_servers_get_the_atlas_message_but_still_list_collections() {
    let server = FakeMongo::start(|name, body| match (name, first_stage(body).as_deref()) {
        ("aggregate", Some("$vectorSearch")) => {
            command_error(NOT_ATLAS.0, NOT_ATLAS.1, NOT_ATLAS.2)
        }
        ("aggregate", Some("$listSearchIndexes")) => command_error(
            6047401,
            "Location6047401",
            "$listSearchIndexes stage is only allowed on MongoDB Atlas",
        ),
        ("listCollections", _) => cursor(vec![
            collection("notes", "collection"),
            collection("docs", "collection"),
            collection("recent", "view"),
            collection("system.views", "collection"),
        ]),
        ("count", _) => doc! {"n": 7, "ok": 1},
        (other, _) => panic!("unexpected {other}"),
    })
    .await;
    let store = MongoStore::connect(&server.uri).unwrap();
    let err = store.vector_search(query()).await.unwrap_err();
    assert!(matches!(err, ProviderError::InvalidRequest { .. }));
    assert!(err.to_string().contains(NO_ATLAS_SEARCH), "{err}");

    let listed = store.list_collections("kb").await.unwrap();
    let names: Vec<_> = listed.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["docs", "notes"]);
    assert!(
        listed
            .iter()
            .all(|c| c.document_count == 7 && c.vector_index.is_none())
    );
    // Search indexes are asked about once: the first refusal settles it for the database.
    let asked = server
        .command_names()
        .iter()
        .filter(|c| *c == "aggregate $listSearchIndexes")
        .count();
    assert_eq!(asked, 1);

    let ensure = store
        .ensure_vector_index(&ns(), &index(2))
        .await
        .unwrap_err();
    assert!(ensure.to_string().contains(NO_ATLAS_SEARCH), "{ensure}");
}

#[tokio::test]
async fn collections_report_their_vector_index() {
    let server = FakeMongo::start(|name, _| match name {
        "listCollections" => cursor(vec![collection("docs", "collection")]),
        "count" => doc! {"n": 3, "ok": 1},
        _ => cursor(vec![
            doc! {"name": "default", "type": "search", "latestDefinition": {"mappings": {"dynamic": true}}},
            search_index("READY", true, 1024),
        ]),
    })
    .await;
    let store = MongoStore::connect(&server.uri).unwrap();
    let listed = store.list_collections("kb").await.unwrap();
    assert_eq!(
        listed,
        vec![CollectionInfo {
            name: "docs".into(),
            document_count: 3,
            vector_index: Some(VectorIndexInfo {
                name: "vector_index".into(),
                path: "embedding".into(),
                dimensions: Some(1024)
            })
        }]
    );
}

#[tokio::test]
async fn insert_stores_dates_and_aggregate_returns_plain_json() {
    let server = FakeMongo::start(|name, body| match name {
        "insert" => doc! {"n": body.get_array("documents").unwrap().len() as i32, "ok": 1},
        "aggregate" => cursor(vec![
            doc! {"_id": "a.md", "chunks": 2_i64, "first": DateTime::from_millis(0)},
        ]),
        other => panic!("unexpected {other}"),
    })
    .await;
    let store = MongoStore::connect(&server.uri).unwrap();
    let docs = vec![
        json!({"text": "a", "embedding": [0.5, 0.25], "createdAt": "2025-01-02T03:04:05Z"}),
        json!({"text": "b", "embedding": [0.0, 1.0], "createdAt": "2025-01-02T03:04:05Z"}),
    ];
    let docs = docs
        .into_iter()
        .map(|d| d.as_object().unwrap().clone())
        .collect();
    assert_eq!(store.insert(&ns(), docs).await.unwrap(), 2);
    let sent = &server.commands()[0];
    assert_eq!(sent.get_str("insert").unwrap(), "docs");
    let first = sent.get_array("documents").unwrap()[0]
        .as_document()
        .unwrap();
    assert!(first.get_object_id("_id").is_ok(), "the driver assigns ids");
    assert!(first.get_datetime("createdAt").is_ok());

    let rows = store
        .aggregate(
            &ns(),
            vec![json!({"$group": {"_id": "$source", "chunks": {"$sum": 1}}})],
        )
        .await
        .unwrap();
    assert_eq!(
        rows,
        vec![json!({"_id": "a.md", "chunks": 2, "first": "1970-01-01T00:00:00Z"})]
    );
}
