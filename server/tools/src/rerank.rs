//! The `rerank` tool: reorder documents by relevance to a query with a reranking model.

use crate::args;
use crate::retrieval::provider_error;
use crate::served::Served;
use serde_json::{Map, Value};
use std::sync::{Arc, LazyLock};
use vai_providers::{Providers, RerankRequest};
use vai_workflow::input_schema::{InputSchema, JsonType, PropertySchema};
use vai_workflow::{ApiCalls, Category, Effects, Tool, ToolCall, ToolError, ToolFuture, ToolSpec};

const NAME: &str = "rerank";

/// Most documents one rerank call may score (Voyage AI's limit).
pub const MAX_DOCUMENTS: usize = 1000;

static SPEC: LazyLock<ToolSpec> = LazyLock::new(spec);

/// Scores documents against a query and returns them best first.
pub struct Rerank {
    providers: Arc<Providers>,
}

impl Rerank {
    pub fn new(providers: Arc<Providers>) -> Self {
        Rerank { providers }
    }
}

pub fn spec() -> ToolSpec {
    ToolSpec {
        name: NAME,
        label: "Rerank",
        category: Category::Retrieval,
        icon: "Sort",
        description: "Reorder documents by relevance to a query with a reranking model",
        help: "Scores every document in `documents` against `query` with the reranking model and returns them best first, each as the original object (a string becomes {text}) with `score` set to its relevance score. A document's text is its `text` field, then `content`, else its JSON. `topK` keeps only the best K (the reference ignored it). An empty `documents` array yields no results without calling the reranker, so a rerank after searches that found nothing just passes through.",
        input_schema: InputSchema::new()
            .required_input(
                "query",
                PropertySchema::of(JsonType::String)
                    .describe("What the documents should be relevant to"),
            )
            .required_input(
                "documents",
                PropertySchema::of(JsonType::Array)
                    .items(PropertySchema::one_of(&[JsonType::String, JsonType::Object]))
                    .max_items(MAX_DOCUMENTS as u64)
                    .describe("Strings or objects (text from `text`, then `content`), e.g. {{ merge.output.results }}"),
            )
            .input(
                "model",
                PropertySchema::of(JsonType::String)
                    .describe("Reranking model; defaults to defaults.rerankModel, then rerank-2.5"),
            )
            .input(
                "topK",
                PropertySchema::of(JsonType::Integer)
                    .min(1u64)
                    .describe("Keep only the best K documents; all by default"),
            ),
        outputs: &[
            (
                "results",
                "the documents, best first, each with score (relevance)",
            ),
            ("resultCount", "number of results"),
        ],
        deferred: &[],
        main_input: Some("query"),
        api_calls: ApiCalls {
            embed: 0,
            rerank: 1,
            vector_search: 0,
            llm: 0,
            http: 0,
        },
        effects: Effects::READS_REMOTE,
        optional_calls: &[],
        uses_store: false,
    }
}

impl Tool for Rerank {
    fn spec(&self) -> &ToolSpec {
        &SPEC
    }

    fn run<'a>(&'a self, call: ToolCall<'a>) -> ToolFuture<'a> {
        Box::pin(async move {
            let mut call = call;
            let query = args::required_str(NAME, &call, "query")?.to_string();
            let top_k = args::opt_count(&SPEC, &call, "topK")?.map(|k| k as usize);
            let model = self
                .providers
                .settings
                .rerank_model(args::opt_string(&call, "model").as_deref(), call.defaults);
            let documents = args::take_array(NAME, &mut call, "documents")?;
            if documents.is_empty() {
                return Ok(args::results_output(Vec::new()));
            }
            if documents.len() > MAX_DOCUMENTS {
                return Err(ToolError::invalid(
                    NAME,
                    "documents",
                    format!(
                        "holds {} documents; at most {MAX_DOCUMENTS} can be reranked at once",
                        documents.len()
                    ),
                ));
            }
            let reranker = self
                .providers
                .reranker(NAME)
                .map_err(|e| provider_error(NAME, e))?;

            let texts = documents.iter().map(args::document_text).collect();
            let reranked = reranker
                .rerank(RerankRequest {
                    query,
                    documents: texts,
                    model,
                    top_k,
                })
                .await
                .map_err(|e| provider_error(NAME, e))?;
            let mut served = Served::new(&self.providers.pricing);
            served.rerank(reranker.name(), &reranked.model, reranked.usage);

            let mut slots: Vec<Option<Value>> = documents.into_iter().map(Some).collect();
            let mut results = Vec::with_capacity(reranked.results.len());
            for scored in reranked
                .results
                .into_iter()
                .take(top_k.unwrap_or(usize::MAX))
            {
                let doc = slots
                    .get_mut(scored.index)
                    .and_then(Option::take)
                    .ok_or_else(|| {
                        ToolError::Failed(format!(
                            "{NAME}: {} returned an unknown or repeated document index {}",
                            reranker.name(),
                            scored.index
                        ))
                    })?;
                results.push(with_score(doc, scored.relevance_score));
            }
            Ok(served.output(args::results_output(results).output))
        })
    }
}

