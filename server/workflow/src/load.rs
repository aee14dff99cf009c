//! Reading workflow files: size and depth limits, JSON syntax errors with line and column.

use crate::diagnostic::Diagnostic;
use crate::diagnostic::DiagnosticCode;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// Largest workflow file accepted.
pub const MAX_FILE_BYTES: u64 = 5 * 1024 * 1024;

/// Why a file could not be read as JSON.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("cannot read {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: {}", diagnostic)]
    Invalid {
        path: PathBuf,
        diagnostic: Box<Diagnostic>,
    },
}

/// Parse workflow JSON text, reporting syntax errors with line and column.
pub fn parse_json(text: &str) -> Result<Value, Box<Diagnostic>> {
    if text.len() as u64 > MAX_FILE_BYTES {
        return Err(too_large(text.len() as u64));
    }
    serde_json::from_str(text).map_err(|e| {
        let msg = e.to_string();
        if msg.contains("recursion limit") {
            Box::new(
                Diagnostic::error(
                    DiagnosticCode::TooDeep,
                    "the JSON is nested too deeply (more than 128 levels)",
                )
                .at(e.line(), e.column()),
            )
        } else {
            let message = match msg.rfind(" at line ") {
                Some(i) => msg[..i].to_string(),
                None => msg,
            };
            Box::new(
                Diagnostic::error(
                    DiagnosticCode::InvalidJson,
                    format!("not valid JSON: {message}"),
                )
                .at(e.line(), e.column()),
            )
        }
    })
}

fn too_large(bytes: u64) -> Box<Diagnostic> {
    Box::new(Diagnostic::error(
        DiagnosticCode::FileTooLarge,
        format!("the file is {bytes} bytes; workflow files are limited to {MAX_FILE_BYTES} bytes"),
    ))
}

/// What a JSON document that is not a workflow file is, when it is not one: a JSON Schema (such
/// as `workflows/workflow.schema.json`, which sits beside the workflows), something other than an
/// object, or an object with neither `name` nor `steps`. `None` for anything shaped like a
/// workflow, valid or not (a draft may still lack either).
pub fn not_a_workflow(value: &Value) -> Option<&'static str> {
    let Some(object) = value.as_object() else {
        return Some("not a JSON object");
    };
    let schema = object
        .get("$schema")
        .and_then(Value::as_str)
        .is_some_and(|s| s.contains("json-schema.org"));
    if schema {
        return Some("a JSON Schema document");
    }
    if !object.contains_key("steps") && !object.contains_key("name") {
        return Some("an object with neither \"name\" nor \"steps\"");
    }
    None
}

/// Read a workflow file's text, refusing files over `MAX_FILE_BYTES` before reading them.
pub fn read_text(path: &Path) -> Result<String, LoadError> {
    let io = |source| LoadError::Io {
        path: path.to_path_buf(),
        source,
    };
    let len = std::fs::metadata(path).map_err(io)?.len();
    if len > MAX_FILE_BYTES {
        return Err(LoadError::Invalid {
            path: path.to_path_buf(),
            diagnostic: too_large(len),
        });
    }
    std::fs::read_to_string(path).map_err(io)
}

/// The workflow name a file is known by: its file name without `.vai-workflow.json`/`.json`.
pub fn stem(path: &Path) -> String {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let name = name.strip_suffix(".json").unwrap_or(&name);
    name.strip_suffix(".vai-workflow")
        .unwrap_or(name)
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn syntax_errors_have_line_and_column() {
        let d = parse_json("{\n  \"name\": \"x\",\n  \"steps\": [,]\n}").unwrap_err();
        assert_eq!(d.code, "INVALID_JSON");
        assert_eq!(d.line, Some(3));
        assert!(d.column.is_some());
        assert!(!d.message.contains(" at line "), "{}", d.message);
    }

    #[test]
    fn deep_nesting_is_refused() {
        let text = "[".repeat(200) + &"]".repeat(200);
        assert_eq!(parse_json(&text).unwrap_err().code, "TOO_DEEP");
    }

    #[test]
    fn oversize_text_is_refused() {
        let text = " ".repeat(MAX_FILE_BYTES as usize + 1);
        assert_eq!(parse_json(&text).unwrap_err().code, "FILE_TOO_LARGE");
    }

    #[test]
    fn stems() {
        assert_eq!(stem(Path::new("a/b/rag.vai-workflow.json")), "rag");
        assert_eq!(stem(Path::new("x.json")), "x");
    }
}
