//! `FakeLlm`: answers with a deterministic echo of the prompt (tests only).

use super::{Faults, Log, words};
use crate::{Completion, CompletionRequest, Llm, ProviderError, Role, TokenUsage};
use async_trait::async_trait;

/// Test-only LLM: the answer is `"fake answer to: <last user message>"`. The model is the
/// requested one, else `fake-llm`.
#[derive(Debug)]
pub struct FakeLlm {
    name: String,
    requests: Log<CompletionRequest>,
    faults: Faults,
}

impl Default for FakeLlm {
    fn default() -> Self {
        Self::new()
    }
}

impl FakeLlm {
    pub fn new() -> Self {
        FakeLlm {
            name: "fake".into(),
            requests: Log::new(),
            faults: Faults::default(),
        }
    }

    pub fn named(mut self, name: impl Into<String>) -> Self {
        self.name = name.into();
        self
    }

    pub fn requests(&self) -> Vec<CompletionRequest> {
        self.requests.all()
    }

    pub fn fail_next(&self, error: ProviderError) {
        self.faults.push(error);
    }
}

#[async_trait]
impl Llm for FakeLlm {
    fn name(&self) -> &str {
        &self.name
    }

    async fn complete(&self, request: CompletionRequest) -> Result<Completion, ProviderError> {
        self.requests.push(request.clone());
        self.faults.take()?;
        let last_user = request
            .messages
            .iter()
            .rev()
            .find(|m| m.role == Role::User)
            .map_or("", |m| m.content.as_str());
        let text = format!("fake answer to: {last_user}");
        let input_tokens = request
            .system
            .iter()
            .map(|s| words(s).count())
            .sum::<usize>()
            + request
                .messages
                .iter()
                .map(|m| words(&m.content).count())
                .sum::<usize>();
        Ok(Completion {
            usage: TokenUsage {
                input_tokens: input_tokens as u64,
                output_tokens: words(&text).count() as u64,
            },
            text,
            model: request.model.unwrap_or_else(|| "fake-llm".into()),
        })
    }
}
