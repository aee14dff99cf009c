//! The workflow library: built-ins and examples handed in as data by the composition root, and
//! the `*.vai-workflow.json` files directly in one directory. The directory is opened once, when
//! the library is made, and every later listing, read and write goes through that handle
//! (`vai_workflow::fsutil::Dir`), so no path is resolved again. A file is read only when a fresh
//! listing of the directory returns its name, never through a symbolic link, and only when it is
//! a regular file within the size limit; no path from a request ever reaches the disk.

use serde_json::Value;
use std::borrow::Cow;
use std::sync::Arc;
use vai_contract::{WorkflowDocument, WorkflowSource, WorkflowSummary};
use vai_workflow::fsutil::{Dir, FileError};
use vai_workflow::load::MAX_FILE_BYTES;

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
    pub dir: Option<Arc<Dir>>,
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
    /// Every workflow: built-ins, examples, then files, each group by name. A file that cannot
    /// be read or parsed is listed with its `error`, so it does not silently vanish.
    pub fn list(&self) -> Vec<WorkflowSummary> {
        let mut out: Vec<WorkflowSummary> = self
            .entries
            .iter()
            .map(|e| summarise(&id_of(e.source, &e.name), &e.name, e.source, &e.text))
            .collect();
        for name in self.files() {
            out.push(match self.read_file(&name) {
                Ok(text) => file_summary(&name, &text),
                Err(e) => WorkflowSummary {
                    error: Some(e.to_string()),
                    ..summarise(
                        &id_of(WorkflowSource::File, &name),
                        stem_of(&name),
                        WorkflowSource::File,
                        "",
                    )
                },
            });
        }
        out
    }

    /// The directory files are listed from and saved into, if any.
    pub fn dir(&self) -> Option<&Dir> {
        self.dir.as_deref()
    }

    /// Whether `id` names a workflow of this library now: a built-in or example by name, or a
    /// file the directory's listing returns. Nothing is read.
    pub fn contains(&self, id: &str) -> bool {
        match id.split_once(':') {
            Some(("builtin", name)) => self.entry(WorkflowSource::Builtin, name).is_some(),
            Some(("example", name)) => self.entry(WorkflowSource::Example, name).is_some(),
            Some(("file", name)) => self.files().iter().any(|f| f == name),
            _ => false,
        }
    }

    fn entry(&self, source: WorkflowSource, name: &str) -> Option<&LibraryEntry> {
        self.entries
            .iter()
            .find(|e| e.source == source && e.name == name)
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
                let entry = self.entry(source, name).ok_or_else(not_found)?;
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
                (
                    WorkflowSource::File,
                    stem_of(&listed).to_string(),
                    Cow::Owned(text),
                )
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

    /// Names of the regular files (not links, not directories) in the directory ending in
    /// `.vai-workflow.json`, sorted.
    fn files(&self) -> Vec<String> {
        let Some(dir) = &self.dir else {
            return Vec::new();
        };
        let Ok(entries) = dir.entries() else {
            return Vec::new();
        };
        let mut names: Vec<String> = entries
            .into_iter()
            .filter(|e| e.is_file)
            .map(|e| e.name)
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
        read_listed(dir, name).map_err(|e| LibraryError::Read(e.to_string()))
    }
}

/// Read the workflow file `name` of `dir`: never through a symbolic link (one may have replaced
/// the file since the directory was listed), only a regular file of at most `MAX_FILE_BYTES`,
/// in UTF-8.
pub fn read_listed(dir: &Dir, name: &str) -> Result<String, FileError> {
    let bytes = dir
        .read(name, MAX_FILE_BYTES)?
        .ok_or_else(|| FileError::Io {
            action: "read",
            name: name.into(),
            source: std::io::ErrorKind::NotFound.into(),
        })?;
    String::from_utf8(bytes).map_err(|_| FileError::Io {
        action: "read",
        name: name.into(),
        source: std::io::Error::new(std::io::ErrorKind::InvalidData, "it is not UTF-8 text"),
    })
}

/// The summary of the workflow file `name` holding `text`.
pub fn file_summary(name: &str, text: &str) -> WorkflowSummary {
    summarise(
        &id_of(WorkflowSource::File, name),
        stem_of(name),
        WorkflowSource::File,
        text,
    )
}

fn stem_of(name: &str) -> &str {
    name.strip_suffix(FILE_SUFFIX).unwrap_or(name)
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
    let (value, error) = match vai_workflow::load::parse_json(text) {
        Ok(value) => (value, None),
        Err(d) => (Value::Null, Some(d.to_string())),
    };
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
        error,
    }
}

