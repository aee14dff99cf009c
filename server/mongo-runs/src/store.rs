//! `MongoRuns`: the run store in MongoDB — create a run (leased to this process), take one up
//! (claiming its lease), read, list, describe and prune runs — on the knowledge base's own
//! connection. Every call is bounded: the server gets `maxTimeMS` on reads, and each operation
//! is cut off client-side after [`OPERATION_TIMEOUT`].

use crate::RunsError;
use crate::documents::{
    claim_filter, create_filter, create_update, finished_of_row, finished_pipeline, held_filter,
    holder_of, info_of_row, info_pipeline, journal_text, lease_projection, lease_update,
    line_order, lines_filter, list_pipeline, prune_lines_filter, prune_runs_filter, release_update,
    run_index_keys, to_prune,
};
use crate::journal::MongoJournal;
use crate::lease::{Held, process_owner};
pub(crate) use crate::shared::{Failed, Shared};
pub use crate::shared::{MAX_TIME, OPERATION_TIMEOUT};
use crate::writer::Writer;
use futures_util::TryStreamExt;
use mongodb::IndexModel;
use mongodb::bson::Document;
use mongodb::options::{IndexOptions, ReturnDocument};
use serde_json::json;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::OnceCell;
use vai_providers::mongo::MongoStore;
use vai_workflow::journal::{
    self, JournalState, MAX_JOURNAL_BYTES, Meta, Pruned, Retention, RunInfo, RunStart, VERSION,
    now_ms, valid_id,
};

/// How long a lease lasts unless renewed; its holder renews it every third of that.
pub const LEASE: Duration = Duration::from_secs(60);
/// The default database and collections.
pub const DEFAULT_DATABASE: &str = "vai";
pub const RUNS_COLLECTION: &str = "runs";
pub const LINES_COLLECTION: &str = "run_lines";

/// The smallest journal budget, as the file store's.
const MIN_BUDGET: u64 = 4096;
/// Runs pruned per delete command.
const PRUNE_BATCH: usize = 500;

/// Runs in `<db>.runs` and their lines in `<db>.run_lines`. Cheap to clone; clones share the
/// connection and the record that the indexes exist.
#[derive(Debug, Clone)]
pub struct MongoRuns {
    shared: Arc<Shared>,
    indexed: Arc<OnceCell<()>>,
    /// What a run's start prunes to.
    retention: Retention,
}

impl MongoRuns {
    /// Runs in database `db` over `store`'s connection, leased as this process.
    pub fn new(store: MongoStore, db: impl Into<String>) -> Self {
        MongoRuns {
            shared: Arc::new(Shared {
                store,
                db: db.into(),
                runs: RUNS_COLLECTION.into(),
                lines: LINES_COLLECTION.into(),
                owner: process_owner().to_string(),
                lease: LEASE,
            }),
            indexed: Arc::new(OnceCell::new()),
            retention: Retention::default(),
        }
    }

    /// The same store keeping history within `retention` (applied whenever a run starts).
    pub fn with_retention(mut self, retention: Retention) -> Self {
        self.retention = retention;
        self
    }

    pub fn retention(&self) -> Retention {
        self.retention
    }

    /// The same store with other collection names.
    pub fn with_collections(self, runs: impl Into<String>, lines: impl Into<String>) -> Self {
        self.with(|s| {
            s.runs = runs.into();
            s.lines = lines.into();
        })
    }

    /// The same store with leases of `lease` (renewed every third of it).
    pub fn with_lease(self, lease: Duration) -> Self {
        self.with(|s| s.lease = lease.max(Duration::from_millis(300)))
    }

    /// The same store leasing as `owner` (tests play two machines in one process).
    pub fn with_owner(self, owner: impl Into<String>) -> Self {
        self.with(|s| s.owner = owner.into())
    }

    fn with(self, change: impl FnOnce(&mut Shared)) -> Self {
        let mut shared = Shared::clone_of(&self.shared);
        change(&mut shared);
        MongoRuns {
            shared: Arc::new(shared),
            indexed: Arc::new(OnceCell::new()),
            retention: self.retention,
        }
    }

    /// Where the runs are, fit to show: `mongodb <db>.<runs>` (never the connection string).
    pub fn location(&self) -> String {
        format!("MongoDB {}.{}", self.shared.db, self.shared.runs)
    }

    /// Who this store is in a lease.
    pub fn owner(&self) -> &str {
        &self.shared.owner
    }

    /// How long its leases last.
    pub fn lease(&self) -> Duration {
        self.shared.lease
    }

    fn error(&self, failed: Failed) -> RunsError {
        self.shared.error(failed)
    }

