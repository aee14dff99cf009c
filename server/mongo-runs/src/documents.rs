//! The shape of the two collections, as data: a run's summary document in `runs` (what listing,
//! pruning and leases read) and its journal lines in `run_lines`, and every filter, update and
//! pipeline the store sends, so all of it is tested without a server.
//!
//! A run document:
//! `{_id: <run id>, v, workflow, workflowId?, startedAt, completedSteps, waiting, end, bytes,
//!   truncated, lease: {owner, expiresAt} | null}` — `waiting` is the wait as JSON text (its
//! `expects` is a JSON Schema whose `$`-keys MongoDB would read as operators), `end` is
//! `{status, error?, endedAt}`, times are milliseconds since the epoch but `lease.expiresAt`,
//! a date set by the server's own clock (`$$NOW`), so machines whose clocks disagree still agree
//! on whether a lease lapsed.
//!
//! A line document: `{run, seq, t, text, cont?}` — `text` is the line exactly as the file
//! journal writes it (step outputs keep keys such as `$oid` that BSON would turn into other
//! values), `seq` counts documents from 0 (the `run` header) with no gaps, `t` is the line's
//! type for people reading the collection, and `cont` marks a part of a long line that the
//! next document continues.

use mongodb::bson::{Bson, DateTime, Document, doc};
use std::time::Duration;
use vai_workflow::Usage;
use vai_workflow::exec::Waiting;
use vai_workflow::journal::{Meta, RerunFrom, RunEnd, RunInfo, VERSION};

/// Runs listed at most (newest first).
pub const MAX_LISTED: i64 = 10_000;

/// A literal value in an update pipeline, where a string starting with `$` would otherwise be
/// read as a field path and a document with `$`-keys as an expression.
fn literal(value: impl Into<Bson>) -> Document {
    doc! {"$literal": value.into()}
}

/// Milliseconds as BSON (all of vai's times fit an i64).
fn millis(ms: u64) -> i64 {
    i64::try_from(ms).unwrap_or(i64::MAX)
}

/// The lease a claim or renewal writes: `owner`'s, until `ttl` after the server's now.
fn lease(owner: &str, ttl: Duration) -> Document {
    let ttl = i64::try_from(ttl.as_millis()).unwrap_or(i64::MAX);
    doc! {"owner": literal(owner), "expiresAt": {"$add": ["$$NOW", ttl]}}
}

/// The summary fields of a run document as an update pipeline's `$set`.
fn summary_fields(meta: &Meta, bytes: u64, truncated: bool) -> Document {
    let waiting = match &meta.waiting {
        Some(w) => Bson::Document(literal(waiting_text(w))),
        None => Bson::Null,
    };
    let end = match &meta.end {
        Some(end) => Bson::Document(literal(end_document(end))),
        None => Bson::Null,
    };
    let usage = meta
        .usage
        .as_ref()
        .and_then(|u| mongodb::bson::to_bson(u).ok())
        .map_or(Bson::Null, |u| Bson::Document(literal(u)));
    doc! {
        "completedSteps": millis(meta.completed_steps as u64),
        "waiting": waiting,
        "end": end,
        "usage": usage,
        "bytes": millis(bytes),
        "truncated": truncated,
    }
}

fn waiting_text(waiting: &Waiting) -> String {
    serde_json::to_string(waiting).unwrap_or_default()
}

fn end_document(end: &RunEnd) -> Document {
    let mut out = doc! {"status": end.status.as_str(), "endedAt": millis(end.ended_at)};
    if let Some(error) = &end.error {
        out.insert("error", error.as_str());
    }
    if let Some(ms) = end.duration_ms {
        out.insert("durationMs", millis(ms));
    }
    out
}

/// Matches run `id` only while no run document exists, so an upsert with it creates the run or
/// fails with a duplicate key (`_id` is unique), never overwrites one.
pub fn create_filter(id: &str) -> Document {
    doc! {"_id": id, "v": {"$exists": false}}
}

