//! What a playground run's task drives: run the engine, and when the run stops at a `yield`,
//! wait for an answer (or the wait's deadline, or a cancel that undoes what completed), then
//! run on from the journal — under the same run, so its log and sockets go on. The journal is
//! kept in the store the manager was given (the data directory's files, or a team's shared
//! store) when it has one — a restart, or another machine, finds the run waiting or
//! interrupted — else in memory.
//!
//! A stored journal's writes that wait (`answer`, `finish`, `end`, `close`) are awaited here; one
//! that fails is logged with the run's id and the run goes on: its result is still told to
//! whoever watches it. The journal is closed when the run ends or the server stops, so a shared
//! store lets the run go (another machine may take it up) at once.

use super::clock::now_ms;
use super::run::Run;
use std::sync::Arc;
use std::time::Duration;
use vai_workflow::exec::durable::{JournalAt, Recorded};
use vai_workflow::history::{HistorySink, Restart};
use vai_workflow::journal::{
    self, JournalError, JournalState, MemoryJournal, RunBackend, RunStart,
};
use vai_workflow::{EventSink, Plan, Registry, RunEvent, RunOptions, RunStatus};

/// Where a run's progress is journaled.
#[derive(Clone)]
pub(crate) enum RunJournal {
    Memory(Arc<MemoryJournal>),
    /// In the manager's store, held by this process until closed.
    Stored {
        journal: Arc<dyn journal::RunJournal>,
        backend: Arc<dyn RunBackend>,
        id: String,
    },
}

impl RunJournal {
    pub(crate) fn memory() -> Self {
        Self::Memory(Arc::new(MemoryJournal::default()))
    }

    /// A new run's journal in `backend` (with the steps a restart of past run `restart.0`
    /// replays copied in), or memory when the store cannot start it — the run goes on either
    /// way.
    pub(crate) async fn create(
        backend: Arc<dyn RunBackend>,
        start: RunStart,
        limit: u64,
        restart: Option<(&JournalState, &Restart)>,
    ) -> Self {
        match backend.create(&start, limit).await {
            Ok(journal) => {
                if let Some((past, restart)) = restart {
                    vai_workflow::history::copy_into(&*journal, past, restart);
                }
                Self::Stored {
                    journal,
                    backend,
                    id: start.run_id,
                }
            }
            Err(e) => {
                tracing::warn!(
                    run_id = %start.run_id,
                    store = backend.kind(),
                    error = %e,
                    "the run is journaled in memory only"
                );
                Self::memory()
            }
        }
    }

    fn at(&self) -> JournalAt {
        match self {
            Self::Memory(m) => JournalAt::new(m.clone()),
            Self::Stored { journal, .. } => JournalAt::new(journal.clone().as_journal()),
        }
    }

    async fn answer(&self, within: &[String], step_id: &str, value: &serde_json::Value) {
        match self {
            Self::Memory(m) => m.answer(within, step_id, value),
            Self::Stored { journal, id, .. } => {
                let stored = journal.answer(within, step_id, value).await;
                logged(id, "the answer", stored);
            }
        }
    }

    /// What the run has recorded so far (read back from the store, after what was written is
    /// stored). `Err` says why the store could not be read: going on with nothing recorded
    /// would run completed steps again (an `http` POST twice), so the caller stops instead.
    async fn recorded(&self) -> Result<Recorded, String> {
        match self {
            Self::Memory(m) => Ok(m.recorded()),
            Self::Stored {
                journal,
                backend,
                id,
            } => {
                logged(id, "what the run did", journal.flush().await);
                backend.read(id).await.map(|state| state.recorded).map_err(|e| {
                    tracing::warn!(run_id = %id, error = %e, "the run's journal cannot be read back");
                    // The store's words (a path, a server's address) stay in the log.
                    format!(
                        "the run's journal could not be read back (the log says why); nothing \
                         ran again, and the run stays in the run history: take it up with `vai \
                         runs resume {id}` once the store answers"
                    )
                })
            }
        }
    }

