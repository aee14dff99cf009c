//! The `embed` tool: one text to one embedding vector.

use crate::args;
use crate::retrieval::{object, provider_error, single_vector, string, with_requested_model};
use crate::served::Served;
use serde_json::Value;
use std::sync::{Arc, LazyLock};
use vai_providers::{EmbedInputType, EmbedRequest, Providers, vector_to_json};
use vai_workflow::input_schema::{InputSchema, JsonType, PropertySchema, WidgetFormat};
use vai_workflow::{ApiCalls, Category, Effects, Tool, ToolCall, ToolFuture, ToolSpec};

const NAME: &str = "embed";

/// Largest output dimension any supported model offers.
const MAX_DIMENSIONS: u64 = 4096;

static SPEC: LazyLock<ToolSpec> = LazyLock::new(spec);

/// Embeds one text.
pub struct Embed {
    providers: Arc<Providers>,
}

impl Embed {
    pub fn new(providers: Arc<Providers>) -> Self {
        Embed { providers }
    }
}

pub fn spec() -> ToolSpec {
    ToolSpec {
        name: NAME,
        label: "Embed",
        category: Category::Embedding,
        icon: "Memory",
        description: "Turn a text into an embedding vector",
        help: "Embeds `text` with the embedding model and returns the vector, the model that produced it and its length. `inputType` tells the model whether the text is a search query or a document to be searched (Voyage models embed the two slightly differently); it defaults to \"query\". `dimensions` asks for a shorter or longer vector where the model supports it (voyage-4 models: 256, 512, 1024 or 2048).",
        input_schema: InputSchema::new()
            .required_input(
                "text",
                string("The text to embed").format(WidgetFormat::Multiline),
            )
            .input(
                "model",
                string("Embedding model; defaults to defaults.model, then voyage-4-large"),
            )
            .input(
                "inputType",
                string("Whether the text is a query or a document")
                    .choices(["query", "document"])
                    .defaults_to("query"),
            )
            .input(
                "dimensions",
                PropertySchema::of(JsonType::Integer)
                    .min(1u64)
                    .max(MAX_DIMENSIONS)
                    .describe("Output dimensions; the model's default when omitted"),
            ),
        outputs: &[
            ("embedding", "the vector (array of numbers)"),
            ("model", "the model that produced it"),
            (
                "requestedModel",
                "the model the step named, when another one served it (offline: the local model)",
            ),
            ("dimensions", "the vector's length"),
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
        effects: Effects::READS_REMOTE,
        optional_calls: &[],
        uses_store: false,
    }
}

impl Tool for Embed {
    fn spec(&self) -> &ToolSpec {
        &SPEC
    }

    fn run<'a>(&'a self, call: ToolCall<'a>) -> ToolFuture<'a> {
        Box::pin(async move {
            let text = args::required_str(NAME, &call, "text")?.to_string();
            let input_type = match args::choice(&SPEC, &call, "inputType")? {
                "document" => EmbedInputType::Document,
                _ => EmbedInputType::Query,
            };
            let dimensions = args::opt_count(&SPEC, &call, "dimensions")?.map(|d| d as u32);
            let asked = args::opt_string(&call, "model").or_else(|| {
                call.defaults
                    .get("model")
                    .and_then(Value::as_str)
                    .map(str::to_string)
            });
            let model = self
                .providers
                .settings
                .embedding_model(asked.as_deref(), call.defaults);
            let embedder = self
                .providers
                .embedder(NAME)
                .map_err(|e| provider_error(NAME, e))?;

            let response = embedder
                .embed(EmbedRequest {
                    texts: vec![text],
                    model,
                    input_type: Some(input_type),
                    dimensions,
                })
                .await
                .map_err(|e| provider_error(NAME, e))?;
            let mut served = Served::new(&self.providers.pricing);
            served.embed(embedder.name(), &response.model, response.usage);
            let vector = single_vector(NAME, embedder.name(), response.embeddings)?;
            let output = object([
                ("embedding", vector_to_json(&vector)),
                ("model", Value::String(response.model)),
                ("dimensions", Value::from(vector.len())),
            ]);
            Ok(served.output(with_requested_model(output, asked.as_deref())))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::retrieval::testing::{DIMS, Fakes, run};
    use serde_json::json;
    use vai_providers::{ProviderError, Settings};
    use vai_workflow::ToolError;

    #[tokio::test]
    async fn returns_the_vector_model_and_length() {
        let fakes = Fakes::new();
        let tool = Embed::new(fakes.providers());
        let out = run(
            &tool,
            json!({"text": "hello world"}),
            json!({"model": "voyage-4-lite"}),
        )
        .await
        .unwrap();
        let obj = out.output.as_object().unwrap();
        assert_eq!(
            obj.keys().collect::<Vec<_>>(),
            ["embedding", "model", "dimensions"]
        );
        assert_eq!(obj["model"], "voyage-4-lite");
        assert_eq!(obj["dimensions"], DIMS);
        assert_eq!(
            obj["embedding"],
            vector_to_json(&fakes.embedder.vector("hello world"))
        );
        let request = &fakes.embedder.requests()[0];
        assert_eq!(request.input_type, Some(EmbedInputType::Query));
        assert_eq!(request.dimensions, None);
        assert_eq!(out.usage.unwrap().embed_tokens, 2);
        assert_eq!(out.backend.as_deref(), Some("fake"));
    }

    #[tokio::test]
    async fn input_type_and_dimensions_are_passed_on() {
        let fakes = Fakes::new();
        let tool = Embed::new(fakes.providers());
        let out = run(
            &tool,
            json!({"text": "t", "inputType": "document", "dimensions": 8}),
            json!({}),
        )
        .await
        .unwrap();
        assert_eq!(out.output["dimensions"], 8);
        let request = &fakes.embedder.requests()[0];
        assert_eq!(
            (request.input_type, request.dimensions),
            (Some(EmbedInputType::Document), Some(8))
        );
        assert_eq!(request.model, "voyage-4-large");

        let err = run(
            &tool,
            json!({"text": "t", "inputType": "passage"}),
            json!({}),
        )
        .await
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "embed: input \"inputType\" must be one of query, document, got \"passage\""
        );
    }

    #[tokio::test]
    async fn not_configured_and_failures() {
        let tool = Embed::new(Arc::new(Providers::none(Settings::default())));
        let err = run(&tool, json!({"text": "t"}), json!({}))
            .await
            .unwrap_err();
        assert!(
            err.to_string()
                .starts_with("embed: no embedding provider is configured")
        );

        let fakes = Fakes::new();
        let tool = Embed::new(fakes.providers());
        fakes
            .embedder
            .fail_next(ProviderError::invalid_request("voyage", "unknown model"));
        let err = run(&tool, json!({"text": "t", "model": "nope"}), json!({}))
            .await
            .unwrap_err();
        assert!(matches!(err, ToolError::Failed(_)));
        assert_eq!(
            err.to_string(),
            "embed: voyage: invalid request: unknown model"
        );
    }
}
