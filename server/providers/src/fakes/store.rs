//! `MemoryStore`: databases of collections of JSON documents in a map, exact cosine search and a
//! small aggregation subset (tests only).

use super::{Faults, Log, lock};
use crate::mql::{Filter, Pipeline, project_fields};
use crate::{
    CollectionInfo, Document, Namespace, ProviderError, ScoredDocument, VectorIndex,
    VectorIndexInfo, VectorQuery, VectorStore, cosine_similarity, vector_from_json,
};
use async_trait::async_trait;
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

#[derive(Debug, Default)]
struct Collection {
    docs: Vec<Document>,
    index: Option<VectorIndex>,
}

/// Test-only vector store. Search is exact: every document with a vector of the index's size is
/// scored as Atlas scores cosine indexes, `(1 + cosine) / 2`, after the pre-filter. Filters and
/// pipelines are the MongoDB subset of [`crate::mql`]; anything else is refused with an error
/// rather than half-done. Inserted documents without `_id` get a 24-hex-digit one.
#[derive(Debug)]
pub struct MemoryStore {
    name: String,
    dbs: Mutex<BTreeMap<String, BTreeMap<String, Collection>>>,
    next_id: AtomicU64,
    searches: Log<VectorQuery>,
    pipelines: Log<(Namespace, Vec<Value>)>,
    faults: Faults,
}

impl Default for MemoryStore {
    fn default() -> Self {
        Self::new()
    }
}

impl MemoryStore {
    pub fn new() -> Self {
        MemoryStore {
            name: "memory".into(),
            dbs: Mutex::new(BTreeMap::new()),
            next_id: AtomicU64::new(1),
            searches: Log::new(),
            pipelines: Log::new(),
            faults: Faults::default(),
        }
    }

    pub fn named(mut self, name: impl Into<String>) -> Self {
        self.name = name.into();
        self
    }

    /// Every document of a collection as stored (embedding included), in insertion order.
    pub fn documents(&self, namespace: &Namespace) -> Vec<Document> {
        self.with_collection(namespace, |c| c.docs.clone())
            .unwrap_or_default()
    }

    /// The collection's vector index, if any.
    pub fn index(&self, namespace: &Namespace) -> Option<VectorIndex> {
        self.with_collection(namespace, |c| c.index.clone())
            .flatten()
    }

    /// Every vector search received, in order.
    pub fn searches(&self) -> Vec<VectorQuery> {
        self.searches.all()
    }

    /// Every aggregation pipeline received, in order.
    pub fn pipelines(&self) -> Vec<(Namespace, Vec<Value>)> {
        self.pipelines.all()
    }

    /// Make the next call (of any method but `name`) fail with `error`.
    pub fn fail_next(&self, error: ProviderError) {
        self.faults.push(error);
    }

    fn with_collection<T>(&self, ns: &Namespace, f: impl FnOnce(&Collection) -> T) -> Option<T> {
        lock(&self.dbs)
            .get(&ns.db)
            .and_then(|db| db.get(&ns.collection))
            .map(f)
    }

    fn invalid(&self, message: impl Into<String>) -> ProviderError {
        ProviderError::invalid_request(&self.name, message)
    }
}

#[async_trait]
impl VectorStore for MemoryStore {
    fn name(&self) -> &str {
        &self.name
    }

    async fn vector_search(
        &self,
        query: VectorQuery,
    ) -> Result<Vec<ScoredDocument>, ProviderError> {
        self.searches.push(query.clone());
        self.faults.take()?;
        let dbs = lock(&self.dbs);
        let Some(collection) = dbs
            .get(&query.namespace.db)
            .and_then(|db| db.get(&query.namespace.collection))
        else {
            return Ok(Vec::new());
        };
        let index = match &collection.index {
            Some(i) if i.name == query.index => i,
            _ => {
                return Err(self.invalid(format!(
                    "{} has no vector index named \"{}\"",
                    query.namespace, query.index
                )));
            }
        };
        if index.path != query.path {
            return Err(self.invalid(format!(
                "vector index \"{}\" covers \"{}\", not \"{}\"",
                index.name, index.path, query.path
            )));
        }
        if query.vector.len() != index.dimensions {
            return Err(self.invalid(format!(
                "query vector has {} dimensions, index \"{}\" has {}",
                query.vector.len(),
                index.name,
                index.dimensions
            )));
        }
        let filter = match &query.filter {
            Some(f) => Some(Filter::parse(f).map_err(|e| self.invalid(format!("filter: {e}")))?),
            None => None,
        };
        let mut hits = Vec::new();
        for doc in &collection.docs {
            if filter.as_ref().is_some_and(|f| !f.matches(doc)) {
                continue;
            }
            let Some(vector) = doc.get(&query.path).and_then(vector_from_json) else {
                continue;
            };
            if vector.len() != index.dimensions {
                continue;
            }
            let score = (1.0 + cosine_similarity(&query.vector, &vector)) / 2.0;
            hits.push((score, doc));
        }
        // Stable: equal scores keep insertion order.
        hits.sort_by(|a, b| b.0.total_cmp(&a.0));
        Ok(hits
            .into_iter()
            .take(query.limit)
            .map(|(score, doc)| ScoredDocument {
                document: project_fields(doc, &query.fields),
                score,
            })
            .collect())
    }

