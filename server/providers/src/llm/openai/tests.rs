//! The OpenAI client against a loopback server speaking the Chat Completions wire format.

use super::*;
use crate::llm::testkit::*;
use crate::llm::{LlmConfig, Message, ToolDefinition, llm_from_config};
use std::time::{Duration, Instant};

const KEY: &str = "sk-proj-test-key";

fn client(server: &FakeServer) -> OpenAi {
    OpenAi::new(KEY, None, Some(&server.base))
        .unwrap()
        .with_limits(limits())
        .with_retry(retry())
}

fn chunk(delta: Value, finish: Option<&str>) -> Value {
    json!({
        "id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1, "model": "gpt-4o-2024-08-06",
        "choices": [{"index": 0, "delta": delta, "logprobs": null, "finish_reason": finish}],
        "usage": null
    })
}

fn usage_chunk(prompt: u64, completion: u64) -> Value {
    json!({
        "id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1, "model": "gpt-4o-2024-08-06",
        "choices": [],
        "usage": {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}
    })
}

/// The stream for a text answer cut into `pieces`, with the usage chunk and `[DONE]`.
fn text_stream(pieces: &[&str]) -> Vec<String> {
    let mut chunks = vec![chunk(
        json!({"role": "assistant", "content": "", "refusal": null}),
        None,
    )];
    chunks.extend(pieces.iter().map(|p| chunk(json!({"content": p}), None)));
    chunks.push(chunk(json!({}), Some("stop")));
    chunks.push(usage_chunk(19, 10));
    data_events(&chunks)
}

fn ok_stream() -> Reply {
    Reply::sse(&text_stream(&["Hi"]), Duration::ZERO)
}

