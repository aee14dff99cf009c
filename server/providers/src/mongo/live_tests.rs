//! Tests against a real server, run only when `VAI_TEST_MONGODB_URI` is set (database
//! `VAI_TEST_MONGODB_DB`, default `vai_test`). Against Atlas or a local Atlas deployment they
//! create the vector index, ingest, search, list and aggregate; against a server without Atlas
//! Search they check its message instead. Each run uses a fresh collection and drops it.

use super::*;
use futures_util::FutureExt;
use serde_json::json;
use std::panic::{AssertUnwindSafe, resume_unwind};
use std::time::{SystemTime, UNIX_EPOCH};
use tokio::time::{Instant, sleep};

const DIMS: usize = 8;
/// How long the index build and the search sync may take on a small Atlas cluster.
const LIVE_WAIT: Duration = Duration::from_secs(180);

fn basis(i: usize) -> Vec<f32> {
    (0..DIMS).map(|d| if d == i { 1.0 } else { 0.0 }).collect()
}

fn mix(a: f32, b: f32) -> Vec<f32> {
    let mut v = basis(0).iter().map(|x| x * a).collect::<Vec<_>>();
    v[1] = b;
    v
}

fn stored(text: &str, source: &str, embedding: Vec<f32>) -> JsonDocument {
    json!({
        "text": text,
        "source": source,
        "embedding": embedding,
        "metadata": {"chunkIndex": 0, "strategy": "recursive"},
        "createdAt": "2025-01-02T03:04:05Z"
    })
    .as_object()
    .cloned()
    .expect("an object")
}

fn index() -> VectorIndex {
    VectorIndex {
        name: "vector_index".into(),
        path: "embedding".into(),
        dimensions: DIMS,
    }
}

fn search(ns: &Namespace, vector: Vec<f32>, filter: Option<Value>) -> VectorQuery {
    VectorQuery {
        namespace: ns.clone(),
        index: "vector_index".into(),
        path: "embedding".into(),
        vector,
        limit: 10,
        num_candidates: 150,
        filter: filter.and_then(|f| f.as_object().cloned()),
        fields: ["text", "content", "source", "metadata"]
            .map(String::from)
            .to_vec(),
    }
}

/// The password of `uri`, to check that no message carries it.
fn password(uri: &str) -> Option<String> {
    let authority = uri.split_once("://")?.1.split('/').next()?;
    let userinfo = authority.rsplit_once('@')?.0;
    Some(userinfo.split_once(':')?.1.to_string()).filter(|p| p.len() >= 4)
}

#[tokio::test]
async fn live_mongodb_ingest_search_list_aggregate() {
    let Some(uri) = std::env::var("VAI_TEST_MONGODB_URI")
        .ok()
        .filter(|u| !u.trim().is_empty())
    else {
        eprintln!("skipped: set VAI_TEST_MONGODB_URI to run the MongoDB live tests");
        return;
    };
    let db = std::env::var("VAI_TEST_MONGODB_DB").unwrap_or_else(|_| "vai_test".into());
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let ns = Namespace::new(db, format!("live_{}_{nanos}", std::process::id()));
    let store = MongoStore::connect(&uri)
        .expect("VAI_TEST_MONGODB_URI is a MongoDB connection string")
        .with_index_wait(LIVE_WAIT);

    let outcome = AssertUnwindSafe(exercise(&store, &ns, &uri))
        .catch_unwind()
        .await;
    let dropped = store.drop_collection(&ns).await;
    if let Err(panic) = outcome {
        resume_unwind(panic);
    }
    dropped.expect("drop the test collection");
}

