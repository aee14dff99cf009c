//! Durable runs on disk: each run is one append-only JSON-lines file in the data directory's
//! `runs/` (owner-only), written as the run goes — a header with the definition and inputs,
//! then each completed step, `forEach` item, wait, answer and compensation, and the end. The
//! process running a run holds an exclusive lock on its file, so a run nobody holds and that
//! never ended was interrupted (its process died), and two processes never resume one run.
//! Reading a journal folds it back into `Recorded`, which a resumed run replays.

mod backend;
mod trace;

pub use backend::{RunBackend, RunJournal};
pub use trace::{MAX_TRACE_INPUTS, StepTrace, trace_key};

use crate::exec::Waiting;
use crate::exec::durable::{Entry, Journal, Recorded, RecordedStep, UndoCall};
use crate::fsutil::{Dir, FileError, FileMode, OverLink};
use crate::tool::Usage;
use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use std::fs::File;
use std::io::Write;
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// The journal format's version; a journal of another version is reported, never resumed.
pub const VERSION: u64 = 1;
/// Most bytes of a run's output its journal keeps (its steps' outputs are kept whole).
pub const MAX_KEPT_OUTPUT: usize = 1024 * 1024;
/// Suffix of journal files in `runs/`.
pub const SUFFIX: &str = ".jsonl";
/// Largest journal read back (a run's journal is bounded by its byte budget well below this).
pub const MAX_JOURNAL_BYTES: u64 = 512 * 1024 * 1024;
/// Finished runs kept; older ones are pruned when a run starts.
pub const KEEP_FINISHED: usize = 200;
/// Age after which a finished run's journal is pruned.
pub const MAX_AGE: Duration = Duration::from_secs(30 * 24 * 3600);
/// Most bytes the journals of finished runs may take together; the oldest go first.
pub const KEEP_FINISHED_BYTES: u64 = 512 * 1024 * 1024;

/// What a journal starts with: enough to run the workflow again.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RunStart {
    pub run_id: String,
    /// The workflow's name.
    pub workflow: String,
    /// The definition as it ran.
    pub definition: Value,
    /// Where the definition came from, as the starter describes it (`{"path": …}` or
    /// `{"id": "builtin:…"}`), to load it again and see whether it changed.
    pub source: Value,
    pub inputs: Map<String, Value>,
    #[serde(default)]
    pub defaults_override: Map<String, Value>,
    pub started_at: u64,
    /// The definition's version ([`definition_hash`]), to tell runs of one version apart.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hash: Option<String>,
    /// The run this one was restarted from, and at which step (`vai runs rerun`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<RerunFrom>,
}

/// Where a restarted run came from: the steps upstream of `step` replayed `run_id`'s outputs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RerunFrom {
    pub run_id: String,
    pub step: String,
}

/// A definition's version: the first 16 hex digits of the SHA-256 of its compact JSON.
pub fn definition_hash(definition: &Value) -> String {
    use sha2::{Digest, Sha256};
    let text = serde_json::to_vec(definition).unwrap_or_default();
    Sha256::digest(&text)[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// How a journaled run ended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RunEnd {
    pub status: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    pub ended_at: u64,
    /// How long the engine ran it (absent: from its start to `ended_at`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<u64>,
}

impl RunEnd {
    /// How long the run took, `started_at` being when it started.
    pub fn took(&self, started_at: u64) -> u64 {
        self.duration_ms
            .unwrap_or_else(|| self.ended_at.saturating_sub(started_at))
    }
}

/// A run's summary beside its journal (`<id>.meta.json`): what listing and pruning read, so
/// they never read a journal whole. Rewritten (atomically) when the run starts, waits, is
/// answered and ends; a run whose process died keeps the last one written.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Meta {
    pub run_id: String,
    pub workflow: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workflow_id: Option<String>,
    pub started_at: u64,
    /// Top-level steps completed when it was written.
    pub completed_steps: usize,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub waiting: Option<Waiting>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end: Option<RunEnd>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hash: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<RerunFrom>,
    /// The inputs in one short line (`question=How do I…, limit=5`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub inputs: String,
    /// What the top-level steps' model calls used, so far.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<Usage>,
}

/// `inputs` in one line of at most 100 characters, for lists.
pub fn inputs_summary(inputs: &Map<String, Value>) -> String {
    let parts: Vec<String> = inputs
        .iter()
        .map(|(k, v)| match v {
            Value::String(s) => format!("{k}={s}"),
            other => format!("{k}={other}"),
        })
        .collect();
    let line = parts.join(", ").replace(['\n', '\r'], " ");
    if line.chars().count() > 100 {
        let cut: String = line.chars().take(99).collect();
        format!("{cut}…")
    } else {
        line
    }
}

