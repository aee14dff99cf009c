//! Tests of `LocalStore` against real files in a temporary directory.

use super::*;
use crate::mql::Filter;
use crate::{cosine_similarity, vector_from_json, vector_to_json};
use serde_json::{Map, json};
use std::fs;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

/// A directory under the system temp dir, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new() -> Self {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let dir = std::env::temp_dir().join(format!(
            "vai-local-store-{}-{nanos}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    fn file(&self) -> PathBuf {
        self.0.join("store.sqlite3")
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// SplitMix64: reproducible pseudo-random numbers without a dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn unit(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0
    }

    fn vector(&mut self, dims: usize) -> Vec<f32> {
        (0..dims).map(|_| self.unit()).collect()
    }
}

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

fn doc(v: Value) -> Document {
    v.as_object().unwrap().clone()
}

fn query(vector: Vec<f32>, limit: usize, filter: Option<Value>) -> VectorQuery {
    VectorQuery {
        namespace: ns(),
        index: "vector_index".into(),
        path: "embedding".into(),
        vector,
        limit,
        num_candidates: limit,
        filter: filter.map(doc),
        fields: vec!["i".into(), "text".into()],
    }
}

fn numbered(i: usize, vector: &[f32]) -> Document {
    let langs = ["en", "fr", "de"];
    doc(json!({
        "text": format!("chunk {i}"),
        "i": i,
        "embedding": vector_to_json(vector),
        "metadata": {"lang": langs[i % 3], "group": i % 7},
    }))
}

fn ids(hits: &[ScoredDocument]) -> Vec<u64> {
    hits.iter()
        .map(|h| h.document["i"].as_u64().unwrap())
        .collect()
}

#[tokio::test]
async fn documents_indexes_and_vectors_persist_across_reopening() {
    let dir = TempDir::new();
    let stored = doc(json!({
        "text": "alpha", "source": "a.md", "embedding": [0.1, -0.25, 1.0],
        "metadata": {"lang": "en"}, "createdAt": "2025-01-01T00:00:00Z"
    }));
    {
        let s = LocalStore::open(&dir.file()).unwrap();
        assert_eq!(s.name(), "local");
        assert!(s.ensure_vector_index(&ns(), &index(3)).await.unwrap());
        assert_eq!(s.insert(&ns(), vec![stored.clone()]).await.unwrap(), 1);
        let hits = s
            .vector_search(query(vec![0.1, -0.25, 1.0], 5, None))
            .await
            .unwrap();
        assert_eq!(hits.len(), 1);
    }
    let s = LocalStore::open(&dir.file()).unwrap();
    assert!(!s.ensure_vector_index(&ns(), &index(3)).await.unwrap());
    let list = s.list_collections("kb").await.unwrap();
    assert_eq!(list.len(), 1);
    assert_eq!((list[0].name.as_str(), list[0].document_count), ("docs", 1));
    assert_eq!(
        list[0].vector_index,
        Some(VectorIndexInfo {
            name: "vector_index".into(),
            path: "embedding".into(),
            dimensions: Some(3)
        })
    );

    // Same shape as inserted: `_id` first, then the fields in order, the embedding as an array.
    let all = s.aggregate(&ns(), vec![]).await.unwrap();
    let Value::Object(read_back) = &all[0] else {
        panic!("not an object")
    };
    let id = read_back["_id"].as_str().unwrap();
    assert_eq!(id.len(), 24);
    assert!(id.chars().all(|c| c.is_ascii_hexdigit()));
    let mut expected = Map::new();
    expected.insert("_id".into(), json!(id));
    expected.extend(stored);
    assert_eq!(read_back, &expected);
    assert_eq!(
        read_back.keys().collect::<Vec<_>>(),
        expected.keys().collect::<Vec<_>>()
    );

    let mut q = query(vec![0.1, -0.25, 1.0], 5, None);
    q.fields = vec!["source".into(), "embedding".into()];
    let hits = s.vector_search(q).await.unwrap();
    assert!((hits[0].score - 1.0).abs() < 1e-6);
    assert_eq!(
        Value::Object(hits[0].document.clone()),
        json!({"_id": id, "source": "a.md", "embedding": [0.1, -0.25, 1.0]})
    );
}