/// `workflow` steps find their children in the library: a file beside the calling workflow
/// (`name.vai-workflow.json`, or `name` itself when it ends in `.json`), else a built-in, else
/// an example, by name. Only names the directory's listing returns are read.
impl vai_workflow::Children for Library {
    fn load(&self, name: &str) -> Result<(String, Value), String> {
        let listed = self.files_any_json();
        let file = if name.ends_with(".json") {
            listed.iter().find(|f| *f == name)
        } else {
            let full = format!("{name}{FILE_SUFFIX}");
            listed.iter().find(|f| **f == full)
        };
        let (label, text) = if let Some(file) = file {
            let dir = self.dir.as_ref().ok_or("no directory")?;
            let text = read_listed(dir, file).map_err(|e| e.to_string())?;
            (file.clone(), Cow::Owned(text))
        } else if let Some(entry) = self
            .entry(WorkflowSource::Builtin, name)
            .or_else(|| self.entry(WorkflowSource::Example, name))
        {
            (entry.name.clone(), Cow::Borrowed(&*entry.text))
        } else {
            let beside = match &self.dir {
                Some(dir) => format!("no {name}{FILE_SUFFIX} in {}", dir.path().display()),
                None => "no file beside it".to_string(),
            };
            return Err(format!(
                "there is no workflow \"{name}\": {beside}, and no built-in of that name"
            ));
        };
        let value = vai_workflow::load::parse_json(&text).map_err(|d| format!("{label}: {d}"))?;
        Ok((label, value))
    }
}

impl Library {
    /// Names of the regular `*.json` files directly in the directory.
    fn files_any_json(&self) -> Vec<String> {
        let Some(dir) = &self.dir else {
            return Vec::new();
        };
        dir.entries()
            .unwrap_or_default()
            .into_iter()
            .filter(|e| e.is_file && e.name.ends_with(".json"))
            .map(|e| e.name)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn scratch(name: &str) -> (PathBuf, Dir) {
        let dir = std::env::temp_dir().join(format!("vai-library-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let handle = Dir::open(&dir).unwrap();
        (dir, handle)
    }

    /// A name listed a moment ago may have become a link since: it is not followed.
    #[test]
    fn a_link_that_replaced_a_listed_file_is_not_read() {
        let (path, dir) = scratch("link");
        std::fs::write(path.join("secret.txt"), "top secret").unwrap();
        std::fs::write(path.join("w.vai-workflow.json"), "{}").unwrap();
        assert_eq!(read_listed(&dir, "w.vai-workflow.json").unwrap(), "{}");
        std::fs::remove_file(path.join("w.vai-workflow.json")).unwrap();
        std::os::unix::fs::symlink(path.join("secret.txt"), path.join("w.vai-workflow.json"))
            .unwrap();
        let e = read_listed(&dir, "w.vai-workflow.json").unwrap_err();
        assert!(matches!(e, FileError::NotAFile { .. }), "{e}");
        assert!(!e.to_string().contains("top secret"));
    }

    #[test]
    fn directories_and_oversized_files_are_refused() {
        let (path, dir) = scratch("sizes");
        std::fs::create_dir(path.join("d.vai-workflow.json")).unwrap();
        assert!(matches!(
            read_listed(&dir, "d.vai-workflow.json").unwrap_err(),
            FileError::NotAFile { .. }
        ));
        let big = vec![b' '; MAX_FILE_BYTES as usize + 1];
        std::fs::write(path.join("big.vai-workflow.json"), big).unwrap();
        let e = read_listed(&dir, "big.vai-workflow.json").unwrap_err();
        assert!(e.to_string().contains("limited to 5242880 bytes"), "{e}");
    }

    #[test]
    fn only_ids_of_what_the_library_holds_are_contained() {
        let (path, dir) = scratch("contains");
        std::fs::write(path.join("w.vai-workflow.json"), "{}").unwrap();
        std::fs::create_dir(path.join("sub")).unwrap();
        std::fs::write(path.join("sub/x.vai-workflow.json"), "{}").unwrap();
        let library = Library {
            entries: vec![LibraryEntry {
                name: "rag".into(),
                source: WorkflowSource::Builtin,
                text: Cow::Borrowed("{}"),
            }],
            dir: Some(Arc::new(dir)),
        };
        assert!(library.contains("builtin:rag"));
        assert!(library.contains("file:w.vai-workflow.json"));
        for foreign in [
            "example:rag",
            "builtin:nope",
            "file:sub/x.vai-workflow.json",
            "file:./w.vai-workflow.json",
            "file:../w.vai-workflow.json",
            "file:./../../../../etc/w2.vai-workflow.json",
            "w.vai-workflow.json",
        ] {
            assert!(!library.contains(foreign), "{foreign}");
        }
    }

    #[test]
    fn versions_are_the_sha256_prefix() {
        // The SHA-256 test vector of "abc".
        assert_eq!(version_of(b"abc"), "ba7816bf8f01cfea");
    }
}
