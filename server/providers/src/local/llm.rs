//! `LocalLlm`: the offline default LLM, SmolLM2-135M-Instruct (Q4_1 GGUF), run in-process with
//! candle. The file is found on disk ([`find_gguf`]) — never downloaded at run time — and loaded
//! on the first call. Small, for demos: it answers, it does not call tools.

mod constrained;
mod locate;

pub use locate::find_gguf;

use crate::llm::{Completion, CompletionRequest, Llm, Role, StopReason, StreamEvent, StreamSink};
use crate::structured::Schema;
use crate::{ProviderError, TokenUsage};
use async_trait::async_trait;
use candle_core::quantized::gguf_file;
use std::path::PathBuf;
use std::sync::Arc;
use tokio::sync::{OnceCell, mpsc};
use vai_models::llama::{ChatTokenizer, Llama, Sampler, Utf8Stream};

/// The model and its tokenizer, shared by every request.
struct Loaded {
    model: Llama,
    tokenizer: ChatTokenizer,
    /// Each token's text, for constrained decoding.
    texts: Vec<Option<String>>,
}

/// SmolLM2-135M-Instruct answering in-process.
///
/// **Context budget.** A prompt longer than [`LocalLlm::context_budget`] tokens (default
/// [`LocalLlm::DEFAULT_CONTEXT_TOKENS`]) is cut: the system prompt is kept (itself cut to half the
/// budget), then whole turns from the end of the conversation as long as they fit; a last turn
/// that does not fit alone keeps its beginning (where `generate` puts the question, before its
/// context). The default keeps a RAG prompt of about 1,000 tokens whole, with room for the
/// answer: its first token comes in about 1.2 s on a 2-core machine (see docs/benchmarks.md,
/// `vai bench llm`).
///
/// The requested model name is ignored (responses name the model that answered); temperature 0
/// decodes greedily; tool definitions are ignored. Dropping the future stops the generation at
/// the next token.
pub struct LocalLlm {
    path: PathBuf,
    context_budget: usize,
    loaded: OnceCell<Arc<Loaded>>,
}

impl LocalLlm {
    /// The provider name reported per step.
    pub const NAME: &'static str = "local";
    /// The model reported in every completion.
    pub const MODEL: &'static str = "SmolLM2-135M-Instruct";
    /// How the CLI and the UI name it.
    pub const LABEL: &'static str = "local · SmolLM2-135M — small, grounded answers only";
    /// Prompt tokens kept by default (see the type's documentation).
    pub const DEFAULT_CONTEXT_TOKENS: usize = 2048;
    /// Tokens generated when a request sets no `max_tokens`.
    pub const DEFAULT_MAX_TOKENS: u32 = 256;
    /// The same for an answer that must follow a `response_format`: it fails unless whole, and
    /// its strings may run to 500 characters each.
    pub const DEFAULT_STRUCTURED_MAX_TOKENS: u32 = 1024;
    /// Temperature when a request sets none: low, since a small model wanders.
    pub const DEFAULT_TEMPERATURE: f64 = 0.3;
    /// Nucleus sampling: the smallest set of tokens holding this much probability.
    pub const TOP_P: f64 = 0.9;

    /// The model in `path` (the GGUF file or its directory); nothing is read yet.
    pub fn new(path: PathBuf) -> Self {
        LocalLlm {
            path,
            context_budget: Self::DEFAULT_CONTEXT_TOKENS,
            loaded: OnceCell::new(),
        }
    }

    /// The model wherever [`find_gguf`] finds it; `NotConfigured` with the fetch command when
    /// it is missing.
    pub fn discover() -> Result<Self, ProviderError> {
        find_gguf().map(Self::new)
    }

    /// Keep at most `tokens` prompt tokens.
    pub fn with_context_budget(mut self, tokens: usize) -> Self {
        self.context_budget = tokens.max(64);
        self
    }

    pub fn context_budget(&self) -> usize {
        self.context_budget
    }

    /// How many tokens `text` is to this model (loads it if needed).
    pub async fn count_tokens(&self, text: &str) -> Result<usize, ProviderError> {
        let loaded = self.loaded().await?;
        loaded
            .tokenizer
            .encode(text)
            .map(|ids| ids.len())
            .map_err(other)
    }

    /// Load the model now rather than on the first call (a no-op once loaded).
    pub async fn load(&self) -> Result<(), ProviderError> {
        self.loaded().await.map(|_| ())
    }

