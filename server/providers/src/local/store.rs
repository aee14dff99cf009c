//! `LocalStore`: the embedded vector store used when no MongoDB URI is configured — one SQLite
//! file on disk, MongoDB-shaped documents, exact cosine search served from an in-memory cache.

mod cache;
mod db;
mod rows;
mod search;
#[cfg(test)]
mod tests;

use crate::mql::Pipeline;
use crate::{
    CollectionInfo, Document, Namespace, ProviderError, ScoredDocument, VectorIndex,
    VectorIndexInfo, VectorQuery, VectorStore,
};
use async_trait::async_trait;
use cache::VectorCache;
use db::{FileIdentity, PROVIDER, sql_error, vanished};
use rows::{IdGenerator, encode, restore, row_parts};
use rusqlite::{Connection, ErrorCode, OptionalExtension, TransactionBehavior, params};
use serde_json::Value;
use std::collections::HashMap;
use std::ffi::OsString;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, RwLock, RwLockReadGuard, RwLockWriteGuard};

/// File name of the store inside the data directory.
const FILE_NAME: &str = "store.sqlite3";
/// Field holding the embeddings of a collection created by an insert (before any index names
/// one).
const DEFAULT_VECTOR_PATH: &str = "embedding";
/// The largest vector an index may declare (Atlas's limit).
const MAX_DIMENSIONS: usize = 8192;

/// The embedded, persistent vector store (`name()` = "local").
///
/// - **On disk**: one SQLite file (WAL mode), by default [`LocalStore::default_path`]. Databases
///   and collections are namespaces inside it. Each document is kept as the JSON it was inserted
///   as (with a string `_id` added when missing, ObjectId-shaped), except that the embedding is
///   stored beside it as little-endian `f32`s — documents read back with the same fields in the
///   same order, the embedding as a JSON array of `f32` values.
/// - **Opening** checks an existing file read-only first (`PRAGMA quick_check`, and that vai
///   created it). A file that is not a SQLite database, is damaged or belongs to another program
///   is refused with an error naming it and how to recover; it is never written to, overwritten
///   or deleted. A missing file (and its directory) is created. A file moved or deleted while
///   open is noticed before the next operation, which fails instead of writing into the void.
/// - **Search is exact**: every vector of the collection's size that passes the filter is scored;
///   the score is Atlas's for cosine indexes, `(1 + cosine) / 2`. Vectors are loaded lazily per
///   collection into memory (unit length, contiguous, with their documents for filtering), kept
///   current by reading only the rows added since (by this or another process), and scanned on
///   every core. `num_candidates` is ignored: nothing is approximated.
/// - **Filters and pipelines** are the MongoDB subset of [`crate::mql`]; anything else is
///   refused with an error. Each collection has one vector field (the first index's path, or
///   `embedding`); filters do not see it, as Atlas filters cannot either.
/// - Documents are only ever appended; the store never deletes.
pub struct LocalStore {
    inner: Arc<Inner>,
}

struct Inner {
    path: PathBuf,
    identity: Option<FileIdentity>,
    /// Lock order: `conn`, then `caches`, then one cache. Searches scan holding only the cache's
    /// read lock, so they never wait for the connection while holding a cache.
    conn: Mutex<Connection>,
    caches: Mutex<Caches>,
    ids: IdGenerator,
}

/// The search cache of each collection, per vector size.
type Caches = HashMap<(Namespace, usize), Arc<RwLock<VectorCache>>>;

impl fmt::Debug for LocalStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LocalStore")
            .field("path", &self.inner.path)
            .finish_non_exhaustive()
    }
}

impl LocalStore {
    /// Open the store at `path`, creating the file and its parent directories when missing.
    /// Blocks while an existing file is checked.
    pub fn open(path: &Path) -> Result<Self, ProviderError> {
        let conn = db::open(path)?;
        Ok(LocalStore {
            inner: Arc::new(Inner {
                path: path.to_path_buf(),
                identity: FileIdentity::of(path),
                conn: Mutex::new(conn),
                caches: Mutex::new(HashMap::new()),
                ids: IdGenerator::new(),
            }),
        })
    }

