//! The `query` tool — embed a question, vector-search a collection, rerank the hits — and what
//! the other provider-backed tools share with it: the retrieval pipeline `search` runs without
//! its rerank, the mapping of provider errors to tool errors, and usage/backend bookkeeping.

use crate::args;
use serde_json::{Map, Value, json};
use std::sync::{Arc, LazyLock};
use vai_providers::{
    Document, EmbedRequest, InputType, Namespace, ProviderError, Providers, RerankRequest,
    ScoredDocument, TokenUsage, VectorQuery,
};
use vai_workflow::{
    ApiCalls, Category, Tool, ToolCall, ToolError, ToolFuture, ToolOutput, ToolSpec, Usage,
};

const NAME: &str = "query";

/// Most results one step may ask for.
pub const MAX_LIMIT: u64 = 1000;
/// Most vector-search candidates (Atlas's own ceiling).
pub const MAX_CANDIDATES: u64 = 10_000;
/// Stored fields a retrieval result carries (the embedding never does).
const RESULT_FIELDS: [&str; 4] = ["text", "content", "source", "metadata"];

static SPEC: LazyLock<ToolSpec> = LazyLock::new(spec);

/// Embeds the query, searches the collection's vector index and reranks the hits.
pub struct Query {
    providers: Arc<Providers>,
}

impl Query {
    pub fn new(providers: Arc<Providers>) -> Self {
        Query { providers }
    }
}

pub fn spec() -> ToolSpec {
    ToolSpec {
        name: NAME,
        label: "Query",
        category: Category::Retrieval,
        icon: "ManageSearch",
        description: "Semantic search with reranking: embed the query, find the nearest documents, rerank them",
        help: "Embeds `query` (input type \"query\"), finds the `limit` nearest documents in the collection's vector index, then reranks them with `rerankModel` so each result's `score` is the reranker's relevance score (the vector search score is kept as `vectorScore`). Set `rerank` to false to skip the rerank call and keep vector scores. `filter` is a MongoDB-style pre-filter on stored fields, applied before ranking (the reference ignored it). The database and collection come from the step, then the workflow defaults, .vai.json, VAI_DEFAULT_DB / VAI_DEFAULT_COLLECTION and the user config.",
        input_schema: retrieval_schema(true),
        outputs: &[
            (
                "results",
                "matching documents, best first: _id, text/content, source, metadata, score (rerank relevance), vectorScore",
            ),
            ("resultCount", "number of results"),
        ],
        deferred: &[],
        main_input: Some("query"),
        api_calls: ApiCalls {
            embed: 1,
            rerank: 1,
            vector_search: 1,
            llm: 0,
            http: 0,
        },
    }
}

impl Tool for Query {
    fn spec(&self) -> &ToolSpec {
        &SPEC
    }

    fn run<'a>(&'a self, call: ToolCall<'a>) -> ToolFuture<'a> {
        Box::pin(retrieve(NAME, &self.providers, call, true))
    }
}

/// The input schema of `query` (`with_rerank`) and `search`.
pub(crate) fn retrieval_schema(with_rerank: bool) -> Value {
    let mut schema = json!({
        "type": "object",
        "properties": {
            "query": {"type": "string", "description": "The question or search text"},
            "db": {"type": "string", "description": "Database; defaults to the workflow's defaults.db, .vai.json, VAI_DEFAULT_DB or the user config"},
            "collection": {"type": "string", "description": "Collection; defaults to the workflow's defaults.collection, .vai.json, VAI_DEFAULT_COLLECTION or the user config"},
            "model": {"type": "string", "description": "Embedding model; defaults to defaults.model, then voyage-4-large. Must match the model the collection was embedded with"},
            "limit": {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT, "default": 10, "description": "How many results to return"},
            "numCandidates": {"type": "integer", "minimum": 1, "maximum": MAX_CANDIDATES, "description": "Vector-search candidate pool; defaults to limit × 15, at most 10,000"},
            "filter": {"type": "object", "description": "MongoDB-style pre-filter on stored fields, e.g. {\"source\": \"guide.md\"}"}
        },
        "required": ["query"]
    });
    if with_rerank {
        let props = schema["properties"]
            .as_object_mut()
            .expect("properties is an object");
        props.insert(
            "rerank".into(),
            json!({"type": "boolean", "default": true, "description": "Rerank the vector-search hits with a reranking model"}),
        );
        props.insert(
            "rerankModel".into(),
            json!({"type": "string", "default": "rerank-2.5", "description": "Reranking model; defaults to defaults.rerankModel, then rerank-2.5"}),
        );
    }
    schema
}