impl Meta {
    /// The summary of a run that just started.
    pub fn of(start: &RunStart) -> Self {
        Self {
            hash: start.hash.clone(),
            from: start.from.clone(),
            inputs: inputs_summary(&start.inputs),
            usage: None,
            run_id: start.run_id.clone(),
            workflow: start.workflow.clone(),
            workflow_id: start
                .source
                .get("workflowId")
                .and_then(Value::as_str)
                .map(str::to_string),
            started_at: start.started_at,
            completed_steps: 0,
            waiting: None,
            end: None,
        }
    }

    /// The summary of a journal read back.
    pub fn from_state(state: &JournalState) -> Self {
        Self {
            completed_steps: state.completed,
            waiting: state.waiting.clone(),
            end: state.end.clone(),
            usage: state.usage(),
            ..Self::of(&state.start)
        }
    }
}

/// A journal read back.
#[derive(Debug, Clone, PartialEq)]
pub struct JournalState {
    pub start: RunStart,
    pub recorded: Recorded,
    /// The wait not yet answered, if the run stopped at one.
    pub waiting: Option<Waiting>,
    pub end: Option<RunEnd>,
    /// The journal outgrew its budget: the run cannot be resumed from it.
    pub truncated: bool,
    /// Completed steps at the top level.
    pub completed: usize,
    /// How each step ended, by [`trace_key`], in the order they ended.
    pub traces: IndexMap<String, StepTrace>,
    /// The run's output, when it completed with one (and it was not too large to keep).
    pub output: Option<Value>,
}

impl JournalState {
    fn new(start: RunStart) -> Self {
        Self {
            start,
            recorded: Recorded::default(),
            waiting: None,
            end: None,
            truncated: false,
            completed: 0,
            traces: IndexMap::new(),
            output: None,
        }
    }

    /// What the top-level steps' model calls used, when any step reported usage.
    pub fn usage(&self) -> Option<Usage> {
        let mut total: Option<Usage> = None;
        for (key, trace) in &self.traces {
            if let (false, Some(u)) = (key.contains('/'), &trace.usage) {
                total.get_or_insert_with(Usage::default).add(u);
            }
        }
        total
    }
}

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// One journal line for `entry` at `at`.
pub fn entry_line(at: &[String], entry: Entry<'_>) -> Value {
    match entry {
        Entry::Step { id, entry, undo } => {
            let output = entry.get("output").unwrap_or(&Value::Null);
            json!({"t": "step", "at": at, "id": id, "output": output, "undo": undo})
        }
        Entry::Failed { id, error } => json!({"t": "failed", "at": at, "id": id, "error": error}),
        Entry::Item { id, index, output } => {
            json!({"t": "item", "at": at, "id": id, "i": index, "output": output})
        }
        Entry::Waiting {
            id,
            message,
            expects,
            deadline_ms,
        } => json!({"t": "waiting", "at": at, "id": id, "message": message,
                    "expects": expects, "deadlineMs": deadline_ms}),
        Entry::Compensated { id, ok, error } => {
            json!({"t": "compensated", "at": at, "id": id, "ok": ok, "error": error})
        }
    }
}

/// The `trace` line of step `id` within `at`, serialised by reference: `inputs` kept when at
/// most [`MAX_TRACE_INPUTS`] bytes, else noted by size.
pub fn trace_line<'a>(
    at: &'a [String],
    id: &'a str,
    trace: &'a StepTrace,
    inputs: Option<&'a Value>,
) -> impl Serialize + 'a {
    #[derive(Serialize)]
    #[serde(untagged)]
    enum Inputs<'a> {
        Kept(&'a Value),
        Omitted(Value),
    }
    #[derive(Serialize)]
    struct Traced<'a> {
        #[serde(flatten)]
        trace: &'a StepTrace,
        #[serde(skip_serializing_if = "Option::is_none")]
        inputs: Option<Inputs<'a>>,
    }
    #[derive(Serialize)]
    struct TraceLine<'a> {
        t: &'static str,
        at: &'a [String],
        id: &'a str,
        trace: Traced<'a>,
    }
    let inputs = inputs.map(|v| {
        if trace::fits(v, MAX_TRACE_INPUTS) {
            Inputs::Kept(v)
        } else {
            Inputs::Omitted(json!({"$omitted": format!("over {MAX_TRACE_INPUTS} bytes")}))
        }
    });
    TraceLine {
        t: "trace",
        at,
        id,
        trace: Traced { trace, inputs },
    }
}

/// The `end` line: how the run ended, with its output when at most [`MAX_KEPT_OUTPUT`] bytes.
pub fn end_line(end: &RunEnd, output: Option<&Value>) -> Value {
    let output = output.filter(|o| trace::fits(o, MAX_KEPT_OUTPUT));
    json!({"t": "end", "end": end, "output": output})
}

