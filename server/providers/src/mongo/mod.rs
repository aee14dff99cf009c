//! `MongoStore`: MongoDB Atlas Vector Search as a [`VectorStore`] — `$vectorSearch` queries,
//! inserts, the vector search index created on first ingest (waiting until it is queryable),
//! collection listings and aggregations (the `aggregate` tool vets write stages before calling),
//! over one pooled client per process.

mod client;
mod convert;
mod errors;
mod index;
mod pipeline;

#[cfg(any(test, feature = "fakes"))]
pub mod fake_server;
#[cfg(test)]
mod live_tests;
#[cfg(test)]
mod scripted_tests;

pub use client::{CONNECT_TIMEOUT, SERVER_SELECTION_TIMEOUT, redact_uri};
pub use errors::NO_ATLAS_SEARCH;
pub use index::INDEX_WAIT;
pub use pipeline::{
    FILTER_FIELDS, MAX_NUM_CANDIDATES, SCORE_FIELD, vector_index_definition, vector_search_pipeline,
};

use self::client::{Pooled, Redactor};
use self::convert::{document_to_json, stored_document};
use self::errors::{ErrorMapper, Failure, PROVIDER, missing_index};
use self::pipeline::{pipeline_stages, vector_index_info};
use crate::{
    CollectionInfo, Document as JsonDocument, Namespace, ProviderError, ScoredDocument,
    VectorIndex, VectorIndexInfo, VectorQuery, VectorStore,
};
use async_trait::async_trait;
use futures_util::TryStreamExt;
use mongodb::bson::{Bson, Document, doc};
use mongodb::results::CollectionType;
use mongodb::{Client, Collection, Database};
use serde_json::Value;
use std::sync::Arc;
use std::time::Duration;

/// Documents in MongoDB Atlas, searched with Atlas Vector Search. Cheap to clone; every store
/// made from the same connection string shares one pooled client.
#[derive(Debug, Clone)]
pub struct MongoStore {
    pool: Arc<Pooled>,
    errors: ErrorMapper,
    index_wait: Duration,
}

impl MongoStore {
    /// A store for `uri` (`mongodb://…` or `mongodb+srv://…`). Only parses the string: the
    /// client connects on first use, and an unreachable server fails that call after the
    /// server-selection timeout (10 s unless the URI sets `serverSelectionTimeoutMS`).
    pub fn connect(uri: &str) -> Result<Self, ProviderError> {
        let redactor = Redactor::new(uri);
        let pool = client::pooled(uri).map_err(|e| {
            ProviderError::invalid_request(
                PROVIDER,
                format!(
                    "MONGODB_URI is not a valid MongoDB connection string ({}): {}",
                    redact_uri(uri),
                    redactor.redact(&e.kind.to_string())
                ),
            )
        })?;
        Ok(MongoStore {
            errors: ErrorMapper {
                redactor,
                selection_timeout: pool.server_selection_timeout(),
            },
            pool,
            index_wait: INDEX_WAIT,
        })
    }

    /// Wait at most `wait` for a new vector index to become queryable (default [`INDEX_WAIT`]).
    pub fn with_index_wait(mut self, wait: Duration) -> Self {
        self.index_wait = wait;
        self
    }

    /// The connected client (connecting on first use), for callers that keep collections of
    /// their own on the same connection (chat history). Map its errors with [`Self::map_error`].
    pub async fn client(&self) -> Result<&Client, ProviderError> {
        self.pool.client().await.map_err(|e| self.errors.map(&e))
    }

    async fn collection(&self, ns: &Namespace) -> Result<Collection<Document>, ProviderError> {
        Ok(self
            .client()
            .await?
            .database(&ns.db)
            .collection(&ns.collection))
    }

    /// A driver error as a `ProviderError` that says what to fix, without the URI's password.
    pub fn map_error(&self, error: mongodb::error::Error) -> ProviderError {
        self.errors.map(&error)
    }

