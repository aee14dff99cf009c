//! vai's tools as an agent-mode model sees them: the definitions, generated from the same
//! schemas as the builder's forms and the MCP tools, and how a call reads to people (a label
//! while it runs, one line on its result). What a result reads as to the model is the shared
//! tool loop's (`vai_providers::llm::tool_loop`).

use crate::sources::cut;
use serde_json::{Map, Value, json};
use vai_providers::llm::ToolDefinition;
use vai_runtime::tool_schema::{STANDALONE_TOOLS, public_name};
use vai_workflow::Registry;

/// The registry tool the model means by `model_name` (its `public_name`), when it is one it was
/// offered.
pub(crate) fn registry_name(model_name: &str) -> Option<&'static str> {
    let name = model_name.strip_prefix("vai_").unwrap_or(model_name);
    STANDALONE_TOOLS.into_iter().find(|t| *t == name)
}

/// An agent tool the registry holds, and whether it changes data (the knowledge base, a
/// collection): such tools are offered only when the session allows writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Offered {
    /// As the model names it (`vai_ingest`).
    pub name: String,
    pub writes: bool,
}

/// Every agent tool the registry holds, in the order they are offered.
pub fn offered(registry: &Registry) -> Vec<Offered> {
    STANDALONE_TOOLS
        .iter()
        .filter(|name| registry.tool(name).is_some())
        .filter_map(|name| registry.spec(name))
        .map(|spec| Offered {
            name: public_name(spec.name),
            writes: !spec.effects.read_only,
        })
        .collect()
}

/// Whether the registry tool `tool` changes data.
pub(crate) fn writes(registry: &Registry, tool: &str) -> bool {
    registry.spec(tool).is_some_and(|s| !s.effects.read_only)
}

/// Why a tool that changes data was not run: what the model (and the person reading the tool
/// call) is told.
pub(crate) fn writes_off(model_name: &str) -> String {
    format!(
        "{model_name} changes the knowledge base, and this chat does not allow that: tell the \
         person it is off (they can turn it on with `vai chat --allow-writes`, `/allow-writes`, \
         or the Chat panel's \"Allow changes\" switch) and answer without it"
    )
}

/// The definitions of the agent tools the registry holds; those that change data only when
/// `allow_writes`.
pub fn definitions(registry: &Registry, allow_writes: bool) -> Vec<ToolDefinition> {
    STANDALONE_TOOLS
        .iter()
        .filter(|name| registry.tool(name).is_some())
        .filter_map(|name| registry.spec(name))
        .filter(|spec| allow_writes || spec.effects.read_only)
        .map(|spec| ToolDefinition {
            name: public_name(spec.name),
            description: format!("{}. {}", spec.description, spec.help),
            input_schema: vai_runtime::tool_schema::tool_input(spec),
        })
        .collect()
}

/// Fill `db` and `collection` from the chat's defaults into a call that omits them, when the
/// tool takes them.
pub(crate) fn fill_defaults(
    registry: &Registry,
    tool: &str,
    args: &mut Map<String, Value>,
    db: Option<&str>,
    collection: Option<&str>,
) {
    let Some(spec) = registry.spec(tool) else {
        return;
    };
    let schema = spec.input_schema.to_json();
    let takes = |field: &str| schema["properties"].get(field).is_some();
    for (field, value) in [("db", db), ("collection", collection)] {
        if let Some(value) = value
            && takes(field)
            && args.get(field).is_none_or(Value::is_null)
        {
            args.insert(field.into(), json!(value));
        }
    }
}

fn quoted(args: &Map<String, Value>, field: &str) -> String {
    let text = args.get(field).and_then(Value::as_str).unwrap_or("");
    let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    format!("\"{}\"", cut(&line, 60))
}

fn named(args: &Map<String, Value>, field: &str, otherwise: &str) -> String {
    args.get(field)
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .unwrap_or(otherwise)
        .to_string()
}

fn count(args: &Map<String, Value>, field: &str) -> usize {
    args.get(field)
        .and_then(Value::as_array)
        .map_or(0, Vec::len)
}

/// What a call is doing, for people: `Searching api_docs for "error handling"`.
pub fn label(tool: &str, args: &Map<String, Value>) -> String {
    let collection = named(args, "collection", "the knowledge base");
    match tool {
        "query" => format!("Searching {collection} for {}", quoted(args, "query")),
        "search" => format!(
            "Vector search in {collection} for {}",
            quoted(args, "query")
        ),
        "rerank" => format!(
            "Reranking {} documents for {}",
            count(args, "documents"),
            quoted(args, "query")
        ),
        "embed" => format!("Embedding {}", quoted(args, "text")),
        "similarity" => "Comparing two texts".to_string(),
        "collections" => format!(
            "Listing the collections of {}",
            named(args, "db", "the database")
        ),
        "models" => "Listing the models".to_string(),
        "ingest" => format!("Adding a document to {collection}"),
        "explain" => format!("Explaining {}", quoted(args, "topic")),
        "estimate" => "Estimating costs".to_string(),
        other => format!("Calling {}", public_name(other)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(value: Value) -> Map<String, Value> {
        value.as_object().cloned().unwrap()
    }

    #[test]
    fn calls_read_as_what_they_do() {
        assert_eq!(
            label(
                "query",
                &args(json!({"query": "error  handling", "collection": "api_docs"}))
            ),
            "Searching api_docs for \"error handling\""
        );
        assert_eq!(
            label(
                "rerank",
                &args(json!({"query": "q", "documents": ["a", "b"]}))
            ),
            "Reranking 2 documents for \"q\""
        );
    }

    #[test]
    fn the_model_names_map_back_to_offered_tools_only() {
        assert_eq!(registry_name("vai_query"), Some("query"));
        assert_eq!(registry_name("search"), Some("search"));
        assert_eq!(registry_name("vai_http"), None);
        assert_eq!(registry_name("vai_generate"), None);
    }
}