/// A journal file being written. Entries go to a writer thread, which serialises each as one
/// line (a step's output straight from the run's context, never copied) and writes them in
/// order, flushing whenever it has caught up — so the run does not wait for its journal, and a
/// killed process leaves at most a torn last line, which reading ignores. Waits, answers and
/// the end are synced to disk before they return. Past its byte budget the journal writes one
/// `truncated` line and nothing more.
pub struct FileJournal {
    tx: Mutex<Option<mpsc::Sender<Job>>>,
    writer: Mutex<Option<std::thread::JoinHandle<()>>>,
    /// The run's summary, and the directory it is written to.
    meta: Mutex<Meta>,
    dir: Arc<Dir>,
}

/// One line for the writer thread, and whether to sync it.
enum Job {
    Line(Line),
    /// Flush, sync, and say so.
    Sync(mpsc::Sender<()>),
}

/// A journal line, owned, to be serialised on a writer thread (the file journal's, or another
/// store's that writes the same lines).
pub enum Line {
    /// A completed step: `entry` is its context entry (`{output}`).
    Step {
        at: Vec<String>,
        id: String,
        entry: Arc<Value>,
        undo: Option<UndoCall>,
    },
    /// How a step ended: `inputs` are serialised (or noted by size) on the writer thread.
    Trace {
        at: Vec<String>,
        id: String,
        trace: Box<StepTrace>,
        inputs: Option<Arc<Value>>,
    },
    Value(Value),
}

/// A completed step's line as written.
#[derive(Serialize)]
struct StepLine<'a> {
    t: &'static str,
    at: &'a [String],
    id: &'a str,
    output: &'a Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    undo: Option<&'a UndoCall>,
}

impl Line {
    /// Its entry type (`step`, `trace`, `waiting`, …).
    pub fn t(&self) -> &str {
        match self {
            Line::Step { .. } => "step",
            Line::Trace { .. } => "trace",
            Line::Value(v) => v.get("t").and_then(Value::as_str).unwrap_or_default(),
        }
    }

    /// Append it as JSON to `out` (without the newline).
    pub fn write(&self, out: &mut Vec<u8>) -> serde_json::Result<()> {
        static NULL: Value = Value::Null;
        match self {
            Line::Step {
                at,
                id,
                entry,
                undo,
            } => serde_json::to_writer(
                &mut *out,
                &StepLine {
                    t: "step",
                    at,
                    id,
                    output: entry.get("output").unwrap_or(&NULL),
                    undo: undo.as_ref(),
                },
            ),
            Line::Trace {
                at,
                id,
                trace,
                inputs,
            } => serde_json::to_writer(&mut *out, &trace_line(at, id, trace, inputs.as_deref())),
            Line::Value(v) => serde_json::to_writer(&mut *out, v),
        }
    }
}

impl FileJournal {
    fn new(file: File, written: u64, limit: u64, meta: Meta, dir: Arc<Dir>) -> Self {
        let (tx, rx) = mpsc::channel::<Job>();
        let writer = std::thread::Builder::new()
            .name("vai-journal".into())
            .spawn(move || write_lines(file, written, limit, &rx))
            .ok();
        Self {
            tx: Mutex::new(Some(tx)),
            writer: Mutex::new(writer),
            meta: Mutex::new(meta),
            dir,
        }
    }

    /// Change the summary and write it beside the journal.
    fn update_meta(&self, change: impl FnOnce(&mut Meta)) {
        let mut meta = self.meta.lock().unwrap_or_else(|e| e.into_inner());
        change(&mut meta);
        if let Ok(bytes) = serde_json::to_vec(&*meta) {
            let _ = self.dir.write(
                &meta_name(&meta.run_id),
                &bytes,
                FileMode::Exactly(crate::fsutil::PRIVATE_FILE),
                OverLink::Replace,
            );
        }
    }

    fn send(&self, line: Line, sync: bool) {
        let tx = self.tx.lock().unwrap_or_else(|e| e.into_inner());
        let Some(tx) = tx.as_ref() else {
            return;
        };
        if sync {
            let (done, wait) = mpsc::channel();
            if tx.send(Job::Line(line)).is_ok() && tx.send(Job::Sync(done)).is_ok() {
                let _ = wait.recv();
            }
        } else {
            let _ = tx.send(Job::Line(line));
        }
    }

    /// Make everything sent so far durable before returning.
    fn send_sync(&self) {
        let tx = self.tx.lock().unwrap_or_else(|e| e.into_inner());
        let Some(tx) = tx.as_ref() else {
            return;
        };
        let (done, wait) = mpsc::channel();
        if tx.send(Job::Sync(done)).is_ok() {
            let _ = wait.recv();
        }
    }

