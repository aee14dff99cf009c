//! Where vai's entry goes: the configuration file the arguments name — given, the project's or
//! the user's — and the entry itself.

use super::args::InstallArgs;
use super::clients::{Places, Target};
use super::error::InstallError;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The file to change and the entry to put in it.
pub(super) struct Plan {
    pub(super) target: Target,
    pub(super) file: PathBuf,
    /// A project file: a new one is readable by all ([`SHARED_FILE`](super::file::SHARED_FILE));
    /// a new user file, which may come to hold other servers' keys, only by its owner.
    pub(super) shared: bool,
    pub(super) entry: Value,
}

pub(super) fn plan(args: &InstallArgs, exe: &Path, places: &Places) -> Result<Plan, InstallError> {
    let exe_text = exe
        .to_str()
        .ok_or_else(|| InstallError::ExeNotUtf8(exe.to_path_buf()))?;
    let entry = args.target.entry(exe_text, args.read_only);
    let target = args.target;
    if let Some(file) = &args.config {
        return Ok(Plan {
            target,
            file: file.clone(),
            shared: false,
            entry,
        });
    }
    if args.project {
        let file = match target {
            Target::ClaudeCode => places.cwd.join(".mcp.json"),
            Target::Cursor => places.cwd.join(".cursor").join("mcp.json"),
            Target::Vscode => places.cwd.join(".vscode").join("mcp.json"),
            Target::Claude | Target::Windsurf => {
                return Err(InstallError::NoProjectFile(target.client()));
            }
        };
        return Ok(Plan {
            target,
            file,
            shared: true,
            entry,
        });
    }
    let home = places.home.as_deref().ok_or(InstallError::NoHome)?;
    let app_data = places.app_data.as_deref().ok_or(InstallError::NoHome)?;
    let file = match target {
        Target::Claude => app_data.join("Claude").join("claude_desktop_config.json"),
        Target::ClaudeCode => home.join(".claude.json"),
        Target::Cursor => home.join(".cursor").join("mcp.json"),
        Target::Vscode => app_data.join("Code").join("User").join("mcp.json"),
        Target::Windsurf => home
            .join(".codeium")
            .join("windsurf")
            .join("mcp_config.json"),
    };
    Ok(Plan {
        target,
        file,
        shared: false,
        entry,
    })
}
