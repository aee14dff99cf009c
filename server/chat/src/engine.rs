//! The chat engine: one question in, one recorded turn out, with every step of the way reported
//! as a [`ChatEvent`]. A turn that fails or is cancelled is recorded too, with what it had.

use crate::history::{self, History, HistoryError};
use crate::options::{ChatOptions, MAX_QUESTION_BYTES};
use crate::sources::{Sources, cut};
use crate::{agent, pipeline, prompt};
use serde_json::{Map, Value};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio_util::sync::CancellationToken;
use vai_contract::{
    ChatEvent, ChatMode, ChatSession, ChatTimings, ChatToolCall, ChatTurn, TurnState, TurnStatus,
};
use vai_providers::llm::{CompletionRequest, Llm, StopReason, StreamEvent};
use vai_runtime::tool_schema::BeforeTool;
use vai_workflow::{Limits as RunLimits, Registry, ToolError, Usage, run_alone};

/// Longest wait for one tool call of a turn.
const TOOL_TIMEOUT: Duration = Duration::from_secs(120);

/// Where a turn's events go.
pub type TurnSink<'a> = dyn FnMut(ChatEvent) + Send + 'a;

/// Why a question was not asked at all (nothing is recorded).
#[derive(Debug, thiserror::Error)]
pub enum ChatError {
    #[error("{0}")]
    NoLlm(String),
    #[error("the question is empty")]
    EmptyQuestion,
    #[error(transparent)]
    History(#[from] HistoryError),
}

/// What a chat needs: the tools, the model, the history.
#[derive(Clone)]
pub struct ChatEngine {
    pub(crate) registry: Arc<Registry>,
    pub(crate) llm: Option<Arc<dyn Llm>>,
    history: Arc<dyn History>,
    pub(crate) limits: RunLimits,
    pub(crate) before_tool: Option<BeforeTool>,
}

/// What to say when there is no LLM.
const NO_LLM: &str = "no LLM is configured: set VAI_LLM_PROVIDER (anthropic, openai or ollama) and \
                      its key, or fetch the local model with `bash scripts/fetch-model.sh`";

impl std::fmt::Debug for ChatEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ChatEngine")
            .field("llm", &self.llm.as_ref().map(|l| l.name().to_string()))
            .field("history", &self.history.kind())
            .finish_non_exhaustive()
    }
}

impl ChatEngine {
    pub fn new(
        registry: Arc<Registry>,
        llm: Option<Arc<dyn Llm>>,
        history: Arc<dyn History>,
    ) -> Self {
        ChatEngine {
            registry,
            llm,
            history,
            limits: RunLimits::DEFAULT,
            before_tool: None,
        }
    }

    /// The tools agent mode calls.
    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    /// Bounds on the values tools make (`.vai.json` `limits`).
    pub fn with_limits(mut self, limits: RunLimits) -> Self {
        self.limits = limits;
        self
    }

    /// Work to finish before a tool runs (seeding the sample knowledge base).
    pub fn with_before_tool(mut self, before: BeforeTool) -> Self {
        self.before_tool = Some(before);
        self
    }

    pub fn llm(&self) -> Option<&Arc<dyn Llm>> {
        self.llm.as_ref()
    }

    pub fn history(&self) -> &Arc<dyn History> {
        &self.history
    }

    /// What to tell the user when no LLM is available.
    pub fn no_llm_hint(&self) -> &str {
        NO_LLM
    }

    /// Whether agent mode can run on the model.
    pub fn supports_tools(&self) -> bool {
        self.llm.as_ref().is_some_and(|l| l.supports_tools())
    }

    /// A session, or a clear error when there is none by that id.
    pub async fn session(&self, id: &str) -> Result<ChatSession, HistoryError> {
        history::check_id(id)?;
        self.history
            .load(id)
            .await?
            .ok_or_else(|| HistoryError::NotFound(id.to_string()))
    }

