//! `Settings`: the non-secret configuration the provider-backed tools read, and the resolution
//! chains for database, collection and model names.

use crate::{Namespace, ProviderError};
use serde_json::Value;

/// Names and defaults gathered from `.vai.json`, the environment and the user config by the
/// composition root. Secrets never live here.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    /// `db` / `collection` of the project's `.vai.json`.
    pub project_db: Option<String>,
    pub project_collection: Option<String>,
    /// `VAI_DEFAULT_DB` / `VAI_DEFAULT_COLLECTION`.
    pub env_db: Option<String>,
    pub env_collection: Option<String>,
    /// `defaultDb` / `defaultCollection` of the user config (`vai config set default-db …`).
    pub config_db: Option<String>,
    pub config_collection: Option<String>,
    /// Used when nothing above names one: the sample database and collection of the local
    /// backend, so a fresh machine runs the built-ins as typed.
    pub fallback_db: Option<String>,
    pub fallback_collection: Option<String>,
    /// Embedding model when neither the step nor the workflow names one (`voyage-4-large`).
    pub default_embedding_model: String,
    /// Rerank model when neither the step nor the workflow names one (`rerank-2.5`).
    pub default_rerank_model: String,
    /// Name of the vector index searched and created on ingest (`vector_index`).
    pub vector_index: String,
    /// Field holding each document's embedding (`embedding`).
    pub embedding_field: String,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            project_db: None,
            project_collection: None,
            env_db: None,
            env_collection: None,
            config_db: None,
            config_collection: None,
            fallback_db: None,
            fallback_collection: None,
            default_embedding_model: "voyage-4-large".into(),
            default_rerank_model: "rerank-2.5".into(),
            vector_index: "vector_index".into(),
            embedding_field: "embedding".into(),
        }
    }
}

impl Settings {
    /// The database a step uses: its `db` input → the workflow's `defaults.db` (which already
    /// carries CLI `--db`) → `.vai.json` → `VAI_DEFAULT_DB` → user config. Empty strings count
    /// as unset. The error names every place it can be set.
    pub fn resolve_db(
        &self,
        tool: &str,
        input: Option<&str>,
        defaults: &Value,
    ) -> Result<String, ProviderError> {
        first_set([
            input,
            defaults_str(defaults, "db"),
            self.project_db.as_deref(),
            self.env_db.as_deref(),
            self.config_db.as_deref(),
            self.fallback_db.as_deref(),
        ])
        .ok_or_else(|| {
            ProviderError::NotConfigured(format!(
                "{tool}: database not specified (set \"db\" in the step inputs or workflow \
                 defaults, \"db\" in .vai.json, VAI_DEFAULT_DB, or `vai config set default-db <name>`)"
            ))
        })
    }

    /// The collection a step uses, by the same chain as [`Settings::resolve_db`].
    pub fn resolve_collection(
        &self,
        tool: &str,
        input: Option<&str>,
        defaults: &Value,
    ) -> Result<String, ProviderError> {
        first_set([
            input,
            defaults_str(defaults, "collection"),
            self.project_collection.as_deref(),
            self.env_collection.as_deref(),
            self.config_collection.as_deref(),
            self.fallback_collection.as_deref(),
        ])
        .ok_or_else(|| {
            ProviderError::NotConfigured(format!(
                "{tool}: collection not specified (set \"collection\" in the step inputs or \
                 workflow defaults, \"collection\" in .vai.json, VAI_DEFAULT_COLLECTION, or \
                 `vai config set default-collection <name>`)"
            ))
        })
    }

    /// Database and collection together; the database is reported first when both are missing.
    pub fn resolve_namespace(
        &self,
        tool: &str,
        db: Option<&str>,
        collection: Option<&str>,
        defaults: &Value,
    ) -> Result<Namespace, ProviderError> {
        Ok(Namespace {
            db: self.resolve_db(tool, db, defaults)?,
            collection: self.resolve_collection(tool, collection, defaults)?,
        })
    }

