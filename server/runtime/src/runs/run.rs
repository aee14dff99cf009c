//! One run as the server keeps it: its event log (seq from 1), the snapshot folded from those
//! events, each step's resolved inputs and output, and a broadcast channel for sockets. The
//! log, the snapshot and the channel change under one lock, so a subscriber gets a snapshot and
//! then exactly the events after it. Values are handed out as `Kept` handles and serialised
//! outside the lock. A step-through run also holds the handle that resumes it; its snapshot says
//! where it is paused, so every subscriber agrees.

use super::clock::now_ms;
use super::kept::{Kept, json_len};
use super::step_through::breakpoints;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use tokio::sync::broadcast;
use tokio_util::sync::CancellationToken;
use vai_contract::{
    CompensationState, INLINE_OUTPUT_LIMIT, PausedStep, RunOutput, RunSnapshot, RunSummary,
    ServerMessage, StepDetail, StepState, StepStatus, WaitingFor,
};
use vai_workflow::{EventSink, Resume, ResumeAction, RunEvent, Stepping};

/// Events a socket may fall behind by before it catches up from the log (which it does without
/// a gap, so a small ring costs nothing but a catch-up now and then).
const CHANNEL_CAPACITY: usize = 128;

/// One event as sockets receive it: its seq and its message, serialised once.
#[derive(Debug, Clone)]
pub struct Outgoing {
    pub seq: u64,
    pub json: Arc<str>,
    /// The run's last event (`run_finished`).
    pub last: bool,
}

/// A run, shared by the task that drives it, the routes and the sockets.
pub struct Run {
    pub id: String,
    pub cancel: CancellationToken,
    /// What was asked for, to turn the run into a test case.
    pub origin: RunOrigin,
    log: Mutex<Log>,
    tx: broadcast::Sender<Outgoing>,
    /// Resumes a step-through run.
    stepping: Option<Stepping>,
    /// Takes the answer a run waiting at a `yield` gets.
    answer: Mutex<AnswerSlot>,
}

/// Where an answer goes. The snapshot says the run waits (its `run_finished` is logged) a
/// moment before the run's task asks for the answer: an answer in between is kept for it.
/// Each wait (the seq of its `run_finished`) takes one answer.
#[derive(Default)]
struct AnswerSlot {
    tx: Option<tokio::sync::oneshot::Sender<Value>>,
    pending: Option<(u64, Value)>,
    answered: Option<u64>,
}

/// Why an answer was not taken.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AnswerError {
    NotWaiting,
    /// The answer does not satisfy the step's `expects`.
    Invalid(Vec<vai_workflow::expects::FieldError>),
}

/// Why a run could not be resumed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ResumeError {
    #[error("it was not started to step through")]
    NotSteppingThrough,
    /// Running between pauses, or ended.
    #[error("it is not paused")]
    NotPaused,
    /// New breakpoints out of bounds; the message names the field.
    #[error("{0}")]
    Breakpoints(String),
}

/// How a run was started.
#[derive(Debug, Clone, Default)]
pub struct RunOrigin {
    /// The inputs as given, before defaults and coercion.
    pub inputs: serde_json::Map<String, Value>,
    /// The version of the definition's stable text form.
    pub definition_version: String,
    /// Only one step ran, its upstream replayed.
    pub single_step: bool,
}

struct Log {
    events: Vec<Outgoing>,
    snapshot: RunSnapshot,
    /// The inputs each finished step ran with (as the engine recorded them) and full outputs,
    /// by step id, for the step route.
    inputs: HashMap<String, Kept>,
    outputs: HashMap<String, Kept>,
    /// The full run output, whatever its size.
    output: Option<Kept>,
}

/// One step as the step route sends it: everything but its values, and handles on those.
pub struct StepView {
    /// `inputs` and `output` are `None` here; the route splices the kept values in.
    pub detail: StepDetail,
    pub inputs: Option<Kept>,
    pub output: Option<Kept>,
}

