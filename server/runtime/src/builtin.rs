//! The workflows shipped inside the binary (`workflows/*.json`, `workflows/examples/*.json`)
//! and their test cases, and resolving a command-line argument to a workflow.

use crate::library::{Library, LibraryEntry};
use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use vai_contract::WorkflowSource;
use vai_workflow::fsutil::Dir;

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/embedded_workflows.rs"));
}

/// How a message names where a workflow came from.
pub fn source_label(source: WorkflowSource) -> &'static str {
    match source {
        WorkflowSource::File => "file",
        WorkflowSource::Builtin => "built-in",
        WorkflowSource::Example => "example",
    }
}

/// The built-ins and examples, and the workflow files directly in `dir`: what the playground,
/// the MCP server and `vai workflow list` all show. `dir` is opened here, once; the library
/// reaches its files only through that handle.
pub fn library(dir: Option<&Path>) -> std::io::Result<Library> {
    let dir = match dir {
        Some(path) => Some(Arc::new(Dir::open(path).map_err(|e| {
            std::io::Error::new(e.kind(), format!("cannot open {}: {e}", path.display()))
        })?)),
        None => None,
    };
    let entries = all()
        .into_iter()
        .map(|(name, source, text)| LibraryEntry {
            name,
            source,
            text: Cow::Borrowed(text),
        })
        .collect();
    Ok(Library { entries, dir })
}

/// A workflow's text and where it came from.
#[derive(Debug, Clone)]
pub struct Located {
    pub name: String,
    /// What to call it in messages: the path, or `built-in "name"`.
    pub display: String,
    pub text: String,
    /// The file, when it is one on disk.
    pub path: Option<PathBuf>,
    /// Embedded path prefix ("" or "examples/") for finding embedded tests.
    embedded_dir: Option<&'static str>,
}

impl Located {
    /// A workflow known only by its definition (its file is gone): no directory to find
    /// children in but the built-ins.
    pub fn inline(name: &str) -> Self {
        Self {
            name: name.to_string(),
            display: format!("workflow \"{name}\""),
            text: String::new(),
            path: None,
            embedded_dir: None,
        }
    }
}

/// Why an argument names no workflow.
#[derive(Debug, thiserror::Error)]
pub enum LocateError {
    #[error("no workflow file or built-in named \"{0}\" (see `vai workflow list`)")]
    NotFound(String),
    #[error("{0}")]
    Load(#[from] vai_workflow::load::LoadError),
}

/// An existing path first, then a built-in, then an example.
pub fn locate(arg: &str) -> Result<Located, LocateError> {
    let path = Path::new(arg);
    if path.is_file() {
        let text = vai_workflow::load::read_text(path)?;
        return Ok(Located {
            name: vai_workflow::load::stem(path),
            display: arg.to_string(),
            text,
            path: Some(path.to_path_buf()),
            embedded_dir: None,
        });
    }
    let stem = arg.strip_suffix(".json").unwrap_or(arg);
    let stem = stem.strip_suffix(".vai-workflow").unwrap_or(stem);
    for (dir, source) in [
        ("", WorkflowSource::Builtin),
        ("examples/", WorkflowSource::Example),
    ] {
        let rel = format!("{dir}{stem}.json");
        if let Some((_, text)) = embedded::FILES.iter().find(|(p, _)| *p == rel) {
            return Ok(Located {
                name: stem.to_string(),
                display: format!("{} \"{stem}\"", source_label(source)),
                text: text.to_string(),
                path: None,
                embedded_dir: Some(dir),
            });
        }
    }
    Err(LocateError::NotFound(arg.to_string()))
}

/// The workflow file format's JSON Schema (`workflows/workflow.schema.json`).
pub fn schema() -> &'static str {
    embedded::FILES
        .iter()
        .find(|(p, _)| *p == "workflow.schema.json")
        .map_or("{}", |(_, text)| text)
}

/// Every built-in and example: (name, source, text).
pub fn all() -> Vec<(String, WorkflowSource, &'static str)> {
    embedded::FILES
        .iter()
        .filter_map(|(rel, text)| {
            let (source, file) = match rel.split_once('/') {
                None => (WorkflowSource::Builtin, *rel),
                Some(("examples", f)) if !f.contains('/') => (WorkflowSource::Example, f),
                _ => return None,
            };
            if file == "workflow.schema.json" {
                return None;
            }
            Some((file.strip_suffix(".json")?.to_string(), source, *text))
        })
        .collect()
}

/// A test case: its display name (file) and text.
pub struct CaseFile {
    pub file: String,
    pub text: String,
}

/// The test cases of a located workflow, sorted by file name.
pub fn cases(located: &Located) -> Result<Vec<CaseFile>, String> {
    if let Some(path) = &located.path {
        return vai_workflow::test_cases::find_cases(path)
            .into_iter()
            .map(|p| {
                std::fs::read_to_string(&p)
                    .map(|text| CaseFile {
                        file: p.display().to_string(),
                        text,
                    })
                    .map_err(|e| format!("{}: {e}", p.display()))
            })
            .collect();
    }
    let dir = located.embedded_dir.unwrap_or("");
    let prefix = format!("{dir}tests/{}.", located.name);
    Ok(embedded::FILES
        .iter()
        .filter(|(p, _)| p.starts_with(&prefix) && p.ends_with(".test.json"))
        .map(|(p, text)| CaseFile {
            file: format!("workflows/{p}"),
            text: text.to_string(),
        })
        .collect())
}

#[cfg(test)]
mod tests {
    /// Built-ins and examples are listed by name in the playground: a name is for people (the
    /// file stem is the id), so it is not the slug again.
    #[test]
    fn every_shipped_workflow_has_a_display_name() {
        for (path, text) in super::embedded::FILES {
            if !path.ends_with(".json") || path.contains("tests/") || path.ends_with("schema.json")
            {
                continue;
            }
            let doc: serde_json::Value = serde_json::from_str(text).unwrap();
            let name = doc["name"].as_str().unwrap_or_default();
            let stem = path.rsplit('/').next().unwrap().trim_end_matches(".json");
            assert!(
                name.starts_with(char::is_uppercase) && name != stem,
                "{path}: name {name:?} reads as a slug"
            );
        }
    }
}
