//! JSON Schemas as MCP tools carry them, and the check of a call's arguments against one: the
//! input schemas of vai's tools (from their `ToolSpec` declarations) and of workflow tools (from
//! the workflow's `inputs`), and one validator for the subset these use, so arguments that do
//! not fit come back naming each field before anything runs.

use crate::failure::Violation;
use rmcp::model::JsonObject;
use serde_json::{Map, Value, json};
use std::sync::Arc;
use vai_workflow::value::kind;

/// A schema as an MCP tool's `inputSchema`/`outputSchema`.
pub(crate) fn object(value: Value) -> Arc<JsonObject> {
    match value {
        Value::Object(map) => Arc::new(map),
        _ => Arc::new(Map::new()),
    }
}

/// An output schema naming the declared fields, each with its description; members beyond them
/// are allowed (a tool may add some).
pub(crate) fn tool_output(outputs: &[(&str, &str)]) -> Value {
    let properties: Map<String, Value> = outputs
        .iter()
        .map(|(name, description)| (name.to_string(), json!({"description": description})))
        .collect();
    json!({"type": "object", "properties": properties})
}

/// The input schema of a workflow tool (see [`vai_workflow::tool::workflow_arguments`]).
pub(crate) use vai_workflow::tool::workflow_arguments as workflow_input;

/// Every way `args` does not fit `schema` (an object schema); empty when it fits.
pub(crate) fn check(schema: &Value, args: &Map<String, Value>) -> Vec<Violation> {
    let mut out = Vec::new();
    check_object(schema, args, "", &mut out);
    out
}

fn join(path: &str, name: &str) -> String {
    if path.is_empty() {
        name.to_string()
    } else {
        format!("{path}.{name}")
    }
}

fn check_object(schema: &Value, map: &Map<String, Value>, path: &str, out: &mut Vec<Violation>) {
    let properties = schema.get("properties").and_then(Value::as_object);
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    for name in &required {
        if map.get(*name).is_none_or(Value::is_null) {
            out.push(Violation::new(join(path, name), "required", "is required"));
        }
    }
    for (name, value) in map {
        let at = join(path, name);
        match properties.and_then(|p| p.get(name)) {
            // An optional argument sent as null is taken as left out, as the tools take it.
            Some(_) if value.is_null() && !required.contains(&name.as_str()) => {}
            Some(property) => check_value(property, value, &at, out),
            None => match schema.get("additionalProperties") {
                Some(Value::Bool(false)) => {
                    let known: Vec<&str> = properties
                        .map(|p| p.keys().map(String::as_str).collect())
                        .unwrap_or_default();
                    let message = if known.is_empty() {
                        "is not an argument of this tool (it takes none)".to_string()
                    } else {
                        format!(
                            "is not an argument of this tool; it takes {}",
                            known.join(", ")
                        )
                    };
                    out.push(Violation::new(at, "additionalProperties", message));
                }
                Some(other @ Value::Object(_)) => check_value(other, value, &at, out),
                _ => {}
            },
        }
    }
}

/// A JSON Schema type as a message names it: "a string", "an integer", "null".
fn article(t: &str) -> String {
    match t {
        "null" => t.to_string(),
        "integer" | "array" | "object" => format!("an {t}"),
        _ => format!("a {t}"),
    }
}

