//! Which workflow an authoring call is about: one of the library's, named by `workflow_id` (an
//! id, a `w_*` tool name, a file or built-in name — never a path), or a document given inline as
//! `definition` (JSON) or `content` (file text, refused above the file size limit before it is
//! parsed).

use crate::codes::ErrorCode;
use crate::failure::{Failure, Violation};
use crate::names::slug;
use crate::server::McpServer;
use crate::tools::workflows::{self, Listed};
use serde_json::{Map, Value};
use std::sync::Arc;
use vai_runtime::FILE_SUFFIX;
use vai_runtime::runs::kept::json_len;
use vai_workflow::load::MAX_FILE_BYTES;
use vai_workflow::value::truncate_chars;
use vai_workflow::{Compiled, Diagnostic, Mode, Plan, compile};

/// A workflow document to work on.
pub(crate) struct Document {
    pub(crate) value: Value,
    /// The library id, when it came from the library.
    pub(crate) workflow_id: Option<String>,
}

/// The library workflow `given` names.
pub(crate) fn resolve(server: &McpServer, given: &str) -> Result<Listed, Failure> {
    if given.contains(['/', '\\', '\0']) || given.contains("..") {
        return Err(Failure::new(
            ErrorCode::InvalidWorkflowName,
            format!("\"{}\" is a path; workflows are named, never reached by path", truncate_chars(given, 80)),
            "name the workflow by its id from workflow_list (file:my-flow.vai-workflow.json), its w_* tool name or its file name",
        )
        .path("workflow_id"));
    }
    let listed = workflows::listed(server);
    let file_id = if given.ends_with(FILE_SUFFIX) {
        format!("file:{given}")
    } else {
        format!("file:{given}{FILE_SUFFIX}")
    };
    let by = |pred: &dyn Fn(&Listed) -> bool| listed.iter().find(|w| pred(w)).cloned();
    by(&|w| w.summary.id == given)
        .or_else(|| by(&|w| w.tool_name().as_deref() == Some(given)))
        .or_else(|| by(&|w| w.summary.id == file_id))
        .or_else(|| {
            by(&|w| {
                w.summary
                    .id
                    .split_once(':')
                    .is_some_and(|(_, n)| n == given)
            })
        })
        .or_else(|| by(&|w| w.slug == given.strip_prefix("w_").unwrap_or(given)))
        .or_else(|| by(&|w| w.summary.name.eq_ignore_ascii_case(given)))
        .or_else(|| by(&|w| w.slug == slug(given)))
        .ok_or_else(|| {
            Failure::new(
                ErrorCode::WorkflowNotFound,
                format!("no workflow named \"{}\"", truncate_chars(given, 80)),
                "call workflow_list for the workflows there are",
            )
            .path("workflow_id")
        })
}

/// The document the arguments give: exactly one of `workflow_id`, `definition` and `content`.
/// `Ok(Err(_))` is a file text that is not JSON, as a diagnostic with line and column.
pub(crate) fn document(
    server: &McpServer,
    args: &Map<String, Value>,
) -> Result<Result<Document, Diagnostic>, Failure> {
    let given: Vec<&str> = ["workflow_id", "definition", "content"]
        .into_iter()
        .filter(|k| args.get(*k).is_some_and(|v| !v.is_null()))
        .collect();
    if given.len() != 1 {
        return Err(Failure::invalid_arguments(
            "workflow",
            vec![Violation::new(
                given.get(1).copied().unwrap_or(""),
                "oneOf",
                format!(
                    "give exactly one of workflow_id, definition and content (got {})",
                    if given.is_empty() {
                        "none".to_string()
                    } else {
                        given.join(", ")
                    }
                ),
            )],
        ));
    }
    match given[0] {
        "workflow_id" => {
            let id = args
                .get("workflow_id")
                .and_then(Value::as_str)
                .unwrap_or_default();
            let listed = resolve(server, id)?;
            let id = listed.summary.id.clone();
            let text = listed.document.map(|d| d.text).ok_or_else(|| {
                Failure::new(
                    ErrorCode::WorkflowUnreadable,
                    format!(
                        "{id} cannot be read: {}",
                        listed.summary.error.as_deref().unwrap_or("unknown error")
                    ),
                    "fix or replace the file, then try again",
                )
                .workflow(id.clone())
            })?;
            Ok(vai_workflow::load::parse_json(&text)
                .map(|value| Document {
                    value,
                    workflow_id: Some(id),
                })
                .map_err(|d| *d))
        }
        "definition" => {
            let value = args.get("definition").cloned().unwrap_or_default();
            check_size(json_len(&value))?;
            Ok(Ok(Document {
                value,
                workflow_id: None,
            }))
        }
        _ => {
            let text = args
                .get("content")
                .and_then(Value::as_str)
                .unwrap_or_default();
            check_size(text.len())?;
            Ok(vai_workflow::load::parse_json(text)
                .map(|value| Document {
                    value,
                    workflow_id: None,
                })
                .map_err(|d| *d))
        }
    }
}

/// Refuse a document above the workflow file size limit, before anything parses or copies it.
pub(crate) fn check_size(bytes: usize) -> Result<(), Failure> {
    if bytes as u64 > MAX_FILE_BYTES {
        return Err(Failure::new(
            ErrorCode::WorkflowTooLarge,
            format!(
                "the workflow is {bytes} bytes; workflow files are limited to {MAX_FILE_BYTES} bytes"
            ),
            "make the workflow smaller (move large text into inputs or documents)",
        ));
    }
    Ok(())
}

/// The document, requiring it to be JSON.
pub(crate) fn parsed(server: &McpServer, args: &Map<String, Value>) -> Result<Document, Failure> {
    document(server, args)?.map_err(|syntax| Failure::invalid_workflow(&[syntax]))
}

/// The document and its compilation.
pub(crate) fn compiled(
    server: &McpServer,
    args: &Map<String, Value>,
    mode: Mode,
) -> Result<(Document, Compiled), Failure> {
    let document = parsed(server, args)?;
    let compiled = compile(&document.value, &server.inner().registry, mode);
    Ok((document, compiled))
}

/// The document's runnable plan, or every error that stops it from running.
pub(crate) fn plan(
    server: &McpServer,
    args: &Map<String, Value>,
) -> Result<(Document, Arc<Plan>), Failure> {
    let (document, compiled) = compiled(server, args, Mode::Strict)?;
    match compiled.plan {
        Some(plan) if compiled.is_valid() => Ok((document, plan)),
        _ => {
            let failure = Failure::invalid_workflow(&compiled.diagnostics);
            Err(match document.workflow_id {
                Some(id) => failure.workflow(id),
                None => failure,
            })
        }
    }
}
