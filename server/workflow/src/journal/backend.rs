//! Where runs are kept, as its callers see it: a [`RunBackend`] creates, takes up, reads,
//! lists, describes and prunes runs, and a [`RunJournal`] is one run's journal being written by
//! this process. The data directory's files ([`RunStore`], [`FileJournal`]) are one; a team's
//! shared store (MongoDB, in `vai-mongo-runs`) is the other — so this crate never sees how a
//! shared store is reached.
//!
//! The calls are async because a shared store answers over the network; the file store does its
//! (small, local) work inline. A journal's `record`, `trace` and `resumed` never wait; `answer`,
//! `finish`, `end`, `flush` and `close` return once what they wrote is stored.

use super::{
    FileJournal, JournalError, JournalState, Pruned, Retention, RunInfo, RunStart, RunStore,
    StepTrace,
};
use crate::exec::RunResult;
use crate::exec::durable::Journal;
use async_trait::async_trait;
use serde_json::Value;
use std::sync::Arc;

/// One run's journal, held by this process until it is closed or dropped.
#[async_trait]
pub trait RunJournal: Journal {
    /// This journal as the engine takes it.
    fn as_journal(self: Arc<Self>) -> Arc<dyn Journal>;

    /// Record how step `id` within `at` ended (see `history::HistorySink`).
    fn trace(&self, at: &[String], id: &str, trace: StepTrace, inputs: Option<Arc<Value>>);

    /// Record that a process took the run up again.
    fn resumed(&self);

    /// Record an answer to the `yield` `step_id` within `within`.
    async fn answer(
        &self,
        within: &[String],
        step_id: &str,
        value: &Value,
    ) -> Result<(), JournalError>;

    /// Record how `result` ended the run: its status, error and duration, and its output
    /// (kept when small enough).
    async fn finish(&self, result: &RunResult) -> Result<(), JournalError>;

    /// Record the run's end without a result (it never ran, or was cancelled while saved).
    async fn end(&self, status: &str, error: Option<&str>) -> Result<(), JournalError>;

    /// Store everything written so far, the run still held (before reading the run back).
    async fn flush(&self) -> Result<(), JournalError>;

    /// Store everything written and let the run go, so another process may take it up at once.
    async fn close(&self) -> Result<(), JournalError>;
}

/// A place runs are kept.
#[async_trait]
pub trait RunBackend: Send + Sync {
    /// `file` or `mongodb`.
    fn kind(&self) -> &'static str;

    /// Where the runs are, fit to show (never a secret).
    fn location(&self) -> String;

    /// How much history a run's start keeps.
    fn retention(&self) -> Retention;

    /// Start the journal of a new run (held by this process), pruning old finished runs.
    /// `limit`: the most bytes the journal may take.
    async fn create(
        &self,
        start: &RunStart,
        limit: u64,
    ) -> Result<Arc<dyn RunJournal>, JournalError>;

    /// Take up run `id` (refused while another process holds it) and read it.
    async fn take(
        &self,
        id: &str,
        limit: u64,
    ) -> Result<(JournalState, Arc<dyn RunJournal>), JournalError>;

    /// Read run `id`'s journal, without taking it.
    async fn read(&self, id: &str) -> Result<JournalState, JournalError>;

    /// Every run, newest first, from their summaries.
    async fn list(&self) -> Result<Vec<RunInfo>, JournalError>;

    /// What run `id` is now (`unreadable`, with why, when it cannot be told).
    async fn info(&self, id: &str) -> RunInfo;

    /// Remove finished runs past `retention`.
    async fn prune(&self, retention: &Retention) -> Result<Pruned, JournalError>;
}

#[async_trait]
impl RunJournal for FileJournal {
    fn as_journal(self: Arc<Self>) -> Arc<dyn Journal> {
        self
    }

    fn trace(&self, at: &[String], id: &str, trace: StepTrace, inputs: Option<Arc<Value>>) {
        FileJournal::trace(self, at, id, trace, inputs);
    }

    fn resumed(&self) {
        FileJournal::resumed(self);
    }

    async fn answer(
        &self,
        within: &[String],
        step_id: &str,
        value: &Value,
    ) -> Result<(), JournalError> {
        FileJournal::answer(self, within, step_id, value);
        Ok(())
    }

    async fn finish(&self, result: &RunResult) -> Result<(), JournalError> {
        FileJournal::finish(self, result);
        Ok(())
    }

    async fn end(&self, status: &str, error: Option<&str>) -> Result<(), JournalError> {
        FileJournal::end(self, status, error);
        Ok(())
    }

    async fn flush(&self) -> Result<(), JournalError> {
        self.send_sync();
        Ok(())
    }

    /// Synced to disk; the lock goes with the last handle.
    async fn close(&self) -> Result<(), JournalError> {
        self.send_sync();
        Ok(())
    }
}

#[async_trait]
impl RunBackend for RunStore {
    fn kind(&self) -> &'static str {
        "file"
    }

    fn location(&self) -> String {
        self.path().display().to_string()
    }

    fn retention(&self) -> Retention {
        RunStore::retention(self)
    }

    async fn create(
        &self,
        start: &RunStart,
        limit: u64,
    ) -> Result<Arc<dyn RunJournal>, JournalError> {
        Ok(Arc::new(RunStore::create(self, start, limit)?))
    }

    async fn take(
        &self,
        id: &str,
        limit: u64,
    ) -> Result<(JournalState, Arc<dyn RunJournal>), JournalError> {
        let (state, journal) = RunStore::take(self, id, limit)?;
        Ok((state, Arc::new(journal)))
    }

    async fn read(&self, id: &str) -> Result<JournalState, JournalError> {
        RunStore::read(self, id)
    }

    async fn list(&self) -> Result<Vec<RunInfo>, JournalError> {
        Ok(RunStore::list(self))
    }

    async fn info(&self, id: &str) -> RunInfo {
        RunStore::info(self, id)
    }

    async fn prune(&self, retention: &Retention) -> Result<Pruned, JournalError> {
        Ok(RunStore::prune(self, retention))
    }
}