/// Embed → vector search → (when `allow_rerank` and the step's `rerank` is on) rerank.
pub(crate) async fn retrieve(
    tool: &'static str,
    providers: &Providers,
    call: ToolCall<'_>,
    allow_rerank: bool,
) -> Result<ToolOutput, ToolError> {
    let settings = &providers.settings;
    let query = args::required_str(tool, &call, "query")?.to_string();
    let limit = args::count_or(tool, &call, "limit", 10, MAX_LIMIT)?;
    if limit == 0 {
        return Err(ToolError::invalid(tool, "limit", "must be at least 1"));
    }
    let num_candidates = match call.input("numCandidates") {
        None => (limit * 15).min(MAX_CANDIDATES),
        Some(_) => args::count_or(tool, &call, "numCandidates", 0, MAX_CANDIDATES)?,
    };
    if num_candidates < limit {
        return Err(ToolError::invalid(
            tool,
            "numCandidates",
            format!("must be at least limit ({limit}), got {num_candidates}"),
        ));
    }
    let filter = args::opt_object(tool, &call, "filter")?
        .filter(|f| !f.is_empty())
        .cloned();
    let rerank = allow_rerank && args::bool_or(tool, &call, "rerank", true)?;
    let model =
        settings.embedding_model(args::opt_string(&call, "model").as_deref(), call.defaults);
    let rerank_model = settings.rerank_model(
        args::opt_string(&call, "rerankModel").as_deref(),
        call.defaults,
    );
    let namespace = namespace(tool, providers, &call)?;

    let embedder = providers
        .embedder(tool)
        .map_err(|e| provider_error(tool, e))?;
    let store = providers.store(tool).map_err(|e| provider_error(tool, e))?;
    let reranker = if rerank {
        Some(providers.reranker(tool).map_err(|e| match e {
            ProviderError::NotConfigured(m) => ToolError::NotConfigured(format!(
                "{m} Or set \"rerank\": false on the step to keep vector-search order."
            )),
            e => provider_error(tool, e),
        })?)
    } else {
        None
    };

    let mut served = Served::default();
    let embedded = embedder
        .embed(EmbedRequest {
            texts: vec![query.clone()],
            model,
            input_type: Some(InputType::Query),
            dimensions: None,
        })
        .await
        .map_err(|e| provider_error(tool, e))?;
    served.embed(embedder.name(), embedded.usage);
    let vector = single_vector(tool, embedder.name(), embedded.embeddings)?;

    let hits = store
        .vector_search(VectorQuery {
            namespace,
            index: settings.vector_index.clone(),
            path: settings.embedding_field.clone(),
            vector,
            limit: limit as usize,
            num_candidates: num_candidates as usize,
            filter,
            fields: RESULT_FIELDS.iter().map(|f| f.to_string()).collect(),
        })
        .await
        .map_err(|e| provider_error(tool, e))?;
    served.store(store.name());

    let results = match reranker {
        Some(reranker) if !hits.is_empty() => {
            let documents = hits.iter().map(|h| stored_text(&h.document)).collect();
            let reranked = reranker
                .rerank(RerankRequest {
                    query,
                    documents,
                    model: rerank_model,
                    top_k: None,
                })
                .await
                .map_err(|e| provider_error(tool, e))?;
            served.rerank(reranker.name(), reranked.usage);
            let mut slots: Vec<Option<ScoredDocument>> = hits.into_iter().map(Some).collect();
            let mut results = Vec::with_capacity(reranked.results.len());
            for scored in reranked.results {
                let hit = slots
                    .get_mut(scored.index)
                    .and_then(Option::take)
                    .ok_or_else(|| {
                        ToolError::Failed(format!(
                            "{tool}: {} returned an unknown or repeated document index {}",
                            reranker.name(),
                            scored.index
                        ))
                    })?;
                let mut doc = hit.document;
                doc.insert("score".into(), Value::from(scored.relevance_score));
                doc.insert("vectorScore".into(), Value::from(hit.score));
                results.push(Value::Object(doc));
            }
            results
        }
        _ => hits
            .into_iter()
            .map(|hit| {
                let mut doc = hit.document;
                doc.insert("score".into(), Value::from(hit.score));
                Value::Object(doc)
            })
            .collect(),
    };
    Ok(served.output(args::results_output(results).output))
}