    /// The SIMD kernels the model runs on this CPU (`avx512vnni`, `avx2` or `scalar`; loads it
    /// if needed).
    pub async fn kernel(&self) -> Result<&'static str, ProviderError> {
        Ok(self.loaded().await?.model.kernel())
    }

    async fn loaded(&self) -> Result<&Arc<Loaded>, ProviderError> {
        self.loaded
            .get_or_try_init(|| async {
                let path = locate::resolve(&self.path).ok_or_else(|| {
                    ProviderError::NotConfigured(format!(
                        "the local LLM is not installed in {}: {}",
                        self.path.display(),
                        locate::HOW_TO_INSTALL
                    ))
                })?;
                let loaded = tokio::task::spawn_blocking(move || load(&path))
                    .await
                    .map_err(|e| other(format!("loading task failed: {e}")))?
                    .map_err(other)?;
                Ok(Arc::new(loaded))
            })
            .await
    }
}

fn other(message: impl Into<String>) -> ProviderError {
    ProviderError::other(LocalLlm::NAME, message.into())
}

fn load(path: &std::path::Path) -> Result<Loaded, String> {
    let fail = |e: &dyn std::fmt::Display| format!("cannot load {}: {e}", path.display());
    let mut file = std::fs::File::open(path).map_err(|e| fail(&e))?;
    let content = gguf_file::Content::read(&mut file).map_err(|e| fail(&e))?;
    let tokenizer = ChatTokenizer::from_gguf(&content).map_err(|e| fail(&e))?;
    let model = Llama::load(&content, &mut file).map_err(|e| fail(&e))?;
    let texts = constrained::token_texts(tokenizer.vocab_len(), |id| {
        tokenizer.token_bytes(id).to_vec()
    });
    Ok(Loaded {
        model,
        tokenizer,
        texts,
    })
}

#[async_trait]
impl Llm for LocalLlm {
    fn name(&self) -> &str {
        Self::NAME
    }

    fn default_model(&self) -> &str {
        Self::MODEL
    }

    fn supports_tools(&self) -> bool {
        false
    }

    /// By constrained decoding: only tokens that keep the answer valid are chosen.
    fn supports_structured_output(&self) -> bool {
        true
    }

    fn context_tokens(&self) -> Option<usize> {
        Some(self.context_budget)
    }

    async fn stream(
        &self,
        request: CompletionRequest,
        sink: &mut StreamSink<'_>,
    ) -> Result<Completion, ProviderError> {
        let schema = match &request.response_format {
            Some(format) => Some(
                Schema::compile(format)
                    .map_err(|e| ProviderError::invalid_request(Self::NAME, e.to_string()))?,
            ),
            None => None,
        };
        let loaded = Arc::clone(self.loaded().await?);
        let budget = self.context_budget;
        let (tx, mut rx) = mpsc::unbounded_channel();
        // Inference holds a core for seconds: off the async runtime. When this future is
        // dropped, `rx` goes with it and the thread stops at its next send or prefill chunk.
        let work = tokio::task::spawn_blocking(move || {
            let prompt = prompt(&loaded.tokenizer, &request, budget)?;
            let settings = Settings::of(&request, loaded.model.config().context_length);
            generate(&loaded, &prompt, settings, schema.as_ref(), &tx)
        });
        while let Some(piece) = rx.recv().await {
            sink(StreamEvent::Text(piece));
        }
        let done = work
            .await
            .map_err(|e| other(format!("generation task failed: {e}")))?
            .map_err(other)?;
        Ok(Completion {
            text: done.text,
            model: Self::MODEL.to_string(),
            usage: done.usage,
            tool_calls: Vec::new(),
            stop_reason: done.stop,
        })
    }
}

impl std::fmt::Debug for LocalLlm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LocalLlm")
            .field("path", &self.path)
            .field("context_budget", &self.context_budget)
            .field("loaded", &self.loaded.initialized())
            .finish()
    }
}