    /// Append `line` (a JSON object); `sync` makes it durable before returning.
    pub fn append(&self, line: Value, sync: bool) {
        self.send(Line::Value(line), sync);
    }

    /// Record an answer to the `yield` `step_id` within `within`.
    pub fn answer(&self, within: &[String], step_id: &str, value: &Value) {
        self.append(
            json!({"t": "answer", "at": within, "id": step_id, "value": value, "atMs": now_ms()}),
            true,
        );
        self.update_meta(|m| m.waiting = None);
    }

    /// Record that a process took the run up again.
    pub fn resumed(&self) {
        self.append(json!({"t": "resumed", "atMs": now_ms()}), false);
    }

    /// Record the run's end.
    pub fn end(&self, status: &str, error: Option<&str>) {
        self.write_end(
            RunEnd {
                status: status.to_string(),
                error: error.map(str::to_string),
                ended_at: now_ms(),
                duration_ms: None,
            },
            None,
        );
    }

    /// Record how step `id` within `at` ended (see `history::HistorySink`).
    pub fn trace(&self, at: &[String], id: &str, trace: StepTrace, inputs: Option<Arc<Value>>) {
        if at.is_empty()
            && let Some(usage) = &trace.usage
        {
            let mut meta = self.meta.lock().unwrap_or_else(|e| e.into_inner());
            meta.usage.get_or_insert_with(Usage::default).add(usage);
        }
        self.send(
            Line::Trace {
                at: at.to_vec(),
                id: id.to_string(),
                trace: Box::new(trace),
                inputs,
            },
            false,
        );
    }

    /// Record how `result` ended the run: its status, error and duration, and its output when
    /// that is at most [`MAX_KEPT_OUTPUT`] bytes.
    pub fn finish(&self, result: &crate::exec::RunResult) {
        let end = RunEnd {
            status: result.status.as_str().to_string(),
            error: result.error.clone(),
            ended_at: now_ms(),
            duration_ms: Some(result.duration_ms),
        };
        self.write_end(end, result.output.as_ref());
    }

    fn write_end(&self, end: RunEnd, output: Option<&Value>) {
        self.append(end_line(&end, output), true);
        self.update_meta(|m| {
            m.waiting = None;
            m.end = Some(end);
        });
    }
}

/// Everything sent is written before the file (and its lock) is let go.
impl Drop for FileJournal {
    fn drop(&mut self) {
        drop(self.tx.lock().unwrap_or_else(|e| e.into_inner()).take());
        if let Some(writer) = self.writer.lock().unwrap_or_else(|e| e.into_inner()).take() {
            let _ = writer.join();
        }
    }
}

/// The writer thread: lines in order, flushed whenever no more are waiting.
fn write_lines(file: File, mut written: u64, limit: u64, rx: &mpsc::Receiver<Job>) {
    let mut out = std::io::BufWriter::with_capacity(1 << 20, file);
    let mut line = Vec::new();
    let mut full = false;
    while let Ok(job) = rx.recv() {
        let mut next = Some(job);
        while let Some(job) = next.take() {
            match job {
                Job::Line(l) if !full => {
                    line.clear();
                    if l.write(&mut line).is_err() {
                        continue;
                    }
                    line.push(b'\n');
                    if written + line.len() as u64 > limit {
                        full = true;
                        let _ = out.write_all(b"{\"t\":\"truncated\"}\n");
                    } else if out.write_all(&line).is_ok() {
                        written += line.len() as u64;
                    }
                }
                Job::Line(_) => {}
                Job::Sync(done) => {
                    let _ = out.flush();
                    let _ = out.get_ref().sync_data();
                    let _ = done.send(());
                }
            }
            next = rx.try_recv().ok();
        }
        let _ = out.flush();
    }
    let _ = out.flush();
}

impl Journal for FileJournal {
    fn record(&self, at: &[String], entry: Entry<'_>) {
        match entry {
            Entry::Step { id, entry, undo } => {
                if at.is_empty() {
                    self.meta
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .completed_steps += 1;
                }
                self.send(
                    Line::Step {
                        at: at.to_vec(),
                        id: id.to_string(),
                        entry: entry.clone(),
                        undo: undo.cloned(),
                    },
                    false,
                );
            }
            Entry::Waiting {
                id,
                message,
                expects,
                deadline_ms,
            } => {
                self.send(Line::Value(entry_line(at, entry)), true);
                let waiting = Waiting {
                    within: at.to_vec(),
                    step_id: id.to_string(),
                    message: message.to_string(),
                    expects: expects.clone(),
                    deadline_ms,
                };
                self.update_meta(|m| m.waiting = Some(waiting));
            }
            other => self.send(Line::Value(entry_line(at, other)), false),
        }
    }
}