/// The text of a stored document: its `text`, then `content`, else its JSON.
pub(crate) fn stored_text(doc: &Document) -> String {
    ["text", "content"]
        .iter()
        .find_map(|k| doc.get(*k).and_then(Value::as_str))
        .map_or_else(|| Value::Object(doc.clone()).to_string(), str::to_string)
}

/// The one vector of a one-text embedding response.
pub(crate) fn single_vector(
    tool: &'static str,
    backend: &str,
    embeddings: Vec<Vec<f32>>,
) -> Result<Vec<f32>, ToolError> {
    match <[Vec<f32>; 1]>::try_from(embeddings) {
        Ok([vector]) => Ok(vector),
        Err(all) => Err(ToolError::Failed(format!(
            "{tool}: {backend} returned {} embeddings for 1 text",
            all.len()
        ))),
    }
}

/// The step's database and collection (see `Settings::resolve_namespace`).
pub(crate) fn namespace(
    tool: &'static str,
    providers: &Providers,
    call: &ToolCall<'_>,
) -> Result<Namespace, ToolError> {
    providers
        .settings
        .resolve_namespace(
            tool,
            args::opt_string(call, "db").as_deref(),
            args::opt_string(call, "collection").as_deref(),
            call.defaults,
        )
        .map_err(|e| provider_error(tool, e))
}

/// A provider failure as a tool failure: missing configuration stays `NotConfigured`,
/// rate limits, timeouts, network and 5xx errors become `Transient` (so `retry` applies), the
/// rest `Failed`.
pub(crate) fn provider_error(tool: &'static str, error: ProviderError) -> ToolError {
    match error {
        ProviderError::NotConfigured(message) => ToolError::NotConfigured(message),
        e if e.is_transient() => ToolError::Transient {
            retry_after: e.retry_after(),
            message: format!("{tool}: {e}"),
        },
        e => ToolError::Failed(format!("{tool}: {e}")),
    }
}

/// What a step's provider calls cost and which backends served them.
#[derive(Debug, Default)]
pub(crate) struct Served {
    usage: Usage,
    backends: Vec<String>,
}

impl Served {
    pub(crate) fn embed(&mut self, backend: &str, usage: TokenUsage) {
        self.usage.embed_tokens += usage.input_tokens;
        self.call(backend);
    }

    pub(crate) fn rerank(&mut self, backend: &str, usage: TokenUsage) {
        self.usage.rerank_tokens += usage.input_tokens;
        self.call(backend);
    }

    pub(crate) fn llm(&mut self, backend: &str, usage: TokenUsage) {
        self.usage.llm_input_tokens += usage.input_tokens;
        self.usage.llm_output_tokens += usage.output_tokens;
        self.call(backend);
    }

    /// A vector-store call (no tokens).
    pub(crate) fn store(&mut self, backend: &str) {
        self.call(backend);
    }

    fn call(&mut self, backend: &str) {
        self.usage.requests += 1;
        if !self.backends.iter().any(|b| b == backend) {
            self.backends.push(backend.to_string());
        }
    }

    /// The step's output with usage and the backends joined by "+" ("voyage+mongodb").
    pub(crate) fn output(self, output: Value) -> ToolOutput {
        ToolOutput {
            output,
            usage: Some(self.usage),
            backend: (!self.backends.is_empty()).then(|| self.backends.join("+")),
        }
    }
}

/// A JSON object from `(key, value)` pairs, keeping their order.
pub(crate) fn object<const N: usize>(fields: [(&str, Value); N]) -> Value {
    Value::Object(
        fields
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect::<Map<String, Value>>(),
    )
}

/// In-memory fakes wired into `Providers`, and a way to run a tool, for the tools' tests.
#[cfg(test)]
pub(crate) mod testing {
    use serde_json::Value;
    use std::sync::Arc;
    use vai_providers::fakes::{FakeEmbedder, FakeLlm, FakeReranker, MemoryStore};
    use vai_providers::{Namespace, Providers, Settings, VectorIndex, VectorStore};
    use vai_workflow::{Context, Tool, ToolCall, ToolError, ToolOutput};

    pub(crate) const DIMS: usize = 32;

    pub(crate) struct Fakes {
        pub embedder: Arc<FakeEmbedder>,
        pub reranker: Arc<FakeReranker>,
        pub store: Arc<MemoryStore>,
        pub llm: Arc<FakeLlm>,
    }

