//! One turn while it is being answered: what it has gathered so far ([`Turn`]: the answer, the
//! sources, the tool calls, usage and timings, reported to the turn's sink as they change) and
//! the question with what answering it may use ([`Work`]: the model, the tools, the options,
//! the earlier turns). The agent and the pipeline both answer through these; the engine makes
//! them, picks the mode and records the result.

use crate::options::ChatOptions;
use crate::prompt;
use crate::sources::Sources;
use serde_json::{Map, Value};
use std::time::{Duration, Instant};
use vai_contract::{
    AnswerMethod, ChatEvent, ChatTimings, ChatToolCall, ChatTurn, TurnState, TurnStatus,
};
use vai_providers::llm::{CompletionRequest, Llm, StopReason, StreamEvent};
use vai_providers::{Pricing, TokenUsage};
use vai_runtime::tool_schema::BeforeTool;
use vai_workflow::{Cost, Limits as RunLimits, Registry, ToolError, Usage, run_alone};

/// Longest wait for one tool call of a turn.
const TOOL_TIMEOUT: Duration = Duration::from_secs(120);

/// Where a turn's events go.
pub type TurnSink<'a> = dyn FnMut(ChatEvent) + Send + 'a;

/// What a turn has gathered so far; kept when the turn fails or is cancelled.
pub(crate) struct Turn<'s, 'a> {
    sink: &'s mut TurnSink<'a>,
    pub(crate) answer: String,
    /// The `answering` state was reported for the current model call.
    answering: bool,
    pub(crate) sources: Sources,
    pub(crate) tool_calls: Vec<ChatToolCall>,
    pub(crate) usage: Usage,
    pub(crate) timings: ChatTimings,
    /// What the person is told besides the answer (a fallback, a cut-off answer), sentences
    /// joined in the order they came.
    pub(crate) notice: Option<String>,
    /// How the answer was made, when the pipeline knows (a grounded offline answer).
    pub(crate) method: Option<AnswerMethod>,
}

impl<'s, 'a> Turn<'s, 'a> {
    /// A turn with nothing gathered yet, reporting to `sink`.
    pub(crate) fn new(sink: &'s mut TurnSink<'a>) -> Self {
        Turn {
            sink,
            answer: String::new(),
            answering: false,
            sources: Sources::default(),
            tool_calls: Vec::new(),
            usage: Usage::default(),
            timings: ChatTimings::default(),
            notice: None,
            method: None,
        }
    }
}

impl Turn<'_, '_> {
    pub(crate) fn emit(&mut self, event: ChatEvent) {
        (self.sink)(event);
    }

    pub(crate) fn state(&mut self, state: TurnState, label: impl Into<String>) {
        self.answering = state == TurnState::Answering;
        self.emit(ChatEvent::State {
            state,
            label: label.into(),
        });
    }

    pub(crate) fn notice(&mut self, message: impl Into<String>) {
        let message = message.into();
        self.notice = Some(match self.notice.take() {
            Some(earlier) => format!("{earlier} {message}"),
            None => message.clone(),
        });
        self.emit(ChatEvent::Notice { message });
    }

    pub(crate) fn sources_changed(&mut self) {
        let sources = self.sources.list.clone();
        self.emit(ChatEvent::Sources { sources });
    }

    /// Start a new paragraph of the answer (text the model writes after calling tools).
    pub(crate) fn paragraph(&mut self) {
        if !self.answer.is_empty() && !self.answer.ends_with("\n\n") {
            self.answer.push_str("\n\n");
            self.emit(ChatEvent::Text {
                delta: "\n\n".to_string(),
            });
        }
    }

    /// The whole answer at once, made without the model writing it (quoted from the sources).
    pub(crate) fn quoted(&mut self, answer: String) {
        self.answering = false;
        self.text(answer);
    }

    fn text(&mut self, delta: String) {
        if delta.is_empty() {
            return;
        }
        if !self.answering {
            self.state(TurnState::Answering, "Answering");
        }
        self.answer.push_str(&delta);
        self.emit(ChatEvent::Text { delta });
    }
}

/// One question being answered, and what answering it may use.
pub(crate) struct Work<'e> {
    /// The tools agent mode calls (and the pipeline's `query`).
    pub(crate) registry: &'e Registry,
    /// Work to finish before a tool runs.
    pub(crate) before_tool: Option<&'e BeforeTool>,
    /// Bounds on the values tools make.
    pub(crate) limits: RunLimits,
    pub(crate) llm: &'e dyn Llm,
    /// What the model's calls cost.
    pub(crate) pricing: &'e Pricing,
    pub(crate) question: &'e str,
    pub(crate) options: &'e ChatOptions,
    /// The session's turns before this one.
    pub(crate) earlier: &'e [ChatTurn],
}

