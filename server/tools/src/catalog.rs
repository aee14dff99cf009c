//! The model catalog: Voyage AI's embedding and reranking models plus the local models vai runs
//! offline, with dimensions and context length. Read by `models` and `estimate`; their prices
//! are the price table's (`vai_providers::pricing`), the one place prices are kept.

use serde::Serialize;
use vai_providers::pricing;

/// What a model does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum ModelKind {
    #[serde(rename = "embedding")]
    Embedding,
    #[serde(rename = "reranking")]
    Reranking,
    #[serde(rename = "embedding-multimodal")]
    EmbeddingMultimodal,
}

impl ModelKind {
    /// The catalog's type name ("embedding", "reranking", "embedding-multimodal").
    pub fn as_str(self) -> &'static str {
        match self {
            ModelKind::Embedding => "embedding",
            ModelKind::Reranking => "reranking",
            ModelKind::EmbeddingMultimodal => "embedding-multimodal",
        }
    }

    /// True for models that turn input into vectors (text or multimodal).
    pub fn embeds(self) -> bool {
        matches!(self, ModelKind::Embedding | ModelKind::EmbeddingMultimodal)
    }
}

/// One model of the catalog.
#[derive(Debug, Clone, Serialize)]
pub struct ModelInfo {
    pub name: &'static str,
    pub kind: ModelKind,
    /// Output dimensions, default first: "1024 (default), 256, 512, 2048"; empty for rerankers.
    pub dimensions: &'static str,
    /// Default output dimension (0 for rerankers).
    pub default_dimensions: u32,
    pub best_for: &'static str,
    /// Superseded by a newer generation; hidden from `models`, still priced by `estimate`.
    pub legacy: bool,
    /// Runs on this machine (open weights), no API key needed.
    pub local: bool,
    /// Longest input, in tokens.
    pub context_tokens: u32,
}

impl ModelInfo {
    /// List price in US dollars per million tokens, from the price table (0 for local models);
    /// `None` only if the table lacks the model (a test keeps every catalog model in it).
    pub fn price_per_m_tokens(&self) -> Option<f64> {
        pricing::find(self.name).map(|row| row.input)
    }

    /// The price as shown to people: "$0.12/1M tokens", "Free (runs locally)".
    pub fn price(&self) -> String {
        match self.price_per_m_tokens() {
            _ if self.local => "Free (runs locally)".to_string(),
            None => "unknown".to_string(),
            Some(usd) if self.kind == ModelKind::EmbeddingMultimodal => {
                format!("${usd}/1M tokens (+ images by pixel count)")
            }
            Some(usd) => format!("${usd}/1M tokens"),
        }
    }
}

const FLEX_DIMS: &str = "1024 (default), 256, 512, 2048";

const fn embedding(name: &'static str, best_for: &'static str) -> ModelInfo {
    ModelInfo {
        name,
        kind: ModelKind::Embedding,
        dimensions: FLEX_DIMS,
        default_dimensions: 1024,
        best_for,
        legacy: false,
        local: false,
        context_tokens: 32_000,
    }
}

const fn reranker(name: &'static str, best_for: &'static str, context_tokens: u32) -> ModelInfo {
    ModelInfo {
        name,
        kind: ModelKind::Reranking,
        dimensions: "",
        default_dimensions: 0,
        best_for,
        legacy: false,
        local: false,
        context_tokens,
    }
}

const fn legacy(model: ModelInfo) -> ModelInfo {
    ModelInfo {
        legacy: true,
        ..model
    }
}