/// The new run document of `meta`, leased to `owner` for `ttl`: an update pipeline, so the
/// lease's expiry is the server's clock.
pub fn create_update(meta: &Meta, owner: &str, ttl: Duration) -> Vec<Document> {
    let mut set = doc! {
        "v": VERSION as i64,
        "workflow": literal(meta.workflow.as_str()),
        "startedAt": millis(meta.started_at),
    };
    if let Some(id) = &meta.workflow_id {
        set.insert("workflowId", literal(id.as_str()));
    }
    if let Some(hash) = &meta.hash {
        set.insert("hash", literal(hash.as_str()));
    }
    if let Some(from) = &meta.from {
        set.insert(
            "from",
            literal(doc! {"runId": from.run_id.as_str(), "step": from.step.as_str()}),
        );
    }
    set.insert("inputs", literal(meta.inputs.as_str()));
    set.extend(summary_fields(meta, 0, false));
    set.insert("lease", lease(owner, ttl));
    vec![doc! {"$set": set}]
}

/// Run `id` when `owner` may claim it: nobody holds it, its lease lapsed (by the server's
/// clock), or `owner` holds it already (a claim retried after its reply was lost).
pub fn claim_filter(id: &str, owner: &str) -> Document {
    doc! {
        "_id": id,
        "$or": [
            {"lease": Bson::Null},
            {"lease.owner": owner},
            {"$expr": {"$lt": ["$lease.expiresAt", "$$NOW"]}},
        ],
    }
}

/// Lease run to `owner` for `ttl` from the server's now: a claim and a renewal alike.
pub fn lease_update(owner: &str, ttl: Duration) -> Vec<Document> {
    vec![doc! {"$set": {"lease": lease(owner, ttl)}}]
}

/// Run `id` while `owner` holds it: every write of a holder is fenced by this, so a process
/// whose lease lapsed and was taken over learns it at its next write.
pub fn held_filter(id: &str, owner: &str) -> Document {
    doc! {"_id": id, "lease.owner": owner}
}

/// The run's summary as it now stands, and the lease renewed.
pub fn summary_update(
    meta: &Meta,
    bytes: u64,
    truncated: bool,
    owner: &str,
    ttl: Duration,
) -> Vec<Document> {
    let mut set = summary_fields(meta, bytes, truncated);
    set.insert("lease", lease(owner, ttl));
    vec![doc! {"$set": set}]
}

/// Let the run go (nobody holds it).
pub fn release_update() -> Vec<Document> {
    vec![doc! {"$set": {"lease": Bson::Null}}]
}

/// Who holds a run and until when, for the message of a refused claim.
pub fn lease_projection() -> Document {
    doc! {"lease": 1}
}

/// The line documents of `id`'s journal, from line `seq`.
pub fn lines_filter(id: &str, from: u64) -> Document {
    if from == 0 {
        doc! {"run": id}
    } else {
        doc! {"run": id, "seq": {"$gte": millis(from)}}
    }
}

/// A journal's lines in order; also the key of the unique index that keeps them ordered and
/// append-only (a second writer of one line fails with a duplicate key).
pub fn line_order() -> Document {
    doc! {"run": 1, "seq": 1}
}

/// The newest line first: where a writer whose write failed finds what landed.
pub fn last_line_order() -> Document {
    doc! {"seq": -1}
}

/// Journal text kept in one document at most: a longer line (a step output may take 64 MiB)
/// spans consecutive documents, each but the last marked `cont`, well under MongoDB's 16 MiB.
pub const PART_BYTES: usize = 4 << 20;

/// The documents of one journal line of type `t` of run `id`, numbered from `seq`.
pub fn line_documents(id: &str, seq: u64, t: &str, text: &str) -> Vec<Document> {
    let mut out = Vec::new();
    let mut rest = text;
    loop {
        let mut cut = rest.len().min(PART_BYTES);
        while !rest.is_char_boundary(cut) {
            cut -= 1;
        }
        let (part, tail) = rest.split_at(cut);
        let mut document =
            doc! {"run": id, "seq": millis(seq + out.len() as u64), "t": t, "text": part};
        if !tail.is_empty() {
            document.insert("cont", true);
        }
        out.push(document);
        if tail.is_empty() {
            return out;
        }
        rest = tail;
    }
}

