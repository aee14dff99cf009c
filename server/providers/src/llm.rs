//! The `Llm` trait: one chat completion from a language model.
//!
//! Streaming and tool calling arrive with the real clients; this is the non-streaming core that
//! the `generate` tool needs.

use crate::{ProviderError, TokenUsage};
use async_trait::async_trait;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    User,
    Assistant,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Message {
    pub role: Role,
    pub content: String,
}

impl Message {
    pub fn user(content: impl Into<String>) -> Self {
        Message {
            role: Role::User,
            content: content.into(),
        }
    }

    pub fn assistant(content: impl Into<String>) -> Self {
        Message {
            role: Role::Assistant,
            content: content.into(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct CompletionRequest {
    pub system: Option<String>,
    pub messages: Vec<Message>,
    /// `None` uses the provider's configured model (`VAI_LLM_MODEL` or its own default).
    pub model: Option<String>,
    pub temperature: Option<f64>,
    pub max_tokens: Option<u32>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Completion {
    pub text: String,
    /// The model that answered.
    pub model: String,
    pub usage: TokenUsage,
}

/// A chat model.
#[async_trait]
pub trait Llm: Send + Sync {
    /// The provider's name, reported per step and as `generate`'s `provider` ("anthropic", …).
    fn name(&self) -> &str;

    async fn complete(&self, request: CompletionRequest) -> Result<Completion, ProviderError>;
}
