//! A tool call that did not do what was asked, as the caller reads it: a `CallToolResult` with
//! `isError` and one structured body — a stable code, a category, the ids it
//! concerns, whether trying again may help, the one thing to do next, and every violation.
//! Protocol errors (an unknown tool, a malformed request) are not these: they are JSON-RPC
//! errors, raised in `server.rs`.

use crate::codes::{Category, ErrorCode};
use rmcp::model::{CallToolResult, ContentBlock};
use serde::Serialize;
use vai_workflow::{Diagnostic, Severity};

/// The ids a failure concerns; absent ones are left out.
#[derive(Debug, Clone, Default, Serialize)]
pub(crate) struct Context {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) workflow_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) run_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) step_id: Option<String>,
    /// The argument or document field concerned (`inputs.query`, `steps[1].tool`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) path: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) line: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) column: Option<usize>,
}

/// One rule a document or an argument broke.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct Violation {
    pub(crate) path: String,
    pub(crate) rule: String,
    pub(crate) message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) expected: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) actual: Option<String>,
}

impl Violation {
    pub(crate) fn new(path: impl Into<String>, rule: &str, message: impl Into<String>) -> Self {
        Self {
            path: path.into(),
            rule: rule.to_string(),
            message: message.into(),
            expected: None,
            actual: None,
        }
    }

    pub(crate) fn expected(
        mut self,
        expected: impl Into<String>,
        actual: impl Into<String>,
    ) -> Self {
        self.expected = Some(expected.into());
        self.actual = Some(actual.into());
        self
    }

    /// An error diagnostic as a violation: its step and field make the path, its code the rule.
    pub(crate) fn of_diagnostic(d: &Diagnostic) -> Self {
        let path = match (&d.step_id, &d.field) {
            (Some(step), Some(field)) => format!("steps[{step}].{field}"),
            (Some(step), None) => format!("steps[{step}]"),
            (None, Some(field)) => field.clone(),
            (None, None) => match (d.line, d.column) {
                (Some(line), Some(column)) => format!("{line}:{column}"),
                _ => String::new(),
            },
        };
        Self::new(path, d.code.as_str(), d.message.clone())
    }
}

/// A failed tool call.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Failure {
    pub(crate) error_code: ErrorCode,
    pub(crate) category: Category,
    pub(crate) message: String,
    /// Boxed: it is most of the failure's size, and failures travel in `Result`s.
    pub(crate) context: Box<Context>,
    pub(crate) retryable: bool,
    pub(crate) suggested_action: String,
    pub(crate) violations: Vec<Violation>,
}

impl Failure {
    /// A failure with `code`, whose category and whether trying again may help come from the
    /// code itself.
    pub(crate) fn new(
        code: ErrorCode,
        message: impl Into<String>,
        suggested_action: impl Into<String>,
    ) -> Self {
        Self {
            error_code: code,
            category: code.category(),
            message: message.into(),
            context: Box::default(),
            retryable: code.retryable(),
            suggested_action: suggested_action.into(),
            violations: Vec::new(),
        }
    }

    pub(crate) fn workflow(mut self, id: impl Into<String>) -> Self {
        self.context.workflow_id = Some(id.into());
        self
    }

    pub(crate) fn run(mut self, id: impl Into<String>) -> Self {
        self.context.run_id = Some(id.into());
        self
    }

    pub(crate) fn step(mut self, id: impl Into<String>) -> Self {
        self.context.step_id = Some(id.into());
        self
    }

    pub(crate) fn path(mut self, path: impl Into<String>) -> Self {
        self.context.path = Some(path.into());
        self
    }

    pub(crate) fn violations(mut self, violations: Vec<Violation>) -> Self {
        if self.context.path.is_none()
            && let [only] = violations.as_slice()
        {
            self.context.path = Some(only.path.clone());
        }
        self.violations = violations;
        self
    }