    /// Where the store lives unless told otherwise: `$VAI_DATA_DIR/store.sqlite3`, else
    /// `$XDG_DATA_HOME/vai/store.sqlite3`, else `$HOME/.local/share/vai/store.sqlite3` (on
    /// Windows `%LOCALAPPDATA%\vai\store.sqlite3`).
    pub fn default_path() -> Result<PathBuf, ProviderError> {
        default_path_from(|name| std::env::var_os(name))
    }

    /// The file this store reads and writes.
    pub fn path(&self) -> &Path {
        &self.inner.path
    }

    /// The embedding stored with a document whose `text` is exactly `text`, among the
    /// collections searched so far at `dims` components (unit length).
    pub fn stored_vector(&self, text: &str, dims: usize) -> Option<Vec<f32>> {
        let caches: Vec<_> = self
            .inner
            .caches
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .filter(|((_, d), _)| *d == dims)
            .map(|(_, cache)| cache.clone())
            .collect();
        caches
            .iter()
            .find_map(|cache| read(cache).vector_of_text(text).map(<[f32]>::to_vec))
    }

    /// Run `f` on a blocking thread (SQLite calls and scans must not stall the async workers).
    async fn blocking<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Inner) -> Result<T, ProviderError> + Send + 'static,
    ) -> Result<T, ProviderError> {
        let inner = Arc::clone(&self.inner);
        tokio::task::spawn_blocking(move || f(&inner))
            .await
            .map_err(|e| ProviderError::other(PROVIDER, format!("store task failed: {e}")))?
    }
}

