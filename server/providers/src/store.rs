//! The `VectorStore` trait: documents with embeddings in databases and collections, searched by
//! vector similarity (MongoDB Atlas Vector Search or the local store).

use crate::ProviderError;
use async_trait::async_trait;
use serde_json::{Map, Value};
use std::fmt;
use std::time::{SystemTime, UNIX_EPOCH};

/// A database and a collection in it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Namespace {
    pub db: String,
    pub collection: String,
}

impl Namespace {
    pub fn new(db: impl Into<String>, collection: impl Into<String>) -> Self {
        Namespace {
            db: db.into(),
            collection: collection.into(),
        }
    }
}

impl fmt::Display for Namespace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.db, self.collection)
    }
}

/// A stored document as JSON. `_id` is rendered as JSON (a MongoDB ObjectId as its hex string).
pub type Document = Map<String, Value>;

/// One vector search (`$vectorSearch` in MongoDB terms).
#[derive(Debug, Clone, PartialEq)]
pub struct VectorQuery {
    pub namespace: Namespace,
    /// Name of the vector index to use ("vector_index").
    pub index: String,
    /// Field holding the embeddings ("embedding").
    pub path: String,
    pub vector: Vec<f32>,
    pub limit: usize,
    /// Approximate-search candidate pool; exact backends may ignore it. Never below `limit`.
    pub num_candidates: usize,
    /// A MongoDB-style pre-filter (`{"source": "a.md", "metadata.lang": {"$in": ["en"]}}`).
    pub filter: Option<Map<String, Value>>,
    /// Fields to return from each document (those present); the embedding is never returned
    /// unless listed. `_id` is always included.
    pub fields: Vec<String>,
}

/// A search hit: the projected document and its score, higher is better.
#[derive(Debug, Clone, PartialEq)]
pub struct ScoredDocument {
    pub document: Document,
    /// Similarity as the backend reports it (Atlas: `(1 + cosine) / 2` for cosine indexes).
    pub score: f64,
}

/// A vector index over one field, with cosine similarity.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VectorIndex {
    pub name: String,
    pub path: String,
    pub dimensions: usize,
}

/// What `list_collections` reports for one collection.
#[derive(Debug, Clone, PartialEq)]
pub struct CollectionInfo {
    pub name: String,
    pub document_count: u64,
    /// The collection's vector index, if it has one (the first when it has several).
    pub vector_index: Option<VectorIndexInfo>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VectorIndexInfo {
    pub name: String,
    /// The embedding field the index covers.
    pub path: String,
    /// Declared dimensions, when the backend reports them.
    pub dimensions: Option<usize>,
}

/// Where documents and their embeddings live.
#[async_trait]
pub trait VectorStore: Send + Sync {
    /// The backend's name, reported per step ("mongodb", "local", …).
    fn name(&self) -> &str;

    /// The `limit` nearest documents to `query.vector` that pass `query.filter`, best first. A
    /// collection that does not exist yields no hits.
    async fn vector_search(&self, query: VectorQuery)
    -> Result<Vec<ScoredDocument>, ProviderError>;

    /// Insert documents as given (the embedding is one of their fields); returns how many were
    /// inserted. Creates the collection when missing.
    async fn insert(
        &self,
        namespace: &Namespace,
        documents: Vec<Document>,
    ) -> Result<u64, ProviderError>;

    /// Make sure a vector index named `index.name` exists, creating the collection and the index
    /// when missing. Returns `true` when it was created by this call.
    async fn ensure_vector_index(
        &self,
        namespace: &Namespace,
        index: &VectorIndex,
    ) -> Result<bool, ProviderError>;

    /// The collections of a database with their document counts and vector indexes, by name.
    async fn list_collections(&self, db: &str) -> Result<Vec<CollectionInfo>, ProviderError>;

    /// Run an aggregation pipeline (an array of stage objects) and return the resulting documents.
    /// Callers vet the pipeline (stage count, write stages) before calling.
    async fn aggregate(
        &self,
        namespace: &Namespace,
        pipeline: Vec<Value>,
    ) -> Result<Vec<Value>, ProviderError>;
}

/// A UTC timestamp as RFC 3339 with milliseconds ("2026-01-31T09:05:00.123Z"), the form
/// JavaScript's `toISOString` writes: the `createdAt` of stored documents.
pub fn rfc3339_utc(time: SystemTime) -> String {
    let since_epoch = time.duration_since(UNIX_EPOCH).unwrap_or_default();
    let secs = since_epoch.as_secs();
    let (days, secs_of_day) = ((secs / 86_400) as i64, secs % 86_400);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        secs_of_day / 3600,
        secs_of_day / 60 % 60,
        secs_of_day % 60,
        since_epoch.subsec_millis()
    )
}

#[cfg(test)]
mod time_tests {
    use super::rfc3339_utc;
    use std::time::{Duration, UNIX_EPOCH};

    #[test]
    fn timestamps_are_rfc3339_utc_with_milliseconds() {
        assert_eq!(rfc3339_utc(UNIX_EPOCH), "1970-01-01T00:00:00.000Z");
        let t = UNIX_EPOCH + Duration::from_millis(951_782_400_123); // leap day 2000
        assert_eq!(rfc3339_utc(t), "2000-02-29T00:00:00.123Z");
        let t = UNIX_EPOCH + Duration::from_secs(1_767_225_599);
        assert_eq!(rfc3339_utc(t), "2025-12-31T23:59:59.000Z");
    }
}
