//! What the chat tests answer with: a `query` tool over three fixed documents, LLMs that stall
//! after one word or fail half-way through their first answer, and the engine over them with an
//! in-memory history.

use crate::support::{registry, spec};
use async_trait::async_trait;
use serde_json::json;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use vai_chat::{ChatEngine, MemoryHistory};
use vai_providers::llm::{Completion, CompletionRequest, Llm, StopReason, StreamEvent, StreamSink};
use vai_providers::{ProviderError, TokenUsage};
use vai_workflow::{Category, Registry, Tool, ToolCall, ToolFuture, ToolOutput, ToolSpec};

/// The same three documents whatever is asked.
struct Query(ToolSpec);

impl Tool for Query {
    fn spec(&self) -> &ToolSpec {
        &self.0
    }
    fn run<'a>(&'a self, _call: ToolCall<'a>) -> ToolFuture<'a> {
        Box::pin(async move {
            Ok(ToolOutput::new(json!({"results": [
                {"text": "vai composes RAG pipelines as workflow files.", "source": "intro.md", "score": 0.91},
                {"text": "The playground draws a workflow as a graph.", "source": "playground.md", "score": 0.74},
                {"text": "Chat answers from the knowledge base.", "source": "chat.md", "score": 0.52}
            ], "resultCount": 3})))
        })
    }
}

/// The test tools and `query`.
fn chat_registry() -> Arc<Registry> {
    let mut r = Arc::unwrap_or_clone(registry());
    let mut query = spec("query", Category::Retrieval, Some("query"));
    query.outputs = &[("results", "documents"), ("resultCount", "how many")];
    r.register(Arc::new(Query(query)));
    Arc::new(r)
}

/// The chat engine on `llm` (none: chat cannot answer), sessions kept in memory.
pub(super) fn engine(llm: Option<Arc<dyn Llm>>) -> ChatEngine {
    ChatEngine::new(chat_registry(), llm, Arc::new(MemoryHistory::new()))
}

fn completion(text: &str) -> Completion {
    Completion {
        text: text.to_string(),
        model: "test-model".into(),
        usage: TokenUsage::default(),
        tool_calls: Vec::new(),
        stop_reason: StopReason::EndTurn,
    }
}

/// Says "partial", then never another word: an answer to stop.
pub(super) struct Stalling;

#[async_trait]
impl Llm for Stalling {
    fn name(&self) -> &str {
        "stalling"
    }
    fn default_model(&self) -> &str {
        "test-model"
    }
    async fn stream(
        &self,
        _request: CompletionRequest,
        sink: &mut StreamSink<'_>,
    ) -> Result<Completion, ProviderError> {
        sink(StreamEvent::Text("partial".into()));
        std::future::pending::<()>().await;
        Ok(completion("partial"))
    }
}

/// Breaks off its first answer after two words; answers whole afterwards.
#[derive(Default)]
pub(super) struct Flaky {
    calls: AtomicUsize,
}

#[async_trait]
impl Llm for Flaky {
    fn name(&self) -> &str {
        "flaky"
    }
    fn default_model(&self) -> &str {
        "test-model"
    }
    async fn stream(
        &self,
        _request: CompletionRequest,
        sink: &mut StreamSink<'_>,
    ) -> Result<Completion, ProviderError> {
        if self.calls.fetch_add(1, Ordering::SeqCst) == 0 {
            sink(StreamEvent::Text("half".into()));
            sink(StreamEvent::Text(" an".into()));
            return Err(ProviderError::other("flaky", "the connection dropped"));
        }
        sink(StreamEvent::Text("a whole answer".into()));
        Ok(completion("a whole answer"))
    }
}
