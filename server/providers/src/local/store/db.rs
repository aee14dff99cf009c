//! The store file: opening it without ever damaging what is there (integrity check, refusal of
//! files that are not vai stores), its schema, noticing when it is moved away, and the errors
//! that say how to recover.

use crate::ProviderError;
use rusqlite::{Connection, ErrorCode, TransactionBehavior};
use std::fs;
use std::path::Path;
use std::time::Duration;

pub(super) const PROVIDER: &str = "local";

/// Written into the SQLite header of every store (`PRAGMA application_id`): "vai1".
const APPLICATION_ID: i32 = 0x7661_6931;
/// `PRAGMA user_version` of the schema below.
const SCHEMA_VERSION: i32 = 1;

/// Documents are append-only (`seq` only grows), which is what lets the search caches catch up
/// by reading the rows past the last `seq` they hold. The embedding is kept out of `doc` as
/// little-endian f32s; `doc` keeps a `null` in its place so the field order survives.
const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS collections (
    db          TEXT NOT NULL,
    name        TEXT NOT NULL,
    vector_path TEXT NOT NULL,
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (db, name)
);
CREATE TABLE IF NOT EXISTS vector_indexes (
    db          TEXT NOT NULL,
    collection  TEXT NOT NULL,
    name        TEXT NOT NULL,
    path        TEXT NOT NULL,
    dimensions  INTEGER NOT NULL CHECK (dimensions > 0),
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (db, collection, name),
    FOREIGN KEY (db, collection) REFERENCES collections (db, name)
);
CREATE TABLE IF NOT EXISTS documents (
    seq         INTEGER PRIMARY KEY AUTOINCREMENT,
    db          TEXT NOT NULL,
    collection  TEXT NOT NULL,
    id          TEXT NOT NULL,
    doc         TEXT NOT NULL CHECK (json_valid(doc)),
    embedding   BLOB,
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    UNIQUE (db, collection, id),
    FOREIGN KEY (db, collection) REFERENCES collections (db, name)
);
CREATE INDEX IF NOT EXISTS documents_by_collection ON documents (db, collection, seq);
";

/// Open (or create) the store at `path`. An existing file is checked read-only first; if it is
/// not a SQLite database, is damaged or belongs to another program, the error says so and how to
/// recover, and the file is left exactly as it was.
pub(super) fn open(path: &Path) -> Result<Connection, ProviderError> {
    if path.is_dir() {
        return Err(unusable(path, "it is a directory"));
    }
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        create_private_dir_all(parent).map_err(|e| {
            ProviderError::other(
                PROVIDER,
                format!(
                    "cannot create the directory {} for the store file: {e}",
                    parent.display()
                ),
            )
        })?;
    }
    let existing = fs::metadata(path).is_ok_and(|m| m.len() > 0);
    if !existing {
        create_private_file(path).map_err(|e| {
            ProviderError::other(
                PROVIDER,
                format!("cannot create the store file {}: {e}", path.display()),
            )
        })?;
    }
    let conn = Connection::open(path).map_err(|e| {
        ProviderError::other(
            PROVIDER,
            format!("cannot open the store file {}: {e}", path.display()),
        )
    })?;
    conn.busy_timeout(Duration::from_secs(10))
        .map_err(|e| sql_error("configure", e))?;
    if existing {
        check(&conn, path)?;
    }
    // Stores written by earlier versions were readable by everyone.
    make_private(path);
    // Only now, with the file known to be ours (or new), does anything get written.
    conn.query_row("PRAGMA journal_mode = WAL", [], |_| Ok(()))
        .map_err(|e| sql_error("configure", e))?;
    conn.execute_batch("PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;")
        .map_err(|e| sql_error("configure", e))?;
    let mut conn = conn;
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(|e| sql_error("create the schema", e))?;
    tx.execute_batch(SCHEMA)
        .and_then(|()| tx.pragma_update(None, "application_id", APPLICATION_ID))
        .and_then(|()| tx.pragma_update(None, "user_version", SCHEMA_VERSION))
        .and_then(|()| tx.commit())
        .map_err(|e| sql_error("create the schema", e))?;
    Ok(conn)
}

/// Create `dir` and its missing parents owner-only (0700); existing directories keep their mode.
fn create_private_dir_all(dir: &Path) -> std::io::Result<()> {
    let mut builder = fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        builder.mode(0o700);
    }
    builder.create(dir)
}

/// Create the store file owner-only (0600) before SQLite opens it: SQLite gives its WAL and
/// shared-memory files the database file's mode, so they are private too. A file that appeared
/// meanwhile (another vai process) is left to the checks.
fn create_private_file(path: &Path) -> std::io::Result<()> {
    let mut options = fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    match options.open(path) {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(e),
    }
}

