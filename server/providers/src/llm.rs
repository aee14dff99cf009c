//! The `Llm` trait: a chat model that streams its answer and can call tools, and the message,
//! tool and completion types every provider shares.
//!
//! Providers implement [`Llm::stream`]; [`Llm::complete`] collects it. The real clients live in
//! the submodules (Anthropic Messages, OpenAI Chat Completions, Ollama's OpenAI-compatible
//! endpoint) and are built from configuration by [`llm_from_config`]: adding a provider is one
//! module and one arm there.

mod anthropic;
mod ollama;
mod openai;
mod sse;
#[cfg(test)]
mod testkit;
pub mod tool_loop;
mod transport;

pub use crate::net::RetryPolicy;
pub use anthropic::Anthropic;
pub use ollama::Ollama;
pub use openai::OpenAi;
pub use transport::Limits;

use crate::grounded::{Grounded, SourceText};
use crate::{ProviderError, TokenUsage};
use async_trait::async_trait;
use serde_json::Value;
use std::sync::Arc;
use std::time::Duration;

/// Who wrote a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    User,
    Assistant,
    /// The result of a tool the assistant called (see [`Message::tool_result`]).
    Tool,
}

/// One turn of a conversation.
#[derive(Debug, Clone, PartialEq)]
pub struct Message {
    pub role: Role,
    /// The text: the user's words, the assistant's answer, or a tool's result.
    pub content: String,
    /// Assistant turns: the tools the model asked to call, in order.
    pub tool_calls: Vec<LlmToolCall>,
    /// Tool turns: the id of the call this answers.
    pub tool_call_id: Option<String>,
    /// Tool turns: the tool failed and `content` says why.
    pub is_error: bool,
}

impl Message {
    fn new(role: Role, content: String) -> Self {
        Message {
            role,
            content,
            tool_calls: Vec::new(),
            tool_call_id: None,
            is_error: false,
        }
    }

    pub fn user(content: impl Into<String>) -> Self {
        Message::new(Role::User, content.into())
    }

    pub fn assistant(content: impl Into<String>) -> Self {
        Message::new(Role::Assistant, content.into())
    }

    /// An assistant turn that called tools (`content` may be empty).
    pub fn assistant_with_tool_calls(content: impl Into<String>, calls: Vec<LlmToolCall>) -> Self {
        Message {
            tool_calls: calls,
            ..Message::assistant(content)
        }
    }

    /// What the tool called as `call_id` returned; `is_error` when it failed.
    pub fn tool_result(
        call_id: impl Into<String>,
        content: impl Into<String>,
        is_error: bool,
    ) -> Self {
        Message {
            tool_call_id: Some(call_id.into()),
            is_error,
            ..Message::new(Role::Tool, content.into())
        }
    }
}

/// A tool the model may call. `input_schema` is a JSON Schema object for the arguments.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolDefinition {
    pub name: String,
    pub description: String,
    pub input_schema: Value,
}

/// A call the model made: the provider's call id, the tool's name and its parsed arguments
/// (always a JSON value; `{}` when the model sent none).
#[derive(Debug, Clone, PartialEq)]
pub struct LlmToolCall {
    pub id: String,
    pub name: String,
    pub arguments: Value,
}

