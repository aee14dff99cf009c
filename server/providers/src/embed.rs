//! The `Embedder` trait (text → vectors), its request and response, and vector helpers.

use crate::{ProviderError, TokenUsage};
use async_trait::async_trait;
use serde_json::{Number, Value};

/// What the text will be used as; Voyage models embed queries and documents differently.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EmbedInputType {
    Query,
    Document,
}

impl EmbedInputType {
    /// The wire name ("query" / "document").
    pub fn as_str(self) -> &'static str {
        match self {
            EmbedInputType::Query => "query",
            EmbedInputType::Document => "document",
        }
    }

    /// Parse the wire name; anything else is `None`.
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "query" => Some(EmbedInputType::Query),
            "document" => Some(EmbedInputType::Document),
            _ => None,
        }
    }
}

/// One embedding call: every text gets one vector, in order.
#[derive(Debug, Clone, PartialEq)]
pub struct EmbedRequest {
    pub texts: Vec<String>,
    pub model: String,
    /// `None` lets the model embed without a query/document hint.
    pub input_type: Option<EmbedInputType>,
    /// Requested output dimensions; `None` takes the model's default.
    pub dimensions: Option<u32>,
}

/// The vectors of an `EmbedRequest`, `embeddings[i]` belonging to `texts[i]`.
#[derive(Debug, Clone, PartialEq)]
pub struct EmbedResponse {
    pub embeddings: Vec<Vec<f32>>,
    /// The model that served the call, as the backend reports it.
    pub model: String,
    pub usage: TokenUsage,
}

/// Turns text into vectors. Implementations split large requests into batches themselves (by
/// count and token budget), so callers pass every text of a step in one request.
#[async_trait]
pub trait Embedder: Send + Sync {
    /// The backend's name, reported per step ("voyage", "local", …).
    fn name(&self) -> &str;

    async fn embed(&self, request: EmbedRequest) -> Result<EmbedResponse, ProviderError>;
}

/// Cosine similarity in [-1, 1]; 0 when either vector is all zeros or the lengths differ.
pub fn cosine_similarity(a: &[f32], b: &[f32]) -> f64 {
    if a.len() != b.len() {
        return 0.0;
    }
    let (mut dot, mut na, mut nb) = (0.0f64, 0.0f64, 0.0f64);
    for (x, y) in a.iter().zip(b) {
        let (x, y) = (f64::from(*x), f64::from(*y));
        dot += x * y;
        na += x * x;
        nb += y * y;
    }
    if na == 0.0 || nb == 0.0 {
        return 0.0;
    }
    (dot / (na.sqrt() * nb.sqrt())).clamp(-1.0, 1.0)
}

/// A vector as a JSON array. Each component is written with the shortest decimal that reads back
/// as the same `f32`, so `0.1f32` appears as `0.1`, not `0.10000000149011612`.
pub fn vector_to_json(vector: &[f32]) -> Value {
    Value::Array(
        vector
            .iter()
            .map(|x| {
                x.to_string()
                    .parse::<f64>()
                    .ok()
                    .and_then(Number::from_f64)
                    .map_or(Value::Null, Value::Number)
            })
            .collect(),
    )
}

/// A JSON array of numbers as a vector; `None` when the value is not one.
pub fn vector_from_json(value: &Value) -> Option<Vec<f32>> {
    value
        .as_array()?
        .iter()
        .map(|v| v.as_f64().map(|f| f as f32))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn cosine_of_parallel_orthogonal_and_opposite_vectors() {
        assert!((cosine_similarity(&[1.0, 2.0], &[2.0, 4.0]) - 1.0).abs() < 1e-9);
        assert_eq!(cosine_similarity(&[1.0, 0.0], &[0.0, 3.0]), 0.0);
        assert!((cosine_similarity(&[1.0, 0.0], &[-1.0, 0.0]) + 1.0).abs() < 1e-9);
        assert_eq!(cosine_similarity(&[0.0, 0.0], &[1.0, 0.0]), 0.0);
        assert_eq!(cosine_similarity(&[1.0], &[1.0, 0.0]), 0.0);
    }

    #[test]
    fn vectors_round_trip_through_json_with_short_decimals() {
        let v = vec![0.1f32, -0.25, 1.0];
        let j = vector_to_json(&v);
        assert_eq!(j.to_string(), "[0.1,-0.25,1.0]");
        assert_eq!(vector_from_json(&j), Some(v));
        assert_eq!(vector_from_json(&json!([1, "x"])), None);
    }

    #[test]
    fn input_types_parse_their_wire_names_only() {
        assert_eq!(EmbedInputType::parse("query"), Some(EmbedInputType::Query));
        assert_eq!(
            EmbedInputType::parse("document"),
            Some(EmbedInputType::Document)
        );
        assert_eq!(EmbedInputType::parse("Query"), None);
        assert_eq!(EmbedInputType::Document.as_str(), "document");
    }
}