/// Take group and other permissions off an existing store and its WAL and shared-memory files
/// (they hold ingested documents). Best effort: a file vai may not chmod still opens.
fn make_private(path: &Path) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        for suffix in ["", "-wal", "-shm"] {
            let mut file = path.as_os_str().to_owned();
            file.push(suffix);
            let file = Path::new(&file);
            if let Ok(meta) = fs::symlink_metadata(file)
                && meta.is_file()
                && meta.permissions().mode() & 0o077 != 0
            {
                let mode = meta.permissions().mode() & 0o700;
                let _ = fs::set_permissions(file, fs::Permissions::from_mode(mode));
            }
        }
    }
    #[cfg(not(unix))]
    let _ = path;
}

/// Read-only checks of an existing file: SQLite's `quick_check`, then that it is a vai store of
/// a schema this build understands.
fn check(conn: &Connection, path: &Path) -> Result<(), ProviderError> {
    let describe = |e: rusqlite::Error| match e.sqlite_error_code() {
        Some(ErrorCode::NotADatabase) => "it is not a SQLite database".to_string(),
        Some(ErrorCode::DatabaseCorrupt) => format!("it is corrupted ({e})"),
        _ => format!("it cannot be read ({e})"),
    };
    let mut problems = Vec::new();
    let mut stmt = conn
        .prepare("PRAGMA quick_check(5)")
        .map_err(|e| unusable(path, &describe(e)))?;
    let rows = stmt
        .query_map([], |r| r.get::<_, String>(0))
        .map_err(|e| unusable(path, &describe(e)))?;
    for row in rows {
        problems.push(row.map_err(|e| unusable(path, &describe(e)))?);
    }
    if problems != ["ok"] {
        return Err(unusable(
            path,
            &format!("its integrity check failed ({})", problems.join("; ")),
        ));
    }
    let pragma = |name: &str| {
        conn.query_row(&format!("PRAGMA {name}"), [], |r| r.get::<_, i32>(0))
            .map_err(|e| unusable(path, &describe(e)))
    };
    let (app_id, version) = (pragma("application_id")?, pragma("user_version")?);
    let tables: i64 = conn
        .query_row("SELECT count(*) FROM sqlite_schema", [], |r| r.get(0))
        .map_err(|e| unusable(path, &describe(e)))?;
    if app_id != APPLICATION_ID && !(app_id == 0 && tables == 0) {
        return Err(unusable(
            path,
            "it is a SQLite database, but not one vai created",
        ));
    }
    if version > SCHEMA_VERSION {
        return Err(ProviderError::other(
            PROVIDER,
            format!(
                "the store file {} was written by a newer vai (schema {version}, this build \
                 reads up to {SCHEMA_VERSION}); upgrade vai to use it. The file was left \
                 untouched.",
                path.display()
            ),
        ));
    }
    Ok(())
}

/// The file at `path` cannot be used; nothing was written to it.
pub(super) fn unusable(path: &Path, reason: &str) -> ProviderError {
    let p = path.display();
    ProviderError::other(
        PROVIDER,
        format!(
            "the store file {p} cannot be used: {reason}. It was left untouched. Move it aside \
             (for example `mv {p} {p}.broken`) and vai will create a new, empty store in its \
             place; keep the moved file if you need to recover what it holds."
        ),
    )
}

/// A SQLite failure while doing `what`.
pub(super) fn sql_error(what: &str, e: rusqlite::Error) -> ProviderError {
    ProviderError::other(PROVIDER, format!("cannot {what} in the store: {e}"))
}

/// Which file the connection has open, to notice it being moved or deleted underneath us (SQLite
/// would keep writing to the unlinked file, and those writes would be lost on exit).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct FileIdentity(Option<(u64, u64)>);

impl FileIdentity {
    pub(super) fn of(path: &Path) -> Option<Self> {
        let meta = fs::metadata(path).ok()?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            Some(FileIdentity(Some((meta.dev(), meta.ino()))))
        }
        #[cfg(not(unix))]
        {
            let _ = meta;
            Some(FileIdentity(None))
        }
    }
}

/// The error for a store file that was moved or deleted while open. It names the database, not
/// the file: a step's error reaches the playground's browser, which must not see home paths
/// (`vai ping` and `vai workflow run --verbose` show where the file is).
pub(super) fn vanished(db: &str) -> ProviderError {
    ProviderError::other(
        PROVIDER,
        format!(
            "the local store holding database \"{db}\" was moved or deleted while vai was using \
             it; nothing more was written. Move the file back, or restart vai to create a new, \
             empty store (`vai ping` shows where the file is)."
        ),
    )
}
