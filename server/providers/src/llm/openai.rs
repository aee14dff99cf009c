//! OpenAI's Chat Completions API (`POST {base}/v1/chat/completions`, `Authorization: Bearer`),
//! streamed as `data:` events ending with `[DONE]`, usage in the last chunk
//! (`stream_options.include_usage`). [`ChatCompletions`] speaks the protocol; [`OpenAi`] and
//! Ollama's OpenAI-compatible endpoint (see `ollama.rs`) are configurations of it.

use super::sse::SseEvent;
use super::transport::{self, Limits, Transport, is_event_stream, short};
use super::{
    Completion, CompletionRequest, Llm, LlmToolCall, Role, StopReason, StreamEvent, StreamSink,
};
use crate::net::RetryPolicy;
use crate::{ProviderError, TokenUsage};
use async_trait::async_trait;
use serde_json::{Map, Value, json};
use std::ops::ControlFlow;

const NAME: &str = "openai";
pub(super) const DEFAULT_BASE_URL: &str = "https://api.openai.com";

/// A client of an OpenAI-compatible `/v1/chat/completions` endpoint.
pub(crate) struct ChatCompletions {
    pub transport: Transport,
    url: String,
    key: Option<String>,
    pub model: String,
    /// The request field limiting the answer: OpenAI's current `max_completion_tokens`, or
    /// `max_tokens` for servers that only know the original name.
    max_tokens_field: &'static str,
}

impl ChatCompletions {
    pub(super) fn new(
        provider: &'static str,
        api_key: Option<&str>,
        model: &str,
        base: &str,
        max_tokens_field: &'static str,
    ) -> Result<Self, ProviderError> {
        Ok(ChatCompletions {
            transport: Transport::new(provider, api_key)?,
            url: format!("{}/v1/chat/completions", transport::base_url(base)),
            key: api_key.map(str::to_string),
            model: model.to_string(),
            max_tokens_field,
        })
    }

    pub(super) async fn stream(
        &self,
        request: &CompletionRequest,
        sink: &mut StreamSink<'_>,
    ) -> Result<Completion, ProviderError> {
        self.transport.capped(self.call(request, sink)).await
    }

    async fn call(
        &self,
        request: &CompletionRequest,
        sink: &mut StreamSink<'_>,
    ) -> Result<Completion, ProviderError> {
        let model = request.model.as_deref().unwrap_or(&self.model);
        let bearer = self.key.as_ref().map(|key| format!("Bearer {key}"));
        let mut headers = vec![("accept", "text/event-stream")];
        if let Some(bearer) = &bearer {
            headers.push(("authorization", bearer.as_str()));
        }
        let body = request_body(model, request, self.max_tokens_field);
        let response = self.transport.post(&self.url, &headers, &body).await?;
        let mut decoder = Decoder::new(model);
        let t = &self.transport;
        if is_event_stream(&response) {
            t.events(response, |event| decoder.event(t, event, sink))
                .await?;
            decoder.finish(t, sink)
        } else {
            let body = t.body(response).await?;
            let chunk: Value = t.parse("the response", &body)?;
            decoder.whole(t, &chunk, sink)
        }
    }
}

/// A client of the OpenAI Chat Completions API.
pub struct OpenAi(ChatCompletions);

impl OpenAi {
    /// The model used when the configuration names none.
    pub const DEFAULT_MODEL: &'static str = "gpt-4o";

    /// `model` and `base_url` default to `gpt-4o` and `https://api.openai.com`.
    pub fn new(
        api_key: &str,
        model: Option<&str>,
        base_url: Option<&str>,
    ) -> Result<Self, ProviderError> {
        Ok(OpenAi(ChatCompletions::new(
            NAME,
            Some(api_key),
            model.unwrap_or(Self::DEFAULT_MODEL),
            base_url.unwrap_or(DEFAULT_BASE_URL),
            "max_completion_tokens",
        )?))
    }

    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.0.transport.limits = limits;
        self
    }

    pub fn with_retry(mut self, retry: RetryPolicy) -> Self {
        self.0.transport.retry = retry;
        self
    }
}

