//! The `explain` tool: short plain-text explanations of RAG concepts and of vai itself. The texts
//! live in `explain/*.txt`; this module holds the topic table and the fuzzy lookup.

use crate::args::{self, NO_API_CALLS};
use serde_json::json;
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
    },
    Topic {
        key: "reranking",
        title: "Reranking",
        aliases: &["rerank", "reranker", "rerankers", "cross-encoder"],
        text: include_str!("explain/reranking.txt"),
        links: &[VOYAGE_RERANKER],
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
    },
    Topic {
        key: "chunking",
        title: "Chunking",
        aliases: &["chunk", "chunks", "splitting", "chunk size", "overlap"],
        text: include_str!("explain/chunking.txt"),
        links: &[VOYAGE_TOKENS, ATLAS_RAG],
    },
    Topic {
        key: "workflows",
        title: "Workflows",
        aliases: &["workflow", "pipeline", "pipelines", "steps", "dag"],
        text: include_str!("explain/workflows.txt"),
        links: &[ATLAS_RAG],
    },
    Topic {
        key: "cost",
        title: "Cost and pricing",
        aliases: &[
            "pricing", "price", "prices", "costs", "tokens", "billing", "estimate",
        ],
        text: include_str!("explain/cost.txt"),
        links: &[VOYAGE_PRICING, VOYAGE_TOKENS],
    },
    Topic {
        key: "input-type",
        title: "Input type (query vs document)",
        aliases: &["input type", "inputtype", "input_type", "query vs document"],
        text: include_str!("explain/input-type.txt"),
        links: &[VOYAGE_EMBEDDINGS],
    },
    Topic {
        key: "models",
        title: "Models",
        aliases: &["model", "voyage models", "which model"],
        text: include_str!("explain/models.txt"),
        links: &[VOYAGE_EMBEDDINGS, VOYAGE_RERANKER, VOYAGE_PRICING],
    },
    Topic {
        key: "similarity",
        title: "Similarity",
        aliases: &["cosine", "cosine similarity", "dot product", "distance"],
        text: include_str!("explain/similarity.txt"),
        links: &[VOYAGE_EMBEDDINGS, ATLAS_VECTOR_SEARCH],
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
/// key or alias contained in the query ("what is reranking?"), then by the query contained in a
/// key or title, then in an alias ("vector").
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
    exact.or_else(within).or_else(containing)
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
    let keys: Vec<&str> = TOPICS.iter().map(|t| t.key).collect();
    ToolSpec {
        name: NAME,
        label: "Explain",
        category: Category::Utility,
        icon: "School",
        description: "Explain a retrieval concept: embeddings, reranking, vector search, RAG, chunking and more",
        help: "Returns a short plain-text explanation of a topic, with links to further reading. Topics: embeddings, reranking, vector-search, rag, chunking, workflows, cost, input-type, models, similarity and templates. Matching ignores case and accepts common aliases (\"rerank\", \"pricing\", \"vector search\") or a phrase that contains a topic name. An unknown topic is not an error: the output has found: false and lists the available topics.",
        input_schema: InputSchema::new().required_input(
            "topic",
            PropertySchema::of(JsonType::String)
                .describe("What to explain")
                .examples(keys),
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
    }
}

impl Tool for Explain {
    fn spec(&self) -> &ToolSpec {
        &SPEC
    }

    fn run<'a>(&'a self, call: ToolCall<'a>) -> ToolFuture<'a> {
        Box::pin(async move {
            let query = args::required_str(NAME, &call, "topic")?;
            let output = match find(query) {
                Some(t) => {
                    json!({"found": true, "topic": t.title, "text": t.text.trim(), "links": t.links})
                }
                None => {
                    let keys: Vec<&str> = TOPICS.iter().map(|t| t.key).collect();
                    json!({
                        "found": false,
                        "topic": query,
                        "text": format!("No explanation for \"{query}\"; available topics: {}", keys.join(", ")),
                    })
                }
            };
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
