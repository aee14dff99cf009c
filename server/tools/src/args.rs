//! Reading tool inputs: typed accessors, defaults and bounds read from the tool's own declaration,
//! and errors that name the tool and field.

use serde_json::Value;
use vai_workflow::{ApiCalls, ToolCall, ToolError, ToolOutput, ToolSpec};

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

// Inputs with a declared default or bounds. A tool's `ToolSpec` owns both: when a step leaves
// an input out (absent, null or blank text), these return the `default` its schema declares —
// the value the builder's form shows — and never a constant of the tool's own; a value given is
// checked against the schema's `minimum`, `maximum` and `enum`.

/// A number input; numeric strings ("10") are accepted, as templates often yield them. `None`
/// when absent and nothing is declared.
pub fn opt_number(
    spec: &ToolSpec,
    call: &ToolCall<'_>,
    name: &str,
) -> Result<Option<f64>, ToolError> {
    let tool = spec.name;
    let n = match given(call, name) {
        None => return Ok(declared(spec, name).and_then(Value::as_f64)),
        Some(Value::Number(n)) => n.as_f64().unwrap_or(f64::NAN),
        Some(Value::String(s)) => s.trim().parse::<f64>().map_err(|_| {
            ToolError::invalid(tool, name, format!("must be a number, got \"{s}\""))
        })?,
        Some(other) => {
            return Err(ToolError::invalid(
                tool,
                name,
                format!("must be a number, got {}", kind(other)),
            ));
        }
    };
    if !n.is_finite() {
        return Err(ToolError::invalid(
            tool,
            name,
            format!("must be a number, got {n}"),
        ));
    }
    let property = spec.input_schema.property(name);
    let bound = |b: Option<&serde_json::Number>| b.and_then(serde_json::Number::as_f64);
    if let Some(min) = bound(property.and_then(|p| p.minimum.as_ref()))
        && n < min
    {
        return Err(ToolError::invalid(
            tool,
            name,
            format!("must be at least {min}, got {n}"),
        ));
    }
    if let Some(max) = bound(property.and_then(|p| p.maximum.as_ref()))
        && n > max
    {
        return Err(ToolError::invalid(
            tool,
            name,
            format!("must be at most {max}, got {n}"),
        ));
    }
    Ok(Some(n))
}

/// A number input with a declared default.
pub fn number(spec: &ToolSpec, call: &ToolCall<'_>, name: &str) -> Result<f64, ToolError> {
    opt_number(spec, call, name)?.ok_or_else(|| ToolError::required(spec.name, name))
}

/// A whole number ≥ 0 within the declared bounds. `None` when absent and nothing is declared.
pub fn opt_count(
    spec: &ToolSpec,
    call: &ToolCall<'_>,
    name: &str,
) -> Result<Option<u64>, ToolError> {
    let Some(n) = opt_number(spec, call, name)? else {
        return Ok(None);
    };
    if n < 0.0 || n.fract() != 0.0 || n > u64::MAX as f64 {
        return Err(ToolError::invalid(
            spec.name,
            name,
            format!("must be a whole number ≥ 0, got {n}"),
        ));
    }
    Ok(Some(n as u64))
}

/// A whole number ≥ 0 with a declared default.
pub fn count(spec: &ToolSpec, call: &ToolCall<'_>, name: &str) -> Result<u64, ToolError> {
    opt_count(spec, call, name)?.ok_or_else(|| ToolError::required(spec.name, name))
}

/// A boolean input with a declared default; "true"/"false"/"1"/"0" strings are accepted.
pub fn flag(spec: &ToolSpec, call: &ToolCall<'_>, name: &str) -> Result<bool, ToolError> {
    let tool = spec.name;
    match given(call, name) {
        None => declared(spec, name)
            .and_then(Value::as_bool)
            .ok_or_else(|| ToolError::required(tool, name)),
        Some(Value::Bool(b)) => Ok(*b),
        Some(Value::String(s)) => match s.trim() {
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

/// A string input restricted to the declared `enum` (compared case-insensitively), with a
/// declared default; the error lists the accepted values.
pub fn choice<'s>(
    spec: &'s ToolSpec,
    call: &ToolCall<'_>,
    name: &str,
) -> Result<&'s str, ToolError> {
    let choices: Vec<&str> = spec
        .input_schema
        .property(name)
        .and_then(|p| p.choices.as_ref())
        .map(|c| c.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let Some(given) = opt_string(call, name) else {
        return declared(spec, name)
            .and_then(Value::as_str)
            .ok_or_else(|| ToolError::required(spec.name, name));
    };
    let given = given.trim();
    choices
        .iter()
        .find(|c| c.eq_ignore_ascii_case(given))
        .copied()
        .ok_or_else(|| {
            ToolError::invalid(
                spec.name,
                name,
                format!("must be one of {}, got \"{given}\"", choices.join(", ")),
            )
        })
}

/// A string input with a declared default.
pub fn text(spec: &ToolSpec, call: &ToolCall<'_>, name: &str) -> Result<String, ToolError> {
    match opt_string(call, name) {
        Some(s) => Ok(s),
        None => declared(spec, name)
            .and_then(Value::as_str)
            .map(str::to_string)
            .ok_or_else(|| ToolError::required(spec.name, name)),
    }
}

/// An object input with a declared default.
pub fn object<'a>(
    spec: &'a ToolSpec,
    call: &'a ToolCall<'_>,
    name: &str,
) -> Result<&'a serde_json::Map<String, Value>, ToolError> {
    match opt_object(spec.name, call, name)? {
        Some(o) => Ok(o),
        None => declared(spec, name)
            .and_then(Value::as_object)
            .ok_or_else(|| ToolError::required(spec.name, name)),
    }
}

/// The input as given, or `None` when the step left it out: absent, null or blank text.
fn given<'a>(call: &'a ToolCall<'_>, name: &str) -> Option<&'a Value> {
    call.input(name)
        .filter(|v| !matches!(v, Value::String(s) if s.trim().is_empty()))
}

/// The declared default of input `name`.
fn declared<'s>(spec: &'s ToolSpec, name: &str) -> Option<&'s Value> {
    #[cfg(test)]
    defaults_read::record(spec.name, name);
    spec.input_schema.default_of(name)
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

pub use vai_workflow::value::kind;

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

/// Which declared defaults the tools consulted, per thread: a test runs every tool and checks
/// that each input with a declared default was read through its declaration.
#[cfg(test)]
pub(crate) mod defaults_read {
    use std::cell::RefCell;
    use std::collections::BTreeSet;

    thread_local! {
        static READ: RefCell<BTreeSet<(String, String)>> = const { RefCell::new(BTreeSet::new()) };
    }

    pub(crate) fn record(tool: &str, input: &str) {
        READ.with(|r| r.borrow_mut().insert((tool.to_string(), input.to_string())));
    }

    /// The (tool, input) pairs recorded since the last call, and forget them.
    pub(crate) fn take() -> BTreeSet<(String, String)> {
        READ.with(|r| std::mem::take(&mut *r.borrow_mut()))
    }
}
