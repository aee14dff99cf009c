//! Runs this process no longer holds, read from the journal: past runs listed and shown as the
//! canvas shows a live one (snapshot and step details), and a restart from a past run's step.

use super::RunManager;
use indexmap::IndexMap;
use serde_json::Value;
use vai_contract::{RunSnapshot, RunState, StepDetail, StepState, StepStatus};
use vai_workflow::history::{Restart, RunRecord, StepRecord};
use vai_workflow::journal::{JournalError, JournalState, RerunFrom, RunInfo};

/// A run to start again from a step of a past one (see [`RunManager::restarting`]).
#[derive(Clone)]
pub struct Restarting {
    pub past: JournalState,
    pub restart: Restart,
    pub from: RerunFrom,
}

impl std::fmt::Debug for Restarting {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Restarting")
            .field("from", &self.from)
            .field("kept", &self.restart.kept)
            .finish_non_exhaustive()
    }
}

/// Why a past run cannot be read or restarted.
#[derive(Debug, thiserror::Error)]
pub enum HistoryError {
    #[error("no run \"{0}\" in the run history")]
    NotFound(String),
    #[error("{0}")]
    Unusable(String),
    /// The store cannot be read (a shared store out of reach, say).
    #[error("the run history cannot be read: {0}")]
    Store(String),
}

impl RunManager {
    /// Every journaled run, newest first (none when the manager keeps no journals).
    pub async fn history(&self) -> Result<Vec<RunInfo>, HistoryError> {
        match &self.0.journals {
            Some(store) => store
                .list()
                .await
                .map_err(|e| HistoryError::Store(e.to_string())),
            None => Ok(Vec::new()),
        }
    }

    /// Journaled run `id`'s summary.
    pub async fn history_info(&self, id: &str) -> Option<RunInfo> {
        let info = self.0.journals.as_ref()?.info(id).await;
        (info.status != "unreadable" || !info.error.as_deref().is_some_and(not_found))
            .then_some(info)
    }

    /// Journaled run `id` as its journal has it.
    pub async fn record(&self, id: &str) -> Result<RunRecord, HistoryError> {
        Ok(RunRecord::of(self.journal_state(id).await?))
    }

    async fn journal_state(&self, id: &str) -> Result<JournalState, HistoryError> {
        let store = self
            .0
            .journals
            .as_ref()
            .ok_or_else(|| HistoryError::NotFound(id.to_string()))?;
        store.read(id).await.map_err(|e| match e {
            JournalError::NotFound(_) => HistoryError::NotFound(id.to_string()),
            e if e.is_store_failure() => HistoryError::Store(e.to_string()),
            other => HistoryError::Unusable(other.to_string()),
        })
    }

    /// What starting again from step `from` of past run `id`, on `plan`, replays.
    pub async fn restarting(
        &self,
        id: &str,
        plan: &vai_workflow::Plan,
        from: &str,
    ) -> Result<Restarting, HistoryError> {
        let past = self.journal_state(id).await?;
        if past.truncated {
            return Err(HistoryError::Unusable(format!(
                "run {id} outgrew its journal's budget: its later steps were not recorded"
            )));
        }
        let restart =
            vai_workflow::history::restart(&past, plan, from).map_err(HistoryError::Unusable)?;
        Ok(Restarting {
            past,
            restart,
            from: RerunFrom {
                run_id: id.to_string(),
                step: from.to_string(),
            },
        })
    }

    /// A snapshot of journaled run `id` that this process does not hold (a past run, one that
    /// waits for a person, or one whose process died): its top-level steps as recorded.
    /// A run another process runs (`running`) is shown as far as its journal has gone.
    pub async fn saved_snapshot(&self, id: &str) -> Option<RunSnapshot> {
        if self.get(id).is_some() {
            return None;
        }
        let info = self.history_info(id).await?;
        let status = RunState::from_journal(&info.status)?;
        let state = self.journal_state(id).await.ok()?;
        let waiting = state.waiting.clone();
        let record = RunRecord::of(state);
        let steps: IndexMap<String, StepState> = record
            .steps
            .iter()
            .map(|s| (s.id.clone(), step_state(s)))
            .collect();
        let bytes = record.output.as_ref().map(super::kept::json_len);
        let inline = bytes.is_some_and(|b| b <= vai_contract::INLINE_OUTPUT_LIMIT);
        let output = record.output.clone().filter(|_| inline);
        Some(RunSnapshot {
            run_id: id.to_string(),
            workflow: record.workflow.clone(),
            workflow_id: record.workflow_id.clone(),
            status,
            seq: 0,
            started_at: record.started_at,
            duration_ms: record.duration_ms,
            layers: Vec::new(),
            steps,
            output_bytes: bytes.filter(|_| !inline),
            output,
            error: record.end.as_ref().and_then(|e| e.error.clone()),
            usage: record.usage.clone(),
            step_through: None,
            paused: None,
            waiting: waiting.map(|w| vai_contract::WaitingFor {
                step_id: w.step_id,
                within: w.within,
                message: w.message,
                expects: w.expects,
                deadline_ms: w.deadline_ms,
            }),
        })
    }

    /// Step `step` of journaled run `id`, with its recorded inputs and output.
    pub async fn saved_step(&self, id: &str, step: &str) -> Option<(StepDetail, Option<Value>)> {
        if self.get(id).is_some() {
            return None;
        }
        let record = self.record(id).await.ok()?;
        let s = record.step(step)?;
        let state = step_state(s);
        Some((
            StepDetail {
                step_id: s.id.clone(),
                status: state.status,
                inputs: s.trace.inputs.clone(),
                output: None,
                error: state.error,
                reason: state.reason,
                duration_ms: state.duration_ms,
            },
            s.output.clone(),
        ))
    }
}

fn not_found(error: &str) -> bool {
    error.starts_with("no run")
}

/// A recorded step as a snapshot shows it.
fn step_state(s: &StepRecord) -> StepState {
    let status = match s.status.as_str() {
        "completed" => StepStatus::Completed,
        "failed" => StepStatus::Failed,
        "skipped" => StepStatus::Skipped,
        "cancelled" => StepStatus::Cancelled,
        "waiting" => StepStatus::Waiting,
        _ => StepStatus::Pending,
    };
    StepState {
        duration_ms: s.trace.duration_ms,
        summary: s.trace.summary.clone(),
        error: s.trace.error.clone(),
        reason: s.trace.reason.clone(),
        backend: if s.trace.replayed {
            Some("journal".into())
        } else {
            s.trace.backend.clone()
        },
        output_bytes: s.output.as_ref().map(super::kept::json_len),
        usage: s.trace.usage.clone(),
        ..StepState::new(status)
    }
}
