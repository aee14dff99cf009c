//! Anthropic's Messages API: `POST {base}/v1/messages` with `x-api-key` and
//! `anthropic-version: 2023-06-01`, streamed as server-sent events (`message_start`,
//! `content_block_start` / `_delta` / `_stop`, `message_delta`, `message_stop`).

use super::sse::SseEvent;
use super::transport::{self, Limits, Transport, is_event_stream, short};
use super::{
    Completion, CompletionRequest, Llm, LlmToolCall, Role, StopReason, StreamEvent, StreamSink,
};
use crate::net::RetryPolicy;
use crate::{ProviderError, TokenUsage};
use async_trait::async_trait;
use serde_json::{Map, Value, json};
use std::collections::HashMap;
use std::ops::ControlFlow;

const NAME: &str = "anthropic";
pub(super) const DEFAULT_BASE_URL: &str = "https://api.anthropic.com";
const API_VERSION: &str = "2023-06-01";
/// The Messages API requires `max_tokens`; the reference sends 4096.
const DEFAULT_MAX_TOKENS: u32 = 4096;

/// A client of the Anthropic Messages API.
pub struct Anthropic {
    transport: Transport,
    url: String,
    key: String,
    model: String,
}

impl Anthropic {
    /// The model used when the configuration names none.
    pub const DEFAULT_MODEL: &'static str = "claude-sonnet-4-5";

    /// `model` and `base_url` default to `claude-sonnet-4-5` and `https://api.anthropic.com`.
    pub fn new(
        api_key: &str,
        model: Option<&str>,
        base_url: Option<&str>,
    ) -> Result<Self, ProviderError> {
        Ok(Anthropic {
            transport: Transport::new(NAME, Some(api_key))?,
            url: format!(
                "{}/v1/messages",
                transport::base_url(base_url.unwrap_or(DEFAULT_BASE_URL))
            ),
            key: api_key.to_string(),
            model: model.unwrap_or(Self::DEFAULT_MODEL).to_string(),
        })
    }

    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.transport.limits = limits;
        self
    }

    pub fn with_retry(mut self, retry: RetryPolicy) -> Self {
        self.transport.retry = retry;
        self
    }

    async fn call(
        &self,
        request: &CompletionRequest,
        sink: &mut StreamSink<'_>,
    ) -> Result<Completion, ProviderError> {
        let model = request.model.as_deref().unwrap_or(&self.model);
        let headers = [
            ("x-api-key", self.key.as_str()),
            ("anthropic-version", API_VERSION),
            ("accept", "text/event-stream"),
        ];
        let body = request_body(model, request);
        let response = self.transport.post(&self.url, &headers, &body).await?;
        let mut decoder = Decoder::new(model);
        if is_event_stream(&response) {
            self.transport
                .events(response, |event| {
                    decoder.event(&self.transport, event, sink)
                })
                .await?;
            decoder.finish(&self.transport)
        } else {
            let body = self.transport.body(response).await?;
            let message: Value = self.transport.parse("the response", &body)?;
            decoder.whole(&self.transport, &message, sink)
        }
    }
}

#[async_trait]
impl Llm for Anthropic {
    fn name(&self) -> &str {
        NAME
    }

    fn default_model(&self) -> &str {
        &self.model
    }

    async fn stream(
        &self,
        request: CompletionRequest,
        sink: &mut StreamSink<'_>,
    ) -> Result<Completion, ProviderError> {
        let completion = self.transport.capped(self.call(&request, sink)).await?;
        Ok(
            match request.response_format.is_some() && request.tools.is_empty() {
                true => structured_answer(completion),
                false => completion,
            },
        )
    }

    /// By a forced tool call whose input is the answer (not when the request offers tools).
    fn supports_structured_output(&self) -> bool {
        true
    }
}

