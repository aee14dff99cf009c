//! One listed tool and where its calls go ([`Entry`], [`Target`]), and the annotations each
//! group of tools derives from what a tool may do.

use super::authoring::Authoring;
use rmcp::model::{Tool, ToolAnnotations};
use std::sync::Arc;
use vai_workflow::{Effects, Plan};

/// One listed tool and where its calls go.
#[derive(Debug, Clone)]
pub(crate) struct Entry {
    pub(crate) tool: Tool,
    pub(crate) target: Target,
}

#[derive(Debug, Clone)]
pub(crate) enum Target {
    /// A registry tool, by its name there.
    Vai(&'static str),
    Workflow(WorkflowTool),
    Authoring(Authoring),
}

/// What a `w_*` call runs.
#[derive(Debug, Clone)]
pub(crate) struct WorkflowTool {
    pub(crate) id: String,
    pub(crate) plan: Arc<Plan>,
    /// The version of the definition's stable text form.
    pub(crate) definition_version: String,
}

/// The annotations of a tool with these effects, titled.
pub(crate) fn annotations(title: &str, effects: Effects) -> ToolAnnotations {
    ToolAnnotations::with_title(title)
        .read_only(effects.read_only)
        .destructive(!effects.read_only && effects.destructive)
        .idempotent(effects.idempotent)
        .open_world(effects.open_world)
}
