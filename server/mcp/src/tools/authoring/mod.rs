//! The authoring tools (docs/mcp.md, "Authoring tools"), grouped by what they do to the world:
//! reading and checking (`workflow_list`, `workflow_get`, `workflow_validate`,
//! `workflow_preview_inputs`, `workflow_preview_rendered`, `workflow_step_plan`,
//! `workflow_resolve_inputs`, `workflow_plan`), changing the workflow directory or starting and
//! answering runs (`workflow_save`, `workflow_rename`, `workflow_run`, `workflow_resume`,
//! `workflow_status`), and undoing (`workflow_delete`, `workflow_cancel`). Read-only mode lists
//! only the first group (and `workflow_status`). Each is declared in `spec`; this module lists them and routes a call to
//! the module that answers it.

mod args;
mod inspect;
mod library;
mod planner;
mod runs;
mod source;
mod spec;
mod write;

pub(crate) use spec::Authoring;

use super::entry::{Entry, Target, annotations};
use crate::failure::Failure;
use crate::schema;
use crate::server::{Connection, McpServer};
use crate::tools::workflows::Listed;
use rmcp::model::{CallToolResponse, Tool};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer};
use serde_json::{Map, Value};

/// The tool clients list for `authoring`.
fn tool(authoring: Authoring) -> Tool {
    let mut tool = Tool::new(
        authoring.name(),
        authoring.description(),
        schema::object(authoring.input_schema()),
    )
    .with_title(authoring.title())
    .with_annotations(annotations(authoring.title(), authoring.effects()));
    if let Some(output) = authoring.output_schema() {
        tool = tool.with_raw_output_schema(schema::object(output));
    }
    tool
}

pub(crate) fn entries() -> Vec<Entry> {
    Authoring::ALL
        .into_iter()
        .map(|a| Entry {
            tool: tool(a),
            target: Target::Authoring(a),
        })
        .collect()
}

/// Answer a call of `tool`; a protocol error only for what the protocol calls invalid params
/// (`workflow_resume` of a run the server does not know).
pub(crate) async fn call(
    connection: &Connection,
    tool: Authoring,
    args: Map<String, Value>,
    context: &RequestContext<RoleServer>,
) -> Result<CallToolResponse, McpError> {
    let server = &connection.server;
    match tool {
        Authoring::Run => {
            return Ok(runs::run(server, &args, context)
                .await
                .unwrap_or_else(|failure| failure.into_result().into()));
        }
        Authoring::Resume => return runs::resume(server, &args, context).await,
        _ => {}
    }
    let result = match tool {
        Authoring::List => Ok(library::list(server)),
        Authoring::Get => library::get(server, &args),
        Authoring::Validate => inspect::validate(server, &args),
        Authoring::PreviewInputs => inspect::preview_inputs(server, &args),
        Authoring::PreviewRendered => inspect::preview_rendered(server, &args),
        Authoring::StepPlan => inspect::step_plan(server, &args),
        Authoring::ResolveInputs => inspect::resolve_inputs(server, &args),
        Authoring::Save => write::save(connection, &args).await,
        Authoring::Rename => write::rename(connection, &args).await,
        Authoring::Delete => write::delete(connection, &args).await,
        Authoring::Run | Authoring::Resume => unreachable!("answered above"),
        Authoring::Status => runs::status(server, &args),
        Authoring::Cancel => runs::cancel(server, &args),
        Authoring::Plan => Ok(planner::plan(server, &args)),
    };
    Ok(match result {
        Ok(result) => result,
        Err(failure) => failure.into_result(),
    }
    .into())
}

/// The library workflow `given` names, for the prompts.
pub(crate) fn resolve_for_prompt(server: &McpServer, given: &str) -> Result<Listed, Failure> {
    source::resolve(server, given)
}
