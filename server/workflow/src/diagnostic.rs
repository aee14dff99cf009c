//! Validation findings: every problem in a workflow, each with a stable code, the step and
//! field it concerns, and a message written for the person who has to fix it.

use serde::Serialize;
use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
    Info,
}

/// Every code a finding carries: stable, listed in docs/workflows.md (a test checks), and a
/// union type in TypeScript.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum DiagnosticCode {
    CircularDependency,
    DuplicateId,
    EmptyCondition,
    FileTooLarge,
    InvalidCondition,
    InvalidDefinition,
    InvalidForeach,
    InvalidFormatters,
    InvalidInput,
    InvalidInputType,
    InvalidJson,
    InvalidStepId,
    InvalidTool,
    InvalidUi,
    InvalidVersion,
    LimitExceeded,
    MissingInputs,
    MissingRequiredInput,
    MissingSteps,
    MissingStepId,
    MissingStepName,
    MissingTool,
    MissingWorkflowName,
    NotUpstream,
    OrphanNode,
    TemplateSyntax,
    TooDeep,
    UnknownDependsOn,
    UnknownStepRef,
    UnknownWorkflow,
}

impl DiagnosticCode {
    /// Every code.
    pub const ALL: [DiagnosticCode; 30] = [
        DiagnosticCode::CircularDependency,
        DiagnosticCode::DuplicateId,
        DiagnosticCode::EmptyCondition,
        DiagnosticCode::FileTooLarge,
        DiagnosticCode::InvalidCondition,
        DiagnosticCode::InvalidDefinition,
        DiagnosticCode::InvalidForeach,
        DiagnosticCode::InvalidFormatters,
        DiagnosticCode::InvalidInput,
        DiagnosticCode::InvalidInputType,
        DiagnosticCode::InvalidJson,
        DiagnosticCode::InvalidStepId,
        DiagnosticCode::InvalidTool,
        DiagnosticCode::InvalidUi,
        DiagnosticCode::InvalidVersion,
        DiagnosticCode::LimitExceeded,
        DiagnosticCode::MissingInputs,
        DiagnosticCode::MissingRequiredInput,
        DiagnosticCode::MissingSteps,
        DiagnosticCode::MissingStepId,
        DiagnosticCode::MissingStepName,
        DiagnosticCode::MissingTool,
        DiagnosticCode::MissingWorkflowName,
        DiagnosticCode::NotUpstream,
        DiagnosticCode::OrphanNode,
        DiagnosticCode::TemplateSyntax,
        DiagnosticCode::TooDeep,
        DiagnosticCode::UnknownDependsOn,
        DiagnosticCode::UnknownStepRef,
        DiagnosticCode::UnknownWorkflow,
    ];

    /// The code as written in messages and JSON (`UNKNOWN_STEP_REF`).
    pub fn as_str(self) -> &'static str {
        match self {
            DiagnosticCode::CircularDependency => "CIRCULAR_DEPENDENCY",
            DiagnosticCode::DuplicateId => "DUPLICATE_ID",
            DiagnosticCode::EmptyCondition => "EMPTY_CONDITION",
            DiagnosticCode::FileTooLarge => "FILE_TOO_LARGE",
            DiagnosticCode::InvalidCondition => "INVALID_CONDITION",
            DiagnosticCode::InvalidDefinition => "INVALID_DEFINITION",
            DiagnosticCode::InvalidForeach => "INVALID_FOREACH",
            DiagnosticCode::InvalidFormatters => "INVALID_FORMATTERS",
            DiagnosticCode::InvalidInput => "INVALID_INPUT",
            DiagnosticCode::InvalidInputType => "INVALID_INPUT_TYPE",
            DiagnosticCode::InvalidJson => "INVALID_JSON",
            DiagnosticCode::InvalidStepId => "INVALID_STEP_ID",
            DiagnosticCode::InvalidTool => "INVALID_TOOL",
            DiagnosticCode::InvalidUi => "INVALID_UI",
            DiagnosticCode::InvalidVersion => "INVALID_VERSION",
            DiagnosticCode::LimitExceeded => "LIMIT_EXCEEDED",
            DiagnosticCode::MissingInputs => "MISSING_INPUTS",
            DiagnosticCode::MissingRequiredInput => "MISSING_REQUIRED_INPUT",
            DiagnosticCode::MissingSteps => "MISSING_STEPS",
            DiagnosticCode::MissingStepId => "MISSING_STEP_ID",
            DiagnosticCode::MissingStepName => "MISSING_STEP_NAME",
            DiagnosticCode::MissingTool => "MISSING_TOOL",
            DiagnosticCode::MissingWorkflowName => "MISSING_WORKFLOW_NAME",
            DiagnosticCode::NotUpstream => "NOT_UPSTREAM",
            DiagnosticCode::OrphanNode => "ORPHAN_NODE",
            DiagnosticCode::TemplateSyntax => "TEMPLATE_SYNTAX",
            DiagnosticCode::TooDeep => "TOO_DEEP",
            DiagnosticCode::UnknownDependsOn => "UNKNOWN_DEPENDS_ON",
            DiagnosticCode::UnknownStepRef => "UNKNOWN_STEP_REF",
            DiagnosticCode::UnknownWorkflow => "UNKNOWN_WORKFLOW",
        }
    }
}