/// A line document's number.
pub fn seq_of(document: &Document) -> Option<u64> {
    int(document, "seq")
}

/// The journal text of line documents in `seq` order, as the file journal would hold it;
/// `Err` names the first document that is missing or not vai's.
pub fn journal_text(documents: &[Document]) -> Result<String, String> {
    let mut text = String::new();
    for (n, document) in documents.iter().enumerate() {
        if seq_of(document) != Some(n as u64) {
            return Err(format!("its line document {n} is missing"));
        }
        let part = document
            .get_str("text")
            .map_err(|_| format!("its line document {n} has no text"))?;
        text.push_str(part);
        if !document.get_bool("cont").unwrap_or(false) {
            text.push('\n');
        }
    }
    Ok(text)
}

/// The keys of the runs' indexes: newest first for listing, finished by end for pruning.
pub fn run_index_keys() -> [Document; 2] {
    [doc! {"startedAt": -1}, doc! {"end.endedAt": -1}]
}

/// What a listing shows of a run, with whether its lease is live by the server's clock: never
/// a run's lines.
fn summary_projection() -> Document {
    doc! {
        "workflow": 1,
        "workflowId": 1,
        "startedAt": 1,
        "completedSteps": 1,
        "waiting": 1,
        "end": 1,
        "hash": 1,
        "from": 1,
        "inputs": 1,
        "usage": 1,
        "live": {"$gt": ["$lease.expiresAt", "$$NOW"]},
    }
}

/// Every run's summary, newest first, at most [`MAX_LISTED`].
pub fn list_pipeline() -> Vec<Document> {
    vec![
        doc! {"$sort": {"startedAt": -1, "_id": 1}},
        doc! {"$limit": MAX_LISTED},
        doc! {"$project": summary_projection()},
    ]
}

/// Run `id`'s summary.
pub fn info_pipeline(id: &str) -> Vec<Document> {
    vec![
        doc! {"$match": {"_id": id}},
        doc! {"$project": summary_projection()},
    ]
}

/// The finished runs, the most recently ended first, with their sizes and whether a process
/// still holds them (it is closing: pruning leaves it alone).
pub fn finished_pipeline() -> Vec<Document> {
    vec![
        doc! {"$match": {"end": {"$ne": Bson::Null}}},
        doc! {"$sort": {"end.endedAt": -1, "_id": 1}},
        doc! {"$project": {
            "endedAt": "$end.endedAt",
            "bytes": 1,
            "live": {"$gt": ["$lease.expiresAt", "$$NOW"]},
        }},
    ]
}

/// The finished runs `ids` (a run taken up again since is not finished, and stays).
pub fn prune_runs_filter(ids: &[String]) -> Document {
    doc! {"_id": {"$in": ids}, "end": {"$ne": Bson::Null}}
}

/// The lines of runs `ids`.
pub fn prune_lines_filter(ids: &[String]) -> Document {
    doc! {"run": {"$in": ids}}
}

/// An integer field, whichever width the server stored it at.
fn int(row: &Document, field: &str) -> Option<u64> {
    match row.get(field)? {
        Bson::Int32(n) => u64::try_from(*n).ok(),
        Bson::Int64(n) => u64::try_from(*n).ok(),
        Bson::Double(n) if *n >= 0.0 => Some(*n as u64),
        _ => None,
    }
}

/// The end a run document records.
fn end_of(row: &Document) -> Result<Option<RunEnd>, String> {
    match row.get("end") {
        None | Some(Bson::Null) => Ok(None),
        Some(Bson::Document(end)) => Ok(Some(RunEnd {
            status: end
                .get_str("status")
                .map_err(|_| "its end has no status")?
                .to_string(),
            error: end.get_str("error").ok().map(str::to_string),
            ended_at: int(end, "endedAt").ok_or("its end has no time")?,
            duration_ms: int(end, "durationMs"),
        })),
        Some(_) => Err("its end is not a document".into()),
    }
}

