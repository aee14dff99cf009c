//! The bundled sample knowledge base: the documents under `corpus/` (API docs, architecture
//! notes and RAG concepts of a fictional product), embedded in the binary, and `ensure_seeded`,
//! which loads them once into the `vai_demo` database so the built-in workflows run offline.

use crate::{
    Document, EmbedInputType, EmbedRequest, Embedder, Namespace, ProviderError, Settings,
    VectorIndex, VectorStore, vector_to_json,
};
use serde_json::{Map, Value, json};
use std::collections::BTreeSet;
use std::time::SystemTime;

/// The database the sample knowledge base is seeded into.
pub const SAMPLE_DB: &str = "vai_demo";

/// The sample collections, one per directory of `corpus/`.
pub const SAMPLE_COLLECTIONS: &[&str] = &["api_docs", "architecture", "rag_concepts"];

/// `metadata.corpus` of every sample document: tells them apart from documents users add to the
/// same collections.
const CORPUS_TAG: &str = "vai-sample";

/// Documents embedded per request while seeding.
const BATCH: usize = 32;

mod corpus;
mod vectors;

use corpus::version_of;
pub use corpus::{DOCS, SampleDoc, corpus_version};

/// What [`ensure_seeded`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeedReport {
    /// Whether this call inserted any document.
    pub seeded: bool,
    /// Documents inserted by this call.
    pub inserted: u64,
    /// Sample documents already stored as this build has them (text and embedding backend).
    pub present: u64,
    /// Vector indexes this call created.
    pub indexes_created: u64,
    /// `collection/slug` of stored sample documents that differ from this build's — edited since,
    /// embedded by another backend, or no longer in the corpus. They are left in place (the
    /// `VectorStore` trait cannot delete) and their slug is not inserted again, so a collection
    /// never holds two copies of one document; dropping the `vai_demo` database and seeding
    /// again replaces them.
    pub outdated: Vec<String>,
    /// [`corpus_version`] of this build.
    pub corpus_version: String,
}

/// Make sure `vai_demo` holds the sample corpus, embedded with `embedder`, with the vector index
/// the `query` and `search` tools use.
///
/// Each stored sample document carries `metadata.{collection, slug, corpus, corpusVersion,
/// contentHash, embedder}`. One aggregation per collection reads those markers; a document whose
/// slug is not stored yet is embedded (as a document, with the default embedding model, 32 per
/// request) and inserted, one chunk per document, after its collection's index is ensured. With
/// the local model, the vectors committed with the corpus ([`vectors`]) are used instead, once
/// the model has computed the first missing document's vector and it matches the committed one.
/// Everything else is left alone, so the second call is a no-op, an interrupted seed resumes
/// where it stopped, and a new corpus version adds its new documents without duplicating old
/// ones (see [`SeedReport::outdated`]). Two processes seeding the same store at the same moment
/// could both insert; callers seed once, at startup of the local backend.
pub async fn ensure_seeded(
    store: &dyn VectorStore,
    embedder: &dyn Embedder,
) -> Result<SeedReport, ProviderError> {
    seed(store, embedder, DOCS).await
}

