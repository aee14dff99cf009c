//! The `estimate` tool: what embedding a corpus and serving queries with a model would cost.

use crate::args::{self, NO_API_CALLS};
use crate::catalog;
use serde_json::json;
use std::sync::LazyLock;
use vai_workflow::input_schema::{InputSchema, JsonType, PropertySchema};
use vai_workflow::{
    Category, Effects, Tool, ToolCall, ToolError, ToolFuture, ToolOutput, ToolSpec,
};

const NAME: &str = "estimate";

/// Tokens assumed per document and per query (the reference's assumptions).
pub const TOKENS_PER_DOC: f64 = 500.0;
pub const TOKENS_PER_QUERY: f64 = 50.0;

const DEFAULT_MODEL: &str = "voyage-4-large";

static SPEC: LazyLock<ToolSpec> = LazyLock::new(spec);

/// Estimates embedding and query costs.
pub struct Estimate;

pub fn spec() -> ToolSpec {
    ToolSpec {
        name: NAME,
        label: "Estimate cost",
        category: Category::Utility,
        icon: "Calculate",
        description: "Estimate the cost of embedding documents and serving queries with a model",
        help: "Prices a corpus of `docs` documents embedded once, plus `queries` queries a month for `months` months, at the model's list price. It assumes 500 tokens per document and 50 per query — measure your own data for a firmer figure. Costs are in US dollars, rounded to 4 decimals; `totalCost` is the embedding cost plus the monthly query cost times the months. Local models cost nothing; an unknown model is an error that lists the known ones.",
        input_schema: InputSchema::new()
            .input("docs", count(1000, "Number of documents to embed"))
            .input("queries", count(0, "Queries per month"))
            .input(
                "months",
                count(12, "Months of queries to include").max(1200u64),
            )
            .input(
                "model",
                PropertySchema::of(JsonType::String)
                    .defaults_to(DEFAULT_MODEL)
                    .describe("Embedding model to price"),
            ),
        outputs: &[
            ("model", "the model priced"),
            ("docs", "number of documents"),
            (
                "embeddingCost",
                "one-off cost of embedding the documents, USD",
            ),
            ("queriesPerMonth", "queries per month"),
            ("monthlyQueryCost", "cost of a month of queries, USD"),
            ("totalCost", "embedding plus all months of queries, USD"),
            ("months", "months included"),
        ],
        deferred: &[],
        main_input: Some("model"),
        api_calls: NO_API_CALLS,
        // Arithmetic on the built-in price list.
        effects: Effects::PURE,
        optional_calls: &[],
        uses_store: false,
    }
}

/// A count of things, at most a trillion.
fn count(default: u64, description: &str) -> PropertySchema {
    PropertySchema::of(JsonType::Integer)
        .min(0u64)
        .max(1_000_000_000_000u64)
        .defaults_to(default)
        .describe(description)
}

impl Tool for Estimate {
    fn spec(&self) -> &ToolSpec {
        &SPEC
    }

    fn run<'a>(&'a self, call: ToolCall<'a>) -> ToolFuture<'a> {
        Box::pin(async move {
            let docs = args::count(&SPEC, &call, "docs")?;
            let queries = args::count(&SPEC, &call, "queries")?;
            let months = args::count(&SPEC, &call, "months")?;
            let name = args::text(&SPEC, &call, "model")?;
            let model = catalog::find(&name)
                .filter(|m| m.kind.embeds())
                .ok_or_else(|| {
                    ToolError::invalid(
                        NAME,
                        "model",
                        format!(
                            "is not a known embedding model: \"{name}\" (known: {})",
                            catalog::embedding_model_names().join(", ")
                        ),
                    )
                })?;
            let price = model.price_per_m_tokens().ok_or_else(|| {
                ToolError::Failed(format!("{NAME}: no price is known for {}", model.name))
            })? / 1_000_000.0;
            let embedding = docs as f64 * TOKENS_PER_DOC * price;
            let monthly = queries as f64 * TOKENS_PER_QUERY * price;
            let total = embedding + monthly * months as f64;
            Ok(ToolOutput::new(json!({
                "model": model.name,
                "docs": docs,
                "embeddingCost": args::rounded(embedding, 4),
                "queriesPerMonth": queries,
                "monthlyQueryCost": args::rounded(monthly, 4),
                "totalCost": args::rounded(total, 4),
                "months": months,
            })))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;
    use vai_workflow::Context;

    async fn run(inputs: Value) -> Result<Value, ToolError> {
        let scope = Context::new();
        let defaults = json!({});
        let call =
            ToolCall::standalone("e", inputs.as_object().unwrap().clone(), &defaults, &scope);
        Estimate.run(call).await.map(|o| o.output)
    }

    #[tokio::test]
    async fn defaults_price_a_thousand_docs_with_voyage_4_large() {
        let out = run(json!({})).await.unwrap();
        // 1000 docs × 500 tokens = 0.5M tokens × $0.12.
        assert_eq!(
            out,
            json!({"model": "voyage-4-large", "docs": 1000, "embeddingCost": 0.06, "queriesPerMonth": 0,
                   "monthlyQueryCost": 0, "totalCost": 0.06, "months": 12})
        );
    }

    #[tokio::test]
    async fn queries_accumulate_over_months_and_round_to_four_places() {
        let out =
            run(json!({"docs": "100000", "queries": 12345, "months": 6, "model": "voyage-4-lite"}))
                .await
                .unwrap();
        // 100000 × 500 × 0.02/1M = 1.0; 12345 × 50 × 0.02/1M = 0.012345 → 0.0123.
        assert_eq!(out["embeddingCost"], 1);
        assert_eq!(out["monthlyQueryCost"], 0.0123);
        assert_eq!(out["totalCost"], 1.0741);
        assert_eq!(out["queriesPerMonth"], 12345);
    }

    #[tokio::test]
    async fn local_models_are_free() {
        let out = run(json!({"model": "voyage-4-nano", "queries": 1000}))
            .await
            .unwrap();
        assert_eq!(out["totalCost"], 0);
    }

    #[tokio::test]
    async fn unknown_or_reranking_models_are_invalid() {
        for model in ["gpt-5", "rerank-2.5"] {
            let err = run(json!({"model": model})).await.unwrap_err();
            let msg = err.to_string();
            assert!(
                msg.contains("\"model\"") && msg.contains("voyage-4-large"),
                "{msg}"
            );
        }
        let err = run(json!({"docs": -1})).await.unwrap_err();
        assert!(err.to_string().contains("\"docs\""), "{err}");
    }
}
