//! From JSON to a sealed, runnable plan: structural checks (`structure`), then tools, templates,
//! references, dependencies and cycles (`plan`). Every problem is reported at once; only a
//! workflow without errors yields a `Plan`. Whatever could be read is also described as an
//! `Outline`, so an invalid workflow can still be drawn.

mod graph;
mod outline;
mod plan;
pub(crate) mod refs;
mod step;
mod structure;

pub use outline::{InputRef, Outline, OutputRef};
pub use plan::{DependencyKind, Edge, Plan, PlannedStep, StepKind};

use crate::diagnostic::{Diagnostic, Severity, has_errors};
use crate::model::Workflow;
use crate::tool::Registry;
use serde_json::Value;
use std::sync::Arc;

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

/// The result of compiling a workflow.
#[derive(Debug, Clone)]
pub struct Compiled {
    /// The typed workflow, when the file is an object with a steps array.
    pub workflow: Option<Workflow>,
    /// The runnable plan, when there are no errors.
    pub plan: Option<Arc<Plan>>,
    /// How the steps are wired, for drawing; present whenever `workflow` is, errors or not.
    /// Never runnable: only `plan` runs.
    pub outline: Option<Arc<Outline>>,
    pub diagnostics: Vec<Diagnostic>,
}

impl Compiled {
    pub fn is_valid(&self) -> bool {
        !has_errors(&self.diagnostics)
    }

    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics.iter().filter(|d| d.is_error())
    }
}

/// Validate and plan a workflow given as JSON.
pub fn compile(value: &Value, registry: &Registry, mode: Mode) -> Compiled {
    let mut diags = Diags {
        mode,
        list: Vec::new(),
    };
    let workflow = structure::read(value, registry, &mut diags);
    let (plan, outline) = match &workflow {
        Some(w) => {
            let (plan, outline) = plan::build(w, registry, &mut diags);
            (plan, Some(Arc::new(outline)))
        }
        None => (None, None),
    };
    let mut diagnostics = diags.list;
    diagnostics.sort_by_key(|d| d.severity);
    let plan = if has_errors(&diagnostics) {
        None
    } else {
        plan.map(Arc::new)
    };
    Compiled {
        workflow,
        plan,
        outline,
        diagnostics,
    }
}

/// Collects diagnostics, softening the ones draft mode tolerates.
pub(crate) struct Diags {
    mode: Mode,
    list: Vec<Diagnostic>,
}

impl Diags {
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

/// The closest of `candidates` to `name` (edit distance ≤ a third of its length), for hints.
pub fn nearest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (name.chars().count() / 3).max(2);
    candidates
        .into_iter()
        .map(|c| (edit_distance(&name.to_lowercase(), &c.to_lowercase()), c))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod outline_tests;
#[cfg(test)]
mod tests;