impl Run {
    pub(crate) fn new(
        id: String,
        snapshot: RunSnapshot,
        origin: RunOrigin,
        stepping: Option<Stepping>,
    ) -> Arc<Self> {
        let (tx, _) = broadcast::channel(CHANNEL_CAPACITY);
        Arc::new(Self {
            id,
            cancel: CancellationToken::new(),
            origin,
            log: Mutex::new(Log {
                events: Vec::new(),
                snapshot,
                inputs: HashMap::new(),
                outputs: HashMap::new(),
                output: None,
            }),
            tx,
            stepping,
            answer: Mutex::new(AnswerSlot::default()),
        })
    }

    /// The run waits for an answer: `tx` takes it.
    pub(crate) fn await_answer(&self, tx: tokio::sync::oneshot::Sender<Value>) {
        let seq = self.snapshot().seq;
        let mut slot = self.answer.lock().unwrap_or_else(|e| e.into_inner());
        match slot.pending.take() {
            Some((at, answer)) if at == seq => {
                let _ = tx.send(answer);
            }
            _ => slot.tx = Some(tx),
        }
    }

    /// Answer the `yield` the run waits at (`step_id`, when given, must be that step): checked
    /// against its `expects` first; the run goes on.
    pub fn answer(&self, step_id: Option<&str>, answer: Value) -> Result<(), AnswerError> {
        let snapshot = self.snapshot();
        let seq = snapshot.seq;
        let waiting = snapshot.waiting.ok_or(AnswerError::NotWaiting)?;
        if step_id.is_some_and(|s| s != waiting.step_id) {
            return Err(AnswerError::NotWaiting);
        }
        let expects = vai_workflow::expects::Expects::parse(&waiting.expects)
            .unwrap_or_else(|_| vai_workflow::expects::Expects::empty());
        let errors = expects.check(&answer);
        if !errors.is_empty() {
            return Err(AnswerError::Invalid(errors));
        }
        let mut slot = self.answer.lock().unwrap_or_else(|e| e.into_inner());
        if slot.answered == Some(seq) {
            return Err(AnswerError::NotWaiting);
        }
        slot.answered = Some(seq);
        match slot.tx.take() {
            Some(tx) => tx.send(answer).map_err(|_| AnswerError::NotWaiting),
            None => {
                slot.pending = Some((seq, answer));
                Ok(())
            }
        }
    }

    fn lock(&self) -> MutexGuard<'_, Log> {
        // A panic while holding the lock leaves a consistent log (each change is one push).
        self.log.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn snapshot(&self) -> RunSnapshot {
        self.lock().snapshot.clone()
    }

    pub fn summary(&self) -> RunSummary {
        summary(&self.lock().snapshot)
    }

    /// The snapshot and a receiver of every later event, taken together.
    pub fn subscribe(&self) -> (RunSnapshot, broadcast::Receiver<Outgoing>) {
        let log = self.lock();
        (log.snapshot.clone(), self.tx.subscribe())
    }

    /// The logged events after `seq` and a receiver of every later one, taken together: how a
    /// socket that fell behind catches up without a gap.
    pub fn catch_up(&self, seq: u64) -> (Vec<Outgoing>, broadcast::Receiver<Outgoing>) {
        let log = self.lock();
        let from = log.events.partition_point(|e| e.seq <= seq);
        (log.events[from..].to_vec(), self.tx.subscribe())
    }

    /// End the run's pause: the step it waited before goes ahead (its id is returned). New
    /// breakpoints are checked against the run's steps first.
    pub fn resume(&self, mut resume: Resume) -> Result<String, ResumeError> {
        let stepping = self
            .stepping
            .as_ref()
            .ok_or(ResumeError::NotSteppingThrough)?;
        if let Some(ids) = resume.breakpoints.take() {
            let steps = &self.lock().snapshot.steps;
            let checked = breakpoints(|id| steps.contains_key(id), steps.len(), ids, "breakpoints")
                .map_err(ResumeError::Breakpoints)?;
            resume.breakpoints = Some(checked);
        }
        stepping.resume(resume).map_err(|_| ResumeError::NotPaused)
    }