/// Why the model stopped.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum StopReason {
    /// It finished its answer.
    #[default]
    EndTurn,
    /// It reached `max_tokens`; the text is cut off.
    MaxTokens,
    /// It wants the results of its `tool_calls` before going on.
    ToolUse,
    /// It produced one of the stop sequences.
    StopSequence,
    /// Anything else the provider reported (e.g. OpenAI's `content_filter`).
    Other(String),
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct CompletionRequest {
    pub system: Option<String>,
    pub messages: Vec<Message>,
    /// `None` uses the provider's configured model (`VAI_LLM_MODEL` or its own default).
    pub model: Option<String>,
    pub temperature: Option<f64>,
    pub max_tokens: Option<u32>,
    /// Tools the model may call; empty for plain generation.
    pub tools: Vec<ToolDefinition>,
    /// A JSON Schema the answer must follow (see [`crate::structured`]): the provider keeps it
    /// when [`Llm::supports_structured_output`], else the caller checks the answer.
    pub response_format: Option<Value>,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Completion {
    /// The answer's text (all text blocks, in order).
    pub text: String,
    /// The model that answered.
    pub model: String,
    pub usage: TokenUsage,
    /// Tools the model asked to call; non-empty with [`StopReason::ToolUse`].
    pub tool_calls: Vec<LlmToolCall>,
    pub stop_reason: StopReason,
}

impl Completion {
    /// The completion as the assistant turn to append to the conversation.
    pub fn message(&self) -> Message {
        Message::assistant_with_tool_calls(self.text.clone(), self.tool_calls.clone())
    }
}

/// What a streaming call reports while the answer arrives.
#[derive(Debug, Clone, PartialEq)]
pub enum StreamEvent {
    /// The next piece of the answer's text.
    Text(String),
    /// The model began calling a tool; its arguments are still arriving.
    ToolCallStarted { id: String, name: String },
    /// A tool call is complete.
    ToolCall(LlmToolCall),
}

/// Where streaming events go. A plain closure: `&mut |event| …`.
pub type StreamSink<'a> = dyn FnMut(StreamEvent) + Send + 'a;

/// A chat model.
#[async_trait]
pub trait Llm: Send + Sync {
    /// The provider's name, reported per step and as `generate`'s `provider` ("anthropic", …).
    fn name(&self) -> &str;

    /// The model used when a request names none.
    fn default_model(&self) -> &str;

    /// Whether the model can be given tools to call (chat's agent mode needs it).
    fn supports_tools(&self) -> bool {
        true
    }

    /// Whether an answer to a request with `response_format` always follows the schema (the
    /// provider enforces it); otherwise the schema is only asked for in the prompt.
    fn supports_structured_output(&self) -> bool {
        false
    }

    /// The prompt size the model handles well, in tokens; `None` for the large hosted models,
    /// whose windows are far beyond what chat sends. A small local model reports its budget,
    /// so chat sends fewer, shorter documents and keeps it out of summarizing.
    fn context_tokens(&self) -> Option<usize> {
        None
    }

    /// Run one completion, passing text and tool calls to `sink` as they arrive; returns the
    /// whole completion (the same text and calls) with token usage once the model stops.
    async fn stream(
        &self,
        request: CompletionRequest,
        sink: &mut StreamSink<'_>,
    ) -> Result<Completion, ProviderError>;

    /// Run one completion and return it whole.
    async fn complete(&self, request: CompletionRequest) -> Result<Completion, ProviderError> {
        self.stream(request, &mut |_| {}).await
    }

    /// Answer `question` from `sources` by quoting them, for a model too small to write a
    /// grounded answer itself (see [`crate::grounded`]); `None` for models that write their
    /// answers (every configured provider), and then the caller asks [`Llm::stream`].
    async fn ground(
        &self,
        question: &str,
        sources: &[SourceText<'_>],
    ) -> Option<Result<Grounded, ProviderError>> {
        let _ = (question, sources);
        None
    }
}

/// The LLM settings the composition root gathered (`VAI_LLM_PROVIDER`, `VAI_LLM_API_KEY`,
/// `VAI_LLM_MODEL`, `VAI_LLM_BASE_URL`, or the user config). Empty strings count as unset.
#[derive(Clone, PartialEq, Eq)]
pub struct LlmConfig {
    /// `anthropic`, `openai` or `ollama`.
    pub provider: String,
    pub api_key: Option<String>,
    /// `None` uses the provider's default model.
    pub model: Option<String>,
    /// `None` uses the provider's public endpoint (or `http://localhost:11434` for Ollama).
    pub base_url: Option<String>,
    /// Longest wait for a connection, for the response to start, and between streamed chunks.
    pub timeout: Duration,
}

impl LlmConfig {
    /// Wait this long for a connection, the first byte, and each further chunk.
    pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

    pub fn new(provider: impl Into<String>) -> Self {
        LlmConfig {
            provider: provider.into(),
            api_key: None,
            model: None,
            base_url: None,
            timeout: Self::DEFAULT_TIMEOUT,
        }
    }

    fn api_key(&self) -> Option<&str> {
        set(&self.api_key)
    }

    fn model(&self) -> Option<&str> {
        set(&self.model)
    }

    fn base_url(&self) -> Option<&str> {
        set(&self.base_url)
    }
}

/// Never prints the key.
impl std::fmt::Debug for LlmConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LlmConfig")
            .field("provider", &self.provider)
            .field("api_key", &self.api_key.as_ref().map(|_| "<redacted>"))
            .field("model", &self.model)
            .field("base_url", &self.base_url)
            .field("timeout", &self.timeout)
            .finish()
    }
}

fn set(value: &Option<String>) -> Option<&str> {
    value.as_deref().map(str::trim).filter(|v| !v.is_empty())
}

/// The providers `llm_from_config` knows, as `VAI_LLM_PROVIDER` names them.
pub const LLM_PROVIDERS: [&str; 3] = ["anthropic", "openai", "ollama"];

/// The model `provider` answers with when `VAI_LLM_MODEL` names none; `None` for a provider
/// vai does not know.
pub fn default_model(provider: &str) -> Option<&'static str> {
    match provider.trim().to_ascii_lowercase().as_str() {
        "anthropic" => Some(Anthropic::DEFAULT_MODEL),
        "openai" => Some(OpenAi::DEFAULT_MODEL),
        "ollama" => Some(Ollama::DEFAULT_MODEL),
        _ => None,
    }
}

