//! `FakeLlm`: answers with a deterministic echo of the prompt, streamed word by word, or with
//! the text or tool calls a test scripted (tests only).

use super::{Faults, Log, words};
use crate::llm::{LlmToolCall, StopReason, StreamEvent, StreamSink};
use crate::{Completion, CompletionRequest, Llm, ProviderError, Role, TokenUsage};
use async_trait::async_trait;
use std::collections::VecDeque;
use std::sync::Mutex;

/// Test-only LLM: the answer is `"fake answer to: <last user message>"` (or, after a tool
/// result, `"fake answer from tools: <results>"`), streamed as one text event per word. The
/// model is the requested one, else `fake-llm`. [`FakeLlm::call_tools_next`] makes the next
/// answer a tool call instead.
#[derive(Debug)]
pub struct FakeLlm {
    name: String,
    requests: Log<CompletionRequest>,
    faults: Faults,
    tool_turns: Mutex<VecDeque<Vec<LlmToolCall>>>,
    text_turns: Mutex<VecDeque<String>>,
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
            tool_turns: Mutex::new(VecDeque::new()),
            text_turns: Mutex::new(VecDeque::new()),
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

    /// Answer the next request (without tools scripted) with exactly `text`.
    pub fn answer_next(&self, text: impl Into<String>) {
        super::lock(&self.text_turns).push_back(text.into());
    }

    /// Answer the next request by calling these tools (stop reason `ToolUse`, no text).
    pub fn call_tools_next(&self, calls: Vec<LlmToolCall>) {
        super::lock(&self.tool_turns).push_back(calls);
    }
}

#[async_trait]
impl Llm for FakeLlm {
    fn name(&self) -> &str {
        &self.name
    }

    fn default_model(&self) -> &str {
        "fake-llm"
    }

    async fn stream(
        &self,
        request: CompletionRequest,
        sink: &mut StreamSink<'_>,
    ) -> Result<Completion, ProviderError> {
        self.requests.push(request.clone());
        self.faults.take()?;
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
        let model = request.model.unwrap_or_else(|| "fake-llm".into());
        let scripted = super::lock(&self.tool_turns).pop_front();
        if let Some(tool_calls) = scripted {
            for call in &tool_calls {
                sink(StreamEvent::ToolCallStarted {
                    id: call.id.clone(),
                    name: call.name.clone(),
                });
                sink(StreamEvent::ToolCall(call.clone()));
            }
            return Ok(Completion {
                text: String::new(),
                model,
                usage: TokenUsage {
                    input_tokens: input_tokens as u64,
                    output_tokens: tool_calls.len() as u64,
                },
                tool_calls,
                stop_reason: StopReason::ToolUse,
            });
        }
        // After tool results the fake answers from them; otherwise it echoes the question.
        let results: Vec<&str> = request
            .messages
            .iter()
            .rev()
            .take_while(|m| m.role == Role::Tool)
            .map(|m| m.content.as_str())
            .collect();
        let scripted = super::lock(&self.text_turns).pop_front();
        let text = if let Some(text) = scripted {
            text
        } else if results.is_empty() {
            let last_user = request
                .messages
                .iter()
                .rev()
                .find(|m| m.role == Role::User)
                .map_or("", |m| m.content.as_str());
            format!("fake answer to: {last_user}")
        } else {
            let results: Vec<&str> = results.into_iter().rev().collect();
            format!("fake answer from tools: {}", results.join("; "))
        };
        for (i, word) in text.split(' ').enumerate() {
            let piece = if i == 0 {
                word.to_string()
            } else {
                format!(" {word}")
            };
            sink(StreamEvent::Text(piece));
        }
        Ok(Completion {
            usage: TokenUsage {
                input_tokens: input_tokens as u64,
                output_tokens: words(&text).count() as u64,
            },
            text,
            model,
            tool_calls: Vec::new(),
            stop_reason: StopReason::EndTurn,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Message;
    use serde_json::json;

    #[tokio::test]
    async fn streams_the_echo_word_by_word() {
        let llm = FakeLlm::new();
        let mut pieces = Vec::new();
        let done = llm
            .stream(
                CompletionRequest {
                    messages: vec![Message::user("what is vai")],
                    ..CompletionRequest::default()
                },
                &mut |e| pieces.push(e),
            )
            .await
            .unwrap();
        assert_eq!(done.text, "fake answer to: what is vai");
        let streamed: String = pieces
            .iter()
            .map(|e| match e {
                StreamEvent::Text(t) => t.as_str(),
                other => panic!("unexpected {other:?}"),
            })
            .collect();
        assert_eq!(streamed, done.text);
        assert_eq!(
            (done.model.as_str(), done.stop_reason),
            ("fake-llm", StopReason::EndTurn)
        );
    }

    #[tokio::test]
    async fn scripted_tool_calls_then_an_answer_from_their_results() {
        let llm = FakeLlm::new();
        let call = LlmToolCall {
            id: "call_1".into(),
            name: "search".into(),
            arguments: json!({"query": "vai"}),
        };
        llm.call_tools_next(vec![call.clone()]);
        let mut request = CompletionRequest {
            messages: vec![Message::user("find vai")],
            ..CompletionRequest::default()
        };
        let first = llm.complete(request.clone()).await.unwrap();
        assert_eq!(first.stop_reason, StopReason::ToolUse);
        assert_eq!(first.tool_calls, vec![call]);
        request.messages.push(first.message());
        request
            .messages
            .push(Message::tool_result("call_1", "2 documents", false));
        let second = llm.complete(request).await.unwrap();
        assert_eq!(second.text, "fake answer from tools: 2 documents");
        assert_eq!(llm.requests().len(), 2);
    }
}
