//! The composition root: configuration → providers → tool registry.
//!
//! Each capability is chosen on its own: Voyage AI when an API key is configured, else the local
//! embedding model and reranker; MongoDB when a URI is configured, else the local store; the
//! configured LLM provider, else the small local LLM (SmolLM2-135M) when its file is fetched. With
//! nothing configured every retrieval tool runs on the local backend against the sample knowledge
//! base (database `vai_demo`).

use crate::config::Config;
use std::sync::Arc;
use std::time::Duration;
use vai_providers::grounded::GroundedLlm;
use vai_providers::llm::{LlmConfig, llm_from_config};
use vai_providers::local::embed::{LocalEmbedder, ModelLocation};
use vai_providers::local::llm::{LocalLlm, find_gguf};
use vai_providers::local::rerank::LocalReranker;
use vai_providers::local::sample::{self, SAMPLE_COLLECTIONS, SAMPLE_DB};
use vai_providers::local::store::LocalStore;
use vai_providers::mongo::MongoStore;
use vai_providers::voyage::{VoyageClient, VoyageConfig};
use vai_providers::{Embedder, Providers, Settings};
use vai_tools::plan_cost::{PlanPricer, Serving};
use vai_workflow::Registry;

/// What the process runs with.
pub(crate) struct App {
    pub registry: Arc<Registry>,
    pub providers: Arc<Providers>,
    /// The local store and embedder, when the local backend serves the store.
    pub local: Option<Local>,
    /// The MongoDB store, when one is configured (chat history shares its connection).
    pub mongo: Option<MongoStore>,
}

/// The local backend's parts, for seeding the sample knowledge base.
pub(crate) struct Local {
    pub store: Arc<LocalStore>,
    pub embedder: Arc<dyn Embedder>,
    /// Whether the embedder is the local model (the sample corpus is embedded with it).
    pub local_embeddings: bool,
}

/// Settings for tools, from the configuration.
fn settings(cfg: &Config) -> Settings {
    let project = &cfg.project;
    let mut s = Settings {
        project_db: project.db.clone(),
        project_collection: project.collection.clone(),
        env_db: setting_from(
            cfg,
            "default-db",
            &[
                crate::config::Origin::Env,
                crate::config::Origin::DotEnv,
                crate::config::Origin::Flag,
            ],
        ),
        env_collection: setting_from(
            cfg,
            "default-collection",
            &[
                crate::config::Origin::Env,
                crate::config::Origin::DotEnv,
                crate::config::Origin::Flag,
            ],
        ),
        config_db: setting_from(cfg, "default-db", &[crate::config::Origin::UserConfig]),
        config_collection: setting_from(
            cfg,
            "default-collection",
            &[crate::config::Origin::UserConfig],
        ),
        ..Settings::default()
    };
    if let Some(model) = cfg.value("default-model") {
        s.default_embedding_model = model.to_string();
    }
    if let Some(index) = &project.index {
        s.vector_index = index.clone();
    }
    if let Some(field) = &project.field {
        s.embedding_field = field.clone();
    }
    s
}

fn setting_from(cfg: &Config, key: &str, origins: &[crate::config::Origin]) -> Option<String> {
    cfg.get(key)
        .filter(|s| origins.contains(&s.origin))
        .map(|s| s.value.clone())
}

/// Tools with no provider at all: for validating, planning and mocked tests, which must not
/// depend on what this machine has configured.
pub(crate) fn offline_registry(cfg: &Config) -> Arc<Registry> {
    let providers =
        Arc::new(Providers::none(settings(cfg)).with_pricing(cfg.project.pricing.clone()));
    let mut registry = vai_tools::registry(providers.clone(), http_policy(cfg));
    // Estimates price calls as a run here would make them.
    registry.set_pricer(Arc::new(PlanPricer::new(providers, expected_serving(cfg))));
    Arc::new(registry)
}

