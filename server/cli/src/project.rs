//! The project file `.vai.json` (safe to commit, never holds keys), found by walking up from the
//! current directory.

use serde::Deserialize;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProjectConfig {
    #[serde(default)]
    pub db: Option<String>,
    #[serde(default)]
    pub collection: Option<String>,
    /// Embedding model for steps that name none.
    #[serde(default)]
    pub model: Option<String>,
    /// Vector index name (`vector_index` when unset) and embedding field (`embedding`).
    #[serde(default)]
    pub index: Option<String>,
    #[serde(default)]
    pub field: Option<String>,
    /// Hosts the `http` tool may call; absent → any host at a public address. Naming a host here
    /// also lets it be reached at a private, loopback or link-local address.
    #[serde(default)]
    pub allowed_hosts: Option<Vec<String>>,
    /// Chat settings (`provider`, `model`, …), kept as written.
    #[serde(default)]
    pub chat: Option<serde_json::Map<String, serde_json::Value>>,
    /// Where the file was found.
    #[serde(skip)]
    pub path: Option<PathBuf>,
}

impl ProjectConfig {
    /// A setting by its dotted key (`db`, `chat.provider`).
    pub fn lookup(&self, key: &str) -> Option<String> {
        match key {
            "db" => self.db.clone(),
            "collection" => self.collection.clone(),
            "model" => self.model.clone(),
            _ => {
                let sub = key.strip_prefix("chat.")?;
                self.chat.as_ref()?.get(sub)?.as_str().map(str::to_string)
            }
        }
    }
}

/// The nearest `.vai.json` from `start` upwards; a broken file is an error that names it.
pub fn load(start: &Path) -> anyhow::Result<ProjectConfig> {
    let mut dir = Some(start);
    while let Some(d) = dir {
        let candidate = d.join(".vai.json");
        if candidate.is_file() {
            let text = std::fs::read_to_string(&candidate)?;
            let mut config: ProjectConfig = serde_json::from_str(&text).map_err(|e| {
                anyhow::anyhow!("{}: not a valid project file: {e}", candidate.display())
            })?;
            config.path = Some(candidate);
            return Ok(config);
        }
        dir = d.parent();
    }
    Ok(ProjectConfig::default())
}