    /// Everything about one step, or `None` when the run has no such step.
    pub fn step(&self, step_id: &str) -> Option<StepView> {
        let log = self.lock();
        let state = log.snapshot.steps.get(step_id)?;
        Some(StepView {
            detail: StepDetail {
                step_id: step_id.to_string(),
                status: state.status,
                inputs: None,
                output: None,
                error: state.error.clone(),
                reason: state.reason.clone(),
                duration_ms: state.duration_ms,
            },
            inputs: log.inputs.get(step_id).cloned(),
            output: log.outputs.get(step_id).cloned(),
        })
    }

    /// The run's status (with `output` left out) and a handle on its full final output, when
    /// it has one.
    pub fn output(&self) -> (RunOutput, Option<Kept>) {
        let log = self.lock();
        let head = RunOutput {
            run_id: self.id.clone(),
            status: log.snapshot.status,
            output: None,
        };
        (head, log.output.clone())
    }

    /// Outputs of the steps that completed, for replaying them in a single-step run.
    pub fn outputs(&self) -> HashMap<String, Value> {
        let kept: Vec<(String, Kept)> = self
            .lock()
            .outputs
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        kept.into_iter().map(|(k, v)| (k, v.to_value())).collect()
    }

    /// Once the run has ended: serialise every kept value once (outside the lock), let go of
    /// the engine's values, and return the bytes the run now holds — its values and its event
    /// log as JSON — which the manager's byte budget counts.
    pub(crate) fn freeze(&self) -> usize {
        type Parts = (Vec<(String, Kept)>, Vec<(String, Kept)>, Option<Kept>);
        let (inputs, outputs, output): Parts = {
            let log = self.lock();
            let all = |m: &HashMap<String, Kept>| {
                m.iter()
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect::<Vec<_>>()
            };
            (all(&log.inputs), all(&log.outputs), log.output.clone())
        };
        let freeze = |m: Vec<(String, Kept)>| -> HashMap<String, Kept> {
            m.into_iter().map(|(k, v)| (k, v.frozen())).collect()
        };
        let (inputs, outputs) = (freeze(inputs), freeze(outputs));
        let output = output.map(|o| o.frozen());
        let mut log = self.lock();
        log.inputs = inputs;
        log.outputs = outputs;
        log.output = output;
        let values: usize = log
            .inputs
            .values()
            .chain(log.outputs.values())
            .chain(log.output.iter())
            .map(Kept::json_len)
            .sum();
        let events: usize = log.events.iter().map(|e| e.json.len()).sum();
        values + events
    }

    /// The run ended before its first event (e.g. its preparation failed).
    pub(crate) fn abort(&self, error: String) {
        self.record(RunEvent::RunFinished {
            status: vai_workflow::RunStatus::Failed,
            duration_ms: 0,
            error: Some(error),
            usage: None,
            output: None,
        });
    }

    /// Append `event` to the log, fold it into the snapshot and send it to subscribers.
    fn record(&self, event: RunEvent) {
        let mut log = self.lock();
        let seq = log.snapshot.seq + 1;
        let (output, output_bytes) = log.fold(&event, seq);
        // A run that waits for a person goes on after an answer, on the same log.
        let last = matches!(event, RunEvent::RunFinished { status, .. } if status != vai_workflow::RunStatus::Waiting);
        let message = ServerMessage::Event {
            run_id: self.id.clone(),
            seq,
            event,
            output,
            output_bytes,
        };
        let json: Arc<str> = match serde_json::to_string(&message) {
            Ok(s) => s.into(),
            Err(e) => {
                tracing::error!(error = %e, "cannot serialise a run event");
                return;
            }
        };
        let outgoing = Outgoing { seq, json, last };
        log.events.push(outgoing.clone());
        // No receivers is fine: nobody is watching this run.
        let _ = self.tx.send(outgoing);
    }
}

