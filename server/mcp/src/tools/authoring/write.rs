//! `workflow_save`, `workflow_rename` and `workflow_delete`: changes to the workflow directory,
//! through the library's own save, rename and delete (one change at a time, atomic writes, the
//! version read checked against the file on disk). Each tells this client at once that its tool
//! list changed; other clients learn it from their directory watch.

use super::args::string;
use super::source::{check_size, resolve};
use crate::codes::ErrorCode;
use crate::failure::{Failure, Violation};
use crate::server::Connection;
use crate::tools::workflows;
use rmcp::model::CallToolResult;
use serde_json::{Map, Value, json};
use vai_contract::WorkflowSource;
use vai_runtime::{FILE_SUFFIX, SaveError, SaveRequest, Saved};
use vai_workflow::{Mode, compile};

pub(super) async fn save(
    connection: &Connection,
    args: &Map<String, Value>,
) -> Result<CallToolResult, Failure> {
    let server = &connection.server;
    let definition = match (args.get("definition"), string(args, "content")) {
        (Some(d), None) if !d.is_null() => {
            check_size(vai_runtime::runs::kept::json_len(d))?;
            d.clone()
        }
        (None, Some(text)) => {
            check_size(text.len())?;
            vai_workflow::load::parse_json(text).map_err(|d| Failure::invalid_workflow(&[*d]))?
        }
        _ => {
            return Err(Failure::invalid_arguments(
                "workflow_save",
                vec![Violation::new(
                    "definition",
                    "oneOf",
                    "give exactly one of definition and content",
                )],
            ));
        }
    };
    let name = match string(args, "name") {
        Some(given) => file_name_arg(given)?,
        None => file_name_arg(&stem_of_workflow(&definition)?)?,
    };
    let compiled = compile(&definition, &server.inner().registry, Mode::Strict);
    if !compiled.is_valid() {
        return Err(Failure::invalid_workflow(&compiled.diagnostics).path(name.clone()));
    }
    let base_version = string(args, "version").map(str::to_string);
    let request = SaveRequest {
        file_name: name.clone(),
        definition,
        base_version: base_version.clone(),
        overwrite: args
            .get("overwrite")
            .and_then(Value::as_bool)
            .unwrap_or(false),
    };
    let library = server.inner().library.clone();
    let saved = tokio::task::spawn_blocking(move || library.save(request))
        .await
        .map_err(|e| Failure::internal(e.to_string()))?
        .map_err(|e| save_failure(e, &name, base_version.is_some()))?;
    connection.watch.changed().await;
    Ok(saved_result(connection, &saved))
}

pub(super) async fn rename(
    connection: &Connection,
    args: &Map<String, Value>,
) -> Result<CallToolResult, Failure> {
    let from = file_of(connection, string(args, "workflow_id").unwrap_or_default())?;
    let to = file_name_arg(string(args, "new_name").unwrap_or_default())?;
    let version = string(args, "version").unwrap_or_default().to_string();
    let library = connection.server.inner().library.clone();
    let (f, t, v) = (from.clone(), to.clone(), version);
    let saved = tokio::task::spawn_blocking(move || library.rename(&f, &t, &v))
        .await
        .map_err(|e| Failure::internal(e.to_string()))?
        .map_err(|e| save_failure(e, &from, true))?;
    connection.watch.changed().await;
    Ok(saved_result(connection, &saved))
}

pub(super) async fn delete(
    connection: &Connection,
    args: &Map<String, Value>,
) -> Result<CallToolResult, Failure> {
    let name = file_of(connection, string(args, "workflow_id").unwrap_or_default())?;
    let version = string(args, "version").unwrap_or_default().to_string();
    let library = connection.server.inner().library.clone();
    let (n, v) = (name.clone(), version);
    tokio::task::spawn_blocking(move || library.delete(&n, &v))
        .await
        .map_err(|e| Failure::internal(e.to_string()))?
        .map_err(|e| save_failure(e, &name, true))?;
    connection.watch.changed().await;
    Ok(CallToolResult::structured(json!({
        "deleted": format!("file:{name}"),
    })))
}