    impl Fakes {
        pub(crate) fn new() -> Self {
            Fakes {
                embedder: Arc::new(FakeEmbedder::new(DIMS)),
                reranker: Arc::new(FakeReranker::new()),
                store: Arc::new(MemoryStore::new()),
                llm: Arc::new(FakeLlm::new()),
            }
        }

        /// Every provider configured, with `settings`.
        pub(crate) fn providers_with(&self, settings: Settings) -> Arc<Providers> {
            Arc::new(
                Providers::none(settings)
                    .with_embedder(self.embedder.clone())
                    .with_reranker(self.reranker.clone())
                    .with_store(self.store.clone())
                    .with_llm(self.llm.clone()),
            )
        }

        pub(crate) fn providers(&self) -> Arc<Providers> {
            self.providers_with(Settings::default())
        }

        /// Insert `docs` (objects with `text` or `content`) with their fake embeddings and the
        /// default vector index, as `ingest` would have.
        pub(crate) async fn seed(&self, db: &str, collection: &str, docs: Value) {
            let ns = Namespace::new(db, collection);
            let docs = docs
                .as_array()
                .expect("an array of documents")
                .iter()
                .map(|d| {
                    let mut d = d.as_object().expect("a document").clone();
                    let text = super::stored_text(&d);
                    let vector = self.embedder.vector(&text);
                    d.insert("embedding".into(), vai_providers::vector_to_json(&vector));
                    d
                })
                .collect();
            self.store.insert(&ns, docs).await.unwrap();
            let index = VectorIndex {
                name: "vector_index".into(),
                path: "embedding".into(),
                dimensions: DIMS,
            };
            self.store.ensure_vector_index(&ns, &index).await.unwrap();
        }
    }

    /// Run `tool` with `inputs` (an object) and workflow `defaults`.
    pub(crate) async fn run(
        tool: &dyn Tool,
        inputs: Value,
        defaults: Value,
    ) -> Result<ToolOutput, ToolError> {
        let scope = Context::new();
        let inputs = inputs.as_object().expect("inputs object").clone();
        tool.run(ToolCall::standalone("step", inputs, &defaults, &scope))
            .await
    }
}

#[cfg(test)]
mod tests {
    use super::testing::{Fakes, run};
    use super::*;
    use std::time::Duration;
    use vai_providers::Settings;

    fn defaults() -> Value {
        json!({"db": "kb", "collection": "docs"})
    }

    async fn seeded() -> Fakes {
        let fakes = Fakes::new();
        fakes
            .seed(
                "kb",
                "docs",
                json!([
                    {"text": "Vector search finds similar embeddings", "source": "vs.md", "metadata": {"lang": "en"}},
                    {"text": "Rerankers reorder search results by relevance", "source": "rerank.md", "metadata": {"lang": "en"}},
                    {"content": "Pasta recipes with tomato", "source": "food.md"},
                    {"text": "La recherche vectorielle search", "source": "fr.md", "metadata": {"lang": "fr"}}
                ]),
            )
            .await;
        fakes
    }

    #[tokio::test]
    async fn results_carry_stored_fields_and_rerank_scores_best_first() {
        let fakes = seeded().await;
        let tool = Query::new(fakes.providers());
        let out = run(
            &tool,
            json!({"query": "reorder search results", "limit": 3}),
            defaults(),
        )
        .await
        .unwrap();
        assert_eq!(out.output["resultCount"], 3);
        let results = out.output["results"].as_array().unwrap();
        assert_eq!(results.len(), 3);
        let first = results[0].as_object().unwrap();
        assert_eq!(
            first.keys().collect::<Vec<_>>(),
            ["_id", "text", "source", "metadata", "score", "vectorScore"]
        );
        assert_eq!(first["source"], "rerank.md");
        assert_eq!(first["score"], 1.0);
        let scores: Vec<f64> = results
            .iter()
            .map(|r| r["score"].as_f64().unwrap())
            .collect();
        assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
        assert!(results.iter().all(|r| r.get("embedding").is_none()));

        // The reranker saw the texts of the vector hits, `text` then `content`.
        let rerank = &fakes.reranker.requests()[0];
        assert_eq!(rerank.documents.len(), 3);
        assert_eq!(rerank.model, "rerank-2.5");
        assert_eq!(rerank.top_k, None);
        let embed = &fakes.embedder.requests()[0];
        assert_eq!(embed.input_type, Some(InputType::Query));
        assert_eq!(embed.model, "voyage-4-large");
        let search = &fakes.store.searches()[0];
        assert_eq!((search.limit, search.num_candidates), (3, 45));

        assert_eq!(out.backend.as_deref(), Some("fake+memory"));
        let usage = out.usage.unwrap();
        assert_eq!(usage.requests, 3);
        assert_eq!(usage.embed_tokens, 3);
        assert!(usage.rerank_tokens > 0);
    }

