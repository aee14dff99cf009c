//! The `query` tool: embed a question, vector-search a collection, rerank the hits (the pipeline
//! itself lives in `retrieval`, shared with `search`).

use crate::retrieval::{retrieval_schema, retrieve};
use std::sync::{Arc, LazyLock};
use vai_providers::Providers;
use vai_workflow::{ApiCalls, Category, Effects, Tool, ToolCall, ToolFuture, ToolSpec};

pub use crate::retrieval::{MAX_CANDIDATES, MAX_LIMIT};

const NAME: &str = "query";

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
        effects: Effects::READS_REMOTE,
        optional_calls: &[(
            "rerank",
            ApiCalls {
                rerank: 1,
                ..ApiCalls::NONE
            },
        )],
        uses_store: true,
    }
}

impl Tool for Query {
    fn spec(&self) -> &ToolSpec {
        &SPEC
    }

    fn run<'a>(&'a self, call: ToolCall<'a>) -> ToolFuture<'a> {
        Box::pin(retrieve(&SPEC, &self.providers, call, true))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::retrieval::testing::{Fakes, run};
    use serde_json::{Value, json};
    use std::time::Duration;
    use vai_providers::{EmbedInputType, ProviderError, Settings};
    use vai_workflow::ToolError;

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
        assert_eq!(embed.input_type, Some(EmbedInputType::Query));
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
        assert_eq!(
            spec.input_schema.default_of("limit"),
            Some(&serde_json::json!(10))
        );
        assert_eq!(
            spec.input_schema.default_of("rerank"),
            Some(&serde_json::json!(true))
        );
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
