//! The tools the server lists, in three groups: vai's own tools from the registry (`vai_*`),
//! one tool per runnable workflow of the library (`w_*`), and the authoring tools
//! (`workflow_*`). Each listed tool carries what routes a call to it.
//!
//! Names use `_`, never `.` (`workflow_list`, not `workflow.list`), because Claude Desktop, the
//! Claude API and OpenAI reject tool names outside `^[a-zA-Z0-9_-]{1,64}$`.

pub(crate) mod authoring;
mod entry;
pub(crate) mod vai;
pub(crate) mod workflows;

pub(crate) use entry::{Entry, Target};

use crate::server::McpServer;

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
