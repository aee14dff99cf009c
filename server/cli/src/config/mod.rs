//! Configuration: every setting with where its value came from. Precedence, highest first:
//! command-line flags → environment → `.env` in the project → the user config
//! `~/.vai/config.json` (mode 600; `VAI_CONFIG_PATH` moves it) → the project file `.vai.json`
//! (safe to commit, never holds keys).

mod dotenv;

use crate::project::{self, ProjectConfig};
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use vai_workflow::fsutil;

/// Where a value came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Origin {
    Flag,
    Env,
    DotEnv,
    UserConfig,
    Project,
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Origin::Flag => "flag",
            Origin::Env => "environment",
            Origin::DotEnv => ".env",
            Origin::UserConfig => "user config",
            Origin::Project => ".vai.json",
        })
    }
}

/// A setting vai knows: its `vai config` name, the user-config key, the environment variable
/// and the `.vai.json` key (secrets have none).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Key {
    pub name: &'static str,
    pub config_key: &'static str,
    pub env: &'static str,
    pub project_key: Option<&'static str>,
    pub secret: bool,
    pub help: &'static str,
}

pub(crate) const KEYS: &[Key] = &[
    Key {
        name: "api-key",
        config_key: "apiKey",
        env: "VOYAGE_API_KEY",
        project_key: None,
        secret: true,
        help: "Voyage AI API key (embeddings and reranking)",
    },
    Key {
        name: "base-url",
        config_key: "baseUrl",
        env: "VOYAGE_API_BASE",
        project_key: None,
        secret: false,
        help: "Voyage AI API base URL (chosen from the key when unset)",
    },
    Key {
        name: "mongodb-uri",
        config_key: "mongodbUri",
        env: "MONGODB_URI",
        project_key: None,
        secret: true,
        help: "MongoDB Atlas connection string",
    },
    Key {
        name: "llm-provider",
        config_key: "llmProvider",
        env: "VAI_LLM_PROVIDER",
        project_key: Some("chat.provider"),
        secret: false,
        help: "anthropic, openai or ollama",
    },
    Key {
        name: "llm-api-key",
        config_key: "llmApiKey",
        env: "VAI_LLM_API_KEY",
        project_key: None,
        secret: true,
        help: "API key of the LLM provider",
    },
    Key {
        name: "llm-model",
        config_key: "llmModel",
        env: "VAI_LLM_MODEL",
        project_key: Some("chat.model"),
        secret: false,
        help: "LLM model (each provider has a default)",
    },
    Key {
        name: "llm-base-url",
        config_key: "llmBaseUrl",
        env: "VAI_LLM_BASE_URL",
        project_key: None,
        secret: false,
        help: "LLM API base URL",
    },
    Key {
        name: "default-db",
        config_key: "defaultDb",
        env: "VAI_DEFAULT_DB",
        project_key: Some("db"),
        secret: false,
        help: "database when neither step nor workflow names one",
    },
    Key {
        name: "default-collection",
        config_key: "defaultCollection",
        env: "VAI_DEFAULT_COLLECTION",
        project_key: Some("collection"),
        secret: false,
        help: "collection when neither step nor workflow names one",
    },
    Key {
        name: "default-model",
        config_key: "defaultModel",
        env: "VAI_DEFAULT_MODEL",
        project_key: Some("model"),
        secret: false,
        help: "embedding model (voyage-4-large when unset)",
    },
    Key {
        name: "mcp-read-only",
        config_key: "mcpReadOnly",
        env: "VAI_MCP_READ_ONLY",
        project_key: Some("mcp.readOnly"),
        secret: false,
        help: "true: `vai mcp` offers only tools that change nothing, as with --read-only",
    },
    Key {
        name: "chat-history-db",
        config_key: "chatHistoryDb",
        env: "VAI_CHAT_HISTORY_DB",
        project_key: Some("chat.historyDb"),
        secret: false,
        help: "the MongoDB database of chat sessions (the chat's database when unset)",
    },
    Key {
        name: "chat-history-ttl",
        config_key: "chatHistoryTtl",
        env: "VAI_CHAT_HISTORY_TTL",
        project_key: Some("chat.historyTtl"),
        secret: false,
        help: "days MongoDB keeps chat sessions (kept until deleted when unset)",
    },
];

