//! `vai mcp install`: the entry that makes an MCP client (Claude Desktop, Claude Code, Cursor,
//! VS Code, Windsurf) start `vai mcp` over stdio — printed, or merged into the client's file.

mod args;
mod clients;
mod error;
mod file;
mod plan;
#[cfg(test)]
mod tests;

pub(super) use args::InstallArgs;

use crate::exit::{EXIT_INVALID, EXIT_OK};
use clients::{Places, SERVER_NAME, Target};
use file::{Change, merge_file, write_file};
use plan::{Plan, plan};
use serde_json::{Value, json};
use std::io::{self, Write};
use std::path::Path;

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
