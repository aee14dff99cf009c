//! [`GroundedLlm`]: the small local model, answering from sources by quoting them.

use super::{Grounded, SourceText, Tuning, answer};
use crate::llm::{Completion, CompletionRequest, Llm, StreamSink};
use crate::{Embedder, ProviderError};
use async_trait::async_trait;
use std::sync::Arc;

/// A model that answers from retrieved sources by quoting them ([`answer`]) and writes
/// everything else (a prompt with no sources, a conversation) as the model it wraps: the small
/// local model, which invents when it writes from sources.
pub struct GroundedLlm {
    llm: Arc<dyn Llm>,
    embedder: Arc<dyn Embedder>,
    tuning: Tuning,
}

impl GroundedLlm {
    /// `llm` answering from sources with `embedder`'s sentence vectors.
    pub fn new(llm: Arc<dyn Llm>, embedder: Arc<dyn Embedder>) -> Self {
        GroundedLlm {
            llm,
            embedder,
            tuning: Tuning::DEFAULT,
        }
    }

    /// The same with other knobs (`vai bench answers --tune`).
    pub fn with_tuning(mut self, tuning: Tuning) -> Self {
        self.tuning = tuning;
        self
    }
}

#[async_trait]
impl Llm for GroundedLlm {
    fn name(&self) -> &str {
        self.llm.name()
    }

    fn default_model(&self) -> &str {
        self.llm.default_model()
    }

    fn supports_tools(&self) -> bool {
        self.llm.supports_tools()
    }

    fn supports_structured_output(&self) -> bool {
        self.llm.supports_structured_output()
    }

    fn context_tokens(&self) -> Option<usize> {
        self.llm.context_tokens()
    }

    async fn stream(
        &self,
        request: CompletionRequest,
        sink: &mut StreamSink<'_>,
    ) -> Result<Completion, ProviderError> {
        self.llm.stream(request, sink).await
    }

    async fn ground(
        &self,
        question: &str,
        sources: &[SourceText<'_>],
    ) -> Option<Result<Grounded, ProviderError>> {
        Some(answer(self.embedder.as_ref(), question, sources, self.tuning).await)
    }
}