#[async_trait]
impl Llm for OpenAi {
    fn name(&self) -> &str {
        NAME
    }

    fn default_model(&self) -> &str {
        &self.0.model
    }

    /// `response_format` with a strict JSON Schema.
    fn supports_structured_output(&self) -> bool {
        true
    }

    async fn stream(
        &self,
        request: CompletionRequest,
        sink: &mut StreamSink<'_>,
    ) -> Result<Completion, ProviderError> {
        self.0.stream(&request, sink).await
    }
}

/// The request body: `{model, messages, stream, stream_options, temperature?, <max tokens>?,
/// tools?}`, the system prompt first among the messages.
fn request_body(model: &str, request: &CompletionRequest, max_tokens_field: &str) -> Value {
    let system = request
        .system
        .as_deref()
        .filter(|s| !s.is_empty())
        .map(|s| json!({"role": "system", "content": s}));
    let messages = request.messages.iter().map(|message| match message.role {
        Role::User => json!({"role": "user", "content": message.content}),
        Role::Assistant if message.tool_calls.is_empty() => {
            json!({"role": "assistant", "content": message.content})
        }
        Role::Assistant => {
            let calls: Vec<Value> = message
                .tool_calls
                .iter()
                .map(|call| {
                    json!({
                        "id": call.id,
                        "type": "function",
                        "function": {"name": call.name, "arguments": call.arguments.to_string()},
                    })
                })
                .collect();
            let content = (!message.content.is_empty()).then_some(message.content.as_str());
            json!({"role": "assistant", "content": content, "tool_calls": calls})
        }
        Role::Tool => json!({
            "role": "tool",
            "tool_call_id": message.tool_call_id.as_deref().unwrap_or_default(),
            "content": message.content,
        }),
    });
    let mut body = Map::new();
    body.insert("model".into(), json!(model));
    body.insert(
        "messages".into(),
        system.into_iter().chain(messages).collect(),
    );
    body.insert("stream".into(), json!(true));
    body.insert("stream_options".into(), json!({"include_usage": true}));
    if let Some(t) = request.temperature {
        body.insert("temperature".into(), json!(t));
    }
    if let Some(n) = request.max_tokens {
        body.insert(max_tokens_field.into(), json!(n));
    }
    if !request.tools.is_empty() {
        let tools = request.tools.iter().map(|t| {
            json!({
                "type": "function",
                "function": {"name": t.name, "description": t.description, "parameters": t.input_schema},
            })
        });
        body.insert("tools".into(), tools.collect());
    }
    if let Some(schema) = &request.response_format {
        body.insert(
            "response_format".into(),
            json!({"type": "json_schema", "json_schema": {"name": "answer", "strict": true, "schema": strict(schema)}}),
        );
    }
    Value::Object(body)
}

/// `schema` as strict mode wants it (and as vai writes answers, see [`crate::structured`]): every
/// object lists all its properties as required and allows no others.
fn strict(schema: &Value) -> Value {
    match schema {
        Value::Object(map) => {
            let mut out: Map<String, Value> = map
                .iter()
                .map(|(k, v)| {
                    let v = match k.as_str() {
                        "properties" => match v {
                            Value::Object(props) => Value::Object(
                                props.iter().map(|(n, p)| (n.clone(), strict(p))).collect(),
                            ),
                            other => other.clone(),
                        },
                        "items" => strict(v),
                        _ => v.clone(),
                    };
                    (k.clone(), v)
                })
                .collect();
            if map.get("type").and_then(Value::as_str) == Some("object") {
                let names: Vec<Value> = map
                    .get("properties")
                    .and_then(Value::as_object)
                    .map(|p| p.keys().map(|k| json!(k)).collect())
                    .unwrap_or_default();
                out.insert("required".into(), Value::Array(names));
                out.insert("additionalProperties".into(), json!(false));
            }
            Value::Object(out)
        }
        other => other.clone(),
    }
}

