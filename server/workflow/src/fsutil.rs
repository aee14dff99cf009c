//! Files in a directory that belongs to the user — the playground's start directory and its
//! `tests/`, the user config, the chat history — reached through one open handle, [`Dir`].
//!
//! The directory is opened once; every later read, write, rename and delete is relative to that
//! handle (`openat`, `renameat`, `linkat`, `unlinkat`), so no path is resolved again after a
//! check: swapping the directory, or a name in it, for a symbolic link between a check and a
//! write cannot send the write anywhere else. Names are plain names, never paths; a link in the
//! last component is never followed.
//!
//! [`Dir::write`] replaces a file atomically: the bytes go to a new file created owner-only with
//! `O_EXCL` under an unpredictable name, which is synced and renamed over the target, and then
//! the directory is synced, so after a crash the target holds the old contents or the new, never
//! a mix or nothing. When anything fails the temporary file is removed.

use rustix::fs::{AtFlags, FileType, Mode, OFlags};
use std::fs::{self, File};
use std::hash::{BuildHasher, Hasher};
use std::io::{self, Read, Write};
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime};

/// Permission bits for files only their owner may read (keys, ingested documents).
pub const PRIVATE_FILE: u32 = 0o600;
/// Permission bits for directories vai creates to hold such files.
pub const PRIVATE_DIR: u32 = 0o700;

/// Why a file in a [`Dir`] could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    #[error("\"{name}\" is not a plain file name")]
    NotAName { name: String },
    #[error(
        "{name} is not a regular file (a link, a directory or a device); vai does not read or write through it"
    )]
    NotAFile { name: String },
    #[error("{name} is not a directory (vai does not follow links)")]
    NotADirectory { name: String },
    #[error("{name} is {bytes} bytes; it is limited to {limit} bytes")]
    TooLarge {
        name: String,
        bytes: u64,
        limit: u64,
    },
    #[error("cannot {action} {name}: {source}")]
    Io {
        action: &'static str,
        name: String,
        source: io::Error,
    },
}

impl FileError {
    fn io(action: &'static str, name: &str, source: impl Into<io::Error>) -> Self {
        FileError::Io {
            action,
            name: name.into(),
            source: source.into(),
        }
    }
}

/// What a write does when the name is taken by something that is not a regular file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OverLink {
    /// Refuse ([`FileError::NotAFile`]): the user's own link is left alone.
    Refuse,
    /// Replace the link itself (never what it points to): for vai's own files, such as the user
    /// config, where a link can only have been planted.
    Replace,
}

/// The permission bits a written file ends with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileMode {
    /// An existing file keeps its mode; a new one is [`PRIVATE_FILE`].
    KeepOrPrivate,
    /// Exactly these bits.
    Exactly(u32),
}

/// One entry of a directory, as `lstat` sees it (a link is a link, not what it points to).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub name: String,
    pub is_file: bool,
    pub len: u64,
    pub modified: Option<SystemTime>,
    pub inode: u64,
}

/// An open directory; every operation is relative to it.
#[derive(Debug)]
pub struct Dir {
    fd: OwnedFd,
    /// For messages only: nothing is ever opened by this path again.
    path: PathBuf,
}

impl Dir {
    /// Open the directory at `path`. Links in `path` are followed: the user named it.
    pub fn open(path: &Path) -> io::Result<Dir> {
        let fd = rustix::fs::open(
            path,
            OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
            Mode::empty(),
        )?;
        Ok(Dir {
            fd,
            path: path.to_path_buf(),
        })
    }

    /// Create `path` and its missing parents (each new one owner-only), then open it.
    pub fn create_private(path: &Path) -> io::Result<Dir> {
        create_private_dir_all(path)?;
        Dir::open(path)
    }

