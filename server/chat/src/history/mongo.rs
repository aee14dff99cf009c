//! Sessions in MongoDB: the `vai_chat_history` collection of the history database,
//! on the knowledge base's own connection. Each turn is two documents, the question and the
//! answer ([`documents`]); the indexes are created with the first write.

mod documents;

use self::documents::{
    list_pipeline, message_order, session_filter, session_index_keys, session_of, summary_of_row,
    ttl_index_keys, turn_documents,
};
use super::{History, HistoryError, check_id};
use async_trait::async_trait;
use futures_util::TryStreamExt;
use mongodb::bson::{Document, doc};
use mongodb::error::{Error, ErrorKind};
use mongodb::options::IndexOptions;
use mongodb::{Collection, IndexModel};
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::OnceCell;
use vai_contract::{ChatSession, ChatSessionSummary, ChatTurn};
use vai_providers::mongo::MongoStore;

/// How long the server may work on one query or index build (`maxTimeMS`).
const MAX_TIME: Duration = Duration::from_secs(10);

/// How long one operation may take in all: server selection and connecting (10 s each unless the
/// URI says otherwise) and the command itself. Writes have no `maxTimeMS`; this bounds them too.
const OPERATION_TIMEOUT: Duration = Duration::from_secs(30);

/// IndexOptionsConflict: an index on the same keys exists with other options.
const INDEX_OPTIONS_CONFLICT: i32 = 85;

/// Sessions in `<db>.vai_chat_history`. Cheap to clone; clones share the connection and the
/// record that the indexes exist.
#[derive(Debug, Clone)]
pub struct MongoHistory {
    store: MongoStore,
    db: String,
    ttl: Option<Duration>,
    /// Set once the indexes exist, so a store (the process makes one) creates them once.
    indexed: Arc<OnceCell<()>>,
}

impl MongoHistory {
    /// The collection sessions are kept in.
    pub const COLLECTION: &str = "vai_chat_history";

    /// Sessions in database `db` over `store`'s connection; with `ttl`, messages expire that long
    /// after they were written (MongoDB's TTL index, at whole seconds, at least one).
    pub fn new(store: MongoStore, db: impl Into<String>, ttl: Option<Duration>) -> Self {
        MongoHistory {
            store,
            db: db.into(),
            ttl,
            indexed: Arc::new(OnceCell::new()),
        }
    }

    pub fn db(&self) -> &str {
        &self.db
    }

    async fn collection(&self) -> Result<Collection<Document>, HistoryError> {
        let client = self
            .store
            .client()
            .await
            .map_err(|e| HistoryError::Store(e.to_string()))?;
        Ok(client.database(&self.db).collection(Self::COLLECTION))
    }

    /// A driver error as a history error, without the URI's password.
    fn failed(&self, error: Error) -> HistoryError {
        HistoryError::Store(self.store.map_error(error).to_string())
    }

    /// `work` with the collection, cut off after [`OPERATION_TIMEOUT`].
    async fn bounded<T, F>(
        &self,
        work: impl FnOnce(Collection<Document>) -> F,
    ) -> Result<T, HistoryError>
    where
        F: Future<Output = Result<T, Error>>,
    {
        let run = async {
            let collection = self.collection().await?;
            work(collection).await.map_err(|e| self.failed(e))
        };
        tokio::time::timeout(OPERATION_TIMEOUT, run)
            .await
            .unwrap_or_else(|_| {
                Err(HistoryError::Store(format!(
                    "MongoDB did not answer within {}s",
                    OPERATION_TIMEOUT.as_secs()
                )))
            })
    }

    /// The session index, and the TTL index when a TTL is set; once per store (a failure is not
    /// remembered, so the next write tries again). `createIndexes` creates the collection
    /// and does nothing for an index that already exists.
    async fn ensure_indexes(&self) -> Result<(), HistoryError> {
        self.indexed
            .get_or_try_init(|| async {
                let session = IndexModel::builder().keys(session_index_keys()).build();
                self.bounded(|c| async move { c.create_index(session).max_time(MAX_TIME).await })
                    .await?;
                if let Some(seconds) = self.ttl.map(ttl_seconds) {
                    self.ensure_ttl_index(seconds).await?;
                }
                Ok(())
            })
            .await
            .map(|_| ())
    }

    /// The TTL index; one made with another TTL (the setting changed) is given this one.
    async fn ensure_ttl_index(&self, seconds: u32) -> Result<(), HistoryError> {
        let ttl = IndexModel::builder()
            .keys(ttl_index_keys())
            .options(
                IndexOptions::builder()
                    .expire_after(Duration::from_secs(u64::from(seconds)))
                    .build(),
            )
            .build();
        self.bounded(|c| async move {
            match c.create_index(ttl).max_time(MAX_TIME).await {
                Ok(_) => Ok(()),
                Err(e) if is_options_conflict(&e) => {
                    let change = doc! {
                        "collMod": c.name(),
                        "index": {"keyPattern": ttl_index_keys(), "expireAfterSeconds": i64::from(seconds)},
                    };
                    c.client()
                        .database(c.namespace().db.as_str())
                        .run_command(change)
                        .await
                        .map(|_| ())
                }
                Err(e) => Err(e),
            }
        })
        .await
    }
}

/// `ttl` as MongoDB's `expireAfterSeconds`: whole seconds from 1 to `i32::MAX`.
fn ttl_seconds(ttl: Duration) -> u32 {
    let most = i32::MAX.unsigned_abs();
    u32::try_from(ttl.as_secs()).map_or(most, |s| s.clamp(1, most))
}

fn is_options_conflict(error: &Error) -> bool {
    matches!(error.kind.as_ref(), ErrorKind::Command(e) if e.code == INDEX_OPTIONS_CONFLICT)
}

#[async_trait]
impl History for MongoHistory {
    fn kind(&self) -> &'static str {
        "mongodb"
    }

    async fn load(&self, id: &str) -> Result<Option<ChatSession>, HistoryError> {
        check_id(id)?;
        let documents = self
            .bounded(|c| async move {
                c.find(session_filter(id))
                    .sort(message_order())
                    .max_time(MAX_TIME)
                    .await?
                    .try_collect::<Vec<Document>>()
                    .await
            })
            .await?;
        session_of(id, documents)
    }

    async fn append(&self, id: &str, turn: &ChatTurn) -> Result<(), HistoryError> {
        check_id(id)?;
        let documents = turn_documents(id, turn)?;
        self.ensure_indexes().await?;
        // Ordered, in one command: the answer is only written after its question.
        self.bounded(|c| async move { c.insert_many(documents).await })
            .await
            .map(|_| ())
    }

    async fn list(&self) -> Result<Vec<ChatSessionSummary>, HistoryError> {
        let rows = self
            .bounded(|c| async move {
                c.aggregate(list_pipeline())
                    .max_time(MAX_TIME)
                    .await?
                    .try_collect::<Vec<Document>>()
                    .await
            })
            .await?;
        Ok(rows.iter().filter_map(summary_of_row).collect())
    }

    async fn delete(&self, id: &str) -> Result<bool, HistoryError> {
        check_id(id)?;
        let result = self
            .bounded(|c| async move { c.delete_many(session_filter(id)).await })
            .await?;
        Ok(result.deleted_count > 0)
    }
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod wire_tests;