    /// The indexes of both collections, once per store (a failure is not remembered, so the
    /// next run tries again). `createIndexes` creates the collection and does nothing for an
    /// index that already exists.
    async fn ensure_indexes(&self) -> Result<(), RunsError> {
        let s = &self.shared;
        self.indexed
            .get_or_try_init(|| async {
                let runs = run_index_keys().map(|k| IndexModel::builder().keys(k).build());
                s.bounded(&s.runs, OPERATION_TIMEOUT, |c| async move {
                    c.create_indexes(runs).max_time(MAX_TIME).await
                })
                .await
                .map_err(|e| self.error(e))?;
                let lines = IndexModel::builder()
                    .keys(line_order())
                    .options(IndexOptions::builder().unique(true).build())
                    .build();
                s.bounded(&s.lines, OPERATION_TIMEOUT, |c| async move {
                    c.create_index(lines).max_time(MAX_TIME).await
                })
                .await
                .map_err(|e| self.error(e))?;
                Ok(())
            })
            .await
            .map(|_| ())
    }

    /// Start the journal of a new run, leased to this process, pruning old finished runs.
    /// `limit`: the most bytes the journal may take. The header is stored before this returns.
    pub async fn create(&self, start: &RunStart, limit: u64) -> Result<MongoJournal, RunsError> {
        let id = start.run_id.as_str();
        if !valid_id(id) {
            return Err(RunsError::NotFound(vai_workflow::value::truncate_chars(
                id, 64,
            )));
        }
        // A server that cannot be reached fails here, once; a failed prune never stops a run.
        self.ensure_indexes().await?;
        let _ = self.prune(&self.retention.making_room()).await;
        let held = self.hold(id)?;
        let s = &self.shared;
        let meta = Meta::of(start);
        let (filter, update) = (create_filter(id), create_update(&meta, &s.owner, s.lease));
        let sent = Instant::now();
        s.bounded(&s.runs, OPERATION_TIMEOUT, |c| async move {
            c.update_one(filter, update).upsert(true).await
        })
        .await
        .map_err(|e| match e {
            e if e.is_duplicate_key() => RunsError::Exists(id.to_string()),
            e => self.error(e),
        })?;
        let writer = Writer::new(s.clone(), held, meta, 0, 0, limit.max(MIN_BUDGET), sent);
        let journal = MongoJournal::start(writer);
        journal.append(json!({"t": "run", "v": VERSION, "start": start}));
        if let Err(e) = journal.flush().await {
            // The run never began: let it go, so it shows as interrupted, not running.
            let _ = journal.close().await;
            return Err(e);
        }
        Ok(journal)
    }

    /// Take up run `id`: claim its lease (refused while another process's is live) and read
    /// its journal.
    pub async fn take(
        &self,
        id: &str,
        limit: u64,
    ) -> Result<(JournalState, MongoJournal), RunsError> {
        if !valid_id(id) {
            return Err(RunsError::NotFound(vai_workflow::value::truncate_chars(
                id, 64,
            )));
        }
        let held = self.hold(id)?;
        let s = &self.shared;
        let (filter, update) = (claim_filter(id, &s.owner), lease_update(&s.owner, s.lease));
        let sent = Instant::now();
        let claimed = s
            .bounded(&s.runs, OPERATION_TIMEOUT, |c| async move {
                c.find_one_and_update(filter, update)
                    .return_document(ReturnDocument::After)
                    .max_time(MAX_TIME)
                    .await
            })
            .await
            .map_err(|e| self.error(e))?;
        if claimed.is_none() {
            return Err(self.refused(id).await);
        }
        match self.read_documents(id).await {
            Ok((state, documents, bytes)) => {
                let meta = Meta::from_state(&state);
                let budget = limit.max(bytes + MIN_BUDGET);
                let writer = Writer::new(s.clone(), held, meta, documents, bytes, budget, sent)
                    .truncated(state.truncated);
                Ok((state, MongoJournal::start(writer)))
            }
            Err(e) => {
                // Unusable: let it go at once rather than when the lease lapses.
                let (filter, update) = (held_filter(id, &s.owner), release_update());
                let _ = s
                    .bounded(&s.runs, OPERATION_TIMEOUT, |c| async move {
                        c.update_one(filter, update).await
                    })
                    .await;
                drop(held);
                Err(e)
            }
        }
    }

    /// Why a claim of run `id` matched nothing: there is no such run, or someone holds it.
    async fn refused(&self, id: &str) -> RunsError {
        let s = &self.shared;
        let found = s
            .bounded(&s.runs, OPERATION_TIMEOUT, |c| async move {
                c.find_one(mongodb::bson::doc! {"_id": id})
                    .projection(lease_projection())
                    .max_time(MAX_TIME)
                    .await
            })
            .await;
        match found {
            Ok(None) => RunsError::NotFound(id.to_string()),
            Ok(Some(row)) => RunsError::Busy {
                id: id.to_string(),
                holder: match holder_of(&row) {
                    Some((owner, until)) => format!(
                        "held by {owner} until {}, unless it renews its lease",
                        until.try_to_rfc3339_string().unwrap_or_default()
                    ),
                    None => "it was claimed a moment ago".into(),
                },
            },
            Err(e) => self.error(e),
        }
    }

    /// Hold run `id` in this process, refusing a second claim of it here.
    fn hold(&self, id: &str) -> Result<Held, RunsError> {
        let s = &self.shared;
        Held::take(&s.owner, &format!("{}.{}", s.db, s.runs), id).ok_or_else(|| RunsError::Busy {
            id: id.to_string(),
            holder: "held by this process".into(),
        })
    }

