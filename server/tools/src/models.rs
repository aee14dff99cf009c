//! The `models` tool: list the current embedding and reranking models from the catalog.

use crate::args::{self, NO_API_CALLS};
use crate::catalog::{self, ModelKind};
use serde_json::{Value, json};
use std::sync::LazyLock;
use vai_workflow::input_schema::{InputSchema, JsonType, PropertySchema};
use vai_workflow::{Category, Effects, Tool, ToolCall, ToolFuture, ToolOutput, ToolSpec};

const NAME: &str = "models";

static SPEC: LazyLock<ToolSpec> = LazyLock::new(spec);

/// Lists models by category.
pub struct Models;

pub fn spec() -> ToolSpec {
    ToolSpec {
        name: NAME,
        label: "List models",
        category: Category::Management,
        icon: "ViewList",
        description: "List the available embedding and reranking models with dimensions and prices",
        help: "Returns the current (non-legacy) models of vai's catalog — Voyage AI's hosted models plus the local ones that run offline — with their type, output dimensions, list price and what each is best for. `category` narrows the list to `embedding`, `reranking` (or its alias `rerank`) or `multimodal`; the default `all` lists everything. Prices are list prices and may change.",
        input_schema: InputSchema::new().input(
            "category",
            PropertySchema::of(JsonType::String)
                .choices([
                    "all",
                    "embedding",
                    "reranking",
                    "rerank",
                    "multimodal",
                    "embedding-multimodal",
                ])
                .defaults_to("all")
                .describe("Which models to list"),
        ),
        outputs: &[
            ("models", "[{name, type, dimensions, price, bestFor}]"),
            ("category", "the category listed"),
        ],
        deferred: &[],
        main_input: Some("category"),
        api_calls: NO_API_CALLS,
        // vai's built-in model catalog; nothing is fetched.
        effects: Effects::PURE,
        optional_calls: &[],
        uses_store: false,
    }
}

impl Tool for Models {
    fn spec(&self) -> &ToolSpec {
        &SPEC
    }

    fn run<'a>(&'a self, call: ToolCall<'a>) -> ToolFuture<'a> {
        Box::pin(async move {
            let category = args::choice(&SPEC, &call, "category")?;
            let category = match category {
                "rerank" => "reranking",
                "embedding-multimodal" => "multimodal",
                other => other,
            };
            Ok(ToolOutput::new(
                json!({"models": list(category), "category": category}),
            ))
        })
    }
}

/// The catalog entries of a category, as the tool outputs them.
pub fn list(category: &str) -> Vec<Value> {
    catalog::current()
        .filter(|m| match category {
            "embedding" => m.kind == ModelKind::Embedding,
            "reranking" => m.kind == ModelKind::Reranking,
            "multimodal" => m.kind == ModelKind::EmbeddingMultimodal,
            _ => true,
        })
        .map(|m| {
            json!({
                "name": m.name,
                "type": m.kind.as_str(),
                "dimensions": if m.dimensions.is_empty() { "N/A" } else { m.dimensions },
                "price": m.price(),
                "bestFor": m.best_for,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use vai_workflow::{Context, ToolError};

    async fn run(inputs: Value) -> Result<Value, ToolError> {
        let scope = Context::new();
        let defaults = json!({});
        let call =
            ToolCall::standalone("m", inputs.as_object().unwrap().clone(), &defaults, &scope);
        Models.run(call).await.map(|o| o.output)
    }

    fn names(out: &Value) -> Vec<&str> {
        out["models"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["name"].as_str().unwrap())
            .collect()
    }

    #[tokio::test]
    async fn lists_current_models_with_reference_fields() {
        let out = run(json!({})).await.unwrap();
        assert_eq!(out["category"], "all");
        let all = names(&out);
        assert!(
            all.contains(&"voyage-4-large")
                && all.contains(&"rerank-2.5")
                && all.contains(&"voyage-4-nano")
        );
        assert!(!all.contains(&"voyage-3"), "legacy models are hidden");
        let first = &out["models"][0];
        let keys: Vec<&String> = first.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["name", "type", "dimensions", "price", "bestFor"]);
    }

    #[tokio::test]
    async fn filters_by_category_and_accepts_rerank() {
        let out = run(json!({"category": "rerank"})).await.unwrap();
        assert_eq!(out["category"], "reranking");
        assert_eq!(names(&out), ["rerank-2.5", "rerank-2.5-lite"]);
        let out = run(json!({"category": "Embedding"})).await.unwrap();
        assert!(
            out["models"]
                .as_array()
                .unwrap()
                .iter()
                .all(|m| m["type"] == "embedding")
        );
        assert!(names(&out).contains(&"all-minilm-l6-v2"));
        let out = run(json!({"category": "multimodal"})).await.unwrap();
        assert_eq!(names(&out), ["voyage-multimodal-3.5"]);
    }

    #[tokio::test]
    async fn unknown_category_is_an_error() {
        let err = run(json!({"category": "llm"})).await.unwrap_err();
        assert!(err.to_string().contains("must be one of"), "{err}");
    }
}