/// Every model vai knows, newest generation first.
pub static MODELS: &[ModelInfo] = &[
    embedding(
        "voyage-4-large",
        "Best retrieval quality; general-purpose and multilingual",
    ),
    embedding("voyage-4", "Balance of quality, latency and cost"),
    embedding(
        "voyage-4-lite",
        "Lowest cost and latency for high-volume workloads",
    ),
    ModelInfo {
        name: "voyage-4-nano",
        kind: ModelKind::Embedding,
        dimensions: "512 (default), 256, 1024, 2048",
        default_dimensions: 512,
        best_for: "Local and offline embedding; vectors compatible with the voyage-4 family",
        legacy: false,
        local: true,
        context_tokens: 32_000,
    },
    embedding(
        "voyage-3.5",
        "Previous-generation general-purpose retrieval",
    ),
    embedding("voyage-3.5-lite", "Previous-generation low-cost retrieval"),
    embedding(
        "voyage-3-large",
        "Previous-generation flagship; general-purpose and multilingual",
    ),
    embedding(
        "voyage-code-3",
        "Code retrieval: source files, snippets, docstrings",
    ),
    ModelInfo {
        dimensions: "1024",
        ..embedding(
            "voyage-finance-2",
            "Finance: filings, reports, financial Q&A",
        )
    },
    ModelInfo {
        dimensions: "1024",
        context_tokens: 16_000,
        ..embedding("voyage-law-2", "Legal documents, contracts and case law")
    },
    ModelInfo {
        kind: ModelKind::EmbeddingMultimodal,
        ..embedding(
            "voyage-multimodal-3.5",
            "Text interleaved with images: slides, screenshots, scanned PDFs",
        )
    },
    reranker(
        "rerank-2.5",
        "Best reranking quality; instruction-following",
        32_000,
    ),
    reranker("rerank-2.5-lite", "Fast, low-cost reranking", 32_000),
    ModelInfo {
        name: "all-minilm-l6-v2",
        kind: ModelKind::Embedding,
        dimensions: "384",
        default_dimensions: 384,
        best_for: "vai's built-in offline backend: demos and workshops without an API key",
        legacy: false,
        local: true,
        context_tokens: 256,
    },
    // Superseded models, kept so older workflows still get estimates.
    legacy(embedding(
        "voyage-3",
        "General-purpose retrieval (superseded by voyage-3.5)",
    )),
    legacy(embedding(
        "voyage-3-lite",
        "Low-cost retrieval (superseded by voyage-3.5-lite)",
    )),
    legacy(ModelInfo {
        kind: ModelKind::EmbeddingMultimodal,
        dimensions: "1024",
        ..embedding(
            "voyage-multimodal-3",
            "Text and images (superseded by voyage-multimodal-3.5)",
        )
    }),
    legacy(reranker(
        "rerank-2",
        "Reranking (superseded by rerank-2.5)",
        16_000,
    )),
    legacy(reranker(
        "rerank-2-lite",
        "Low-cost reranking (superseded by rerank-2.5-lite)",
        8_000,
    )),
];

/// The model named `name` (case-insensitive; a `voyageai/` prefix is ignored).
pub fn find(name: &str) -> Option<&'static ModelInfo> {
    let name = name.trim();
    let name = name.strip_prefix("voyageai/").unwrap_or(name);
    MODELS.iter().find(|m| m.name.eq_ignore_ascii_case(name))
}

/// Current (non-legacy) models.
pub fn current() -> impl Iterator<Item = &'static ModelInfo> {
    MODELS.iter().filter(|m| !m.legacy)
}

/// Names of every model that embeds, current first.
pub fn embedding_model_names() -> Vec<&'static str> {
    MODELS
        .iter()
        .filter(|m| m.kind.embeds())
        .map(|m| m.name)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_lookups_ignore_case_and_prefix() {
        let mut names: Vec<_> = MODELS.iter().map(|m| m.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), MODELS.len());
        assert_eq!(find("Voyage-4-Large").unwrap().name, "voyage-4-large");
        assert_eq!(
            find("voyageai/voyage-4-nano").unwrap().name,
            "voyage-4-nano"
        );
        assert!(find("gpt-4").is_none());
    }

    #[test]
    fn prices_and_kinds_are_consistent() {
        for m in MODELS {
            let price = m.price_per_m_tokens();
            assert!(
                price.is_some(),
                "{} is missing from the price table",
                m.name
            );
            assert_eq!(m.local, price == Some(0.0), "{}", m.name);
            assert_eq!(m.kind.embeds(), !m.dimensions.is_empty(), "{}", m.name);
            assert_eq!(m.kind.embeds(), m.default_dimensions > 0, "{}", m.name);
        }
        assert_eq!(find("voyage-4-large").unwrap().price(), "$0.12/1M tokens");
        assert_eq!(
            find("voyage-4-nano").unwrap().price(),
            "Free (runs locally)"
        );
        assert_eq!(
            find("voyage-multimodal-3.5").unwrap().price(),
            "$0.12/1M tokens (+ images by pixel count)"
        );
        assert_eq!(find("rerank-2.5").unwrap().kind, ModelKind::Reranking);
        assert_eq!(find("all-minilm-l6-v2").unwrap().default_dimensions, 384);
    }
}
