//! The chat engine: one question in, one recorded turn out, with every step of the way reported
//! as a [`ChatEvent`]. It picks the mode (agent, or the fixed pipeline) and records the turn;
//! a turn that fails or is cancelled is recorded too, with what it had.

use crate::history::{self, History, HistoryError};
use crate::options::{ChatOptions, MAX_QUESTION_BYTES};
use crate::sources::cut;
use crate::turn::{Turn, TurnSink, Work};
use crate::{agent, pipeline};
use std::sync::Arc;
use std::time::Instant;
use tokio_util::sync::CancellationToken;
use vai_contract::{ChatEvent, ChatMode, ChatSession, ChatTurn, TurnStatus};
use vai_providers::Pricing;
use vai_providers::llm::Llm;
use vai_runtime::tool_schema::BeforeTool;
use vai_workflow::{Limits as RunLimits, Registry};

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
    registry: Arc<Registry>,
    llm: Option<Arc<dyn Llm>>,
    history: Arc<dyn History>,
    limits: RunLimits,
    before_tool: Option<BeforeTool>,
    pricing: Pricing,
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
            pricing: Pricing::default(),
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

    /// What the model's calls cost: the price table with `.vai.json`'s overrides (the tools
    /// a turn calls price their own calls with the providers' pricing).
    pub fn with_pricing(mut self, pricing: Pricing) -> Self {
        self.pricing = pricing;
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
        let mut turn = Turn::new(sink);
        let turn_id = history::new_id()[..12].to_string();
        let started_at = history::now_ms();
        let started = Instant::now();
        turn.emit(ChatEvent::TurnStarted {
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
                registry: &self.registry,
                before_tool: self.before_tool.as_ref(),
                limits: self.limits,
                llm: llm.as_ref(),
                pricing: &self.pricing,
                question,
                options,
                earlier: &earlier,
            };
            let outcome = tokio::select! {
                result = answer(&work, &mut turn) => match result {
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
            method: turn.method,
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
        turn.emit(ChatEvent::TurnFinished {
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

/// Answer in the mode asked for: agent mode falls back to the fixed pipeline on a model that
/// cannot call tools, and says so.
async fn answer(work: &Work<'_>, turn: &mut Turn<'_, '_>) -> Result<(), String> {
    match work.options.mode {
        ChatMode::Agent if !work.llm.supports_tools() => {
            turn.notice(format!(
                "{} cannot call tools, so agent mode answered with the fixed pipeline; \
                 configure a tool-capable model (Claude, GPT-4o, llama3.1) for agent mode.",
                work.llm.default_model()
            ));
            pipeline::answer(work, turn).await
        }
        ChatMode::Agent => agent::answer(work, turn).await,
        ChatMode::Pipeline => pipeline::answer(work, turn).await,
    }
}

enum Outcome {
    Done,
    Failed(String),
    Cancelled,
}
