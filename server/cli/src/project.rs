//! The project file `.vai.json` (safe to commit, never holds keys), found by walking up from the
//! current directory.

mod pricing;
pub(crate) mod runs;

use serde::Deserialize;
use std::path::{Path, PathBuf};
use vai_providers::Pricing;
use vai_workflow::Limits;

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ProjectConfig {
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
    /// Byte budgets of a run; each one absent keeps its default.
    #[serde(default)]
    pub limits: Option<LimitsConfig>,
    /// `vai mcp` settings.
    #[serde(default)]
    pub mcp: Option<McpConfig>,
    /// `pricing` as written: per model, dollars per million input and output tokens.
    #[serde(default, rename = "pricing")]
    pricing_json: Option<serde_json::Value>,
    /// The price table with `pricing` over it, read when the file is loaded.
    #[serde(skip)]
    pub pricing: Pricing,
    /// `runs` as written: where the run journal is kept.
    #[serde(default, rename = "runs")]
    runs_json: Option<serde_json::Value>,
    /// Where runs are kept, read from `runs` when the file is loaded.
    #[serde(skip)]
    pub runs: runs::RunsConfig,
    /// How much run history is kept, read from `runs` (`keep`, `maxAge`, `maxMb`).
    #[serde(skip)]
    pub retention: vai_workflow::journal::Retention,
    /// Where the file was found.
    #[serde(skip)]
    pub path: Option<PathBuf>,
}

/// `limits` in `.vai.json`: byte budgets, each a whole number of bytes of at least 1 KiB.
#[derive(Debug, Clone, Copy, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct LimitsConfig {
    pub value_bytes: Option<u64>,
    pub step_output_bytes: Option<u64>,
    pub run_bytes: Option<u64>,
}

/// `mcp` in `.vai.json`.
#[derive(Debug, Clone, Copy, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct McpConfig {
    /// Offer only tools that change nothing (`vai mcp --read-only`).
    pub read_only: Option<bool>,
}

/// The smallest budget accepted: below it no real workflow runs, so it is surely a mistake.
const MIN_LIMIT: u64 = 1024;

impl LimitsConfig {
    /// The run limits: these values over the defaults.
    pub(crate) fn apply(&self, mut limits: Limits) -> Limits {
        limits.value_bytes = self.value_bytes.unwrap_or(limits.value_bytes);
        limits.step_output_bytes = self.step_output_bytes.unwrap_or(limits.step_output_bytes);
        limits.run_bytes = self.run_bytes.unwrap_or(limits.run_bytes);
        limits
    }

    fn check(&self) -> Result<(), String> {
        for (key, value) in [
            ("valueBytes", self.value_bytes),
            ("stepOutputBytes", self.step_output_bytes),
            ("runBytes", self.run_bytes),
        ] {
            if let Some(n) = value.filter(|n| *n < MIN_LIMIT) {
                return Err(format!(
                    "limits.{key} is {n}; a budget must be at least {MIN_LIMIT} bytes"
                ));
            }
        }
        Ok(())
    }
}

impl ProjectConfig {
    /// The limits runs get: `limits` over the defaults.
    pub(crate) fn limits(&self) -> Limits {
        self.limits
            .map_or(Limits::DEFAULT, |l| l.apply(Limits::DEFAULT))
    }

    /// A setting by its dotted key (`db`, `chat.provider`).
    pub(crate) fn lookup(&self, key: &str) -> Option<String> {
        match key {
            "db" => self.db.clone(),
            "collection" => self.collection.clone(),
            "model" => self.model.clone(),
            "mcp.readOnly" => self.mcp?.read_only.map(|b| b.to_string()),
            _ => {
                let sub = key.strip_prefix("chat.")?;
                self.chat.as_ref()?.get(sub)?.as_str().map(str::to_string)
            }
        }
    }
}

/// The nearest `.vai.json` from `start` upwards; a broken file is an error that names it.
pub(crate) fn load(start: &Path) -> anyhow::Result<ProjectConfig> {
    let mut dir = Some(start);
    while let Some(d) = dir {
        let candidate = d.join(".vai.json");
        if candidate.is_file() {
            let text = std::fs::read_to_string(&candidate)?;
            let mut config: ProjectConfig = serde_json::from_str(&text).map_err(|e| {
                anyhow::anyhow!("{}: not a valid project file: {e}", candidate.display())
            })?;
            let invalid = |e: String| {
                anyhow::anyhow!("{}: not a valid project file: {e}", candidate.display())
            };
            if let Some(limits) = &config.limits {
                limits.check().map_err(invalid)?;
            }
            if let Some(prices) = &config.pricing_json {
                config.pricing = pricing::parse(prices).map_err(invalid)?;
            }
            if let Some(runs) = &config.runs_json {
                (config.runs, config.retention) = runs::parse(runs).map_err(invalid)?;
            }
            config.path = Some(candidate);
            return Ok(config);
        }
        dir = d.parent();
    }
    Ok(ProjectConfig::default())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn project(text: &str) -> anyhow::Result<ProjectConfig> {
        static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("vai-project-test-{}-{n}", std::process::id()));
        std::fs::create_dir_all(&dir)?;
        std::fs::write(dir.join(".vai.json"), text)?;
        let loaded = load(&dir);
        let _ = std::fs::remove_dir_all(&dir);
        loaded
    }

    #[test]
    fn limits_override_the_defaults_one_by_one() {
        let config =
            project(r#"{"limits": {"valueBytes": 2048, "runBytes": 1073741824}}"#).unwrap();
        assert_eq!(
            config.limits(),
            Limits {
                value_bytes: 2048,
                run_bytes: 1 << 30,
                ..Limits::DEFAULT
            }
        );
        assert_eq!(project("{}").unwrap().limits(), Limits::DEFAULT);
    }

    #[test]
    fn pricing_overrides_the_table() {
        let config = project(r#"{"pricing": {"gpt-4o": {"input": 1, "output": 4}}}"#).unwrap();
        assert_eq!(config.pricing.overrides()["gpt-4o"].output, 4.0);
        assert_eq!(project("{}").unwrap().pricing, Pricing::default());
    }

    #[test]
    fn the_runs_store_is_read_and_a_bad_one_names_the_file_and_the_field() {
        assert_eq!(project("{}").unwrap().runs, runs::RunsConfig::File);
        assert_eq!(
            project(r#"{"runs": {"store": "mongodb", "database": "team"}}"#)
                .unwrap()
                .runs,
            runs::RunsConfig::Mongo {
                uri: None,
                database: "team".into()
            }
        );
        let err = project(r#"{"runs": {"store": "postgres"}}"#)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains(".vai.json: not a valid project file: runs.store is \"postgres\""),
            "{err}"
        );
    }

    #[test]
    fn bad_limits_name_the_file_and_the_key() {
        for (text, expected) in [
            (
                r#"{"limits": {"valueBytes": 10}}"#,
                "limits.valueBytes is 10",
            ),
            (
                r#"{"limits": {"stepBytes": 4096}}"#,
                "unknown field `stepBytes`",
            ),
            (r#"{"limits": {"runBytes": -1}}"#, "invalid value"),
            (r#"{"limits": {"runBytes": "1 GB"}}"#, "invalid type"),
            (
                r#"{"pricing": {"gpt-4o": {"input": -2}}}"#,
                "pricing.\"gpt-4o\".input is -2",
            ),
        ] {
            let e = project(text).unwrap_err().to_string();
            assert!(e.contains(".vai.json: not a valid project file"), "{e}");
            assert!(e.contains(expected), "{text}: {e}");
        }
    }
}
