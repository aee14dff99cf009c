//! `ensure_seeded` against the in-memory fakes: once, idempotent, resumable, never duplicating.

use super::*;
use crate::fakes::{FakeEmbedder, MemoryStore};
use std::collections::BTreeMap;
use std::time::Duration;

const DIMS: usize = 64;

fn namespace(collection: &str) -> Namespace {
    Namespace::new(SAMPLE_DB, collection)
}

/// Every stored sample document, as `collection/slug` → how many copies.
fn stored_keys(store: &MemoryStore) -> BTreeMap<String, usize> {
    let mut keys = BTreeMap::new();
    for collection in SAMPLE_COLLECTIONS {
        for doc in store.documents(&namespace(collection)) {
            let slug = doc["metadata"]["slug"].as_str().unwrap();
            *keys.entry(format!("{collection}/{slug}")).or_default() += 1;
        }
    }
    keys
}

fn edited(doc: SampleDoc) -> SampleDoc {
    SampleDoc {
        text: "# Edited Title\n\nThe same document, rewritten for the next release.",
        ..doc
    }
}

#[tokio::test]
async fn seeding_inserts_every_document_once_under_its_index() {
    let store = MemoryStore::new();
    let embedder = FakeEmbedder::new(DIMS);
    let report = ensure_seeded(&store, &embedder).await.unwrap();
    assert_eq!(
        report,
        SeedReport {
            seeded: true,
            inserted: DOCS.len() as u64,
            present: 0,
            indexes_created: 3,
            outdated: vec![],
            corpus_version: corpus_version(),
        }
    );

    let keys = stored_keys(&store);
    assert_eq!(keys.len(), DOCS.len());
    assert!(keys.values().all(|copies| *copies == 1));
    for collection in SAMPLE_COLLECTIONS {
        let index = store.index(&namespace(collection)).unwrap();
        assert_eq!(
            (index.name.as_str(), index.path.as_str(), index.dimensions),
            ("vector_index", "embedding", DIMS)
        );
    }

    let doc = &DOCS[0];
    let stored = store
        .documents(&namespace(doc.collection))
        .into_iter()
        .find(|d| d["metadata"]["slug"] == doc.slug)
        .unwrap();
    assert_eq!(stored["text"], doc.text.trim());
    assert_eq!(stored["source"], doc.title());
    assert_eq!(
        stored["embedding"],
        vector_to_json(&embedder.vector(doc.text))
    );
    assert_eq!(
        stored["metadata"],
        json!({
            "collection": doc.collection,
            "slug": doc.slug,
            "corpus": "vai-sample",
            "corpusVersion": corpus_version(),
            "contentHash": doc.content_hash(),
            "embedder": "fake",
        })
    );
    assert!(stored["createdAt"].as_str().unwrap().ends_with('Z'));

    let requests = embedder.requests();
    assert_eq!(requests.len(), DOCS.len().div_ceil(BATCH));
    assert!(requests.iter().all(|r| r.texts.len() <= BATCH
        && r.input_type == Some(EmbedInputType::Document)
        && r.model == "voyage-4-large"));
}

#[tokio::test]
async fn a_second_call_embeds_and_inserts_nothing() {
    let store = MemoryStore::new();
    let embedder = FakeEmbedder::new(DIMS);
    ensure_seeded(&store, &embedder).await.unwrap();
    let calls = embedder.requests().len();

    let again = ensure_seeded(&store, &embedder).await.unwrap();
    assert!(!again.seeded);
    assert_eq!((again.inserted, again.present), (0, DOCS.len() as u64));
    assert!(again.outdated.is_empty());
    assert_eq!(embedder.requests().len(), calls);
    assert_eq!(stored_keys(&store).values().sum::<usize>(), DOCS.len());
}

#[tokio::test]
async fn a_new_corpus_version_adds_new_documents_without_duplicating_any() {
    let store = MemoryStore::new();
    let embedder = FakeEmbedder::new(DIMS);
    let old = [DOCS[0], DOCS[1], DOCS[2]];
    let first = seed(&store, &embedder, &old).await.unwrap();
    assert_eq!(first.inserted, 3);

    // The next release edits DOCS[1], drops DOCS[2] and adds DOCS[40] and DOCS[60].
    let new = [DOCS[0], edited(DOCS[1]), DOCS[40], DOCS[60]];
    let report = seed(&store, &embedder, &new).await.unwrap();
    assert_ne!(report.corpus_version, first.corpus_version);
    assert!(report.seeded);
    assert_eq!((report.inserted, report.present), (2, 1));
    assert_eq!(report.outdated, {
        let mut keys = vec![DOCS[1].key(), DOCS[2].key()];
        keys.sort();
        keys
    });

    let keys = stored_keys(&store);
    assert!(keys.values().all(|copies| *copies == 1), "{keys:?}");
    let expected: BTreeSet<String> = old.iter().chain(&new).map(SampleDoc::key).collect();
    assert_eq!(keys.keys().cloned().collect::<BTreeSet<_>>(), expected);
    let added = &store.documents(&namespace(DOCS[60].collection));
    assert!(added.iter().any(|d| {
        d["metadata"]["slug"] == DOCS[60].slug
            && d["metadata"]["corpusVersion"] == report.corpus_version.as_str()
    }));

    let settled = seed(&store, &embedder, &new).await.unwrap();
    assert!(!settled.seeded);
    assert_eq!(settled.outdated, report.outdated);
}

