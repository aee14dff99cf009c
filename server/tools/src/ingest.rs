//! The `ingest` tool: chunk a text, embed the chunks and store them with a vector index.

use crate::args;
use crate::chunk::{self, ChunkError, ChunkOptions, Strategy};
use crate::retrieval::{COLLECTION, DB, namespace, object, provider_error, string};
use crate::served::Served;
use serde_json::{Map, Value, json};
use std::sync::{Arc, LazyLock};
use std::time::SystemTime;
use vai_providers::{
    Document, EmbedInputType, EmbedRequest, Providers, VectorIndex, vector_to_json,
};
use vai_workflow::input_schema::{InputSchema, JsonType, PropertySchema, WidgetFormat};
use vai_workflow::limits::measure;
use vai_workflow::{ApiCalls, Category, Effects, Tool, ToolCall, ToolError, ToolFuture, ToolSpec};

const NAME: &str = "ingest";

static SPEC: LazyLock<ToolSpec> = LazyLock::new(spec);

/// Chunks, embeds and stores a text.
pub struct Ingest {
    providers: Arc<Providers>,
}

impl Ingest {
    pub fn new(providers: Arc<Providers>) -> Self {
        Ingest { providers }
    }
}

pub fn spec() -> ToolSpec {
    ToolSpec {
        name: NAME,
        label: "Ingest",
        category: Category::Management,
        icon: "UploadFile",
        description: "Chunk a text, embed the chunks and store them for vector search",
        help: "Splits `text` with the chunker of the `chunk` tool (`chunkStrategy`, `chunkSize` and `chunkOverlap`, sizes in characters), embeds every chunk as a document and inserts one document per chunk: {text, source, embedding, metadata, createdAt}, where metadata is the step's `metadata` plus `chunkIndex` and `strategy` (and `heading` for markdown). Before inserting it makes sure the collection has the vector index searched by `query` and `search` (`vector_index` on `embedding`, cosine, sized to the vectors), creating it on first use; `indexCreated` says whether it did. Use the same embedding model for ingesting and searching a collection.",
        input_schema: InputSchema::new()
            .required_input(
                "text",
                PropertySchema::of(JsonType::String)
                    .describe("The text to ingest")
                    .format(WidgetFormat::Multiline),
            )
            .input(
                "source",
                PropertySchema::of(JsonType::String)
                    .defaults_to("workflow-ingest")
                    .describe(
                        "Where the text came from (a file name or URL), stored with every chunk",
                    ),
            )
            .input("db", string(DB))
            .input("collection", string(COLLECTION))
            .input(
                "model",
                string("Embedding model; defaults to defaults.model, then voyage-4-large"),
            )
            .input(
                "chunkStrategy",
                chunk::strategy_input("How the text is split (see the chunk tool)"),
            )
            .input("chunkSize", chunk::size_input())
            .input("chunkOverlap", chunk::overlap_input("chunkSize"))
            .input(
                "metadata",
                PropertySchema::of(JsonType::Object)
                    .defaults_to(json!({}))
                    .describe("Fields stored in every chunk's metadata"),
            ),
        outputs: &[
            ("insertedCount", "documents inserted"),
            ("chunks", "number of chunks the text produced"),
            ("source", "the source recorded"),
            ("model", "the embedding model used"),
            (
                "indexCreated",
                "whether the vector index was created by this step",
            ),
        ],
        deferred: &[],
        main_input: Some("text"),
        api_calls: ApiCalls {
            embed: 1,
            rerank: 0,
            vector_search: 0,
            llm: 0,
            http: 0,
        },
        effects: Effects {
            read_only: false,
            // It only inserts new documents and creates a missing index; nothing it finds is
            // replaced or removed.
            destructive: false,
            // Every run inserts its chunks again, under new ids.
            idempotent: false,
            open_world: true,
        },
        optional_calls: &[],
        uses_store: true,
    }
}

