//! The workflow library: built-ins and examples handed in as data by the composition root, and
//! the `*.vai-workflow.json` files directly in one directory. A file is read only when a fresh
//! listing of the directory returns its name, never through a symbolic link, and only when it
//! is a regular file within the size limit; no path from a request ever reaches the disk.

use serde_json::Value;
use std::borrow::Cow;
use std::fs::{File, OpenOptions};
use std::io::Read;
use std::path::{Path, PathBuf};
use vai_contract::{WorkflowDocument, WorkflowSource, WorkflowSummary};
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
    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
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
        read_listed(dir, name).map_err(|e| LibraryError::Read(e.to_string()))
    }
}

/// Why a listed file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error("{name} is not a regular file (a link or a directory)")]
    NotAFile { name: String },
    #[error("{name} is {bytes} bytes; workflow files are limited to {MAX_FILE_BYTES} bytes")]
    TooLarge { name: String, bytes: u64 },
    #[error("cannot read {name}: {source}")]
    Io {
        name: String,
        source: std::io::Error,
    },
}

/// Read the file `name` of `dir`: never through a symbolic link (one may have replaced the
/// file since the directory was listed), only a regular file, at most `MAX_FILE_BYTES`.
pub fn read_listed(dir: &Path, name: &str) -> Result<String, ReadError> {
    let io = |source: std::io::Error| {
        if source.raw_os_error() == Some(libc::ELOOP) {
            ReadError::NotAFile { name: name.into() }
        } else {
            ReadError::Io {
                name: name.into(),
                source,
            }
        }
    };
    let mut file = open_no_follow(&dir.join(name)).map_err(io)?;
    let meta = file.metadata().map_err(io)?;
    if !meta.is_file() {
        return Err(ReadError::NotAFile { name: name.into() });
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(ReadError::TooLarge {
            name: name.into(),
            bytes: meta.len(),
        });
    }
    let mut text = String::new();
    // Read at most one byte past the limit, in case the file grows after the check.
    (&mut file)
        .take(MAX_FILE_BYTES + 1)
        .read_to_string(&mut text)
        .map_err(io)?;
    if text.len() as u64 > MAX_FILE_BYTES {
        return Err(ReadError::TooLarge {
            name: name.into(),
            bytes: text.len() as u64,
        });
    }
    Ok(text)
}

/// Open for reading, refusing to follow a symbolic link in the last component.
pub fn open_no_follow(path: &Path) -> std::io::Result<File> {
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW);
    }
    options.open(path)
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

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("vai-library-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// A name listed a moment ago may have become a link since: it is not followed.
    #[cfg(unix)]
    #[test]
    fn a_link_that_replaced_a_listed_file_is_not_read() {
        let dir = scratch("link");
        std::fs::write(dir.join("secret.txt"), "top secret").unwrap();
        std::fs::write(dir.join("w.vai-workflow.json"), "{}").unwrap();
        assert_eq!(read_listed(&dir, "w.vai-workflow.json").unwrap(), "{}");
        std::fs::remove_file(dir.join("w.vai-workflow.json")).unwrap();
        std::os::unix::fs::symlink(dir.join("secret.txt"), dir.join("w.vai-workflow.json"))
            .unwrap();
        let e = read_listed(&dir, "w.vai-workflow.json").unwrap_err();
        assert!(matches!(e, ReadError::NotAFile { .. }), "{e}");
        assert!(!e.to_string().contains("top secret"));
    }

    #[test]
    fn directories_and_oversized_files_are_refused() {
        let dir = scratch("sizes");
        std::fs::create_dir(dir.join("d.vai-workflow.json")).unwrap();
        assert!(matches!(
            read_listed(&dir, "d.vai-workflow.json").unwrap_err(),
            ReadError::NotAFile { .. }
        ));
        let big = vec![b' '; MAX_FILE_BYTES as usize + 1];
        std::fs::write(dir.join("big.vai-workflow.json"), big).unwrap();
        let e = read_listed(&dir, "big.vai-workflow.json").unwrap_err();
        assert!(e.to_string().contains("limited to 5242880 bytes"), "{e}");
    }

    #[test]
    fn versions_are_the_sha256_prefix() {
        // The SHA-256 test vector of "abc".
        assert_eq!(version_of(b"abc"), "ba7816bf8f01cfea");
    }
}
