//! `vai mcp`: serve vai to MCP clients (stdio by default, streamable HTTP with --http), list what
//! it exposes (`vai mcp tools`), and add it to a client's configuration (`vai mcp install`).

mod install;
mod serve;
mod server;
mod tools;

use clap::{Args, Subcommand};

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