    /// Where the directory was when it was opened (for messages).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The subdirectory `name`, never through a link; created (with `mode`, less the umask) when
    /// `create` is given and it does not exist.
    pub fn sub(&self, name: &str, create: Option<u32>) -> Result<Dir, FileError> {
        plain(name)?;
        if let Some(mode) = create {
            match rustix::fs::mkdirat(&self.fd, name, Mode::from_raw_mode(mode)) {
                Ok(()) | Err(rustix::io::Errno::EXIST) => {}
                Err(e) => return Err(FileError::io("create", name, e)),
            }
        }
        let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        match rustix::fs::openat(&self.fd, name, flags, Mode::empty()) {
            Ok(fd) => Ok(Dir {
                fd,
                path: self.path.join(name),
            }),
            Err(rustix::io::Errno::LOOP | rustix::io::Errno::NOTDIR) => {
                Err(FileError::NotADirectory { name: name.into() })
            }
            Err(e) => Err(FileError::io("open", name, e)),
        }
    }

    /// Every entry's name (skipping names that are not UTF-8), with what `lstat` says of it.
    pub fn entries(&self) -> io::Result<Vec<Entry>> {
        let mut out = Vec::new();
        for entry in rustix::fs::Dir::read_from(&self.fd)? {
            let entry = entry?;
            let Ok(name) = entry.file_name().to_str() else {
                continue;
            };
            if name == "." || name == ".." {
                continue;
            }
            // Gone between the listing and the look: not an entry any more.
            if let Ok(stat) = rustix::fs::statat(&self.fd, name, AtFlags::SYMLINK_NOFOLLOW) {
                #[allow(
                    clippy::unnecessary_cast,
                    reason = "the stat fields' integer types differ between platforms"
                )]
                out.push(Entry {
                    name: name.to_string(),
                    is_file: FileType::from_raw_mode(stat.st_mode) == FileType::RegularFile,
                    len: stat.st_size as u64,
                    modified: modified(stat.st_mtime as i64, stat.st_mtime_nsec as i64),
                    inode: stat.st_ino as u64,
                });
            }
        }
        Ok(out)
    }

    /// The contents of the regular file `name`, at most `limit` bytes; `None` when there is no
    /// such file. A link, a directory, a FIFO or a device is refused without reading it (and a
    /// FIFO without waiting for a writer); a file that grows past `limit` while it is read is
    /// refused too.
    pub fn read(&self, name: &str, limit: u64) -> Result<Option<Vec<u8>>, FileError> {
        plain(name)?;
        let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC;
        let fd = match rustix::fs::openat(&self.fd, name, flags, Mode::empty()) {
            Ok(fd) => fd,
            Err(rustix::io::Errno::NOENT) => return Ok(None),
            Err(rustix::io::Errno::LOOP) => return Err(FileError::NotAFile { name: name.into() }),
            Err(e) => return Err(FileError::io("read", name, e)),
        };
        read_regular(File::from(fd), name, limit).map(Some)
    }

    /// Replace (or create) the file `name` with `bytes`, atomically (see the module's comment).
    pub fn write(
        &self,
        name: &str,
        bytes: &[u8],
        mode: FileMode,
        over_link: OverLink,
    ) -> Result<(), FileError> {
        plain(name)?;
        let existing = match rustix::fs::statat(&self.fd, name, AtFlags::SYMLINK_NOFOLLOW) {
            Ok(stat) if FileType::from_raw_mode(stat.st_mode) == FileType::RegularFile => {
                Some(stat.st_mode & 0o7777)
            }
            Ok(_) if over_link == OverLink::Replace => None,
            Ok(_) => return Err(FileError::NotAFile { name: name.into() }),
            Err(rustix::io::Errno::NOENT) => None,
            Err(e) => return Err(FileError::io("write", name, e)),
        };
        let bits = match mode {
            FileMode::Exactly(bits) => bits,
            FileMode::KeepOrPrivate => existing.unwrap_or(PRIVATE_FILE),
        };
        let (temp, file) = self.create_temp(name)?;
        let written = (|| -> io::Result<()> {
            let mut file = file;
            file.write_all(bytes)?;
            if bits != PRIVATE_FILE {
                rustix::fs::fchmod(&file, Mode::from_raw_mode(bits))?;
            }
            file.sync_all()?;
            drop(file);
            rustix::fs::renameat(&self.fd, &temp, &self.fd, name)?;
            Ok(())
        })();
        if let Err(e) = written {
            let _ = rustix::fs::unlinkat(&self.fd, &temp, AtFlags::empty());
            return Err(FileError::io("write", name, e));
        }
        self.sync().map_err(|e| FileError::io("write", name, e))
    }

    /// Create the owner-only file `name`, which must not exist, open for appending.
    pub fn create_new(&self, name: &str) -> Result<File, FileError> {
        plain(name)?;
        let flags = OFlags::WRONLY
            | OFlags::APPEND
            | OFlags::CREATE
            | OFlags::EXCL
            | OFlags::NOFOLLOW
            | OFlags::CLOEXEC;
        rustix::fs::openat(&self.fd, name, flags, Mode::from_raw_mode(PRIVATE_FILE))
            .map(File::from)
            .map_err(|e| FileError::io("create", name, e))
    }

    /// The existing regular file `name`, open for appending; `None` when there is none. A link
    /// or anything but a regular file is refused.
    pub fn open_append(&self, name: &str) -> Result<Option<File>, FileError> {
        plain(name)?;
        let flags =
            OFlags::WRONLY | OFlags::APPEND | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC;
        let fd = match rustix::fs::openat(&self.fd, name, flags, Mode::empty()) {
            Ok(fd) => fd,
            Err(rustix::io::Errno::NOENT) => return Ok(None),
            Err(rustix::io::Errno::LOOP) => return Err(FileError::NotAFile { name: name.into() }),
            Err(e) => return Err(FileError::io("open", name, e)),
        };
        let stat = rustix::fs::fstat(&fd).map_err(|e| FileError::io("open", name, e))?;
        if FileType::from_raw_mode(stat.st_mode) != FileType::RegularFile {
            return Err(FileError::NotAFile { name: name.into() });
        }
        Ok(Some(File::from(fd)))
    }

    /// Give the file `from` the additional name `to`, which must not exist (a hard link never
    /// replaces a name, and never follows a link at `from`).
    pub fn link(&self, from: &str, to: &str) -> Result<(), FileError> {
        plain(from)?;
        plain(to)?;
        rustix::fs::linkat(&self.fd, from, &self.fd, to, AtFlags::empty())
            .map_err(|e| FileError::io("link", to, e))
    }

    /// Remove the name `name` (a link itself, never what it points to).
    pub fn remove(&self, name: &str) -> Result<(), FileError> {
        plain(name)?;
        rustix::fs::unlinkat(&self.fd, name, AtFlags::empty())
            .map_err(|e| FileError::io("delete", name, e))
    }

    /// Make the directory's entries durable (after a rename, link or delete).
    pub fn sync(&self) -> io::Result<()> {
        rustix::fs::fsync(&self.fd).map_err(Into::into)
    }

    /// A new, empty, owner-only file named after `name`, opened with `O_EXCL`.
    fn create_temp(&self, name: &str) -> Result<(String, File), FileError> {
        let flags = OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW;
        let mut attempts = 0;
        loop {
            let temp = format!(".{name}.{:016x}.tmp", unique());
            let mode = Mode::from_raw_mode(PRIVATE_FILE);
            match rustix::fs::openat(&self.fd, &temp, flags | OFlags::CLOEXEC, mode) {
                Ok(fd) => return Ok((temp, File::from(fd))),
                // Someone made that name first: the next one is as unpredictable.
                Err(rustix::io::Errno::EXIST) if attempts < 16 => attempts += 1,
                Err(e) => return Err(FileError::io("write", name, e)),
            }
        }
    }
}