#[tokio::test]
async fn request_carries_bearer_system_tools_and_tool_results() {
    let server = FakeServer::start(|_, _| ok_stream()).await;
    let call = LlmToolCall {
        id: "call_1".into(),
        name: "search".into(),
        arguments: json!({"query": "vai"}),
    };
    let request = CompletionRequest {
        system: Some("Cite sources.".into()),
        messages: vec![
            Message::user("Find vai docs"),
            Message::assistant_with_tool_calls("", vec![call]),
            Message::tool_result("call_1", "2 documents", false),
            Message::assistant("Found them."),
        ],
        temperature: Some(0.5),
        max_tokens: Some(256),
        tools: vec![ToolDefinition {
            name: "search".into(),
            description: "Vector search".into(),
            input_schema: json!({"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}),
        }],
        ..CompletionRequest::default()
    };
    client(&server).complete(request).await.unwrap();

    let seen = first(&server);
    assert_eq!(
        (seen.method.as_str(), seen.path.as_str()),
        ("POST", "/v1/chat/completions")
    );
    assert_eq!(
        seen.header("authorization"),
        Some(format!("Bearer {KEY}").as_str())
    );
    assert_eq!(seen.header("content-type"), Some("application/json"));
    assert_eq!(
        seen.json(),
        json!({
            "model": "gpt-4o",
            "messages": [
                {"role": "system", "content": "Cite sources."},
                {"role": "user", "content": "Find vai docs"},
                {"role": "assistant", "content": null, "tool_calls": [
                    {"id": "call_1", "type": "function", "function": {"name": "search", "arguments": "{\"query\":\"vai\"}"}}
                ]},
                {"role": "tool", "tool_call_id": "call_1", "content": "2 documents"},
                {"role": "assistant", "content": "Found them."}
            ],
            "stream": true,
            "stream_options": {"include_usage": true},
            "temperature": 0.5,
            "max_completion_tokens": 256,
            "tools": [{"type": "function", "function": {
                "name": "search", "description": "Vector search",
                "parameters": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}
            }}]
        })
    );
}

#[tokio::test]
async fn streamed_text_arrives_in_order_with_usage() {
    let pieces = ["Vector", " search", " finds", " néighbours."];
    let server =
        FakeServer::start(move |_, _| Reply::sse(&text_stream(&pieces), Duration::from_millis(5)))
            .await;
    let (result, events) = run(&client(&server), ask("hi")).await;
    let completion = result.unwrap();
    assert_eq!(texts(&events), pieces);
    assert_eq!(events.len(), pieces.len());
    assert_eq!(completion.text, "Vector search finds néighbours.");
    assert_eq!(completion.model, "gpt-4o-2024-08-06");
    assert_eq!(
        completion.usage,
        TokenUsage {
            input_tokens: 19,
            output_tokens: 10
        }
    );
    assert_eq!(completion.stop_reason, StopReason::EndTurn);
}

#[tokio::test]
async fn tool_call_deltas_assemble_into_arguments() {
    let call = |index: u64, id: Option<&str>, name: Option<&str>, args: &str| {
        let mut function = json!({"arguments": args});
        if let Some(name) = name {
            function["name"] = json!(name);
        }
        let mut delta = json!({"index": index, "function": function});
        if let Some(id) = id {
            delta["id"] = json!(id);
            delta["type"] = json!("function");
        }
        chunk(json!({"tool_calls": [delta]}), None)
    };
    let chunks = [
        chunk(json!({"role": "assistant", "content": null}), None),
        call(0, Some("call_A"), Some("search"), ""),
        call(0, None, None, "{\"query\""),
        call(0, None, None, ": \"vector"),
        call(1, Some("call_B"), Some("rerank"), ""),
        call(0, None, None, " search\"}"),
        call(1, None, None, "{}"),
        chunk(json!({}), Some("tool_calls")),
        usage_chunk(80, 33),
    ];
    let events = data_events(&chunks);
    let server = FakeServer::start(move |_, _| Reply::sse(&events, Duration::from_millis(2))).await;
    let (result, events) = run(&client(&server), ask("search")).await;
    let completion = result.unwrap();
    let search = LlmToolCall {
        id: "call_A".into(),
        name: "search".into(),
        arguments: json!({"query": "vector search"}),
    };
    let rerank = LlmToolCall {
        id: "call_B".into(),
        name: "rerank".into(),
        arguments: json!({}),
    };
    assert_eq!(
        events,
        vec![
            StreamEvent::ToolCallStarted {
                id: "call_A".into(),
                name: "search".into()
            },
            StreamEvent::ToolCallStarted {
                id: "call_B".into(),
                name: "rerank".into()
            },
            StreamEvent::ToolCall(search.clone()),
            StreamEvent::ToolCall(rerank.clone()),
        ]
    );
    assert_eq!(completion.tool_calls, vec![search, rerank]);
    assert_eq!(completion.stop_reason, StopReason::ToolUse);
    assert_eq!(completion.text, "");
    assert_eq!(completion.usage.output_tokens, 33);
    // The calls go back as the assistant turn.
    assert_eq!(completion.message().tool_calls.len(), 2);
}

#[tokio::test]
async fn rate_limit_with_retry_after_is_waited_then_retried() {
    let server = FakeServer::start(|_, n| match n {
        0 => Reply::json(
            429,
            json!({"error": {"message": "Rate limit reached for gpt-4o", "type": "requests", "code": "rate_limit_exceeded"}}),
        )
        .header("retry-after-ms", "150")
        .header("retry-after", "1"),
        _ => ok_stream(),
    })
    .await;
    let started = Instant::now();
    let completion = client(&server).complete(ask("hi")).await.unwrap();
    let waited = started.elapsed();
    assert!(waited >= Duration::from_millis(150), "{waited:?}");
    assert!(
        waited < Duration::from_secs(1),
        "retry-after-ms is the finer hint: {waited:?}"
    );
    assert_eq!(completion.text, "Hi");
    assert_eq!(server.requests().len(), 2);
}

#[tokio::test]
async fn server_errors_are_retried_until_exhausted() {
    let server = FakeServer::start(|_, _| Reply::text(503, "upstream connect error")).await;
    let err = client(&server).complete(ask("hi")).await.unwrap_err();
    assert_eq!(
        err.to_string(),
        "openai: server error 503: upstream connect error"
    );
    assert_eq!(server.requests().len(), 3);
}

#[tokio::test]
async fn bad_requests_are_not_retried_and_never_show_the_key() {
    let server = FakeServer::start(|_, n| match n {
        0 => Reply::json(
            401,
            json!({"error": {"message": format!("Incorrect API key provided: {KEY}."), "type": "invalid_request_error", "code": "invalid_api_key"}}),
        ),
        _ => Reply::json(
            404,
            json!({"error": {"message": "The model `gpt-9` does not exist", "type": "invalid_request_error", "code": "model_not_found"}}),
        ),
    })
    .await;
    let llm = client(&server);
    let err = llm.complete(ask("hi")).await.unwrap_err();
    assert_eq!(
        err.to_string(),
        "openai: authentication failed: invalid_request_error: Incorrect API key provided: <redacted>."
    );
    let err = llm.complete(ask("hi")).await.unwrap_err();
    assert!(
        matches!(err, ProviderError::InvalidRequest { .. }),
        "{err:?}"
    );
    assert!(err.to_string().contains("The model `gpt-9` does not exist"));
    assert_eq!(server.requests().len(), 2);
}

#[tokio::test]
async fn a_server_that_never_answers_times_out_on_every_try() {
    let (base, accepted) = silent_server().await;
    let llm = OpenAi::new(KEY, None, Some(&base))
        .unwrap()
        .with_limits(Limits {
            first_byte: Duration::from_millis(200),
            ..limits()
        })
        .with_retry(retry());
    let started = Instant::now();
    let err = llm.complete(ask("hi")).await.unwrap_err();
    assert_eq!(
        err,
        ProviderError::Timeout {
            provider: "openai".into(),
            after: Duration::from_millis(200)
        }
    );
    assert_eq!(
        accepted.load(std::sync::atomic::Ordering::SeqCst),
        3,
        "retried twice"
    );
    assert!(started.elapsed() < Duration::from_secs(2));
}

#[tokio::test]
async fn malformed_cut_or_failed_streams_are_clear_errors() {
    let server = FakeServer::start(|_, n| match n {
        0 => Reply::sse(&["data: {\"choices\": [\n\n".to_string()], Duration::ZERO),
        1 => Reply::sse(&text_stream(&["cut"])[..2], Duration::ZERO),
        2 => Reply::sse(
            &data_events(&[json!({"error": {"message": "The server had an error while processing your request."}})]),
            Duration::ZERO,
        ),
        _ => Reply::sse(
            &data_events(&[
                chunk(json!({"tool_calls": [{"index": 0, "id": "c", "function": {"name": "search", "arguments": "{\"q\": "}}]}), None),
                chunk(json!({}), Some("tool_calls")),
            ]),
            Duration::ZERO,
        ),
    })
    .await;
    let llm = client(&server);
    let err = llm.complete(ask("hi")).await.unwrap_err().to_string();
    assert!(
        err.starts_with("openai: malformed JSON in a streamed chunk"),
        "{err}"
    );
    let err = llm.complete(ask("hi")).await.unwrap_err().to_string();
    assert_eq!(
        err,
        "openai: the event stream ended before [DONE]: the answer is incomplete"
    );
    let err = llm.complete(ask("hi")).await.unwrap_err().to_string();
    assert_eq!(
        err,
        "openai: the stream reported an error: The server had an error while processing your request."
    );
    let err = llm.complete(ask("hi")).await.unwrap_err().to_string();
    assert!(
        err.starts_with("openai: malformed JSON in the arguments of tool call search"),
        "{err}"
    );
}

#[tokio::test]
async fn a_non_streamed_answer_is_read_whole() {
    let server = FakeServer::start(|_, _| {
        Reply::json(
            200,
            json!({
                "id": "chatcmpl-2", "object": "chat.completion", "model": "gpt-4o-mini",
                "choices": [{"index": 0, "finish_reason": "length", "message": {"role": "assistant", "content": "A long"}}],
                "usage": {"prompt_tokens": 5, "completion_tokens": 2}
            }),
        )
    })
    .await;
    let (result, events) = run(&client(&server), ask("hi")).await;
    let completion = result.unwrap();
    assert_eq!(texts(&events), ["A long"]);
    assert_eq!(
        (completion.model.as_str(), completion.stop_reason),
        ("gpt-4o-mini", StopReason::MaxTokens)
    );
    assert_eq!(completion.usage.input_tokens, 5);
}

#[tokio::test]
async fn a_client_from_config_talks_to_the_configured_base_url() {
    let server = FakeServer::start(|_, _| ok_stream()).await;
    let llm = llm_from_config(&LlmConfig {
        api_key: Some(KEY.into()),
        model: Some("gpt-4.1".into()),
        base_url: Some(format!("{}/v1/", server.base)),
        ..LlmConfig::new("openai")
    })
    .unwrap();
    let completion = llm.complete(ask("hi")).await.unwrap();
    assert_eq!(completion.text, "Hi");
    let seen = first(&server);
    assert_eq!(seen.path, "/v1/chat/completions");
    assert_eq!(seen.json()["model"], "gpt-4.1");
}

/// A `response_format` goes as a strict JSON Schema: every object's properties required, no
/// others allowed (what vai's own checker expects of the answer too).
#[tokio::test]
async fn a_response_format_is_sent_as_a_strict_json_schema() {
    let server = FakeServer::start(|_, _| {
        Reply::sse(
            &text_stream(&["{\"route\":", "\"billing\"}"]),
            Duration::ZERO,
        )
    })
    .await;
    let llm = client(&server);
    assert!(llm.supports_structured_output());
    let request = CompletionRequest {
        response_format: Some(json!({
            "type": "object",
            "properties": {
                "route": {"enum": ["billing", "technical"]},
                "steps": {"type": "array", "items": {"type": "object", "properties": {"id": {"type": "string"}}}}
            }
        })),
        ..ask("route this")
    };
    let completion = llm.complete(request).await.unwrap();
    assert_eq!(completion.text, "{\"route\":\"billing\"}");
    assert_eq!(
        first(&server).json()["response_format"],
        json!({"type": "json_schema", "json_schema": {"name": "answer", "strict": true, "schema": {
            "type": "object",
            "properties": {
                "route": {"enum": ["billing", "technical"]},
                "steps": {"type": "array", "items": {
                    "type": "object",
                    "properties": {"id": {"type": "string"}},
                    "required": ["id"],
                    "additionalProperties": false
                }}
            },
            "required": ["route", "steps"],
            "additionalProperties": false
        }}})
    );
}
