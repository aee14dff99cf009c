//! The MCP clients vai can be added to: where each keeps its configuration file, the key its
//! servers sit under and the entry it expects.

use clap::ValueEnum;
use serde_json::{Map, Value, json};
use std::io;
use std::path::PathBuf;

/// The name vai's server is registered under in every client.
pub(super) const SERVER_NAME: &str = "vai";

/// The MCP clients vai knows the configuration file of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(super) enum Target {
    /// Claude Desktop
    #[value(alias = "claude-desktop")]
    Claude,
    /// Claude Code (the `claude` command)
    ClaudeCode,
    /// Cursor
    Cursor,
    /// VS Code (GitHub Copilot agent mode)
    #[value(name = "vscode")]
    Vscode,
    /// Windsurf
    Windsurf,
}

impl Target {
    pub(super) fn client(self) -> &'static str {
        match self {
            Target::Claude => "Claude Desktop",
            Target::ClaudeCode => "Claude Code",
            Target::Cursor => "Cursor",
            Target::Vscode => "VS Code",
            Target::Windsurf => "Windsurf",
        }
    }

    /// The name on the command line.
    pub(super) fn arg(self) -> String {
        self.to_possible_value()
            .map(|v| v.get_name().to_string())
            .unwrap_or_default()
    }

    /// The key of the object that maps server names to entries.
    pub(super) fn container(self) -> &'static str {
        match self {
            Target::Vscode => "servers",
            _ => "mcpServers",
        }
    }

    /// The entry: VS Code requires `type`, and `claude mcp add` writes it too, so an entry made
    /// either way compares equal; the others document `command` and `args` only.
    pub(super) fn entry(self, exe: &str, read_only: bool) -> Value {
        let mut args = vec!["mcp"];
        if read_only {
            args.push("--read-only");
        }
        let mut entry = Map::new();
        if matches!(self, Target::Vscode | Target::ClaudeCode) {
            entry.insert("type".into(), json!("stdio"));
        }
        entry.insert("command".into(), json!(exe));
        entry.insert("args".into(), json!(args));
        Value::Object(entry)
    }
}

/// Where the user's files are: home, the platform's application-data directory (where the
/// Electron apps — Claude Desktop, VS Code — keep settings) and the current directory.
#[derive(Debug)]
pub(super) struct Places {
    pub(super) home: Option<PathBuf>,
    pub(super) app_data: Option<PathBuf>,
    pub(super) cwd: PathBuf,
}

impl Places {
    pub(super) fn from_env() -> io::Result<Places> {
        let var = |name: &str| {
            std::env::var_os(name)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        };
        let home = if cfg!(windows) {
            var("USERPROFILE")
        } else {
            var("HOME")
        };
        let app_data = if cfg!(windows) {
            var("APPDATA")
        } else if cfg!(target_os = "macos") {
            home.as_ref()
                .map(|h| h.join("Library").join("Application Support"))
        } else {
            var("XDG_CONFIG_HOME")
                .filter(|p| p.is_absolute())
                .or_else(|| home.as_ref().map(|h| h.join(".config")))
        };
        Ok(Places {
            home,
            app_data,
            cwd: std::env::current_dir()?,
        })
    }
}
