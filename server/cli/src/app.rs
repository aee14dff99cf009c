//! The composition root: configuration → providers → tool registry.

use crate::project::ProjectConfig;
use std::sync::Arc;
use vai_workflow::Registry;

/// The tool registry for this process, configured from the project file and environment.
pub fn registry(project: &ProjectConfig) -> Arc<Registry> {
    let settings = vai_providers::Settings {
        project_db: project.db.clone(),
        project_collection: project.collection.clone(),
        env_db: env("VAI_DEFAULT_DB"),
        env_collection: env("VAI_DEFAULT_COLLECTION"),
        ..vai_providers::Settings::default()
    };
    let providers = Arc::new(vai_providers::Providers::none(settings));
    let http = vai_tools::http::HttpPolicy {
        allowed_hosts: project.allowed_hosts.clone(),
    };
    Arc::new(vai_tools::registry(providers, http))
}

fn env(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.trim().is_empty())
}