#[tokio::test]
async fn documents_embedded_by_another_backend_are_reported_not_duplicated() {
    let store = MemoryStore::new();
    ensure_seeded(&store, &FakeEmbedder::new(DIMS))
        .await
        .unwrap();
    let other = FakeEmbedder::new(DIMS).named("voyage");
    let report = ensure_seeded(&store, &other).await.unwrap();
    assert!(!report.seeded);
    assert_eq!(report.present, 0);
    assert_eq!(report.outdated.len(), DOCS.len());
    assert!(other.requests().is_empty());
    assert_eq!(stored_keys(&store).len(), DOCS.len());
}

#[tokio::test]
async fn an_interrupted_seed_resumes_where_it_stopped() {
    let store = MemoryStore::new();
    let embedder = FakeEmbedder::new(DIMS);
    seed(&store, &embedder, &DOCS[..BATCH]).await.unwrap();

    embedder.fail_next(ProviderError::RateLimited {
        provider: "fake".into(),
        message: "slow down".into(),
        retry_after: Some(Duration::from_secs(1)),
    });
    let err = ensure_seeded(&store, &embedder).await.unwrap_err();
    assert!(err.is_transient());
    assert_eq!(stored_keys(&store).len(), BATCH);

    let report = ensure_seeded(&store, &embedder).await.unwrap();
    assert_eq!(report.present, BATCH as u64);
    assert_eq!(report.inserted, (DOCS.len() - BATCH) as u64);
    let seeded_before: BTreeSet<&str> = DOCS[..BATCH].iter().map(|d| d.collection).collect();
    assert_eq!(
        report.indexes_created as usize,
        SAMPLE_COLLECTIONS.len() - seeded_before.len()
    );
    assert!(stored_keys(&store).values().all(|copies| *copies == 1));
    assert_eq!(stored_keys(&store).len(), DOCS.len());
}

#[tokio::test]
async fn documents_users_add_to_sample_collections_are_ignored() {
    let store = MemoryStore::new();
    let embedder = FakeEmbedder::new(DIMS);
    let mine: Document =
        json!({"text": "notes", "source": "mine.md", "metadata": {"slug": "overview"}})
            .as_object()
            .unwrap()
            .clone();
    store
        .insert(&namespace("api_docs"), vec![mine])
        .await
        .unwrap();
    let report = ensure_seeded(&store, &embedder).await.unwrap();
    assert_eq!(report.inserted, DOCS.len() as u64);
    assert!(report.outdated.is_empty());
}

#[tokio::test]
async fn a_store_failure_is_returned_before_anything_is_embedded() {
    let store = MemoryStore::new();
    let embedder = FakeEmbedder::new(DIMS);
    store.fail_next(ProviderError::other("memory", "disk full"));
    assert_eq!(
        ensure_seeded(&store, &embedder).await.unwrap_err(),
        ProviderError::other("memory", "disk full")
    );
    assert!(embedder.requests().is_empty());
}

/// An embedder that calls itself "local" but is another model: its first vector does not match
/// the committed one, so every document is embedded by it, none taken from the file.
#[tokio::test]
async fn committed_vectors_are_not_used_for_another_model() {
    let store = MemoryStore::new();
    let embedder = FakeEmbedder::new(384).named("local");
    let report = ensure_seeded(&store, &embedder).await.unwrap();
    assert_eq!(report.inserted, DOCS.len() as u64);
    let texts: usize = embedder.requests().iter().map(|r| r.texts.len()).sum();
    assert_eq!(texts, 1 + DOCS.len(), "the probe, then every document");
    let doc = &store.documents(&namespace(DOCS[0].collection))[0];
    let stored: Vec<f32> = serde_json::from_value(doc["embedding"].clone()).unwrap();
    assert_eq!(stored, embedder.vector(DOCS[0].text));
}

/// With the installed model, seeding embeds one document and stores the committed vectors,
/// which are the model's own.
#[tokio::test]
async fn the_local_model_seeds_from_the_committed_vectors_after_one_embedding() {
    use crate::local::embed::{LocalEmbedder, ModelLocation, find_model_dir};
    use std::sync::atomic::{AtomicUsize, Ordering};

    struct Counting(LocalEmbedder, AtomicUsize);
    #[async_trait::async_trait]
    impl Embedder for Counting {
        fn name(&self) -> &str {
            self.0.name()
        }
        async fn embed(
            &self,
            request: EmbedRequest,
        ) -> Result<crate::EmbedResponse, ProviderError> {
            self.1.fetch_add(request.texts.len(), Ordering::SeqCst);
            self.0.embed(request).await
        }
    }
    let dir = match find_model_dir() {
        Ok(dir) => dir,
        Err(e) => {
            eprintln!("skipped: {e}");
            return;
        }
    };
    let embedder = Counting(
        LocalEmbedder::new(ModelLocation::Dir(dir)),
        AtomicUsize::new(0),
    );
    let store = MemoryStore::new();
    let report = ensure_seeded(&store, &embedder).await.unwrap();
    assert_eq!(report.inserted, DOCS.len() as u64);
    assert_eq!(embedder.1.load(Ordering::SeqCst), 1);
    let last = DOCS.last().unwrap();
    let stored = store
        .documents(&namespace(last.collection))
        .into_iter()
        .find(|d| d["metadata"]["slug"] == last.slug)
        .unwrap();
    let stored: Vec<f32> = serde_json::from_value(stored["embedding"].clone()).unwrap();
    let computed = embedder.0.embed(EmbedRequest {
        texts: vec![last.text.to_string()],
        model: String::new(),
        input_type: Some(EmbedInputType::Document),
        dimensions: None,
    });
    let computed = computed.await.unwrap().embeddings.remove(0);
    assert!(vectors::agree(&computed, &stored));
}
