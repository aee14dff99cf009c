//! Changing the workflow files of the library's directory: save (in the stable text form, never
//! over a file that changed since it was read), rename and delete. One change at a time, so
//! checking a version and replacing the file are never interleaved with another change; every
//! write is atomic and goes through the library's directory handle (`Dir::write`), so a reader
//! sees the old file or the new one, and nothing is written anywhere else.

use crate::library::{FILE_SUFFIX, Library, file_summary, id_of, version_of};
use serde_json::Value;
use std::sync::Mutex;
use vai_contract::{WorkflowSource, WorkflowSummary};
use vai_workflow::fsutil::{Dir, FileError, FileMode, OverLink};
use vai_workflow::load::MAX_FILE_BYTES;

/// Longest file stem accepted.
const MAX_STEM: usize = 100;

/// A workflow to write into the directory.
#[derive(Debug, Clone)]
pub struct SaveRequest {
    /// `<stem>` or `<stem>.vai-workflow.json`; a name, never a path.
    pub file_name: String,
    pub definition: Value,
    /// The version that was read; `None` for a new file.
    pub base_version: Option<String>,
    /// Write even when the file changed on disk or already exists.
    pub overwrite: bool,
}

/// A file as written.
#[derive(Debug, Clone)]
pub struct Saved {
    pub id: String,
    pub version: String,
    pub summary: WorkflowSummary,
}

/// Why a change was refused.
#[derive(Debug, thiserror::Error)]
pub enum SaveError {
    #[error("there is no workflow directory to write into")]
    NoDirectory,
    #[error("{0}")]
    InvalidName(String),
    #[error("{0}")]
    TooLarge(String),
    /// The file exists, changed since it was read, or is not a regular file.
    #[error("{0}")]
    Conflict(String),
    #[error("no workflow file named {0}")]
    NotFound(String),
    #[error("{0}")]
    Io(String),
}

impl From<FileError> for SaveError {
    fn from(e: FileError) -> Self {
        match e {
            FileError::NotAFile { .. } | FileError::NotADirectory { .. } => {
                SaveError::Conflict(e.to_string())
            }
            FileError::NotAName { .. } => SaveError::InvalidName(e.to_string()),
            FileError::TooLarge { .. } => SaveError::TooLarge(e.to_string()),
            FileError::Io { .. } => SaveError::Io(e.to_string()),
        }
    }
}

/// Write `bytes` as the file `name` of `dir` (atomically, never over a link; an existing file
/// keeps its mode, a new one is the owner's only).
pub fn write_file(dir: &Dir, name: &str, bytes: &[u8]) -> Result<(), FileError> {
    dir.write(name, bytes, FileMode::KeepOrPrivate, OverLink::Refuse)
}

/// One change to the directory at a time, across every front end of this process.
static CHANGES: Mutex<()> = Mutex::new(());

fn one_change() -> std::sync::MutexGuard<'static, ()> {
    CHANGES.lock().unwrap_or_else(|e| e.into_inner())
}

impl Library {
    /// Write `request.definition` in its stable text form, unless the file on disk is not the
    /// one that was read (or exists, for a new file) and `overwrite` is not set. Blocking.
    pub fn save(&self, request: SaveRequest) -> Result<Saved, SaveError> {
        let dir = self.dir().ok_or(SaveError::NoDirectory)?;
        let name = file_name(&request.file_name)?;
        let text = vai_workflow::format::format(&request.definition);
        if text.len() as u64 > MAX_FILE_BYTES {
            return Err(SaveError::TooLarge(format!(
                "the workflow is {} bytes; workflow files are limited to {MAX_FILE_BYTES} bytes",
                text.len()
            )));
        }
        let summary = file_summary(&name, &text);
        let _one = one_change();
        if !request.overwrite
            && let Some(bytes) = current(dir, &name)?
        {
            match &request.base_version {
                None => {
                    return Err(SaveError::Conflict(format!(
                        "a file named {name} already exists; save under another name, or overwrite it"
                    )));
                }
                Some(base) if *base != version_of(&bytes) => {
                    return Err(SaveError::Conflict(format!(
                        "{name} changed on disk since it was opened; reload it, or save anyway to overwrite"
                    )));
                }
                Some(_) => {}
            }
        }
        write_file(dir, &name, text.as_bytes())?;
        Ok(Saved {
            id: id_of(WorkflowSource::File, &name),
            version: version_of(text.as_bytes()),
            summary,
        })
    }

