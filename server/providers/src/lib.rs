//! Provider traits for embeddings (`Embedder`), reranking (`Reranker`), vector storage
//! (`VectorStore`) and language models (`Llm`), the errors they return, the `Settings` that name
//! databases and models, what calls cost (`pricing`), and `Providers`, the set a process runs
//! with.
//!
//! Tools hold providers as trait objects so tests swap in the in-memory fakes of [`fakes`]
//! (feature `fakes`, tests only). Real clients (Voyage AI, MongoDB, the local backend, LLMs) are
//! built by the composition root and handed over through [`Providers`].

pub mod embed;
pub mod error;
pub mod grounded;
pub mod llm;
pub mod local;
pub mod mongo;
pub mod mql;
pub mod net;
pub mod pricing;
pub mod rerank;
pub mod settings;
pub mod store;
pub mod structured;
pub mod voyage;

#[cfg(feature = "fakes")]
pub mod fakes;

/// A loopback HTTP server that answers with scripted replies, for tests of the clients here
/// and of what runs on them (chat against the protocol fakes).
#[cfg(any(test, feature = "fakes"))]
pub mod testing;

pub use embed::{
    EmbedInputType, EmbedRequest, EmbedResponse, Embedder, cosine_similarity, vector_from_json,
    vector_to_json,
};
pub use error::ProviderError;
pub use llm::{Completion, CompletionRequest, Llm, Message, Role};
pub use pricing::Pricing;
pub use rerank::{RerankRequest, RerankResponse, RerankScore, Reranker};
pub use settings::Settings;
pub use store::{
    CollectionInfo, Document, Namespace, ScoredDocument, VectorIndex, VectorIndexInfo, VectorQuery,
    VectorStore, rfc3339_utc,
};

use std::fmt;
use std::sync::Arc;

/// Tokens one provider call consumed. Embedding and rerank calls only have input tokens.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TokenUsage {
    pub input_tokens: u64,
    pub output_tokens: u64,
}

impl TokenUsage {
    pub fn input(tokens: u64) -> Self {
        TokenUsage {
            input_tokens: tokens,
            output_tokens: 0,
        }
    }
}

/// The providers a process runs with. A `None` capability is not configured: tools needing it
/// fail with a [`ProviderError::NotConfigured`] that says what to set.
#[derive(Clone, Default)]
pub struct Providers {
    pub embedder: Option<Arc<dyn Embedder>>,
    pub reranker: Option<Arc<dyn Reranker>>,
    pub store: Option<Arc<dyn VectorStore>>,
    pub llm: Option<Arc<dyn Llm>>,
    pub settings: Settings,
    /// What calls cost: the price table with `.vai.json`'s overrides.
    pub pricing: Pricing,
}

impl Providers {
    /// No provider configured: every provider-backed tool reports what to configure.
    pub fn none(settings: Settings) -> Self {
        Providers {
            settings,
            ..Providers::default()
        }
    }

    pub fn with_embedder(mut self, embedder: Arc<dyn Embedder>) -> Self {
        self.embedder = Some(embedder);
        self
    }

    pub fn with_reranker(mut self, reranker: Arc<dyn Reranker>) -> Self {
        self.reranker = Some(reranker);
        self
    }

    pub fn with_store(mut self, store: Arc<dyn VectorStore>) -> Self {
        self.store = Some(store);
        self
    }

    pub fn with_llm(mut self, llm: Arc<dyn Llm>) -> Self {
        self.llm = Some(llm);
        self
    }

    pub fn with_pricing(mut self, pricing: Pricing) -> Self {
        self.pricing = pricing;
        self
    }

    /// The embedder, or a not-configured error naming `tool` and what to set.
    pub fn embedder(&self, tool: &str) -> Result<&Arc<dyn Embedder>, ProviderError> {
        self.embedder.as_ref().ok_or_else(|| {
            ProviderError::NotConfigured(format!(
                "{tool}: no embedding provider is configured. Set VOYAGE_API_KEY (or run \
                 `vai config set api-key <key>`) to use Voyage AI embeddings."
            ))
        })
    }

    /// The reranker, or a not-configured error naming `tool` and what to set.
    pub fn reranker(&self, tool: &str) -> Result<&Arc<dyn Reranker>, ProviderError> {
        self.reranker.as_ref().ok_or_else(|| {
            ProviderError::NotConfigured(format!(
                "{tool}: no rerank provider is configured. Set VOYAGE_API_KEY (or run \
                 `vai config set api-key <key>`) to use Voyage AI reranking."
            ))
        })
    }

    /// The vector store, or a not-configured error naming `tool` and what to set.
    pub fn store(&self, tool: &str) -> Result<&Arc<dyn VectorStore>, ProviderError> {
        self.store.as_ref().ok_or_else(|| {
            ProviderError::NotConfigured(format!(
                "{tool}: no vector store is configured. Set MONGODB_URI (or run \
                 `vai config set mongodb-uri <uri>`) to use MongoDB Atlas."
            ))
        })
    }

    /// The LLM, or a not-configured error naming `tool` and what to set.
    pub fn llm(&self, tool: &str) -> Result<&Arc<dyn Llm>, ProviderError> {
        self.llm.as_ref().ok_or_else(|| {
            ProviderError::NotConfigured(format!(
                "{tool}: no LLM provider is configured. Set VAI_LLM_PROVIDER (anthropic, openai \
                 or ollama) and VAI_LLM_API_KEY (not needed for ollama), or run \
                 `vai config set llm-provider <name>` and `vai config set llm-api-key <key>`. \
                 Offline, fetch the small local model with `bash scripts/fetch-model.sh`."
            ))
        })
    }
}

impl fmt::Debug for Providers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Providers")
            .field("embedder", &self.embedder.as_ref().map(|p| p.name()))
            .field("reranker", &self.reranker.as_ref().map(|p| p.name()))
            .field("store", &self.store.as_ref().map(|p| p.name()))
            .field("llm", &self.llm.as_ref().map(|p| p.name()))
            .field("settings", &self.settings)
            .field("pricing", &self.pricing)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn none_configures_nothing_and_says_what_to_set() {
        let p = Providers::none(Settings::default());
        let msg = |e: ProviderError| {
            assert!(matches!(e, ProviderError::NotConfigured(_)));
            e.to_string()
        };
        assert!(
            msg(p.embedder("query").err().unwrap())
                .starts_with("query: no embedding provider is configured. Set VOYAGE_API_KEY")
        );
        assert!(msg(p.reranker("rerank").err().unwrap()).contains("VOYAGE_API_KEY"));
        assert!(msg(p.store("ingest").err().unwrap()).contains("MONGODB_URI"));
        assert!(
            msg(p.llm("generate").err().unwrap()).starts_with(
                "generate: no LLM provider is configured. Set VAI_LLM_PROVIDER (anthropic, openai or ollama) and VAI_LLM_API_KEY"
            )
        );
        assert_eq!(
            format!("{p:?}").split("settings").next().unwrap(),
            "Providers { embedder: None, reranker: None, store: None, llm: None, "
        );
    }
}
