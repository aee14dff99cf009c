//! `workflow_run`, `workflow_resume`, `workflow_status` and `workflow_cancel`: runs on the shared
//! run manager, so a run started here shows in the playground and one started there can be read,
//! answered or cancelled here.

use super::args::string;
use super::source::plan;
use crate::answers;
use crate::codes::ErrorCode;
use crate::failure::Failure;
use crate::running::{self, RunRequest};
use crate::server::McpServer;
use rmcp::model::{CallToolResponse, CallToolResult};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer};
use serde_json::{Map, Value, json};
use std::sync::Arc;
use vai_contract::RunState;
use vai_runtime::runs::AnswerError;
use vai_runtime::{Run, version_of};
use vai_workflow::value::truncate_chars;
use vai_workflow::{Mode, Plan, compile};

pub(super) async fn run(
    server: &McpServer,
    args: &Map<String, Value>,
    context: &RequestContext<RoleServer>,
) -> Result<CallToolResponse, Failure> {
    let source: Map<String, Value> = args
        .iter()
        .filter(|(k, _)| matches!(k.as_str(), "workflow_id" | "definition" | "content"))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let (document, plan) = plan(server, &source)?;
    let request = RunRequest {
        plan: plan.clone(),
        inputs: args
            .get("inputs")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default(),
        workflow_id: document.workflow_id,
        definition_version: version_of(vai_workflow::format::format(&document.value).as_bytes()),
        client: Some(context.peer.clone()),
    };
    if args.get("wait").and_then(Value::as_bool) == Some(false) {
        let run = running::start(server, request)?;
        let mut body = json!({"run_id": run.id, "status": "running"});
        if let Some(id) = run.summary().workflow_id {
            body["workflow_id"] = json!(id);
        }
        return Ok(CallToolResult::structured(body).into());
    }
    running::respond(server, request, context).await
}

/// `workflow_resume`: the person's answer to the question `run_id` waits at; the run then goes
/// on and is followed as its `w_*` call would follow it. A run this server does not know is
/// invalid params; one that does not wait, or an answer that is not right, a failed call.
pub(super) async fn resume(
    server: &McpServer,
    args: &Map<String, Value>,
    context: &RequestContext<RoleServer>,
) -> Result<CallToolResponse, McpError> {
    let id = string(args, "run_id").unwrap_or_default();
    let input = args.get("input").cloned().unwrap_or_else(|| json!({}));
    let Some(run) = server.inner().runs.get(id) else {
        return resume_saved(server, id, input, context).await;
    };
    let snapshot = run.snapshot();
    if snapshot.status != RunState::Waiting {
        return Ok(answers::rejected(&run, AnswerError::NotWaiting)
            .into_result()
            .into());
    }
    let Some(plan) = plan_of(server, &run) else {
        return Ok(Failure::new(
            ErrorCode::WorkflowNotFound,
            format!(
                "the workflow run \"{}\" waits in is no longer in the library as it ran",
                run.id
            ),
            "answer it where it was started (the playground, or vai runs resume)",
        )
        .run(run.id.clone())
        .into_result()
        .into());
    };
    let step_id = string(args, "step_id");
    if let Err(e) = answers::take(&run, step_id, snapshot.seq, input).await {
        return Ok(answers::rejected(&run, e).into_result().into());
    }
    Ok(running::follow_call(&run, plan, context, Some(snapshot.seq)).await)
}

/// Answer a run an earlier `vai mcp` (or `vai workflow run`) saved as waiting: taken up in this
/// server with the answer, then followed as a `w_*` call follows its run.
async fn resume_saved(
    server: &McpServer,
    id: &str,
    input: Value,
    context: &RequestContext<RoleServer>,
) -> Result<CallToolResponse, McpError> {
    use vai_runtime::runs::ResumeJournalError;
    let inner = server.inner();
    let (run, plan) = match inner
        .runs
        .resume_journaled(id, Some(input), &inner.library)
        .await
    {
        Ok(taken) => taken,
        Err(ResumeJournalError::NotFound) => {
            return Err(McpError::invalid_params(
                format!(
                    "no run \"{}\" (the server keeps only the most recent finished runs)",
                    truncate_chars(id, 80)
                ),
                None,
            ));
        }
        Err(ResumeJournalError::Invalid(errors)) => {
            return Ok(answers::invalid_answer(id, None, &errors)
                .into_result()
                .into());
        }
        Err(e) => {
            return Ok(Failure::new(
                ErrorCode::RunNotWaiting,
                format!("run \"{}\" cannot be answered: {e}", truncate_chars(id, 80)),
                "read it with vai runs show",
            )
            .run(id.to_string())
            .into_result()
            .into());
        }
    };
    inner.plans.remember(&run.id, plan.clone());
    Ok(running::follow_call(&run, plan, context, None).await)
}

/// The plan `run` runs: remembered when this server started it, else its workflow's from the
/// library when that is still the definition it ran.
fn plan_of(server: &McpServer, run: &Run) -> Option<Arc<Plan>> {
    let inner = server.inner();
    if let Some(plan) = inner.plans.get(&run.id) {
        return Some(plan);
    }
    let id = run.snapshot().workflow_id?;
    let document = inner.library.get(&id).ok()?;
    let definition = document.definition.as_ref()?;
    if version_of(vai_workflow::format::format(definition).as_bytes())
        != run.origin.definition_version
    {
        return None;
    }
    let compiled = compile(definition, &inner.registry, Mode::Strict);
    let valid = compiled.is_valid();
    let plan = compiled.plan.filter(|_| valid)?;
    inner.plans.remember(&run.id, plan.clone());
    Some(plan)
}

fn find(server: &McpServer, args: &Map<String, Value>) -> Result<Arc<Run>, Failure> {
    let id = string(args, "run_id").unwrap_or_default();
    server.inner().runs.get(id).ok_or_else(|| {
        Failure::new(
            ErrorCode::RunNotFound,
            format!(
                "no run \"{}\" (the server keeps only the most recent finished runs)",
                truncate_chars(id, 80)
            ),
            "run the workflow again",
        )
        .run(truncate_chars(id, 80))
    })
}

pub(super) fn status(
    server: &McpServer,
    args: &Map<String, Value>,
) -> Result<CallToolResult, Failure> {
    let run = find(server, args)?;
    let snapshot = run.snapshot();
    let mut body = json!({
        "run_id": snapshot.run_id,
        "workflow": snapshot.workflow,
        "status": snapshot.status,
        "steps": snapshot.steps,
        "layers": snapshot.layers,
    });
    if let Some(id) = &snapshot.workflow_id {
        body["workflow_id"] = json!(id);
    }
    if let Some(ms) = snapshot.duration_ms {
        body["duration_ms"] = json!(ms);
    }
    if let Some(error) = &snapshot.error {
        body["error"] = json!(error);
    }
    if let Some(output) = run.output().1 {
        body["output"] = output.to_value();
    }
    Ok(CallToolResult::structured(body))
}

pub(super) fn cancel(
    server: &McpServer,
    args: &Map<String, Value>,
) -> Result<CallToolResult, Failure> {
    let run = find(server, args)?;
    run.cancel.cancel();
    Ok(CallToolResult::structured(json!({
        "run_id": run.id,
        "status": run.summary().status,
    })))
}
