//! The sample corpus as data: every file of `corpus/<collection>/<slug>.md`, embedded in the
//! binary, and the hashes that version it.

/// One document of the sample corpus: `corpus/<collection>/<slug>.md`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SampleDoc {
    pub collection: &'static str,
    pub slug: &'static str,
    /// The whole file: a `# Title` line, then plain prose.
    pub text: &'static str,
}

impl SampleDoc {
    /// The first line without its `# `: stored as the document's `source`.
    pub fn title(&self) -> &'static str {
        let first = self.text.lines().next().unwrap_or_default();
        first.strip_prefix("# ").unwrap_or(first).trim()
    }

    /// `collection/slug`, the document's identity in the seeded store.
    pub fn key(&self) -> String {
        format!("{}/{}", self.collection, self.slug)
    }

    /// Identifies this text of this document; a stored copy with another hash is outdated.
    pub fn content_hash(&self) -> String {
        hex(fnv1a(FNV_OFFSET, self.text.as_bytes()))
    }
}

/// A table entry for `corpus/<collection>/<slug>.md`, read into the binary at compile time.
macro_rules! doc {
    ($collection:literal, $slug:literal) => {
        SampleDoc {
            collection: $collection,
            slug: $slug,
            text: include_str!(concat!("../../../corpus/", $collection, "/", $slug, ".md")),
        }
    };
}

/// Every file of `corpus/`, by collection then slug. Adding a file means adding its line here; a
/// test fails while the two disagree.
pub const DOCS: &[SampleDoc] = &[
    doc!("api_docs", "api-keys"),
    doc!("api_docs", "authentication"),
    doc!("api_docs", "client-credentials"),
    doc!("api_docs", "customers"),
    doc!("api_docs", "error-codes"),
    doc!("api_docs", "errors"),
    doc!("api_docs", "filtering-and-expansion"),
    doc!("api_docs", "handling-429"),
    doc!("api_docs", "idempotency"),
    doc!("api_docs", "invoices"),
    doc!("api_docs", "ip-allowlist"),
    doc!("api_docs", "key-rotation"),
    doc!("api_docs", "oauth2"),
    doc!("api_docs", "overview"),
    doc!("api_docs", "pagination"),
    doc!("api_docs", "payments"),
    doc!("api_docs", "rate-limits"),
    doc!("api_docs", "refunds"),
    doc!("api_docs", "request-ids"),
    doc!("api_docs", "scopes"),
    doc!("api_docs", "sdks"),
    doc!("api_docs", "subscriptions"),
    doc!("api_docs", "test-mode"),
    doc!("api_docs", "token-refresh"),
    doc!("api_docs", "versioning"),
    doc!("api_docs", "webhook-events"),
    doc!("api_docs", "webhook-retries"),
    doc!("api_docs", "webhook-signatures"),
    doc!("api_docs", "webhooks"),
    doc!("architecture", "adr-001-cursor-pagination"),
    doc!("architecture", "adr-002-jwt-access-tokens"),
    doc!("architecture", "adr-003-token-bucket"),
    doc!("architecture", "api-gateway"),
    doc!("architecture", "auth-service"),
    doc!("architecture", "caching"),
    doc!("architecture", "credential-storage"),
    doc!("architecture", "database-sharding"),
    doc!("architecture", "deployment"),
    doc!("architecture", "event-bus"),
    doc!("architecture", "idempotency-store"),
    doc!("architecture", "invoicing-engine"),
    doc!("architecture", "key-rolling-internals"),
    doc!("architecture", "multi-region"),
    doc!("architecture", "observability"),
    doc!("architecture", "rate-limiter"),
    doc!("architecture", "redis-cluster"),
    doc!("architecture", "runbook-database-failover"),
    doc!("architecture", "runbook-rate-limiter-outage"),
    doc!("architecture", "runbook-webhook-backlog"),
    doc!("architecture", "secrets-management"),
    doc!("architecture", "slos"),
    doc!("architecture", "system-overview"),
    doc!("architecture", "webhook-dispatcher"),
    doc!("rag_concepts", "answer-evaluation"),
    doc!("rag_concepts", "chunk-size-tradeoffs"),
    doc!("rag_concepts", "chunking-strategies"),
    doc!("rag_concepts", "context-window-budgeting"),
    doc!("rag_concepts", "dimensions-and-quantization"),
    doc!("rag_concepts", "embeddings"),
    doc!("rag_concepts", "hybrid-search"),
    doc!("rag_concepts", "input-types"),
    doc!("rag_concepts", "metadata-filtering"),
    doc!("rag_concepts", "near-duplicate-detection"),
    doc!("rag_concepts", "prompt-grounding"),
    doc!("rag_concepts", "query-rewriting"),
    doc!("rag_concepts", "rag-cost"),
    doc!("rag_concepts", "rag-pipeline"),
    doc!("rag_concepts", "reranking"),
    doc!("rag_concepts", "retrieval-evaluation"),
    doc!("rag_concepts", "similarity-metrics"),
    doc!("rag_concepts", "vector-search"),
];