impl Work<'_> {
    /// The system prompt: the user's, or the mode's default; with a summary of the turns the
    /// window leaves out, when the model is large enough to write one.
    pub(crate) async fn system(&self, default: &str, dropped: usize) -> String {
        let mut system = self
            .options
            .system_prompt
            .clone()
            .unwrap_or_else(|| default.to_string());
        if dropped > 0 && self.llm.context_tokens().is_none() {
            let older: Vec<ChatTurn> = self
                .earlier
                .iter()
                .filter(|t| t.status == TurnStatus::Done)
                .take(dropped)
                .cloned()
                .collect();
            let request = CompletionRequest {
                messages: vec![vai_providers::llm::Message::user(prompt::summary_request(
                    &older,
                ))],
                model: self.options.model.clone(),
                max_tokens: Some(300),
                ..CompletionRequest::default()
            };
            // A summary that cannot be had is left out: the recent turns still go.
            if let Ok(summary) = self.llm.complete(request).await
                && !summary.text.trim().is_empty()
            {
                system.push_str("\n\nThe conversation so far, summarized: ");
                system.push_str(summary.text.trim());
            }
        }
        system
    }

    /// Run one model call, streaming its text to the turn; the completion once it stops.
    pub(crate) async fn generate(
        &self,
        turn: &mut Turn<'_, '_>,
        request: CompletionRequest,
    ) -> Result<vai_providers::llm::Completion, String> {
        let started = Instant::now();
        turn.answering = false;
        let result = if self.options.stream {
            self.llm
                .stream(request, &mut |event| {
                    if let StreamEvent::Text(delta) = event {
                        turn.text(delta);
                    }
                })
                .await
        } else {
            let result = self.llm.complete(request).await;
            if let Ok(completion) = &result {
                turn.text(completion.text.clone());
            }
            result
        };
        turn.timings.generation_ms += started.elapsed().as_millis() as u64;
        // The provider's errors name it already ("openai: …").
        let completion = result.map_err(|e| e.to_string())?;
        if completion.stop_reason == StopReason::MaxTokens {
            turn.notice(
                "The answer reached the model's length limit and is cut off; ask for the rest, \
                 or for a shorter answer.",
            );
        }
        turn.usage.add(&Usage {
            llm_input_tokens: completion.usage.input_tokens,
            llm_output_tokens: completion.usage.output_tokens,
            requests: 1,
            cost: Some(cost(
                self.pricing,
                self.llm.name(),
                &completion.model,
                completion.usage,
            )),
            ..Usage::default()
        });
        Ok(completion)
    }

    /// Run registry tool `tool` with `args`, within the turn's limits and a timeout.
    pub(crate) async fn run_tool(
        &self,
        tool: &str,
        args: Map<String, Value>,
    ) -> Result<(Value, Option<Usage>), String> {
        let Some(implementation) = self.registry.tool(tool) else {
            return Err(format!("the tool \"{tool}\" is not available"));
        };
        if let Some(before) = self.before_tool {
            before(tool).await;
        }
        let call = run_alone(implementation.as_ref(), "chat", args, self.limits);
        match tokio::time::timeout(TOOL_TIMEOUT, call).await {
            Ok(Ok(out)) => Ok((out.output, out.usage)),
            Ok(Err(e)) => Err(tool_error(&e)),
            Err(_) => Err(format!(
                "{tool} took longer than {} s",
                TOOL_TIMEOUT.as_secs()
            )),
        }
    }
}

/// What one model call of the turn cost, as a [`Cost`] (the tools make theirs alike).
fn cost(pricing: &Pricing, backend: &str, model: &str, usage: TokenUsage) -> Cost {
    let charge = pricing.charge(backend, model, usage, true);
    Cost {
        usd: charge.usd,
        input_per_mtok: charge.input_per_mtok,
        output_per_mtok: charge.output_per_mtok,
        priced_at: charge.priced_at.to_string(),
        unpriced: charge.unpriced.into_iter().collect(),
        reason: charge.reason,
    }
}

/// A tool's error as one sentence.
fn tool_error(e: &ToolError) -> String {
    e.to_string()
}
