//! What a playground run's task drives: run the engine, and when the run stops at a `yield`,
//! wait for an answer (or the wait's deadline, or a cancel that undoes what completed), then
//! run on from the journal — under the same run, so its log and sockets go on. The journal is
//! a file in the data directory when the manager keeps them (a restart finds the run waiting
//! or interrupted), else memory.

use super::clock::now_ms;
use super::run::Run;
use std::sync::Arc;
use std::time::Duration;
use vai_workflow::exec::durable::{JournalAt, Recorded};
use vai_workflow::history::HistorySink;
use vai_workflow::journal::{FileJournal, MemoryJournal, RunStore};
use vai_workflow::{EventSink, Plan, Registry, RunEvent, RunOptions, RunStatus};

/// Where a run's progress is journaled.
#[derive(Clone)]
pub(crate) enum RunJournal {
    Memory(Arc<MemoryJournal>),
    File {
        journal: Arc<FileJournal>,
        store: Arc<RunStore>,
        id: String,
    },
}

impl RunJournal {
    fn at(&self) -> JournalAt {
        match self {
            Self::Memory(m) => JournalAt::new(m.clone()),
            Self::File { journal, .. } => JournalAt::new(journal.clone()),
        }
    }

    pub(crate) fn answer(&self, within: &[String], step_id: &str, value: &serde_json::Value) {
        match self {
            Self::Memory(m) => m.answer(within, step_id, value),
            Self::File { journal, .. } => journal.answer(within, step_id, value),
        }
    }

    fn recorded(&self) -> Recorded {
        match self {
            Self::Memory(m) => m.recorded(),
            Self::File { store, id, .. } => store
                .read(id)
                .map(|state| state.recorded)
                .unwrap_or_default(),
        }
    }

    fn end(&self, status: RunStatus, error: Option<&str>) {
        if let Self::File { journal, .. } = self
            && status != RunStatus::Waiting
        {
            journal.end(status.as_str(), error);
        }
    }

    fn finish(&self, result: &vai_workflow::RunResult) {
        if let Self::File { journal, .. } = self
            && result.status != RunStatus::Waiting
        {
            journal.finish(result);
        }
    }
}

/// Where a driven run's events go, and what stops it when the server does.
pub(crate) struct Outlet {
    /// The run's own sink (its log and sockets), as the manager wraps it.
    pub sink: Arc<dyn EventSink>,
    /// Cancelled when the server shuts down.
    pub closing: tokio_util::sync::CancellationToken,
}

/// Drive `run` to its end: the engine's runs, the waits between them.
pub(crate) async fn drive(
    run: Arc<Run>,
    plan: Arc<Plan>,
    registry: Arc<Registry>,
    options: RunOptions,
    journal: RunJournal,
    mut replay: Option<Recorded>,
    outlet: Outlet,
) {
    let Outlet { sink, closing } = outlet;
    let sink = match &journal {
        RunJournal::File { journal, .. } => HistorySink::wrap(sink, journal.clone()),
        RunJournal::Memory(_) => sink,
    };
    loop {
        let this_run = RunOptions {
            journal: Some(journal.at()),
            replay: replay.take().map(Arc::new),
            ..options.clone()
        };
        let result =
            match vai_workflow::run(plan.clone(), registry.clone(), this_run, sink.clone()).await {
                Ok(result) => result,
                Err(errors) => {
                    let text: Vec<String> = errors.iter().map(ToString::to_string).collect();
                    journal.end(RunStatus::Failed, Some(&text.join("; ")));
                    run.abort(text.join("; "));
                    return;
                }
            };
        let Some(waiting) = result
            .waiting
            .clone()
            .filter(|_| result.status == RunStatus::Waiting)
        else {
            journal.finish(&result);
            return;
        };
        // Wait for a person: an answer goes on, a timeout goes on (the engine applies it), a
        // cancel undoes what completed.
        let (tx, rx) = tokio::sync::oneshot::channel();
        run.await_answer(tx);
        let deadline = waiting
            .deadline_ms
            .map(|d| Duration::from_millis(d.saturating_sub(now_ms())));
        tokio::select! {
            biased;
            // The server stops: a journaled run stays waiting for the next one.
            _ = closing.cancelled() => return,
            answer = rx => {
                let Ok(answer) = answer else { return };
                journal.answer(&waiting.within, &waiting.step_id, &answer);
            }
            _ = tokio::time::sleep(deadline.unwrap_or(Duration::MAX)), if deadline.is_some() => {}
            _ = run.cancel.cancelled() => {
                let started = std::time::Instant::now();
                vai_workflow::exec::compensate_recorded(
                    &journal.recorded(),
                    &registry,
                    options.limits,
                    sink.clone(),
                    Some(journal.at()),
                )
                .await;
                let error = "the run was cancelled while it waited for a person";
                journal.end(RunStatus::Cancelled, Some(error));
                sink.emit(RunEvent::RunFinished {
                    status: RunStatus::Cancelled,
                    duration_ms: started.elapsed().as_millis() as u64,
                    error: Some(error.into()),
                    usage: None,
                    output: None,
                });
                return;
            }
        }
        replay = Some(journal.recorded());
    }
}
