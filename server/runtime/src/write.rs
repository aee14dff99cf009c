//! Writing a file into the start directory so that a reader sees the old file or the new one,
//! never half of either, and nothing is written through a symbolic link: the bytes go to a
//! fresh temporary file (created exclusively, mode 0600, synced), which is renamed over the
//! target — a rename replaces the directory entry, it never follows it — and the directory is
//! synced so the rename survives a crash.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

/// Why a file could not be written.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    #[error("{name} is not a regular file (a link or a directory); vai does not write over it")]
    NotAFile { name: String },
    #[error("cannot write {name}: {source}")]
    Io {
        name: String,
        source: std::io::Error,
    },
}

/// The current contents of `dir/name`: `None` when there is no such file.
pub fn current(dir: &Path, name: &str) -> Result<Option<Vec<u8>>, WriteError> {
    let path = dir.join(name);
    let meta = match std::fs::symlink_metadata(&path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(source) => {
            return Err(WriteError::Io {
                name: name.into(),
                source,
            });
        }
    };
    if !meta.is_file() {
        return Err(WriteError::NotAFile { name: name.into() });
    }
    let mut file = crate::library::open_no_follow(&path).map_err(|source| WriteError::Io {
        name: name.into(),
        source,
    })?;
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(&mut file, &mut bytes).map_err(|source| WriteError::Io {
        name: name.into(),
        source,
    })?;
    Ok(Some(bytes))
}

/// Replace (or create) `dir/name` with `bytes`, atomically. An existing file keeps its
/// permissions; a new one is readable by its owner only.
pub fn atomic_write(dir: &Path, name: &str, bytes: &[u8]) -> Result<(), WriteError> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let io = |source| WriteError::Io {
        name: name.into(),
        source,
    };
    let target = dir.join(name);
    let existing = match std::fs::symlink_metadata(&target) {
        Ok(meta) if meta.is_file() => Some(meta.permissions()),
        Ok(_) => return Err(WriteError::NotAFile { name: name.into() }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(io(e)),
    };
    let temp = dir.join(format!(
        ".{name}.{}-{}.tmp",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    let result = (|| {
        let mut file = create_private(&temp)?;
        file.write_all(bytes)?;
        if let Some(permissions) = existing {
            file.set_permissions(permissions)?;
        }
        file.sync_all()?;
        drop(file);
        std::fs::rename(&temp, &target)?;
        // The rename is durable once the directory is.
        File::open(dir)?.sync_all()
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    result.map_err(io)
}

/// A new file only this user can read, failing if anything (a link included) has the name.
fn create_private(path: &Path) -> std::io::Result<File> {
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600).custom_flags(libc::O_NOFOLLOW);
    }
    options.open(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("vai-write-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn writes_replace_whole_files_and_leave_no_temporary_behind() {
        let dir = scratch("replace");
        assert_eq!(current(&dir, "a.json").unwrap(), None);
        atomic_write(&dir, "a.json", b"one").unwrap();
        atomic_write(&dir, "a.json", b"two").unwrap();
        assert_eq!(current(&dir, "a.json").unwrap().unwrap(), b"two");
        let names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["a.json"]);
    }

    #[cfg(unix)]
    #[test]
    fn new_files_are_private_and_existing_ones_keep_their_mode() {
        use std::os::unix::fs::PermissionsExt;
        let dir = scratch("modes");
        atomic_write(&dir, "new.json", b"x").unwrap();
        let mode = |n: &str| std::fs::metadata(dir.join(n)).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode("new.json"), 0o600);
        std::fs::write(dir.join("old.json"), "x").unwrap();
        std::fs::set_permissions(dir.join("old.json"), std::fs::Permissions::from_mode(0o644))
            .unwrap();
        atomic_write(&dir, "old.json", b"y").unwrap();
        assert_eq!(mode("old.json"), 0o644);
    }

    #[cfg(unix)]
    #[test]
    fn links_are_neither_read_nor_written_through() {
        let dir = scratch("links");
        std::fs::write(dir.join("target.txt"), "keep").unwrap();
        std::os::unix::fs::symlink(dir.join("target.txt"), dir.join("l.json")).unwrap();
        assert!(matches!(
            current(&dir, "l.json").unwrap_err(),
            WriteError::NotAFile { .. }
        ));
        assert!(matches!(
            atomic_write(&dir, "l.json", b"x").unwrap_err(),
            WriteError::NotAFile { .. }
        ));
        assert_eq!(
            std::fs::read_to_string(dir.join("target.txt")).unwrap(),
            "keep"
        );
    }
}