/// The request body: `{model, max_tokens, stream, system?, messages, temperature?, tools?}`.
/// Tool results go back as `tool_result` blocks of a user turn; consecutive results share one.
fn request_body(model: &str, request: &CompletionRequest) -> Value {
    let mut messages: Vec<Value> = Vec::new();
    for message in &request.messages {
        match message.role {
            Role::User => messages.push(json!({"role": "user", "content": message.content})),
            Role::Assistant if message.tool_calls.is_empty() => {
                messages.push(json!({"role": "assistant", "content": message.content}));
            }
            Role::Assistant => {
                let text = (!message.content.is_empty())
                    .then(|| json!({"type": "text", "text": message.content}));
                let calls = message.tool_calls.iter().map(|call| {
                    json!({"type": "tool_use", "id": call.id, "name": call.name, "input": call.arguments})
                });
                let content: Vec<Value> = text.into_iter().chain(calls).collect();
                messages.push(json!({"role": "assistant", "content": content}));
            }
            Role::Tool => {
                let mut block = json!({
                    "type": "tool_result",
                    "tool_use_id": message.tool_call_id.as_deref().unwrap_or_default(),
                    "content": message.content,
                });
                if message.is_error {
                    block["is_error"] = Value::Bool(true);
                }
                let previous = messages.last_mut().and_then(|m| {
                    let blocks = m.get_mut("content")?.as_array_mut()?;
                    let results = blocks.first()?.get("type")? == "tool_result";
                    results.then_some(blocks)
                });
                match previous {
                    Some(blocks) => blocks.push(block),
                    None => messages.push(json!({"role": "user", "content": [block]})),
                }
            }
        }
    }
    let mut body = Map::new();
    body.insert("model".into(), json!(model));
    body.insert(
        "max_tokens".into(),
        json!(request.max_tokens.unwrap_or(DEFAULT_MAX_TOKENS)),
    );
    body.insert("stream".into(), json!(true));
    if let Some(system) = request.system.as_deref().filter(|s| !s.is_empty()) {
        body.insert("system".into(), json!(system));
    }
    body.insert("messages".into(), Value::Array(messages));
    if let Some(t) = request.temperature {
        body.insert("temperature".into(), json!(t));
    }
    if !request.tools.is_empty() {
        let tools = request.tools.iter().map(|t| {
            json!({"name": t.name, "description": t.description, "input_schema": t.input_schema})
        });
        body.insert("tools".into(), Value::Array(tools.collect()));
    } else if let Some(schema) = &request.response_format {
        // Structured output as Anthropic offers it: one tool whose input is the answer, which
        // the model must call.
        body.insert(
            "tools".into(),
            json!([{"name": ANSWER_TOOL, "description": "Give the answer in the required shape.", "input_schema": schema}]),
        );
        body.insert(
            "tool_choice".into(),
            json!({"type": "tool", "name": ANSWER_TOOL}),
        );
    }
    Value::Object(body)
}

/// The tool whose input is a structured answer (see [`request_body`]).
const ANSWER_TOOL: &str = "answer";

/// A structured answer comes back as the forced tool's input: it becomes the answer's text.
fn structured_answer(mut completion: Completion) -> Completion {
    let Some(i) = completion
        .tool_calls
        .iter()
        .position(|c| c.name == ANSWER_TOOL)
    else {
        return completion;
    };
    let call = completion.tool_calls.remove(i);
    completion.text = call.arguments.to_string();
    if completion.stop_reason == StopReason::ToolUse {
        completion.stop_reason = StopReason::EndTurn;
    }
    completion
}

/// A content block being streamed.
enum Block {
    Text,
    Tool {
        id: String,
        name: String,
        json: String,
    },
    /// Thinking and other blocks we do not report.
    Other,
}

/// Folds the stream's events into a [`Completion`].
struct Decoder {
    model: String,
    text: String,
    usage: TokenUsage,
    blocks: HashMap<u64, Block>,
    tool_calls: Vec<LlmToolCall>,
    stop_reason: Option<StopReason>,
    stopped: bool,
}

impl Decoder {
    fn new(model: &str) -> Self {
        Decoder {
            model: model.to_string(),
            text: String::new(),
            usage: TokenUsage::default(),
            blocks: HashMap::new(),
            tool_calls: Vec::new(),
            stop_reason: None,
            stopped: false,
        }
    }

    fn event(
        &mut self,
        t: &Transport,
        event: SseEvent,
        sink: &mut StreamSink<'_>,
    ) -> Result<ControlFlow<()>, ProviderError> {
        let data: Value = t.parse("a streamed event", &event.data)?;
        let kind = data
            .get("type")
            .and_then(Value::as_str)
            .or(event.event.as_deref())
            .unwrap_or_default();
        let index = || data.get("index").and_then(Value::as_u64).unwrap_or(0);
        match kind {
            "message_start" => {
                let message = &data["message"];
                if let Some(model) = message.get("model").and_then(Value::as_str) {
                    self.model = model.to_string();
                }
                self.read_usage(&message["usage"]);
            }
            "content_block_start" => {
                let block = &data["content_block"];
                let block = match block.get("type").and_then(Value::as_str) {
                    Some("text") => {
                        let text = block["text"].as_str().unwrap_or_default();
                        self.push_text(text, sink);
                        Block::Text
                    }
                    Some("tool_use") => {
                        let id = block["id"].as_str().unwrap_or_default().to_string();
                        let name = block["name"].as_str().unwrap_or_default().to_string();
                        sink(StreamEvent::ToolCallStarted {
                            id: id.clone(),
                            name: name.clone(),
                        });
                        Block::Tool {
                            id,
                            name,
                            json: String::new(),
                        }
                    }
                    _ => Block::Other,
                };
                self.blocks.insert(index(), block);
            }
            "content_block_delta" => {
                let delta = &data["delta"];
                match (delta["type"].as_str(), self.blocks.get_mut(&index())) {
                    (Some("text_delta"), _) => {
                        self.push_text(delta["text"].as_str().unwrap_or_default(), sink);
                    }
                    (Some("input_json_delta"), Some(Block::Tool { json, .. })) => {
                        json.push_str(delta["partial_json"].as_str().unwrap_or_default());
                    }
                    _ => {}
                }
            }
            "content_block_stop" => {
                if let Some(Block::Tool { id, name, json }) = self.blocks.remove(&index()) {
                    let arguments = match json.trim() {
                        "" => Value::Object(Map::new()),
                        json => t.parse(&format!("the arguments of tool call {name}"), json)?,
                    };
                    let call = LlmToolCall {
                        id,
                        name,
                        arguments,
                    };
                    sink(StreamEvent::ToolCall(call.clone()));
                    self.tool_calls.push(call);
                }
            }
            "message_delta" => {
                if let Some(reason) = data.pointer("/delta/stop_reason").and_then(Value::as_str) {
                    self.stop_reason = Some(stop_reason(reason));
                }
                self.read_usage(&data["usage"]);
            }
            "message_stop" => {
                self.stopped = true;
                return Ok(ControlFlow::Break(()));
            }
            "error" => return Err(stream_error(&data)),
            // `ping`, and event types added after this was written.
            _ => {}
        }
        Ok(ControlFlow::Continue(()))
    }