    /// Remove the workflow file `file_name`, which must still hold `version`. Blocking.
    pub fn delete(&self, file_name: &str, version: &str) -> Result<(), SaveError> {
        let dir = self.dir().ok_or(SaveError::NoDirectory)?;
        let name = self::file_name(file_name)?;
        let _one = one_change();
        check_version(dir, &name, version)?;
        dir.remove(&name)?;
        sync_dir(dir)
    }

    /// Give the workflow file `from` (which must still hold `version`) the name `to`, which
    /// must not exist. Blocking.
    pub fn rename(&self, from: &str, to: &str, version: &str) -> Result<Saved, SaveError> {
        let dir = self.dir().ok_or(SaveError::NoDirectory)?;
        let from = file_name(from)?;
        let to = file_name(to)?;
        let _one = one_change();
        let text = check_version(dir, &from, version)?;
        // A hard link never replaces an existing name, so `to` is not clobbered even if it
        // appeared since it was checked; then the old name goes.
        dir.link(&from, &to).map_err(|e| match e {
            FileError::Io { source, .. } if source.kind() == std::io::ErrorKind::AlreadyExists => {
                SaveError::Conflict(format!("a file named {to} already exists"))
            }
            e => SaveError::Io(format!("cannot rename {from} to {to}: {e}")),
        })?;
        dir.remove(&from)
            .map_err(|e| SaveError::Io(format!("cannot remove {from} after renaming it: {e}")))?;
        sync_dir(dir)?;
        let text = String::from_utf8_lossy(&text);
        Ok(Saved {
            id: id_of(WorkflowSource::File, &to),
            version: version.to_string(),
            summary: file_summary(&to, &text),
        })
    }
}

/// The bytes of the file `name` (at most the file limit: a larger file was never read by a
/// client, so it cannot hold the version one read); `None` when there is none.
fn current(dir: &Dir, name: &str) -> Result<Option<Vec<u8>>, SaveError> {
    match dir.read(name, MAX_FILE_BYTES) {
        Err(FileError::TooLarge { .. }) => Err(SaveError::Conflict(format!(
            "{name} changed on disk: it is now larger than {MAX_FILE_BYTES} bytes"
        ))),
        read => Ok(read?),
    }
}

/// The bytes of the file `name`, which must exist and hold `version`.
fn check_version(dir: &Dir, name: &str, version: &str) -> Result<Vec<u8>, SaveError> {
    let bytes = current(dir, name)?.ok_or_else(|| SaveError::NotFound(name.into()))?;
    if version_of(&bytes) != version {
        return Err(SaveError::Conflict(format!(
            "{name} changed on disk since it was read (its version is now {}); read it again",
            version_of(&bytes)
        )));
    }
    Ok(bytes)
}

fn sync_dir(dir: &Dir) -> Result<(), SaveError> {
    dir.sync().map_err(|e| SaveError::Io(e.to_string()))
}

/// A file stem for a workflow named `name`: lower-cased letters and digits, every run of other
/// characters one `-`, at most `MAX_STEM` ("My RAG flow!" → "my-rag-flow"); `None` when the name
/// has no letter or digit to make one from.
pub fn stem_for(name: &str) -> Option<String> {
    let mut stem = String::new();
    for c in name.chars() {
        if stem.len() >= MAX_STEM {
            break;
        }
        if c.is_ascii_alphanumeric() {
            stem.push(c.to_ascii_lowercase());
        } else if !stem.is_empty() && !stem.ends_with('-') {
            stem.push('-');
        }
    }
    let stem = stem.trim_end_matches('-');
    (!stem.is_empty()).then(|| stem.to_string())
}

