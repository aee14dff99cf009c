//! What the provider-backed tools share: the retrieval pipeline (`query` with its rerank, `search`
//! without), the mapping of provider errors to tool errors, and the fakes their tests run
//! against. What their calls used and cost is kept by [`crate::served::Served`].

use crate::args;
use crate::served::Served;
use serde_json::{Map, Value};
use vai_providers::{
    Document, EmbedInputType, EmbedRequest, Namespace, ProviderError, Providers, RerankRequest,
    ScoredDocument, VectorQuery,
};
use vai_workflow::input_schema::{InputSchema, JsonType, PropertySchema};
use vai_workflow::{ToolCall, ToolError, ToolOutput, ToolSpec};

/// Most results one step may ask for.
pub const MAX_LIMIT: u64 = 1000;
/// Most vector-search candidates (Atlas's own ceiling).
pub const MAX_CANDIDATES: u64 = 10_000;
/// Stored fields a retrieval result carries (the embedding never does).
const RESULT_FIELDS: [&str; 4] = ["text", "content", "source", "metadata"];

/// The input schema of `query` (`with_rerank`) and `search`.
pub(crate) fn retrieval_schema(with_rerank: bool) -> InputSchema {
    let schema = InputSchema::new()
        .required_input(
            "query",
            PropertySchema::of(JsonType::String).describe("The question or search text"),
        )
        .input("db", string(DB))
        .input("collection", string(COLLECTION))
        .input(
            "model",
            string("Embedding model; defaults to defaults.model, then voyage-4-large. Must match the model the collection was embedded with"),
        )
        .input(
            "limit",
            PropertySchema::of(JsonType::Integer)
                .min(1u64)
                .max(MAX_LIMIT)
                .defaults_to(10)
                .describe("How many results to return"),
        )
        .input(
            "numCandidates",
            PropertySchema::of(JsonType::Integer)
                .min(1u64)
                .max(MAX_CANDIDATES)
                .describe("Vector-search candidate pool; defaults to limit × 15, at most 10,000"),
        )
        .input(
            "filter",
            PropertySchema::of(JsonType::Object).describe(
                "MongoDB-style pre-filter on stored fields, e.g. {\"source\": \"guide.md\"}",
            ),
        );
    if !with_rerank {
        return schema;
    }
    schema
        .input(
            "rerank",
            PropertySchema::of(JsonType::Boolean)
                .defaults_to(true)
                .describe("Rerank the vector-search hits with a reranking model"),
        )
        .input(
            "rerankModel",
            string("Reranking model; defaults to defaults.rerankModel, then rerank-2.5"),
        )
}

/// The `db` input's description, shared by every tool that reads a collection.
pub(crate) const DB: &str = "Database; defaults to the workflow's defaults.db, .vai.json, VAI_DEFAULT_DB or the user config";
/// The `collection` input's description.
pub(crate) const COLLECTION: &str = "Collection; defaults to the workflow's defaults.collection, .vai.json, VAI_DEFAULT_COLLECTION or the user config";

/// A string input described by `description`.
pub(crate) fn string(description: &str) -> PropertySchema {
    PropertySchema::of(JsonType::String).describe(description)
}

/// Embed → vector search → (when `allow_rerank` and the step's `rerank` is on) rerank.
pub(crate) async fn retrieve(
    spec: &ToolSpec,
    providers: &Providers,
    call: ToolCall<'_>,
    allow_rerank: bool,
) -> Result<ToolOutput, ToolError> {
    let tool = spec.name;
    let settings = &providers.settings;
    let query = args::required_str(tool, &call, "query")?.to_string();
    let limit = args::count(spec, &call, "limit")?;
    let num_candidates = match args::opt_count(spec, &call, "numCandidates")? {
        None => (limit * 15).min(MAX_CANDIDATES),
        Some(n) => n,
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
    let rerank = allow_rerank && args::flag(spec, &call, "rerank")?;
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

    let mut served = Served::new(&providers.pricing);
    let embedded = embedder
        .embed(EmbedRequest {
            texts: vec![query.clone()],
            model,
            input_type: Some(EmbedInputType::Query),
            dimensions: None,
        })
        .await
        .map_err(|e| provider_error(tool, e))?;
    served.embed(embedder.name(), &embedded.model, embedded.usage);
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
            served.rerank(reranker.name(), &reranked.model, reranked.usage);
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

/// `output` with `requestedModel` added when the step named an embedding model other than the
/// one that served it: offline, the local model serves every request, and a result must not pass
/// for the named model's.
pub(crate) fn with_requested_model(mut output: Value, asked: Option<&str>) -> Value {
    let served = output.get("model").and_then(Value::as_str);
    if let (Some(asked), Some(served)) = (asked, served)
        && asked != served
        && let Value::Object(fields) = &mut output
    {
        fields.insert("requestedModel".into(), Value::String(asked.to_string()));
    }
    output
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