    /// Embedding model: the step's `model` → `defaults.model` → `default_embedding_model`.
    pub fn embedding_model(&self, input: Option<&str>, defaults: &Value) -> String {
        first_set([input, defaults_str(defaults, "model")])
            .unwrap_or_else(|| self.default_embedding_model.clone())
    }

    /// Rerank model: the step's input → `defaults.rerankModel` → `default_rerank_model`.
    /// (`defaults.model` names an embedding model, so it is not consulted.)
    pub fn rerank_model(&self, input: Option<&str>, defaults: &Value) -> String {
        first_set([input, defaults_str(defaults, "rerankModel")])
            .unwrap_or_else(|| self.default_rerank_model.clone())
    }
}

fn defaults_str<'a>(defaults: &'a Value, key: &str) -> Option<&'a str> {
    defaults.get(key).and_then(Value::as_str)
}

fn first_set<const N: usize>(candidates: [Option<&str>; N]) -> Option<String> {
    candidates
        .into_iter()
        .flatten()
        .map(str::trim)
        .find(|s| !s.is_empty())
        .map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn full() -> Settings {
        Settings {
            project_db: Some("project_db".into()),
            env_db: Some("env_db".into()),
            config_db: Some("config_db".into()),
            ..Settings::default()
        }
    }

    #[test]
    fn db_resolution_follows_input_defaults_project_env_config() {
        let mut s = full();
        let defaults = json!({"db": "defaults_db"});
        assert_eq!(s.resolve_db("query", Some("in"), &defaults).unwrap(), "in");
        assert_eq!(
            s.resolve_db("query", None, &defaults).unwrap(),
            "defaults_db"
        );
        assert_eq!(
            s.resolve_db("query", Some(""), &json!({})).unwrap(),
            "project_db"
        );
        s.project_db = None;
        assert_eq!(
            s.resolve_db("query", None, &json!({"db": ""})).unwrap(),
            "env_db"
        );
        s.env_db = None;
        assert_eq!(
            s.resolve_db("query", None, &Value::Null).unwrap(),
            "config_db"
        );
        s.config_db = None;
        let err = s.resolve_db("query", None, &json!({})).unwrap_err();
        assert_eq!(
            err.to_string(),
            "query: database not specified (set \"db\" in the step inputs or workflow defaults, \
             \"db\" in .vai.json, VAI_DEFAULT_DB, or `vai config set default-db <name>`)"
        );
        assert!(matches!(err, ProviderError::NotConfigured(_)));
    }

    #[test]
    fn collection_resolution_reports_its_own_settings() {
        let s = Settings {
            env_collection: Some("docs".into()),
            ..Settings::default()
        };
        assert_eq!(
            s.resolve_collection("search", None, &json!({})).unwrap(),
            "docs"
        );
        let err = Settings::default()
            .resolve_namespace("search", Some("db"), None, &json!({}))
            .unwrap_err();
        assert!(
            err.to_string()
                .starts_with("search: collection not specified")
        );
        assert!(err.to_string().contains("VAI_DEFAULT_COLLECTION"));
    }

    #[test]
    fn models_fall_back_to_workflow_defaults_then_settings() {
        let s = Settings::default();
        let defaults = json!({"model": "voyage-4-lite", "rerankModel": "rerank-2.5-lite"});
        assert_eq!(
            s.embedding_model(Some("voyage-code-3"), &defaults),
            "voyage-code-3"
        );
        assert_eq!(s.embedding_model(None, &defaults), "voyage-4-lite");
        assert_eq!(s.embedding_model(None, &json!({})), "voyage-4-large");
        assert_eq!(s.rerank_model(None, &defaults), "rerank-2.5-lite");
        assert_eq!(
            s.rerank_model(None, &json!({"model": "voyage-4"})),
            "rerank-2.5"
        );
    }
}
