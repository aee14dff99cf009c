//! Checking and completing a run's inputs against the workflow's declarations.

use crate::model::{InputType, Workflow};
use serde_json::{Map, Value};

/// A problem with one input.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum InputError {
    #[error("missing required input \"{name}\"{}", hint(description))]
    Missing {
        name: String,
        description: Option<String>,
    },
    #[error("input \"{name}\" must be {expected}, got {got}")]
    WrongType {
        name: String,
        expected: &'static str,
        got: String,
    },
}

fn hint(description: &Option<String>) -> String {
    description
        .as_ref()
        .map(|d| format!(" ({d})"))
        .unwrap_or_default()
}

/// Apply declared defaults, check required inputs, and coerce text to the declared type
/// (`"5"` → 5 for numbers, `"true"`/`"1"` for booleans, JSON text for arrays and objects).
/// Inputs that are not declared pass through unchanged.
pub fn prepare_inputs(
    workflow: &Workflow,
    provided: &Map<String, Value>,
) -> Result<Map<String, Value>, Vec<InputError>> {
    let mut out = Map::new();
    let mut errors = Vec::new();
    for (name, decl) in &workflow.inputs {
        match provided.get(name) {
            Some(v) => match coerce(decl.kind, v) {
                Some(v) => {
                    out.insert(name.clone(), v);
                }
                None => errors.push(InputError::WrongType {
                    name: name.clone(),
                    expected: article(decl.kind),
                    got: describe(v),
                }),
            },
            None => match &decl.default {
                Some(d) => {
                    out.insert(name.clone(), d.clone());
                }
                None if decl.is_required() => errors.push(InputError::Missing {
                    name: name.clone(),
                    description: decl.description.clone(),
                }),
                None => {}
            },
        }
    }
    for (name, v) in provided {
        if !workflow.inputs.contains_key(name) {
            out.insert(name.clone(), v.clone());
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

/// Convert `value` to `kind` where the conversion is unambiguous; `None` when it is not possible.
pub fn coerce(kind: InputType, value: &Value) -> Option<Value> {
    if kind.accepts(value) || value.is_null() {
        return Some(value.clone());
    }
    let Value::String(s) = value else {
        return None;
    };
    let t = s.trim();
    match kind {
        InputType::String => None,
        InputType::Number => t
            .parse::<f64>()
            .ok()
            .filter(|f| f.is_finite())
            .and_then(crate::value::number),
        InputType::Boolean => match t {
            "true" | "1" | "yes" => Some(Value::Bool(true)),
            "false" | "0" | "no" => Some(Value::Bool(false)),
            _ => None,
        },
        InputType::Array | InputType::Object => match serde_json::from_str::<Value>(t) {
            Ok(v) if kind.accepts(&v) => Some(v),
            // A bare comma-separated list is a friendly way to give an array on a command line.
            _ if kind == InputType::Array && !t.starts_with('[') => Some(Value::Array(
                t.split(',')
                    .map(|p| Value::String(p.trim().to_string()))
                    .filter(|v| v != "")
                    .collect(),
            )),
            _ => None,
        },
    }
}

fn article(kind: InputType) -> &'static str {
    match kind {
        InputType::String => "a string",
        InputType::Number => "a number",
        InputType::Boolean => "true or false",
        InputType::Array => "an array (JSON such as [\"a\",\"b\"], or a,b,c)",
        InputType::Object => "a JSON object",
    }
}

fn describe(v: &Value) -> String {
    let text = crate::value::truncate_chars(&v.to_string(), 40);
    match v {
        Value::String(_) => text,
        Value::Array(_) => format!("an array {text}"),
        Value::Object(_) => format!("an object {text}"),
        _ => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn wf() -> Workflow {
        serde_json::from_value(json!({
            "name": "t",
            "inputs": {
                "q": {"type": "string", "required": true, "description": "the query"},
                "limit": {"type": "number", "default": 10},
                "rerank": {"type": "boolean"},
                "tags": {"type": "array"}
            },
            "steps": [{"id": "a", "tool": "template", "inputs": {"text": "x"}}]
        }))
        .unwrap()
    }

    #[test]
    fn defaults_apply_and_types_coerce() {
        let provided = json!({"q": "hi", "rerank": "false", "tags": "[\"a\",\"b\"]", "extra": 1});
        let out = prepare_inputs(&wf(), provided.as_object().unwrap()).unwrap();
        assert_eq!(
            Value::Object(out),
            json!({"q": "hi", "limit": 10, "rerank": false, "tags": ["a", "b"], "extra": 1})
        );
    }

    #[test]
    fn numbers_and_lists_from_text() {
        let provided = json!({"q": "hi", "limit": "2.5", "tags": "a, b"});
        let out = prepare_inputs(&wf(), provided.as_object().unwrap()).unwrap();
        assert_eq!(out["limit"], json!(2.5));
        assert_eq!(out["tags"], json!(["a", "b"]));
    }

    #[test]
    fn every_problem_is_reported() {
        let provided = json!({"limit": "ten", "rerank": "maybe"});
        let errs = prepare_inputs(&wf(), provided.as_object().unwrap()).unwrap_err();
        assert_eq!(errs.len(), 3);
        assert_eq!(
            errs[0].to_string(),
            "missing required input \"q\" (the query)"
        );
        assert_eq!(
            errs[1].to_string(),
            "input \"limit\" must be a number, got \"ten\""
        );
    }
}