/// Who would serve a run's calls, as [`live`] chooses them, without connecting to anything:
/// Voyage AI with a key, else the local models; the configured LLM, else the local one when it
/// is fetched.
fn expected_serving(cfg: &Config) -> Serving {
    let hosted = cfg.value("api-key").is_some();
    let retrieval = if hosted {
        "voyage"
    } else {
        LocalEmbedder::NAME
    };
    let llm = match cfg.value("llm-provider") {
        Some(provider) => {
            let provider = provider.trim().to_ascii_lowercase();
            let model = cfg
                .value("llm-model")
                .or_else(|| vai_providers::llm::default_model(&provider))
                .unwrap_or_default()
                .to_string();
            Some((provider, model))
        }
        None => find_gguf()
            .ok()
            .map(|_| (LocalLlm::NAME.to_string(), LocalLlm::MODEL.to_string())),
    };
    Serving {
        embed: Some(retrieval.to_string()),
        embed_model: (!hosted).then(|| LocalEmbedder::MODEL.to_string()),
        rerank: Some(retrieval.to_string()),
        llm,
    }
}

/// What the `http` tool may reach: `.vai.json` `allowedHosts` and `--allow-host`.
pub(crate) fn http_policy(cfg: &Config) -> vai_tools::http::HttpPolicy {
    vai_tools::http::HttpPolicy {
        allowed_hosts: cfg.project.allowed_hosts.clone(),
        flag_hosts: cfg.allow_hosts.clone(),
    }
}

/// Tools wired to the configured providers (or the local backend).
pub(crate) fn live(cfg: &Config) -> anyhow::Result<App> {
    let mut settings = settings(cfg);
    let mut providers = Providers::none(settings.clone()).with_pricing(cfg.project.pricing.clone());

    let local_embedder: Arc<dyn Embedder> = Arc::new(LocalEmbedder::new(ModelLocation::Discover));
    let voyage = match cfg.value("api-key") {
        Some(key) => {
            let config = VoyageConfig {
                base_url: cfg.value("base-url").map(str::to_string),
                ..VoyageConfig::new(key)
            };
            Some(Arc::new(
                VoyageClient::new(config).map_err(|e| anyhow::anyhow!("Voyage AI: {e}"))?,
            ))
        }
        None => None,
    };
    let embedder: Arc<dyn Embedder> = match &voyage {
        Some(v) => v.clone(),
        None => local_embedder.clone(),
    };
    providers.embedder = Some(embedder.clone());
    let mut local = None;
    let mut mongo = None;
    match cfg.value("mongodb-uri") {
        Some(uri) => {
            let store = MongoStore::connect(uri).map_err(|e| anyhow::anyhow!("MongoDB: {e}"))?;
            providers.store = Some(Arc::new(store.clone()));
            mongo = Some(store);
        }
        None => {
            let path = LocalStore::default_path().map_err(|e| anyhow::anyhow!("{e}"))?;
            let store = Arc::new(LocalStore::open(&path).map_err(|e| anyhow::anyhow!("{e}"))?);
            let local_embeddings = voyage.is_none();
            if local_embeddings {
                // Nothing configured: the sample knowledge base is the default database.
                settings.fallback_db = Some(SAMPLE_DB.to_string());
                settings.fallback_collection = Some(SAMPLE_COLLECTIONS[0].to_string());
                settings.default_embedding_model = LocalEmbedder::MODEL.to_string();
            }
            providers.store = Some(store.clone());
            local = Some(Local {
                store,
                embedder: embedder.clone(),
                local_embeddings,
            });
        }
    }

    providers.reranker = Some(match &voyage {
        Some(v) => v.clone(),
        None => {
            let reranker = LocalReranker::new(local_embedder.clone());
            // Documents the local store returns are reranked with the embeddings it holds.
            Arc::new(match &local {
                Some(l) => reranker.with_stored_vectors(l.store.clone()),
                None => reranker,
            })
        }
    });

    if let Some(provider) = cfg.value("llm-provider") {
        let llm = LlmConfig {
            provider: provider.to_string(),
            api_key: cfg.value("llm-api-key").map(str::to_string),
            model: cfg.value("llm-model").map(str::to_string),
            base_url: cfg.value("llm-base-url").map(str::to_string),
            timeout: Duration::from_secs(60),
        };
        providers.llm = Some(llm_from_config(&llm).map_err(|e| anyhow::anyhow!("{e}"))?);
    } else if let Ok(local) = LocalLlm::discover() {
        // Nothing configured: the small local model answers (loaded on its first call); from
        // retrieved sources it quotes them, since it invents when it writes.
        providers.llm = Some(Arc::new(GroundedLlm::new(
            Arc::new(local),
            local_embedder.clone(),
        )));
    }

    providers.settings = settings;
    let providers = Arc::new(providers);
    let registry = Arc::new(vai_tools::registry(providers.clone(), http_policy(cfg)));
    Ok(App {
        registry,
        providers,
        local,
        mongo,
    })
}

