//! The argument schemas a model or an MCP client is given for what it may call: a registry
//! tool's (from its declaration) and a workflow's (from its declared `inputs`). Chat's agent
//! mode, the `agent` step and the MCP server all offer tools through these.

use super::spec::ToolSpec;
use crate::model::{InputType, Workflow};
use serde_json::{Map, Value, json};

/// `format` values JSON Schema defines that clients may act on; the builder's widget hints
/// (`multiline`, `expression`, `step-ids`) are vai's own and are left out.
const STANDARD_FORMATS: [&str; 1] = ["uri"];

/// A vai tool's argument schema: its declaration, without the builder's widget hints, closed to
/// arguments it does not declare.
pub fn tool_arguments(spec: &ToolSpec) -> Value {
    let mut schema = spec.input_schema.to_json();
    strip_widget_formats(&mut schema);
    if let Some(map) = schema.as_object_mut() {
        map.insert("additionalProperties".into(), Value::Bool(false));
    }
    schema
}

/// A workflow's argument schema: one property per declared input, with its type, description
/// and default; required when the workflow requires it and gives no default.
pub fn workflow_arguments(workflow: &Workflow) -> Value {
    let mut properties = Map::new();
    let mut required = Vec::new();
    for (name, decl) in &workflow.inputs {
        let mut property = Map::new();
        property.insert("type".into(), json!(json_type(decl.kind)));
        if let Some(description) = &decl.description {
            property.insert("description".into(), json!(description));
        }
        if let Some(default) = &decl.default {
            property.insert("default".into(), default.clone());
        }
        if decl.is_required() && decl.default.is_none() {
            required.push(json!(name));
        }
        properties.insert(name.clone(), Value::Object(property));
    }
    let mut schema = json!({"type": "object", "properties": properties});
    if !required.is_empty() {
        schema["required"] = Value::Array(required);
    }
    schema["additionalProperties"] = Value::Bool(false);
    schema
}

fn json_type(kind: InputType) -> &'static str {
    match kind {
        InputType::String => "string",
        InputType::Number => "number",
        InputType::Boolean => "boolean",
        InputType::Array => "array",
        InputType::Object => "object",
    }
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
    use crate::input_schema::{InputSchema, JsonType, PropertySchema, WidgetFormat};

    #[test]
    fn widget_hints_are_not_sent_as_formats() {
        let spec_schema = InputSchema::new().required_input(
            "text",
            PropertySchema::of(JsonType::String).format(WidgetFormat::Multiline),
        );
        let mut value = spec_schema.to_json();
        strip_widget_formats(&mut value);
        assert_eq!(
            value,
            json!({"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]})
        );
    }

    #[test]
    fn a_workflow_is_called_with_its_declared_inputs() {
        let workflow: Workflow = serde_json::from_value(json!({
            "name": "w",
            "inputs": {
                "city": {"type": "string", "required": true, "description": "Where"},
                "days": {"type": "number", "required": true, "default": 2}
            },
            "steps": [{"id": "a", "tool": "echo"}]
        }))
        .unwrap();
        assert_eq!(
            workflow_arguments(&workflow),
            json!({"type": "object", "properties": {
                "city": {"type": "string", "description": "Where"},
                "days": {"type": "number", "default": 2}
            }, "required": ["city"], "additionalProperties": false})
        );
    }
}
