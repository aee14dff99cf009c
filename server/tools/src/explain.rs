//! The `explain` tool: short plain-text explanations of RAG concepts and of vai itself, shared
//! with `vai explain` and the playground's inspector. The texts live in `explain/*.txt` and the
//! notes on what each kind of step does in `explain/steps.rs`; this module holds the topic table
//! and the lookups.

mod steps;

pub use steps::StepNote;

use crate::args::{self, NO_API_CALLS};
use serde_json::{Value, json};
use std::sync::LazyLock;
use vai_workflow::input_schema::{InputSchema, JsonType, PropertySchema};
use vai_workflow::{Category, Effects, Tool, ToolCall, ToolFuture, ToolOutput, ToolSpec};

const NAME: &str = "explain";

/// One explanation.
#[derive(Debug)]
pub struct Topic {
    /// Canonical key ("vector-search").
    pub key: &'static str,
    /// Display title, returned as the output's `topic`.
    pub title: &'static str,
    /// Other names people use for it, lower-case.
    pub aliases: &'static [&'static str],
    pub text: &'static str,
    pub links: &'static [&'static str],
    /// What a step of each tool this topic is about does in a pipeline ("What is happening
    /// here" in the playground's inspector).
    pub steps: &'static [StepNote],
}

const VOYAGE_EMBEDDINGS: &str = "https://docs.voyageai.com/docs/embeddings";
const VOYAGE_RERANKER: &str = "https://docs.voyageai.com/docs/reranker";
const VOYAGE_PRICING: &str = "https://docs.voyageai.com/docs/pricing";
const VOYAGE_TOKENS: &str = "https://docs.voyageai.com/docs/tokenization";
const ATLAS_VECTOR_SEARCH: &str =
    "https://www.mongodb.com/docs/atlas/atlas-vector-search/vector-search-overview/";
const ATLAS_VECTOR_STAGE: &str =
    "https://www.mongodb.com/docs/atlas/atlas-vector-search/vector-search-stage/";
const ATLAS_RAG: &str = "https://www.mongodb.com/docs/atlas/atlas-vector-search/rag/";

/// Every topic, in the order they are listed.
pub static TOPICS: &[Topic] = &[
    Topic {
        key: "embeddings",
        title: "Embeddings",
        aliases: &["embedding", "embed", "vectors", "vector embeddings"],
        text: include_str!("explain/embeddings.txt"),
        links: &[VOYAGE_EMBEDDINGS, ATLAS_VECTOR_SEARCH],
        steps: steps::EMBEDDINGS,
    },
    Topic {
        key: "reranking",
        title: "Reranking",
        aliases: &["rerank", "reranker", "rerankers", "cross-encoder"],
        text: include_str!("explain/reranking.txt"),
        links: &[VOYAGE_RERANKER],
        steps: steps::RERANKING,
    },
    Topic {
        key: "vector-search",
        title: "Vector search",
        aliases: &[
            "vector search",
            "vectorsearch",
            "semantic search",
            "ann",
            "knn",
            "$vectorsearch",
        ],
        text: include_str!("explain/vector-search.txt"),
        links: &[ATLAS_VECTOR_SEARCH, ATLAS_VECTOR_STAGE],
        steps: steps::VECTOR_SEARCH,
    },
    Topic {
        key: "rag",
        title: "Retrieval-augmented generation (RAG)",
        aliases: &[
            "retrieval augmented generation",
            "retrieval-augmented generation",
            "retrieval",
        ],
        text: include_str!("explain/rag.txt"),
        links: &[ATLAS_RAG, VOYAGE_EMBEDDINGS, VOYAGE_RERANKER],
        steps: steps::RAG,
    },
    Topic {
        key: "chunking",
        title: "Chunking",
        aliases: &["chunk", "chunks", "splitting", "chunk size", "overlap"],
        text: include_str!("explain/chunking.txt"),
        links: &[VOYAGE_TOKENS, ATLAS_RAG],
        steps: steps::CHUNKING,
    },
    Topic {
        key: "workflows",
        title: "Workflows",
        aliases: &["workflow", "pipeline", "pipelines", "steps", "dag"],
        text: include_str!("explain/workflows.txt"),
        links: &[ATLAS_RAG],
        steps: steps::WORKFLOWS,
    },
    Topic {
        key: "cost",
        title: "Cost and pricing",
        aliases: &[
            "pricing", "price", "prices", "costs", "tokens", "billing", "estimate",
        ],
        text: include_str!("explain/cost.txt"),
        links: &[VOYAGE_PRICING, VOYAGE_TOKENS],
        steps: steps::COST,
    },
    Topic {
        key: "input-type",
        title: "Input type (query vs document)",
        aliases: &["input type", "inputtype", "input_type", "query vs document"],
        text: include_str!("explain/input-type.txt"),
        links: &[VOYAGE_EMBEDDINGS],
        steps: &[],
    },
    Topic {
        key: "models",
        title: "Models",
        aliases: &["model", "voyage models", "which model"],
        text: include_str!("explain/models.txt"),
        links: &[VOYAGE_EMBEDDINGS, VOYAGE_RERANKER, VOYAGE_PRICING],
        steps: steps::MODELS,
    },
    Topic {
        key: "similarity",
        title: "Similarity",
        aliases: &["cosine", "cosine similarity", "dot product", "distance"],
        text: include_str!("explain/similarity.txt"),
        links: &[VOYAGE_EMBEDDINGS, ATLAS_VECTOR_SEARCH],
        steps: steps::SIMILARITY,
    },
    Topic {
        key: "templates",
        title: "Templates and expressions",
        aliases: &[
            "template",
            "expressions",
            "expression",
            "conditions",
            "condition",
            "{{ }}",
        ],
        text: include_str!("explain/templates.txt"),
        links: &[],
        steps: steps::TEMPLATES,
    },
];

