//! From JSON to a sealed, runnable plan: structural checks (`structure`), then tools, templates,
//! references, dependencies and cycles (`build`, each step checked by `step`), then the
//! workflows steps call (`children`; an agent's tools named by `callees`). Every problem is
//! reported at once (`diags`); only a workflow without errors yields a `Plan`. Whatever could be
//! read is also described as an `Outline`, so an invalid workflow can still be drawn.

mod build;
mod callees;
mod children;
mod diags;
mod graph;
mod nearest;
mod orchestration;
mod outline;
mod plan;
pub(crate) mod refs;
mod router;
mod step;
mod structure;

pub use children::{Children, NoChildren, compile_with};
pub use diags::Mode;
pub use nearest::nearest;
pub use orchestration::child_name_problem;
pub use outline::{InputRef, Outline, OutputRef};
pub use plan::{
    Callee, Callees, Compensate, DependencyKind, Edge, Plan, PlannedStep, Route, StepKind,
};

use crate::diagnostic::{Diagnostic, has_errors};
use crate::model::Workflow;
use crate::tool::Registry;
use diags::Diags;
use serde_json::Value;
use std::sync::Arc;

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

/// Validate and plan a workflow given as JSON. Its `workflow` steps cannot load their children
/// (they are reported as errors): use [`compile_with`] where a library or directory is at hand.
pub fn compile(value: &Value, registry: &Registry, mode: Mode) -> Compiled {
    compile_with(value, registry, mode, &NoChildren, "")
}

/// One workflow, its `workflow` steps' children not loaded.
fn compile_alone(value: &Value, registry: &Registry, mode: Mode) -> Compiled {
    let mut diags = Diags::new(mode);
    let workflow = structure::read(value, registry, &mut diags);
    let (plan, outline) = match &workflow {
        Some(w) => {
            let (plan, outline) = build::plan(w, registry, &mut diags);
            (plan, Some(Arc::new(outline)))
        }
        None => (None, None),
    };
    let mut diagnostics = diags.into_list();
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

#[cfg(test)]
mod outline_tests;
#[cfg(test)]
mod tests;
