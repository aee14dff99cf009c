//! Asking a person at the terminal for a `yield` step's answer, field by field: types read as
//! declared, choices listed, each bad value asked again.

use serde_json::{Map, Value};
use std::io::{BufRead, Write};
use vai_workflow::exec::Waiting;
use vai_workflow::expects::{Expects, FieldType};

/// The answer, or `None` when the person leaves (end of input): the run stays waiting.
pub(crate) fn ask(waiting: &Waiting) -> Option<Value> {
    let expects = Expects::parse(&waiting.expects).unwrap_or_else(|_| Expects::empty());
    eprintln!("\n{}", waiting.message);
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let mut read = |question: &str| -> Option<String> {
        eprint!("{question}");
        let _ = std::io::stderr().flush();
        lines.next()?.ok()
    };
    if expects.fields.is_empty() {
        read("press Enter to go on (Ctrl-D leaves the run waiting): ")?;
        return Some(Value::Object(Map::new()));
    }
    let mut answer = Map::new();
    for field in &expects.fields {
        loop {
            let hint = match &field.choices {
                Some(c) => c.iter().map(plain).collect::<Vec<_>>().join("/"),
                None if field.kind == FieldType::Boolean => "y/n".into(),
                None => field.kind.as_str().into(),
            };
            let required = if field.required { "" } else { ", optional" };
            let about = field
                .description
                .as_deref()
                .map(|d| format!(" — {d}"))
                .unwrap_or_default();
            let text = read(&format!("  {}{about} ({hint}{required}): ", field.name))?;
            if text.trim().is_empty() && !field.required {
                break;
            }
            let value = expects.coerce(&field.name, &text);
            let mut one = Map::new();
            one.insert(field.name.clone(), value.clone());
            let problem = expects
                .check(&Value::Object(one))
                .into_iter()
                .find(|e| e.field == field.name);
            match problem {
                Some(e) => eprintln!("    {} {}", e.field, e.message),
                None => {
                    answer.insert(field.name.clone(), value);
                    break;
                }
            }
        }
    }
    Some(Value::Object(answer))
}

/// ` --input a=… --input b=…` for the required fields of `expects`, to show how to answer.
pub(crate) fn example_inputs(expects: &Value) -> String {
    let Ok(expects) = Expects::parse(expects) else {
        return String::new();
    };
    expects
        .fields
        .iter()
        .filter(|f| f.required)
        .map(|f| {
            let value = match (&f.choices, f.kind) {
                (Some(c), _) => c.first().map(plain).unwrap_or_default(),
                (None, FieldType::Boolean) => "true".into(),
                (None, FieldType::Number | FieldType::Integer) => "1".into(),
                (None, FieldType::String) => "…".into(),
            };
            format!(" --input {}={value}", f.name)
        })
        .collect()
}

fn plain(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}