    fn push_text(&mut self, text: &str, sink: &mut StreamSink<'_>) {
        if !text.is_empty() {
            self.text.push_str(text);
            sink(StreamEvent::Text(text.to_string()));
        }
    }

    /// Input tokens include cache reads and writes; both counts are running totals.
    fn read_usage(&mut self, usage: &Value) {
        let count = |field: &str| usage.get(field).and_then(Value::as_u64);
        if let Some(input) = count("input_tokens") {
            self.usage.input_tokens = input
                + count("cache_creation_input_tokens").unwrap_or(0)
                + count("cache_read_input_tokens").unwrap_or(0);
        }
        if let Some(output) = count("output_tokens") {
            self.usage.output_tokens = output;
        }
    }

    fn finish(self, t: &Transport) -> Result<Completion, ProviderError> {
        if !self.stopped && self.stop_reason.is_none() {
            return Err(t.malformed(
                "the event stream ended before message_stop: the answer is incomplete".into(),
            ));
        }
        Ok(Completion {
            text: self.text,
            model: self.model,
            usage: self.usage,
            tool_calls: self.tool_calls,
            stop_reason: self.stop_reason.unwrap_or_default(),
        })
    }

    /// A non-streamed answer (a proxy that ignored `stream`): `{model, content, stop_reason,
    /// usage}`. Its text and calls still reach the sink.
    fn whole(
        mut self,
        t: &Transport,
        message: &Value,
        sink: &mut StreamSink<'_>,
    ) -> Result<Completion, ProviderError> {
        let Some(blocks) = message.get("content").and_then(Value::as_array) else {
            return Err(t.malformed(format!(
                "unexpected response without content: {}",
                short(message)
            )));
        };
        if let Some(model) = message.get("model").and_then(Value::as_str) {
            self.model = model.to_string();
        }
        for block in blocks {
            match block["type"].as_str() {
                Some("text") => self.push_text(block["text"].as_str().unwrap_or_default(), sink),
                Some("tool_use") => {
                    let call = LlmToolCall {
                        id: block["id"].as_str().unwrap_or_default().to_string(),
                        name: block["name"].as_str().unwrap_or_default().to_string(),
                        arguments: block.get("input").cloned().unwrap_or(json!({})),
                    };
                    sink(StreamEvent::ToolCall(call.clone()));
                    self.tool_calls.push(call);
                }
                _ => {}
            }
        }
        self.read_usage(&message["usage"]);
        self.stop_reason = Some(stop_reason(
            message["stop_reason"].as_str().unwrap_or("end_turn"),
        ));
        self.finish(t)
    }
}

fn stop_reason(reason: &str) -> StopReason {
    match reason {
        "end_turn" => StopReason::EndTurn,
        "max_tokens" => StopReason::MaxTokens,
        "tool_use" => StopReason::ToolUse,
        "stop_sequence" => StopReason::StopSequence,
        other => StopReason::Other(other.to_string()),
    }
}

/// An `error` event sent mid-stream, e.g. `{"type":"error","error":{"type":"overloaded_error",
/// "message":"Overloaded"}}`.
fn stream_error(data: &Value) -> ProviderError {
    let kind = data
        .pointer("/error/type")
        .and_then(Value::as_str)
        .unwrap_or("error");
    let message = data
        .pointer("/error/message")
        .and_then(Value::as_str)
        .unwrap_or("the stream reported an error");
    let message = format!("{kind}: {message}");
    let provider = NAME.to_string();
    match kind {
        "overloaded_error" => ProviderError::Server {
            provider,
            status: 529,
            message,
        },
        "api_error" => ProviderError::Server {
            provider,
            status: 500,
            message,
        },
        "rate_limit_error" => ProviderError::RateLimited {
            provider,
            message,
            retry_after: None,
        },
        _ => ProviderError::Other { provider, message },
    }
}

#[cfg(test)]
mod tests;
