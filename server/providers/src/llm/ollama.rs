//! Ollama through its OpenAI-compatible endpoint (`{base}/v1/chat/completions`, default base
//! `http://localhost:11434`). No key is needed; one is sent as a bearer token when configured
//! (for a proxy in front of Ollama).

use super::openai::ChatCompletions;
use super::transport::Limits;
use super::{Completion, CompletionRequest, Llm, StreamSink};
use crate::ProviderError;
use crate::net::RetryPolicy;
use async_trait::async_trait;

const NAME: &str = "ollama";
pub(super) const DEFAULT_BASE_URL: &str = "http://localhost:11434";

/// A client of a local (or remote) Ollama server.
pub struct Ollama {
    inner: ChatCompletions,
    base: String,
}

impl Ollama {
    /// The model used when the configuration names none.
    pub const DEFAULT_MODEL: &'static str = "llama3.1";

    /// `model` and `base_url` default to `llama3.1` and `http://localhost:11434`.
    pub fn new(
        api_key: Option<&str>,
        model: Option<&str>,
        base_url: Option<&str>,
    ) -> Result<Self, ProviderError> {
        let base = base_url.unwrap_or(DEFAULT_BASE_URL);
        Ok(Ollama {
            inner: ChatCompletions::new(
                NAME,
                api_key,
                model.unwrap_or(Self::DEFAULT_MODEL),
                base,
                "max_tokens",
            )?,
            base: base.to_string(),
        })
    }

    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.inner.transport.limits = limits;
        self
    }

    pub fn with_retry(mut self, retry: RetryPolicy) -> Self {
        self.inner.transport.retry = retry;
        self
    }
}

#[async_trait]
impl Llm for Ollama {
    fn name(&self) -> &str {
        NAME
    }

    fn default_model(&self) -> &str {
        &self.inner.model
    }

    /// `response_format` with a strict JSON Schema.
    fn supports_structured_output(&self) -> bool {
        true
    }

    async fn stream(
        &self,
        request: CompletionRequest,
        sink: &mut StreamSink<'_>,
    ) -> Result<Completion, ProviderError> {
        let model = request.model.clone();
        self.inner
            .stream(&request, sink)
            .await
            .map_err(|e| match e {
                // The usual cause: Ollama is not running, or the model was never pulled.
                ProviderError::Network { provider, message } => ProviderError::Network {
                    provider,
                    message: format!("{message} (is Ollama running at {}?)", self.base),
                },
                ProviderError::InvalidRequest { provider, message }
                    if message.contains("not found") =>
                {
                    let model = model.as_deref().unwrap_or(&self.inner.model);
                    ProviderError::InvalidRequest {
                        provider,
                        message: format!("{message} (run `ollama pull {model}`)"),
                    }
                }
                e => e,
            })
    }
}

#[cfg(test)]
mod tests;