pub(crate) fn key(name: &str) -> Option<&'static Key> {
    KEYS.iter()
        .find(|k| k.name == name || k.config_key == name || k.env == name)
}

/// The setting `name` names, or an error that lists the known ones.
pub(crate) fn known_key(name: &str) -> anyhow::Result<&'static Key> {
    key(name).ok_or_else(|| {
        let names: Vec<&str> = KEYS.iter().map(|k| k.name).collect();
        anyhow::anyhow!("unknown setting \"{name}\" (known: {})", names.join(", "))
    })
}

/// A resolved value and its origin.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Setting {
    pub value: String,
    pub origin: Origin,
}

/// Everything configured for this process.
#[derive(Debug, Clone, Default)]
pub(crate) struct Config {
    values: HashMap<&'static str, Setting>,
    pub project: ProjectConfig,
    pub user_config_path: PathBuf,
    /// `--allow-host` values: hosts the `http` tool may reach even at private addresses, besides
    /// `.vai.json` `allowedHosts`.
    pub allow_hosts: Vec<String>,
}

impl Config {
    /// Gather configuration for a process started in `cwd`, with `flags` (key name → value)
    /// given on the command line.
    pub(crate) fn load(cwd: &Path, flags: &[(&str, String)]) -> anyhow::Result<Config> {
        let project = project::load(cwd)?;
        let project_dir = project
            .path
            .as_ref()
            .and_then(|p| p.parent())
            .map(Path::to_path_buf)
            .unwrap_or_else(|| cwd.to_path_buf());
        let dotenv = std::fs::read_to_string(project_dir.join(".env"))
            .map(|t| dotenv::parse(&t))
            .unwrap_or_default();
        let user_config_path = user_config_path();
        let user = read_user_config(&user_config_path)?;
        let mut values = HashMap::new();
        for k in KEYS {
            let from_flag = flags
                .iter()
                .find(|(n, _)| *n == k.name)
                .map(|(_, v)| (v.clone(), Origin::Flag));
            let from_env = std::env::var(k.env).ok().map(|v| (v, Origin::Env));
            let from_dotenv = dotenv.get(k.env).cloned().map(|v| (v, Origin::DotEnv));
            let from_user = user
                .get(k.config_key)
                .and_then(value_text)
                .map(|v| (v, Origin::UserConfig));
            let from_project = k
                .project_key
                .and_then(|p| project.lookup(p))
                .map(|v| (v, Origin::Project));
            let found = [from_flag, from_env, from_dotenv, from_user, from_project]
                .into_iter()
                .flatten()
                .find(|(v, _)| !v.trim().is_empty());
            if let Some((value, origin)) = found {
                values.insert(k.name, Setting { value, origin });
            }
        }
        Ok(Config {
            values,
            project,
            user_config_path,
            allow_hosts: Vec::new(),
        })
    }

    pub(crate) fn get(&self, name: &str) -> Option<&Setting> {
        self.values.get(name)
    }

    pub(crate) fn value(&self, name: &str) -> Option<&str> {
        self.get(name).map(|s| s.value.as_str())
    }
}

fn value_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// `VAI_CONFIG_PATH`, else `~/.vai/config.json`.
pub(crate) fn user_config_path() -> PathBuf {
    if let Some(p) = std::env::var_os("VAI_CONFIG_PATH").filter(|p| !p.is_empty()) {
        return PathBuf::from(p);
    }
    home().join(".vai").join("config.json")
}

fn home() -> PathBuf {
    std::env::var_os("HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("."))
}

/// The user config file as a JSON object; absent → empty. A broken file is an error naming it.
pub(crate) fn read_user_config(path: &Path) -> anyhow::Result<Map<String, Value>> {
    match std::fs::read_to_string(path) {
        Ok(text) => match serde_json::from_str::<Value>(&text) {
            Ok(Value::Object(m)) => Ok(m),
            Ok(_) => anyhow::bail!("{}: the user config must be a JSON object", path.display()),
            Err(e) => anyhow::bail!("{}: not valid JSON ({e}); fix or remove it", path.display()),
        },
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Map::new()),
        Err(e) => anyhow::bail!("cannot read {}: {e}", path.display()),
    }
}