    /// Arguments that do not fit the tool's input schema.
    pub(crate) fn invalid_arguments(tool: &str, violations: Vec<Violation>) -> Self {
        let listed: Vec<String> = violations
            .iter()
            .map(|v| {
                if v.path.is_empty() {
                    v.message.clone()
                } else {
                    format!("{}: {}", v.path, v.message)
                }
            })
            .collect();
        Self::new(
            ErrorCode::InvalidArguments,
            format!("{tool}: {}", listed.join("; ")),
            "call the tool again with arguments that match its input schema",
        )
        .violations(violations)
    }

    /// A workflow with errors: every error diagnostic as a violation, the first one's place in
    /// the context.
    pub(crate) fn invalid_workflow(diagnostics: &[Diagnostic]) -> Self {
        let errors: Vec<&Diagnostic> = diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .collect();
        let message = match errors.as_slice() {
            [] => "the workflow is not valid".to_string(),
            [one] => format!("the workflow is not valid: {one}"),
            [first, rest @ ..] => format!(
                "the workflow has {} errors; the first: {first}",
                rest.len() + 1
            ),
        };
        let mut failure = Self::new(
            ErrorCode::WorkflowValidationFailed,
            message,
            "fix every violation (workflow_validate lists them with their step and field), then try again",
        )
        .violations(errors.iter().map(|d| Violation::of_diagnostic(d)).collect());
        if let Some(first) = errors.first() {
            failure.context.step_id = first.step_id.clone();
            failure.context.path = first.field.clone();
            failure.context.line = first.line;
            failure.context.column = first.column;
        }
        failure
    }

    pub(crate) fn internal(message: impl Into<String>) -> Self {
        Self::new(
            ErrorCode::Internal,
            message,
            "try again; if it persists, report it with the vai version",
        )
    }

    /// The result a client receives: the body as `structuredContent`, and as text for clients
    /// that read only `content`.
    pub(crate) fn into_result(self) -> CallToolResult {
        let body = serde_json::to_value(&self).unwrap_or_default();
        let mut text = format!("{}: {}", self.error_code.as_str(), self.message);
        if !self.suggested_action.is_empty() {
            text.push_str(&format!("\nNext: {}", self.suggested_action));
        }
        let mut result = CallToolResult::error(vec![
            ContentBlock::text(text),
            ContentBlock::text(body.to_string()),
        ]);
        result.structured_content = Some(body);
        result
    }
}

impl From<Failure> for CallToolResult {
    fn from(failure: Failure) -> Self {
        failure.into_result()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use vai_workflow::DiagnosticCode;

    #[test]
    fn the_body_has_every_field_of_the_contract() {
        let result = Failure::new(ErrorCode::VersionConflict, "m", "do y")
            .workflow("file:a.vai-workflow.json")
            .into_result();
        assert_eq!(result.is_error, Some(true));
        assert_eq!(
            result.structured_content.unwrap(),
            json!({
                "error_code": "VERSION_CONFLICT",
                "category": "conflict",
                "message": "m",
                "context": {"workflow_id": "file:a.vai-workflow.json"},
                "retryable": false,
                "suggested_action": "do y",
                "violations": []
            })
        );
    }

    #[test]
    fn an_invalid_workflow_lists_every_error_and_places_the_first() {
        let diagnostics = vec![
            Diagnostic::error(DiagnosticCode::InvalidTool, "unknown tool \"serch\"")
                .step("s")
                .field("tool"),
            Diagnostic::warning(DiagnosticCode::OrphanNode, "a warning"),
            Diagnostic::error(DiagnosticCode::UnknownStepRef, "references unknown step").step("t"),
        ];
        let failure = Failure::invalid_workflow(&diagnostics);
        assert_eq!(failure.violations.len(), 2);
        assert_eq!(failure.violations[0].path, "steps[s].tool");
        assert_eq!(failure.violations[0].rule, "INVALID_TOOL");
        assert_eq!(failure.context.step_id.as_deref(), Some("s"));
        assert_eq!(failure.context.path.as_deref(), Some("tool"));
        assert!(failure.message.starts_with("the workflow has 2 errors"));
    }
}
