//! `/export-workflow`: the tool calls of an agent answer as a `.vai-workflow.json` that validates
//! and runs. Each successful call becomes a step with the registry tool's real name and its
//! arguments as `inputs`; the question becomes the workflow input `question`; and wherever a
//! call passed on a value an earlier call returned, the value becomes a template reference to
//! that step's output, so the workflow recomputes it.

use crate::tools;
use serde_json::{Map, Value, json};
use vai_contract::ChatTurn;

/// Values shorter than this are not traced back to an earlier output (a `5` or `"en"` matches
/// too much by chance).
const MIN_TRACED_LEN: usize = 12;

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ExportError {
    #[error(
        "this answer called no tools, so there is no tool sequence to export: ask in agent mode, \
         where the model calls vai's tools, then export that answer"
    )]
    NoToolCalls,
}

/// The workflow of `turn`'s successful tool calls, in the order they were made.
pub fn export_workflow(turn: &ChatTurn) -> Result<Value, ExportError> {
    let calls: Vec<(&'static str, &vai_contract::ChatToolCall)> = turn
        .tool_calls
        .iter()
        .filter(|c| c.ok)
        .filter_map(|c| tools::registry_name(&c.name).map(|t| (t, c)))
        .collect();
    if calls.is_empty() {
        return Err(ExportError::NoToolCalls);
    }
    let mut steps = Vec::new();
    // (step id, its output) of the steps so far.
    let mut earlier: Vec<(String, Option<&Value>)> = Vec::new();
    for (tool, call) in &calls {
        let n = earlier
            .iter()
            .filter(|(id, _)| id.rsplit_once('_').is_some_and(|(t, _)| t == *tool))
            .count()
            + 1;
        let id = format!("{tool}_{n}");
        let inputs = templated(&call.arguments, &turn.question, &earlier);
        steps.push(json!({
            "id": id,
            "name": call.label,
            "tool": tool,
            "inputs": inputs,
        }));
        earlier.push((id, call.output.as_ref()));
    }
    let last = earlier.last().map(|(id, _)| id.clone()).unwrap_or_default();
    let title = crate::history::title_of(&turn.question);
    Ok(json!({
        "$schema": "https://vai.dev/schemas/workflow.schema.json",
        "name": format!("Chat: {title}"),
        "description": format!(
            "The tool sequence vai chat's agent used to answer \"{title}\", exported as a workflow."
        ),
        "version": "1.0.0",
        "inputs": {
            "question": {
                "type": "string",
                "description": "The question to answer",
                "required": false,
                "default": turn.question,
            }
        },
        "steps": steps,
        "output": format!("{{{{ {last}.output }}}}"),
    }))
}

/// `value` with the question replaced by `{{ inputs.question }}` and values an earlier step
/// returned replaced by references to them.
fn templated(value: &Value, question: &str, earlier: &[(String, Option<&Value>)]) -> Value {
    if let Some(reference) = trace(value, earlier) {
        return Value::String(reference);
    }
    match value {
        Value::String(s) if !question.is_empty() && s.contains(question) => {
            // Braces in the rest of the text would read as a template: keep such text as is.
            if s.contains("{{") || s.contains("}}") {
                value.clone()
            } else {
                Value::String(s.replace(question, "{{ inputs.question }}"))
            }
        }
        Value::Array(items) => Value::Array(
            items
                .iter()
                .map(|v| templated(v, question, earlier))
                .collect(),
        ),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), templated(v, question, earlier)))
                .collect::<Map<_, _>>(),
        ),
        other => other.clone(),
    }
}

/// A template naming where in an earlier step's output `value` came from (the latest step
/// first), when it is long enough to be told apart.
fn trace(value: &Value, earlier: &[(String, Option<&Value>)]) -> Option<String> {
    let long_enough = match value {
        Value::String(s) => s.chars().count() >= MIN_TRACED_LEN,
        Value::Array(a) => !a.is_empty(),
        Value::Object(o) => !o.is_empty(),
        _ => false,
    };
    if !long_enough {
        return None;
    }
    earlier.iter().rev().find_map(|(id, output)| {
        let path = find(output.as_ref()?, value, &mut String::new())?;
        Some(format!("{{{{ {id}.output{path} }}}}"))
    })
}

/// The path (`.results[0].text`) at which `needle` occurs in `haystack`.
fn find(haystack: &Value, needle: &Value, path: &mut String) -> Option<String> {
    if haystack == needle {
        return Some(path.clone());
    }
    let len = path.len();
    match haystack {
        Value::Array(items) => items.iter().enumerate().find_map(|(i, v)| {
            path.push_str(&format!("[{i}]"));
            let found = find(v, needle, path);
            path.truncate(len);
            found
        }),
        Value::Object(map) => map.iter().find_map(|(k, v)| {
            let plain = k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && !k.starts_with(|c: char| c.is_ascii_digit());
            if !plain {
                return None;
            }
            path.push('.');
            path.push_str(k);
            let found = find(v, needle, path);
            path.truncate(len);
            found
        }),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
