//! `vai mcp install`: the entry that makes an MCP client (Claude Desktop, Claude Code, Cursor,
//! VS Code, Windsurf) start `vai mcp` over stdio — printed, or merged into the client's file.

mod clients;
mod file;
#[cfg(test)]
mod tests;

use crate::exit::{EXIT_INVALID, EXIT_OK};
use clap::Args;
use clients::{Places, Plan, Target, plan};
use file::{Change, merge_file, write_file};
use serde_json::{Value, json};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// The name vai's server is registered under in every client.
const SERVER_NAME: &str = "vai";

/// Add vai to an MCP client's configuration, so that the client starts `vai mcp` itself.
///
/// Prints the client's configuration file and the entry that belongs in it. With --write, merges
/// the entry into that file: every other setting and server is kept, as are an existing vai
/// entry's own fields (env, …); the old file is first copied to <file>.bak (or .bak.1, .bak.2, …:
/// an earlier backup is never overwritten); a file that is not valid JSON is left untouched. The
/// entry runs this vai executable by its absolute path.
#[derive(Debug, Args)]
#[command(after_long_help = FILES_HELP)]
pub(super) struct InstallArgs {
    /// The MCP client to configure.
    #[arg(value_enum)]
    target: Target,
    /// Merge the entry into the configuration file instead of only printing it.
    #[arg(long)]
    write: bool,
    /// Use the project's file in the current directory instead of your user-level one
    /// (claude-code: .mcp.json, cursor: .cursor/mcp.json, vscode: .vscode/mcp.json).
    #[arg(long)]
    project: bool,
    /// Start vai with --read-only: the client is offered only tools that change nothing (no
    /// saving, renaming or deleting workflows, no runs or tool calls that write).
    #[arg(long)]
    read_only: bool,
    /// Use this configuration file instead of the client's usual one (in the client's format).
    #[arg(long, value_name = "PATH", conflicts_with = "project")]
    config: Option<PathBuf>,
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

/// Why nothing was (or would be) written.
#[derive(Debug, thiserror::Error)]
enum InstallError {
    #[error("{0} has no project-level configuration file; leave out --project")]
    NoProjectFile(&'static str),
    #[error("cannot tell where your home directory is: set HOME, or name the file with --config")]
    NoHome,
    #[error("the path of this executable is not UTF-8 and cannot go in a JSON file: {}", .0.display())]
    ExeNotUtf8(PathBuf),
    #[error("cannot read {}: {source}", path.display())]
    Read { path: PathBuf, source: io::Error },
    /// Not a regular file (a FIFO, a device, a directory), or larger than a configuration file.
    #[error("{0}; it was left as it is")]
    NotAConfigFile(vai_workflow::fsutil::FileError),
    #[error("{} is not valid JSON ({source}); it was left as it is: fix it, or add the entry by hand", path.display())]
    NotJson {
        path: PathBuf,
        source: serde_json::Error,
    },
    #[error("{} does not hold a JSON object; it was left as it is", .0.display())]
    NotObject(PathBuf),
    #[error("\"{key}\" in {} is not a JSON object; it was left as it is", path.display())]
    ContainerNotObject { path: PathBuf, key: &'static str },
    #[error("cannot back up {} to {}: {source}", path.display(), backup.display())]
    Backup {
        path: PathBuf,
        backup: PathBuf,
        source: io::Error,
    },
    #[error("cannot write {}: {source}", path.display())]
    Write { path: PathBuf, source: io::Error },
}

pub(super) fn run(args: InstallArgs) -> anyhow::Result<u8> {
    let exe = std::env::current_exe()?;
    let places = Places::from_env()?;
    Ok(install(
        &args,
        &exe,
        &places,
        &mut io::stdout(),
        &mut io::stderr(),
    )?)
}

/// The whole command with its surroundings passed in: `vai` at `exe`, printing to `out` and `err`.
fn install(
    args: &InstallArgs,
    exe: &Path,
    places: &Places,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> io::Result<u8> {
    let plan = match plan(args, exe, places) {
        Ok(plan) => plan,
        Err(e) => {
            writeln!(err, "error: {e}")?;
            return Ok(EXIT_INVALID);
        }
    };
    writeln!(
        out,
        "{} configuration: {}",
        plan.target.client(),
        plan.file.display()
    )?;
    let merged = match merge_file(&plan) {
        Ok(merged) => merged,
        Err(e) => {
            writeln!(
                out,
                "Add this entry by hand:\n\n{}\n",
                fragment(&plan, &plan.entry)?
            )?;
            writeln!(err, "error: {e}")?;
            return Ok(EXIT_INVALID);
        }
    };
    if args.write && merged.change != Change::Same {
        match write_file(&plan, &merged) {
            Ok(backup) => written(&plan, &merged.change, backup.as_deref(), out)?,
            Err(e) => {
                writeln!(err, "error: {e}")?;
                return Ok(EXIT_INVALID);
            }
        }
    } else {
        let entry = &merged.doc[plan.target.container()][SERVER_NAME];
        preview(args, &merged.change, &fragment(&plan, entry)?, out)?;
    }
    notes(args, &plan, out)?;
    Ok(EXIT_OK)
}

/// `entry` under the client's container, as it sits in the file.
fn fragment(plan: &Plan, entry: &Value) -> io::Result<String> {
    let fragment = json!({ plan.target.container(): { SERVER_NAME: entry } });
    serde_json::to_string_pretty(&fragment).map_err(io::Error::other)
}

/// What `--write` would do, and the entry.
fn preview(
    args: &InstallArgs,
    change: &Change,
    fragment: &str,
    out: &mut dyn Write,
) -> io::Result<()> {
    match change {
        Change::NewFile => writeln!(out, "The file does not exist yet; --write creates it:")?,
        Change::Add => writeln!(
            out,
            "--write adds this entry (everything else in the file is kept):"
        )?,
        Change::Replace { previous } => writeln!(
            out,
            "Its \"{SERVER_NAME}\" entry differs:\n\n{}\n\n--write replaces it with:",
            serde_json::to_string_pretty(previous).map_err(io::Error::other)?
        )?,
        Change::Same => writeln!(out, "It already has this entry; nothing to change:")?,
    }
    writeln!(out, "\n{fragment}\n")?;
    if *change != Change::Same {
        writeln!(out, "To apply it, run: {} --write", command_line(args))?;
    }
    Ok(())
}

/// What `--write` did.
fn written(
    plan: &Plan,
    change: &Change,
    backup: Option<&Path>,
    out: &mut dyn Write,
) -> io::Result<()> {
    let file = plan.file.display();
    let saved = backup
        .map(|b| format!(" (the old file is saved as {})", b.display()))
        .unwrap_or_default();
    let done = match change {
        Change::NewFile => format!("Created {file} with the {SERVER_NAME} server"),
        Change::Add => format!("Added the {SERVER_NAME} server to {file}{saved}"),
        Change::Replace { .. } => format!("Updated the {SERVER_NAME} server in {file}{saved}"),
        Change::Same => return Ok(()),
    };
    writeln!(out, "{done}.")?;
    writeln!(
        out,
        "Restart {} (or reload its MCP servers) to use it.",
        plan.target.client()
    )
}

/// This command again, as typed (for "to apply it, run …").
fn command_line(args: &InstallArgs) -> String {
    let mut line = format!("vai mcp install {}", args.target.arg());
    if args.project {
        line.push_str(" --project");
    }
    if args.read_only {
        line.push_str(" --read-only");
    }
    if let Some(path) = &args.config {
        line.push_str(&format!(
            " --config {}",
            shell_quote(&path.to_string_lossy())
        ));
    }
    line
}

/// Client-specific advice printed after the entry.
fn notes(args: &InstallArgs, plan: &Plan, out: &mut dyn Write) -> io::Result<()> {
    match plan.target {
        Target::ClaudeCode if args.config.is_none() && !args.write => {
            let scope = if args.project { "project" } else { "user" };
            let command = plan.entry["command"].as_str().unwrap_or_default();
            let read_only = if args.read_only { " --read-only" } else { "" };
            writeln!(
                out,
                "Claude Code can add the same entry itself (safer while it is running, as it \
                 rewrites ~/.claude.json):\n  claude mcp add --scope {scope} {SERVER_NAME} -- {} mcp{read_only}",
                shell_quote(command)
            )?;
            if args.project {
                writeln!(
                    out,
                    "Claude Code asks each user to approve servers from .mcp.json once."
                )?;
            }
        }
        Target::Vscode if !args.project && args.config.is_none() => writeln!(
            out,
            "This is the default profile's mcp.json; for another profile or VS Code Insiders, run \
             \"MCP: Open User Configuration\" in VS Code and pass that file with --config."
        )?,
        _ => {}
    }
    Ok(())
}

/// `text` quoted for a shell when it holds anything but plain path characters.
fn shell_quote(text: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "/\\._-:=@+,".contains(c);
    if !text.is_empty() && text.chars().all(plain) {
        text.to_string()
    } else if cfg!(windows) {
        format!("\"{text}\"")
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}
