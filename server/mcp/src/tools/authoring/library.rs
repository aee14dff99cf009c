//! `workflow_list` and `workflow_get`: the library as an assistant reads it.

use super::args::string;
use super::source::resolve;
use crate::codes::ErrorCode;
use crate::failure::Failure;
use crate::server::McpServer;
use crate::tools::workflows;
use rmcp::model::CallToolResult;
use serde_json::{Map, Value, json};
use vai_contract::WorkflowSource;

pub(super) fn list(server: &McpServer) -> CallToolResult {
    let workflows: Vec<Value> = workflows::listed(server)
        .into_iter()
        .map(|w| {
            let s = &w.summary;
            let mut entry = json!({
                "workflow_id": s.id,
                "name": s.name,
                "source": s.source,
                "tool": w.tool_name(),
                "steps": s.step_count,
                "inputs": s.inputs,
                "read_only": s.read_only,
                "valid": w.plan.is_some(),
                "resource": format!("vai://workflows/{}", w.slug),
            });
            if let Some(d) = &s.description {
                entry["description"] = json!(d);
            }
            if let Some(e) = &s.error {
                entry["error"] = json!(e);
            }
            if let Some(doc) = &w.document {
                entry["version"] = json!(doc.version);
            }
            entry
        })
        .collect();
    CallToolResult::structured(json!({
        "workflows": workflows,
        "writable": server.inner().library.dir().is_some() && !server.inner().read_only,
    }))
}

pub(super) fn get(
    server: &McpServer,
    args: &Map<String, Value>,
) -> Result<CallToolResult, Failure> {
    let given = string(args, "workflow_id").unwrap_or_default();
    let listed = resolve(server, given)?;
    let s = &listed.summary;
    let Some(doc) = &listed.document else {
        return Err(Failure::new(
            ErrorCode::WorkflowUnreadable,
            format!(
                "{} cannot be read: {}",
                s.id,
                s.error.as_deref().unwrap_or("unknown error")
            ),
            "fix or replace the file, then try again",
        )
        .workflow(s.id.clone()));
    };
    let path = match s.source {
        WorkflowSource::File => s.id.strip_prefix("file:").map(str::to_string),
        _ => None,
    };
    Ok(CallToolResult::structured(json!({
        "workflow_id": s.id,
        "path": path,
        "source": s.source,
        "format": "json",
        "content": doc.text,
        "parsed": doc.definition,
        "version": doc.version,
        "read_only": s.read_only,
        "tool": listed.tool_name(),
        "resource": format!("vai://workflows/{}", listed.slug),
    })))
}