/// A journal kept in memory: for a run that waits in the process that runs it (the
/// playground), folded the way a file is read back.
#[derive(Default)]
pub struct MemoryJournal {
    lines: Mutex<Vec<Value>>,
}

impl MemoryJournal {
    /// Record an answer to the `yield` `step_id` within `within`.
    pub fn answer(&self, within: &[String], step_id: &str, value: &Value) {
        self.lines
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(json!({"t": "answer", "at": within, "id": step_id, "value": value}));
    }

    /// What the entries so far replay.
    pub fn recorded(&self) -> Recorded {
        let mut state = JournalState::new(RunStart::default());
        for line in self.lines.lock().unwrap_or_else(|e| e.into_inner()).iter() {
            // Lines this module wrote itself always fold.
            let _ = fold(&mut state, line);
        }
        state.recorded
    }
}

impl Journal for MemoryJournal {
    fn record(&self, at: &[String], entry: Entry<'_>) {
        self.lines
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(entry_line(at, entry));
    }
}

/// Why a journal cannot be read or a run cannot be taken up.
#[derive(Debug, thiserror::Error)]
pub enum JournalError {
    #[error("no run \"{0}\"")]
    NotFound(String),
    #[error("run \"{0}\" is being run by another process")]
    Busy(String),
    /// Another process holds the run's lease (a shared store): `holder` says who, and until when.
    #[error("run \"{id}\" is being run by another process ({holder})")]
    Leased { id: String, holder: String },
    /// The store itself failed (a shared store that did not answer, or refused a write).
    #[error("{0}")]
    Store(String),
    #[error("the journal of run \"{id}\" cannot be used: {why}")]
    Corrupt { id: String, why: String },
    #[error(transparent)]
    File(#[from] FileError),
    #[error("cannot use the runs directory: {0}")]
    Io(#[from] std::io::Error),
}

impl JournalError {
    /// The store itself failed — a shared store that did not answer, a runs directory or a
    /// journal file that could not be read — rather than the run: not the run's fault, and
    /// the words (a path, a server's address) are for the log, not a client.
    pub fn is_store_failure(&self) -> bool {
        matches!(
            self,
            JournalError::Store(_) | JournalError::Io(_) | JournalError::File(FileError::Io { .. })
        )
    }
}

/// Fold journal `text` back into a `JournalState`. A torn last line (a process killed while
/// writing) is ignored; any other bad line, a missing header or another version is an error.
pub fn read(text: &str) -> Result<JournalState, String> {
    let mut lines = text.lines().enumerate().peekable();
    let header = match lines.next() {
        Some((_, line)) => serde_json::from_str::<Value>(line)
            .map_err(|e| format!("its first line is not JSON ({e})"))?,
        None => return Err("it is empty".into()),
    };
    if header.get("t").and_then(Value::as_str) != Some("run") {
        return Err("it does not start with a run header".into());
    }
    let version = header.get("v").and_then(Value::as_u64).unwrap_or(0);
    if version != VERSION {
        return Err(format!(
            "it is version {version} of the journal format; this vai reads version {VERSION}"
        ));
    }
    let start: RunStart = serde_json::from_value(header["start"].clone())
        .map_err(|e| format!("its header is not valid: {e}"))?;
    let mut state = JournalState::new(start);
    while let Some((n, line)) = lines.next() {
        let last = lines.peek().is_none();
        let value: Value = match serde_json::from_str(line) {
            Ok(v) => v,
            Err(_) if last && !text.ends_with('\n') => break,
            Err(e) => return Err(format!("line {} is not JSON ({e})", n + 1)),
        };
        fold(&mut state, &value).map_err(|why| format!("line {}: {why}", n + 1))?;
    }
    Ok(state)
}

fn fold(state: &mut JournalState, line: &Value) -> Result<(), String> {
    let t = line.get("t").and_then(Value::as_str).unwrap_or_default();
    let at: Vec<String> = match line.get("at") {
        None | Some(Value::Null) => Vec::new(),
        Some(v) => serde_json::from_value(v.clone()).map_err(|_| "bad \"at\"")?,
    };
    let id = || {
        line.get("id")
            .and_then(Value::as_str)
            .map(str::to_string)
            .ok_or_else(|| format!("a \"{t}\" line without an id"))
    };
    let level = state.recorded.level_mut(&at);
    match t {
        "step" => {
            let id = id()?;
            let undo: Option<UndoCall> = match line.get("undo") {
                None | Some(Value::Null) => None,
                Some(u) => Some(serde_json::from_value(u.clone()).map_err(|e| e.to_string())?),
            };
            let output = line.get("output").cloned().unwrap_or(Value::Null);
            level.items.remove(&id);
            level.order.push(id.clone());
            level
                .steps
                .insert(id, RecordedStep::Completed { output, undo });
            if at.is_empty() {
                state.completed += 1;
            }
        }
        "failed" => {
            let id = id()?;
            let error = line["error"].as_str().unwrap_or_default().to_string();
            level.steps.insert(id, RecordedStep::Failed { error });
        }
        "item" => {
            let id = id()?;
            let index = line["i"].as_u64().ok_or("an item without an index")? as usize;
            let output = line.get("output").cloned().unwrap_or(Value::Null);
            level.items.entry(id).or_default().insert(index, output);
        }
        "waiting" => {
            let id = id()?;
            let deadline = line.get("deadlineMs").and_then(Value::as_u64);
            level.waits.insert(id.clone(), deadline);
            state.waiting = Some(Waiting {
                within: at,
                step_id: id,
                message: line["message"].as_str().unwrap_or_default().to_string(),
                expects: line.get("expects").cloned().unwrap_or(Value::Null),
                deadline_ms: deadline,
            });
        }
        "answer" => {
            let id = id()?;
            level.answers.insert(
                id.clone(),
                line.get("value").cloned().unwrap_or(Value::Null),
            );
            if state
                .waiting
                .as_ref()
                .is_some_and(|w| w.step_id == id && w.within == at)
            {
                state.waiting = None;
            }
        }
        "compensated" => {
            let id = id()?;
            level
                .compensated
                .insert(id, line["ok"].as_bool().unwrap_or(false));
        }
        "end" => {
            state.end =
                Some(serde_json::from_value(line["end"].clone()).map_err(|e| e.to_string())?);
            state.output = line.get("output").filter(|o| !o.is_null()).cloned();
            state.waiting = None;
        }
        "trace" => {
            let key = trace_key(&at, &id()?);
            let trace: StepTrace = serde_json::from_value(line["trace"].clone())
                .map_err(|e| format!("a bad trace: {e}"))?;
            state.traces.shift_remove(&key);
            state.traces.insert(key, trace);
        }
        "truncated" => state.truncated = true,
        "resumed" => {}
        other => return Err(format!("unknown entry \"{other}\"")),
    }
    Ok(())
}

/// What `vai runs list` shows of one run.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RunInfo {
    pub run_id: String,
    pub workflow: String,
    /// The playground library id the run's workflow came from, when it says.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub workflow_id: Option<String>,
    /// `running`, `waiting`, `interrupted`, `completed`, `failed`, `cancelled`, or `unreadable`.
    pub status: String,
    pub started_at: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ended_at: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Steps completed at the top level.
    pub completed_steps: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub waiting: Option<Waiting>,
    /// The definition's version ([`definition_hash`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hash: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<RerunFrom>,
    /// The inputs in one short line.
    pub inputs: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<u64>,
    /// What its top-level steps' model calls used and cost.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub usage: Option<Usage>,
}

impl RunInfo {
    /// A run as its summary tells it; `held`: a process runs it now. Ended, waiting, running, or
    /// interrupted (nobody holds it and it never ended: its process died).
    pub fn of(meta: Meta, held: bool) -> RunInfo {
        let status = match (&meta.end, &meta.waiting, held) {
            (Some(end), _, _) => end.status.clone(),
            (None, Some(_), _) => "waiting".into(),
            (None, None, true) => "running".into(),
            (None, None, false) => "interrupted".into(),
        };
        RunInfo {
            run_id: meta.run_id,
            workflow: meta.workflow,
            workflow_id: meta.workflow_id,
            status,
            started_at: meta.started_at,
            ended_at: meta.end.as_ref().map(|e| e.ended_at),
            duration_ms: meta.end.as_ref().map(|e| e.took(meta.started_at)),
            error: meta.end.and_then(|e| e.error),
            completed_steps: meta.completed_steps,
            waiting: meta.waiting,
            hash: meta.hash,
            from: meta.from,
            inputs: meta.inputs,
            usage: meta.usage,
        }
    }

