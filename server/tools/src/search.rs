//! The `search` tool: vector search without reranking (the `query` pipeline minus its rerank).

use crate::retrieval::{retrieval_schema, retrieve};
use std::sync::{Arc, LazyLock};
use vai_providers::Providers;
use vai_workflow::{ApiCalls, Category, Effects, Tool, ToolCall, ToolFuture, ToolSpec};

const NAME: &str = "search";

static SPEC: LazyLock<ToolSpec> = LazyLock::new(spec);

/// Embeds the query and returns the nearest documents by vector score.
pub struct Search {
    providers: Arc<Providers>,
}

impl Search {
    pub fn new(providers: Arc<Providers>) -> Self {
        Search { providers }
    }
}

pub fn spec() -> ToolSpec {
    ToolSpec {
        name: NAME,
        label: "Vector search",
        category: Category::Retrieval,
        icon: "Search",
        description: "Vector search: embed the query and return the nearest documents, no reranking",
        help: "Embeds `query` (input type \"query\") and returns the `limit` nearest documents of the collection's vector index, each with its stored fields and `score`, the vector search score. It never reranks — use `query`, or a `rerank` step after merging several searches, for relevance scores. `filter` is a MongoDB-style pre-filter on stored fields, applied before ranking. The database and collection come from the step, then the workflow defaults, .vai.json, VAI_DEFAULT_DB / VAI_DEFAULT_COLLECTION and the user config.",
        input_schema: retrieval_schema(false),
        outputs: &[
            (
                "results",
                "nearest documents, best first: _id, text/content, source, metadata, score (vector score)",
            ),
            ("resultCount", "number of results"),
        ],
        deferred: &[],
        main_input: Some("query"),
        api_calls: ApiCalls {
            embed: 1,
            rerank: 0,
            vector_search: 1,
            llm: 0,
            http: 0,
        },
        effects: Effects::READS_REMOTE,
        optional_calls: &[],
        uses_store: true,
    }
}

impl Tool for Search {
    fn spec(&self) -> &ToolSpec {
        &SPEC
    }

    fn run<'a>(&'a self, call: ToolCall<'a>) -> ToolFuture<'a> {
        Box::pin(retrieve(&SPEC, &self.providers, call, false))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::retrieval::testing::{Fakes, run};
    use serde_json::json;

    #[tokio::test]
    async fn returns_vector_scores_and_never_reranks() {
        let fakes = Fakes::new();
        fakes
            .seed(
                "kb",
                "docs",
                json!([
                    {"text": "alpha beta", "source": "a"},
                    {"text": "gamma delta", "source": "g"}
                ]),
            )
            .await;
        let tool = Search::new(fakes.providers());
        let out = run(
            &tool,
            json!({"query": "gamma delta", "rerank": true, "limit": 1}),
            json!({"db": "kb", "collection": "docs"}),
        )
        .await
        .unwrap();
        assert_eq!(out.output["resultCount"], 1);
        let hit = out.output["results"][0].as_object().unwrap();
        assert_eq!(
            hit.keys().collect::<Vec<_>>(),
            ["_id", "text", "source", "score"]
        );
        assert_eq!(hit["source"], "g");
        assert!((hit["score"].as_f64().unwrap() - 1.0).abs() < 1e-6);
        assert!(fakes.reranker.requests().is_empty());
        assert_eq!(out.usage.unwrap().requests, 2);
    }

    #[tokio::test]
    async fn needs_no_reranker() {
        let fakes = Fakes::new();
        let providers = Providers::none(Default::default())
            .with_embedder(fakes.embedder.clone())
            .with_store(fakes.store.clone());
        let tool = Search::new(Arc::new(providers));
        let out = run(
            &tool,
            json!({"query": "q", "db": "kb", "collection": "none"}),
            json!({}),
        )
        .await
        .unwrap();
        assert_eq!(out.output["resultCount"], 0);
    }

    #[test]
    fn schema_has_no_rerank_inputs() {
        let spec = spec();
        assert!(spec.input_schema.property("rerank").is_none());
        assert_eq!(spec.required_inputs(), ["query"]);
    }
}