/// `name` when it names an entry of a directory: not empty, not `.` or `..`, no `/`, no NUL.
fn plain(name: &str) -> Result<(), FileError> {
    if name.is_empty() || name == "." || name == ".." || name.contains(['/', '\0']) {
        return Err(FileError::NotAName { name: name.into() });
    }
    Ok(())
}

/// The contents of `file`, which must be a regular file of at most `limit` bytes.
fn read_regular(file: File, name: &str, limit: u64) -> Result<Vec<u8>, FileError> {
    let meta = file
        .metadata()
        .map_err(|e| FileError::io("read", name, e))?;
    if !meta.is_file() {
        return Err(FileError::NotAFile { name: name.into() });
    }
    if meta.len() > limit {
        return Err(FileError::TooLarge {
            name: name.into(),
            bytes: meta.len(),
            limit,
        });
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    // One byte past the limit at most, in case the file grows after the check.
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| FileError::io("read", name, e))?;
    if bytes.len() as u64 > limit {
        return Err(FileError::TooLarge {
            name: name.into(),
            bytes: bytes.len() as u64,
            limit,
        });
    }
    Ok(bytes)
}

/// The contents of the regular file at `path` (a path the user gave: links followed), at most
/// `limit` bytes. A FIFO, a device such as `/dev/zero` or a directory is refused without reading
/// it, and without waiting for a FIFO's writer.
pub fn read_user_file(path: &Path, limit: u64) -> Result<Vec<u8>, FileError> {
    let name = path.display().to_string();
    let flags = OFlags::RDONLY | OFlags::NONBLOCK | OFlags::CLOEXEC;
    let fd = rustix::fs::open(path, flags, Mode::empty())
        .map_err(|e| FileError::io("read", &name, e))?;
    read_regular(File::from(fd), &name, limit)
}