impl App {
    /// Whether any step of `plan` reads or writes the vector store, so the sample knowledge base
    /// must be in place before it runs.
    pub(crate) fn needs_store(&self, plan: &vai_workflow::Plan) -> bool {
        plan.steps.iter().any(|s| {
            let tool = match &s.kind {
                vai_workflow::compile::StepKind::Loop { tool, .. } => tool.as_str(),
                _ => s.tool.as_str(),
            };
            self.uses_store(tool)
        })
    }

    /// Whether the tool reads or writes the vector store (a call of it waits for the sample), as
    /// its declaration says.
    pub(crate) fn uses_store(&self, tool: &str) -> bool {
        self.registry.spec(tool).is_some_and(|spec| spec.uses_store)
    }

    /// Seed the sample knowledge base into the local store on first use (a no-op afterwards).
    /// Returns a line to show the user when it did something.
    pub(crate) async fn prepare_sample(&self) -> Option<Result<String, String>> {
        let local = self.local.as_ref().filter(|l| l.local_embeddings)?;
        match sample::ensure_seeded(local.store.as_ref(), local.embedder.as_ref()).await {
            Ok(report) if report.seeded => Some(Ok(format!(
                "prepared the sample knowledge base: {} documents in database \"{SAMPLE_DB}\"",
                report.inserted
            ))),
            Ok(_) => None,
            Err(e) => Some(Err(format!(
                "cannot prepare the sample knowledge base: {e}"
            ))),
        }
    }
}

/// Where chat sessions go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ChatHistory {
    /// MongoDB when one is configured, else files beside the local store.
    Kept,
    /// This process only (`--no-history`).
    Memory,
}

/// The chat engine on the app's tools and LLM.
pub(crate) fn chat_engine(
    cfg: &Config,
    app: &App,
    history: ChatHistory,
) -> anyhow::Result<vai_chat::ChatEngine> {
    let history: Arc<dyn vai_chat::History> = match history {
        ChatHistory::Memory => Arc::new(vai_chat::MemoryHistory::new()),
        ChatHistory::Kept => match &app.mongo {
            Some(store) => {
                let settings = &app.providers.settings;
                let none = serde_json::Value::Null;
                let db = match cfg.value("chat-history-db") {
                    Some(db) => db.to_string(),
                    None => settings.resolve_db("chat", None, &none).map_err(|_| {
                        anyhow::anyhow!(
                            "chat keeps its sessions in MongoDB and needs a database: pass --db, \
                             or set chat-history-db (VAI_CHAT_HISTORY_DB) or default-db"
                        )
                    })?,
                };
                let ttl = match cfg.value("chat-history-ttl") {
                    Some(days) => Some(chat_history_ttl(days)?),
                    None => None,
                };
                Arc::new(vai_chat::history::MongoHistory::new(store.clone(), db, ttl))
            }
            None => Arc::new(vai_chat::FileHistory::new(
                vai_chat::FileHistory::default_dir().map_err(|e| anyhow::anyhow!("{e}"))?,
            )),
        },
    };
    Ok(
        vai_chat::ChatEngine::new(app.registry.clone(), app.providers.llm.clone(), history)
            .with_limits(cfg.project.limits())
            .with_pricing(app.providers.pricing.clone()),
    )
}