/// The document as an object (a string or other scalar becomes `{text}`) with `score` set.
fn with_score(doc: Value, score: f64) -> Value {
    let mut object = match doc {
        Value::Object(o) => o,
        other => {
            let mut o = Map::new();
            o.insert("text".into(), Value::String(args::document_text(&other)));
            o
        }
    };
    object.insert("score".into(), Value::from(score));
    Value::Object(object)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::retrieval::testing::{Fakes, run};
    use serde_json::json;
    use vai_providers::{ProviderError, Settings};

    #[tokio::test]
    async fn reorders_documents_keeping_objects_and_wrapping_strings() {
        let fakes = Fakes::new();
        let tool = Rerank::new(fakes.providers());
        let out = run(
            &tool,
            json!({
                "query": "vector index",
                "documents": [
                    "cooking pasta",
                    {"content": "build a vector index", "source": "b.md", "score": 0.2},
                    {"text": "an index", "metadata": {"n": 1}}
                ]
            }),
            json!({}),
        )
        .await
        .unwrap();
        assert_eq!(
            out.output,
            json!({
                "results": [
                    {"content": "build a vector index", "source": "b.md", "score": 1.0},
                    {"text": "an index", "metadata": {"n": 1}, "score": 0.5},
                    {"text": "cooking pasta", "score": 0.0}
                ],
                "resultCount": 3
            })
        );
        let request = &fakes.reranker.requests()[0];
        assert_eq!(
            request.documents,
            ["cooking pasta", "build a vector index", "an index"]
        );
        assert_eq!(request.model, "rerank-2.5");
        assert_eq!(out.backend.as_deref(), Some("fake"));
    }

    #[tokio::test]
    async fn top_k_is_honoured_and_model_falls_back_to_defaults() {
        let fakes = Fakes::new();
        let tool = Rerank::new(fakes.providers());
        let out = run(
            &tool,
            json!({"query": "b", "documents": ["a", "b", "c"], "topK": "1"}),
            json!({"rerankModel": "rerank-2.5-lite"}),
        )
        .await
        .unwrap();
        assert_eq!(
            out.output,
            json!({"results": [{"text": "b", "score": 1.0}], "resultCount": 1})
        );
        let request = &fakes.reranker.requests()[0];
        assert_eq!(
            (request.top_k, request.model.as_str()),
            (Some(1), "rerank-2.5-lite")
        );
    }

    #[tokio::test]
    async fn empty_documents_need_no_provider() {
        let tool = Rerank::new(Arc::new(Providers::none(Settings::default())));
        let out = run(&tool, json!({"query": "q", "documents": []}), json!({}))
            .await
            .unwrap();
        assert_eq!(out.output, json!({"results": [], "resultCount": 0}));
        let err = run(&tool, json!({"query": "q", "documents": ["a"]}), json!({}))
            .await
            .unwrap_err();
        assert!(matches!(err, ToolError::NotConfigured(_)));
        assert!(
            err.to_string()
                .starts_with("rerank: no rerank provider is configured")
        );
    }

    #[tokio::test]
    async fn inputs_and_failures_are_reported() {
        let fakes = Fakes::new();
        let tool = Rerank::new(fakes.providers());
        let err = run(&tool, json!({"query": "q", "documents": "a"}), json!({}))
            .await
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "rerank: input \"documents\" must be an array, got a string"
        );
        let err = run(
            &tool,
            json!({"query": "q", "documents": ["a"], "topK": 0}),
            json!({}),
        )
        .await
        .unwrap_err();
        assert!(err.to_string().contains("at least 1"));
        fakes.reranker.fail_next(ProviderError::Timeout {
            provider: "voyage".into(),
            after: std::time::Duration::from_secs(30),
        });
        let err = run(&tool, json!({"query": "q", "documents": ["a"]}), json!({}))
            .await
            .unwrap_err();
        assert!(err.is_transient());
        assert_eq!(err.to_string(), "rerank: voyage: timed out after 30000ms");
    }
}