    #[tokio::test]
    async fn rerank_false_keeps_vector_order_and_scores() {
        let fakes = seeded().await;
        let tool = Query::new(fakes.providers());
        let out = run(
            &tool,
            json!({"query": "pasta tomato", "rerank": false}),
            defaults(),
        )
        .await
        .unwrap();
        let first = &out.output["results"][0];
        assert_eq!(first["content"], "Pasta recipes with tomato");
        assert!(first.get("vectorScore").is_none());
        assert!(first["score"].as_f64().unwrap() > 0.5);
        assert!(fakes.reranker.requests().is_empty());
        assert_eq!(out.output["resultCount"], 4);
    }

    #[tokio::test]
    async fn filter_is_applied_before_ranking() {
        let fakes = seeded().await;
        let tool = Query::new(fakes.providers());
        let out = run(
            &tool,
            json!({"query": "search", "filter": {"metadata.lang": "fr"}}),
            defaults(),
        )
        .await
        .unwrap();
        assert_eq!(out.output["resultCount"], 1);
        assert_eq!(out.output["results"][0]["source"], "fr.md");
        assert_eq!(
            fakes.store.searches()[0].filter.as_ref().unwrap()["metadata.lang"],
            "fr"
        );
    }

    #[tokio::test]
    async fn no_hits_means_no_rerank_call() {
        let fakes = seeded().await;
        let tool = Query::new(fakes.providers());
        let out = run(
            &tool,
            json!({"query": "x", "collection": "empty"}),
            defaults(),
        )
        .await
        .unwrap();
        assert_eq!(out.output, json!({"results": [], "resultCount": 0}));
        assert!(fakes.reranker.requests().is_empty());
    }

    #[tokio::test]
    async fn db_and_collection_follow_the_resolution_chain() {
        let fakes = seeded().await;
        let settings = Settings {
            env_db: Some("kb".into()),
            config_collection: Some("docs".into()),
            project_collection: Some("from_project".into()),
            ..Settings::default()
        };
        let tool = Query::new(fakes.providers_with(settings));
        run(&tool, json!({"query": "q", "rerank": false}), json!({}))
            .await
            .unwrap();
        run(
            &tool,
            json!({"query": "q", "rerank": false}),
            json!({"collection": "wf"}),
        )
        .await
        .unwrap();
        run(
            &tool,
            json!({"query": "q", "rerank": false, "db": "step", "collection": "c"}),
            json!({"db": "wf"}),
        )
        .await
        .unwrap();
        let used: Vec<String> = fakes
            .store
            .searches()
            .iter()
            .map(|s| s.namespace.to_string())
            .collect();
        assert_eq!(used, ["kb.from_project", "kb.wf", "step.c"]);
    }

    #[tokio::test]
    async fn a_missing_database_says_where_to_set_it() {
        let fakes = Fakes::new();
        let tool = Query::new(fakes.providers());
        let err = run(&tool, json!({"query": "q"}), json!({"collection": "c"}))
            .await
            .unwrap_err();
        assert!(matches!(err, ToolError::NotConfigured(_)));
        assert_eq!(
            err.to_string(),
            "query: database not specified (set \"db\" in the step inputs or workflow defaults, \
             \"db\" in .vai.json, VAI_DEFAULT_DB, or `vai config set default-db <name>`)"
        );
        assert!(fakes.embedder.requests().is_empty());
    }