fn check_value(schema: &Value, value: &Value, path: &str, out: &mut Vec<Violation>) {
    let types: Vec<&str> = match schema.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    if !types.is_empty() && !types.iter().any(|t| is_type(t, value)) {
        out.push(
            Violation::new(
                path,
                "type",
                format!(
                    "must be {}, got {}",
                    types
                        .iter()
                        .map(|t| article(t))
                        .collect::<Vec<_>>()
                        .join(" or "),
                    kind(value)
                ),
            )
            .expected(types.join(" | "), kind(value)),
        );
        return;
    }
    if let Some(choices) = schema.get("enum").and_then(Value::as_array)
        && !choices.contains(value)
    {
        let listed: Vec<String> = choices.iter().map(Value::to_string).collect();
        out.push(
            Violation::new(
                path,
                "enum",
                format!("must be one of {}, got {value}", listed.join(", ")),
            )
            .expected(listed.join(" | "), value.to_string()),
        );
        return;
    }
    match value {
        Value::Number(n) => {
            let n = n.as_f64().unwrap_or(f64::NAN);
            let bound = |key: &str| schema.get(key).and_then(Value::as_f64);
            if let Some(min) = bound("minimum")
                && n < min
            {
                out.push(
                    Violation::new(path, "minimum", format!("must be at least {min}, got {n}"))
                        .expected(format!(">= {min}"), n.to_string()),
                );
            }
            if let Some(max) = bound("maximum")
                && n > max
            {
                out.push(
                    Violation::new(path, "maximum", format!("must be at most {max}, got {n}"))
                        .expected(format!("<= {max}"), n.to_string()),
                );
            }
        }
        Value::String(s) => {
            let chars = s.chars().count() as u64;
            let bound = |key: &str| schema.get(key).and_then(Value::as_u64);
            if let Some(min) = bound("minLength")
                && chars < min
            {
                out.push(Violation::new(
                    path,
                    "minLength",
                    format!("must be at least {min} characters"),
                ));
            }
            if let Some(max) = bound("maxLength")
                && chars > max
            {
                out.push(Violation::new(
                    path,
                    "maxLength",
                    format!("must be at most {max} characters, got {chars}"),
                ));
            }
        }
        Value::Array(items) => {
            let len = items.len() as u64;
            let bound = |key: &str| schema.get(key).and_then(Value::as_u64);
            if let Some(min) = bound("minItems")
                && len < min
            {
                out.push(Violation::new(
                    path,
                    "minItems",
                    format!("must hold at least {min} items, got {len}"),
                ));
            }
            if let Some(max) = bound("maxItems")
                && len > max
            {
                out.push(Violation::new(
                    path,
                    "maxItems",
                    format!("must hold at most {max} items, got {len}"),
                ));
            }
            if let Some(item) = schema.get("items") {
                for (i, v) in items.iter().enumerate() {
                    check_value(item, v, &format!("{path}[{i}]"), out);
                }
            }
        }
        Value::Object(map) => check_object(schema, map, path, out),
        Value::Bool(_) | Value::Null => {}
    }
}

fn is_type(name: &str, value: &Value) -> bool {
    match name {
        "string" => value.is_string(),
        "number" => value.is_number(),
        "integer" => value.as_f64().is_some_and(|f| f.fract() == 0.0),
        "boolean" => value.is_boolean(),
        "array" => value.is_array(),
        "object" => value.is_object(),
        "null" => value.is_null(),
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(v: Value) -> Map<String, Value> {
        v.as_object().unwrap().clone()
    }

    fn schema() -> Value {
        json!({
            "type": "object",
            "properties": {
                "query": {"type": "string"},
                "limit": {"type": "integer", "minimum": 1, "maximum": 50},
                "model": {"type": "string", "enum": ["a", "b"]},
                "documents": {"type": "array", "items": {"type": "string"}, "maxItems": 2},
                "filter": {"type": "object"}
            },
            "required": ["query"],
            "additionalProperties": false
        })
    }

    #[test]
    fn fitting_arguments_have_no_violations() {
        let ok = args(
            json!({"query": "q", "limit": 5, "model": "a", "documents": ["x"],
            "filter": {"k": 1}, "model2": null}),
        );
        let v = check(&schema(), &ok);
        // `model2` is unknown: even null it names a field the tool does not take.
        assert_eq!(v.len(), 1, "{v:?}");
        assert_eq!(v[0].path, "model2");
        assert!(check(&schema(), &args(json!({"query": "q", "limit": 5.0}))).is_empty());
        assert!(check(&schema(), &args(json!({"query": "q", "model": null}))).is_empty());
    }

    #[test]
    fn every_violation_names_its_field() {
        let bad = args(json!({"limit": 0, "model": "c", "documents": ["x", 2, "z"], "qurey": "x"}));
        let v = check(&schema(), &bad);
        let paths: Vec<(&str, &str)> = v
            .iter()
            .map(|v| (v.path.as_str(), v.rule.as_str()))
            .collect();
        assert_eq!(
            paths,
            [
                ("query", "required"),
                ("limit", "minimum"),
                ("model", "enum"),
                ("documents", "maxItems"),
                ("documents[1]", "type"),
                ("qurey", "additionalProperties"),
            ]
        );
        assert_eq!(v[4].message, "must be a string, got a number");
        assert!(
            v[5].message.contains("it takes query, limit"),
            "{}",
            v[5].message
        );
    }
}
