//! One run's events turned into spans, in one trace: the run, each step (started to ended; a
//! skipped step is a zero-length span), each attempt of a step that was retried, each item of a
//! `forEach` step, each tool call of an agent, each compensation, and each child run of a
//! `workflow` step (one per `forEach` item) under that step, nested as deep as workflows call workflows. A span is handed back
//! when it ends; nothing here does I/O, so the whole mapping is tested with a fake clock. Runs
//! and compensations are opened and ended in `runs`, steps and what happens within them in
//! `steps`.

mod runs;
mod steps;

use opentelemetry::trace::{
    SpanContext, SpanId, SpanKind, Status, TraceFlags, TraceId, TraceState,
};
use opentelemetry::{InstrumentationScope, KeyValue};
use opentelemetry_sdk::trace::{IdGenerator, RandomIdGenerator, SpanData, SpanEvents, SpanLinks};
use std::collections::HashMap;
use std::time::SystemTime;
use vai_workflow::RunEvent;
use vai_workflow::value::truncate_chars;

/// Longest error message or summary kept on a span, in characters.
const TEXT_MAX: usize = 1000;

/// Where a run sits: the segments from the top-level run down to it, as the engine names them
/// (`book`, or `book[2]` for item 2 of a `forEach`); empty for the top-level run.
type Level = Vec<String>;

/// What an open span is, within its run.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Key {
    Run(Level),
    Step(Level, String),
    Compensation(Level, String),
}

impl Key {
    fn level(&self) -> &[String] {
        match self {
            Key::Run(l) | Key::Step(l, _) | Key::Compensation(l, _) => l,
        }
    }
}

/// A span that has started and not ended.
struct Open {
    id: SpanId,
    parent: SpanId,
    name: String,
    start: SystemTime,
    attributes: Vec<KeyValue>,
    /// The step's tool; empty for other spans.
    tool: String,
    /// Attempts of the step that failed and were retried.
    retries: u32,
    /// When the step's current attempt began (after the last retry's delay).
    attempt_start: SystemTime,
}

impl Open {
    fn new(id: SpanId, parent: SpanId, name: String, start: SystemTime) -> Self {
        Open {
            id,
            parent,
            name,
            start,
            attributes: Vec::new(),
            tool: String::new(),
            retries: 0,
            attempt_start: start,
        }
    }
}

/// How a span ends: its status, the word for it (`vai.step.status`, `vai.run.status`) and any
/// more attributes.
struct End {
    status: Status,
    state: &'static str,
    attributes: Vec<KeyValue>,
}

impl End {
    fn new(status: Status, state: &'static str) -> Self {
        End {
            status,
            state,
            attributes: Vec::new(),
        }
    }

    fn failed(error: &str, state: &'static str) -> Self {
        let error = truncate_chars(error, TEXT_MAX);
        End {
            status: Status::error(error.clone()),
            state,
            attributes: vec![KeyValue::new("vai.error", error)],
        }
    }

    fn with(mut self, attribute: KeyValue) -> Self {
        self.attributes.push(attribute);
        self
    }
}

/// The spans of one run.
pub(crate) struct RunSpans {
    trace_id: TraceId,
    run_id: String,
    ids: RandomIdGenerator,
    scope: InstrumentationScope,
    open: HashMap<Key, Open>,
    /// The top-level workflow's name, for a leg of the run that starts without `run_started`
    /// (a cancel while waiting for a person ends the run with compensations only).
    workflow: String,
}

impl RunSpans {
    pub(crate) fn new(run_id: &str, scope: InstrumentationScope) -> Self {
        let ids = RandomIdGenerator::default();
        RunSpans {
            trace_id: ids.new_trace_id(),
            run_id: run_id.to_string(),
            ids,
            scope,
            open: HashMap::new(),
            workflow: String::new(),
        }
    }

    #[cfg(test)]
    pub(crate) fn trace_id(&self) -> TraceId {
        self.trace_id
    }

    /// Take `event`, which happened at `now`; the spans it ended.
    pub(crate) fn record(&mut self, event: &RunEvent, now: SystemTime) -> Vec<SpanData> {
        self.apply(&mut Vec::new(), event, now)
    }

    /// End every span still open, as `unfinished` (the run's sink went away mid-run).
    pub(crate) fn abandon(&mut self, now: SystemTime) -> Vec<SpanData> {
        let keys: Vec<Key> = self.open.keys().cloned().collect();
        keys.into_iter()
            .filter_map(|key| self.end(&key, now, End::new(Status::Unset, "unfinished")))
            .collect()
    }