    /// The run stopped to wait for a person: what it did is stored, so the store lists it as
    /// waiting at once.
    async fn waiting(&self) {
        if let Self::Stored { journal, id, .. } = self {
            logged(id, "the wait", journal.flush().await);
        }
    }

    async fn end(&self, status: RunStatus, error: Option<&str>) {
        if let Self::Stored { journal, id, .. } = self
            && status != RunStatus::Waiting
        {
            logged(
                id,
                "the run's end",
                journal.end(status.as_str(), error).await,
            );
        }
    }

    async fn finish(&self, result: &vai_workflow::RunResult) {
        if let Self::Stored { journal, id, .. } = self
            && result.status != RunStatus::Waiting
        {
            logged(id, "the run's end", journal.finish(result).await);
        }
    }

    /// Store everything and let the run go (a shared store's lease is released).
    pub(crate) async fn close(&self) {
        if let Self::Stored { journal, id, .. } = self {
            logged(id, "the journal's last lines", journal.close().await);
        }
    }
}

/// Log a journal write that failed, naming the run; the run itself goes on.
fn logged(run_id: &str, what: &str, result: Result<(), JournalError>) {
    if let Err(e) = result {
        tracing::warn!(run_id = %run_id, error = %e, "the run's journal could not store {what}");
    }
}

/// Where a driven run's events go, and what stops it when the server does.
pub(crate) struct Outlet {
    /// The run's own sink (its log and sockets), as the manager wraps it.
    pub sink: Arc<dyn EventSink>,
    /// Cancelled when the server shuts down.
    pub closing: tokio_util::sync::CancellationToken,
}

/// Drive `run` to its end — the engine's runs, the waits between them — then close its
/// journal, whether the run ended or the server stops while it waits.
pub(crate) async fn drive(
    run: Arc<Run>,
    plan: Arc<Plan>,
    registry: Arc<Registry>,
    options: RunOptions,
    journal: RunJournal,
    replay: Option<Recorded>,
    outlet: Outlet,
) {
    drive_to_end(run, plan, registry, options, &journal, replay, outlet).await;
    journal.close().await;
}

async fn drive_to_end(
    run: Arc<Run>,
    plan: Arc<Plan>,
    registry: Arc<Registry>,
    options: RunOptions,
    journal: &RunJournal,
    mut replay: Option<Recorded>,
    outlet: Outlet,
) {
    let Outlet { sink, closing } = outlet;
    let sink = match journal {
        RunJournal::Stored { journal, .. } => HistorySink::wrap(sink, journal.clone()),
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
                    journal.end(RunStatus::Failed, Some(&text.join("; "))).await;
                    run.abort(text.join("; "));
                    return;
                }
            };
        let Some(waiting) = result
            .waiting
            .clone()
            .filter(|_| result.status == RunStatus::Waiting)
        else {
            journal.finish(&result).await;
            return;
        };
        journal.waiting().await;
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
                journal.answer(&waiting.within, &waiting.step_id, &answer).await;
            }
            _ = tokio::time::sleep(deadline.unwrap_or(Duration::MAX)), if deadline.is_some() => {}
            _ = run.cancel.cancelled() => {
                let started = std::time::Instant::now();
                // Without what completed, nothing could be undone: the run is left as it is.
                let recorded = match journal.recorded().await {
                    Ok(recorded) => recorded,
                    Err(error) => return run.abort(error),
                };
                vai_workflow::exec::compensate_recorded(
                    &recorded,
                    &registry,
                    options.limits,
                    sink.clone(),
                    Some(journal.at()),
                )
                .await;
                let error = "the run was cancelled while it waited for a person";
                journal.end(RunStatus::Cancelled, Some(error)).await;
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
        match journal.recorded().await {
            Ok(recorded) => replay = Some(recorded),
            Err(error) => return run.abort(error),
        }
    }
}