/// Every filtered document scored in f64, best first, ties by insertion order.
fn oracle(docs: &[Document], q: &[f32], k: usize, filter: Option<&Value>) -> Vec<(u64, f64)> {
    let filter = filter.map(|f| Filter::parse(f.as_object().unwrap()).unwrap());
    let mut scored: Vec<(u64, f64)> = docs
        .iter()
        .filter(|d| filter.as_ref().is_none_or(|f| f.matches(d)))
        .map(|d| {
            let v = vector_from_json(&d["embedding"]).unwrap();
            (
                d["i"].as_u64().unwrap(),
                (1.0 + cosine_similarity(q, &v)) / 2.0,
            )
        })
        .collect();
    scored.sort_by(|a, b| b.1.total_cmp(&a.1));
    scored.truncate(k);
    scored
}

#[tokio::test]
async fn search_is_exact_top_k_against_a_brute_force_oracle() {
    let dir = TempDir::new();
    let s = LocalStore::open(&dir.file()).unwrap();
    // 37 dimensions exercise the remainder of the 8-wide kernel; 10,000 vectors split the scan
    // across threads.
    let (n, dims) = (10_000, 37);
    s.ensure_vector_index(&ns(), &index(dims)).await.unwrap();
    let mut rng = Rng(7);
    let docs: Vec<Document> = (0..n).map(|i| numbered(i, &rng.vector(dims))).collect();
    for batch in docs.chunks(2_500) {
        s.insert(&ns(), batch.to_vec()).await.unwrap();
    }
    let filters = [
        None,
        Some(json!({"metadata.lang": "fr"})),
        Some(json!({"metadata.group": {"$in": [1, 4]}, "i": {"$gte": 3000}})),
        Some(json!({"$or": [{"metadata.lang": "de"}, {"i": {"$lt": 50}}]})),
        Some(json!({"i": {"$lt": 4}})),
    ];
    for (round, filter) in filters.iter().enumerate() {
        for k in [1, 10, 25] {
            let q = rng.vector(dims);
            let hits = s
                .vector_search(query(q.clone(), k, filter.clone()))
                .await
                .unwrap();
            let want = oracle(&docs, &q, k, filter.as_ref());
            assert_eq!(
                ids(&hits),
                want.iter().map(|w| w.0).collect::<Vec<_>>(),
                "round {round}, k {k}"
            );
            for (hit, (_, score)) in hits.iter().zip(&want) {
                assert!((hit.score - score).abs() < 1e-5);
            }
        }
    }
    // A limit above the filtered set returns all of it.
    let all = s
        .vector_search(query(rng.vector(dims), 100, Some(json!({"i": {"$lt": 4}}))))
        .await
        .unwrap();
    assert_eq!(all.len(), 4);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_inserts_and_searches_see_consistent_documents() {
    let dir = TempDir::new();
    let s = Arc::new(LocalStore::open(&dir.file()).unwrap());
    let dims = 16;
    s.ensure_vector_index(&ns(), &index(dims)).await.unwrap();
    let vector = move |i: usize| Rng(i as u64 + 1).vector(dims);
    let (writers, batches, per_batch) = (4, 10, 25);

    let mut tasks = Vec::new();
    for w in 0..writers {
        let s = Arc::clone(&s);
        tasks.push(tokio::spawn(async move {
            for b in 0..batches {
                let docs = (0..per_batch)
                    .map(|j| {
                        let i = (w * batches + b) * per_batch + j;
                        numbered(i, &vector(i))
                    })
                    .collect();
                s.insert(&ns(), docs).await.unwrap();
            }
        }));
    }
    for r in 0..4 {
        let s = Arc::clone(&s);
        tasks.push(tokio::spawn(async move {
            let mut seen = 0;
            for round in 0..30 {
                let q = vector(10_000 + r * 100 + round);
                let hits = s.vector_search(query(q.clone(), 1000, None)).await.unwrap();
                // Never fewer documents than an earlier search saw, and each hit's score is its
                // own vector's: the cached vectors and documents stay aligned.
                assert!(hits.len() >= seen);
                seen = hits.len();
                for h in &hits {
                    let i = h.document["i"].as_u64().unwrap() as usize;
                    let want = (1.0 + cosine_similarity(&q, &vector(i))) / 2.0;
                    assert!((h.score - want).abs() < 1e-5);
                }
            }
        }));
    }
    for t in tasks {
        t.await.unwrap();
    }
    let total = writers * batches * per_batch;
    let hits = s
        .vector_search(query(vector(0), total + 10, None))
        .await
        .unwrap();
    let mut found = ids(&hits);
    found.sort_unstable();
    assert_eq!(found, (0..total as u64).collect::<Vec<_>>());
    assert_eq!(
        s.list_collections("kb").await.unwrap()[0].document_count,
        total as u64
    );
}

#[tokio::test]
async fn a_second_handle_sees_what_the_first_inserted() {
    let dir = TempDir::new();
    let a = LocalStore::open(&dir.file()).unwrap();
    let b = LocalStore::open(&dir.file()).unwrap();
    a.ensure_vector_index(&ns(), &index(2)).await.unwrap();
    a.insert(&ns(), vec![numbered(0, &[1.0, 0.0])])
        .await
        .unwrap();
    assert_eq!(
        b.vector_search(query(vec![1.0, 0.0], 5, None))
            .await
            .unwrap()
            .len(),
        1
    );
    a.insert(&ns(), vec![numbered(1, &[0.0, 1.0])])
        .await
        .unwrap();
    let hits = b
        .vector_search(query(vec![0.0, 1.0], 5, None))
        .await
        .unwrap();
    assert_eq!(ids(&hits), [1, 0]);
}

#[test]
fn a_file_that_is_not_a_database_is_refused_and_left_untouched() {
    let dir = TempDir::new();
    let path = dir.file();
    let garbage: Vec<u8> = (0..10_000u32).map(|i| (i * 7919 % 251) as u8).collect();
    fs::write(&path, &garbage).unwrap();
    let err = LocalStore::open(&path).unwrap_err().to_string();
    assert!(err.contains(&path.display().to_string()), "{err}");
    assert!(err.contains("not a SQLite database"), "{err}");
    assert!(err.contains("Move it aside"), "{err}");
    assert_eq!(fs::read(&path).unwrap(), garbage);
    let files: Vec<_> = fs::read_dir(&dir.0).unwrap().collect();
    assert_eq!(files.len(), 1, "no journal or WAL file was created");
}

#[tokio::test]
async fn a_damaged_store_is_refused_and_left_untouched() {
    let dir = TempDir::new();
    let path = dir.file();
    {
        let s = LocalStore::open(&path).unwrap();
        s.ensure_vector_index(&ns(), &index(8)).await.unwrap();
        let docs = (0..400).map(|i| numbered(i, &[i as f32; 8])).collect();
        s.insert(&ns(), docs).await.unwrap();
    }
    // Closing the last connection checkpointed the WAL into the file.
    let mut bytes = fs::read(&path).unwrap();
    assert!(bytes.len() > 8 * 4096);
    for b in &mut bytes[4096 * 3..4096 * 3 + 64] {
        *b = 0xa5;
    }
    fs::write(&path, &bytes).unwrap();
    let err = LocalStore::open(&path).unwrap_err().to_string();
    assert!(err.contains("cannot be used"), "{err}");
    assert!(err.contains("Move it aside"), "{err}");
    assert_eq!(fs::read(&path).unwrap(), bytes);
}

#[test]
fn another_programs_database_is_refused_and_left_untouched() {
    let dir = TempDir::new();
    let path = dir.file();
    {
        let c = Connection::open(&path).unwrap();
        c.execute_batch("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('mine');")
            .unwrap();
    }
    let before = fs::read(&path).unwrap();
    let err = LocalStore::open(&path).unwrap_err().to_string();
    assert!(err.contains("not one vai created"), "{err}");
    assert_eq!(fs::read(&path).unwrap(), before);
}

#[tokio::test]
async fn missing_directories_are_created_and_a_vanished_file_is_noticed() {
    let dir = TempDir::new();
    let path = dir.0.join("a/b/c/store.sqlite3");
    let s = LocalStore::open(&path).unwrap();
    assert_eq!(s.path(), path);
    s.ensure_vector_index(&ns(), &index(2)).await.unwrap();
    s.insert(&ns(), vec![numbered(0, &[1.0, 0.0])])
        .await
        .unwrap();

    let moved = dir.0.join("moved.sqlite3");
    fs::rename(&path, &moved).unwrap();
    let err = s
        .insert(&ns(), vec![numbered(1, &[0.0, 1.0])])
        .await
        .unwrap_err()
        .to_string();
    assert!(err.contains("was moved or deleted"), "{err}");
    assert!(err.contains("database \"kb\""), "{err}");
    assert!(
        !err.contains(&dir.0.display().to_string()),
        "no path in an error a step may show: {err}"
    );
    drop(s);
    // What was written before the move is all in the moved file.
    for suffix in ["-wal", "-shm"] {
        let side = format!("{}{suffix}", path.display());
        if Path::new(&side).exists() {
            fs::rename(&side, format!("{}{suffix}", moved.display())).unwrap();
        }
    }
    let s = LocalStore::open(&moved).unwrap();
    assert_eq!(s.list_collections("kb").await.unwrap()[0].document_count, 1);
}

#[cfg(unix)]
fn mode(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    fs::metadata(path).unwrap().permissions().mode() & 0o777
}

/// Ingested documents are the user's: the store, its WAL and shared-memory files are owner-only,
/// and so are the directories vai creates for them — not the ones that were there.
#[cfg(unix)]
#[tokio::test]
async fn the_store_and_its_journal_are_private() {
    use std::os::unix::fs::PermissionsExt;
    let dir = TempDir::new();
    fs::set_permissions(&dir.0, fs::Permissions::from_mode(0o755)).unwrap();
    let path = dir.0.join("data/vai/store.sqlite3");
    let s = LocalStore::open(&path).unwrap();
    s.ensure_vector_index(&ns(), &index(2)).await.unwrap();
    s.insert(&ns(), vec![numbered(0, &[1.0, 0.0])])
        .await
        .unwrap();
    let side = |suffix: &str| PathBuf::from(format!("{}{suffix}", path.display()));
    assert!(side("-wal").exists() && side("-shm").exists());
    for file in [path.clone(), side("-wal"), side("-shm")] {
        assert_eq!(mode(&file), 0o600, "{}", file.display());
    }
    assert_eq!(mode(&dir.0.join("data/vai")), 0o700);
    assert_eq!(mode(&dir.0.join("data")), 0o700);
    assert_eq!(mode(&dir.0), 0o755, "an existing directory keeps its mode");
    drop(s);

    // A store an earlier version left readable by everyone is made private when opened.
    fs::set_permissions(&path, fs::Permissions::from_mode(0o644)).unwrap();
    let s = LocalStore::open(&path).unwrap();
    assert_eq!(mode(&path), 0o600);
    assert_eq!(s.list_collections("kb").await.unwrap()[0].document_count, 1);
}

#[tokio::test]
async fn wrong_dimensions_missing_indexes_and_duplicate_ids_are_clear_errors() {
    let dir = TempDir::new();
    let s = LocalStore::open(&dir.file()).unwrap();
    let mut other = query(vec![1.0, 0.0], 5, None);
    other.namespace = Namespace::new("kb", "nothing");
    assert!(s.vector_search(other).await.unwrap().is_empty());

    s.insert(&ns(), vec![numbered(0, &[1.0, 0.0, 0.0])])
        .await
        .unwrap();
    let err = s
        .vector_search(query(vec![1.0, 0.0, 0.0], 5, None))
        .await
        .unwrap_err();
    assert!(
        err.to_string()
            .contains("no vector index named \"vector_index\""),
        "{err}"
    );

    s.ensure_vector_index(&ns(), &index(3)).await.unwrap();
    let err = s
        .vector_search(query(vec![1.0, 0.0], 5, None))
        .await
        .unwrap_err();
    assert!(matches!(err, ProviderError::InvalidRequest { .. }));
    assert!(
        err.to_string()
            .contains("query vector has 2 dimensions, index \"vector_index\" of kb.docs has 3"),
        "{err}"
    );
    let err = s
        .vector_search(query(
            vec![1.0, 0.0, 0.0],
            5,
            Some(json!({"text": {"$regex": "x"}})),
        ))
        .await
        .unwrap_err();
    assert!(
        err.to_string().contains("filter: $regex is not supported"),
        "{err}"
    );

    let dup = vec![
        doc(json!({"_id": "a", "embedding": [0.0, 1.0, 0.0]})),
        doc(json!({"_id": "a", "embedding": [0.0, 0.0, 1.0]})),
    ];
    let err = s.insert(&ns(), dup).await.unwrap_err();
    assert!(
        err.to_string()
            .contains("duplicate _id a in kb.docs; nothing was inserted"),
        "{err}"
    );
    assert_eq!(s.list_collections("kb").await.unwrap()[0].document_count, 1);

    let elsewhere = VectorIndex {
        name: "other".into(),
        path: "vec".into(),
        dimensions: 3,
    };
    let err = s.ensure_vector_index(&ns(), &elsewhere).await.unwrap_err();
    assert!(
        err.to_string().contains("one vector field per collection"),
        "{err}"
    );
}

#[tokio::test]
async fn aggregate_runs_the_shared_subset_and_names_refused_stages() {
    let dir = TempDir::new();
    let s = LocalStore::open(&dir.file()).unwrap();
    let docs = (0..6).map(|i| numbered(i, &[i as f32, 1.0])).collect();
    s.insert(&ns(), docs).await.unwrap();
    let out = s
        .aggregate(
            &ns(),
            vec![
                json!({"$match": {"metadata.lang": {"$ne": "de"}}}),
                json!({"$sort": {"i": -1}}),
                json!({"$limit": 2}),
                json!({"$project": {"_id": 0, "i": 1, "metadata.lang": 1}}),
            ],
        )
        .await
        .unwrap();
    assert_eq!(
        out,
        [
            json!({"i": 4, "metadata": {"lang": "fr"}}),
            json!({"i": 3, "metadata": {"lang": "en"}})
        ]
    );
    let counted = s
        .aggregate(
            &ns(),
            vec![
                json!({"$match": {"i": {"$gte": 2}}}),
                json!({"$count": "n"}),
            ],
        )
        .await
        .unwrap();
    assert_eq!(counted, [json!({"n": 4})]);
    let err = s
        .aggregate(
            &ns(),
            vec![json!({"$match": {}}), json!({"$group": {"_id": "$source"}})],
        )
        .await
        .unwrap_err();
    assert!(matches!(err, ProviderError::InvalidRequest { .. }));
    assert!(
        err.to_string()
            .contains("stage 1 ($group) is not supported"),
        "{err}"
    );
    assert!(
        s.aggregate(&Namespace::new("kb", "none"), vec![json!({"$limit": 1})])
            .await
            .unwrap()
            .is_empty()
    );
}

#[test]
fn the_default_path_follows_vai_data_dir_then_xdg_then_home() {
    let env = |pairs: &'static [(&'static str, &'static str)]| {
        move |name: &str| {
            pairs
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| OsString::from(v))
        }
    };
    let path = |pairs| default_path_from(env(pairs)).unwrap();
    assert_eq!(
        path(&[("VAI_DATA_DIR", "/data"), ("HOME", "/home/u")]),
        Path::new("/data/store.sqlite3")
    );
    assert_eq!(
        path(&[
            ("VAI_DATA_DIR", ""),
            ("XDG_DATA_HOME", "/xdg"),
            ("HOME", "/home/u")
        ]),
        Path::new("/xdg/vai/store.sqlite3")
    );
    assert_eq!(
        path(&[("XDG_DATA_HOME", "relative"), ("HOME", "/home/u")]),
        Path::new("/home/u/.local/share/vai/store.sqlite3")
    );
    assert!(matches!(
        default_path_from(env(&[])),
        Err(ProviderError::NotConfigured(_))
    ));
}