/// Lower-case, trimmed, with `_` and runs of whitespace read as single spaces.
fn normalise(s: &str) -> String {
    s.trim()
        .to_lowercase()
        .replace('_', " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The topic a query names: by key or alias (ignoring case, and `-` versus space), then by a
/// key or alias contained in the query ("what is reranking?"), then by a tool whose step note
/// the topic holds ("merge"), then by the query contained in a key or title, then in an alias
/// ("vector").
pub fn find(query: &str) -> Option<&'static Topic> {
    let q = normalise(query);
    if q.is_empty() {
        return None;
    }
    let dashless = q.replace('-', " ");
    let names = |t: &'static Topic| {
        std::iter::once(t.key)
            .chain(t.aliases.iter().copied())
            .map(|n| n.replace('-', " "))
    };
    let exact = TOPICS.iter().find(|t| names(t).any(|n| n == dashless));
    let within = || {
        // Prefer the longest name found in the query, so "vector search cost" finds the topic
        // with the more specific name.
        TOPICS
            .iter()
            .flat_map(|t| names(t).map(move |n| (t, n)))
            .filter(|(_, n)| n.len() >= 3 && contains_word(&dashless, n))
            .max_by_key(|(_, n)| n.len())
            .map(|(t, _)| t)
    };
    let containing = || {
        (dashless.len() >= 3)
            .then(|| {
                TOPICS
                    .iter()
                    .find(|t| {
                        t.key.replace('-', " ").contains(&dashless)
                            || t.title.to_lowercase().contains(&dashless)
                    })
                    .or_else(|| {
                        TOPICS
                            .iter()
                            .find(|t| names(t).any(|n| n.contains(&dashless)))
                    })
            })
            .flatten()
    };
    let tool = || step_note(&dashless).map(|(t, _)| t);
    exact.or_else(within).or_else(tool).or_else(containing)
}

/// The note on what a step of `tool` is doing, with the topic it belongs to.
pub fn step_note(tool: &str) -> Option<(&'static Topic, &'static StepNote)> {
    TOPICS
        .iter()
        .find_map(|t| t.steps.iter().find(|n| n.tool == tool).map(|n| (t, n)))
}

/// The explain tool's output for `query`: the topic it names, or `found: false` and the list.
pub fn lookup(query: &str) -> Value {
    match find(query) {
        Some(t) => {
            json!({"found": true, "topic": t.title, "text": t.text.trim(), "links": t.links})
        }
        None => json!({
            "found": false,
            "topic": query,
            "text": format!("No explanation for \"{query}\"; available topics: {}", keys().join(", ")),
        }),
    }
}

/// Every topic's key, in order.
pub fn keys() -> Vec<&'static str> {
    TOPICS.iter().map(|t| t.key).collect()
}

