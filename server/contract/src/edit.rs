//! The builder's editing routes: every reference in a document, renames that rewrite them,
//! completions inside templates, and the stable text form (docs/api.md, "Editing").

use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;
use vai_workflow::edit::{Completion, ReferenceSite};

/// Body of `POST /api/workflows/references` and `/format`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct DefinitionBody {
    pub definition: Value,
}

/// `POST /api/workflows/references`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct ReferencesResponse {
    pub references: Vec<ReferenceSite>,
}

/// Body of `POST /api/workflows/rewrite`: renames of steps and of inputs.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
pub struct RewriteRequest {
    pub definition: Value,
    /// Old step id → new step id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, as = "Option<std::collections::HashMap<String, String>>")]
    pub steps: Option<indexmap::IndexMap<String, String>>,
    /// Old input name → new input name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, as = "Option<std::collections::HashMap<String, String>>")]
    pub inputs: Option<indexmap::IndexMap<String, String>>,
}

/// `POST /api/workflows/rewrite`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct RewriteResponse {
    pub definition: Value,
    /// Pointers of the string values (and keys' parents) that were rewritten.
    pub changed: Vec<String>,
}

/// Body of `POST /api/workflows/complete`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CompleteRequest {
    pub definition: Value,
    /// The step being edited; absent for the output mapping.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub step_id: Option<String>,
    /// As in diagnostics: `inputs.query`, `condition`, `forEach`, `output.answer`.
    pub field: String,
    /// The field's text as it is being edited.
    pub text: String,
    /// UTF-16 offset of the cursor in `text`.
    pub cursor: usize,
}

/// `POST /api/workflows/complete`: `[from, to)` of `text` is what the chosen item replaces.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct CompleteResponse {
    pub from: usize,
    pub to: usize,
    pub items: Vec<Completion>,
}

/// `POST /api/workflows/format`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct FormatResponse {
    pub text: String,
}

/// Body of `POST /api/workflows/save`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SaveRequest {
    /// `<stem>` or `<stem>.vai-workflow.json`; a name, never a path.
    pub file_name: String,
    pub definition: Value,
    /// The `version` the editor opened; absent for a new file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub base_version: Option<String>,
    /// Write even when the file changed on disk or already exists.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub overwrite: Option<bool>,
}

/// `POST /api/workflows/save`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct SaveResponse {
    /// `file:<name>`.
    pub id: String,
    pub version: String,
    pub summary: crate::WorkflowSummary,
}

/// Body of `POST /api/runs/{id}/test-case`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct TestCaseRequest {
    /// The case name, `^[A-Za-z0-9_-]{1,64}$`.
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub overwrite: Option<bool>,
}

/// `POST /api/runs/{id}/test-case`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TestCaseSaved {
    pub file_name: String,
    /// Relative to the start directory: `tests/<workflow>.<case>.test.json`.
    pub path: String,
    pub text: String,
}