    /// Ask `question` in session `session_id` (created by its first turn). The turn is
    /// recorded whatever happens to it — done, failed or cancelled — and returned; its events
    /// go to `sink`, the last one `turn_finished`.
    pub async fn ask(
        &self,
        session_id: &str,
        question: &str,
        options: &ChatOptions,
        sink: &mut TurnSink<'_>,
        cancel: &CancellationToken,
    ) -> Result<ChatTurn, ChatError> {
        history::check_id(session_id)?;
        let Some(llm) = self.llm.clone() else {
            return Err(ChatError::NoLlm(NO_LLM.to_string()));
        };
        if question.trim().is_empty() {
            return Err(ChatError::EmptyQuestion);
        }
        let earlier = self
            .history
            .load(session_id)
            .await?
            .map(|s| s.turns)
            .unwrap_or_default();
        let model = options
            .model
            .clone()
            .unwrap_or_else(|| llm.default_model().to_string());
        let mut turn = Turn {
            sink,
            answer: String::new(),
            answering: false,
            sources: Sources::default(),
            tool_calls: Vec::new(),
            usage: Usage::default(),
            timings: ChatTimings::default(),
            notice: None,
        };
        let turn_id = history::new_id()[..12].to_string();
        let started_at = history::now_ms();
        let started = Instant::now();
        (turn.sink)(ChatEvent::TurnStarted {
            session_id: session_id.to_string(),
            turn_id: turn_id.clone(),
            mode: options.mode,
            provider: llm.name().to_string(),
            model: model.clone(),
        });

        let (recorded_question, outcome) = if question.len() > MAX_QUESTION_BYTES {
            (
                cut(question, MAX_QUESTION_BYTES),
                Outcome::Failed(format!(
                    "the question is {} KB; a question may be at most {} KB",
                    question.len().div_ceil(1024),
                    MAX_QUESTION_BYTES / 1024
                )),
            )
        } else {
            let work = Work {
                engine: self,
                llm: llm.as_ref(),
                question,
                options,
                earlier: &earlier,
            };
            let outcome = tokio::select! {
                result = work.run(&mut turn) => match result {
                    Ok(()) => Outcome::Done,
                    Err(message) => Outcome::Failed(message),
                },
                () = cancel.cancelled() => Outcome::Cancelled,
            };
            (question.to_string(), outcome)
        };

        turn.timings.total_ms = started.elapsed().as_millis() as u64;
        let (status, error) = match outcome {
            Outcome::Done => (TurnStatus::Done, None),
            Outcome::Failed(message) => (TurnStatus::Failed, Some(message)),
            Outcome::Cancelled => (TurnStatus::Cancelled, None),
        };
        let record = ChatTurn {
            id: turn_id,
            question: recorded_question,
            answer: turn.answer.trim().to_string(),
            status,
            error,
            mode: options.mode,
            notice: turn.notice.clone(),
            sources: turn.sources.list.clone(),
            tool_calls: turn.tool_calls.clone(),
            provider: llm.name().to_string(),
            model,
            usage: turn.usage.clone(),
            timings: turn.timings,
            started_at,
        };
        // A tool's error or the model may have echoed a key: the record keeps none of it.
        let record = masked(record);
        let saved = self.history.append(session_id, &record).await;
        (turn.sink)(ChatEvent::TurnFinished {
            turn: record.clone(),
        });
        saved?;
        Ok(record)
    }
}

/// `turn` with every registered key masked (`vai_redact`), when it held any.
fn masked(turn: ChatTurn) -> ChatTurn {
    let Ok(mut value) = serde_json::to_value(&turn) else {
        return turn;
    };
    if !vai_redact::mask_value(&mut value) {
        return turn;
    }
    serde_json::from_value(value).unwrap_or(turn)
}

enum Outcome {
    Done,
    Failed(String),
    Cancelled,
}

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
    notice: Option<String>,
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

/// One question being answered.
pub(crate) struct Work<'e> {
    pub(crate) engine: &'e ChatEngine,
    pub(crate) llm: &'e dyn Llm,
    pub(crate) question: &'e str,
    pub(crate) options: &'e ChatOptions,
    /// The session's turns before this one.
    pub(crate) earlier: &'e [ChatTurn],
}

impl Work<'_> {
    async fn run(&self, turn: &mut Turn<'_, '_>) -> Result<(), String> {
        match self.options.mode {
            ChatMode::Agent if !self.llm.supports_tools() => {
                turn.notice(format!(
                    "{} cannot call tools, so agent mode answered with the fixed pipeline; \
                     configure a tool-capable model (Claude, GPT-4o, llama3.1) for agent mode.",
                    self.llm.default_model()
                ));
                pipeline::answer(self, turn).await
            }
            ChatMode::Agent => agent::answer(self, turn).await,
            ChatMode::Pipeline => pipeline::answer(self, turn).await,
        }
    }

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
        turn.usage.llm_input_tokens += completion.usage.input_tokens;
        turn.usage.llm_output_tokens += completion.usage.output_tokens;
        turn.usage.requests += 1;
        Ok(completion)
    }

    /// Run registry tool `tool` with `args`, within the turn's limits and a timeout.
    pub(crate) async fn run_tool(
        &self,
        tool: &str,
        args: Map<String, Value>,
    ) -> Result<(Value, Option<Usage>), String> {
        let engine = self.engine;
        let Some(implementation) = engine.registry.tool(tool) else {
            return Err(format!("the tool \"{tool}\" is not available"));
        };
        if let Some(before) = &engine.before_tool {
            before(tool).await;
        }
        let call = run_alone(implementation.as_ref(), "chat", args, engine.limits);
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

/// A tool's error as one sentence.
fn tool_error(e: &ToolError) -> String {
    e.to_string()
}
