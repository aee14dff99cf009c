//! The workflow library: built-ins and examples handed in as data by the composition root, and
//! the `*.vai-workflow.json` files directly in one directory. A file is read only when a fresh
//! listing of the directory returns its name; no path from a request ever reaches the disk.

use serde_json::Value;
use std::borrow::Cow;
use std::path::PathBuf;
use vai_contract::{WorkflowDocument, WorkflowSource, WorkflowSummary};

/// The suffix of workflow files listed from the directory.
pub const FILE_SUFFIX: &str = ".vai-workflow.json";

/// A workflow known by name: a built-in or an example.
#[derive(Debug, Clone)]
pub struct LibraryEntry {
    pub name: String,
    pub source: WorkflowSource,
    pub text: Cow<'static, str>,
}

/// Where workflows come from.
#[derive(Debug, Clone, Default)]
pub struct Library {
    pub entries: Vec<LibraryEntry>,
    /// The directory whose `*.vai-workflow.json` files are listed (not recursively).
    pub dir: Option<PathBuf>,
}

/// Why a workflow could not be read.
#[derive(Debug, thiserror::Error)]
pub enum LibraryError {
    #[error("no workflow with id \"{0}\"")]
    NotFound(String),
    #[error("cannot read the workflow file: {0}")]
    Read(String),
}

impl Library {
    /// Every workflow: built-ins, examples, then files, each group by name.
    pub fn list(&self) -> Vec<WorkflowSummary> {
        let mut out: Vec<WorkflowSummary> = self
            .entries
            .iter()
            .map(|e| summarise(&id_of(e.source, &e.name), &e.name, e.source, &e.text))
            .collect();
        for name in self.files() {
            if let Ok(text) = self.read_file(&name) {
                let stem = name.strip_suffix(FILE_SUFFIX).unwrap_or(&name);
                out.push(summarise(
                    &id_of(WorkflowSource::File, &name),
                    stem,
                    WorkflowSource::File,
                    &text,
                ));
            }
        }
        out
    }

    /// The workflow with `id`, verbatim.
    pub fn get(&self, id: &str) -> Result<WorkflowDocument, LibraryError> {
        let not_found = || LibraryError::NotFound(id.to_string());
        let (kind, name) = id.split_once(':').ok_or_else(not_found)?;
        let (source, stem, text): (WorkflowSource, String, Cow<'_, str>) = match kind {
            "builtin" | "example" => {
                let source = if kind == "builtin" {
                    WorkflowSource::Builtin
                } else {
                    WorkflowSource::Example
                };
                let entry = self
                    .entries
                    .iter()
                    .find(|e| e.source == source && e.name == name)
                    .ok_or_else(not_found)?;
                (source, entry.name.clone(), Cow::Borrowed(&*entry.text))
            }
            "file" => {
                // Only a name the listing returns is read.
                let listed = self
                    .files()
                    .into_iter()
                    .find(|f| f == name)
                    .ok_or_else(not_found)?;
                let text = self.read_file(&listed)?;
                let stem = listed.strip_suffix(FILE_SUFFIX).unwrap_or(&listed);
                (WorkflowSource::File, stem.to_string(), Cow::Owned(text))
            }
            _ => return Err(not_found()),
        };
        let summary = summarise(id, &stem, source, &text);
        let definition = serde_json::from_str::<Value>(&text).ok();
        Ok(WorkflowDocument {
            summary,
            version: version_of(text.as_bytes()),
            text: text.into_owned(),
            definition,
        })
    }

    /// Names of the regular files (not links, not directories) in `dir` ending in
    /// `.vai-workflow.json`, sorted.
    fn files(&self) -> Vec<String> {
        let Some(dir) = &self.dir else {
            return Vec::new();
        };
        let Ok(entries) = std::fs::read_dir(dir) else {
            return Vec::new();
        };
        let mut names: Vec<String> = entries
            .flatten()
            .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
            .filter_map(|e| e.file_name().into_string().ok())
            .filter(|n| n.ends_with(FILE_SUFFIX) && n.len() > FILE_SUFFIX.len())
            .collect();
        names.sort();
        names
    }

    /// Read `name`, which must come from `files()`.
    fn read_file(&self, name: &str) -> Result<String, LibraryError> {
        let dir = self
            .dir
            .as_ref()
            .ok_or_else(|| LibraryError::NotFound(name.into()))?;
        vai_workflow::load::read_text(&dir.join(name))
            .map_err(|e| LibraryError::Read(e.to_string()))
    }
}

/// `builtin:<name>`, `example:<name>` or `file:<file name>`.
pub fn id_of(source: WorkflowSource, name: &str) -> String {
    let kind = match source {
        WorkflowSource::Builtin => "builtin",
        WorkflowSource::Example => "example",
        WorkflowSource::File => "file",
    };
    format!("{kind}:{name}")
}

/// The version of a file's contents: the first 16 hex digits of its SHA-256.
pub fn version_of(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(bytes);
    digest[..8].iter().map(|b| format!("{b:02x}")).collect()
}

fn summarise(id: &str, stem: &str, source: WorkflowSource, text: &str) -> WorkflowSummary {
    let value = serde_json::from_str::<Value>(text).unwrap_or(Value::Null);
    let name = value
        .get("name")
        .and_then(Value::as_str)
        .filter(|n| !n.trim().is_empty())
        .unwrap_or(stem)
        .to_string();
    WorkflowSummary {
        id: id.to_string(),
        name,
        description: value
            .get("description")
            .and_then(Value::as_str)
            .map(str::to_string),
        source,
        step_count: value
            .get("steps")
            .and_then(Value::as_array)
            .map_or(0, Vec::len),
        inputs: value
            .get("inputs")
            .and_then(Value::as_object)
            .map(|m| m.keys().cloned().collect())
            .unwrap_or_default(),
        read_only: source != WorkflowSource::File,
        error: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_are_the_sha256_prefix() {
        // The SHA-256 test vector of "abc".
        assert_eq!(version_of(b"abc"), "ba7816bf8f01cfea");
    }
}
