//! Exact vector search on the local store: validating the query against the collection's
//! index, bringing the collection's cache up to date with the file, and scoring.

use super::cache::{VectorCache, normalise};
use super::db::sql_error;
use super::rows::{parse_document, restore, row_parts};
use super::{Inner, invalid, read, vector_path, write};
use crate::mql::{Filter, project_fields};
use crate::{Document, Namespace, ProviderError, ScoredDocument, VectorQuery};
use rusqlite::{Connection, OptionalExtension, params};
use std::sync::{Arc, RwLock};

impl Inner {
    /// The `limit` best documents for `query` among those passing its filter, scored exactly.
    /// A missing collection has no hits; a missing index, a path or size that does not match
    /// it, or an unsupported filter is an invalid request.
    pub(super) fn vector_search(
        &self,
        query: &VectorQuery,
    ) -> Result<Vec<ScoredDocument>, ProviderError> {
        let ns = &query.namespace;
        let filter = query
            .filter
            .as_ref()
            .map(|f| Filter::parse(f).map_err(|e| invalid(format!("filter: {e}"))))
            .transpose()?;
        if query.vector.iter().any(|x| !x.is_finite()) {
            return Err(invalid("the query vector has a non-finite component"));
        }
        let (cache, vector_path) = {
            let conn = self.connection(&ns.db)?;
            let Some(vector_path) = vector_path(&conn, ns)? else {
                return Ok(Vec::new());
            };
            let index = conn
                .query_row(
                    "SELECT path, dimensions FROM vector_indexes \
                     WHERE db = ?1 AND collection = ?2 AND name = ?3",
                    params![ns.db, ns.collection, query.index],
                    |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?)),
                )
                .optional()
                .map_err(|e| sql_error("read the vector index", e))?;
            let Some((path, dims)) = index else {
                return Err(invalid(format!(
                    "{ns} has no vector index named \"{}\"",
                    query.index
                )));
            };
            let dims = usize::try_from(dims).unwrap_or(0);
            if path != query.path {
                return Err(invalid(format!(
                    "vector index \"{}\" covers \"{path}\", not \"{}\"",
                    query.index, query.path
                )));
            }
            if query.vector.len() != dims {
                return Err(invalid(format!(
                    "query vector has {} dimensions, index \"{}\" of {ns} has {dims}",
                    query.vector.len(),
                    query.index
                )));
            }
            (
                self.synced_cache(&conn, ns, dims, &vector_path)?,
                vector_path,
            )
        };
        let mut unit = query.vector.clone();
        normalise(&mut unit);
        let with_vector = query.fields.contains(&vector_path);
        let hits: Vec<(f64, i64, Document)> = {
            let c = read(&cache);
            c.top_k(&unit, query.limit, filter.as_ref())
                .into_iter()
                .map(|h| {
                    let score = ((1.0 + f64::from(h.score)) / 2.0).clamp(0.0, 1.0);
                    let doc = if with_vector {
                        Document::new()
                    } else {
                        project_fields(&c.docs[h.pos], &query.fields)
                    };
                    (score, c.seqs[h.pos], doc)
                })
                .collect()
        };
        if !with_vector {
            return Ok(hits
                .into_iter()
                .map(|(score, _, document)| ScoredDocument { document, score })
                .collect());
        }
        // The cache holds unit vectors; the stored ones come from the file.
        let conn = self.connection(&ns.db)?;
        let mut stmt = conn
            .prepare_cached("SELECT doc, embedding FROM documents WHERE seq = ?1")
            .map_err(|e| sql_error("read documents", e))?;
        hits.into_iter()
            .map(|(score, seq, _)| {
                let doc = stmt
                    .query_row([seq], |r| {
                        Ok((r.get::<_, String>(0)?, r.get::<_, Option<Vec<u8>>>(1)?))
                    })
                    .map_err(|e| sql_error("read documents", e))?;
                let doc = restore(seq, &doc.0, doc.1.as_deref(), &vector_path)?;
                Ok(ScoredDocument {
                    document: project_fields(&doc, &query.fields),
                    score,
                })
            })
            .collect()
    }

    /// The cache of `ns` at `dims`, caught up with the file: rows past the cache's last `seq`
    /// are read in (whoever wrote them). Called with the connection locked, so two searches
    /// never load the same rows twice.
    fn synced_cache(
        &self,
        conn: &Connection,
        ns: &Namespace,
        dims: usize,
        vector_path: &str,
    ) -> Result<Arc<RwLock<VectorCache>>, ProviderError> {
        let latest: i64 = conn
            .query_row(
                "SELECT coalesce(max(seq), 0) FROM documents WHERE db = ?1 AND collection = ?2",
                params![ns.db, ns.collection],
                |r| r.get(0),
            )
            .map_err(|e| sql_error("read documents", e))?;
        let cache = Arc::clone(
            self.caches
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .entry((ns.clone(), dims))
                .or_insert_with(|| Arc::new(RwLock::new(VectorCache::new(dims)))),
        );
        if read(&cache).max_seq == latest {
            return Ok(cache);
        }
        let mut c = write(&cache);
        if c.max_seq > latest {
            // Rows disappeared (the file was edited outside vai): start over.
            *c = VectorCache::new(dims);
        }
        let mut stmt = conn
            .prepare_cached(
                "SELECT seq, doc, embedding FROM documents \
                 WHERE db = ?1 AND collection = ?2 AND seq > ?3 ORDER BY seq",
            )
            .map_err(|e| sql_error("read documents", e))?;
        let mut rows = stmt
            .query(params![ns.db, ns.collection, c.max_seq])
            .map_err(|e| sql_error("read documents", e))?;
        while let Some(row) = rows.next().map_err(|e| sql_error("read documents", e))? {
            let (seq, text, blob) = row_parts(row)?;
            let mut doc = parse_document(seq, text)?;
            if blob.is_some() {
                doc.shift_remove(vector_path);
            }
            c.push(seq, doc, blob);
        }
        drop(c);
        Ok(cache)
    }
}
