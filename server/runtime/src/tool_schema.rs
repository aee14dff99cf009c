//! vai's tools as other programs see them: which ones are offered on their own, by what name,
//! the JSON Schema of a tool's arguments, as MCP clients and chat models are given it, and the
//! hook a front end runs before a tool.

use serde_json::Value;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

/// The registry tools that make sense called on their own, one call each, outside a workflow —
/// retrieval, the knowledge base, models, costs and explanations — in the order they are
/// offered: a chat agent's tools, and the first of the MCP server's. Control flow, the tools
/// that only reshape other steps' outputs, `generate` and `http` are not among them.
pub const STANDALONE_TOOLS: [&str; 10] = [
    "query",
    "search",
    "rerank",
    "embed",
    "similarity",
    "collections",
    "models",
    "ingest",
    "explain",
    "estimate",
];

/// The name a chat model or an MCP client calls registry tool `name` by: `vai_<name>`.
pub fn public_name(name: &str) -> String {
    format!("vai_{name}")
}

/// Work to finish before a vai tool runs, given the tool's name (seeding the local sample
/// knowledge base before a tool that reads the store). It must be cheap once done.
pub type BeforeTool = Arc<dyn Fn(&str) -> Pin<Box<dyn Future<Output = ()> + Send>> + Send + Sync>;

/// `format` values JSON Schema defines that clients may act on; the builder's widget hints
/// (`multiline`, `expression`, `step-ids`) are vai's own and are left out.
const STANDARD_FORMATS: [&str; 1] = ["uri"];

/// A vai tool's argument schema: its declaration, without the builder's widget hints, closed to
/// arguments it does not declare.
pub fn tool_input(spec: &vai_workflow::ToolSpec) -> Value {
    let mut schema = spec.input_schema.to_json();
    strip_widget_formats(&mut schema);
    if let Some(map) = schema.as_object_mut() {
        map.insert("additionalProperties".into(), Value::Bool(false));
    }
    schema
}

fn strip_widget_formats(value: &mut Value) {
    match value {
        Value::Object(map) => {
            if map
                .get("format")
                .and_then(Value::as_str)
                .is_some_and(|f| !STANDARD_FORMATS.contains(&f))
            {
                map.remove("format");
            }
            // `properties` and `items` hold schemas; `default`, `enum` and `examples` hold data.
            for key in ["properties", "items", "additionalProperties"] {
                match map.get_mut(key) {
                    Some(Value::Object(inner)) if key == "properties" => {
                        inner.values_mut().for_each(strip_widget_formats);
                    }
                    Some(inner) => strip_widget_formats(inner),
                    None => {}
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(strip_widget_formats),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn widget_hints_are_not_sent_as_formats() {
        let spec_schema = vai_workflow::InputSchema::new().required_input(
            "text",
            vai_workflow::PropertySchema::of(vai_workflow::input_schema::JsonType::String)
                .format(vai_workflow::input_schema::WidgetFormat::Multiline),
        );
        let mut value = spec_schema.to_json();
        strip_widget_formats(&mut value);
        assert_eq!(
            value,
            json!({"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]})
        );
    }
}