    async fn insert(
        &self,
        namespace: &Namespace,
        documents: Vec<Document>,
    ) -> Result<u64, ProviderError> {
        self.faults.take()?;
        let mut dbs = lock(&self.dbs);
        let collection = dbs
            .entry(namespace.db.clone())
            .or_default()
            .entry(namespace.collection.clone())
            .or_default();
        let count = documents.len() as u64;
        for mut doc in documents {
            if !doc.contains_key("_id") {
                let id = self.next_id.fetch_add(1, Ordering::Relaxed);
                let mut with_id = Map::new();
                with_id.insert("_id".into(), Value::String(format!("{id:024x}")));
                with_id.append(&mut doc);
                doc = with_id;
            }
            collection.docs.push(doc);
        }
        Ok(count)
    }

    async fn ensure_vector_index(
        &self,
        namespace: &Namespace,
        index: &VectorIndex,
    ) -> Result<bool, ProviderError> {
        self.faults.take()?;
        let mut dbs = lock(&self.dbs);
        let collection = dbs
            .entry(namespace.db.clone())
            .or_default()
            .entry(namespace.collection.clone())
            .or_default();
        match &collection.index {
            Some(existing) if existing.name == index.name => Ok(false),
            _ => {
                collection.index = Some(index.clone());
                Ok(true)
            }
        }
    }

    async fn list_collections(&self, db: &str) -> Result<Vec<CollectionInfo>, ProviderError> {
        self.faults.take()?;
        let dbs = lock(&self.dbs);
        Ok(dbs
            .get(db)
            .map(|collections| {
                collections
                    .iter()
                    .map(|(name, c)| CollectionInfo {
                        name: name.clone(),
                        document_count: c.docs.len() as u64,
                        vector_index: c.index.as_ref().map(|i| VectorIndexInfo {
                            name: i.name.clone(),
                            path: i.path.clone(),
                            dimensions: Some(i.dimensions),
                        }),
                    })
                    .collect()
            })
            .unwrap_or_default())
    }

