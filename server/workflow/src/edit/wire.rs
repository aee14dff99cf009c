//! What the editing functions answer with, as the playground reads it: each reference and
//! where it is written, and each completion with what it names.

use serde::{Deserialize, Serialize};

/// One reference, where it is written and what it points to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
#[serde(rename_all = "camelCase")]
pub struct ReferenceSite {
    /// RFC 6901 pointer to the string value holding it (`/steps/2/inputs/query`).
    pub pointer: String,
    /// The step holding it; absent in the output mapping.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step_id: Option<String>,
    /// As diagnostics name fields: `inputs.query`, `inputs.arrays[1]`, `condition`,
    /// `dependsOn[0]`, `inputs.then[1]`, `output.answer`.
    pub field: String,
    pub kind: ReferenceKind,
    /// The normalised path (`search.output.results`, `inputs.query`); for `id`, the id.
    pub path: String,
    /// The path's first segment (`search`, `inputs`, `defaults`, `item`, `steps`, …).
    pub root: String,
    /// The node it points to: a step id, or `__inputs` for `inputs.*`; absent for defaults,
    /// locals and unknown ids.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// UTF-16 offsets of the path text within the string value.
    pub start: usize,
    pub end: usize,
    /// UTF-16 offsets of the identifier naming the target (for `steps.x.output`, the `x`).
    pub root_start: usize,
    pub root_end: usize,
    /// UTF-16 offsets of the enclosing `{{ … }}`, braces included (`template` kind only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub template_start: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub template_end: Option<usize>,
    /// The string is exactly this one template (modulo surrounding whitespace), this one bare
    /// expression, or this id.
    pub whole: bool,
}

/// How a reference is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum ReferenceKind {
    /// Inside `{{ … }}` of a string value.
    Template,
    /// In a field that is an expression without braces (a condition written bare).
    Expression,
    /// The whole string is a step id (`dependsOn`, `then`, `else`).
    Id,
}

/// One completion: `insert` replaces the response's `[from, to)`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
pub struct Completion {
    pub label: String,
    pub insert: String,
    pub kind: CompletionKind,
    /// Type and description of an input, a step's tool, an output field's description, ….
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

/// What a completion names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum CompletionKind {
    Input,
    Default,
    Step,
    Output,
    Local,
    Keyword,
}
