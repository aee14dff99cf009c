//! Sampling: when vai has no LLM of its own and the client offers sampling, the `generate`
//! steps of a workflow run started over MCP ask the client's own model
//! (`sampling/createMessage`) with the same system prompt, prompt and context, so an assistant
//! can run `w_rag_chat` with no LLM key in vai. The step's output names the model that answered
//! (`model`) and `mcp-client` as its provider.
//!
//! The run gets a registry whose tools are the usual ones with this model as their LLM (the
//! composition root builds it, [`WithLlm`]); the run manager runs it like any other run.
#![expect(
    deprecated,
    reason = "sampling is deprecated from protocol 2026-07-28 on; this server speaks the revisions before it, where sampling is how a server asks the client's model"
)]

use async_trait::async_trait;
use rmcp::model::{
    CreateMessageRequestParams, CreateMessageResult, ModelHint, ModelPreferences, SamplingMessage,
};
use rmcp::{Peer, RoleServer};
use std::sync::Arc;
use vai_providers::llm::{StopReason, StreamEvent, StreamSink};
use vai_providers::{Completion, CompletionRequest, Llm, ProviderError, Role, TokenUsage};
use vai_workflow::compile::StepKind;
use vai_workflow::{Plan, Registry};

/// The registry of vai's tools with `llm` as their LLM.
pub type WithLlm = Arc<dyn Fn(Arc<dyn Llm>) -> Arc<Registry> + Send + Sync>;

/// The provider name generate steps report for an answer from the client's model.
const PROVIDER: &str = "mcp-client";

/// Tokens asked for when a step sets no `maxTokens`.
const DEFAULT_MAX_TOKENS: u32 = 1024;

/// The client's model, reached through its peer.
pub(crate) struct ClientModel {
    peer: Peer<RoleServer>,
}

impl ClientModel {
    /// The client's model, when the client declared sampling.
    pub(crate) fn of(peer: &Peer<RoleServer>) -> Option<Self> {
        let info = peer.peer_info()?;
        info.capabilities.sampling.as_ref()?;
        Some(Self { peer: peer.clone() })
    }
}

/// Whether a step of `plan` runs `generate`.
pub(crate) fn generates(plan: &Plan) -> bool {
    plan.steps.iter().any(|s| match &s.kind {
        StepKind::Loop { tool, .. } => tool == "generate",
        _ => s.tool == "generate",
    })
}

#[async_trait]
impl Llm for ClientModel {
    fn name(&self) -> &str {
        PROVIDER
    }

    fn default_model(&self) -> &str {
        "the MCP client's model"
    }

    async fn stream(
        &self,
        request: CompletionRequest,
        sink: &mut StreamSink<'_>,
    ) -> Result<Completion, ProviderError> {
        if !request.tools.is_empty() {
            return Err(ProviderError::invalid_request(
                PROVIDER,
                "tool calls are not asked of the client's model",
            ));
        }
        let messages = request
            .messages
            .iter()
            .map(|m| match m.role {
                Role::Assistant => SamplingMessage::assistant_text(m.content.clone()),
                Role::User | Role::Tool => SamplingMessage::user_text(m.content.clone()),
            })
            .collect();
        let mut params = CreateMessageRequestParams::new(
            messages,
            request.max_tokens.unwrap_or(DEFAULT_MAX_TOKENS),
        );
        if let Some(system) = request.system {
            params = params.with_system_prompt(system);
        }
        if let Some(t) = request.temperature {
            params = params.with_temperature(t as f32);
        }
        if let Some(model) = request.model {
            params = params.with_model_preferences(
                ModelPreferences::new().with_hints(vec![ModelHint::new(model)]),
            );
        }
        let asked = self.peer.create_message(params).await;
        let result: CreateMessageResult = asked.map_err(|e| {
            ProviderError::other(PROVIDER, format!("the client's model did not answer: {e}"))
        })?;
        let text: String = result
            .message
            .content
            .iter()
            .filter_map(|c| c.as_text())
            .map(|t| t.text.as_str())
            .collect();
        sink(StreamEvent::Text(text.clone()));
        let stop_reason = match result.stop_reason.as_deref() {
            None | Some(CreateMessageResult::STOP_REASON_END_TURN) => StopReason::EndTurn,
            Some(CreateMessageResult::STOP_REASON_END_SEQUENCE) => StopReason::StopSequence,
            Some("maxTokens") => StopReason::MaxTokens,
            Some(other) => StopReason::Other(other.to_string()),
        };
        Ok(Completion {
            text,
            model: result.model,
            usage: TokenUsage::default(),
            tool_calls: Vec::new(),
            stop_reason,
        })
    }
}