/// True when `needle` occurs in `hay` as whole words.
fn contains_word(hay: &str, needle: &str) -> bool {
    hay.match_indices(needle).any(|(at, _)| {
        let before = hay[..at].chars().next_back();
        let after = hay[at + needle.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

static SPEC: LazyLock<ToolSpec> = LazyLock::new(spec);

/// Explains a RAG or vai concept.
pub struct Explain;

pub fn spec() -> ToolSpec {
    ToolSpec {
        name: NAME,
        label: "Explain",
        category: Category::Utility,
        icon: "School",
        description: "Explain a retrieval concept: embeddings, reranking, vector search, RAG, chunking and more",
        help: "Returns a short plain-text explanation of a topic, with links to further reading. Topics: embeddings, reranking, vector-search, rag, chunking, workflows, cost, input-type, models, similarity and templates. Matching ignores case and accepts common aliases (\"rerank\", \"pricing\", \"vector search\"), a phrase that contains a topic name, or the name of a step's tool (\"merge\"). An unknown topic is not an error: the output has found: false and lists the available topics. `vai explain [topic]` prints the same texts in a terminal, with what each kind of step does; the playground's inspector shows the latter for the selected step.",
        input_schema: InputSchema::new().required_input(
            "topic",
            PropertySchema::of(JsonType::String)
                .describe("What to explain")
                .examples(keys()),
        ),
        outputs: &[
            ("found", "whether a topic matched"),
            (
                "topic",
                "the topic's title (or the query when none matched)",
            ),
            ("text", "the explanation, plain text"),
            ("links", "URLs for further reading"),
        ],
        deferred: &[],
        main_input: Some("topic"),
        api_calls: NO_API_CALLS,
        // Texts compiled into vai; the links are returned, not fetched.
        effects: Effects::PURE,
        optional_calls: &[],
        uses_store: false,
    }
}

impl Tool for Explain {
    fn spec(&self) -> &ToolSpec {
        &SPEC
    }

    fn run<'a>(&'a self, call: ToolCall<'a>) -> ToolFuture<'a> {
        Box::pin(async move {
            let query = args::required_str(NAME, &call, "topic")?;
            let output = lookup(query);
            Ok(ToolOutput::new(output))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;
    use vai_workflow::{Context, ToolError};

    async fn run(inputs: Value) -> Result<Value, ToolError> {
        let scope = Context::new();
        let defaults = json!({});
        let call =
            ToolCall::standalone("x", inputs.as_object().unwrap().clone(), &defaults, &scope);
        Explain.run(call).await.map(|o| o.output)
    }

    fn key(query: &str) -> Option<&'static str> {
        find(query).map(|t| t.key)
    }

    #[test]
    fn texts_are_plain_and_substantial() {
        for t in TOPICS {
            let words = t.text.split_whitespace().count();
            assert!((150..=300).contains(&words), "{}: {words} words", t.key);
            assert!(!t.text.contains('\u{1b}'), "{} has an escape code", t.key);
            assert!(
                t.links.iter().all(|l| l.starts_with("https://")),
                "{}",
                t.key
            );
        }
    }

    #[test]
    fn lookups_accept_aliases_case_and_phrases() {
        assert_eq!(key("Embeddings"), Some("embeddings"));
        assert_eq!(key("embedding"), Some("embeddings"));
        assert_eq!(key("rerank"), Some("reranking"));
        assert_eq!(key("vector search"), Some("vector-search"));
        assert_eq!(key("Vector_Search"), Some("vector-search"));
        assert_eq!(key("retrieval augmented generation"), Some("rag"));
        assert_eq!(key("pricing"), Some("cost"));
        assert_eq!(key("input-type"), Some("input-type"));
        assert_eq!(key("inputType"), Some("input-type"));
        assert_eq!(key("models"), Some("models"));
        assert_eq!(key("similarity"), Some("similarity"));
        assert_eq!(key("templates"), Some("templates"));
        assert_eq!(key("what is reranking?"), Some("reranking"));
        assert_eq!(key("how does semantic search work"), Some("vector-search"));
        assert_eq!(key("vector"), Some("vector-search"));
        assert_eq!(key("merge"), Some("rag"));
        assert_eq!(key("Query"), Some("vector-search"));
        assert_eq!(key("input type query"), Some("input-type"));
        assert_eq!(key("quantum physics"), None);
        assert_eq!(key("a"), None);
    }

    #[tokio::test]
    async fn found_topics_have_title_text_and_links() {
        let out = run(json!({"topic": "RAG"})).await.unwrap();
        assert_eq!(out["found"], true);
        assert_eq!(out["topic"], "Retrieval-augmented generation (RAG)");
        assert!(
            out["text"]
                .as_str()
                .unwrap()
                .starts_with("Retrieval-augmented generation")
        );
        assert!(!out["links"].as_array().unwrap().is_empty());
    }

    #[tokio::test]
    async fn unknown_topics_list_the_available_ones() {
        let out = run(json!({"topic": "blockchain"})).await.unwrap();
        assert_eq!(out["found"], false);
        assert_eq!(out["topic"], "blockchain");
        let text = out["text"].as_str().unwrap();
        assert!(
            text.starts_with("No explanation for \"blockchain\"")
                && text.contains("embeddings, reranking"),
            "{text}"
        );
        let err = run(json!({})).await.unwrap_err();
        assert!(err.to_string().contains("\"topic\" is required"), "{err}");
    }
}
