//! What `vai mcp install` is asked: the client, and where and how vai is added to it. The doc
//! comments are the command's help.

use super::clients::Target;
use clap::Args;
use std::path::PathBuf;

/// Add vai to an MCP client's configuration, so that the client starts `vai mcp` itself.
///
/// Prints the client's configuration file and the entry that belongs in it. With --write, merges
/// the entry into that file: every other setting and server is kept, as are an existing vai
/// entry's own fields (env, …); the old file is first copied to <file>.bak (or .bak.1, .bak.2, …:
/// an earlier backup is never overwritten); a file that is not valid JSON is left untouched. The
/// entry runs this vai executable by its absolute path.
#[derive(Debug, Args)]
#[command(after_long_help = FILES_HELP)]
pub(crate) struct InstallArgs {
    /// The MCP client to configure.
    #[arg(value_enum)]
    pub(super) target: Target,
    /// Merge the entry into the configuration file instead of only printing it.
    #[arg(long)]
    pub(super) write: bool,
    /// Use the project's file in the current directory instead of your user-level one
    /// (claude-code: .mcp.json, cursor: .cursor/mcp.json, vscode: .vscode/mcp.json).
    #[arg(long)]
    pub(super) project: bool,
    /// Start vai with --read-only: the client is offered only tools that change nothing (no
    /// saving, renaming or deleting workflows, no runs or tool calls that write).
    #[arg(long)]
    pub(super) read_only: bool,
    /// Use this configuration file instead of the client's usual one (in the client's format).
    #[arg(long, value_name = "PATH", conflicts_with = "project")]
    pub(super) config: Option<PathBuf>,
}

const FILES_HELP: &str = "\
Configuration files (user level; with --project, in the current directory):
  claude       macOS: ~/Library/Application Support/Claude/claude_desktop_config.json
               Windows: %APPDATA%\\Claude\\claude_desktop_config.json
               Linux: ~/.config/Claude/claude_desktop_config.json
  claude-code  ~/.claude.json (user scope); --project: .mcp.json
  cursor       ~/.cursor/mcp.json; --project: .cursor/mcp.json
  vscode       the mcp.json of your VS Code user profile (~/.config/Code/User/mcp.json,
               ~/Library/Application Support/Code/User/mcp.json, %APPDATA%\\Code\\User\\mcp.json);
               --project: .vscode/mcp.json
  windsurf     ~/.codeium/windsurf/mcp_config.json";
