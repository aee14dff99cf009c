//! The `error_code`s a tool call may return, one enum: each code's category, whether trying again
//! may help, and when it is raised. docs/mcp.md lists them from here.

use serde::Serialize;

/// What kind of failure, for a client deciding what to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Category {
    Validation,
    NotFound,
    Conflict,
    Execution,
    Internal,
}

/// Every `error_code` a failed tool call carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub(crate) enum ErrorCode {
    InvalidArguments,
    InvalidInputs,
    InvalidWorkflowName,
    WorkflowValidationFailed,
    WorkflowTooLarge,
    WorkflowNotFound,
    RunNotFound,
    InvalidAnswer,
    RunNotWaiting,
    WorkflowExists,
    VersionConflict,
    ReadOnlyWorkflow,
    WorkflowUnreadable,
    NoWorkflowDirectory,
    WriteFailed,
    TooManyRuns,
    TooManyCalls,
    RunFailed,
    RunCancelled,
    InputDeclined,
    Cancelled,
    NotConfigured,
    ProviderUnavailable,
    LimitExceeded,
    ToolFailed,
    Internal,
}

impl ErrorCode {
    /// Every code, in the order docs/mcp.md lists them.
    pub(crate) const ALL: [ErrorCode; 26] = [
        ErrorCode::InvalidArguments,
        ErrorCode::InvalidInputs,
        ErrorCode::InvalidWorkflowName,
        ErrorCode::WorkflowValidationFailed,
        ErrorCode::WorkflowTooLarge,
        ErrorCode::WorkflowNotFound,
        ErrorCode::RunNotFound,
        ErrorCode::InvalidAnswer,
        ErrorCode::RunNotWaiting,
        ErrorCode::WorkflowExists,
        ErrorCode::VersionConflict,
        ErrorCode::ReadOnlyWorkflow,
        ErrorCode::WorkflowUnreadable,
        ErrorCode::NoWorkflowDirectory,
        ErrorCode::WriteFailed,
        ErrorCode::TooManyRuns,
        ErrorCode::TooManyCalls,
        ErrorCode::RunFailed,
        ErrorCode::RunCancelled,
        ErrorCode::InputDeclined,
        ErrorCode::Cancelled,
        ErrorCode::NotConfigured,
        ErrorCode::ProviderUnavailable,
        ErrorCode::LimitExceeded,
        ErrorCode::ToolFailed,
        ErrorCode::Internal,
    ];