/// A tool call whose pieces are still arriving.
#[derive(Default)]
struct PartialCall {
    id: String,
    name: String,
    arguments: String,
    announced: bool,
}

/// Folds the stream's chunks into a [`Completion`].
struct Decoder {
    model: String,
    model_reported: bool,
    text: String,
    usage: TokenUsage,
    calls: Vec<PartialCall>,
    finish_reason: Option<StopReason>,
    done: bool,
}

impl Decoder {
    fn new(model: &str) -> Self {
        Decoder {
            model: model.to_string(),
            model_reported: false,
            text: String::new(),
            usage: TokenUsage::default(),
            calls: Vec::new(),
            finish_reason: None,
            done: false,
        }
    }

    fn event(
        &mut self,
        t: &Transport,
        event: SseEvent,
        sink: &mut StreamSink<'_>,
    ) -> Result<ControlFlow<()>, ProviderError> {
        if event.data.trim() == "[DONE]" {
            self.done = true;
            return Ok(ControlFlow::Break(()));
        }
        let chunk: Value = t.parse("a streamed chunk", &event.data)?;
        if let Some(error) = chunk.get("error").filter(|e| !e.is_null()) {
            let message = error
                .get("message")
                .or(Some(error))
                .and_then(Value::as_str)
                .map_or_else(|| error.to_string(), str::to_string);
            return Err(t.malformed(format!("the stream reported an error: {message}")));
        }
        self.chunk(t, &chunk, sink)?;
        Ok(ControlFlow::Continue(()))
    }

    /// One `chat.completion.chunk` (or a whole `chat.completion`, whose `message` is read as the
    /// delta).
    fn chunk(
        &mut self,
        t: &Transport,
        chunk: &Value,
        sink: &mut StreamSink<'_>,
    ) -> Result<(), ProviderError> {
        let model = chunk.get("model").and_then(Value::as_str);
        if !self.model_reported
            && let Some(model) = model.filter(|m| !m.is_empty())
        {
            self.model = model.to_string();
            self.model_reported = true;
        }
        if let Some(usage) = chunk.get("usage").filter(|u| u.is_object()) {
            let count = |field: &str| usage.get(field).and_then(Value::as_u64).unwrap_or(0);
            self.usage = TokenUsage {
                input_tokens: count("prompt_tokens"),
                output_tokens: count("completion_tokens"),
            };
        }
        let choices = chunk.get("choices").and_then(Value::as_array);
        // Only the first choice is asked for (no `n`).
        let Some(choice) = choices.and_then(|c| c.first()) else {
            return Ok(());
        };
        let delta = choice.get("delta").or_else(|| choice.get("message"));
        if let Some(delta) = delta {
            let text = delta.get("content").and_then(Value::as_str);
            if let Some(text) = text.filter(|t| !t.is_empty()) {
                self.text.push_str(text);
                sink(StreamEvent::Text(text.to_string()));
            }
            if let Some(calls) = delta.get("tool_calls").and_then(Value::as_array) {
                for call in calls {
                    self.call_delta(t, call, sink)?;
                }
            }
        }
        if let Some(reason) = choice.get("finish_reason").and_then(Value::as_str) {
            self.finish_reason = Some(match reason {
                "stop" => StopReason::EndTurn,
                "length" => StopReason::MaxTokens,
                "tool_calls" | "function_call" => StopReason::ToolUse,
                other => StopReason::Other(other.to_string()),
            });
        }
        Ok(())
    }

