//! Late interaction, scored as ColBERT scores: each query token meets its best-matching
//! document token (MaxSim), over all-MiniLM-L6-v2's token vectors before pooling.

use super::cache::Floats;
use super::sentences;
use crate::ProviderError;
use crate::local::embed::LocalEmbedder;
use async_trait::async_trait;
pub use vai_models::minilm::TokenVectors;

/// Token vectors of texts, the input of late interaction.
#[async_trait]
pub trait TokenEmbedder: Send + Sync {
    /// The model, as responses name it.
    fn model(&self) -> &str;

    /// Each text's word pieces and their vectors, in the order of `texts`.
    async fn embed_tokens(&self, texts: Vec<String>) -> Result<Vec<TokenVectors>, ProviderError>;
}

/// The local embedder's token vectors, from the model it already loaded for embeddings (one
/// copy in memory; loaded on first use like its embeddings).
#[async_trait]
impl TokenEmbedder for LocalEmbedder {
    fn model(&self) -> &str {
        LocalEmbedder::MODEL
    }

    async fn embed_tokens(&self, texts: Vec<String>) -> Result<Vec<TokenVectors>, ProviderError> {
        self.token_vectors(texts).await
    }
}

/// The text's embedding as the model pools it: the mean of all its token vectors, special ones
/// included, scaled to unit length.
pub(super) fn pooled(text: &TokenVectors) -> Vec<f32> {
    let dims = text.vectors.first().map_or(0, Vec::len);
    let mut mean = vec![0f32; dims];
    for v in &text.vectors {
        mean.iter_mut().zip(v).for_each(|(m, x)| *m += x);
    }
    let n = text.vectors.len().max(1) as f32;
    mean.iter_mut().for_each(|m| *m /= n);
    let norm = mean.iter().map(|x| x * x).sum::<f32>().sqrt();
    if norm > 0.0 {
        mean.iter_mut().for_each(|x| *x /= norm);
    }
    mean
}

/// The vectors one side of a MaxSim contributes, unit length, one row of `dims` per token.
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct Matrix {
    pub dims: usize,
    pub rows: Vec<f32>,
}

impl Matrix {
    /// The word pieces that carry meaning: neither `[CLS]`/`[SEP]` nor punctuation alone.
    /// Scaled to unit length, so a dot product is a cosine.
    pub(super) fn of(texts: &[TokenVectors]) -> Self {
        let mut m = Matrix::default();
        for t in texts {
            for (token, v) in t.tokens.iter().zip(&t.vectors) {
                if matches!(token.as_str(), "[CLS]" | "[SEP]")
                    || !token.chars().any(char::is_alphanumeric)
                {
                    continue;
                }
                m.dims = v.len();
                let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
                if norm > 0.0 {
                    m.rows.extend(v.iter().map(|x| x / norm));
                }
            }
        }
        m
    }

    pub(super) fn len(&self) -> usize {
        self.rows.len().checked_div(self.dims).unwrap_or(0)
    }
}

impl Floats for Matrix {
    fn floats(&self) -> usize {
        self.rows.len()
    }
}

/// A document's token vectors for MaxSim: each sentence encoded on its own, so a document
/// longer than the model's 256 tokens is read to its end (on the tuning questions this scored
/// better than one pass over the cut document).
pub(super) async fn document_matrices(
    encoder: &dyn TokenEmbedder,
    documents: &[&str],
) -> Result<(Vec<Matrix>, u64), ProviderError> {
    let split: Vec<Vec<String>> = documents
        .iter()
        .map(|d| {
            sentences::split(d)
                .into_iter()
                .map(str::to_string)
                .collect()
        })
        .collect();
    let encoded = encoder
        .embed_tokens(split.iter().flatten().cloned().collect())
        .await?;
    if encoded.len() != split.iter().map(Vec::len).sum::<usize>() {
        return Err(ProviderError::other(
            "local",
            "rerank: the token embedder returned the wrong number of texts",
        ));
    }
    let tokens = encoded.iter().map(|t| t.tokens.len() as u64).sum();
    let mut rest = encoded.as_slice();
    let matrices = split
        .iter()
        .map(|s| {
            let (mine, after) = rest.split_at(s.len());
            rest = after;
            Matrix::of(mine)
        })
        .collect();
    Ok((matrices, tokens))
}

/// The mean, over the query's token vectors, of each one's best cosine with a document token
/// vector: in [-1, 1], 0 when either side has none.
pub(super) fn max_sim(query: &Matrix, document: &Matrix) -> f64 {
    if query.len() == 0 || document.len() == 0 || query.dims != document.dims {
        return 0.0;
    }
    let total: f64 = query
        .rows
        .chunks_exact(query.dims)
        .map(|q| {
            document
                .rows
                .chunks_exact(document.dims)
                .map(|d| dot(q, d))
                .fold(f32::MIN, f32::max) as f64
        })
        .sum();
    total / query.len() as f64
}

/// Eight running sums, so the loop vectorises without fast-math.
fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut sums = [0f32; 8];
    let (ac, bc) = (a.chunks_exact(8), b.chunks_exact(8));
    let tail: f32 = ac
        .remainder()
        .iter()
        .zip(bc.remainder())
        .map(|(x, y)| x * y)
        .sum();
    for (x, y) in ac.zip(bc) {
        for ((s, x), y) in sums.iter_mut().zip(x).zip(y) {
            *s += x * y;
        }
    }
    sums.iter().sum::<f32>() + tail
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(tokens: &[(&str, [f32; 2])]) -> TokenVectors {
        TokenVectors {
            tokens: tokens.iter().map(|(t, _)| t.to_string()).collect(),
            vectors: tokens.iter().map(|(_, v)| v.to_vec()).collect(),
        }
    }

    #[test]
    fn special_tokens_and_punctuation_do_not_match_and_vectors_become_unit_length() {
        let m = Matrix::of(&[text(&[
            ("[CLS]", [1.0, 0.0]),
            ("web", [3.0, 4.0]),
            ("?", [1.0, 0.0]),
            ("##hook", [0.0, 2.0]),
            ("[SEP]", [1.0, 0.0]),
        ])]);
        assert_eq!(m.len(), 2);
        assert_eq!(m.rows, [0.6, 0.8, 0.0, 1.0]);
    }

    #[test]
    fn max_sim_averages_each_query_tokens_best_match() {
        let q = Matrix::of(&[text(&[("a", [1.0, 0.0]), ("b", [0.0, 1.0])])]);
        let d = Matrix::of(&[text(&[("x", [1.0, 0.0]), ("y", [1.0, 1.0])])]);
        // a: best 1.0 (x); b: best 1/√2 (y).
        let want = (1.0 + std::f64::consts::FRAC_1_SQRT_2) / 2.0;
        assert!((max_sim(&q, &d) - want).abs() < 1e-6);
        assert_eq!(max_sim(&q, &Matrix::default()), 0.0);
    }

    #[test]
    fn dot_matches_the_plain_sum_past_the_unrolled_width() {
        let a: Vec<f32> = (0..19).map(|i| i as f32 * 0.5).collect();
        let b: Vec<f32> = (0..19).map(|i| 1.0 - i as f32 * 0.1).collect();
        let plain: f32 = a.iter().zip(&b).map(|(x, y)| x * y).sum();
        assert!((dot(&a, &b) - plain).abs() < 1e-4);
    }
}
