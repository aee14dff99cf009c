//! Writing files that readers must never see half-written and others must never read: the user
//! config (API keys) and, in the playground, saved workflow files.
//!
//! [`write_atomic`] writes a new file beside the target — created owner-only with `O_EXCL` under
//! an unpredictable name, so nothing planted there (a symlink, a file another user can read) is
//! ever written through — syncs it, renames it over the target and syncs the directory, so after
//! a crash the target holds either the old contents or the new, never a mix or nothing.

use std::fs::{self, File, OpenOptions};
use std::hash::{BuildHasher, Hasher};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Permission bits for files only their owner may read (keys, ingested documents).
pub const PRIVATE_FILE: u32 = 0o600;
/// Permission bits for directories vai creates to hold such files.
pub const PRIVATE_DIR: u32 = 0o700;

/// Create `dir` and its missing parents, each new one owner-only (`0700`). Directories that
/// already exist keep their permissions: they are the user's (a project, `$HOME`, `/etc`).
pub fn create_private_dir_all(dir: &Path) -> io::Result<()> {
    let mut builder = fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        builder.mode(PRIVATE_DIR);
    }
    builder.create(dir)
}

/// Replace `path` with `contents` atomically; the file ends with permission bits `mode` (unix;
/// [`PRIVATE_FILE`] for secrets). The contents are written while the new file is owner-only, and
/// `mode` is applied just before the rename. A symlink at `path` is replaced, not followed. The
/// directory must exist. On failure the target is unchanged and no temporary file is left.
pub fn write_atomic(path: &Path, contents: &[u8], mode: u32) -> io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let (tmp, mut file) = create_temp_beside(path, dir)?;
    let written = (|| {
        file.write_all(contents)?;
        if mode != PRIVATE_FILE {
            set_mode(&file, mode)?;
        }
        file.sync_all()?;
        drop(file);
        fs::rename(&tmp, path)
    })();
    if let Err(e) = written {
        let _ = fs::remove_file(&tmp);
        return Err(e);
    }
    sync_dir(dir)
}

/// A new, empty, owner-only file in `dir` named after `path`, opened with `O_EXCL`.
fn create_temp_beside(path: &Path, dir: &Path) -> io::Result<(PathBuf, File)> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut attempts = 0;
    loop {
        let tmp = dir.join(format!(".{name}.{:016x}.tmp", unique()));
        let mut options = OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(PRIVATE_FILE);
        }
        match options.open(&tmp) {
            Ok(file) => return Ok((tmp, file)),
            // Someone made that name first: the next one is as unpredictable.
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists && attempts < 16 => attempts += 1,
            Err(e) => return Err(e),
        }
    }
}

/// 64 bits no other process can guess: std's per-process random hash keys, mixed with a counter.
fn unique() -> u64 {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
    hasher.write_u32(std::process::id());
    hasher.finish()
}

#[cfg(unix)]
fn set_mode(file: &File, mode: u32) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    file.set_permissions(fs::Permissions::from_mode(mode))
}

#[cfg(not(unix))]
fn set_mode(_file: &File, _mode: u32) -> io::Result<()> {
    Ok(())
}

/// Make the rename durable: sync the directory entry (unix; elsewhere renames are journaled by
/// the file system and a directory cannot be opened).
#[cfg(unix)]
fn sync_dir(dir: &Path) -> io::Result<()> {
    File::open(dir)?.sync_all()
}

#[cfg(not(unix))]
fn sync_dir(_dir: &Path) -> io::Result<()> {
    Ok(())
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;
    use std::sync::atomic::AtomicUsize;

    /// A scratch directory, removed when dropped.
    struct Scratch(PathBuf);

    impl Scratch {
        fn new() -> Self {
            static N: AtomicUsize = AtomicUsize::new(0);
            let dir = std::env::temp_dir().join(format!(
                "vai-fsutil-{}-{}",
                std::process::id(),
                N.fetch_add(1, Ordering::SeqCst)
            ));
            let _ = fs::remove_dir_all(&dir);
            fs::create_dir_all(&dir).unwrap();
            Scratch(dir)
        }
    }

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = fs::remove_dir_all(&self.0);
        }
    }

    fn mode(path: &Path) -> u32 {
        fs::symlink_metadata(path).unwrap().permissions().mode() & 0o777
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn writes_replace_the_file_with_the_mode_asked_and_leave_nothing_beside_it() {
        let s = Scratch::new();
        let path = s.0.join("config.json");
        fs::write(&path, "old").unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o644)).unwrap();
        write_atomic(&path, b"secret", PRIVATE_FILE).unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "secret");
        assert_eq!(mode(&path), 0o600, "a 0644 file holding a key is replaced");
        write_atomic(&path, b"shared", 0o644).unwrap();
        assert_eq!(mode(&path), 0o644);
        assert_eq!(names(&s.0), ["config.json"]);
    }

    #[test]
    fn a_symlink_at_the_target_is_replaced_not_written_through() {
        let s = Scratch::new();
        let elsewhere = s.0.join("elsewhere");
        let path = s.0.join("config.json");
        std::os::unix::fs::symlink(&elsewhere, &path).unwrap();
        write_atomic(&path, b"secret", PRIVATE_FILE).unwrap();
        assert!(!elsewhere.exists());
        assert!(fs::symlink_metadata(&path).unwrap().is_file());
        assert_eq!(fs::read_to_string(&path).unwrap(), "secret");
    }

    #[test]
    fn a_failed_write_leaves_the_target_and_no_temporary_file() {
        let s = Scratch::new();
        // Renaming a file over a non-empty directory fails.
        let path = s.0.join("taken");
        fs::create_dir_all(path.join("inside")).unwrap();
        assert!(write_atomic(&path, b"secret", PRIVATE_FILE).is_err());
        assert_eq!(names(&s.0), ["taken"]);
        assert!(write_atomic(&s.0.join("missing/dir/file"), b"x", PRIVATE_FILE).is_err());
    }

    #[test]
    fn only_directories_vai_creates_are_made_private() {
        let s = Scratch::new();
        fs::set_permissions(&s.0, fs::Permissions::from_mode(0o755)).unwrap();
        let deep = s.0.join("a/b");
        create_private_dir_all(&deep).unwrap();
        assert_eq!(mode(&s.0), 0o755, "an existing directory keeps its mode");
        assert_eq!(mode(&s.0.join("a")), 0o700);
        assert_eq!(mode(&deep), 0o700);
        create_private_dir_all(&deep).unwrap();
    }

    #[test]
    fn temporary_names_do_not_repeat() {
        let names: std::collections::HashSet<u64> = (0..1000).map(|_| unique()).collect();
        assert_eq!(names.len(), 1000);
    }
}