fn default_path_from(var: impl Fn(&str) -> Option<OsString>) -> Result<PathBuf, ProviderError> {
    let dir = |name: &str| var(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    if let Some(d) = dir("VAI_DATA_DIR") {
        return Ok(d.join(FILE_NAME));
    }
    // The XDG spec says to ignore relative values.
    if let Some(d) = dir("XDG_DATA_HOME").filter(|d| d.is_absolute()) {
        return Ok(d.join("vai").join(FILE_NAME));
    }
    if let Some(home) = dir("HOME") {
        return Ok(home.join(".local/share/vai").join(FILE_NAME));
    }
    if let Some(d) = dir("LOCALAPPDATA") {
        return Ok(d.join("vai").join(FILE_NAME));
    }
    Err(ProviderError::NotConfigured(
        "the local store needs a data directory: set VAI_DATA_DIR (or HOME)".into(),
    ))
}

#[async_trait]
impl VectorStore for LocalStore {
    fn name(&self) -> &str {
        PROVIDER
    }

    async fn vector_search(
        &self,
        query: VectorQuery,
    ) -> Result<Vec<ScoredDocument>, ProviderError> {
        self.blocking(move |inner| inner.vector_search(&query))
            .await
    }

    async fn insert(
        &self,
        namespace: &Namespace,
        documents: Vec<Document>,
    ) -> Result<u64, ProviderError> {
        let ns = namespace.clone();
        self.blocking(move |inner| inner.insert(&ns, documents))
            .await
    }

    async fn ensure_vector_index(
        &self,
        namespace: &Namespace,
        index: &VectorIndex,
    ) -> Result<bool, ProviderError> {
        let (ns, index) = (namespace.clone(), index.clone());
        self.blocking(move |inner| inner.ensure_vector_index(&ns, &index))
            .await
    }

    async fn list_collections(&self, db: &str) -> Result<Vec<CollectionInfo>, ProviderError> {
        let db = db.to_string();
        self.blocking(move |inner| inner.list_collections(&db))
            .await
    }

    async fn aggregate(
        &self,
        namespace: &Namespace,
        pipeline: Vec<Value>,
    ) -> Result<Vec<Value>, ProviderError> {
        let ns = namespace.clone();
        self.blocking(move |inner| inner.aggregate(&ns, &pipeline))
            .await
    }
}

impl Inner {
    /// The connection, once the file is known to still be the one opened. `db` is the database
    /// the caller works on, named in the error (which may reach a step: it holds no path).
    fn connection(&self, db: &str) -> Result<MutexGuard<'_, Connection>, ProviderError> {
        let conn = self.conn.lock().unwrap_or_else(|e| e.into_inner());
        if self.identity.is_none() || FileIdentity::of(&self.path) != self.identity {
            return Err(vanished(db));
        }
        Ok(conn)
    }

    fn insert(&self, ns: &Namespace, documents: Vec<Document>) -> Result<u64, ProviderError> {
        check_namespace(ns)?;
        if documents.is_empty() {
            return Ok(0);
        }
        let count = documents.len() as u64;
        let mut conn = self.connection(&ns.db)?;
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| sql_error("insert documents", e))?;
        let vector_path = ensure_collection(&tx, ns, DEFAULT_VECTOR_PATH)?;
        {
            let mut stmt = tx
                .prepare_cached(
                    "INSERT INTO documents (db, collection, id, doc, embedding) \
                     VALUES (?1, ?2, ?3, ?4, ?5)",
                )
                .map_err(|e| sql_error("insert documents", e))?;
            for doc in documents {
                let (id, text, blob) = encode(doc, &vector_path, &self.ids);
                stmt.execute(params![ns.db, ns.collection, id, text, blob])
                    .map_err(|e| match e.sqlite_error_code() {
                        Some(ErrorCode::ConstraintViolation) => {
                            invalid(format!("duplicate _id {id} in {ns}; nothing was inserted"))
                        }
                        _ => sql_error("insert documents", e),
                    })?;
            }
        }
        tx.commit().map_err(|e| sql_error("insert documents", e))?;
        Ok(count)
    }

    fn ensure_vector_index(
        &self,
        ns: &Namespace,
        index: &VectorIndex,
    ) -> Result<bool, ProviderError> {
        check_namespace(ns)?;
        if index.name.is_empty() {
            return Err(invalid("a vector index needs a name"));
        }
        if index.path.is_empty()
            || index.path.contains('.')
            || index.path.starts_with('$')
            || index.path == "_id"
        {
            return Err(invalid(format!(
                "the local store indexes a top-level field, not \"{}\"",
                index.path
            )));
        }
        if !(1..=MAX_DIMENSIONS).contains(&index.dimensions) {
            return Err(invalid(format!(
                "a vector index has 1 to {MAX_DIMENSIONS} dimensions, not {}",
                index.dimensions
            )));
        }
        let mut conn = self.connection(&ns.db)?;
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| sql_error("create the vector index", e))?;
        let sql = |e| sql_error("create the vector index", e);
        let vector_path = ensure_collection(&tx, ns, &index.path)?;
        if vector_path != index.path {
            let used: i64 = tx
                .query_row(
                    "SELECT (SELECT count(*) FROM documents WHERE db = ?1 AND collection = ?2) \
                          + (SELECT count(*) FROM vector_indexes WHERE db = ?1 AND collection = ?2)",
                    params![ns.db, ns.collection],
                    |r| r.get(0),
                )
                .map_err(sql)?;
            if used > 0 {
                return Err(invalid(format!(
                    "{ns} keeps its vectors in \"{vector_path}\"; the local store has one vector \
                     field per collection, so it cannot index \"{}\" too",
                    index.path
                )));
            }
            tx.execute(
                "UPDATE collections SET vector_path = ?3 WHERE db = ?1 AND name = ?2",
                params![ns.db, ns.collection, index.path],
            )
            .map_err(sql)?;
        }
        let created = tx
            .execute(
                "INSERT OR IGNORE INTO vector_indexes (db, collection, name, path, dimensions) \
                 VALUES (?1, ?2, ?3, ?4, ?5)",
                params![
                    ns.db,
                    ns.collection,
                    index.name,
                    index.path,
                    index.dimensions as i64
                ],
            )
            .map_err(sql)?
            == 1;
        tx.commit().map_err(sql)?;
        Ok(created)
    }

    fn list_collections(&self, db: &str) -> Result<Vec<CollectionInfo>, ProviderError> {
        let conn = self.connection(db)?;
        let sql = |e| sql_error("list collections", e);
        let mut stmt = conn
            .prepare_cached(
                "SELECT c.name, \
                   (SELECT count(*) FROM documents d WHERE d.db = c.db AND d.collection = c.name), \
                   i.name, i.path, i.dimensions \
                 FROM collections c \
                 LEFT JOIN vector_indexes i ON i.rowid = (SELECT min(rowid) FROM vector_indexes \
                   WHERE db = c.db AND collection = c.name) \
                 WHERE c.db = ?1 ORDER BY c.name",
            )
            .map_err(sql)?;
        let rows = stmt
            .query_map([db], |r| {
                let index = match r.get::<_, Option<String>>(2)? {
                    Some(name) => Some(VectorIndexInfo {
                        name,
                        path: r.get(3)?,
                        dimensions: r.get::<_, Option<i64>>(4)?.map(|d| d as usize),
                    }),
                    None => None,
                };
                Ok(CollectionInfo {
                    name: r.get(0)?,
                    document_count: r.get::<_, i64>(1)? as u64,
                    vector_index: index,
                })
            })
            .map_err(sql)?;
        rows.collect::<Result<_, _>>().map_err(sql)
    }

    fn aggregate(&self, ns: &Namespace, pipeline: &[Value]) -> Result<Vec<Value>, ProviderError> {
        let pipeline = Pipeline::parse(pipeline).map_err(|e| invalid(e.to_string()))?;
        check_namespace(ns)?;
        let conn = self.connection(&ns.db)?;
        let Some(vector_path) = vector_path(&conn, ns)? else {
            return Ok(to_values(pipeline.run(Vec::new())));
        };
        let sql = |e| sql_error("read documents", e);
        let mut stmt = conn
            .prepare_cached(
                "SELECT seq, doc, embedding FROM documents \
                 WHERE db = ?1 AND collection = ?2 ORDER BY seq",
            )
            .map_err(sql)?;
        let mut rows = stmt.query(params![ns.db, ns.collection]).map_err(sql)?;
        let mut failure = None;
        // Documents are read one at a time, so `[{$match}, {$limit: n}]` stops early.
        let docs = std::iter::from_fn(|| {
            let next = rows.next().map_err(sql).and_then(|row| {
                row.map(|row| {
                    let (seq, text, blob) = row_parts(row)?;
                    restore(seq, text, blob, &vector_path)
                })
                .transpose()
            });
            next.unwrap_or_else(|e| {
                failure = Some(e);
                None
            })
        });
        let out = pipeline.run(docs);
        match failure {
            Some(e) => Err(e),
            None => Ok(to_values(out)),
        }
    }
}