    /// A run that cannot be read, and why.
    pub fn unreadable(id: &str, error: String) -> RunInfo {
        RunInfo {
            run_id: id.to_string(),
            workflow: String::new(),
            workflow_id: None,
            status: "unreadable".into(),
            started_at: 0,
            ended_at: None,
            error: Some(error),
            completed_steps: 0,
            waiting: None,
            hash: None,
            from: None,
            inputs: String::new(),
            duration_ms: None,
            usage: None,
        }
    }
}

/// How much history the journal keeps: finished runs beyond the newest `keep`, older than
/// `max_age`, or past `max_bytes` together (oldest first) are pruned. Waiting and interrupted
/// runs are always kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Retention {
    pub keep: usize,
    pub max_age: Duration,
    pub max_bytes: u64,
}

impl Retention {
    /// What pruning before a run starts keeps: one finished run fewer, so that once the new
    /// run ends, at most `keep` finished runs remain.
    pub fn making_room(&self) -> Self {
        Self {
            keep: self.keep.saturating_sub(1),
            ..*self
        }
    }
}

impl Default for Retention {
    fn default() -> Self {
        Self {
            keep: KEEP_FINISHED,
            max_age: MAX_AGE,
            max_bytes: KEEP_FINISHED_BYTES,
        }
    }
}

