//! The client's configuration file: read and merged with vai's entry in memory, then written
//! back atomically after a backup of the old one.

use super::clients::SERVER_NAME;
use super::error::InstallError;
use super::plan::Plan;
use serde_json::{Map, Value};
use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use vai_workflow::fsutil::{self, FileError};

/// Permission bits for a new project file: it is meant to be committed and shared.
pub(super) const SHARED_FILE: u32 = 0o644;

/// Largest configuration file read: clients' files are a few kilobytes.
const MAX_CONFIG_BYTES: u64 = 1024 * 1024;

/// What merging the entry does to the file.
#[derive(Debug, PartialEq)]
pub(super) enum Change {
    NewFile,
    Add,
    Replace { previous: Value },
    Same,
}

/// The file as it is now, and as it would be with the entry.
pub(super) struct Merged {
    old: Option<Vec<u8>>,
    pub(super) doc: Map<String, Value>,
    pub(super) change: Change,
}

/// Reads the file (absent or blank → `{}`) and merges the entry into it, in memory.
pub(super) fn merge_file(plan: &Plan) -> Result<Merged, InstallError> {
    let path = &plan.file;
    // Only a regular file of at most 1 MiB: `/dev/zero` would fill memory, and a FIFO would
    // wait for a writer for ever.
    let old = match fsutil::read_user_file(path, MAX_CONFIG_BYTES) {
        Ok(bytes) => Some(bytes),
        Err(FileError::Io { source, .. }) if source.kind() == io::ErrorKind::NotFound => None,
        Err(FileError::Io { source, .. }) => {
            return Err(InstallError::Read {
                path: path.clone(),
                source,
            });
        }
        Err(refused) => return Err(InstallError::NotAConfigFile(refused)),
    };
    let mut doc = match old.as_deref() {
        None => Map::new(),
        Some(bytes) if bytes.iter().all(u8::is_ascii_whitespace) => Map::new(),
        Some(bytes) => match serde_json::from_slice(bytes) {
            Ok(Value::Object(doc)) => doc,
            Ok(_) => return Err(InstallError::NotObject(path.clone())),
            Err(source) => {
                return Err(InstallError::NotJson {
                    path: path.clone(),
                    source,
                });
            }
        },
    };
    let key = plan.target.container();
    let change =
        merge(&mut doc, key, &plan.entry).ok_or_else(|| InstallError::ContainerNotObject {
            path: path.clone(),
            key,
        })?;
    let change = if old.is_none() {
        Change::NewFile
    } else {
        change
    };
    Ok(Merged { old, doc, change })
}

/// Fields of an earlier `vai` entry that describe another transport (an HTTP server): the new
/// entry drops them. Its other fields (`env`, `disabled`, …) are the user's and are kept.
const TRANSPORT_FIELDS: [&str; 4] = ["type", "url", "serverUrl", "headers"];

/// Puts the entry under `doc[container]["vai"]`, leaving every other key where it was; `None`
/// when `container` is there but not an object.
pub(super) fn merge(
    doc: &mut Map<String, Value>,
    container: &str,
    entry: &Value,
) -> Option<Change> {
    let servers = doc
        .entry(container)
        .or_insert_with(|| Value::Object(Map::new()))
        .as_object_mut()?;
    let Some(previous) = servers.get(SERVER_NAME) else {
        servers.insert(SERVER_NAME.into(), entry.clone());
        return Some(Change::Add);
    };
    let mut new = match previous {
        Value::Object(fields) => fields.clone(),
        _ => Map::new(),
    };
    new.retain(|key, _| !TRANSPORT_FIELDS.contains(&key.as_str()));
    new.extend(
        entry
            .as_object()
            .into_iter()
            .flatten()
            .map(|(k, v)| (k.clone(), v.clone())),
    );
    let new = Value::Object(new);
    if *previous == new {
        return Some(Change::Same);
    }
    let previous = previous.clone();
    // With serde_json's `preserve_order`, replacing a key keeps its place.
    servers.insert(SERVER_NAME.into(), new);
    Some(Change::Replace { previous })
}

/// Backs up an existing file, then replaces it atomically (a symlink's target is written, so a
/// dotfiles link stays a link). Returns the backup's path.
pub(super) fn write_file(plan: &Plan, merged: &Merged) -> Result<Option<PathBuf>, InstallError> {
    let named = &plan.file;
    let path = match fs::symlink_metadata(named) {
        Ok(meta) if meta.file_type().is_symlink() => {
            fs::canonicalize(named).map_err(|source| InstallError::Write {
                path: named.clone(),
                source,
            })?
        }
        _ => named.clone(),
    };
    let write_error = |source| InstallError::Write {
        path: path.clone(),
        source,
    };
    let (backup, mode) = match &merged.old {
        Some(bytes) => {
            let mode = file_mode(&path).map_err(write_error)?;
            (Some(backup(&path, bytes)?), mode)
        }
        None => {
            if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                fs::create_dir_all(dir).map_err(write_error)?;
            }
            let mode = if plan.shared {
                SHARED_FILE
            } else {
                fsutil::PRIVATE_FILE
            };
            (None, mode)
        }
    };
    let mut text = serde_json::to_string_pretty(&merged.doc)
        .map_err(io::Error::other)
        .map_err(write_error)?;
    text.push('\n');
    fsutil::write_atomic(&path, text.as_bytes(), mode).map_err(|e| match e {
        FileError::Io { source, .. } => write_error(source),
        refused => write_error(io::Error::other(refused)),
    })?;
    Ok(backup)
}

/// Copies `bytes` to the first free name of `<file>.bak`, `<file>.bak.1`, …, owner-only (the
/// file may hold other servers' keys).
fn backup(path: &Path, bytes: &[u8]) -> Result<PathBuf, InstallError> {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let mut n = 0;
    loop {
        let backup = path.with_file_name(match n {
            0 => format!("{name}.bak"),
            n => format!("{name}.bak.{n}"),
        });
        let mut options = OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, fsutil::PRIVATE_FILE);
        let written = options
            .open(&backup)
            .and_then(|mut file| file.write_all(bytes).and_then(|()| file.sync_all()));
        match written {
            Ok(()) => return Ok(backup),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists && n < 1000 => n += 1,
            Err(source) => {
                return Err(InstallError::Backup {
                    path: path.to_path_buf(),
                    backup,
                    source,
                });
            }
        }
    }
}

/// The permission bits the file has now, kept when it is replaced.
#[cfg(unix)]
fn file_mode(path: &Path) -> io::Result<u32> {
    use std::os::unix::fs::PermissionsExt;
    Ok(fs::metadata(path)?.permissions().mode() & 0o777)
}

#[cfg(not(unix))]
fn file_mode(_path: &Path) -> io::Result<u32> {
    Ok(fsutil::PRIVATE_FILE)
}