/// Write the user config with owner-only permissions (the file holds API keys): a new file,
/// private from its creation, replaces the old one atomically. Of the directories on the way,
/// only those this creates are made private; existing ones (a project, `$HOME`) are left alone.
pub(crate) fn write_user_config(path: &Path, config: &Map<String, Value>) -> anyhow::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        fsutil::create_private_dir_all(dir)
            .map_err(|e| anyhow::anyhow!("cannot create {}: {e}", dir.display()))?;
    }
    let mut text = serde_json::to_string_pretty(config)?;
    text.push('\n');
    fsutil::write_atomic(path, text.as_bytes(), fsutil::PRIVATE_FILE).map_err(|e| match e {
        fsutil::FileError::Io { source, .. } => {
            anyhow::anyhow!("cannot write {}: {source}", path.display())
        }
        refused => anyhow::anyhow!("cannot write {}: {refused}", path.display()),
    })
}

/// `abcd...wxyz` for secrets of 10 characters or more, `****` for shorter ones.
pub(crate) fn mask(value: &str) -> String {
    let chars: Vec<char> = value.chars().collect();
    if chars.len() < 10 {
        return "****".to_string();
    }
    let head: String = chars[..4].iter().collect();
    let tail: String = chars[chars.len() - 4..].iter().collect();
    format!("{head}...{tail}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_secrets() {
        assert_eq!(mask("pa-1234567890abcd"), "pa-1...abcd");
        assert_eq!(mask("short"), "****");
    }

    #[test]
    fn keys_are_found_by_any_name() {
        assert_eq!(key("api-key").unwrap().env, "VOYAGE_API_KEY");
        assert_eq!(key("mongodbUri").unwrap().name, "mongodb-uri");
        assert_eq!(key("VAI_DEFAULT_DB").unwrap().name, "default-db");
        assert!(key("nope").is_none());
    }

    #[test]
    fn user_config_is_written_owner_only() {
        let dir = std::env::temp_dir().join(format!("vai-config-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let path = dir.join("config.json");
        let mut m = Map::new();
        m.insert("apiKey".into(), Value::String("pa-secret".into()));
        write_user_config(&path, &m).unwrap();
        assert_eq!(read_user_config(&path).unwrap(), m);
        #[cfg(unix)]
        {
            assert_eq!(mode(&path), 0o600);
            assert_eq!(mode(&dir), 0o700, "a directory vai created is private");
        }
        std::fs::write(&path, "{not json").unwrap();
        assert!(
            read_user_config(&path)
                .unwrap_err()
                .to_string()
                .contains("not valid JSON")
        );
        let _ = std::fs::remove_dir_all(dir);
    }

    #[cfg(unix)]
    fn mode(path: &Path) -> u32 {
        use std::os::unix::fs::PermissionsExt;
        std::fs::symlink_metadata(path)
            .unwrap()
            .permissions()
            .mode()
            & 0o777
    }

    /// `VAI_CONFIG_PATH` may put the file in a directory that is not vai's: its mode is left as
    /// it was, and the key never lands in a file others can read — not the old file, not a
    /// temporary file planted at a name vai once used.
    #[cfg(unix)]
    #[test]
    fn a_config_in_someone_else_s_directory_leaves_it_alone() {
        use std::os::unix::fs::PermissionsExt;
        let dir = std::env::temp_dir().join(format!("vai-config-shared-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
        let path = dir.join("vai.json");
        std::fs::write(&path, "{}").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        let planted = dir.join("planted");
        std::os::unix::fs::symlink(&planted, dir.join("vai.json.tmp")).unwrap();

        let mut m = Map::new();
        m.insert("apiKey".into(), Value::String("pa-secret".into()));
        write_user_config(&path, &m).unwrap();
        assert_eq!(mode(&dir), 0o755);
        assert_eq!(mode(&path), 0o600);
        assert!(
            !planted.exists(),
            "nothing written through the planted link"
        );
        for entry in std::fs::read_dir(&dir).unwrap() {
            let entry = entry.unwrap().path();
            if std::fs::symlink_metadata(&entry).unwrap().is_file()
                && std::fs::read_to_string(&entry)
                    .unwrap()
                    .contains("pa-secret")
            {
                assert_eq!(mode(&entry), 0o600, "{}", entry.display());
            }
        }
        let _ = std::fs::remove_dir_all(dir);
    }
}
