//! The tools the server lists, in three groups: vai's own tools from the registry (`vai_*`),
//! one tool per runnable workflow of the library (`w_*`), and the authoring tools
//! (`workflow_*`). Each listed tool carries what routes a call to it.
//!
//! Names use `_`, never `.`: the seed's `workflow.list` is `workflow_list` here, because Claude
//! Desktop, the Claude API and OpenAI reject tool names outside `^[a-zA-Z0-9_-]{1,64}$`.

pub(crate) mod authoring;
pub(crate) mod vai;
pub(crate) mod workflows;

use crate::server::McpServer;
use rmcp::model::{Tool, ToolAnnotations};
use vai_workflow::Effects;

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
    Workflow(workflows::WorkflowTool),
    Authoring(authoring::Authoring),
}

/// Every tool the server lists now: without the ones that change anything when read-only.
pub(crate) fn list(server: &McpServer) -> Vec<Entry> {
    let mut out = vai::entries(server);
    out.extend(workflows::entries(server));
    out.extend(authoring::entries());
    if server.inner().read_only {
        out.retain(|e| {
            e.tool
                .annotations
                .as_ref()
                .and_then(|a| a.read_only_hint)
                .unwrap_or(false)
        });
    }
    out
}

/// The annotations of a tool with these effects, titled.
pub(crate) fn annotations(title: &str, effects: Effects) -> ToolAnnotations {
    ToolAnnotations::with_title(title)
        .read_only(effects.read_only)
        .destructive(!effects.read_only && effects.destructive)
        .idempotent(effects.idempotent)
        .open_world(effects.open_world)
}