/// The wait a run document records.
fn waiting_of(row: &Document) -> Result<Option<Waiting>, String> {
    match row.get("waiting") {
        None | Some(Bson::Null) => Ok(None),
        Some(Bson::String(text)) => serde_json::from_str(text)
            .map(Some)
            .map_err(|e| format!("its wait is not valid: {e}")),
        Some(_) => Err("its wait is not JSON text".into()),
    }
}

/// A row of [`list_pipeline`] or [`info_pipeline`] as `vai runs list` shows it: ended, waiting,
/// running (a live lease) or interrupted (nobody holds it, or its holder's lease lapsed).
pub fn info_of_row(row: &Document) -> Result<RunInfo, String> {
    let from = match row.get_document("from") {
        Ok(from) => Some(RerunFrom {
            run_id: from
                .get_str("runId")
                .map_err(|_| "its origin has no run")?
                .into(),
            step: from
                .get_str("step")
                .map_err(|_| "its origin has no step")?
                .into(),
        }),
        Err(_) => None,
    };
    let usage = match row.get("usage") {
        None | Some(Bson::Null) => None,
        Some(u) => Some(
            mongodb::bson::from_bson::<Usage>(u.clone())
                .map_err(|e| format!("its usage is not valid: {e}"))?,
        ),
    };
    let meta = Meta {
        run_id: row.get_str("_id").map_err(|_| "it has no id")?.to_string(),
        workflow: row.get_str("workflow").unwrap_or_default().to_string(),
        workflow_id: row.get_str("workflowId").ok().map(str::to_string),
        started_at: int(row, "startedAt").unwrap_or(0),
        completed_steps: int(row, "completedSteps").unwrap_or(0) as usize,
        waiting: waiting_of(row)?,
        end: end_of(row)?,
        hash: row.get_str("hash").ok().map(str::to_string),
        from,
        inputs: row.get_str("inputs").unwrap_or_default().to_string(),
        usage,
    };
    Ok(RunInfo::of(meta, row.get_bool("live").unwrap_or(false)))
}

/// Who holds a run and until when, from a document with [`lease_projection`]; `None` when
/// nobody does.
pub fn holder_of(row: &Document) -> Option<(String, DateTime)> {
    let lease = row.get_document("lease").ok()?;
    Some((
        lease.get_str("owner").ok()?.to_string(),
        *lease.get_datetime("expiresAt").ok()?,
    ))
}

/// A finished run as pruning weighs it.
#[derive(Debug, Clone, PartialEq)]
pub struct Finished {
    pub id: String,
    pub ended_at: u64,
    pub bytes: u64,
    /// A process still holds it.
    pub live: bool,
}

/// A row of [`finished_pipeline`].
pub fn finished_of_row(row: &Document) -> Option<Finished> {
    Some(Finished {
        id: row.get_str("_id").ok()?.to_string(),
        ended_at: int(row, "endedAt")?,
        bytes: int(row, "bytes").unwrap_or(0),
        live: row.get_bool("live").unwrap_or(false),
    })
}

/// The runs to remove of `finished` (the most recently ended first), by the file store's rule:
/// beyond the newest `keep`, older than `max_age`, or once they take more than `max_bytes`
/// together — but the newest always stays, and so does one a process still holds.
pub fn to_prune(
    finished: &[Finished],
    keep: usize,
    max_age: Duration,
    max_bytes: u64,
    now: u64,
) -> Vec<String> {
    let max_age = u64::try_from(max_age.as_millis()).unwrap_or(u64::MAX);
    let mut bytes = 0_u64;
    let mut out = Vec::new();
    for (n, run) in finished.iter().enumerate() {
        bytes = bytes.saturating_add(run.bytes);
        let old = now.saturating_sub(run.ended_at) > max_age;
        if (n >= keep || old || (n > 0 && bytes > max_bytes)) && !run.live {
            out.push(run.id.clone());
        }
    }
    out
}

#[cfg(test)]
mod tests;