impl Tool for Ingest {
    fn spec(&self) -> &ToolSpec {
        &SPEC
    }

    fn run<'a>(&'a self, call: ToolCall<'a>) -> ToolFuture<'a> {
        Box::pin(async move {
            let settings = &self.providers.settings;
            let text = args::required_str(NAME, &call, "text")?;
            let source = args::text(&SPEC, &call, "source")?;
            let options = chunk_options(&call)?;
            let metadata = args::object(&SPEC, &call, "metadata")?.clone();
            let model = settings
                .embedding_model(args::opt_string(&call, "model").as_deref(), call.defaults);
            let namespace = namespace(NAME, &self.providers, &call)?;
            let embedder = self
                .providers
                .embedder(NAME)
                .map_err(|e| provider_error(NAME, e))?;
            let store = self
                .providers
                .store(NAME)
                .map_err(|e| provider_error(NAME, e))?;

            // What ingest builds — the chunks, and the documents that copy `metadata` into each —
            // is held to the step output budget, like an output.
            let chunks = chunk::chunk_text(text, &options, call.budget().remaining()).map_err(
                |e| match e {
                    ChunkError::TooLarge { .. } => {
                        ToolError::limit("chunks", call.budget().limit())
                    }
                    e => ToolError::invalid(NAME, "chunkSize", e.to_string()),
                },
            )?;
            let text_bytes: u64 = chunks.iter().map(|c| c.content.len() as u64).sum();
            call.charge("chunks", text_bytes)?;
            let limit = call.budget().limit();
            let metadata_bytes = metadata
                .iter()
                .try_fold(2, |n, (k, v)| {
                    Ok(n + k.len() as u64 + 4 + measure(v, 2, limit)?)
                })
                .map_err(|l| ToolError::limit("inputs.metadata", l))?;
            call.charge(
                "documents",
                metadata_bytes.saturating_mul(chunks.len() as u64),
            )?;
            let summary = |inserted: u64, model: String, created: bool| {
                object([
                    ("insertedCount", Value::from(inserted)),
                    ("chunks", Value::from(chunks.len())),
                    ("source", Value::String(source.clone())),
                    ("model", Value::String(model)),
                    ("indexCreated", Value::Bool(created)),
                ])
            };
            let mut served = Served::new(&self.providers.pricing);
            if chunks.is_empty() {
                return Ok(served.output(summary(0, model, false)));
            }

            let embedded = embedder
                .embed(EmbedRequest {
                    texts: chunks.iter().map(|c| c.content.clone()).collect(),
                    model,
                    input_type: Some(EmbedInputType::Document),
                    dimensions: None,
                })
                .await
                .map_err(|e| provider_error(NAME, e))?;
            served.embed(embedder.name(), &embedded.model, embedded.usage);
            let dimensions = embedded.embeddings.first().map_or(0, Vec::len);
            if embedded.embeddings.len() != chunks.len()
                || dimensions == 0
                || embedded.embeddings.iter().any(|v| v.len() != dimensions)
            {
                return Err(ToolError::Failed(format!(
                    "{NAME}: {} returned {} embeddings of inconsistent or empty size for {} chunks",
                    embedder.name(),
                    embedded.embeddings.len(),
                    chunks.len()
                )));
            }

            // The index first: should it fail, nothing is inserted and a retry starts clean.
            let index = VectorIndex {
                name: settings.vector_index.clone(),
                path: settings.embedding_field.clone(),
                dimensions,
            };
            let created = store
                .ensure_vector_index(&namespace, &index)
                .await
                .map_err(|e| provider_error(NAME, e))?;
            served.store(store.name());

            let created_at = Value::String(vai_providers::rfc3339_utc(SystemTime::now()));
            let documents: Vec<Document> = chunks
                .iter()
                .zip(&embedded.embeddings)
                .map(|(chunk, vector)| {
                    let mut meta = metadata.clone();
                    meta.insert("chunkIndex".into(), Value::from(chunk.index));
                    meta.insert("strategy".into(), Value::from(options.strategy.as_str()));
                    if let Some(heading) = &chunk.heading {
                        meta.insert("heading".into(), Value::String(heading.clone()));
                    }
                    let mut doc = Map::new();
                    doc.insert("text".into(), Value::String(chunk.content.clone()));
                    doc.insert("source".into(), Value::String(source.clone()));
                    doc.insert(settings.embedding_field.clone(), vector_to_json(vector));
                    doc.insert("metadata".into(), Value::Object(meta));
                    doc.insert("createdAt".into(), created_at.clone());
                    doc
                })
                .collect();
            let inserted = store
                .insert(&namespace, documents)
                .await
                .map_err(|e| provider_error(NAME, e))?;
            served.store(store.name());
            Ok(served.output(summary(inserted, embedded.model, created)))
        })
    }
}