    /// Read run `id`'s journal (without taking it).
    pub async fn read(&self, id: &str) -> Result<JournalState, RunsError> {
        if !valid_id(id) {
            return Err(RunsError::NotFound(vai_workflow::value::truncate_chars(
                id, 64,
            )));
        }
        self.read_documents(id).await.map(|(state, _, _)| state)
    }

    /// Run `id`'s journal folded, with its number of documents and of bytes.
    async fn read_documents(&self, id: &str) -> Result<(JournalState, u64, u64), RunsError> {
        let s = &self.shared;
        let corrupt = |why: String| RunsError::Corrupt {
            id: id.to_string(),
            why,
        };
        let documents = s
            .bounded(&s.lines, OPERATION_TIMEOUT, |c| async move {
                let mut cursor = c
                    .find(lines_filter(id, 0))
                    .sort(line_order())
                    .max_time(MAX_TIME)
                    .await?;
                let (mut out, mut bytes) = (Vec::new(), 0_u64);
                while let Some(document) = cursor.try_next().await? {
                    bytes += document.get_str("text").map_or(0, str::len) as u64;
                    out.push(document);
                    if bytes > MAX_JOURNAL_BYTES {
                        break;
                    }
                }
                Ok((out, bytes))
            })
            .await
            .map_err(|e| self.error(e))?;
        let (documents, bytes) = documents;
        if bytes > MAX_JOURNAL_BYTES {
            return Err(corrupt(format!(
                "it is larger than {MAX_JOURNAL_BYTES} bytes"
            )));
        }
        if documents.is_empty() {
            return match self.info(id).await {
                Err(RunsError::NotFound(_)) => Err(RunsError::NotFound(id.to_string())),
                _ => Err(corrupt("it is empty".into())),
            };
        }
        let text = journal_text(&documents).map_err(corrupt)?;
        let state = journal::read(&text).map_err(corrupt)?;
        Ok((state, documents.len() as u64, text.len() as u64))
    }

    /// The rows `pipeline` makes of the runs' summaries (bounded in time, like every call).
    async fn summaries(&self, pipeline: Vec<Document>) -> Result<Vec<Document>, RunsError> {
        let s = &self.shared;
        s.bounded(&s.runs, OPERATION_TIMEOUT, |c| async move {
            c.aggregate(pipeline)
                .max_time(MAX_TIME)
                .await?
                .try_collect::<Vec<Document>>()
                .await
        })
        .await
        .map_err(|e| self.error(e))
    }

    /// Every run, newest first: their summaries, never their lines.
    pub async fn list(&self) -> Result<Vec<RunInfo>, RunsError> {
        let rows = self.summaries(list_pipeline()).await?;
        Ok(rows.iter().map(info_or_unreadable).collect())
    }

    /// What run `id` is now, from its summary.
    pub async fn info(&self, id: &str) -> Result<RunInfo, RunsError> {
        if !valid_id(id) {
            return Err(RunsError::NotFound(vai_workflow::value::truncate_chars(
                id, 64,
            )));
        }
        let rows = self.summaries(info_pipeline(id)).await?;
        rows.first()
            .map(info_or_unreadable)
            .ok_or_else(|| RunsError::NotFound(id.to_string()))
    }

    /// Remove finished runs past `retention` — beyond the newest `keep`, older than `max_age`,
    /// and the oldest once the finished ones take more than `max_bytes` — with their lines.
    /// Waiting and interrupted runs are kept: someone may still take them up.
    pub async fn prune(&self, retention: &Retention) -> Result<Pruned, RunsError> {
        let rows = self.summaries(finished_pipeline()).await?;
        let s = &self.shared;
        let finished: Vec<_> = rows.iter().filter_map(finished_of_row).collect();
        let Retention {
            keep,
            max_age,
            max_bytes,
        } = *retention;
        let gone = to_prune(&finished, keep, max_age, max_bytes, now_ms());
        let mut pruned = Pruned::default();
        for ids in gone.chunks(PRUNE_BATCH) {
            // The run first: a run that is listed always has its lines.
            let (runs, lines) = (prune_runs_filter(ids), prune_lines_filter(ids));
            s.bounded(&s.runs, OPERATION_TIMEOUT, |c| async move {
                c.delete_many(runs).await
            })
            .await
            .map_err(|e| self.error(e))?;
            s.bounded(&s.lines, OPERATION_TIMEOUT, |c| async move {
                c.delete_many(lines).await
            })
            .await
            .map_err(|e| self.error(e))?;
            for id in ids {
                pruned.run_ids.push(id.clone());
                pruned.bytes += finished.iter().find(|f| &f.id == id).map_or(0, |f| f.bytes);
            }
        }
        Ok(pruned)
    }
}

/// A run's summary row as listed; one vai would not have written is `unreadable`.
fn info_or_unreadable(row: &Document) -> RunInfo {
    info_of_row(row).unwrap_or_else(|why| {
        let id = row.get_str("_id").unwrap_or_default();
        RunInfo::unreadable(id, format!("its summary is not valid: {why}"))
    })
}
