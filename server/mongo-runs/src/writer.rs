//! The writer task of a [`MongoJournal`](crate::MongoJournal): it numbers the lines' documents
//! and inserts them in order, keeps the run's summary, and keeps the lease — renewed every third
//! of its length and by every summary write, each fenced by the lease (`held_filter`). Lines are
//! only inserted under a lease confirmed less than half its length ago, cut off before the rest
//! elapses; a failed insert is sent again from what landed, a few times, and then the journal
//! stops (a gap would make it unreadable).

use crate::RunsError;
use crate::documents::{
    held_filter, last_line_order, lease_update, line_documents, lines_filter, release_update,
    seq_of, summary_update,
};
use crate::lease::Held;
use crate::lines::{self, Job, Line};
use crate::shared::{MAX_TIME, OPERATION_TIMEOUT, Shared};
use mongodb::bson::Document;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::time::Instant;
use vai_workflow::journal::Meta;

/// Documents of lines inserted in one command at most (the driver splits larger messages).
const BATCH_BYTES: usize = 16 << 20;
/// Tries of one insert before the journal gives up; between them, what landed is looked up.
const INSERT_TRIES: u32 = 3;

/// The writer task's state: the run's summary, where its lines stand, and its lease.
pub(crate) struct Writer {
    shared: Arc<Shared>,
    /// Let go (in this process) when the task ends.
    _held: Held,
    pub(super) meta: Meta,
    /// The number of the next line document.
    next: u64,
    /// Bytes of journal text stored or pending.
    written: u64,
    limit: u64,
    /// The budget ran out: no more lines.
    full: bool,
    truncated: bool,
    pending: Vec<Document>,
    pending_bytes: usize,
    /// The summary changed since it was last written.
    dirty: bool,
    /// When the last write that confirmed the lease was sent: the lease lasts at least its
    /// length from then, by the server's clock.
    confirmed: Instant,
    /// Why nothing more is written (the lease was lost, or MongoDB kept refusing the lines).
    broken: Option<String>,
}

impl Writer {
    pub(crate) fn new(
        shared: Arc<Shared>,
        held: Held,
        meta: Meta,
        next: u64,
        written: u64,
        limit: u64,
        confirmed: std::time::Instant,
    ) -> Self {
        Writer {
            shared,
            _held: held,
            meta,
            next,
            written,
            limit,
            full: false,
            truncated: false,
            pending: Vec::new(),
            pending_bytes: 0,
            dirty: false,
            confirmed: Instant::from_std(confirmed),
            broken: None,
        }
    }

    /// The journal read back was truncated already.
    pub(crate) fn truncated(mut self, truncated: bool) -> Self {
        self.truncated = truncated;
        self
    }