/// `chat-history-ttl`: a whole number of days, at least 1.
fn chat_history_ttl(days: &str) -> anyhow::Result<Duration> {
    match days.trim().parse::<u64>() {
        Ok(n) if (1..=36_500).contains(&n) => Ok(Duration::from_secs(n * 24 * 60 * 60)),
        _ => anyhow::bail!(
            "chat-history-ttl is \"{days}\": give a whole number of days from 1 to 36500"
        ),
    }
}

/// How chat answers unless a flag says otherwise: the database and collection the tools
/// resolve, and `.vai.json` `chat` (`mode`, `maxContextDocs`, `rerank`, `systemPrompt`,
/// `maxToolCalls`, `maxTurns`, `maxTokens`).
pub(crate) fn chat_options(cfg: &Config, app: &App) -> vai_chat::ChatOptions {
    let settings = &app.providers.settings;
    let none = serde_json::Value::Null;
    let chat = cfg.project.chat.clone().unwrap_or_default();
    let number = |key: &str| chat.get(key).and_then(serde_json::Value::as_u64);
    let mut options = vai_chat::ChatOptions {
        db: settings.resolve_db("chat", None, &none).ok(),
        collection: settings.resolve_collection("chat", None, &none).ok(),
        ..vai_chat::ChatOptions::default()
    };
    if chat.get("mode").and_then(serde_json::Value::as_str) == Some("agent") {
        options.mode = vai_contract::ChatMode::Agent;
    }
    if let Some(n) = number("maxContextDocs") {
        options.max_context_docs = n as usize;
    }
    if let Some(n) = number("maxToolCalls") {
        options.max_iterations = n as usize;
    }
    if let Some(n) = number("maxTurns") {
        options.max_turns = n as usize;
    }
    if let Some(n) = number("maxTokens") {
        options.max_tokens = Some(n.clamp(1, vai_chat::MAX_ANSWER_TOKENS.into()) as u32);
    }
    if let Some(rerank) = chat.get("rerank").and_then(serde_json::Value::as_bool) {
        options.rerank = rerank;
    }
    if let Some(prompt) = chat.get("systemPrompt").and_then(serde_json::Value::as_str) {
        options.system_prompt = Some(prompt.to_string());
    }
    options.bounded()
}