    /// The code as clients read it (`WORKFLOW_NOT_FOUND`).
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            ErrorCode::InvalidArguments => "INVALID_ARGUMENTS",
            ErrorCode::InvalidInputs => "INVALID_INPUTS",
            ErrorCode::InvalidWorkflowName => "INVALID_WORKFLOW_NAME",
            ErrorCode::WorkflowValidationFailed => "WORKFLOW_VALIDATION_FAILED",
            ErrorCode::WorkflowTooLarge => "WORKFLOW_TOO_LARGE",
            ErrorCode::WorkflowNotFound => "WORKFLOW_NOT_FOUND",
            ErrorCode::RunNotFound => "RUN_NOT_FOUND",
            ErrorCode::InvalidAnswer => "INVALID_ANSWER",
            ErrorCode::RunNotWaiting => "RUN_NOT_WAITING",
            ErrorCode::WorkflowExists => "WORKFLOW_EXISTS",
            ErrorCode::VersionConflict => "VERSION_CONFLICT",
            ErrorCode::ReadOnlyWorkflow => "READ_ONLY_WORKFLOW",
            ErrorCode::WorkflowUnreadable => "WORKFLOW_UNREADABLE",
            ErrorCode::NoWorkflowDirectory => "NO_WORKFLOW_DIRECTORY",
            ErrorCode::WriteFailed => "WRITE_FAILED",
            ErrorCode::TooManyRuns => "TOO_MANY_RUNS",
            ErrorCode::TooManyCalls => "TOO_MANY_CALLS",
            ErrorCode::RunFailed => "RUN_FAILED",
            ErrorCode::RunCancelled => "RUN_CANCELLED",
            ErrorCode::InputDeclined => "INPUT_DECLINED",
            ErrorCode::Cancelled => "CANCELLED",
            ErrorCode::NotConfigured => "NOT_CONFIGURED",
            ErrorCode::ProviderUnavailable => "PROVIDER_UNAVAILABLE",
            ErrorCode::LimitExceeded => "LIMIT_EXCEEDED",
            ErrorCode::ToolFailed => "TOOL_FAILED",
            ErrorCode::Internal => "INTERNAL",
        }
    }

    pub(crate) fn category(self) -> Category {
        match self {
            ErrorCode::InvalidArguments
            | ErrorCode::InvalidInputs
            | ErrorCode::InvalidWorkflowName
            | ErrorCode::WorkflowValidationFailed
            | ErrorCode::WorkflowTooLarge
            | ErrorCode::InvalidAnswer => Category::Validation,
            ErrorCode::WorkflowNotFound | ErrorCode::RunNotFound => Category::NotFound,
            ErrorCode::WorkflowExists
            | ErrorCode::VersionConflict
            | ErrorCode::ReadOnlyWorkflow
            | ErrorCode::RunNotWaiting => Category::Conflict,
            ErrorCode::WorkflowUnreadable
            | ErrorCode::NoWorkflowDirectory
            | ErrorCode::WriteFailed
            | ErrorCode::TooManyRuns
            | ErrorCode::TooManyCalls
            | ErrorCode::RunFailed
            | ErrorCode::RunCancelled
            | ErrorCode::InputDeclined
            | ErrorCode::Cancelled
            | ErrorCode::NotConfigured
            | ErrorCode::ProviderUnavailable
            | ErrorCode::LimitExceeded
            | ErrorCode::ToolFailed => Category::Execution,
            ErrorCode::Internal => Category::Internal,
        }
    }

    /// Whether the same call may succeed later (a limit, a transient provider failure).
    pub(crate) fn retryable(self) -> bool {
        matches!(
            self,
            ErrorCode::WriteFailed
                | ErrorCode::TooManyRuns
                | ErrorCode::TooManyCalls
                | ErrorCode::ProviderUnavailable
        )
    }

    /// When it is raised, for docs/mcp.md.
    pub(crate) fn when(self) -> &'static str {
        match self {
            ErrorCode::InvalidArguments => {
                "the arguments do not match the tool's input schema (each field in `violations`)"
            }
            ErrorCode::InvalidInputs => "a workflow's inputs are missing or of the wrong type",
            ErrorCode::InvalidWorkflowName => {
                "a workflow named with a path, or a file name that is not a plain name"
            }
            ErrorCode::WorkflowValidationFailed => {
                "the workflow has errors (each in `violations`, with its step and field)"
            }
            ErrorCode::WorkflowTooLarge => {
                "a document above the 5 MiB workflow file limit, refused before it is parsed"
            }
            ErrorCode::WorkflowNotFound => "no workflow by that id or name",
            ErrorCode::RunNotFound => {
                "no run by that id (only the most recent finished runs are kept)"
            }
            ErrorCode::InvalidAnswer => {
                "an answer to a waiting run does not satisfy what its `yield` step expects (each field in `violations`)"
            }
            ErrorCode::RunNotWaiting => {
                "an answer was given to a run that is not waiting for one (it runs, or it ended)"
            }
            ErrorCode::WorkflowExists => {
                "a save would replace an existing file without its version"
            }
            ErrorCode::VersionConflict => "the file changed since the version given was read",
            ErrorCode::ReadOnlyWorkflow => "built-ins and examples cannot be changed; save a copy",
            ErrorCode::WorkflowUnreadable => "the workflow file cannot be read",
            ErrorCode::NoWorkflowDirectory => "the server has no directory to save into",
            ErrorCode::WriteFailed => "the file could not be written (permissions, space)",
            ErrorCode::TooManyRuns => "the run manager is at its limit of runs going at once",
            ErrorCode::TooManyCalls => "as many vai tool calls as allowed are already running",
            ErrorCode::RunFailed => {
                "a step failed (`context.step_id`; each failed step in `violations`)"
            }
            ErrorCode::RunCancelled => "the run was cancelled",
            ErrorCode::InputDeclined => {
                "the person asked (elicitation) declined or dismissed the question of a waiting run, so the run was cancelled and what it had done undone"
            }
            ErrorCode::Cancelled => "the vai tool call was cancelled",
            ErrorCode::NotConfigured => "a provider the tool needs is not configured",
            ErrorCode::ProviderUnavailable => {
                "a provider failed transiently (rate limit, timeout, 5xx, network)"
            }
            ErrorCode::LimitExceeded => "a value the tool was building ran into a limit",
            ErrorCode::ToolFailed => "the tool failed; the message says why",
            ErrorCode::Internal => "a bug in vai",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every code is raised somewhere in the crate (a code no path raises is documented for
    /// nothing), and every code's name is what serde writes.
    #[test]
    fn every_code_is_raised_and_named_as_serialised() {
        fn sources(dir: &std::path::Path, out: &mut String) {
            for entry in std::fs::read_dir(dir).unwrap().flatten() {
                let path = entry.path();
                if path.is_dir() {
                    sources(&path, out);
                } else if path.extension().is_some_and(|e| e == "rs") && !path.ends_with("codes.rs")
                {
                    out.push_str(&std::fs::read_to_string(&path).unwrap());
                }
            }
        }
        let mut text = String::new();
        sources(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
            &mut text,
        );
        for code in ErrorCode::ALL {
            let variant = format!("ErrorCode::{code:?}");
            assert!(text.contains(&variant), "{variant} is never raised");
            assert_eq!(
                serde_json::to_value(code).unwrap(),
                serde_json::json!(code.as_str())
            );
        }
    }
}
