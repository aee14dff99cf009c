//! The MongoDB store behind the engine's face for run stores: [`MongoRuns`] as a
//! [`RunBackend`] and [`MongoJournal`] as a [`RunJournal`], its errors told as the file
//! store's are (a refused claim is `Leased`, naming the holder).

use crate::{MongoJournal, MongoRuns, RunsError};
use async_trait::async_trait;
use serde_json::Value;
use std::sync::Arc;
use vai_workflow::RunResult;
use vai_workflow::exec::durable::Journal;
use vai_workflow::journal::{
    JournalError, JournalState, Pruned, Retention, RunBackend, RunInfo, RunJournal, RunStart,
    StepTrace,
};

impl From<RunsError> for JournalError {
    fn from(e: RunsError) -> Self {
        match e {
            RunsError::NotFound(id) => JournalError::NotFound(id),
            RunsError::Busy { id, holder } => JournalError::Leased { id, holder },
            RunsError::Corrupt { id, why } => JournalError::Corrupt { id, why },
            other @ (RunsError::Exists(_) | RunsError::Lost { .. } | RunsError::Store(_)) => {
                JournalError::Store(other.to_string())
            }
        }
    }
}

#[async_trait]
impl RunJournal for MongoJournal {
    fn as_journal(self: Arc<Self>) -> Arc<dyn Journal> {
        self
    }

    fn trace(&self, at: &[String], id: &str, trace: StepTrace, inputs: Option<Arc<Value>>) {
        MongoJournal::trace(self, at, id, trace, inputs);
    }

    fn resumed(&self) {
        MongoJournal::resumed(self);
    }

    async fn answer(
        &self,
        within: &[String],
        step_id: &str,
        value: &Value,
    ) -> Result<(), JournalError> {
        Ok(MongoJournal::answer(self, within, step_id, value).await?)
    }

    async fn finish(&self, result: &RunResult) -> Result<(), JournalError> {
        Ok(MongoJournal::finish(self, result).await?)
    }

    async fn end(&self, status: &str, error: Option<&str>) -> Result<(), JournalError> {
        Ok(MongoJournal::end(self, status, error).await?)
    }

    async fn flush(&self) -> Result<(), JournalError> {
        Ok(MongoJournal::flush(self).await?)
    }

    async fn close(&self) -> Result<(), JournalError> {
        Ok(MongoJournal::close(self).await?)
    }
}

#[async_trait]
impl RunBackend for MongoRuns {
    fn kind(&self) -> &'static str {
        "mongodb"
    }

    fn location(&self) -> String {
        MongoRuns::location(self)
    }

    fn retention(&self) -> Retention {
        MongoRuns::retention(self)
    }

    async fn create(
        &self,
        start: &RunStart,
        limit: u64,
    ) -> Result<Arc<dyn RunJournal>, JournalError> {
        Ok(Arc::new(MongoRuns::create(self, start, limit).await?))
    }

    async fn take(
        &self,
        id: &str,
        limit: u64,
    ) -> Result<(JournalState, Arc<dyn RunJournal>), JournalError> {
        let (state, journal) = MongoRuns::take(self, id, limit).await?;
        Ok((state, Arc::new(journal)))
    }

    async fn read(&self, id: &str) -> Result<JournalState, JournalError> {
        Ok(MongoRuns::read(self, id).await?)
    }

    async fn list(&self) -> Result<Vec<RunInfo>, JournalError> {
        Ok(MongoRuns::list(self).await?)
    }

    async fn info(&self, id: &str) -> RunInfo {
        MongoRuns::info(self, id)
            .await
            .unwrap_or_else(|e| RunInfo::unreadable(id, e.to_string()))
    }

    async fn prune(&self, retention: &Retention) -> Result<Pruned, JournalError> {
        Ok(MongoRuns::prune(self, retention).await?)
    }
}