/// The engine's sink for one run.
pub(crate) struct RunSink(pub(crate) Arc<Run>);

impl EventSink for RunSink {
    fn emit(&self, event: RunEvent) {
        self.0.record(event);
    }
}

impl Log {
    /// Fold `event` into the snapshot; returns the output to send inline with the event, or
    /// its size when it is too large to.
    fn fold(&mut self, event: &RunEvent, seq: u64) -> (Option<Value>, Option<usize>) {
        let snap = &mut self.snapshot;
        snap.seq = seq;
        let mut inline = (None, None);
        match event {
            RunEvent::RunStarted { layers, .. } => {
                snap.layers = layers.clone();
                // Again after an answer: the run goes on.
                snap.status = vai_contract::RunState::Running;
                snap.waiting = None;
                snap.duration_ms = None;
            }
            RunEvent::Paused {
                step_id,
                breakpoint,
                inputs,
                ..
            } => {
                // Shown by the step route until the step's own record replaces them.
                if let Some(inputs) = inputs {
                    self.inputs
                        .insert(step_id.clone(), Kept::value(inputs.clone()));
                }
                snap.paused = Some(PausedStep {
                    step_id: step_id.clone(),
                    breakpoint: *breakpoint,
                    since: now_ms(),
                });
            }
            RunEvent::Resumed {
                action,
                breakpoints,
                ..
            } => {
                snap.paused = None;
                if let Some(settings) = &mut snap.step_through {
                    settings.pause_each = *action == ResumeAction::Next;
                    if let Some(breakpoints) = breakpoints {
                        settings.breakpoints = breakpoints.clone();
                    }
                }
            }
            RunEvent::StepStarted { step_id, .. } => {
                set(snap, step_id, StepStatus::Running);
            }
            RunEvent::StepText { step_id, delta } => {
                set(snap, step_id, StepStatus::Running).push_text(delta);
            }
            // An item's end changes no step's state: the step ends with its own event.
            RunEvent::ItemEnded { .. } => {}
            RunEvent::StepRetrying {
                step_id,
                attempt,
                error,
                ..
            } => {
                let s = set(snap, step_id, StepStatus::Retrying);
                s.text = None;
                s.attempt = Some(*attempt);
                s.error = Some(error.clone());
            }
            RunEvent::StepCompleted {
                step_id,
                duration_ms,
                summary,
                backend,
                entry,
                inputs,
                usage,
            } => {
                if let Some(inputs) = inputs {
                    self.inputs
                        .insert(step_id.clone(), Kept::value(inputs.clone()));
                }
                // The size goes with the event whatever it is: the step's state carries it (a
                // client folding events must reach the snapshot's state).
                let (value, bytes) = inline_output(entry.get("output").unwrap_or(&Value::Null));
                inline = (value, Some(bytes));
                let s = set(snap, step_id, StepStatus::Completed);
                s.duration_ms = Some(*duration_ms);
                s.summary = Some(summary.clone());
                s.backend = backend.clone();
                s.error = None;
                s.text = None;
                s.output_bytes = Some(bytes);
                s.usage = usage.clone();
                // The engine's entry itself: no copy of the output is made.
                self.outputs
                    .insert(step_id.clone(), Kept::field(entry.clone(), "output"));
            }
            RunEvent::StepSkipped { step_id, reason } => {
                set(snap, step_id, StepStatus::Skipped).reason = Some(reason.clone());
            }
            RunEvent::StepFailed {
                step_id,
                error,
                duration_ms,
                inputs,
                ..
            } => {
                if let Some(inputs) = inputs {
                    self.inputs
                        .insert(step_id.clone(), Kept::value(inputs.clone()));
                }
                let s = set(snap, step_id, StepStatus::Failed);
                s.error = Some(error.clone());
                s.text = None;
                s.duration_ms = Some(*duration_ms);
            }
            RunEvent::StepCancelled { step_id } => {
                if snap.paused.as_ref().is_some_and(|p| &p.step_id == step_id) {
                    snap.paused = None;
                }
                set(snap, step_id, StepStatus::Cancelled).text = None;
            }
            RunEvent::Waiting { .. } | RunEvent::Child { .. } => {
                if let Some((step_id, waiting)) = waiting_for(event) {
                    set(snap, &step_id, StepStatus::Waiting);
                    snap.waiting = Some(waiting);
                }
            }
            RunEvent::Compensating { step_id, .. } => {
                set_compensation(snap, step_id, CompensationState::Compensating);
            }
            RunEvent::Compensated { step_id, ok, error } => {
                let state = if *ok {
                    CompensationState::Compensated
                } else {
                    CompensationState::CompensationFailed
                };
                if let Some(s) = set_compensation(snap, step_id, state)
                    && error.is_some()
                {
                    s.error = error.clone();
                }
            }
            RunEvent::RunFinished {
                status,
                duration_ms,
                error,
                usage,
                output,
            } => {
                snap.status = (*status).into();
                snap.paused = None;
                snap.duration_ms = Some(*duration_ms);
                snap.error = error.clone();
                snap.usage = usage.clone();
                if let Some(output) = output {
                    let (value, bytes) = inline_output(output);
                    inline = (value, (bytes > INLINE_OUTPUT_LIMIT).then_some(bytes));
                    snap.output = inline.0.clone();
                    snap.output_bytes = inline.1;
                    self.output = Some(Kept::value(output.clone()));
                }
            }
        }
        inline
    }
}

