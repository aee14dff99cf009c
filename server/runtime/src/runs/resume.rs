//! Runs the store keeps that no process runs now — waiting for a person, or interrupted — listed,
//! and taken up in this process under their own id: the run is taken from the store (a shared
//! store's lease: no other machine runs it meanwhile), its answer stored first, and completed
//! steps replay.

use super::durable;
use super::run::{Run, RunOrigin};
use super::{RunManager, first_snapshot};
use serde_json::Value;
use std::sync::Arc;
use vai_workflow::journal::{JournalError, JournalState, RunBackend, RunInfo, RunJournal};
use vai_workflow::{Plan, RunOptions};

/// Why a journaled run could not be taken up.
#[derive(Debug, thiserror::Error)]
pub enum ResumeJournalError {
    #[error("no such run")]
    NotFound,
    #[error("it waits for a person: send the answer")]
    NeedsAnswer,
    #[error("it does not wait for an answer")]
    NotWaiting,
    #[error("the answer does not satisfy what the step expects")]
    Invalid(Vec<vai_workflow::expects::FieldError>),
    #[error("{0}")]
    NotResumable(String),
    /// The store did not answer (see [`JournalError::is_store_failure`]).
    #[error("the run history cannot be read: {0}")]
    Store(String),
}

impl RunManager {
    /// Take up journaled run `id` in this process — one that waits for a person (with
    /// `answer`, checked against what it expects) or whose process died — under the same id:
    /// completed steps replay, the rest runs. `children` finds its sub-workflows.
    ///
    /// The run is taken from the store (a shared store's lease: no other machine runs it
    /// meanwhile) and let go when it ends or the server stops; a run that cannot be taken up
    /// here is let go at once.
    pub async fn resume_journaled(
        &self,
        id: &str,
        answer: Option<Value>,
        children: &dyn vai_workflow::Children,
    ) -> Result<(Arc<Run>, Arc<Plan>), ResumeJournalError> {
        let store = self
            .0
            .journals
            .clone()
            .ok_or(ResumeJournalError::NotFound)?;
        if self.get(id).is_some() {
            return Err(ResumeJournalError::NotResumable(
                "it is running in this playground".into(),
            ));
        }
        let limit = self.0.run_limits.run_bytes.saturating_mul(2);
        let (state, held) = store.take(id, limit).await.map_err(|e| match e {
            JournalError::NotFound(_) => ResumeJournalError::NotFound,
            e if e.is_store_failure() => ResumeJournalError::Store(e.to_string()),
            other => ResumeJournalError::NotResumable(other.to_string()),
        })?;
        let taken = self
            .take_up(id, state, answer, children, held.clone(), store)
            .await;
        if taken.is_err() {
            // Let the run go at once: a later answer, or another process, may take it up.
            if let Err(e) = held.close().await {
                tracing::warn!(run_id = %id, error = %e, "the run's journal could not be let go");
            }
        }
        taken
    }

    /// Start run `id`, taken from `store` as `held` with its journal `state`: `answer`
    /// recorded first, completed steps replayed.
    async fn take_up(
        &self,
        id: &str,
        state: JournalState,
        answer: Option<Value>,
        children: &dyn vai_workflow::Children,
        held: Arc<dyn RunJournal>,
        store: Arc<dyn RunBackend>,
    ) -> Result<(Arc<Run>, Arc<Plan>), ResumeJournalError> {
        if let Some(end) = &state.end {
            return Err(ResumeJournalError::NotResumable(format!(
                "it already ended ({})",
                end.status
            )));
        }
        if state.truncated {
            return Err(ResumeJournalError::NotResumable(
                "it outgrew its journal's budget".into(),
            ));
        }
        let mut recorded = state.recorded.clone();
        match (&state.waiting, answer) {
            (Some(waiting), Some(answer)) => {
                let expects = vai_workflow::expects::Expects::parse(&waiting.expects)
                    .unwrap_or_else(|_| vai_workflow::expects::Expects::empty());
                let errors = expects.check(&answer);
                if !errors.is_empty() {
                    return Err(ResumeJournalError::Invalid(errors));
                }
                // Stored before the run goes on, or it does not: an answer the store lost
                // would be asked for again by whoever takes the run up next.
                held.answer(&waiting.within, &waiting.step_id, &answer)
                    .await
                    .map_err(|e| {
                        ResumeJournalError::NotResumable(format!(
                            "its journal could not store the answer: {e}"
                        ))
                    })?;
                recorded
                    .level_mut(&waiting.within)
                    .answers
                    .insert(waiting.step_id.clone(), answer);
            }
            (Some(_), None) => return Err(ResumeJournalError::NeedsAnswer),
            (None, Some(_)) => return Err(ResumeJournalError::NotWaiting),
            (None, None) => {}
        }
        let compiled = vai_workflow::compile_with(
            &state.start.definition,
            &self.0.registry,
            vai_workflow::Mode::Strict,
            children,
            "",
        );
        let plan = compiled.plan.ok_or_else(|| {
            ResumeJournalError::NotResumable(
                "its workflow no longer validates (a sub-workflow changed?)".into(),
            )
        })?;
        held.resumed();
        let started_at = state.start.started_at;
        let workflow_id = state
            .start
            .source
            .get("workflowId")
            .and_then(Value::as_str)
            .map(str::to_string);
        let mut runs = self.lock();
        if runs.running() >= self.0.max_runs {
            return Err(ResumeJournalError::NotResumable(format!(
                "{} runs are already running",
                self.0.max_runs
            )));
        }
        let snapshot = first_snapshot(id, &plan, workflow_id, started_at, None);
        let origin = RunOrigin {
            inputs: state.start.inputs.clone(),
            definition_version: String::new(),
            single_step: false,
        };
        let run = Run::new(id.to_string(), snapshot, origin, None);
        runs.by_id.insert(id.to_string(), run.clone());
        drop(runs);
        let _ = self.0.created.send(run.summary());
        let options = RunOptions {
            inputs: state.start.inputs.clone(),
            cancel: run.cancel.clone(),
            capture_inputs: true,
            limits: self.0.run_limits,
            ..RunOptions::default()
        };
        let journal = durable::RunJournal::Stored {
            journal: held,
            backend: store,
            id: id.to_string(),
        };
        let registry = self.0.registry.clone();
        self.launch(
            run.clone(),
            plan.clone(),
            registry,
            options,
            std::future::ready(journal),
            Some(recorded),
        );
        Ok((run, plan))
    }

    /// The journaled runs no process runs now: waiting for a person, or interrupted. A store
    /// that cannot be listed gives none (said in the log): the live runs are listed still.
    pub async fn saved(&self) -> Vec<RunInfo> {
        let Some(store) = &self.0.journals else {
            return Vec::new();
        };
        let listed = match store.list().await {
            Ok(listed) => listed,
            Err(e) => {
                tracing::warn!(store = store.kind(), error = %e, "the saved runs cannot be listed");
                return Vec::new();
            }
        };
        listed
            .into_iter()
            .filter(|r| matches!(r.status.as_str(), "waiting" | "interrupted"))
            .filter(|r| self.get(&r.run_id).is_none())
            .collect()
    }
}