async fn exercise(store: &MongoStore, ns: &Namespace, uri: &str) {
    let created = match store.ensure_vector_index(ns, &index()).await {
        Ok(created) => created,
        Err(e) if e.to_string().contains(NO_ATLAS_SEARCH) => {
            return without_atlas_search(store, ns, uri, e).await;
        }
        Err(e) => panic!("ensure_vector_index: {e}"),
    };
    assert!(created, "a new collection gets a new index");
    assert!(!store.ensure_vector_index(ns, &index()).await.unwrap());
    let wider = VectorIndex {
        dimensions: DIMS * 2,
        ..index()
    };
    let mismatch = store.ensure_vector_index(ns, &wider).await.unwrap_err();
    assert!(
        mismatch.to_string().contains("holds 8-dimensional vectors"),
        "{mismatch}"
    );

    let docs = vec![
        stored("alpha", "a.md", basis(0)),
        stored("beta", "b.md", basis(1)),
        stored("gamma", "a.md", mix(0.7, 0.7)),
    ];
    assert_eq!(store.insert(ns, docs).await.unwrap(), 3);

    // Atlas indexes inserted documents asynchronously: poll until all three are searchable.
    let started = Instant::now();
    let hits = loop {
        let hits = store
            .vector_search(search(ns, mix(1.0, 0.1), None))
            .await
            .unwrap();
        if hits.len() == 3 || started.elapsed() > LIVE_WAIT {
            break hits;
        }
        sleep(Duration::from_secs(1)).await;
    };
    let texts: Vec<_> = hits
        .iter()
        .map(|h| h.document["text"].as_str().unwrap())
        .collect();
    assert_eq!(texts, ["alpha", "gamma", "beta"]);
    assert!(
        hits[0].score > 0.99 && hits[0].score <= 1.0,
        "{}",
        hits[0].score
    );
    assert!(hits.windows(2).all(|w| w[0].score >= w[1].score));
    let first = &hits[0].document;
    assert_eq!(
        first.keys().collect::<Vec<_>>(),
        ["_id", "text", "source", "metadata"]
    );
    assert_eq!(first["_id"].as_str().map(str::len), Some(24));

    let filtered = store
        .vector_search(search(ns, basis(0), Some(json!({"source": "b.md"}))))
        .await
        .unwrap();
    assert_eq!(filtered.len(), 1);
    assert_eq!(filtered[0].document["text"], "beta");

    let mut other_index = search(ns, basis(0), None);
    other_index.index = "no_such_index".into();
    assert!(store.vector_search(other_index).await.is_err());
    let mut missing = search(ns, basis(0), None);
    missing.namespace.collection.push_str("_missing");
    assert!(store.vector_search(missing).await.unwrap().is_empty());

    let listed = store.list_collections(&ns.db).await.unwrap();
    let ours = listed
        .iter()
        .find(|c| c.name == ns.collection)
        .expect("the test collection is listed");
    assert_eq!(ours.document_count, 3);
    assert_eq!(
        ours.vector_index,
        Some(VectorIndexInfo {
            name: "vector_index".into(),
            path: "embedding".into(),
            dimensions: Some(DIMS)
        })
    );

    let rows = store
        .aggregate(
            ns,
            vec![
                json!({"$match": {"source": "a.md"}}),
                json!({"$sort": {"text": 1}}),
                json!({"$project": {"_id": 0, "text": 1, "createdAt": 1}}),
            ],
        )
        .await
        .unwrap();
    assert_eq!(
        rows,
        vec![
            json!({"text": "alpha", "createdAt": "2025-01-02T03:04:05Z"}),
            json!({"text": "gamma", "createdAt": "2025-01-02T03:04:05Z"})
        ]
    );
}

/// A server without Atlas Search: the clear message everywhere search is needed, while
/// listing and aggregating still work.
async fn without_atlas_search(store: &MongoStore, ns: &Namespace, uri: &str, error: ProviderError) {
    let text = error.to_string();
    if let Some(password) = password(uri) {
        assert!(!text.contains(&password), "{text}");
    }
    let search_error = store
        .vector_search(search(ns, basis(0), None))
        .await
        .unwrap_err();
    assert!(
        search_error.to_string().contains(NO_ATLAS_SEARCH),
        "{search_error}"
    );
    let listed = store.list_collections(&ns.db).await.unwrap();
    let ours = listed.iter().find(|c| c.name == ns.collection).unwrap();
    assert_eq!(ours.vector_index, None);
    assert_eq!(
        store
            .insert(ns, vec![stored("alpha", "a.md", basis(0))])
            .await
            .unwrap(),
        1
    );
    let rows = store
        .aggregate(ns, vec![json!({"$project": {"_id": 0, "text": 1}})])
        .await
        .unwrap();
    assert_eq!(rows, vec![json!({"text": "alpha"})]);
    eprintln!(
        "VAI_TEST_MONGODB_URI has no Atlas Search: checked its message; the Atlas part needs an \
         Atlas cluster or `atlas deployments setup`"
    );
}