/// The corpus version: a hash of every document's collection, slug and text, so it changes
/// whenever the corpus does. Stored with each seeded document as `metadata.corpusVersion`.
pub fn corpus_version() -> String {
    version_of(DOCS)
}

pub(super) fn version_of(docs: &[SampleDoc]) -> String {
    let hash = docs.iter().fold(FNV_OFFSET, |h, d| {
        [d.collection, d.slug, d.text]
            .iter()
            .fold(h, |h, part| fnv1a(fnv1a(h, part.as_bytes()), &[0]))
    });
    hex(hash)
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// FNV-1a, 64 bits, continuing from `hash`: stable across platforms and Rust versions.
fn fnv1a(hash: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(hash, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

fn hex(hash: u64) -> String {
    format!("{hash:016x}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::local::sample::SAMPLE_COLLECTIONS;
    use std::collections::BTreeSet;
    use std::fs;
    use std::path::Path;

    #[test]
    fn the_table_lists_every_corpus_file_once() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
        let mut on_disk = BTreeSet::new();
        let mut collections = BTreeSet::new();
        for dir in fs::read_dir(&root).unwrap() {
            let dir = dir.unwrap();
            let collection = dir.file_name().into_string().unwrap();
            for file in fs::read_dir(dir.path()).unwrap() {
                let file = file.unwrap().file_name().into_string().unwrap();
                on_disk.insert(format!("{collection}/{file}"));
            }
            collections.insert(collection);
        }
        let listed: Vec<String> = DOCS.iter().map(|d| format!("{}.md", d.key())).collect();
        let listed_set: BTreeSet<String> = listed.iter().cloned().collect();
        assert_eq!(listed.len(), listed_set.len(), "a document is listed twice");
        assert_eq!(
            on_disk.difference(&listed_set).collect::<Vec<_>>(),
            Vec::<&String>::new(),
            "corpus files missing from DOCS (add a doc!(collection, slug) line)"
        );
        assert_eq!(on_disk, listed_set);
        assert_eq!(
            collections,
            SAMPLE_COLLECTIONS.iter().map(|c| c.to_string()).collect()
        );
    }

    #[test]
    fn every_document_is_a_titled_short_text_with_a_unique_title() {
        let mut titles = BTreeSet::new();
        for doc in DOCS {
            assert!(
                doc.text.starts_with("# ") && !doc.title().is_empty(),
                "{} lacks a `# Title` line",
                doc.key()
            );
            // multi-collection-search keeps one hit per source, so titles must not repeat.
            assert!(titles.insert(doc.title()), "{}: title repeats", doc.key());
            let words = doc
                .text
                .lines()
                .skip(1)
                .flat_map(str::split_whitespace)
                .count();
            assert!(
                (80..=250).contains(&words),
                "{}: {words} words, want 80 to 250",
                doc.key()
            );
        }
    }

    #[test]
    fn each_collection_holds_enough_documents() {
        let count = |c: &str| DOCS.iter().filter(|d| d.collection == c).count();
        assert!(count("api_docs") >= 25);
        assert!(count("architecture") >= 20);
        assert!(count("rag_concepts") >= 15);
        let total: usize = SAMPLE_COLLECTIONS.iter().map(|c| count(c)).sum();
        assert_eq!(total, DOCS.len());
    }

    #[test]
    fn versions_and_hashes_follow_the_text() {
        let version = corpus_version();
        assert_eq!(version.len(), 16);
        assert!(version.chars().all(|c| c.is_ascii_hexdigit()));
        assert_eq!(version, corpus_version());
        let edited = SampleDoc {
            text: "# Other\n\nChanged.",
            ..DOCS[0]
        };
        assert_ne!(edited.content_hash(), DOCS[0].content_hash());
        assert_ne!(version_of(&[edited]), version_of(&DOCS[..1]));
        assert_ne!(version_of(&DOCS[..2]), version_of(&DOCS[..1]));
    }
}
