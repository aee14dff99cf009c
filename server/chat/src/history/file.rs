//! Sessions in files: one `<id>.json` per session in a directory beside the local store
//! (`~/.local/share/vai/chat/`), each replaced atomically when a turn is added, so a crash
//! leaves the session as it was before the turn or after it, never half of it.

use super::{History, HistoryError, MAX_LISTED, check_id, summary_of, with_turn};
use async_trait::async_trait;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tokio::sync::Mutex;
use vai_contract::{ChatSession, ChatSessionSummary, ChatTurn};
use vai_workflow::fsutil::{Dir, FileError, FileMode, OverLink};

/// A session file larger than this is not read (it was not written by vai).
const MAX_FILE_BYTES: u64 = 32 * 1024 * 1024;

#[derive(Debug, Clone)]
pub struct FileHistory {
    dir: PathBuf,
    /// One writer at a time, so two turns of one session cannot both read the old file.
    lock: Arc<Mutex<()>>,
}

impl FileHistory {
    /// Sessions in `dir` (created on the first write).
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        FileHistory {
            dir: dir.into(),
            lock: Arc::new(Mutex::new(())),
        }
    }

    /// The directory beside the local store's file: `<data dir>/chat`.
    pub fn default_dir() -> Result<PathBuf, HistoryError> {
        let store = vai_providers::local::store::LocalStore::default_path()
            .map_err(|e| HistoryError::Store(e.to_string()))?;
        Ok(store
            .parent()
            .map_or_else(|| PathBuf::from("chat"), |p| p.join("chat")))
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    async fn blocking<T: Send + 'static>(
        &self,
        work: impl FnOnce(&Path) -> Result<T, HistoryError> + Send + 'static,
    ) -> Result<T, HistoryError> {
        let dir = self.dir.clone();
        tokio::task::spawn_blocking(move || work(&dir))
            .await
            .map_err(|e| HistoryError::Store(e.to_string()))?
    }
}

fn file_name(id: &str) -> String {
    format!("{id}.json")
}

/// The directory's handle; `None` when it does not exist (yet).
fn open(dir: &Path) -> Result<Option<Dir>, HistoryError> {
    match Dir::open(dir) {
        Ok(handle) => Ok(Some(handle)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(HistoryError::Store(format!("{}: {e}", dir.display()))),
    }
}

/// The session `id` of `dir`; `None` when there is no such file.
fn read(dir: &Dir, id: &str) -> Result<Option<ChatSession>, HistoryError> {
    let path = dir.path().join(file_name(id));
    let bytes = dir
        .read(&file_name(id), MAX_FILE_BYTES)
        .map_err(|e| match e {
            FileError::TooLarge { .. } => HistoryError::Store(format!(
                "{} is larger than {} MB",
                path.display(),
                MAX_FILE_BYTES / (1024 * 1024)
            )),
            e => HistoryError::Store(format!("{}: {e}", dir.path().display())),
        })?;
    bytes
        .map(|bytes| {
            serde_json::from_slice(&bytes).map_err(|e| {
                HistoryError::Store(format!("{} is not a chat session: {e}", path.display()))
            })
        })
        .transpose()
}

#[async_trait]
impl History for FileHistory {
    fn kind(&self) -> &'static str {
        "local"
    }

    async fn load(&self, id: &str) -> Result<Option<ChatSession>, HistoryError> {
        check_id(id)?;
        let id = id.to_string();
        self.blocking(move |dir| match open(dir)? {
            Some(handle) => read(&handle, &id),
            None => Ok(None),
        })
        .await
    }

    async fn append(&self, id: &str, turn: &ChatTurn) -> Result<(), HistoryError> {
        check_id(id)?;
        let _writer = self.lock.lock().await;
        let id = id.to_string();
        let turn = turn.clone();
        self.blocking(move |dir| {
            let handle = Dir::create_private(dir)
                .map_err(|e| HistoryError::Store(format!("{}: {e}", dir.display())))?;
            let session = with_turn(read(&handle, &id)?, &id, &turn);
            let bytes =
                serde_json::to_vec(&session).map_err(|e| HistoryError::Store(e.to_string()))?;
            handle
                .write(
                    &file_name(&id),
                    &bytes,
                    FileMode::KeepOrPrivate,
                    OverLink::Refuse,
                )
                .map_err(|e| HistoryError::Store(e.to_string()))
        })
        .await
    }

    async fn list(&self) -> Result<Vec<ChatSessionSummary>, HistoryError> {
        self.blocking(|dir| {
            let Some(handle) = open(dir)? else {
                return Ok(Vec::new());
            };
            let entries = handle
                .entries()
                .map_err(|e| HistoryError::Store(format!("{}: {e}", dir.display())))?;
            // Newest files first, so only the sessions listed are parsed.
            let mut files: Vec<(std::time::SystemTime, String)> = entries
                .into_iter()
                .filter(|entry| entry.is_file)
                .filter_map(|entry| {
                    let id = entry.name.strip_suffix(".json")?.to_string();
                    check_id(&id).ok()?;
                    Some((entry.modified?, id))
                })
                .collect();
            files.sort_by_key(|f| std::cmp::Reverse(f.0));
            let mut sessions: Vec<ChatSessionSummary> = files
                .iter()
                .take(MAX_LISTED)
                // A file that cannot be read is left out of the list, not fatal to it.
                .filter_map(|(_, id)| read(&handle, id).ok().flatten())
                .map(|s| summary_of(&s))
                .collect();
            sessions.sort_by_key(|s| std::cmp::Reverse(s.updated_at));
            Ok(sessions)
        })
        .await
    }

    async fn delete(&self, id: &str) -> Result<bool, HistoryError> {
        check_id(id)?;
        let _writer = self.lock.lock().await;
        let id = id.to_string();
        self.blocking(move |dir| {
            let Some(handle) = open(dir)? else {
                return Ok(false);
            };
            match handle.remove(&file_name(&id)) {
                Ok(()) => Ok(true),
                Err(FileError::Io { source, .. })
                    if source.kind() == std::io::ErrorKind::NotFound =>
                {
                    Ok(false)
                }
                Err(e) => Err(HistoryError::Store(e.to_string())),
            }
        })
        .await
    }
}
