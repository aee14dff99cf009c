//! Running a workflow for a tool call: start it on the shared run manager (the same kind of run
//! as the playground's), follow its events to report progress per step when the client sent a
//! progress token, cancel it when the client cancels the call or goes away, and, when it waits
//! for a person, ask them through the client (`answers`) or return the wait. `finished` shapes
//! how it ended as a tool result.

use crate::answers::{self, Asked};
use crate::codes::ErrorCode;
use crate::failure::{Failure, Violation};
use crate::finished::{Finished, finished_now, finished_steps};
use crate::sampling::{ClientModel, generates};
use crate::server::McpServer;
use crate::tasks;
use rmcp::model::{CallToolResponse, CallToolResult, ProgressNotificationParam, ProgressToken};
use rmcp::service::RequestContext;
use rmcp::{Peer, RoleServer};
use serde_json::{Map, Value};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::broadcast::error::RecvError;
use tokio_util::sync::CancellationToken;
use vai_contract::{RunSnapshot, RunState, StepStatus};
use vai_runtime::{Run, StartError, StartRequest};
use vai_workflow::Plan;
use vai_workflow::exec::InputError;

/// How long a cancelled run may take to report its end before the call stops waiting for it.
const CANCEL_GRACE: Duration = Duration::from_secs(10);

/// A workflow run to start.
pub(crate) struct RunRequest {
    pub(crate) plan: Arc<Plan>,
    pub(crate) inputs: Map<String, Value>,
    pub(crate) workflow_id: Option<String>,
    pub(crate) definition_version: String,
    /// The client that asked: its model answers `generate` steps when vai has no LLM.
    pub(crate) client: Option<Peer<RoleServer>>,
}

/// Where progress notifications go: the client's token for this call.
pub(crate) struct Progress {
    peer: Peer<RoleServer>,
    token: ProgressToken,
}

impl Progress {
    /// The call's progress, when the client asked for it.
    pub(crate) fn of(context: &RequestContext<RoleServer>) -> Option<Self> {
        Some(Self {
            token: context.meta.get_progress_token()?,
            peer: context.peer.clone(),
        })
    }

    async fn report(&self, done: usize, total: usize, message: String) {
        let param = ProgressNotificationParam::new(self.token.clone(), done as f64)
            .with_total(total as f64)
            .with_message(message);
        // A client that went away cancels the call; nothing to do here.
        let _ = self.peer.notify_progress(param).await;
    }
}

/// Start a run, or say why it cannot start.
pub(crate) fn start(server: &McpServer, request: RunRequest) -> Result<Arc<Run>, Failure> {
    let workflow_id = request.workflow_id.clone();
    let inner = server.inner();
    // The client's model, when vai has none and the workflow generates.
    let client_registry = match (&inner.with_client_llm, &request.client) {
        (Some(with_llm), Some(peer)) if generates(&request.plan) => {
            ClientModel::of(peer).map(|model| with_llm(Arc::new(model)))
        }
        _ => None,
    };
    let start = StartRequest {
        plan: request.plan,
        inputs: request.inputs,
        workflow_id: request.workflow_id,
        only: None,
        definition_version: request.definition_version,
        step_through: None,
        restart: None,
    };
    let plan = start.plan.clone();
    let started = match client_registry {
        Some(registry) => inner.runs.start_with(start, registry),
        None => inner.runs.start(start),
    };
    if let Ok(run) = &started {
        inner.plans.remember(&run.id, plan);
    }
    started.map_err(|e| {
        let failure = match e {
            StartError::Inputs(errors) => Failure::new(
            ErrorCode::InvalidInputs,
            format!("the workflow's inputs are not right: {}", StartError::Inputs(errors.clone())),
                "give every required input with its declared type (workflow_preview_inputs lists them)",
            )
            .violations(errors.iter().map(input_violation).collect()),
            StartError::TooManyRuns(n) => Failure::new(
            ErrorCode::TooManyRuns,
            format!("{n} runs are already going; vai runs at most {n} at once"),
                "wait for a run to finish, then try again",
            ),
            // MCP runs never step through; the manager checks the settings of those that do.
            StartError::StepThrough(message) => Failure::new(
            ErrorCode::InvalidArguments,
            message,
                "start the run without step-through settings",
            ),
        };
        match workflow_id {
            Some(id) => failure.workflow(id),
            None => failure,
        }
    })
}

fn input_violation(e: &InputError) -> Violation {
    match e {
        InputError::Missing { name, .. } => Violation::new(name.clone(), "required", e.to_string()),
        InputError::WrongType {
            name,
            expected,
            got,
        } => Violation::new(name.clone(), "type", e.to_string()).expected(*expected, got.clone()),
    }
}