/// The file name `given` names: a plain name (the library checks it is no path), or the id of
/// a file workflow.
/// A file name for a workflow saved without one: made from its `name` (`RAG Chat` →
/// `rag-chat`).
fn stem_of_workflow(definition: &Value) -> Result<String, Failure> {
    let name = definition.get("name").and_then(Value::as_str).unwrap_or("");
    vai_runtime::save::stem_for(name).ok_or_else(|| {
        Failure::invalid_arguments(
            "workflow_save",
            vec![Violation::new(
                "name",
                "required",
                "give a file name: the workflow's name has no letters or digits to make one from",
            )],
        )
    })
}

fn file_name_arg(given: &str) -> Result<String, Failure> {
    if given.starts_with("builtin:") || given.starts_with("example:") {
        return Err(read_only(given));
    }
    let name = given.strip_prefix("file:").unwrap_or(given);
    vai_runtime::save::file_name(name).map_err(|e| save_failure(e, given, false))
}

/// The file name of the library workflow `given` names, which must be a file.
fn file_of(connection: &Connection, given: &str) -> Result<String, Failure> {
    let listed = resolve(&connection.server, given)?;
    if listed.summary.source != WorkflowSource::File {
        return Err(read_only(&listed.summary.id));
    }
    let id = &listed.summary.id;
    Ok(id.strip_prefix("file:").unwrap_or(id).to_string())
}

fn read_only(id: &str) -> Failure {
    Failure::new(
        ErrorCode::ReadOnlyWorkflow,
        format!("{id} ships with vai and cannot be changed"),
        "save a copy under a new name with workflow_save, then change the copy",
    )
    .workflow(id.to_string())
}

fn saved_result(connection: &Connection, saved: &Saved) -> CallToolResult {
    let tool = workflows::listed(&connection.server)
        .into_iter()
        .find(|w| w.summary.id == saved.id)
        .and_then(|w| w.tool_name());
    CallToolResult::structured(json!({
        "workflow_id": saved.id,
        "path": saved.id.strip_prefix("file:").unwrap_or(&saved.id),
        "version": saved.version,
        "tool": tool,
        "name": saved.summary.name,
    }))
}

fn save_failure(e: SaveError, name: &str, had_version: bool) -> Failure {
    let id = if name.ends_with(FILE_SUFFIX) {
        format!("file:{name}")
    } else {
        name.to_string()
    };
    let failure = match e {
        SaveError::NoDirectory => Failure::new(
            ErrorCode::NoWorkflowDirectory,
            "this server has no workflow directory to write into",
            "start `vai mcp` in the directory that should hold the workflows",
        ),
        SaveError::InvalidName(message) => {
            return Failure::new(
                ErrorCode::InvalidWorkflowName,
                message,
                "use a plain file name such as my-flow (letters, digits, spaces, '.', '_', '-')",
            )
            .path("name");
        }
        SaveError::TooLarge(message) => Failure::new(
            ErrorCode::WorkflowTooLarge,
            message,
            "make the workflow smaller",
        ),
        SaveError::Conflict(message) if had_version => Failure::new(
            ErrorCode::VersionConflict,
            message,
            "call workflow_get for the current content and version, apply your change to it, and try again with that version",
        ),
        SaveError::Conflict(message) => Failure::new(
            ErrorCode::WorkflowExists,
            message,
            "to replace it, pass the version workflow_get returns; or save under another name",
        ),
        SaveError::NotFound(message) => Failure::new(
            ErrorCode::WorkflowNotFound,
            format!("no workflow file named {message}"),
            "call workflow_list for the workflows there are",
        ),
        SaveError::Io(message) => Failure::new(
            ErrorCode::WriteFailed,
            message,
            "check the workflow directory's permissions and free space, then try again",
        ),
    };
    failure.workflow(id)
}