fn chunk_options(call: &ToolCall<'_>) -> Result<ChunkOptions, ToolError> {
    let strategy = args::choice(&SPEC, call, "chunkStrategy")?;
    let strategy = Strategy::parse(strategy).ok_or_else(|| {
        ToolError::invalid(
            NAME,
            "chunkStrategy",
            format!("unknown strategy \"{strategy}\""),
        )
    })?;
    let size = args::count(&SPEC, call, "chunkSize")?;
    let overlap = args::opt_count(&SPEC, call, "chunkOverlap")?.map(|n| n as usize);
    ChunkOptions::new(strategy, size as usize, overlap).map_err(|e| {
        let field = if matches!(e, ChunkError::Overlap { .. }) {
            "chunkOverlap"
        } else {
            "chunkSize"
        };
        ToolError::invalid(NAME, field, e.to_string())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::retrieval::testing::{DIMS, Fakes, run};
    use vai_providers::{Namespace, ProviderError, Settings};

    fn defaults() -> Value {
        json!({"db": "kb", "collection": "docs"})
    }

    const TEXT: &str = "First paragraph about vector search.\n\nSecond paragraph about reranking results.\n\nThird paragraph about ingestion.";

    #[tokio::test]
    async fn stores_one_document_per_chunk_and_creates_the_index_once() {
        let fakes = Fakes::new();
        let tool = Ingest::new(fakes.providers());
        let inputs = json!({
            "text": TEXT,
            "source": "notes.md",
            "chunkSize": 45,
            "chunkOverlap": 0,
            "metadata": {"team": "docs"}
        });
        let out = run(&tool, inputs.clone(), defaults()).await.unwrap();
        assert_eq!(
            out.output,
            json!({"insertedCount": 3, "chunks": 3, "source": "notes.md", "model": "voyage-4-large", "indexCreated": true})
        );
        let ns = Namespace::new("kb", "docs");
        let docs = fakes.store.documents(&ns);
        assert_eq!(docs.len(), 3);
        let doc = &docs[1];
        assert_eq!(
            doc.keys().collect::<Vec<_>>(),
            [
                "_id",
                "text",
                "source",
                "embedding",
                "metadata",
                "createdAt"
            ]
        );
        assert_eq!(doc["text"], "Second paragraph about reranking results.");
        assert_eq!(doc["source"], "notes.md");
        assert_eq!(
            doc["metadata"],
            json!({"team": "docs", "chunkIndex": 1, "strategy": "recursive"})
        );
        assert_eq!(doc["embedding"].as_array().unwrap().len(), DIMS);
        let created_at = doc["createdAt"].as_str().unwrap();
        assert!(
            created_at.len() == 24 && created_at.ends_with('Z'),
            "{created_at}"
        );
        assert_eq!(
            fakes.store.index(&ns),
            Some(VectorIndex {
                name: "vector_index".into(),
                path: "embedding".into(),
                dimensions: DIMS
            })
        );

        // Every chunk went to the embedder in one request, as documents.
        let request = &fakes.embedder.requests()[0];
        assert_eq!(request.texts.len(), 3);
        assert_eq!(request.input_type, Some(EmbedInputType::Document));
        assert_eq!(out.backend.as_deref(), Some("fake+memory"));
        assert_eq!(out.usage.as_ref().unwrap().requests, 3);

        let again = run(&tool, inputs, defaults()).await.unwrap();
        assert_eq!(again.output["indexCreated"], false);
        assert_eq!(fakes.store.documents(&ns).len(), 6);
    }

    #[tokio::test]
    async fn ingested_text_is_found_by_search() {
        let fakes = Fakes::new();
        let providers = fakes.providers();
        run(
            &Ingest::new(providers.clone()),
            json!({"text": TEXT, "chunkSize": 45, "chunkOverlap": 0}),
            defaults(),
        )
        .await
        .unwrap();
        let out = run(
            &crate::search::Search::new(providers),
            json!({"query": "reranking results", "limit": 1}),
            defaults(),
        )
        .await
        .unwrap();
        let hit = &out.output["results"][0];
        assert_eq!(hit["text"], "Second paragraph about reranking results.");
        assert_eq!(hit["source"], "workflow-ingest");
        assert_eq!(hit["metadata"]["chunkIndex"], 1);
    }

    #[tokio::test]
    async fn markdown_chunks_record_their_heading() {
        let fakes = Fakes::new();
        let tool = Ingest::new(fakes.providers());
        run(&tool, json!({"text": "# Setup\n\nInstall it.\n\n# Usage\n\nRun it.", "chunkStrategy": "markdown", "chunkSize": 30}), defaults())
            .await
            .unwrap();
        let docs = fakes.store.documents(&Namespace::new("kb", "docs"));
        let headings: Vec<&Value> = docs.iter().map(|d| &d["metadata"]["heading"]).collect();
        assert!(headings.iter().all(|h| h.is_string()), "{headings:?}");
        assert_eq!(docs[0]["metadata"]["strategy"], "markdown");
    }

    #[tokio::test]
    async fn blank_text_inserts_nothing() {
        let fakes = Fakes::new();
        let tool = Ingest::new(fakes.providers());
        let out = run(&tool, json!({"text": "   \n  "}), defaults())
            .await
            .unwrap();
        assert_eq!(out.output["insertedCount"], 0);
        assert_eq!(out.output["chunks"], 0);
        assert_eq!(out.output["indexCreated"], false);
        assert!(fakes.embedder.requests().is_empty());
    }

    #[tokio::test]
    async fn inputs_configuration_and_failures() {
        let fakes = Fakes::new();
        let tool = Ingest::new(fakes.providers());
        let err = run(
            &tool,
            json!({"text": "t", "chunkSize": 10, "chunkOverlap": 10}),
            defaults(),
        )
        .await
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "ingest: input \"chunkOverlap\" overlap (10) must be smaller than size (10)"
        );
        let err = run(&tool, json!({"text": "t", "metadata": [1]}), defaults())
            .await
            .unwrap_err();
        assert!(err.to_string().contains("\"metadata\" must be an object"));
        let err = run(&tool, json!({"text": "t"}), json!({}))
            .await
            .unwrap_err();
        assert!(
            err.to_string()
                .starts_with("ingest: database not specified")
        );
        let none = Ingest::new(Arc::new(Providers::none(Settings::default())));
        let err = run(&none, json!({"text": "t"}), defaults())
            .await
            .unwrap_err();
        assert!(matches!(err, ToolError::NotConfigured(_)));

        fakes.store.fail_next(ProviderError::Server {
            provider: "mongodb".into(),
            status: 503,
            message: "unavailable".into(),
        });
        let err = run(&tool, json!({"text": "t"}), defaults())
            .await
            .unwrap_err();
        assert!(err.is_transient());
        assert!(
            fakes
                .store
                .documents(&Namespace::new("kb", "docs"))
                .is_empty()
        );
    }
}