impl fmt::Display for DiagnosticCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Tests and tools compare a code with its name as written.
impl PartialEq<&str> for DiagnosticCode {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

/// One finding.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Diagnostic {
    pub severity: Severity,
    /// Stable code, e.g. `UNKNOWN_STEP_REF` (listed in docs/workflows.md).
    pub code: DiagnosticCode,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub step_id: Option<String>,
    /// Dotted field path within the step or file, e.g. `inputs.query` or `inputs.arrays[1]`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub field: Option<String>,
    /// The step a reference points at, for reference errors.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub referenced_step: Option<String>,
    /// 1-based line and column in the file, for JSON syntax errors.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub line: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub column: Option<usize>,
}

impl Diagnostic {
    pub fn error(code: DiagnosticCode, message: impl Into<String>) -> Self {
        Self {
            severity: Severity::Error,
            code,
            message: message.into(),
            step_id: None,
            field: None,
            referenced_step: None,
            line: None,
            column: None,
        }
    }

    pub fn warning(code: DiagnosticCode, message: impl Into<String>) -> Self {
        Self {
            severity: Severity::Warning,
            ..Self::error(code, message)
        }
    }

    pub fn info(code: DiagnosticCode, message: impl Into<String>) -> Self {
        Self {
            severity: Severity::Info,
            ..Self::error(code, message)
        }
    }

    pub fn step(mut self, id: impl Into<String>) -> Self {
        self.step_id = Some(id.into());
        self
    }

    pub fn field(mut self, field: impl Into<String>) -> Self {
        self.field = Some(field.into());
        self
    }

    pub fn referencing(mut self, step: impl Into<String>) -> Self {
        self.referenced_step = Some(step.into());
        self
    }

    pub fn at(mut self, line: usize, column: usize) -> Self {
        self.line = Some(line);
        self.column = Some(column);
        self
    }

    pub fn with_severity(mut self, severity: Severity) -> Self {
        self.severity = severity;
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl fmt::Display for Diagnostic {
    /// `step "search" field inputs.query: message [CODE]`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let (Some(line), Some(column)) = (self.line, self.column) {
            write!(f, "line {line}, column {column}: ")?;
        }
        match (&self.step_id, &self.field) {
            (Some(s), Some(field)) => write!(f, "step \"{s}\", {field}: ")?,
            (Some(s), None) => write!(f, "step \"{s}\": ")?,
            (None, Some(field)) => write!(f, "{field}: ")?,
            (None, None) => {}
        }
        write!(f, "{} [{}]", self.message, self.code)
    }
}

/// True when any diagnostic is an error.
pub fn has_errors(diagnostics: &[Diagnostic]) -> bool {
    diagnostics.iter().any(Diagnostic::is_error)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// docs/workflows.md lists every code, as serde writes it.
    #[test]
    fn every_code_is_documented() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/workflows.md");
        let doc = std::fs::read_to_string(path).unwrap();
        for code in DiagnosticCode::ALL {
            assert_eq!(serde_json::to_value(code).unwrap(), code.as_str());
            assert!(
                doc.contains(&format!("`{code}`")),
                "docs/workflows.md does not list {code}"
            );
        }
    }
}