    async fn collection_exists(&self, db: &Database, name: &str) -> Result<bool, ProviderError> {
        let names = db
            .list_collection_names()
            .filter(doc! {"name": name})
            .await
            .map_err(|e| self.map_error(e))?;
        Ok(!names.is_empty())
    }

    /// An empty search result is only an answer when the collection is missing or its index
    /// exists; a missing index is reported (Atlas itself silently returns nothing).
    async fn check_empty_result(&self, query: &VectorQuery) -> Result<(), ProviderError> {
        let ns = &query.namespace;
        let db = self.client().await?.database(&ns.db);
        if !self.collection_exists(&db, &ns.collection).await? {
            return Ok(());
        }
        let coll = db.collection(&ns.collection);
        if self
            .search_indexes(&coll, Some(&query.index))
            .await?
            .is_empty()
        {
            return Err(missing_index(ns, &query.index));
        }
        Ok(())
    }

    /// Drop a collection (the live tests clean up with it).
    #[cfg(test)]
    async fn drop_collection(&self, ns: &Namespace) -> Result<(), ProviderError> {
        let coll = self.collection(ns).await?;
        coll.drop().await.map_err(|e| self.map_error(e))
    }
}

#[async_trait]
impl VectorStore for MongoStore {
    fn name(&self) -> &str {
        PROVIDER
    }

    async fn vector_search(
        &self,
        query: VectorQuery,
    ) -> Result<Vec<ScoredDocument>, ProviderError> {
        let stages = vector_search_pipeline(&query)
            .map_err(|m| ProviderError::invalid_request(PROVIDER, m))?;
        let coll = self.collection(&query.namespace).await?;
        let cursor = coll
            .aggregate(stages)
            .await
            .map_err(|e| self.map_error(e))?;
        let docs: Vec<Document> = cursor.try_collect().await.map_err(|e| self.map_error(e))?;
        if docs.is_empty() {
            self.check_empty_result(&query).await?;
        }
        Ok(docs
            .into_iter()
            .map(|mut doc| {
                let score = match doc.remove(SCORE_FIELD) {
                    Some(Bson::Double(s)) => s,
                    Some(Bson::Int32(s)) => f64::from(s),
                    Some(Bson::Int64(s)) => s as f64,
                    _ => 0.0,
                };
                ScoredDocument {
                    document: document_to_json(doc),
                    score,
                }
            })
            .collect())
    }