fn to_values(docs: Vec<Document>) -> Vec<Value> {
    docs.into_iter().map(Value::Object).collect()
}

fn invalid(message: impl Into<String>) -> ProviderError {
    ProviderError::invalid_request(PROVIDER, message)
}

fn check_namespace(ns: &Namespace) -> Result<(), ProviderError> {
    if ns.db.is_empty() || ns.collection.is_empty() {
        return Err(invalid(format!(
            "database and collection names must not be empty (\"{ns}\")"
        )));
    }
    Ok(())
}

/// The collection's vector field, or `None` when the collection does not exist.
fn vector_path(conn: &Connection, ns: &Namespace) -> Result<Option<String>, ProviderError> {
    conn.query_row(
        "SELECT vector_path FROM collections WHERE db = ?1 AND name = ?2",
        params![ns.db, ns.collection],
        |r| r.get(0),
    )
    .optional()
    .map_err(|e| sql_error("read collections", e))
}

/// Create the collection if missing (with `vector_path` as its vector field); its vector field.
fn ensure_collection(
    conn: &Connection,
    ns: &Namespace,
    vector_path: &str,
) -> Result<String, ProviderError> {
    conn.execute(
        "INSERT OR IGNORE INTO collections (db, name, vector_path) VALUES (?1, ?2, ?3)",
        params![ns.db, ns.collection, vector_path],
    )
    .map_err(|e| sql_error("create the collection", e))?;
    self::vector_path(conn, ns)?
        .ok_or_else(|| ProviderError::other(PROVIDER, "collection vanished"))
}

fn read<T>(lock: &RwLock<T>) -> RwLockReadGuard<'_, T> {
    lock.read().unwrap_or_else(|e| e.into_inner())
}

fn write<T>(lock: &RwLock<T>) -> RwLockWriteGuard<'_, T> {
    lock.write().unwrap_or_else(|e| e.into_inner())
}