    #[tokio::test]
    async fn unconfigured_providers_are_reported_before_any_call() {
        let fakes = Fakes::new();
        let none = Arc::new(Providers::none(Settings::default()));
        let err = run(&Query::new(none), json!({"query": "q"}), defaults())
            .await
            .unwrap_err();
        assert!(matches!(err, ToolError::NotConfigured(_)));
        assert!(err.to_string().starts_with(
            "query: no embedding provider is configured. Set VOYAGE_API_KEY (or run `vai config set api-key <key>`)"
        ));

        let no_reranker = Arc::new(
            Providers::none(Settings::default())
                .with_embedder(fakes.embedder.clone())
                .with_store(fakes.store.clone()),
        );
        let err = run(
            &Query::new(no_reranker.clone()),
            json!({"query": "q"}),
            defaults(),
        )
        .await
        .unwrap_err();
        assert!(
            err.to_string().contains("no rerank provider is configured"),
            "{err}"
        );
        assert!(err.to_string().contains("\"rerank\": false"), "{err}");
        assert!(fakes.embedder.requests().is_empty());
        run(
            &Query::new(no_reranker),
            json!({"query": "q", "rerank": false}),
            defaults(),
        )
        .await
        .unwrap();
    }

    #[tokio::test]
    async fn inputs_are_checked() {
        let fakes = Fakes::new();
        let tool = Query::new(fakes.providers());
        let err = |inputs: Value| {
            let tool = &tool;
            async move { run(tool, inputs, defaults()).await.unwrap_err().to_string() }
        };
        assert_eq!(err(json!({})).await, "query: input \"query\" is required");
        assert!(
            err(json!({"query": "q", "limit": 0}))
                .await
                .contains("at least 1")
        );
        assert!(
            err(json!({"query": "q", "limit": 1001}))
                .await
                .contains("at most 1000")
        );
        assert!(
            err(json!({"query": "q", "limit": 20, "numCandidates": 10}))
                .await
                .contains("at least limit (20)")
        );
        assert!(
            err(json!({"query": "q", "filter": "x"}))
                .await
                .contains("must be an object")
        );
    }

    #[tokio::test]
    async fn candidates_default_to_fifteen_times_limit_capped() {
        let fakes = seeded().await;
        let tool = Query::new(fakes.providers());
        run(
            &tool,
            json!({"query": "q", "limit": 1000, "rerank": false}),
            defaults(),
        )
        .await
        .unwrap();
        run(
            &tool,
            json!({"query": "q", "limit": "5", "numCandidates": 7, "rerank": false}),
            defaults(),
        )
        .await
        .unwrap();
        let pools: Vec<usize> = fakes
            .store
            .searches()
            .iter()
            .map(|s| s.num_candidates)
            .collect();
        assert_eq!(pools, [10_000, 7]);
    }

    #[tokio::test]
    async fn transient_provider_errors_become_retryable_tool_errors() {
        let fakes = seeded().await;
        let tool = Query::new(fakes.providers());
        fakes.embedder.fail_next(ProviderError::RateLimited {
            provider: "voyage".into(),
            message: "too many requests".into(),
            retry_after: Some(Duration::from_secs(3)),
        });
        match run(&tool, json!({"query": "q"}), defaults())
            .await
            .unwrap_err()
        {
            ToolError::Transient {
                message,
                retry_after,
            } => {
                assert_eq!(retry_after, Some(Duration::from_secs(3)));
                assert!(
                    message.starts_with("query: voyage: rate limited"),
                    "{message}"
                );
            }
            other => panic!("expected a transient error, got {other:?}"),
        }
        fakes.reranker.fail_next(ProviderError::Server {
            provider: "voyage".into(),
            status: 502,
            message: "bad gateway".into(),
        });
        assert!(
            run(&tool, json!({"query": "q"}), defaults())
                .await
                .unwrap_err()
                .is_transient()
        );
        fakes.store.fail_next(ProviderError::Auth {
            provider: "mongodb".into(),
            message: "bad credentials".into(),
        });
        let err = run(&tool, json!({"query": "q"}), defaults())
            .await
            .unwrap_err();
        assert!(matches!(err, ToolError::Failed(_)));
        assert_eq!(
            err.to_string(),
            "query: mongodb: authentication failed: bad credentials"
        );
    }

    #[test]
    fn spec_declares_inputs_and_calls() {
        let spec = spec();
        assert_eq!(spec.required_inputs(), ["query"]);
        assert_eq!(spec.input_schema["properties"]["limit"]["default"], 10);
        assert_eq!(spec.input_schema["properties"]["rerank"]["default"], true);
        assert_eq!(spec.category, Category::Retrieval);
        assert_eq!(
            (
                spec.api_calls.embed,
                spec.api_calls.vector_search,
                spec.api_calls.rerank
            ),
            (1, 1, 1)
        );
    }
}
