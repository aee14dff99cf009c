//! `vai mcp`: serve vai to MCP clients (stdio by default, streamable HTTP with --http), list what
//! it exposes (`vai mcp tools`), and add it to a client's configuration (`vai mcp install`).

mod install;
mod serve;
mod tools;

use crate::app;
use crate::config::Config;
use crate::exit::EXIT_OK;
use clap::{Args, Subcommand};
use std::path::Path;
use std::sync::Arc;
use vai_mcp::{BeforeTool, McpServer, McpSettings, WithLlm};
use vai_runtime::{BeforeRun, RunBudget, RunManager};
use vai_workflow::Registry;

/// Serve vai's tools, its workflows (one tool each) and workflow authoring to an MCP client
/// (Claude Desktop, Claude Code, Cursor, VS Code, …). Over stdio by default, as clients start it;
/// nothing but protocol messages goes to stdout. Workflows are the built-ins, the examples and
/// the *.vai-workflow.json files of the current directory, where saves go. See docs/mcp.md.
#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true)]
pub(super) struct McpArgs {
    #[command(subcommand)]
    command: Option<McpCommand>,
    #[command(flatten)]
    serve: serve::ServeArgs,
}

#[derive(Debug, Subcommand)]
enum McpCommand {
    /// List the tools, resources and prompts a client would be offered.
    Tools(tools::ToolsArgs),
    Install(install::InstallArgs),
}

pub(super) async fn dispatch(args: McpArgs) -> anyhow::Result<u8> {
    match args.command {
        None => serve::run(args.serve).await,
        Some(McpCommand::Tools(a)) => tools::run(&a),
        Some(McpCommand::Install(a)) => install::run(a),
    }
}

/// `--read-only`, or the `mcp-read-only` setting (`VAI_MCP_READ_ONLY=1`, `vai config set
/// mcp-read-only true`, `.vai.json` `mcp.readOnly`) for client configurations that set the
/// environment or a file rather than arguments.
fn read_only(flag: bool, cfg: &Config) -> bool {
    flag || cfg
        .value("mcp-read-only")
        .is_some_and(|v| matches!(v.trim().to_ascii_lowercase().as_str(), "1" | "true" | "yes"))
}

/// The server over `registry`, with the library of `dir` and a run manager of its own.
fn server(
    cfg: &Config,
    dir: &Path,
    registry: Arc<Registry>,
    read_only: bool,
    before_run: Option<BeforeRun>,
    before_tool: Option<BeforeTool>,
    with_client_llm: Option<WithLlm>,
) -> std::io::Result<McpServer> {
    let budget = RunBudget::default();
    let run_limits = cfg.project.limits();
    let runs = RunManager::new(registry.clone(), before_run, budget, run_limits);
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

/// The hooks that seed the sample before a run or a call that needs the store.
fn seeding(live: Arc<app::App>) -> (BeforeRun, BeforeTool) {
    let seed = crate::serving::sample_seeding(live);
    let for_runs = seed.clone();
    let before_run: BeforeRun = Arc::new(move |plan| {
        if app::needs_store(plan) {
            for_runs()
        } else {
            Box::pin(async {})
        }
    });
    let before_tool: BeforeTool = Arc::new(move |tool| {
        if app::uses_store(tool) {
            seed()
        } else {
            Box::pin(async {})
        }
    });
    (before_run, before_tool)
}

/// With no LLM configured, the registry of `live`'s tools with another LLM in its place: the
/// client's model, for `generate` steps of runs its client starts (sampling). `None` when vai
/// has a configured LLM of its own; the small local one gives way to the client's model.
fn with_client_llm(cfg: &Config, live: &app::App) -> Option<WithLlm> {
    let configured = live.providers.llm.as_ref();
    if configured.is_some_and(|llm| llm.name() != vai_providers::local::llm::LocalLlm::NAME) {
        return None;
    }
    let providers = live.providers.clone();
    let policy = app::http_policy(cfg);
    Some(Arc::new(move |llm| {
        let mut with_llm = (*providers).clone();
        with_llm.llm = Some(llm);
        Arc::new(vai_tools::registry(Arc::new(with_llm), policy.clone()))
    }))
}

/// Exit code when the server stopped because its client left.
const CLIENT_GONE: u8 = EXIT_OK;