/// The output's size as JSON, and the output itself when that is at most 16 KB.
fn inline_output(output: &Value) -> (Option<Value>, usize) {
    let bytes = json_len(output);
    (
        (bytes <= INLINE_OUTPUT_LIMIT).then(|| output.clone()),
        bytes,
    )
}

/// The top-level step and what it waits for, when `event` is a `waiting` at any depth.
fn waiting_for(event: &RunEvent) -> Option<(String, WaitingFor)> {
    let mut within = Vec::new();
    let mut event = event;
    while let RunEvent::Child {
        step_id,
        event: inner,
        ..
    } = event
    {
        within.push(step_id.clone());
        event = inner;
    }
    let RunEvent::Waiting {
        step_id,
        message,
        expects,
        deadline_ms,
    } = event
    else {
        return None;
    };
    let top = within.first().cloned().unwrap_or_else(|| step_id.clone());
    Some((
        top,
        WaitingFor {
            step_id: step_id.clone(),
            within,
            message: message.clone(),
            expects: expects.clone(),
            deadline_ms: *deadline_ms,
        },
    ))
}

/// Record a compensation's progress on a step the snapshot knows.
fn set_compensation<'a>(
    snap: &'a mut RunSnapshot,
    step_id: &str,
    state: CompensationState,
) -> Option<&'a mut StepState> {
    let s = snap.steps.get_mut(step_id)?;
    s.compensation = Some(state);
    Some(s)
}

fn set<'a>(snap: &'a mut RunSnapshot, step_id: &str, status: StepStatus) -> &'a mut StepState {
    let state = snap
        .steps
        .entry(step_id.to_string())
        .or_insert_with(|| StepState::new(status));
    state.status = status;
    state
}

pub(crate) fn summary(snap: &RunSnapshot) -> RunSummary {
    RunSummary {
        run_id: snap.run_id.clone(),
        workflow: snap.workflow.clone(),
        workflow_id: snap.workflow_id.clone(),
        status: snap.status,
        started_at: snap.started_at,
        duration_ms: snap.duration_ms,
    }
}