async fn seed(
    store: &dyn VectorStore,
    embedder: &dyn Embedder,
    docs: &[SampleDoc],
) -> Result<SeedReport, ProviderError> {
    let version = version_of(docs);
    let backend = embedder.name().to_string();
    let (stored, current) = stored_markers(store, &backend).await?;

    let mut missing = Vec::new();
    let mut present = 0;
    let mut outdated = BTreeSet::new();
    for doc in docs {
        let key = doc.key();
        if current.contains(&(key.clone(), doc.content_hash())) {
            present += 1;
        } else if stored.contains(&key) {
            outdated.insert(key);
        } else {
            missing.push(doc);
        }
    }
    let listed: BTreeSet<String> = docs.iter().map(SampleDoc::key).collect();
    outdated.extend(stored.difference(&listed).cloned());

    let mut report = SeedReport {
        seeded: false,
        inserted: 0,
        present,
        indexes_created: 0,
        outdated: outdated.into_iter().collect(),
        corpus_version: version.clone(),
    };
    if missing.is_empty() {
        return Ok(report);
    }

    let settings = Settings::default();
    let embed = |texts: Vec<String>| {
        embedder.embed(EmbedRequest {
            texts,
            model: settings.default_embedding_model.clone(),
            input_type: Some(EmbedInputType::Document),
            dimensions: None,
        })
    };
    // The committed vectors stand in for the model's only once it has computed one of them.
    let mut known = vectors::committed(docs, &version, &backend);
    if let (Some(map), Some(probe)) = (&known, missing.first()) {
        let computed = embed(vec![probe.text.to_string()]).await?.embeddings;
        let same = map
            .get(&probe.key())
            .zip(computed.first())
            .is_some_and(|(committed, computed)| vectors::agree(computed, committed));
        if !same {
            known = None;
        }
    }
    let stamp = Stamp {
        corpus_version: &version,
        backend: &backend,
        embedding_field: &settings.embedding_field,
        created_at: Value::String(crate::rfc3339_utc(SystemTime::now())),
    };
    let mut dimensions = None;
    let mut indexed = BTreeSet::new();
    for batch in missing.chunks(BATCH) {
        let embeddings = match &known {
            Some(map) => batch
                .iter()
                .filter_map(|d| map.get(&d.key()).cloned())
                .collect(),
            None => {
                embed(batch.iter().map(|d| d.text.to_string()).collect())
                    .await?
                    .embeddings
            }
        };
        let dims = *dimensions.get_or_insert(embeddings.first().map_or(0, Vec::len));
        if embeddings.len() != batch.len()
            || dims == 0
            || embeddings.iter().any(|v| v.len() != dims)
        {
            return Err(ProviderError::other(
                &backend,
                format!(
                    "seeding {SAMPLE_DB}: got {} embeddings of inconsistent or empty size for {} \
                     documents",
                    embeddings.len(),
                    batch.len()
                ),
            ));
        }

        // Docs are listed collection by collection, so a batch is one run per collection it spans.
        let mut rest = batch.iter().zip(embeddings).peekable();
        while let Some((first, vector)) = rest.next() {
            let namespace = Namespace::new(SAMPLE_DB, first.collection);
            let mut documents = vec![stamp.document(first, &vector)];
            while let Some((doc, vector)) = rest.next_if(|(d, _)| d.collection == first.collection)
            {
                documents.push(stamp.document(doc, &vector));
            }
            // The index first, as the ingest tool does: documents never sit unsearchable.
            if indexed.insert(first.collection) {
                let index = VectorIndex {
                    name: settings.vector_index.clone(),
                    path: settings.embedding_field.clone(),
                    dimensions: dims,
                };
                if store.ensure_vector_index(&namespace, &index).await? {
                    report.indexes_created += 1;
                }
            }
            report.inserted += store.insert(&namespace, documents).await?;
            report.seeded = true;
        }
    }
    Ok(report)
}

/// The sample documents already stored, as `collection/slug`, and those of them stored with the
/// given text hash by `backend`, as (`collection/slug`, hash).
async fn stored_markers(
    store: &dyn VectorStore,
    backend: &str,
) -> Result<(BTreeSet<String>, BTreeSet<(String, String)>), ProviderError> {
    let mut stored = BTreeSet::new();
    let mut current = BTreeSet::new();
    for collection in SAMPLE_COLLECTIONS {
        let rows = store
            .aggregate(
                &Namespace::new(SAMPLE_DB, *collection),
                vec![
                    json!({"$match": {"metadata.corpus": CORPUS_TAG}}),
                    json!({"$project": {"metadata": 1}}),
                ],
            )
            .await?;
        for row in rows {
            let meta = &row["metadata"];
            let Some(slug) = meta["slug"].as_str() else {
                continue;
            };
            let key = format!("{collection}/{slug}");
            stored.insert(key.clone());
            if meta["embedder"].as_str() == Some(backend)
                && let Some(hash) = meta["contentHash"].as_str()
            {
                current.insert((key, hash.to_string()));
            }
        }
    }
    Ok((stored, current))
}

/// What every document of one seeding shares.
struct Stamp<'a> {
    corpus_version: &'a str,
    backend: &'a str,
    embedding_field: &'a str,
    created_at: Value,
}

impl Stamp<'_> {
    /// `{text, source, embedding, metadata, createdAt}`, as the ingest tool stores a chunk.
    fn document(&self, doc: &SampleDoc, vector: &[f32]) -> Document {
        let metadata = json!({
            "collection": doc.collection,
            "slug": doc.slug,
            "corpus": CORPUS_TAG,
            "corpusVersion": self.corpus_version,
            "contentHash": doc.content_hash(),
            "embedder": self.backend,
        });
        let mut document = Map::new();
        document.insert("text".into(), Value::String(doc.text.trim().to_string()));
        document.insert("source".into(), Value::String(doc.title().to_string()));
        document.insert(self.embedding_field.into(), vector_to_json(vector));
        document.insert("metadata".into(), metadata);
        document.insert("createdAt".into(), self.created_at.clone());
        document
    }
}

#[cfg(all(test, feature = "fakes"))]
mod tests;