    /// A piece of a tool call: `{index, id?, function: {name?, arguments?}}`. OpenAI sends the id
    /// and name first and the arguments in pieces; Ollama sends whole calls.
    fn call_delta(
        &mut self,
        t: &Transport,
        delta: &Value,
        sink: &mut StreamSink<'_>,
    ) -> Result<(), ProviderError> {
        let id = delta
            .get("id")
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty());
        let slot = match delta.get("index").and_then(Value::as_u64) {
            Some(index) => usize::try_from(index)
                .ok()
                .filter(|&i| i <= self.calls.len() + 64)
                .ok_or_else(|| t.malformed(format!("tool call index {index} is out of range")))?,
            // Without an index, a new id starts a new call and anything else continues the last.
            None => match id {
                Some(id) if self.calls.iter().all(|c| c.id != id) => self.calls.len(),
                _ => self.calls.len().saturating_sub(1),
            },
        };
        if slot >= self.calls.len() {
            self.calls.resize_with(slot + 1, PartialCall::default);
        }
        let call = &mut self.calls[slot];
        if let Some(id) = id {
            call.id = id.to_string();
        }
        let function = delta.get("function");
        if let Some(name) = function.and_then(|f| f.get("name")).and_then(Value::as_str) {
            call.name.push_str(name);
        }
        match function.and_then(|f| f.get("arguments")) {
            Some(Value::String(piece)) => call.arguments.push_str(piece),
            // Some compatible servers send the arguments as an object.
            Some(args) if args.is_object() => call.arguments = args.to_string(),
            _ => {}
        }
        if !call.announced && !call.name.is_empty() {
            call.announced = true;
            if call.id.is_empty() {
                call.id = format!("call_{slot}");
            }
            sink(StreamEvent::ToolCallStarted {
                id: call.id.clone(),
                name: call.name.clone(),
            });
        }
        Ok(())
    }

    fn finish(self, t: &Transport, sink: &mut StreamSink<'_>) -> Result<Completion, ProviderError> {
        if !self.done && self.finish_reason.is_none() {
            return Err(t.malformed(
                "the event stream ended before [DONE]: the answer is incomplete".into(),
            ));
        }
        let mut tool_calls = Vec::with_capacity(self.calls.len());
        for (slot, call) in self.calls.into_iter().enumerate() {
            if call.name.is_empty() {
                return Err(t.malformed(format!("tool call {slot} has no function name")));
            }
            let arguments = match call.arguments.trim() {
                "" => Value::Object(Map::new()),
                json => t.parse(&format!("the arguments of tool call {}", call.name), json)?,
            };
            let id = match call.id.is_empty() {
                true => format!("call_{slot}"),
                false => call.id,
            };
            let call = LlmToolCall {
                id,
                name: call.name,
                arguments,
            };
            sink(StreamEvent::ToolCall(call.clone()));
            tool_calls.push(call);
        }
        // Some compatible servers report `stop` even when the model called tools.
        let stop_reason = match self.finish_reason.unwrap_or_default() {
            StopReason::EndTurn if !tool_calls.is_empty() => StopReason::ToolUse,
            reason => reason,
        };
        Ok(Completion {
            text: self.text,
            model: self.model,
            usage: self.usage,
            tool_calls,
            stop_reason,
        })
    }

    /// A non-streamed `chat.completion` (a server that ignored `stream`).
    fn whole(
        mut self,
        t: &Transport,
        completion: &Value,
        sink: &mut StreamSink<'_>,
    ) -> Result<Completion, ProviderError> {
        if let Some(error) = completion.get("error").filter(|e| !e.is_null()) {
            return Err(t.malformed(format!("the response reported an error: {}", short(error))));
        }
        if completion
            .get("choices")
            .and_then(Value::as_array)
            .is_none()
        {
            return Err(t.malformed(format!(
                "unexpected response without choices: {}",
                short(completion)
            )));
        }
        self.chunk(t, completion, sink)?;
        self.done = true;
        self.finish(t, sink)
    }
}

#[cfg(test)]
mod tests;