/// What pruning removed.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Pruned {
    pub run_ids: Vec<String>,
    pub bytes: u64,
}

/// The `runs/` directory of the data directory.
pub struct RunStore {
    dir: Arc<Dir>,
    retention: Retention,
}

impl RunStore {
    /// Open (creating, owner-only) `runs/` in `data_dir`.
    pub fn open(data_dir: &std::path::Path) -> Result<Self, JournalError> {
        let dir = Dir::create_private(&data_dir.join("runs"))?;
        Ok(Self {
            dir: Arc::new(dir),
            retention: Retention::default(),
        })
    }

    /// Keep history within `retention` (applied whenever a run starts).
    pub fn with_retention(mut self, retention: Retention) -> Self {
        self.retention = retention;
        self
    }

    pub fn retention(&self) -> Retention {
        self.retention
    }

    pub fn path(&self) -> &std::path::Path {
        self.dir.path()
    }

    /// Start the journal of a new run (locked by this process), pruning old finished runs.
    /// `limit`: the most bytes the journal may take.
    pub fn create(&self, start: &RunStart, limit: u64) -> Result<FileJournal, JournalError> {
        self.prune(&self.retention.making_room());
        let name = file_name(&start.run_id)?;
        let file = self.dir.create_new(&name)?;
        lock(&file).map_err(|_| JournalError::Busy(start.run_id.clone()))?;
        let journal = FileJournal::new(file, 0, limit.max(4096), Meta::of(start), self.dir.clone());
        journal.append(json!({"t": "run", "v": VERSION, "start": start}), true);
        journal.update_meta(|_| {});
        Ok(journal)
    }

    /// Take up run `id`: lock its journal (refused when another process holds it) and read it.
    pub fn take(&self, id: &str, limit: u64) -> Result<(JournalState, FileJournal), JournalError> {
        let name = file_name(id)?;
        let file = self
            .dir
            .open_append(&name)?
            .ok_or_else(|| JournalError::NotFound(id.to_string()))?;
        lock(&file).map_err(|_| JournalError::Busy(id.to_string()))?;
        let state = self.read(id)?;
        let written = file.metadata().map(|m| m.len()).unwrap_or(0);
        let meta = Meta::from_state(&state);
        let journal = FileJournal::new(
            file,
            written,
            limit.max(written + 4096),
            meta,
            self.dir.clone(),
        );
        Ok((state, journal))
    }

    /// Read run `id`'s journal (without taking it).
    pub fn read(&self, id: &str) -> Result<JournalState, JournalError> {
        let name = file_name(id)?;
        let bytes = self
            .dir
            .read(&name, MAX_JOURNAL_BYTES)?
            .ok_or_else(|| JournalError::NotFound(id.to_string()))?;
        let text = String::from_utf8_lossy(&bytes);
        read(&text).map_err(|why| JournalError::Corrupt {
            id: id.to_string(),
            why,
        })
    }

    /// Every run, newest first.
    pub fn list(&self) -> Vec<RunInfo> {
        let mut out: Vec<RunInfo> = self.ids().into_iter().map(|id| self.info(&id)).collect();
        out.sort_by_key(|r| std::cmp::Reverse(r.started_at));
        out
    }

    /// Run `id`'s summary, when it has one.
    fn meta(&self, id: &str) -> Option<Meta> {
        if !valid_id(id) {
            return None;
        }
        let bytes = self.dir.read(&meta_name(id), 1 << 20).ok()??;
        serde_json::from_slice(&bytes).ok()
    }

    /// What run `id` is now. A finished run, or one a process is writing, is described by its
    /// summary alone; any other is read whole (to count what a process that died completed).
    pub fn info(&self, id: &str) -> RunInfo {
        let held = self.is_held(id);
        let meta = match self.meta(id) {
            // Finished, or being written right now: its summary, not a read of the journal.
            Some(meta) if meta.end.is_some() || held => meta,
            _ => match self.read(id) {
                Ok(state) => Meta::from_state(&state),
                Err(e) => return RunInfo::unreadable(id, e.to_string()),
            },
        };
        RunInfo::of(meta, held)
    }

    fn ids(&self) -> Vec<String> {
        self.dir
            .entries()
            .unwrap_or_default()
            .into_iter()
            .filter(|e| e.is_file)
            .filter_map(|e| e.name.strip_suffix(SUFFIX).map(str::to_string))
            .filter(|id| valid_id(id))
            .collect()
    }

