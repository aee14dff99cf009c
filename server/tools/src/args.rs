//! Reading tool inputs: typed accessors with defaults and errors that name the tool and field.

use serde_json::Value;
use vai_workflow::{ApiCalls, ToolCall, ToolError, ToolOutput};

/// A required non-empty string input.
pub fn required_str<'a>(
    tool: &'static str,
    call: &'a ToolCall<'_>,
    name: &str,
) -> Result<&'a str, ToolError> {
    match call.input(name) {
        Some(Value::String(s)) if !s.is_empty() => Ok(s),
        Some(Value::String(_)) | None => Err(ToolError::required(tool, name)),
        Some(other) => Err(ToolError::invalid(
            tool,
            name,
            format!("must be a string, got {}", kind(other)),
        )),
    }
}

/// An optional string input (numbers and booleans are read as their text).
pub fn opt_string(call: &ToolCall<'_>, name: &str) -> Option<String> {
    match call.input(name)? {
        Value::String(s) if s.is_empty() => None,
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// A number input with a default; numeric strings ("10") are accepted, as templates often yield them.
pub fn number_or(
    tool: &'static str,
    call: &ToolCall<'_>,
    name: &str,
    default: f64,
) -> Result<f64, ToolError> {
    match call.input(name) {
        None => Ok(default),
        Some(Value::Number(n)) => Ok(n.as_f64().unwrap_or(default)),
        Some(Value::String(s)) if s.trim().is_empty() => Ok(default),
        Some(Value::String(s)) => s
            .trim()
            .parse::<f64>()
            .map_err(|_| ToolError::invalid(tool, name, format!("must be a number, got \"{s}\""))),
        Some(other) => Err(ToolError::invalid(
            tool,
            name,
            format!("must be a number, got {}", kind(other)),
        )),
    }
}

/// A non-negative integer input with a default, bounded above by `max`.
pub fn count_or(
    tool: &'static str,
    call: &ToolCall<'_>,
    name: &str,
    default: u64,
    max: u64,
) -> Result<u64, ToolError> {
    let n = number_or(tool, call, name, default as f64)?;
    if n < 0.0 || n.fract() != 0.0 {
        return Err(ToolError::invalid(
            tool,
            name,
            format!("must be a whole number ≥ 0, got {n}"),
        ));
    }
    if n > max as f64 {
        return Err(ToolError::invalid(
            tool,
            name,
            format!("must be at most {max}, got {n}"),
        ));
    }
    Ok(n as u64)
}

/// A boolean input with a default; "true"/"false"/"1"/"0" strings are accepted.
pub fn bool_or(
    tool: &'static str,
    call: &ToolCall<'_>,
    name: &str,
    default: bool,
) -> Result<bool, ToolError> {
    match call.input(name) {
        None => Ok(default),
        Some(Value::Bool(b)) => Ok(*b),
        Some(Value::String(s)) => match s.trim() {
            "" => Ok(default),
            "true" | "1" => Ok(true),
            "false" | "0" => Ok(false),
            _ => Err(ToolError::invalid(
                tool,
                name,
                format!("must be true or false, got \"{s}\""),
            )),
        },
        Some(Value::Number(n)) => Ok(n.as_f64().is_some_and(|f| f != 0.0)),
        Some(other) => Err(ToolError::invalid(
            tool,
            name,
            format!("must be a boolean, got {}", kind(other)),
        )),
    }
}

/// A required array input.
pub fn required_array<'a>(
    tool: &'static str,
    call: &'a ToolCall<'_>,
    name: &str,
) -> Result<&'a Vec<Value>, ToolError> {
    match call.input(name) {
        Some(Value::Array(a)) => Ok(a),
        None => Err(ToolError::required(tool, name)),
        Some(other) => Err(ToolError::invalid(
            tool,
            name,
            format!("must be an array, got {}", kind(other)),
        )),
    }
}

/// The JSON kind of a value, for messages.
pub fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// The text of a document: a string itself, else its `text`, then `content` field, else its JSON.
pub fn document_text(doc: &Value) -> String {
    match doc {
        Value::String(s) => s.clone(),
        Value::Object(o) => o
            .get("text")
            .and_then(Value::as_str)
            .or_else(|| o.get("content").and_then(Value::as_str))
            .map(str::to_string)
            .unwrap_or_else(|| doc.to_string()),
        other => vai_workflow::value::to_text(Some(other)),
    }
}

/// An optional string input restricted to `choices` (compared case-insensitively), with a
/// default; the error lists the accepted values.
pub fn choice_or(
    tool: &'static str,
    call: &ToolCall<'_>,
    name: &str,
    choices: &[&'static str],
    default: &'static str,
) -> Result<&'static str, ToolError> {
    let Some(given) = opt_string(call, name) else {
        return Ok(default);
    };
    let given = given.trim();
    choices
        .iter()
        .find(|c| c.eq_ignore_ascii_case(given))
        .copied()
        .ok_or_else(|| {
            ToolError::invalid(
                tool,
                name,
                format!("must be one of {}, got \"{given}\"", choices.join(", ")),
            )
        })
}

/// An optional object input; `None` when absent or null.
pub fn opt_object<'a>(
    tool: &'static str,
    call: &'a ToolCall<'_>,
    name: &str,
) -> Result<Option<&'a serde_json::Map<String, Value>>, ToolError> {
    match call.input(name) {
        None => Ok(None),
        Some(Value::Object(o)) => Ok(Some(o)),
        Some(other) => Err(ToolError::invalid(
            tool,
            name,
            format!("must be an object, got {}", kind(other)),
        )),
    }
}

/// Take a required array input out of the call, so its items can be moved rather than cloned.
pub fn take_array(
    tool: &'static str,
    call: &mut ToolCall<'_>,
    name: &str,
) -> Result<Vec<Value>, ToolError> {
    match call.inputs.remove(name) {
        Some(Value::Array(a)) => Ok(a),
        None | Some(Value::Null) => Err(ToolError::required(tool, name)),
        Some(other) => Err(ToolError::invalid(
            tool,
            name,
            format!("must be an array, got {}", kind(&other)),
        )),
    }
}

/// The `{results, resultCount}` output of `results` copied within the call's budget at depth 2
/// (`call.copy(…, 2)`): charged for its structure and handed over with its size.
pub fn built_results(call: &ToolCall<'_>, results: Vec<Value>) -> Result<ToolOutput, ToolError> {
    // `{"results":[…],"resultCount":N}` and a comma between items.
    call.charge("output", 40 + results.len() as u64)?;
    Ok(call.built(results_output(results).output))
}

/// The `{results, resultCount}` output shared by merge, filter and transform.
pub fn results_output(results: Vec<Value>) -> ToolOutput {
    let count = results.len();
    let mut out = serde_json::Map::with_capacity(2);
    out.insert("results".into(), Value::Array(results));
    out.insert("resultCount".into(), Value::from(count));
    ToolOutput::new(Value::Object(out))
}

/// `ApiCalls` of a tool that calls no provider.
pub const NO_API_CALLS: ApiCalls = ApiCalls {
    embed: 0,
    rerank: 0,
    vector_search: 0,
    llm: 0,
    http: 0,
};

/// A number rounded to `places` decimals, as a JSON number.
pub fn rounded(value: f64, places: i32) -> Value {
    let factor = 10f64.powi(places);
    vai_workflow::value::number((value * factor).round() / factor).unwrap_or(Value::Null)
}
