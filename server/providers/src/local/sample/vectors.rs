//! The sample corpus's vectors as the local model (all-MiniLM-L6-v2) computes them, committed
//! beside this file and read into the binary, so seeding the local store embeds one document
//! instead of every one (seconds of CPU on a fresh machine, and in every test that starts
//! with an empty home).
//!
//! They are used only when they are provably this model's: the file names the model and the
//! corpus version it was computed for, and seeding first embeds one document for real and
//! compares it with the committed vector. Any mismatch — another model, other weights, an edited
//! corpus — and every document is embedded as before. A test recomputes the whole file and fails
//! when it drifts (`VAI_UPDATE_GENERATED=1 cargo test -p vai-providers committed_vectors`).
//!
//! The format: one header line `vai-sample-vectors <model> <corpus version> <dimensions>
//! <count>\n`, then `count × dimensions` little-endian `f32`s, documents in [`DOCS`] order.

#[cfg(test)]
use super::DOCS;
use super::SampleDoc;
use std::collections::HashMap;

/// The committed vectors.
const FILE: &[u8] = include_bytes!("all-minilm-l6-v2.vectors");

/// The model the committed vectors were computed with.
pub(super) const MODEL: &str = "all-minilm-l6-v2";

/// Largest difference in any component between a committed vector and the one the running
/// model computes, for the two to count as the same model. Vectors are unit length; the same
/// weights on another CPU differ by about 1e-6, another model by far more than this.
const AGREEMENT: f32 = 1e-4;

const MAGIC: &str = "vai-sample-vectors";

/// The vectors of a corpus, as the file holds them.
#[derive(Debug, Clone, PartialEq)]
struct Vectors {
    model: String,
    corpus_version: String,
    dimensions: usize,
    vectors: Vec<Vec<f32>>,
}

impl Vectors {
    #[cfg(test)]
    fn encode(&self) -> Vec<u8> {
        let mut out = format!(
            "{MAGIC} {} {} {} {}\n",
            self.model,
            self.corpus_version,
            self.dimensions,
            self.vectors.len()
        )
        .into_bytes();
        for v in &self.vectors {
            for x in v {
                out.extend_from_slice(&x.to_le_bytes());
            }
        }
        out
    }

    /// The vectors in `bytes`, or `None` when they are not a well-formed file.
    fn decode(bytes: &[u8]) -> Option<Vectors> {
        let end = bytes.iter().position(|&b| b == b'\n')?;
        let header = std::str::from_utf8(&bytes[..end]).ok()?;
        let mut fields = header.split(' ');
        if fields.next()? != MAGIC {
            return None;
        }
        let model = fields.next()?.to_string();
        let corpus_version = fields.next()?.to_string();
        let dimensions: usize = fields.next()?.parse().ok()?;
        let count: usize = fields.next()?.parse().ok()?;
        let body = &bytes[end + 1..];
        if fields.next().is_some() || dimensions == 0 || body.len() != count * dimensions * 4 {
            return None;
        }
        let floats: Vec<f32> = body
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        Some(Vectors {
            model,
            corpus_version,
            dimensions,
            vectors: floats.chunks(dimensions).map(<[f32]>::to_vec).collect(),
        })
    }
}

/// The committed vector of each of `docs` by `collection/slug`, when the file was computed for
/// exactly these documents by the model behind the embedder named `backend`.
pub(super) fn committed(
    docs: &[SampleDoc],
    corpus_version: &str,
    backend: &str,
) -> Option<HashMap<String, Vec<f32>>> {
    if backend != "local" {
        return None;
    }
    let file = Vectors::decode(FILE)?;
    if file.model != MODEL
        || file.corpus_version != corpus_version
        || file.vectors.len() != docs.len()
    {
        return None;
    }
    Some(docs.iter().map(SampleDoc::key).zip(file.vectors).collect())
}

/// Whether `computed` is the committed vector `committed`, as the same model computes it.
pub(super) fn agree(computed: &[f32], committed: &[f32]) -> bool {
    computed.len() == committed.len()
        && computed
            .iter()
            .zip(committed)
            .all(|(a, b)| (a - b).abs() <= AGREEMENT)
}

#[cfg(test)]
mod tests {
    use super::super::corpus_version;
    use super::*;
    use crate::local::embed::{LocalEmbedder, ModelLocation, find_model_dir};
    use crate::{EmbedInputType, EmbedRequest, Embedder};

    #[test]
    fn the_file_round_trips_and_refuses_a_truncated_body() {
        let v = Vectors {
            model: MODEL.into(),
            corpus_version: "abc".into(),
            dimensions: 2,
            vectors: vec![vec![0.5, -1.0], vec![0.25, 2.0]],
        };
        let bytes = v.encode();
        assert_eq!(Vectors::decode(&bytes), Some(v));
        assert_eq!(Vectors::decode(&bytes[..bytes.len() - 1]), None);
        assert_eq!(Vectors::decode(b"something else 1 2 3\n"), None);
    }

    #[test]
    fn committed_vectors_serve_only_the_local_model_and_this_corpus() {
        let version = corpus_version();
        assert!(committed(DOCS, &version, "local").is_some());
        assert!(committed(DOCS, &version, "voyage").is_none());
        assert!(committed(DOCS, "another-version", "local").is_none());
        assert!(committed(&DOCS[1..], &version, "local").is_none());
    }

    /// Recomputes every vector with the installed model: the committed file must hold them.
    #[tokio::test]
    async fn committed_vectors_are_what_the_model_computes() {
        let dir = match find_model_dir() {
            Ok(dir) => dir,
            Err(e) => {
                eprintln!("skipped: {e}");
                return;
            }
        };
        let embedder = LocalEmbedder::new(ModelLocation::Dir(dir));
        let mut vectors = Vec::new();
        for batch in DOCS.chunks(super::super::BATCH) {
            let response = embedder
                .embed(EmbedRequest {
                    texts: batch.iter().map(|d| d.text.to_string()).collect(),
                    model: String::new(),
                    input_type: Some(EmbedInputType::Document),
                    dimensions: None,
                })
                .await
                .unwrap();
            vectors.extend(response.embeddings);
        }
        let generated = Vectors {
            model: MODEL.into(),
            corpus_version: corpus_version(),
            dimensions: LocalEmbedder::DIMENSIONS as usize,
            vectors,
        };
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("src/local/sample/all-minilm-l6-v2.vectors");
        if std::env::var_os("VAI_UPDATE_GENERATED").is_some() {
            std::fs::write(&path, generated.encode()).unwrap();
        }
        let stale = "is out of date: run VAI_UPDATE_GENERATED=1 cargo test -p vai-providers \
                     committed_vectors";
        let on_disk = Vectors::decode(&std::fs::read(&path).unwrap_or_default());
        let Some(on_disk) = on_disk else {
            panic!("{} {stale}", path.display())
        };
        assert_eq!(
            (&on_disk.model, &on_disk.corpus_version, on_disk.dimensions),
            (
                &generated.model,
                &generated.corpus_version,
                generated.dimensions
            ),
            "{} {stale}",
            path.display()
        );
        assert_eq!(on_disk.vectors.len(), generated.vectors.len());
        for (doc, (a, b)) in DOCS
            .iter()
            .zip(on_disk.vectors.iter().zip(&generated.vectors))
        {
            assert!(agree(b, a), "{}: {} {stale}", doc.key(), path.display());
        }
    }
}