/// Replace the file at `path` with `contents` atomically, ending with permission bits `mode`
/// ([`PRIVATE_FILE`] for secrets): [`Dir::write`] in `path`'s directory, which must exist. A
/// symbolic link at `path` is replaced, not followed.
pub fn write_atomic(path: &Path, contents: &[u8], mode: u32) -> Result<(), FileError> {
    let (dir, name) = parent_of(path)?;
    dir.write(name, contents, FileMode::Exactly(mode), OverLink::Replace)
}

/// Replace the file at `path` (a path the user gave) with `contents`, atomically, through its
/// directory's handle: the file keeps its mode (a new one is the owner's only), and a symbolic
/// link at `path` is refused rather than followed or replaced. On any failure the file is as it
/// was and no temporary file is left.
pub fn replace_file(path: &Path, contents: &[u8]) -> Result<(), FileError> {
    let (dir, name) = parent_of(path)?;
    dir.write(name, contents, FileMode::KeepOrPrivate, OverLink::Refuse)
}

/// The directory holding `path`, opened, and the file's name in it.
fn parent_of(path: &Path) -> Result<(Dir, &str), FileError> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .ok_or_else(|| FileError::NotAName {
            name: path.display().to_string(),
        })?;
    let dir = Dir::open(dir).map_err(|e| FileError::io("open", &dir.display().to_string(), e))?;
    Ok((dir, name))
}

/// Create `dir` and its missing parents, each new one owner-only (`0700`). Directories that
/// already exist keep their permissions: they are the user's (a project, `$HOME`, `/etc`).
pub fn create_private_dir_all(dir: &Path) -> io::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    fs::DirBuilder::new()
        .recursive(true)
        .mode(PRIVATE_DIR)
        .create(dir)
}

fn modified(secs: i64, nanos: i64) -> Option<SystemTime> {
    let since = Duration::new(u64::try_from(secs).ok()?, u32::try_from(nanos).ok()?);
    SystemTime::UNIX_EPOCH.checked_add(since)
}

/// 64 bits no other process can guess: std's per-process random hash keys, mixed with a counter.
fn unique() -> u64 {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
    hasher.write_u32(std::process::id());
    hasher.finish()
}

#[cfg(test)]
mod tests;