/// What `GET /api/config/status` reports: which backend serves each capability and where its
/// setting came from. Names settings, never their values (secrets stay in this process).
pub(crate) fn config_status(cfg: &Config) -> vai_contract::ConfigStatus {
    use vai_contract::{Backend, ConfigStatus, ProviderId, ProviderStatus};
    let from = |name: &str, env: &str| {
        cfg.get(name).map(|s| {
            let place = match s.origin {
                crate::config::Origin::Flag => "a command-line flag",
                crate::config::Origin::Env => "the environment",
                crate::config::Origin::DotEnv => ".env",
                crate::config::Origin::UserConfig => "the user config (~/.vai/config.json)",
                crate::config::Origin::Project => ".vai.json",
            };
            format!("{env} from {place}")
        })
    };
    let voyage = from("api-key", "VOYAGE_API_KEY");
    let (ai_backend, ai_detail) = match &voyage {
        Some(detail) => (Backend::Voyage, detail.clone()),
        None => (
            Backend::Local,
            "the local model (no VOYAGE_API_KEY configured)".to_string(),
        ),
    };
    let (store_backend, store_detail) = match from("mongodb-uri", "MONGODB_URI") {
        Some(detail) => (Backend::Mongodb, detail),
        None => (
            Backend::Local,
            format!(
                "the local store with the sample knowledge base \"{SAMPLE_DB}\" (no MONGODB_URI configured)"
            ),
        ),
    };
    let (llm_backend, llm_detail) = match cfg.value("llm-provider") {
        Some(provider) => {
            let backend = match provider.to_ascii_lowercase().as_str() {
                "anthropic" => Backend::Anthropic,
                "openai" => Backend::Openai,
                "ollama" => Backend::Ollama,
                _ => Backend::None,
            };
            let detail = from("llm-provider", "VAI_LLM_PROVIDER").unwrap_or_default();
            (backend, detail)
        }
        None => match find_gguf() {
            Ok(_) => (
                Backend::Local,
                format!("{} (no VAI_LLM_PROVIDER configured)", LocalLlm::LABEL),
            ),
            Err(_) => (
                Backend::None,
                "no LLM configured (set VAI_LLM_PROVIDER, or fetch the local model with `bash \
                 scripts/fetch-model.sh`); generate steps fail"
                    .to_string(),
            ),
        },
    };
    let status = |id, label: &str, backend, detail: String| ProviderStatus {
        id,
        label: label.to_string(),
        backend,
        configured: !matches!(backend, Backend::Local | Backend::None),
        detail,
    };
    let providers = vec![
        status(
            ProviderId::Embeddings,
            "Embeddings",
            ai_backend,
            ai_detail.clone(),
        ),
        status(ProviderId::Rerank, "Reranking", ai_backend, ai_detail),
        status(
            ProviderId::Store,
            "Vector store",
            store_backend,
            store_detail,
        ),
        status(ProviderId::Llm, "LLM", llm_backend, llm_detail),
    ];
    ConfigStatus {
        offline: ai_backend == Backend::Local
            && store_backend == Backend::Local
            && matches!(
                llm_backend,
                Backend::None | Backend::Local | Backend::Ollama
            ),
        providers,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chat_history_ttl_is_whole_days() {
        assert_eq!(
            chat_history_ttl(" 30 ").unwrap(),
            Duration::from_secs(30 * 24 * 3600)
        );
        for bad in ["0", "-1", "1.5", "a month", "99999"] {
            let err = chat_history_ttl(bad).unwrap_err().to_string();
            assert!(
                err.starts_with(&format!("chat-history-ttl is \"{bad}\"")),
                "{err}"
            );
        }
    }

    #[test]
    fn the_tools_that_wait_for_the_sample_are_those_declared_to_use_the_store() {
        let dir = std::env::temp_dir().join(format!("vai-store-tools-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let cfg = Config::load(&dir, &[]).unwrap();
        let app = App {
            registry: offline_registry(&cfg),
            providers: Arc::new(Providers::none(settings(&cfg))),
            local: None,
            mongo: None,
        };
        let store: Vec<&str> = app
            .registry
            .names()
            .filter(|tool| app.uses_store(tool))
            .collect();
        assert_eq!(
            store,
            // `agent`: the tools it lists may read the store.
            [
                "agent",
                "aggregate",
                "collections",
                "ingest",
                "query",
                "search"
            ]
        );
    }

    #[test]
    fn config_status_names_settings_never_their_values() {
        let dir = std::env::temp_dir().join(format!("vai-status-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let secrets = [
            ("api-key", "pa-SECRET-voyage-0123456789"),
            ("mongodb-uri", "mongodb+srv://user:SECRETPW@cluster.example"),
            ("llm-api-key", "sk-ant-SECRET-llm-0123456789"),
        ];
        let mut flags: Vec<(&str, String)> =
            secrets.iter().map(|(k, v)| (*k, v.to_string())).collect();
        flags.push(("llm-provider", "anthropic".to_string()));
        let cfg = Config::load(&dir, &flags).unwrap();
        let status = config_status(&cfg);
        let json = serde_json::to_string(&status).unwrap();
        for (_, secret) in secrets {
            assert!(!json.contains(secret), "{json}");
        }
        assert!(!json.contains("SECRET"), "{json}");
        assert!(!status.offline);
        let backends: Vec<_> = status.providers.iter().map(|p| p.backend).collect();
        use vai_contract::Backend;
        assert_eq!(
            backends,
            [
                Backend::Voyage,
                Backend::Voyage,
                Backend::Mongodb,
                Backend::Anthropic
            ]
        );
        assert_eq!(
            status.providers[0].detail,
            "VOYAGE_API_KEY from a command-line flag"
        );
    }
}
