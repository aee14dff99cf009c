//! `workflow_run`, `workflow_status` and `workflow_cancel`: runs on the shared run manager, so a
//! run started here shows in the playground and one started there can be read or cancelled here.

use super::args::string;
use super::source::plan;
use crate::codes::ErrorCode;
use crate::failure::Failure;
use crate::running::{self, RunRequest};
use crate::server::McpServer;
use rmcp::RoleServer;
use rmcp::model::{CallToolResponse, CallToolResult};
use rmcp::service::RequestContext;
use serde_json::{Map, Value, json};
use std::sync::Arc;
use vai_runtime::{Run, version_of};
use vai_workflow::value::truncate_chars;

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
