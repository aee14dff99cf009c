//! Why `vai mcp install` wrote nothing, or would write nothing.

use std::io;
use std::path::PathBuf;

/// Why nothing was (or would be) written.
#[derive(Debug, thiserror::Error)]
pub(super) enum InstallError {
    #[error("{0} has no project-level configuration file; leave out --project")]
    NoProjectFile(&'static str),
    #[error("cannot tell where your home directory is: set HOME, or name the file with --config")]
    NoHome,
    #[error("the path of this executable is not UTF-8 and cannot go in a JSON file: {}", .0.display())]
    ExeNotUtf8(PathBuf),
    #[error("cannot read {}: {source}", path.display())]
    Read { path: PathBuf, source: io::Error },
    /// Not a regular file (a FIFO, a device, a directory), or larger than a configuration file.
    #[error("{0}; it was left as it is")]
    NotAConfigFile(vai_workflow::fsutil::FileError),
    #[error("{} is not valid JSON ({source}); it was left as it is: fix it, or add the entry by hand", path.display())]
    NotJson {
        path: PathBuf,
        source: serde_json::Error,
    },
    #[error("{} does not hold a JSON object; it was left as it is", .0.display())]
    NotObject(PathBuf),
    #[error("\"{key}\" in {} is not a JSON object; it was left as it is", path.display())]
    ContainerNotObject { path: PathBuf, key: &'static str },
    #[error("cannot back up {} to {}: {source}", path.display(), backup.display())]
    Backup {
        path: PathBuf,
        backup: PathBuf,
        source: io::Error,
    },
    #[error("cannot write {}: {source}", path.display())]
    Write { path: PathBuf, source: io::Error },
}
