//! A run's journal in MongoDB being written. Entries go to a writer task, which serialises each
//! as the file journal would (a step's output straight from the run's context, never copied),
//! numbers its documents and inserts them in order, batching whatever came while it wrote —
//! so the run never waits for its journal. The task also keeps the run's lease: it renews it
//! every third of its length, and every summary it writes renews it too, fenced by the lease
//! (`held_filter`), so a process whose lease lapsed and was taken over learns it at its next
//! write and writes nothing more. Lines are only inserted under a lease confirmed less than half
//! its length ago, and the insert is cut off before the rest elapses.
//!
//! Waits, answers and ends are stored when [`MongoJournal::flush`], [`MongoJournal::answer`],
//! [`MongoJournal::end`] or [`MongoJournal::close`] return. Past its byte budget the journal
//! writes one `truncated` line and no more lines, as the file journal does.

use crate::RunsError;
use crate::lines::{Job, Line};
use crate::writer::Writer;
use serde_json::{Value, json};
use std::sync::Arc;
use tokio::sync::{mpsc, oneshot};
use vai_workflow::RunResult;
use vai_workflow::exec::durable::{Entry, Journal};
use vai_workflow::journal::{RunEnd, StepTrace, end_line, entry_line, now_ms};

/// A run's journal in MongoDB, held (leased) by this process until closed or dropped.
pub struct MongoJournal {
    run_id: String,
    tx: mpsc::UnboundedSender<Job>,
}

impl std::fmt::Debug for MongoJournal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MongoJournal")
            .field("run_id", &self.run_id)
            .finish_non_exhaustive()
    }
}

impl MongoJournal {
    /// Start `writer`'s task on the current runtime.
    pub(crate) fn start(writer: Writer) -> Self {
        let (tx, rx) = mpsc::unbounded_channel();
        let run_id = writer.meta.run_id.clone();
        tokio::spawn(writer.run(rx));
        MongoJournal { run_id, tx }
    }

    pub fn run_id(&self) -> &str {
        &self.run_id
    }

    fn send(&self, line: Line) {
        // After `close` the task is gone, and lines go nowhere, as after a file journal's end.
        let _ = self.tx.send(Job::Line(line));
    }

    async fn ask(
        &self,
        job: impl FnOnce(oneshot::Sender<Result<(), RunsError>>) -> Job,
    ) -> Result<(), RunsError> {
        let (done, answer) = oneshot::channel();
        self.tx.send(job(done)).map_err(|_| self.closed())?;
        answer.await.unwrap_or_else(|_| Err(self.closed()))
    }

    fn closed(&self) -> RunsError {
        RunsError::Lost {
            id: self.run_id.clone(),
            why: "the journal was closed".into(),
        }
    }

    /// Append `line` (a JSON object with its type in `t`).
    pub fn append(&self, line: Value) {
        self.send(Line::Value(line));
    }

    /// Store everything appended so far.
    pub async fn flush(&self) -> Result<(), RunsError> {
        self.ask(Job::Flush).await
    }

    /// Record an answer to the `yield` `step_id` within `within`, stored when this returns.
    pub async fn answer(
        &self,
        within: &[String],
        step_id: &str,
        value: &Value,
    ) -> Result<(), RunsError> {
        self.append(
            json!({"t": "answer", "at": within, "id": step_id, "value": value, "atMs": now_ms()}),
        );
        self.flush().await
    }

    /// Record that a process took the run up again.
    pub fn resumed(&self) {
        self.append(json!({"t": "resumed", "atMs": now_ms()}));
    }

    /// Record how step `id` within `at` ended.
    pub fn trace(&self, at: &[String], id: &str, trace: StepTrace, inputs: Option<Arc<Value>>) {
        self.send(Line::Trace {
            at: at.to_vec(),
            id: id.to_string(),
            trace: Box::new(trace),
            inputs,
        });
    }

    /// Record the run's end without a result, stored when this returns.
    pub async fn end(&self, status: &str, error: Option<&str>) -> Result<(), RunsError> {
        let end = RunEnd {
            status: status.to_string(),
            error: error.map(str::to_string),
            ended_at: now_ms(),
            duration_ms: None,
        };
        self.append(end_line(&end, None));
        self.flush().await
    }

    /// Record how `result` ended the run — status, error, duration, and its output when small
    /// enough — stored when this returns.
    pub async fn finish(&self, result: &RunResult) -> Result<(), RunsError> {
        let end = RunEnd {
            status: result.status.as_str().to_string(),
            error: result.error.clone(),
            ended_at: now_ms(),
            duration_ms: Some(result.duration_ms),
        };
        self.append(end_line(&end, result.output.as_ref()));
        self.flush().await
    }

    /// Store everything and let the run go: another process may take it up at once. A journal
    /// dropped without this does the same in the background; one whose process dies keeps
    /// the run until its lease lapses.
    pub async fn close(&self) -> Result<(), RunsError> {
        let (done, answer) = oneshot::channel();
        if self.tx.send(Job::Close(done)).is_err() {
            // Closed already: nothing more to store.
            return Ok(());
        }
        answer.await.unwrap_or(Ok(()))
    }
}

impl Journal for MongoJournal {
    fn record(&self, at: &[String], entry: Entry<'_>) {
        match entry {
            Entry::Step { id, entry, undo } => self.send(Line::Step {
                at: at.to_vec(),
                id: id.to_string(),
                entry: entry.clone(),
                undo: undo.cloned(),
            }),
            other => self.send(Line::Value(entry_line(at, other))),
        }
    }
}