/// Follow `run` until it ends or waits for a person, reporting each finished step; when
/// `cancel` fires, cancel the run and wait for it to say so. `answered` is the event a wait was
/// answered at: the run still reads as waiting there until it goes on.
pub(crate) async fn wait(
    run: &Arc<Run>,
    plan: Arc<Plan>,
    progress: Option<&Progress>,
    cancel: &CancellationToken,
    answered: Option<u64>,
) -> Finished {
    let total = plan.steps.len();
    let (mut snapshot, mut events) = run.subscribe();
    let mut reported = finished_steps(&snapshot);
    let mut deadline: Option<tokio::time::Instant> = None;
    let going = |s: &RunSnapshot| {
        s.status == RunState::Running
            || (s.status == RunState::Waiting && answered.is_some_and(|seq| s.seq <= seq))
    };
    while going(&snapshot) {
        let give_up = async {
            match deadline {
                Some(at) => tokio::time::sleep_until(at).await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            event = events.recv() => {
                let last = match event {
                    Ok(out) => out.last,
                    // Fell behind: the snapshot has everything.
                    Err(RecvError::Lagged(_)) => false,
                    Err(RecvError::Closed) => true,
                };
                let before = snapshot;
                snapshot = run.snapshot();
                if let Some(progress) = progress {
                    let now = finished_steps(&snapshot);
                    if now > reported {
                        reported = now;
                        progress.report(now, total, message(&before, &snapshot, now, total)).await;
                    }
                }
                if last {
                    break;
                }
            }
            () = cancel.cancelled(), if deadline.is_none() => {
                run.cancel.cancel();
                deadline = Some(tokio::time::Instant::now() + CANCEL_GRACE);
            }
            () = give_up => break,
        }
    }
    finished_now(run, plan)
}

/// Follow `run` to its end as a tool call's result. Each time it waits for a person, a client
/// that shows forms (`client`) asks them: an answer goes on, a refusal cancels the run, and an
/// answer still invalid after being asked again cancels it too. Without one, a run that waits
/// is the result (`workflow_resume` answers it).
pub(crate) async fn follow(
    run: &Arc<Run>,
    plan: Arc<Plan>,
    progress: Option<&Progress>,
    cancel: &CancellationToken,
    client: Option<&Peer<RoleServer>>,
    mut answered: Option<u64>,
) -> CallToolResult {
    let asker = client.filter(|peer| answers::can_ask(peer));
    loop {
        let done = wait(run, plan.clone(), progress, cancel, answered).await;
        let (Some(peer), Some(waiting)) = (asker, done.snapshot.waiting.clone()) else {
            return done.into_result();
        };
        if done.snapshot.status != RunState::Waiting {
            return done.into_result();
        }
        let seq = done.snapshot.seq;
        let failure = match answers::ask(peer, run, &waiting, seq, cancel).await {
            Asked::Answered | Asked::MovedOn => {
                answered = Some(seq);
                continue;
            }
            Asked::Unasked => return done.into_result(),
            Asked::Refused { declined } => answers::refused(run, &waiting, declined),
            Asked::Invalid(errors) => answers::invalid(run, &errors),
        };
        // Cancel the run (its compensations undo what it did) and report once it says so, or
        // after the grace a cancelled run has.
        let stop = CancellationToken::new();
        stop.cancel();
        wait(run, plan, None, &stop, Some(seq)).await;
        return failure.into_result();
    }
}

/// Answer a tool call that runs a workflow: a task at once when the client asked for tasks,
/// else the result when the run ends or waits for a person.
pub(crate) async fn respond(
    server: &McpServer,
    request: RunRequest,
    context: &RequestContext<RoleServer>,
) -> Result<CallToolResponse, Failure> {
    let plan = request.plan.clone();
    let run = start(server, request)?;
    if tasks::wanted(context) {
        return Ok(server.inner().tasks.create(&run, plan));
    }
    Ok(follow_call(&run, plan, context, None).await)
}

/// Follow `run` for the tool call of `context` (its progress token, cancellation and client),
/// from the wait at event `answered` when it was just answered.
pub(crate) async fn follow_call(
    run: &Arc<Run>,
    plan: Arc<Plan>,
    context: &RequestContext<RoleServer>,
    answered: Option<u64>,
) -> CallToolResponse {
    let progress = Progress::of(context);
    follow(
        run,
        plan,
        progress.as_ref(),
        &context.ct,
        Some(&context.peer),
        answered,
    )
    .await
    .into()
}

/// `step "search" completed (2/5)`, naming the steps that finished since `before`.
fn message(before: &RunSnapshot, after: &RunSnapshot, done: usize, total: usize) -> String {
    let changed: Vec<String> = after
        .steps
        .iter()
        .filter(|(id, s)| before.steps.get(*id).is_none_or(|b| b.status != s.status))
        .filter(|(_, s)| {
            !matches!(
                s.status,
                StepStatus::Pending | StepStatus::Running | StepStatus::Retrying
            )
        })
        .map(|(id, s)| format!("step \"{id}\" {}", status_word(s.status)))
        .collect();
    format!("{} ({done}/{total})", changed.join(", "))
}

fn status_word(status: StepStatus) -> &'static str {
    match status {
        StepStatus::Pending => "pending",
        StepStatus::Running => "running",
        StepStatus::Retrying => "retrying",
        StepStatus::Completed => "completed",
        StepStatus::Skipped => "skipped",
        StepStatus::Failed => "failed",
        StepStatus::Cancelled => "cancelled",
        StepStatus::Waiting => "waiting for a person",
    }
}