    async fn aggregate(
        &self,
        namespace: &Namespace,
        pipeline: Vec<Value>,
    ) -> Result<Vec<Value>, ProviderError> {
        self.pipelines.push((namespace.clone(), pipeline.clone()));
        self.faults.take()?;
        let pipeline = Pipeline::parse(&pipeline).map_err(|e| self.invalid(e.to_string()))?;
        let docs = self
            .with_collection(namespace, |c| c.docs.clone())
            .unwrap_or_default();
        Ok(pipeline.run(docs).into_iter().map(Value::Object).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ns() -> Namespace {
        Namespace::new("db", "docs")
    }

    fn doc(v: Value) -> Document {
        v.as_object().unwrap().clone()
    }

    fn index(dimensions: usize) -> VectorIndex {
        VectorIndex {
            name: "vector_index".into(),
            path: "embedding".into(),
            dimensions,
        }
    }

    async fn seeded() -> MemoryStore {
        let s = MemoryStore::new();
        s.insert(
            &ns(),
            vec![
                doc(json!({"text": "a", "source": "x", "n": 3, "tags": ["red"], "embedding": [1.0, 0.0]})),
                doc(json!({"text": "b", "source": "y", "n": 1, "tags": ["blue"], "embedding": [0.0, 1.0]})),
                doc(json!({"text": "c", "source": "x", "n": 2, "metadata": {"lang": "en"}, "embedding": [0.7, 0.7]})),
            ],
        )
        .await
        .unwrap();
        s
    }

    fn search(vector: Vec<f32>, filter: Option<Value>) -> VectorQuery {
        VectorQuery {
            namespace: ns(),
            index: "vector_index".into(),
            path: "embedding".into(),
            vector,
            limit: 10,
            num_candidates: 150,
            filter: filter.map(|f| f.as_object().unwrap().clone()),
            fields: vec!["text".into(), "source".into()],
        }
    }

    #[tokio::test]
    async fn exact_search_ranks_by_cosine_projects_and_prefilters() {
        let s = seeded().await;
        assert!(s.ensure_vector_index(&ns(), &index(2)).await.unwrap());
        assert!(!s.ensure_vector_index(&ns(), &index(2)).await.unwrap());

        let hits = s.vector_search(search(vec![1.0, 0.1], None)).await.unwrap();
        let texts: Vec<&str> = hits
            .iter()
            .map(|h| h.document["text"].as_str().unwrap())
            .collect();
        assert_eq!(texts, ["a", "c", "b"]);
        assert!(hits[0].score > 0.99 && hits[0].score <= 1.0);
        assert_eq!(
            hits[0].document.keys().collect::<Vec<_>>(),
            ["_id", "text", "source"]
        );

        let filtered = s
            .vector_search(search(vec![0.0, 1.0], Some(json!({"source": "x"}))))
            .await
            .unwrap();
        assert_eq!(filtered.len(), 2);
        assert!(filtered.iter().all(|h| h.document["source"] == "x"));
        let ops = s
            .vector_search(search(
                vec![0.0, 1.0],
                Some(json!({"n": {"$gte": 2}, "metadata.lang": "en"})),
            ))
            .await
            .unwrap();
        assert_eq!(ops.len(), 1);
        let err = s
            .vector_search(search(
                vec![0.0, 1.0],
                Some(json!({"text": {"$regex": "a"}})),
            ))
            .await
            .unwrap_err();
        assert!(err.to_string().contains("$regex is not supported"), "{err}");
    }

    #[tokio::test]
    async fn search_needs_the_index_but_a_missing_collection_is_empty() {
        let s = seeded().await;
        let err = s
            .vector_search(search(vec![1.0, 0.0], None))
            .await
            .unwrap_err();
        assert!(
            err.to_string()
                .contains("no vector index named \"vector_index\"")
        );
        let mut other = search(vec![1.0, 0.0], None);
        other.namespace = Namespace::new("db", "nothing");
        assert!(s.vector_search(other).await.unwrap().is_empty());
    }

    #[tokio::test]
    async fn collections_report_counts_and_indexes() {
        let s = seeded().await;
        s.ensure_vector_index(&Namespace::new("db", "empty"), &index(4))
            .await
            .unwrap();
        let list = s.list_collections("db").await.unwrap();
        assert_eq!(list.len(), 2);
        assert_eq!(list[0].name, "docs");
        assert_eq!(list[0].document_count, 3);
        assert_eq!(list[0].vector_index, None);
        assert_eq!(list[1].vector_index.as_ref().unwrap().dimensions, Some(4));
        assert!(s.list_collections("nope").await.unwrap().is_empty());
    }

    #[tokio::test]
    async fn aggregate_supports_match_sort_limit_project() {
        let s = seeded().await;
        let out = s
            .aggregate(
                &ns(),
                vec![
                    json!({"$match": {"tags": {"$nin": ["blue"]}}}),
                    json!({"$sort": {"n": -1}}),
                    json!({"$limit": 5}),
                    json!({"$project": {"_id": 0, "text": 1, "metadata.lang": 1}}),
                ],
            )
            .await
            .unwrap();
        assert_eq!(
            out,
            vec![
                json!({"text": "a"}),
                json!({"text": "c", "metadata": {"lang": "en"}})
            ]
        );
        let by_array = s
            .aggregate(&ns(), vec![json!({"$match": {"tags": "red"}})])
            .await
            .unwrap();
        assert_eq!(by_array.len(), 1);
    }

    #[tokio::test]
    async fn aggregate_refuses_what_it_does_not_implement() {
        let s = seeded().await;
        let group = s
            .aggregate(
                &ns(),
                vec![json!({"$match": {}}), json!({"$group": {"_id": "$source"}})],
            )
            .await
            .unwrap_err();
        assert!(matches!(group, ProviderError::InvalidRequest { .. }));
        assert!(group.to_string().contains("stage 1 ($group)"), "{group}");
        let mixed = s
            .aggregate(
                &ns(),
                vec![json!({"$project": {"text": 1, "embedding": 0}})],
            )
            .await
            .unwrap_err();
        assert!(mixed.to_string().contains("only _id may be excluded"));
        let two_keys = s
            .aggregate(&ns(), vec![json!({"$match": {}, "$limit": 1})])
            .await
            .unwrap_err();
        assert!(two_keys.to_string().contains("exactly one"));
    }

    #[tokio::test]
    async fn inserted_documents_get_ids_first() {
        let s = seeded().await;
        let docs = s.documents(&ns());
        assert_eq!(docs[0].keys().next().unwrap(), "_id");
        assert_eq!(docs[0]["_id"], "000000000000000000000001");
        assert_ne!(docs[0]["_id"], docs[1]["_id"]);
    }
}
