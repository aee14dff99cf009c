//! How strictly a workflow is checked, and the list its diagnostics are collected in: the one
//! place where errors strict mode refuses become what draft mode tolerates.

use crate::diagnostic::{Diagnostic, Severity};

/// How strictly to validate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "ValidationMode"))]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Everything must be in place to run.
    #[default]
    Strict,
    /// For half-built workflows in the builder: missing pieces are warnings or infos.
    Draft,
}

/// Collects diagnostics, softening the ones draft mode tolerates.
pub(crate) struct Diags {
    mode: Mode,
    list: Vec<Diagnostic>,
}

impl Diags {
    pub(crate) fn new(mode: Mode) -> Self {
        Self {
            mode,
            list: Vec::new(),
        }
    }

    /// Everything collected, in the order it was pushed.
    pub(crate) fn into_list(self) -> Vec<Diagnostic> {
        self.list
    }

    pub(crate) fn push(&mut self, d: Diagnostic) {
        self.list.push(d);
    }

    /// An error in strict mode that draft mode reports with `draft` severity.
    pub(crate) fn soft(&mut self, d: Diagnostic, draft: Severity) {
        let d = if self.mode == Mode::Draft {
            d.with_severity(draft)
        } else {
            d
        };
        self.list.push(d);
    }

    pub(crate) fn draft_only(&mut self, d: Diagnostic) {
        if self.mode == Mode::Draft {
            self.list.push(d);
        }
    }

    pub(crate) fn is_draft(&self) -> bool {
        self.mode == Mode::Draft
    }
}