    pub(crate) async fn run(mut self, mut rx: mpsc::UnboundedReceiver<Job>) {
        let every = self.shared.lease / 3;
        let mut renewal = tokio::time::interval_at(Instant::now() + every, every);
        renewal.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                job = rx.recv() => {
                    let mut next = job;
                    if next.is_none() {
                        let _ = self.close().await;
                        return;
                    }
                    while let Some(job) = next.take() {
                        match job {
                            Job::Line(line) => self.accept(&line),
                            Job::Flush(done) => {
                                let _ = done.send(self.write().await);
                            }
                            Job::Close(done) => {
                                let closed = self.close().await;
                                // Let go in this process before the caller hears it is closed.
                                drop(self);
                                let _ = done.send(closed);
                                return;
                            }
                        }
                        if self.pending_bytes >= BATCH_BYTES {
                            let _ = self.write().await;
                        }
                        next = rx.try_recv().ok();
                    }
                    let _ = self.write().await;
                }
                _ = renewal.tick() => {
                    if self.broken.is_none() {
                        // A failure here is retried at the next tick or write.
                        let _ = self.renew().await;
                    }
                }
            }
        }
    }

    /// Take `line` into the summary and, within the budget, the pending documents.
    fn accept(&mut self, line: &Line) {
        self.dirty |= lines::apply(line, &mut self.meta);
        if self.full || self.broken.is_some() {
            return;
        }
        let Ok(text) = lines::text(line) else {
            return;
        };
        let bytes = text.len() as u64 + 1;
        if self.written + bytes > self.limit {
            self.full = true;
            self.truncated = true;
            self.dirty = true;
            self.push("truncated", r#"{"t":"truncated"}"#);
        } else {
            self.written += bytes;
            self.push(line.t(), &text);
        }
    }

    fn push(&mut self, t: &str, text: &str) {
        let documents = line_documents(&self.meta.run_id, self.next, t, text);
        self.next += documents.len() as u64;
        self.pending_bytes += text.len();
        self.pending.extend(documents);
    }

    fn lost(&self, why: &str) -> RunsError {
        RunsError::Lost {
            id: self.meta.run_id.clone(),
            why: why.to_string(),
        }
    }

    fn give_up(&mut self, why: String) -> RunsError {
        let error = self.lost(&why);
        self.broken = Some(why);
        self.pending.clear();
        error
    }

    /// How long one write may take: it must land before the lease it relies on lapses.
    fn write_timeout(&self) -> Duration {
        OPERATION_TIMEOUT.min(self.shared.lease / 2)
    }

    /// Store the pending lines, then the summary (which renews the lease).
    async fn write(&mut self) -> Result<(), RunsError> {
        if let Some(why) = &self.broken {
            self.pending.clear();
            return Err(self.lost(why));
        }
        let lines = !self.pending.is_empty();
        if lines {
            if self.confirmed.elapsed() >= self.shared.lease / 2 {
                self.renew().await?;
            }
            self.insert_pending().await?;
        }
        if lines || self.dirty {
            let update = summary_update(
                &self.meta,
                self.written,
                self.truncated,
                &self.shared.owner,
                self.shared.lease,
            );
            self.fenced(update).await?;
            self.dirty = false;
        }
        Ok(())
    }

    async fn renew(&mut self) -> Result<(), RunsError> {
        let update = lease_update(&self.shared.owner, self.shared.lease);
        self.fenced(update).await
    }

    /// `update` the run document while this process holds the lease; one that matches nothing
    /// means the lease was lost, and nothing more is written.
    async fn fenced(&mut self, update: Vec<Document>) -> Result<(), RunsError> {
        let s = self.shared.clone();
        let filter = held_filter(&self.meta.run_id, &s.owner);
        let sent = Instant::now();
        let result = s
            .bounded(&s.runs, self.write_timeout(), |c| async move {
                c.update_one(filter, update).await
            })
            .await;
        match result {
            Ok(r) if r.matched_count > 0 => {
                self.confirmed = sent;
                Ok(())
            }
            Ok(_) => Err(self.give_up(
                "this process's lease lapsed and another process took the run over (or it was \
                 removed)"
                    .into(),
            )),
            Err(e) => Err(s.error(e)),
        }
    }

    /// Insert the pending documents in order. A failed insert may have stored some of them:
    /// what landed is looked up and the rest sent again, a few times, before giving up.
    async fn insert_pending(&mut self) -> Result<(), RunsError> {
        let s = self.shared.clone();
        let mut tries = 0;
        loop {
            let documents = &self.pending;
            let result = s
                .bounded(&s.lines, self.write_timeout(), |c| async move {
                    c.insert_many(documents).await
                })
                .await;
            let error = match result {
                Ok(_) => {
                    self.pending.clear();
                    self.pending_bytes = 0;
                    return Ok(());
                }
                Err(e) if e.is_duplicate_key() => {
                    return Err(self.give_up(
                        "another process wrote its lines: this process's lease lapsed and the \
                         run was taken over"
                            .into(),
                    ));
                }
                Err(e) => s.error(e),
            };
            tries += 1;
            if tries >= INSERT_TRIES {
                return Err(self.give_up(format!("its lines could not be stored: {error}")));
            }
            tokio::time::sleep(Duration::from_millis(250 << tries)).await;
            if let Ok(landed) = self.last_seq().await {
                self.pending
                    .retain(|d| landed.is_none_or(|l| seq_of(d).is_some_and(|s| s > l)));
                if self.pending.is_empty() {
                    self.pending_bytes = 0;
                    return Ok(());
                }
            }
            if self.confirmed.elapsed() >= self.shared.lease / 2 {
                self.renew().await?;
            }
        }
    }

    /// The number of the run's last stored line document.
    async fn last_seq(&self) -> Result<Option<u64>, RunsError> {
        let s = &self.shared;
        let filter = lines_filter(&self.meta.run_id, 0);
        s.bounded(&s.lines, self.write_timeout(), |c| async move {
            c.find_one(filter)
                .sort(last_line_order())
                .max_time(MAX_TIME)
                .await
        })
        .await
        .map(|d| d.as_ref().and_then(seq_of))
        .map_err(|e| s.error(e))
    }

    /// Store everything and let the run go.
    async fn close(&mut self) -> Result<(), RunsError> {
        let written = self.write().await;
        if self.broken.is_some() {
            return written;
        }
        let s = self.shared.clone();
        let filter = held_filter(&self.meta.run_id, &s.owner);
        let released = s
            .bounded(&s.runs, self.write_timeout(), |c| async move {
                c.update_one(filter, release_update()).await
            })
            .await
            .map(|_| ())
            .map_err(|e| s.error(e));
        written.and(released)
    }
}
