//! Telling a connected client when the workflow tools change: while it is connected, the
//! workflow directory's listing (each file's name, size, modification time and inode) is read
//! every two seconds, and when it differs from the last one `notifications/tools/list_changed`
//! and `notifications/resources/list_changed` go out. A change this client made itself is told
//! at once. Polling a listing costs a directory read; it needs no file-watching dependency and
//! behaves the same on every platform.

use rmcp::{Peer, RoleServer};
use std::sync::Arc;
use std::time::{Duration, SystemTime};
use tokio::sync::Mutex;
use tokio_util::sync::CancellationToken;
use vai_runtime::FILE_SUFFIX;
use vai_workflow::fsutil::Dir;

/// How often the directory is looked at.
const EVERY: Duration = Duration::from_secs(2);

/// One file as the listing sees it.
type FileStamp = (String, u64, Option<SystemTime>, u64);

/// The watch of one connection.
pub(crate) struct Watch {
    dir: Option<Arc<Dir>>,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    last: Option<Vec<FileStamp>>,
    peer: Option<Peer<RoleServer>>,
}

impl Watch {
    /// A watch that takes the directory as it is now as seen: the client lists tools after
    /// this, so a change from here on is one it has not seen.
    pub(crate) fn new(dir: Option<Arc<Dir>>) -> Self {
        let last = dir.as_deref().map(stamps);
        Self {
            dir,
            state: Mutex::new(State { last, peer: None }),
        }
    }

    /// Begin watching for `peer` (once), until it disconnects or `closing` fires.
    pub(crate) fn start(self: &Arc<Self>, peer: Peer<RoleServer>, closing: CancellationToken) {
        let watch = self.clone();
        tokio::spawn(async move {
            {
                let mut state = watch.state.lock().await;
                if state.peer.is_some() {
                    return;
                }
                state.peer = Some(peer.clone());
            }
            let Some(_) = &watch.dir else { return };
            loop {
                tokio::select! {
                    () = tokio::time::sleep(EVERY) => {}
                    () = closing.cancelled() => return,
                }
                if peer.is_transport_closed() {
                    return;
                }
                let now = watch.stamps().await;
                let mut state = watch.state.lock().await;
                if state.last.as_ref() != Some(&now) {
                    state.last = Some(now);
                    if notify(&peer).await.is_err() {
                        return;
                    }
                }
            }
        });
    }

    /// This client changed the directory: tell it now, and take the new listing as seen.
    pub(crate) async fn changed(&self) {
        let now = self.stamps().await;
        let mut state = self.state.lock().await;
        state.last = Some(now);
        if let Some(peer) = &state.peer {
            let _ = notify(peer).await;
        }
    }

    async fn stamps(&self) -> Vec<FileStamp> {
        let Some(dir) = self.dir.clone() else {
            return Vec::new();
        };
        tokio::task::spawn_blocking(move || stamps(&dir))
            .await
            .unwrap_or_default()
    }
}

async fn notify(peer: &Peer<RoleServer>) -> Result<(), rmcp::ServiceError> {
    peer.notify_tool_list_changed().await?;
    peer.notify_resource_list_changed().await
}

/// The workflow files of `dir`, sorted by name.
fn stamps(dir: &Dir) -> Vec<FileStamp> {
    let Ok(entries) = dir.entries() else {
        return Vec::new();
    };
    let mut out: Vec<FileStamp> = entries
        .into_iter()
        .filter(|e| e.name.ends_with(FILE_SUFFIX))
        .map(|e| (e.name, e.len, e.modified, e.inode))
        .collect();
    out.sort();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_replaced_file_changes_the_listing() {
        let dir = std::env::temp_dir().join(format!("vai-mcp-watch-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let handle = Dir::open(&dir).unwrap();
        assert!(stamps(&handle).is_empty());
        std::fs::write(dir.join("a.vai-workflow.json"), "{}").unwrap();
        std::fs::write(dir.join("notes.txt"), "x").unwrap();
        let first = stamps(&handle);
        assert_eq!(first.len(), 1);
        // Replaced the way saves replace files: a new file renamed over the old one.
        std::fs::write(dir.join("tmp"), "{}").unwrap();
        std::fs::rename(dir.join("tmp"), dir.join("a.vai-workflow.json")).unwrap();
        assert_ne!(stamps(&handle), first);
    }
}
