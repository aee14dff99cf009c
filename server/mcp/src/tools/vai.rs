//! `vai_*`: the registry's tools that make sense on their own, one call each, through the same
//! `Tool::run` a workflow step uses, with the same defaults (database, collection and models
//! from the configuration, as the tools' settings fill them in). Control flow and the tools
//! that only reshape other steps' outputs (merge, filter, transform, template) are left out, as
//! are `generate` (the client is itself a model) and `http`.

use super::entry::{Entry, Target, annotations};
use crate::codes::ErrorCode;
use crate::failure::{Failure, Violation};
use crate::schema;
use crate::server::McpServer;
use rmcp::RoleServer;
use rmcp::model::{CallToolResult, MetaObject, Tool};
use rmcp::service::RequestContext;
use serde_json::{Map, Value, json};
use vai_runtime::tool_schema::{STANDALONE_TOOLS, public_name};
use vai_workflow::{ToolError, run_alone};

/// The registry tools exposed, in the order they are listed: those a chat agent has too, and
/// two for preparing documents.
pub(crate) fn exposed() -> impl Iterator<Item = &'static str> {
    STANDALONE_TOOLS.into_iter().chain(["chunk", "aggregate"])
}

pub(crate) fn entries(server: &McpServer) -> Vec<Entry> {
    let registry = &server.inner().registry;
    exposed()
        .filter(|name| registry.tool(name).is_some())
        .filter_map(|name| registry.spec(name))
        .map(|spec| {
            let description = format!("{}. {}", spec.description, spec.help);
            let tool = Tool::new(
                public_name(spec.name),
                description,
                schema::object(vai_runtime::tool_schema::tool_input(spec)),
            )
            .with_title(spec.label)
            .with_raw_output_schema(schema::object(schema::tool_output(spec.outputs)))
            .with_annotations(annotations(spec.label, spec.effects));
            Entry {
                tool,
                target: Target::Vai(spec.name),
            }
        })
        .collect()
}

/// Run registry tool `name` once with `args` (already checked against its schema).
pub(crate) async fn call(
    server: &McpServer,
    name: &'static str,
    args: Map<String, Value>,
    context: &RequestContext<RoleServer>,
) -> CallToolResult {
    let inner = server.inner();
    let Some(tool) = inner.registry.tool(name) else {
        return Failure::internal(format!("the tool \"{name}\" is not registered")).into_result();
    };
    let Ok(_permit) = inner.calls.clone().try_acquire_owned() else {
        return too_many_calls(inner.max_tool_calls).into_result();
    };
    let cancelled = || {
        Failure::new(
            ErrorCode::Cancelled,
            format!("{} was cancelled", public_name(name)),
            "call it again if you still need the result",
        )
        .into_result()
    };
    if let Some(before) = &inner.before_tool {
        tokio::select! {
            () = before(name) => {}
            () = context.ct.cancelled() => return cancelled(),
        }
    }
    let outcome = tokio::select! {
        outcome = run_alone(tool.as_ref(), "mcp", args, inner.run_limits) => outcome,
        () = context.ct.cancelled() => return cancelled(),
    };
    match outcome {
        Ok(out) => {
            let structured = match out.output {
                Value::Object(_) => out.output,
                other => json!({ "value": other }),
            };
            let mut result = CallToolResult::structured(structured);
            let mut meta = Map::new();
            if let Some(backend) = out.backend {
                meta.insert("vai/backend".into(), json!(backend));
            }
            if let Some(usage) = out.usage {
                meta.insert("vai/usage".into(), json!(usage));
            }
            if !meta.is_empty() {
                result.meta = Some(MetaObject(meta));
            }
            result
        }
        Err(e) => tool_failure(name, &e).into_result(),
    }
}

/// The failure of a call refused because `max` calls are already going.
fn too_many_calls(max: usize) -> Failure {
    Failure::new(
        ErrorCode::TooManyCalls,
        format!("{max} vai tool calls are already running"),
        "wait for one to finish, then call again",
    )
}

/// How a tool's error reads to the caller.
fn tool_failure(name: &str, e: &ToolError) -> Failure {
    let tool = public_name(name);
    match e {
        ToolError::InvalidInput { field, message, .. } => Failure::new(
            ErrorCode::InvalidArguments,
            format!("{tool}: \"{field}\" {message}"),
            "call the tool again with a corrected value for that argument",
        )
        .violations(vec![Violation::new(
            field.clone(),
            "input",
            message.clone(),
        )]),
        ToolError::NotConfigured(message) => Failure::new(
            ErrorCode::NotConfigured,
            format!("{tool}: {message}"),
            "configure the provider as the message says (vai config set …), then call again",
        ),
        ToolError::Transient { message, .. } => Failure::new(
            ErrorCode::ProviderUnavailable,
            format!("{tool}: {message}"),
            "wait a moment and call again",
        ),
        ToolError::Limit(limit) => Failure::new(
            ErrorCode::LimitExceeded,
            format!("{tool}: {limit}"),
            "ask for less (a smaller limit, shorter text)",
        ),
        ToolError::Failed(message) => Failure::new(
            ErrorCode::ToolFailed,
            format!("{tool}: {message}"),
            "read the message; correct the arguments or the configuration, then call again",
        ),
    }
}
