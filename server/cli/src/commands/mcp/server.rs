//! The MCP server over a registry, as `vai mcp` serves it and `vai mcp tools` lists it: built in
//! one place, so the listing is what a client is offered.

use crate::config::Config;
use std::path::Path;
use std::sync::Arc;
use vai_mcp::{BeforeTool, McpServer, McpSettings, WithLlm};
use vai_runtime::{BeforeRun, RunBudget, RunManager};
use vai_workflow::Registry;
use vai_workflow::journal::RunBackend;

/// `--read-only`, or the `mcp-read-only` setting (`VAI_MCP_READ_ONLY=1`, `vai config set
/// mcp-read-only true`, `.vai.json` `mcp.readOnly`) for client configurations that set the
/// environment or a file rather than arguments.
pub(super) fn read_only(flag: bool, cfg: &Config) -> bool {
    flag || cfg
        .value("mcp-read-only")
        .is_some_and(|v| matches!(v.trim().to_ascii_lowercase().as_str(), "1" | "true" | "yes"))
}

/// The server over `registry`, with the library of `dir` and a run manager of its own that
/// keeps its runs in `journals` (none: in memory only).
#[expect(
    clippy::too_many_arguments,
    reason = "the parts the two callers choose differently, each named"
)]
pub(super) fn server(
    cfg: &Config,
    dir: &Path,
    registry: Arc<Registry>,
    read_only: bool,
    journals: Option<Arc<dyn RunBackend>>,
    before_run: Option<BeforeRun>,
    before_tool: Option<BeforeTool>,
    with_client_llm: Option<WithLlm>,
) -> std::io::Result<McpServer> {
    let budget = RunBudget::default();
    let run_limits = cfg.project.limits();
    let runs = RunManager::new(registry.clone(), before_run, budget, run_limits);
    let runs = match journals {
        Some(store) => runs.with_journals(store),
        None => runs,
    };
    Ok(McpServer::new(McpSettings {
        registry,
        library: vai_runtime::builtin::library(Some(dir))?,
        runs,
        before_tool,
        run_limits,
        with_client_llm,
        read_only,
        max_tool_calls: budget.max_runs,
        name: "vai".into(),
        version: env!("CARGO_PKG_VERSION").into(),
    }))
}
