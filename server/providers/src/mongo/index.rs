//! The vector search index of a collection: found or created (with the collection) on first
//! ingest, checked against the embeddings about to be stored, and waited on until queryable.

use super::MongoStore;
use super::errors::{Failure, PROVIDER};
use super::pipeline::{IndexState, index_state, vector_index_info, vector_index_model};
use crate::{Namespace, ProviderError, VectorIndex};
use futures_util::TryStreamExt;
use mongodb::Collection;
use mongodb::bson::Document;
use std::time::Duration;
use tokio::time::{Instant, sleep};

/// How long `ensure_vector_index` waits for a new index to become queryable.
pub const INDEX_WAIT: Duration = Duration::from_secs(60);
/// First pause between index status checks; it doubles up to [`MAX_POLL_INTERVAL`].
const POLL_INTERVAL: Duration = Duration::from_millis(500);
const MAX_POLL_INTERVAL: Duration = Duration::from_secs(4);
/// `NamespaceExists` and `IndexAlreadyExists`: someone else created it first, which is fine.
const NAMESPACE_EXISTS: i32 = 48;
const INDEX_ALREADY_EXISTS: i32 = 68;

impl MongoStore {
    /// [`crate::VectorStore::ensure_vector_index`]: `true` when this call created the index.
    pub(super) async fn ensure_index(
        &self,
        namespace: &Namespace,
        index: &VectorIndex,
    ) -> Result<bool, ProviderError> {
        let db = self.client().await?.database(&namespace.db);
        if !self.collection_exists(&db, &namespace.collection).await? {
            match db.create_collection(&namespace.collection).await {
                Err(e) if !has_code(&e, &[NAMESPACE_EXISTS]) => return Err(self.map_error(e)),
                _ => {}
            }
        }
        let coll = db.collection::<Document>(&namespace.collection);
        let existing = self.search_indexes(&coll, Some(&index.name)).await?;
        let created = match existing.first() {
            Some(entry) => {
                self.check_existing(namespace, index, entry)?;
                false
            }
            None => match coll.create_search_index(vector_index_model(index)).await {
                Ok(_) => true,
                // Created concurrently (another ingest): wait for it like for our own.
                Err(e) if has_code(&e, &[INDEX_ALREADY_EXISTS]) => false,
                Err(e) => return Err(self.map_error(e)),
            },
        };
        self.wait_queryable(&coll, namespace, &index.name).await?;
        Ok(created)
    }

    /// The `$listSearchIndexes` entries of a collection, or only the one named `name`.
    pub(super) async fn search_indexes(
        &self,
        coll: &Collection<Document>,
        name: Option<&str>,
    ) -> Result<Vec<Document>, ProviderError> {
        let listing = match name {
            Some(name) => coll.list_search_indexes().name(name),
            None => coll.list_search_indexes(),
        };
        let cursor = listing.await.map_err(|e| self.map_error(e))?;
        cursor.try_collect().await.map_err(|e| self.map_error(e))
    }

    /// An existing index named like `wanted` must be a vector index over the same field and size.
    fn check_existing(
        &self,
        ns: &Namespace,
        wanted: &VectorIndex,
        entry: &Document,
    ) -> Result<(), ProviderError> {
        let invalid = |m: String| ProviderError::invalid_request(PROVIDER, m);
        let Some(info) = vector_index_info(entry) else {
            return Err(invalid(format!(
                "{ns} has a search index named \"{}\" that is not a vector search index; choose \
                 another index name in .vai.json (\"index\")",
                wanted.name
            )));
        };
        if info.path != wanted.path {
            return Err(invalid(format!(
                "vector index \"{}\" on {ns} covers \"{}\", not \"{}\"",
                info.name, info.path, wanted.path
            )));
        }
        match info.dimensions {
            Some(d) if d != wanted.dimensions => Err(invalid(format!(
                "vector index \"{}\" on {ns} holds {d}-dimensional vectors but these embeddings \
                 have {}: embed with the model the collection was built with, or use another \
                 collection",
                info.name, wanted.dimensions
            ))),
            _ => Ok(()),
        }
    }

    /// Poll the index until it is queryable, it fails, or `index_wait` passes.
    async fn wait_queryable(
        &self,
        coll: &Collection<Document>,
        ns: &Namespace,
        name: &str,
    ) -> Result<(), ProviderError> {
        let started = Instant::now();
        let mut pause = POLL_INTERVAL;
        loop {
            // Right after creation the listing may not show the index yet: keep polling.
            let entry = self
                .search_indexes(coll, Some(name))
                .await?
                .into_iter()
                .next();
            match entry.as_ref().map(index_state) {
                Some(IndexState::Queryable) => return Ok(()),
                Some(IndexState::Failed(message)) => {
                    return Err(ProviderError::other(
                        PROVIDER,
                        format!(
                            "vector index \"{name}\" on {ns} failed to build: {}",
                            if message.is_empty() {
                                "no reason given"
                            } else {
                                &message
                            }
                        ),
                    ));
                }
                Some(IndexState::Building(_)) | None => {}
            }
            let elapsed = started.elapsed();
            if elapsed >= self.index_wait {
                // `Timeout` has no message of its own: the subject goes where the provider
                // name would, so the error reads "mongodb: vector index … timed out after …".
                return Err(ProviderError::Timeout {
                    provider: format!(
                        "{PROVIDER}: vector index \"{name}\" on {ns} is still building (Atlas \
                         keeps building it; run the step again once it is ready)"
                    ),
                    after: self.index_wait,
                });
            }
            sleep(pause.min(self.index_wait - elapsed)).await;
            pause = (pause * 2).min(MAX_POLL_INTERVAL);
        }
    }
}

/// Whether a driver error is a server error with one of `codes`.
fn has_code(error: &mongodb::error::Error, codes: &[i32]) -> bool {
    matches!(Failure::of(error), Failure::Command { code, .. } if codes.contains(&code))
}
