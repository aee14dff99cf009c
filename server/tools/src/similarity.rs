//! The `similarity` tool: cosine similarity of two texts' embeddings.

use crate::args;
use crate::retrieval::{object, provider_error, with_requested_model};
use crate::served::Served;
use serde_json::Value;
use std::sync::{Arc, LazyLock};
use vai_providers::{EmbedInputType, EmbedRequest, Providers, cosine_similarity};
use vai_workflow::input_schema::{InputSchema, JsonType, PropertySchema};
use vai_workflow::{ApiCalls, Category, Effects, Tool, ToolCall, ToolError, ToolFuture, ToolSpec};

const NAME: &str = "similarity";

static SPEC: LazyLock<ToolSpec> = LazyLock::new(spec);

/// Embeds two texts in one request and compares them.
pub struct Similarity {
    providers: Arc<Providers>,
}

impl Similarity {
    pub fn new(providers: Arc<Providers>) -> Self {
        Similarity { providers }
    }
}

pub fn spec() -> ToolSpec {
    ToolSpec {
        name: NAME,
        label: "Similarity",
        category: Category::Embedding,
        icon: "CompareArrows",
        description: "How similar two texts are: cosine similarity of their embeddings",
        help: "Embeds `text1` and `text2` as documents in a single embedding request and returns the cosine similarity of the two vectors, from -1 to 1 (in practice mostly 0 to 1; near 1 means the texts say nearly the same thing). Use it to detect duplicates before ingesting or to check that an answer stays close to its sources.",
        input_schema: InputSchema::new()
            .required_input(
                "text1",
                PropertySchema::of(JsonType::String).describe("First text"),
            )
            .required_input(
                "text2",
                PropertySchema::of(JsonType::String).describe("Second text"),
            )
            .input(
                "model",
                PropertySchema::of(JsonType::String)
                    .describe("Embedding model; defaults to defaults.model, then voyage-4-large"),
            ),
        outputs: &[
            (
                "similarity",
                "cosine similarity of the two embeddings, -1 to 1",
            ),
            ("model", "the embedding model used"),
            (
                "requestedModel",
                "the model the step named, when another one served it (offline: the local model)",
            ),
        ],
        deferred: &[],
        main_input: Some("text1"),
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

impl Tool for Similarity {
    fn spec(&self) -> &ToolSpec {
        &SPEC
    }

    fn run<'a>(&'a self, call: ToolCall<'a>) -> ToolFuture<'a> {
        Box::pin(async move {
            let text1 = args::required_str(NAME, &call, "text1")?.to_string();
            let text2 = args::required_str(NAME, &call, "text2")?.to_string();
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
                    texts: vec![text1, text2],
                    model,
                    input_type: Some(EmbedInputType::Document),
                    dimensions: None,
                })
                .await
                .map_err(|e| provider_error(NAME, e))?;
            let mut served = Served::new(&self.providers.pricing);
            served.embed(embedder.name(), &response.model, response.usage);
            let [a, b] = <[Vec<f32>; 2]>::try_from(response.embeddings).map_err(|all| {
                ToolError::Failed(format!(
                    "{NAME}: {} returned {} embeddings for 2 texts",
                    embedder.name(),
                    all.len()
                ))
            })?;
            let output = object([
                ("similarity", Value::from(cosine_similarity(&a, &b))),
                ("model", Value::String(response.model)),
            ]);
            Ok(served.output(with_requested_model(output, asked.as_deref())))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::retrieval::testing::{Fakes, run};
    use serde_json::json;

    #[tokio::test]
    async fn embeds_both_texts_as_documents_in_one_request() {
        let fakes = Fakes::new();
        let tool = Similarity::new(fakes.providers());
        let same = run(
            &tool,
            json!({"text1": "The cat sat", "text2": "the cat SAT"}),
            json!({}),
        )
        .await
        .unwrap();
        assert_eq!(
            same.output.as_object().unwrap().keys().collect::<Vec<_>>(),
            ["similarity", "model"]
        );
        assert!((same.output["similarity"].as_f64().unwrap() - 1.0).abs() < 1e-6);
        assert_eq!(same.output["model"], "voyage-4-large");

        let different = run(
            &tool,
            json!({"text1": "cat", "text2": "stock market"}),
            json!({}),
        )
        .await
        .unwrap();
        assert!(different.output["similarity"].as_f64().unwrap() < 0.5);

        let requests = fakes.embedder.requests();
        assert_eq!(requests.len(), 2);
        assert_eq!(requests[0].texts, ["The cat sat", "the cat SAT"]);
        assert_eq!(requests[0].input_type, Some(EmbedInputType::Document));
        assert_eq!(same.usage.unwrap().requests, 1);
    }

    #[test]
    fn a_model_other_than_the_one_named_is_said() {
        let served = |model: &str| json!({"similarity": 0.5, "model": model});
        assert_eq!(
            with_requested_model(served("all-minilm-l6-v2"), Some("voyage-4")),
            json!({"similarity": 0.5, "model": "all-minilm-l6-v2", "requestedModel": "voyage-4"})
        );
        assert_eq!(
            with_requested_model(served("voyage-4"), Some("voyage-4")),
            served("voyage-4")
        );
        assert_eq!(
            with_requested_model(served("all-minilm-l6-v2"), None),
            served("all-minilm-l6-v2")
        );
    }

    #[tokio::test]
    async fn both_texts_are_required() {
        let fakes = Fakes::new();
        let tool = Similarity::new(fakes.providers());
        let err = run(&tool, json!({"text1": "a"}), json!({}))
            .await
            .unwrap_err();
        assert_eq!(err.to_string(), "similarity: input \"text2\" is required");
    }
}