/// The ChatML prompt of `request`, cut to `budget` tokens (see [`LocalLlm`]).
fn prompt(
    tok: &ChatTokenizer,
    request: &CompletionRequest,
    budget: usize,
) -> Result<Vec<u32>, String> {
    let system = request
        .system
        .clone()
        .or_else(|| tok.default_system.clone());
    let mut head = Vec::new();
    if let Some(system) = system {
        let mut text = tok.encode(&system)?;
        text.truncate(budget / 2);
        head = tok.turn("system", &text)?;
    }
    let tail = tok.answer_prefix()?;
    let mut room = budget.saturating_sub(head.len() + tail.len());

    let mut turns: Vec<Vec<u32>> = Vec::new();
    for message in request.messages.iter().rev() {
        let role = match message.role {
            Role::User | Role::Tool => "user",
            Role::Assistant => "assistant",
        };
        let text = tok.encode(&message.content)?;
        let whole = tok.turn(role, &text)?;
        if whole.len() <= room {
            room -= whole.len();
            turns.push(whole);
            continue;
        }
        if turns.is_empty() {
            // The last turn alone is too long: keep its beginning.
            let overhead = whole.len() - text.len();
            let keep = room.saturating_sub(overhead);
            turns.push(tok.turn(role, &text[..keep])?);
        }
        break;
    }
    let mut ids = head;
    ids.extend(turns.into_iter().rev().flatten());
    ids.extend(tail);
    Ok(ids)
}

/// How one request decodes.
struct Settings {
    max_tokens: usize,
    temperature: f64,
    /// Positions the model can hold (prompt plus answer).
    context_length: usize,
}

impl Settings {
    fn of(request: &CompletionRequest, context_length: usize) -> Self {
        Settings {
            max_tokens: request.max_tokens.unwrap_or(match request.response_format {
                Some(_) => LocalLlm::DEFAULT_STRUCTURED_MAX_TOKENS,
                None => LocalLlm::DEFAULT_MAX_TOKENS,
            }) as usize,
            temperature: request.temperature.unwrap_or(LocalLlm::DEFAULT_TEMPERATURE),
            context_length,
        }
    }
}

struct Done {
    text: String,
    usage: TokenUsage,
    stop: StopReason,
}

/// Prompt tokens run through the model at once (cancellation is checked between chunks).
const PREFILL_CHUNK: usize = 128;

fn generate(
    loaded: &Loaded,
    prompt: &[u32],
    settings: Settings,
    schema: Option<&Schema>,
    tx: &mpsc::UnboundedSender<String>,
) -> Result<Done, String> {
    const CANCELLED: &str = "cancelled";
    let (model, tok) = (&loaded.model, &loaded.tokenizer);
    let failed = |e: candle_core::Error| format!("inference failed: {e}");
    let mut cache = model.new_cache_for(prompt.len() + settings.max_tokens);
    let mut logits = Vec::new();
    for chunk in prompt.chunks(PREFILL_CHUNK) {
        if tx.is_closed() {
            return Err(CANCELLED.into());
        }
        logits = model.forward(chunk, &mut cache).map_err(failed)?;
    }

    let mut sampler = Sampler::new(settings.temperature, LocalLlm::TOP_P);
    let mut answer: Vec<u32> = Vec::new();
    let mut utf8 = Utf8Stream::default();
    let mut text = String::new();
    let mut checker = schema.map(Schema::checker);
    let stop = loop {
        if answer.len() >= settings.max_tokens {
            if checker.is_some() {
                return Err(format!(
                    "the answer did not finish within {} tokens, so it does not follow \
                     responseFormat yet: allow more tokens (maxTokens)",
                    settings.max_tokens
                ));
            }
            break StopReason::MaxTokens;
        }
        if let Some(checker) = &checker
            && !constrained::constrain(&mut logits, checker, &loaded.texts, tok.im_end)
        {
            return Err("no token can continue the answer as responseFormat requires".into());
        }
        let next = sampler.next(&mut logits, &answer);
        if [tok.eos, tok.im_end, tok.im_start].contains(&next) {
            break StopReason::EndTurn;
        }
        let complete = match &mut checker {
            Some(checker) => {
                let fed = loaded.texts[next as usize]
                    .as_deref()
                    .is_some_and(|t| checker.feed_str(t));
                if !fed {
                    return Err("constrained decoding chose a token the schema refuses".into());
                }
                checker.is_complete()
            }
            None => false,
        };
        answer.push(next);
        let piece = utf8.push(tok.token_bytes(next));
        if !piece.is_empty() {
            text.push_str(&piece);
            tx.send(piece).map_err(|_| CANCELLED.to_string())?;
        }
        if complete {
            break StopReason::EndTurn;
        }
        if cache.len() >= settings.context_length {
            break StopReason::MaxTokens;
        }
        logits = model.forward(&[next], &mut cache).map_err(failed)?;
    };
    let rest = utf8.finish();
    if !rest.is_empty() {
        text.push_str(&rest);
        let _ = tx.send(rest);
    }
    Ok(Done {
        text,
        usage: TokenUsage {
            input_tokens: prompt.len() as u64,
            output_tokens: answer.len() as u64,
        },
        stop,
    })
}

#[cfg(test)]
mod tests;
