//! The project file `.vai.json` (safe to commit, never holds keys), found by walking up from the
//! current directory. The engine issue reads the fields tools need now; configuration in full
//! (user config, `.env`, precedence) arrives with the providers.

use serde::Deserialize;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProjectConfig {
    #[serde(default)]
    pub db: Option<String>,
    #[serde(default)]
    pub collection: Option<String>,
    /// Hosts the `http` tool may call; absent → any host.
    #[serde(default)]
    pub allowed_hosts: Option<Vec<String>>,
    /// Where the file was found.
    #[serde(skip)]
    pub path: Option<PathBuf>,
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