    /// `event` of the run at `level`: a child run's events are unwrapped one level deeper.
    fn apply(&mut self, level: &mut Level, event: &RunEvent, now: SystemTime) -> Vec<SpanData> {
        match event {
            RunEvent::Child {
                step_id,
                item,
                event,
            } => {
                level.push(match item {
                    Some(i) => format!("{step_id}[{i}]"),
                    None => step_id.clone(),
                });
                let ended = self.apply(level, event, now);
                level.pop();
                ended
            }
            RunEvent::RunStarted {
                workflow,
                total_steps,
                ..
            } => self.run_started(level, workflow, *total_steps, now),
            RunEvent::StepStarted {
                step_id,
                name,
                tool,
            } => self.step_started(level, step_id, name, tool, now),
            RunEvent::StepRetrying {
                step_id,
                attempt,
                error,
                delay_ms,
            } => self
                .retrying(level, step_id, *attempt, error, *delay_ms, now)
                .into_iter()
                .collect(),
            RunEvent::ItemEnded {
                step_id,
                index,
                duration_ms,
                error,
            } => self
                .item_ended(level, step_id, *index, *duration_ms, error.as_deref(), now)
                .into_iter()
                .collect(),
            RunEvent::StepCompleted {
                step_id,
                summary,
                usage,
                backend,
                entry,
                ..
            } => self.step_completed(
                level,
                step_id,
                summary,
                usage.as_ref(),
                backend.as_deref(),
                entry,
                now,
            ),
            RunEvent::StepFailed {
                step_id,
                error,
                continued,
                ..
            } => {
                let end = End::failed(error, "failed")
                    .with(KeyValue::new("vai.step.continued", *continued));
                self.step_ended(level, step_id, end, now)
            }
            RunEvent::StepCancelled { step_id } => {
                self.step_ended(level, step_id, End::new(Status::Unset, "cancelled"), now)
            }
            RunEvent::StepSkipped { step_id, reason } => {
                let reason = truncate_chars(reason, TEXT_MAX);
                let end = End::new(Status::Unset, "skipped")
                    .with(KeyValue::new("vai.step.skip_reason", reason));
                self.step_ended(level, step_id, end, now)
            }
            RunEvent::Compensating { step_id, tool } => {
                self.compensating(level, step_id, tool, now);
                Vec::new()
            }
            RunEvent::Compensated { step_id, ok, error } => self
                .compensated(level, step_id, *ok, error.as_deref(), now)
                .into_iter()
                .collect(),
            RunEvent::RunFinished {
                status,
                error,
                usage,
                ..
            } => self.run_finished(level, *status, error.as_deref(), usage.as_ref(), now),
            // Pauses, resumes, streamed text and waits change no span: a step that waits for
            // a person is open until its run ends (as `waiting`).
            RunEvent::Paused { .. }
            | RunEvent::Resumed { .. }
            | RunEvent::StepText { .. }
            | RunEvent::Waiting { .. } => Vec::new(),
        }
    }

    /// Open a span at `key` under `parent`, now.
    fn start(
        &mut self,
        key: Key,
        parent: SpanId,
        name: String,
        attributes: Vec<KeyValue>,
        now: SystemTime,
    ) -> SpanId {
        let id = self.ids.new_span_id();
        let open = Open {
            attributes,
            ..Open::new(id, parent, name, now)
        };
        self.open.insert(key, open);
        id
    }

    /// End the span at `key`, if it is open.
    fn end(&mut self, key: &Key, now: SystemTime, end: End) -> Option<SpanData> {
        let mut open = self.open.remove(key)?;
        let status_key = match key {
            Key::Run(_) => "vai.run.status",
            Key::Step(..) | Key::Compensation(..) => "vai.step.status",
        };
        open.attributes.push(KeyValue::new(status_key, end.state));
        open.attributes.extend(end.attributes);
        Some(self.data(open, now, end.status))
    }

    /// The exported form of `open`, ended at `end`.
    fn data(&self, open: Open, end: SystemTime, status: Status) -> SpanData {
        SpanData {
            span_context: SpanContext::new(
                self.trace_id,
                open.id,
                TraceFlags::SAMPLED,
                false,
                TraceState::default(),
            ),
            parent_span_id: open.parent,
            parent_span_is_remote: false,
            span_kind: SpanKind::Internal,
            name: open.name.into(),
            start_time: open.start,
            end_time: end.max(open.start),
            attributes: open.attributes,
            dropped_attributes_count: 0,
            events: SpanEvents::default(),
            links: SpanLinks::default(),
            status,
            instrumentation_scope: self.scope.clone(),
        }
    }
}

#[cfg(test)]
mod tests;