/// The file name a request names: `<stem>` or `<stem>.vai-workflow.json`, where the stem is a
/// plain name — never a path.
pub fn file_name(given: &str) -> Result<String, SaveError> {
    let stem = given.strip_suffix(FILE_SUFFIX).unwrap_or(given);
    let mut chars = stem.chars();
    let plain = chars.next().is_some_and(|c| c.is_ascii_alphanumeric())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | ' ' | '-'))
        && stem.len() <= MAX_STEM
        && !stem.contains("..");
    if !plain {
        return Err(SaveError::InvalidName(format!(
            "\"{given}\" is not a workflow file name: use letters, digits, spaces, '.', '_' and '-' (at most {MAX_STEM}, starting with a letter or digit), not a path"
        )));
    }
    Ok(format!("{stem}{FILE_SUFFIX}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn scratch(name: &str) -> Library {
        let dir = std::env::temp_dir().join(format!("vai-save-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Library {
            entries: Vec::new(),
            dir: Some(std::sync::Arc::new(Dir::open(&dir).unwrap())),
        }
    }

    fn request(name: &str, base: Option<&str>) -> SaveRequest {
        SaveRequest {
            file_name: name.into(),
            definition: json!({"name": name, "steps": []}),
            base_version: base.map(str::to_string),
            overwrite: false,
        }
    }

    #[test]
    fn stems_are_made_from_names() {
        assert_eq!(stem_for("My RAG flow!").as_deref(), Some("my-rag-flow"));
        assert_eq!(
            stem_for("Cost Check: Q3 (draft)").as_deref(),
            Some("cost-check-q3-draft")
        );
        assert_eq!(stem_for("  --  "), None);
        assert_eq!(stem_for("✓✓"), None);
        let long = stem_for(&"ab ".repeat(100)).unwrap();
        assert!(long.len() <= MAX_STEM && !long.ends_with('-'), "{long}");
        assert!(file_name(&long).is_ok());
    }

    #[test]
    fn file_names_are_names_not_paths() {
        assert_eq!(file_name("my flow").unwrap(), "my flow.vai-workflow.json");
        assert_eq!(
            file_name("rag.v2.vai-workflow.json").unwrap(),
            "rag.v2.vai-workflow.json"
        );
        for bad in [
            "",
            "../x",
            "a/b",
            "a\\b",
            ".hidden",
            "a..b",
            "x\n",
            "é",
            &"a".repeat(101),
            ".vai-workflow.json",
        ] {
            assert!(file_name(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn a_save_needs_the_version_it_read_and_a_stale_one_changes_nothing() {
        let library = scratch("versions");
        let first = library.save(request("w", None)).unwrap();
        assert!(matches!(
            library.save(request("w", None)).unwrap_err(),
            SaveError::Conflict(_)
        ));
        let second = library
            .save(SaveRequest {
                definition: json!({"name": "w2", "steps": []}),
                ..request("w", Some(&first.version))
            })
            .unwrap();
        let stale = library.save(request("w", Some(&first.version)));
        assert!(matches!(stale.unwrap_err(), SaveError::Conflict(_)));
        let doc = library.get("file:w.vai-workflow.json").unwrap();
        assert_eq!(doc.version, second.version);
        assert_eq!(doc.summary.name, "w2");
    }

    #[test]
    fn rename_and_delete_check_the_version_and_never_clobber() {
        let library = scratch("rename");
        let a = library.save(request("a", None)).unwrap();
        let b = library.save(request("b", None)).unwrap();
        assert!(matches!(
            library.rename("a", "b", &a.version).unwrap_err(),
            SaveError::Conflict(_)
        ));
        assert!(matches!(
            library.rename("a", "c", "0000").unwrap_err(),
            SaveError::Conflict(_)
        ));
        let c = library.rename("a", "c", &a.version).unwrap();
        assert_eq!(c.id, "file:c.vai-workflow.json");
        let ids: Vec<String> = library.list().into_iter().map(|w| w.id).collect();
        assert_eq!(
            ids,
            ["file:b.vai-workflow.json", "file:c.vai-workflow.json"]
        );
        assert!(matches!(
            library.delete("b", "0000").unwrap_err(),
            SaveError::Conflict(_)
        ));
        library.delete("b", &b.version).unwrap();
        assert!(matches!(
            library.delete("b", &b.version).unwrap_err(),
            SaveError::NotFound(_)
        ));
        assert!(library.delete("../etc/passwd", "x").is_err());
    }
}