/// Build the configured LLM client. An unknown provider, or a missing key for a provider that
/// needs one, is [`ProviderError::NotConfigured`] saying what to set.
pub fn llm_from_config(cfg: &LlmConfig) -> Result<Arc<dyn Llm>, ProviderError> {
    let provider = cfg.provider.trim().to_ascii_lowercase();
    let key = || {
        cfg.api_key().ok_or_else(|| {
            ProviderError::NotConfigured(format!(
                "the {provider} LLM provider needs an API key: set VAI_LLM_API_KEY (or run \
                 `vai config set llm-api-key <key>`)."
            ))
        })
    };
    let limits = Limits::with_timeout(cfg.timeout);
    Ok(match provider.as_str() {
        "anthropic" => {
            Arc::new(Anthropic::new(key()?, cfg.model(), cfg.base_url())?.with_limits(limits))
        }
        "openai" => Arc::new(OpenAi::new(key()?, cfg.model(), cfg.base_url())?.with_limits(limits)),
        "ollama" => {
            Arc::new(Ollama::new(cfg.api_key(), cfg.model(), cfg.base_url())?.with_limits(limits))
        }
        "" => {
            return Err(ProviderError::NotConfigured(format!(
                "no LLM provider is configured. Set VAI_LLM_PROVIDER to one of {} (or run \
                 `vai config set llm-provider <name>`).",
                LLM_PROVIDERS.join(", ")
            )));
        }
        other => {
            return Err(ProviderError::NotConfigured(format!(
                "unknown LLM provider \"{other}\": set VAI_LLM_PROVIDER to one of {}.",
                LLM_PROVIDERS.join(", ")
            )));
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn not_configured(cfg: &LlmConfig) -> String {
        match llm_from_config(cfg) {
            Err(ProviderError::NotConfigured(message)) => message,
            Err(e) => panic!("expected NotConfigured, got {e:?}"),
            Ok(llm) => panic!("expected an error, built {}", llm.name()),
        }
    }

    #[test]
    fn config_picks_the_provider_with_its_defaults() {
        let with_key = |provider: &str| LlmConfig {
            api_key: Some("sk-test".into()),
            ..LlmConfig::new(provider)
        };
        let llm = llm_from_config(&with_key("anthropic")).unwrap();
        assert_eq!(
            (llm.name(), llm.default_model()),
            ("anthropic", "claude-sonnet-4-5")
        );
        // What estimates assume a provider answers with, before it is built.
        for provider in LLM_PROVIDERS {
            let built = llm_from_config(&with_key(provider)).unwrap();
            assert_eq!(default_model(provider), Some(built.default_model()));
        }
        assert_eq!(default_model(" OpenAI "), Some("gpt-4o"));
        assert_eq!(default_model("mistral"), None);
        let llm = llm_from_config(&with_key(" OpenAI ")).unwrap();
        assert_eq!((llm.name(), llm.default_model()), ("openai", "gpt-4o"));
        let llm = llm_from_config(&LlmConfig::new("ollama")).unwrap();
        assert_eq!((llm.name(), llm.default_model()), ("ollama", "llama3.1"));
        let llm = llm_from_config(&LlmConfig {
            model: Some("qwen3".into()),
            base_url: Some(" ".into()),
            ..LlmConfig::new("ollama")
        })
        .unwrap();
        assert_eq!(llm.default_model(), "qwen3");
    }

    #[test]
    fn unknown_provider_lists_the_known_ones() {
        let message = not_configured(&LlmConfig::new("bedrock"));
        assert_eq!(
            message,
            "unknown LLM provider \"bedrock\": set VAI_LLM_PROVIDER to one of anthropic, openai, ollama."
        );
        assert!(not_configured(&LlmConfig::new("")).contains("VAI_LLM_PROVIDER"));
    }

    #[test]
    fn missing_key_says_to_set_vai_llm_api_key() {
        for provider in ["anthropic", "openai"] {
            let cfg = LlmConfig {
                api_key: Some("  ".into()),
                ..LlmConfig::new(provider)
            };
            let message = not_configured(&cfg);
            assert!(message.contains(provider), "{message}");
            assert!(message.contains("set VAI_LLM_API_KEY"), "{message}");
        }
    }

    #[test]
    fn debug_output_hides_the_key() {
        let cfg = LlmConfig {
            api_key: Some("sk-secret".into()),
            ..LlmConfig::new("openai")
        };
        let shown = format!("{cfg:?}");
        assert!(
            !shown.contains("sk-secret") && shown.contains("<redacted>"),
            "{shown}"
        );
    }

    #[test]
    fn a_completion_becomes_the_assistant_turn() {
        let call = LlmToolCall {
            id: "c1".into(),
            name: "search".into(),
            arguments: serde_json::json!({"q": "x"}),
        };
        let completion = Completion {
            text: "Let me look.".into(),
            tool_calls: vec![call.clone()],
            stop_reason: StopReason::ToolUse,
            ..Completion::default()
        };
        let message = completion.message();
        assert_eq!(
            (message.role, message.content.as_str()),
            (Role::Assistant, "Let me look.")
        );
        assert_eq!(message.tool_calls, vec![call]);
        let result = Message::tool_result("c1", "3 hits", false);
        assert_eq!(
            (result.role, result.tool_call_id.as_deref()),
            (Role::Tool, Some("c1"))
        );
    }
}