    /// Whether a process holds run `id` now.
    fn is_held(&self, id: &str) -> bool {
        let Ok(name) = file_name(id) else {
            return false;
        };
        match self.dir.open_append(&name) {
            Ok(Some(file)) => match lock(&file) {
                Ok(()) => {
                    let _ = rustix::fs::flock(&file, rustix::fs::FlockOperation::Unlock);
                    false
                }
                Err(_) => true,
            },
            _ => false,
        }
    }

    /// Remove finished runs beyond the newest `keep`, those older than `max_age`, and the
    /// oldest once the finished ones take more than `max_bytes`. Waiting and interrupted runs
    /// are kept: someone may still take them up.
    pub fn prune(&self, retention: &Retention) -> Pruned {
        let Retention {
            keep,
            max_age,
            max_bytes,
        } = *retention;
        let mut pruned = Pruned::default();
        let now = now_ms();
        let sizes: std::collections::HashMap<String, u64> = self
            .dir
            .entries()
            .unwrap_or_default()
            .into_iter()
            .map(|e| (e.name, e.len))
            .collect();
        let mut finished: Vec<(String, u64)> = self
            .ids()
            .into_iter()
            .filter_map(|id| {
                let end = match self.meta(&id) {
                    Some(meta) => meta.end?,
                    None => self.read(&id).ok()?.end?,
                };
                Some((id, end.ended_at))
            })
            .collect();
        finished.sort_by_key(|f| std::cmp::Reverse(f.1));
        let mut bytes = 0;
        for (n, (id, ended)) in finished.iter().enumerate() {
            let old = now.saturating_sub(*ended) > max_age.as_millis() as u64;
            let size = file_name(id)
                .ok()
                .and_then(|name| sizes.get(&name))
                .copied()
                .unwrap_or(0);
            bytes += size;
            // The newest finished run stays, whatever its size.
            if (n >= keep || old || (n > 0 && bytes > max_bytes))
                && let Ok(name) = file_name(id)
                && self.dir.remove(&name).is_ok()
            {
                let _ = self.dir.remove(&meta_name(id));
                pruned.run_ids.push(id.clone());
                pruned.bytes += size;
            }
        }
        pruned
    }
}

/// The summary's file name of run `id` (a valid id).
fn meta_name(id: &str) -> String {
    format!("{id}.meta.json")
}

/// Take the exclusive lock on a journal without waiting.
fn lock(file: &File) -> rustix::io::Result<()> {
    rustix::fs::flock(file, rustix::fs::FlockOperation::NonBlockingLockExclusive)
}

/// Run ids are letters, digits, `-` and `_` (at most 64), so a file name never escapes.
pub fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 64
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

fn file_name(id: &str) -> Result<String, JournalError> {
    if valid_id(id) {
        Ok(format!("{id}{SUFFIX}"))
    } else {
        Err(JournalError::NotFound(crate::value::truncate_chars(id, 64)))
    }
}

/// A new run id: the time and a few random bits, in hex.
pub fn new_run_id() -> String {
    format!("r{:x}{:06x}", now_ms(), random_bits())
}

/// 24 random bits for a run id: the time hashed with the process's random hasher keys, so two
/// processes (or machines sharing a run store) starting a run in the same millisecond differ.
pub fn random_bits() -> u32 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(now_ms());
    (h.finish() & 0xff_ffff) as u32
}

/// The definition's differences from `other`, as a person reads them: steps added, removed or
/// changed, and other top-level changes. Empty when they are the same.
pub fn changes(old: &Value, new: &Value) -> Vec<String> {
    if old == new {
        return Vec::new();
    }
    let steps = |v: &Value| -> Vec<(String, Value)> {
        v.get("steps")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .map(|s| {
                        let id = s.get("id").and_then(Value::as_str).unwrap_or("?");
                        (id.to_string(), s.clone())
                    })
                    .collect()
            })
            .unwrap_or_default()
    };
    let (a, b) = (steps(old), steps(new));
    let mut out = Vec::new();
    for (id, step) in &a {
        match b.iter().find(|(i, _)| i == id) {
            None => out.push(format!("step \"{id}\" was removed")),
            Some((_, s)) if s != step => out.push(format!("step \"{id}\" changed")),
            _ => {}
        }
    }
    for (id, _) in &b {
        if !a.iter().any(|(i, _)| i == id) {
            out.push(format!("step \"{id}\" was added"));
        }
    }
    for key in ["inputs", "output", "defaults"] {
        if old.get(key) != new.get(key) {
            out.push(format!("\"{key}\" changed"));
        }
    }
    if out.is_empty() {
        out.push("the definition changed (names, descriptions or layout)".into());
    }
    out
}

#[cfg(test)]
mod tests;
