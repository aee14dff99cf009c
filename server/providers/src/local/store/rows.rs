//! How documents sit in the `documents` table: the JSON without its embedding, the embedding as
//! little-endian f32s, a string id; and the ObjectId-shaped ids given to documents without one.

use super::db::{PROVIDER, sql_error};
use crate::{Document, ProviderError, vector_from_json, vector_to_json};
use serde_json::{Map, Value};
use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

/// A document as stored: its id text (a string `_id` as is, any other as JSON), its JSON with
/// `null` in place of the embedding, and the embedding as little-endian f32s. A field that is
/// not a non-empty array of finite numbers stays in the JSON and is simply not searchable.
pub(super) fn encode(
    mut doc: Document,
    vector_path: &str,
    ids: &IdGenerator,
) -> (String, String, Option<Vec<u8>>) {
    if !doc.contains_key("_id") {
        let mut with_id = Map::new();
        with_id.insert("_id".into(), Value::String(ids.next()));
        with_id.append(&mut doc);
        doc = with_id;
    }
    let mut blob = None;
    if let Some(field) = doc.get_mut(vector_path)
        && let Some(v) = vector_from_json(field)
        && !v.is_empty()
        && v.iter().all(|x| x.is_finite())
    {
        blob = Some(v.iter().flat_map(|x| x.to_le_bytes()).collect());
        *field = Value::Null;
    }
    let id = match &doc["_id"] {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    (id, Value::Object(doc).to_string(), blob)
}

/// The document as inserted: the stored JSON with its embedding put back.
pub(super) fn restore(
    seq: i64,
    text: &str,
    blob: Option<&[u8]>,
    vector_path: &str,
) -> Result<Document, ProviderError> {
    let mut doc = parse_document(seq, text)?;
    if let Some(blob) = blob {
        let v: Vec<f32> = blob
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        doc.insert(vector_path.to_string(), vector_to_json(&v));
    }
    Ok(doc)
}

pub(super) fn parse_document(seq: i64, text: &str) -> Result<Document, ProviderError> {
    match serde_json::from_str(text) {
        Ok(Value::Object(doc)) => Ok(doc),
        _ => Err(ProviderError::other(
            PROVIDER,
            format!("document #{seq} in the store is not a JSON object"),
        )),
    }
}

pub(super) fn row_parts<'r>(
    row: &'r rusqlite::Row<'_>,
) -> Result<(i64, &'r str, Option<&'r [u8]>), ProviderError> {
    let parts = || -> rusqlite::Result<_> {
        Ok((
            row.get::<_, i64>(0)?,
            row.get_ref(1)?.as_str()?,
            row.get_ref(2)?.as_blob_or_null()?,
        ))
    };
    parts().map_err(|e| sql_error("read documents", e))
}

/// ObjectId-shaped ids (24 hex digits): seconds since the epoch, five random bytes per process,
/// and a counter — unique across processes sharing a store without asking the file.
#[derive(Debug)]
pub(super) struct IdGenerator {
    process: u64,
    counter: AtomicU32,
}

impl IdGenerator {
    pub(super) fn new() -> Self {
        // `RandomState` is seeded from the OS: a source of randomness without a dependency.
        let mut h = RandomState::new().build_hasher();
        h.write_u128(
            SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos()),
        );
        let r = h.finish();
        IdGenerator {
            process: r & 0xff_ffff_ffff,
            counter: AtomicU32::new((r >> 40) as u32),
        }
    }

    pub(super) fn next(&self) -> String {
        let secs = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let count = self.counter.fetch_add(1, Ordering::Relaxed) & 0xff_ffff;
        format!("{:08x}{:010x}{count:06x}", secs as u32, self.process)
    }
}
