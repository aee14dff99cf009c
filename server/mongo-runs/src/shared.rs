//! What a [`MongoRuns`](crate::MongoRuns) and the writers of its journals share: the
//! connection, where the runs are, who this process is in a lease, and the one way every
//! operation is bounded and its failure reported (without the URI's password).

use crate::RunsError;
use mongodb::Collection;
use mongodb::bson::Document;
use mongodb::error::{Error, ErrorKind, WriteFailure};
use std::future::Future;
use std::time::Duration;
use vai_providers::mongo::MongoStore;

/// How long the server may work on one query or index build (`maxTimeMS`).
pub const MAX_TIME: Duration = Duration::from_secs(10);
/// How long one operation may take in all (server selection and connecting included).
pub const OPERATION_TIMEOUT: Duration = Duration::from_secs(20);

/// Duplicate key: a unique index (`_id`, or a journal's `run`+`seq`) already holds the value.
const DUPLICATE_KEY: i32 = 11000;

/// What the store and the writers of its journals share.
#[derive(Debug)]
pub(crate) struct Shared {
    pub(crate) store: MongoStore,
    pub(crate) db: String,
    pub(crate) runs: String,
    pub(crate) lines: String,
    /// Who this process is in a lease.
    pub(crate) owner: String,
    pub(crate) lease: Duration,
}

impl Shared {
    async fn collection(&self, name: &str) -> Result<Collection<Document>, RunsError> {
        let client = self
            .store
            .client()
            .await
            .map_err(|e| RunsError::Store(e.to_string()))?;
        Ok(client.database(&self.db).collection(name))
    }

    /// `work` on collection `name`, cut off after `limit`.
    pub(crate) async fn bounded<T, F>(
        &self,
        name: &str,
        limit: Duration,
        work: impl FnOnce(Collection<Document>) -> F,
    ) -> Result<T, Failed>
    where
        F: Future<Output = Result<T, Error>>,
    {
        let run = async {
            let collection = self.collection(name).await.map_err(Failed::Runs)?;
            work(collection).await.map_err(Failed::Driver)
        };
        tokio::time::timeout(limit, run).await.unwrap_or_else(|_| {
            Err(Failed::Runs(RunsError::Store(format!(
                "MongoDB did not answer within {}s",
                limit.as_secs_f64()
            ))))
        })
    }

    /// A failure as the store reports it, without the URI's password.
    pub(crate) fn error(&self, failed: Failed) -> RunsError {
        match failed {
            Failed::Runs(e) => e,
            Failed::Driver(e) => RunsError::Store(self.store.map_error(e).to_string()),
        }
    }
}

/// An operation that failed: in the driver (kept, to tell a duplicate key), or already said.
#[derive(Debug)]
pub(crate) enum Failed {
    Driver(Error),
    Runs(RunsError),
}

impl Failed {
    /// A unique index refused the write: the run exists, or another process wrote the line.
    pub(crate) fn is_duplicate_key(&self) -> bool {
        let Failed::Driver(error) = self else {
            return false;
        };
        match error.kind.as_ref() {
            ErrorKind::Write(WriteFailure::WriteError(e)) => e.code == DUPLICATE_KEY,
            ErrorKind::Command(e) => e.code == DUPLICATE_KEY,
            ErrorKind::InsertMany(e) => e
                .write_errors
                .as_ref()
                .is_some_and(|w| w.iter().any(|e| e.code == DUPLICATE_KEY)),
            _ => false,
        }
    }
}

impl Shared {
    pub(crate) fn clone_of(shared: &Shared) -> Shared {
        Shared {
            store: shared.store.clone(),
            db: shared.db.clone(),
            runs: shared.runs.clone(),
            lines: shared.lines.clone(),
            owner: shared.owner.clone(),
            lease: shared.lease,
        }
    }
}