    async fn insert(
        &self,
        namespace: &Namespace,
        documents: Vec<JsonDocument>,
    ) -> Result<u64, ProviderError> {
        if documents.is_empty() {
            return Ok(0);
        }
        let docs = documents
            .into_iter()
            .enumerate()
            .map(|(i, d)| {
                stored_document(d).map_err(|m| {
                    ProviderError::invalid_request(PROVIDER, format!("document {i}: {m}"))
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let coll = self.collection(namespace).await?;
        let result = coll
            .insert_many(docs)
            .await
            .map_err(|e| self.map_error(e))?;
        Ok(result.inserted_ids.len() as u64)
    }

    async fn ensure_vector_index(
        &self,
        namespace: &Namespace,
        index: &VectorIndex,
    ) -> Result<bool, ProviderError> {
        self.ensure_index(namespace, index).await
    }

    async fn list_collections(&self, db: &str) -> Result<Vec<CollectionInfo>, ProviderError> {
        let database = self.client().await?.database(db);
        let specs: Vec<_> = database
            .list_collections()
            .await
            .map_err(|e| self.map_error(e))?
            .try_collect()
            .await
            .map_err(|e| self.map_error(e))?;
        let mut names: Vec<String> = specs
            .into_iter()
            .filter(|s| !matches!(s.collection_type, CollectionType::View))
            .map(|s| s.name)
            .filter(|n| !n.starts_with("system."))
            .collect();
        names.sort();

        // Without Atlas Search, collections and counts are still worth listing.
        let mut search_available = true;
        let mut out = Vec::with_capacity(names.len());
        for name in names {
            let coll = database.collection::<Document>(&name);
            let document_count = coll
                .estimated_document_count()
                .await
                .map_err(|e| self.map_error(e))?;
            let vector_index: Option<VectorIndexInfo> = if search_available {
                match coll.list_search_indexes().await {
                    Ok(cursor) => {
                        let entries: Vec<Document> =
                            cursor.try_collect().await.map_err(|e| self.map_error(e))?;
                        entries.iter().find_map(vector_index_info)
                    }
                    Err(e) => match Failure::of(&e) {
                        Failure::Command {
                            code,
                            code_name,
                            message,
                        } if errors::lacks_atlas_search(code, &code_name, &message) => {
                            search_available = false;
                            None
                        }
                        _ => return Err(self.map_error(e)),
                    },
                }
            } else {
                None
            };
            out.push(CollectionInfo {
                name,
                document_count,
                vector_index,
            });
        }
        Ok(out)
    }

    async fn aggregate(
        &self,
        namespace: &Namespace,
        pipeline: Vec<Value>,
    ) -> Result<Vec<Value>, ProviderError> {
        let stages =
            pipeline_stages(pipeline).map_err(|m| ProviderError::invalid_request(PROVIDER, m))?;
        let coll = self.collection(namespace).await?;
        let cursor = coll
            .aggregate(stages)
            .await
            .map_err(|e| self.map_error(e))?;
        let docs: Vec<Document> = cursor.try_collect().await.map_err(|e| self.map_error(e))?;
        Ok(docs
            .into_iter()
            .map(|d| Value::Object(document_to_json(d)))
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn connect_parses_only_and_refuses_what_is_not_a_mongodb_uri() {
        let store = MongoStore::connect("mongodb://ann:hunter22@db.invalid:27017/").unwrap();
        assert_eq!(store.name(), "mongodb");
        let err = MongoStore::connect("https://ann:hunter22@db.example.com").unwrap_err();
        assert!(matches!(err, ProviderError::InvalidRequest { .. }));
        let text = err.to_string();
        assert!(
            text.starts_with("mongodb: invalid request: MONGODB_URI is not a valid MongoDB connection string (https://ann:****@db.example.com)"),
            "{text}"
        );
        assert!(!text.contains("hunter22"), "{text}");
    }

    #[tokio::test]
    async fn an_unreachable_server_is_a_transient_network_error_without_the_password() {
        // Port 1 refuses connections; the URI is unique to this test (clients are per runtime).
        let store = MongoStore::connect(
            "mongodb://ann:hunter22@127.0.0.1:1/?serverSelectionTimeoutMS=300&connectTimeoutMS=300&appName=vai-unreachable-test",
        )
        .unwrap();
        let err = store.list_collections("kb").await.unwrap_err();
        assert!(err.is_transient(), "{err:?}");
        let text = err.to_string();
        assert!(
            text.starts_with("mongodb: network error: no MongoDB server reachable within 0.3s"),
            "{text}"
        );
        assert!(!text.contains("hunter22"), "{text}");
    }

    #[tokio::test]
    async fn bad_input_is_refused_before_any_network_call() {
        let store =
            MongoStore::connect("mongodb://127.0.0.1:1/?appName=vai-bad-input-test").unwrap();
        let ns = Namespace::new("kb", "docs");
        let err = store
            .aggregate(&ns, vec![json!({"$match": {}, "$limit": 1})])
            .await
            .unwrap_err();
        assert!(
            err.to_string()
                .contains("stage 0 must be an object with exactly one $-operator")
        );
        let err = store
            .insert(
                &ns,
                vec![json!({"_id": {"$oid": "zz"}}).as_object().unwrap().clone()],
            )
            .await
            .unwrap_err();
        assert!(
            err.to_string().starts_with(
                "mongodb: invalid request: document 0: not valid MongoDB Extended JSON"
            ),
            "{err}"
        );
        assert_eq!(store.insert(&ns, Vec::new()).await.unwrap(), 0);
    }
}
