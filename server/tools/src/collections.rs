//! The `collections` tool: list a database's collections with counts and vector indexes.

use crate::args::{self, NO_API_CALLS};
use crate::retrieval::{DB, object, provider_error, string};
use crate::served::Served;
use serde_json::{Map, Value};
use std::sync::{Arc, LazyLock};
use vai_providers::{CollectionInfo, Providers};
use vai_workflow::input_schema::InputSchema;
use vai_workflow::{Category, Effects, Tool, ToolCall, ToolFuture, ToolSpec};

const NAME: &str = "collections";

static SPEC: LazyLock<ToolSpec> = LazyLock::new(spec);

/// Lists the collections of a database.
pub struct Collections {
    providers: Arc<Providers>,
}

impl Collections {
    pub fn new(providers: Arc<Providers>) -> Self {
        Collections { providers }
    }
}

pub fn spec() -> ToolSpec {
    ToolSpec {
        name: NAME,
        label: "Collections",
        category: Category::Management,
        icon: "Storage",
        description: "List a database's collections with document counts and vector indexes",
        help: "Lists the collections of `db` by name, each with its document count and whether it has a vector index; when it does, `embeddingField` names the field the index covers and `dimensions` its vector size (when the store reports it). The database comes from the step, then the workflow defaults, .vai.json, VAI_DEFAULT_DB and the user config. A database that does not exist lists no collections.",
        input_schema: InputSchema::new().input("db", string(DB)),
        outputs: &[
            (
                "collections",
                "[{name, documentCount, hasVectorIndex, embeddingField?, dimensions?}], by name",
            ),
            ("database", "the database listed"),
        ],
        deferred: &[],
        main_input: Some("db"),
        api_calls: NO_API_CALLS,
        // Lists the store's collections; MongoDB when configured.
        effects: Effects::READS_REMOTE,
        optional_calls: &[],
        uses_store: true,
    }
}

impl Tool for Collections {
    fn spec(&self) -> &ToolSpec {
        &SPEC
    }

    fn run<'a>(&'a self, call: ToolCall<'a>) -> ToolFuture<'a> {
        Box::pin(async move {
            let db = self
                .providers
                .settings
                .resolve_db(
                    NAME,
                    args::opt_string(&call, "db").as_deref(),
                    call.defaults,
                )
                .map_err(|e| provider_error(NAME, e))?;
            let store = self
                .providers
                .store(NAME)
                .map_err(|e| provider_error(NAME, e))?;
            let mut collections = store
                .list_collections(&db)
                .await
                .map_err(|e| provider_error(NAME, e))?;
            collections.sort_by(|a, b| a.name.cmp(&b.name));
            let mut served = Served::new(&self.providers.pricing);
            served.store(store.name());
            Ok(served.output(object([
                (
                    "collections",
                    collections.into_iter().map(describe).collect(),
                ),
                ("database", Value::String(db)),
            ])))
        })
    }
}

fn describe(info: CollectionInfo) -> Value {
    let mut out = Map::new();
    out.insert("name".into(), Value::String(info.name));
    out.insert("documentCount".into(), Value::from(info.document_count));
    out.insert(
        "hasVectorIndex".into(),
        Value::Bool(info.vector_index.is_some()),
    );
    if let Some(index) = info.vector_index {
        out.insert("embeddingField".into(), Value::String(index.path));
        if let Some(d) = index.dimensions {
            out.insert("dimensions".into(), Value::from(d));
        }
    }
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::retrieval::testing::{DIMS, Fakes, run};
    use serde_json::json;
    use vai_providers::{Namespace, Settings, VectorStore};

    #[tokio::test]
    async fn lists_collections_with_counts_and_indexes() {
        let fakes = Fakes::new();
        fakes
            .seed("kb", "docs", json!([{"text": "a"}, {"text": "b"}]))
            .await;
        fakes
            .store
            .insert(&Namespace::new("kb", "archive"), vec![Map::new()])
            .await
            .unwrap();
        let tool = Collections::new(fakes.providers());
        let out = run(&tool, json!({}), json!({"db": "kb"})).await.unwrap();
        assert_eq!(
            out.output,
            json!({
                "collections": [
                    {"name": "archive", "documentCount": 1, "hasVectorIndex": false},
                    {"name": "docs", "documentCount": 2, "hasVectorIndex": true, "embeddingField": "embedding", "dimensions": DIMS}
                ],
                "database": "kb"
            })
        );
        assert_eq!(out.backend.as_deref(), Some("memory"));
    }

    #[tokio::test]
    async fn database_comes_from_the_chain_or_an_error() {
        let fakes = Fakes::new();
        let settings = Settings {
            config_db: Some("mine".into()),
            ..Settings::default()
        };
        let tool = Collections::new(fakes.providers_with(settings));
        let out = run(&tool, json!({"db": ""}), json!({})).await.unwrap();
        assert_eq!(out.output, json!({"collections": [], "database": "mine"}));

        let tool = Collections::new(fakes.providers());
        let err = run(&tool, json!({}), json!({})).await.unwrap_err();
        assert!(
            err.to_string()
                .starts_with("collections: database not specified")
        );
        let none = Collections::new(Arc::new(Providers::none(Settings::default())));
        let err = run(&none, json!({"db": "kb"}), json!({}))
            .await
            .unwrap_err();
        assert!(
            err.to_string()
                .starts_with("collections: no vector store is configured. Set MONGODB_URI")
        );
    }

    /// A store error reaches the run's events — and the playground's browser — without the
    /// store's path (which holds the user's home directory).
    #[tokio::test]
    async fn a_broken_store_fails_the_step_without_naming_its_path() {
        use vai_providers::local::store::LocalStore;
        use vai_workflow::{Mode, Registry, RunEvent, RunOptions};
        let dir = std::env::temp_dir().join(format!("vai-collections-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let path = dir.join("store.sqlite3");
        let store = Arc::new(LocalStore::open(&path).unwrap());
        // Damaged under a running vai: the file is replaced.
        std::fs::rename(&path, dir.join("moved.sqlite3")).unwrap();
        std::fs::write(&path, "not a store").unwrap();

        let providers = Arc::new(Providers::none(Settings::default()).with_store(store));
        let mut registry = Registry::new();
        registry.register(Arc::new(Collections::new(providers)));
        let registry = Arc::new(registry);
        let workflow = json!({"name": "List", "steps": [
            {"id": "list", "tool": "collections", "inputs": {"db": "vai_demo"}}
        ]});
        let plan = vai_workflow::compile(&workflow, &registry, Mode::Strict)
            .plan
            .unwrap();
        let (events, mut received) = tokio::sync::mpsc::unbounded_channel();
        let result = vai_workflow::run(plan, registry, RunOptions::default(), Arc::new(events))
            .await
            .unwrap();
        assert_eq!(result.status, vai_workflow::RunStatus::Failed);
        let mut error = None;
        while let Ok(event) = received.try_recv() {
            if let RunEvent::StepFailed { error: e, .. } = event {
                error = Some(e);
            }
        }
        let error = error.expect("a step_failed event");
        assert!(error.contains("database \"vai_demo\""), "{error}");
        for leaked in [
            dir.display().to_string(),
            std::env::temp_dir().display().to_string(),
        ] {
            assert!(!error.contains(&leaked), "{error} names {leaked}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
