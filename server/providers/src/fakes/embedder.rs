//! `FakeEmbedder`: a hashing bag-of-words embedder (tests only).

use super::{Faults, Log, words};
use crate::{EmbedRequest, EmbedResponse, Embedder, ProviderError, TokenUsage};
use async_trait::async_trait;

/// Test-only embedder: every word is hashed (FNV-1a) to a signed bucket of the vector, which is
/// then L2-normalised. The same text always yields the same vector, texts sharing words have a
/// positive cosine, and text without words yields the zero vector. The input type is ignored.
#[derive(Debug)]
pub struct FakeEmbedder {
    name: String,
    dimensions: usize,
    requests: Log<EmbedRequest>,
    faults: Faults,
}

impl FakeEmbedder {
    /// Vectors of `dimensions` components unless a request asks for another size.
    pub fn new(dimensions: usize) -> Self {
        FakeEmbedder {
            name: "fake".into(),
            dimensions: dimensions.max(1),
            requests: Log::new(),
            faults: Faults::default(),
        }
    }

    /// Report another backend name (to test what tools show as the serving backend).
    pub fn named(mut self, name: impl Into<String>) -> Self {
        self.name = name.into();
        self
    }

    /// The vector `text` gets at the default size (for seeding stores in tests).
    pub fn vector(&self, text: &str) -> Vec<f32> {
        hash_embed(text, self.dimensions)
    }

    /// Every request received, in order.
    pub fn requests(&self) -> Vec<EmbedRequest> {
        self.requests.all()
    }

    /// Make the next call fail with `error` (calls queue up in order).
    pub fn fail_next(&self, error: ProviderError) {
        self.faults.push(error);
    }
}

#[async_trait]
impl Embedder for FakeEmbedder {
    fn name(&self) -> &str {
        &self.name
    }

    async fn embed(&self, request: EmbedRequest) -> Result<EmbedResponse, ProviderError> {
        self.requests.push(request.clone());
        self.faults.take()?;
        let dims = request.dimensions.map_or(self.dimensions, |d| d as usize);
        if dims == 0 {
            return Err(ProviderError::invalid_request(
                &self.name,
                "dimensions must be positive",
            ));
        }
        let tokens = request.texts.iter().map(|t| words(t).count() as u64).sum();
        Ok(EmbedResponse {
            embeddings: request.texts.iter().map(|t| hash_embed(t, dims)).collect(),
            model: request.model,
            usage: TokenUsage::input(tokens),
        })
    }
}

fn hash_embed(text: &str, dims: usize) -> Vec<f32> {
    let mut v = vec![0.0f32; dims];
    for word in words(text) {
        let h = fnv1a(word.as_bytes());
        let sign = if h >> 63 == 0 { 1.0 } else { -1.0 };
        v[(h % dims as u64) as usize] += sign;
    }
    let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    if norm > 0.0 {
        v.iter_mut().for_each(|x| *x /= norm);
    }
    v
}

/// FNV-1a, 64 bits: stable across platforms and Rust versions, unlike `DefaultHasher`.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{EmbedInputType, cosine_similarity};

    fn request(texts: &[&str], dimensions: Option<u32>) -> EmbedRequest {
        EmbedRequest {
            texts: texts.iter().map(|t| t.to_string()).collect(),
            model: "voyage-4-large".into(),
            input_type: Some(EmbedInputType::Document),
            dimensions,
        }
    }

    #[tokio::test]
    async fn vectors_are_deterministic_normalised_and_sized() {
        let e = FakeEmbedder::new(64);
        let r = e
            .embed(request(
                &["The cat sat", "the CAT sat!", "stock markets"],
                None,
            ))
            .await
            .unwrap();
        assert_eq!(r.embeddings.len(), 3);
        assert_eq!(r.embeddings[0], r.embeddings[1]);
        assert_eq!(r.embeddings[0], e.vector("cat the sat"));
        let norm: f32 = r.embeddings[2].iter().map(|x| x * x).sum::<f32>().sqrt();
        assert!((norm - 1.0).abs() < 1e-5);
        assert!(
            cosine_similarity(&r.embeddings[0], &e.vector("a cat"))
                > cosine_similarity(&r.embeddings[2], &e.vector("a cat"))
        );
        assert_eq!(r.usage.input_tokens, 8);
        assert_eq!(r.model, "voyage-4-large");

        let small = e.embed(request(&["x"], Some(8))).await.unwrap();
        assert_eq!(small.embeddings[0].len(), 8);
        assert_eq!(e.requests().len(), 2);
    }

    #[tokio::test]
    async fn queued_faults_fail_the_next_call_only() {
        let e = FakeEmbedder::new(8);
        e.fail_next(ProviderError::other("fake", "boom"));
        assert!(e.embed(request(&["a"], None)).await.is_err());
        assert!(e.embed(request(&["a"], None)).await.is_ok());
    }

    #[test]
    fn wordless_text_is_the_zero_vector() {
        assert!(
            FakeEmbedder::new(4)
                .vector(" ,.; ")
                .iter()
                .all(|x| *x == 0.0)
        );
    }
}
