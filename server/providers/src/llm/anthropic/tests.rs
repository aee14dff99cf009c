//! The Anthropic client against a loopback server speaking the Messages API's wire format.

use super::*;
use crate::llm::testkit::*;
use crate::llm::{Message, ToolDefinition};
use std::time::{Duration, Instant};

const KEY: &str = "sk-ant-test-key";

fn client(server: &FakeServer) -> Anthropic {
    Anthropic::new(KEY, None, Some(&server.base))
        .unwrap()
        .with_limits(limits())
        .with_retry(retry())
}

/// The stream the API sends for a short text answer (from its documentation), cut into
/// `pieces`.
fn text_stream(pieces: &[&str]) -> Vec<String> {
    let mut events = vec![
        json!({"type": "message_start", "message": {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5-20250929", "content": [], "stop_reason": null, "usage": {"input_tokens": 25, "cache_read_input_tokens": 5, "output_tokens": 1}}}),
        json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
        json!({"type": "ping"}),
    ];
    events.extend(pieces.iter().map(|p| {
        json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": p}})
    }));
    events.extend([
        json!({"type": "content_block_stop", "index": 0}),
        json!({"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": null}, "usage": {"output_tokens": 15}}),
        json!({"type": "message_stop"}),
    ]);
    named_events(&events)
}

fn ok_stream() -> Reply {
    Reply::sse(&text_stream(&["Hi"]), Duration::ZERO)
}

#[tokio::test]
async fn request_carries_key_version_system_tools_and_tool_results() {
    let server = FakeServer::start(|_, _| ok_stream()).await;
    let call = LlmToolCall {
        id: "toolu_1".into(),
        name: "search".into(),
        arguments: json!({"query": "vai"}),
    };
    let request = CompletionRequest {
        system: Some("Cite sources.".into()),
        messages: vec![
            Message::user("Find vai docs"),
            Message::assistant_with_tool_calls("Searching.", vec![call]),
            Message::tool_result("toolu_1", "2 documents", false),
            Message::tool_result("toolu_2", "no such collection", true),
        ],
        temperature: Some(0.2),
        tools: vec![ToolDefinition {
            name: "search".into(),
            description: "Vector search".into(),
            input_schema: json!({"type": "object", "properties": {"query": {"type": "string"}}}),
        }],
        ..CompletionRequest::default()
    };
    client(&server).complete(request).await.unwrap();

    let seen = first(&server);
    assert_eq!(
        (seen.method.as_str(), seen.path.as_str()),
        ("POST", "/v1/messages")
    );
    assert_eq!(seen.header("x-api-key"), Some(KEY));
    assert_eq!(seen.header("anthropic-version"), Some("2023-06-01"));
    assert_eq!(seen.header("content-type"), Some("application/json"));
    assert_eq!(seen.header("authorization"), None);
    assert_eq!(
        seen.json(),
        json!({
            "model": "claude-sonnet-4-5",
            "max_tokens": 4096,
            "stream": true,
            "system": "Cite sources.",
            "messages": [
                {"role": "user", "content": "Find vai docs"},
                {"role": "assistant", "content": [
                    {"type": "text", "text": "Searching."},
                    {"type": "tool_use", "id": "toolu_1", "name": "search", "input": {"query": "vai"}}
                ]},
                {"role": "user", "content": [
                    {"type": "tool_result", "tool_use_id": "toolu_1", "content": "2 documents"},
                    {"type": "tool_result", "tool_use_id": "toolu_2", "content": "no such collection", "is_error": true}
                ]}
            ],
            "temperature": 0.2,
            "tools": [{"name": "search", "description": "Vector search", "input_schema": {"type": "object", "properties": {"query": {"type": "string"}}}}]
        })
    );
}

#[tokio::test]
async fn requested_model_and_max_tokens_override_the_defaults() {
    let server = FakeServer::start(|_, _| ok_stream()).await;
    let llm = Anthropic::new(
        KEY,
        Some("claude-haiku-4-5"),
        Some(&format!("{}/", server.base)),
    )
    .unwrap();
    assert_eq!(llm.default_model(), "claude-haiku-4-5");
    llm.complete(ask("hi")).await.unwrap();
    let request = CompletionRequest {
        model: Some("claude-opus-4-1".into()),
        max_tokens: Some(300),
        ..ask("hi")
    };
    llm.complete(request).await.unwrap();
    let seen = server.requests();
    assert_eq!(seen[0].path, "/v1/messages");
    assert_eq!(seen[0].json()["model"], "claude-haiku-4-5");
    assert_eq!(seen[0].json().get("system"), None);
    assert_eq!(seen[0].json().get("tools"), None);
    assert_eq!(
        (&seen[1].json()["model"], &seen[1].json()["max_tokens"]),
        (&json!("claude-opus-4-1"), &json!(300))
    );
}

#[tokio::test]
async fn streamed_text_arrives_in_order_with_usage() {
    let pieces = ["Hello", ", wor", "ld — ", "ça va?"];
    let server =
        FakeServer::start(move |_, _| Reply::sse(&text_stream(&pieces), Duration::from_millis(5)))
            .await;
    let (result, events) = run(&client(&server), ask("hi")).await;
    let completion = result.unwrap();
    assert_eq!(texts(&events), pieces);
    assert_eq!(completion.text, "Hello, world — ça va?");
    assert_eq!(completion.model, "claude-sonnet-4-5-20250929");
    assert_eq!(
        completion.usage,
        TokenUsage {
            input_tokens: 30,
            output_tokens: 15
        }
    );
    assert_eq!(completion.stop_reason, StopReason::EndTurn);
    assert!(completion.tool_calls.is_empty());
}

#[tokio::test]
async fn tool_use_deltas_assemble_into_arguments() {
    let events = named_events(&[
        json!({"type": "message_start", "message": {"model": "claude-sonnet-4-5", "usage": {"input_tokens": 40, "output_tokens": 1}}}),
        json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
        json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Let me search."}}),
        json!({"type": "content_block_stop", "index": 0}),
        json!({"type": "content_block_start", "index": 1, "content_block": {"type": "tool_use", "id": "toolu_A", "name": "search", "input": {}}}),
        json!({"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": ""}}),
        json!({"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": "{\"query\": \"vec"}}),
        json!({"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": "tor search\", \"limit\""}}),
        json!({"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": ": 5}"}}),
        json!({"type": "content_block_stop", "index": 1}),
        json!({"type": "content_block_start", "index": 2, "content_block": {"type": "tool_use", "id": "toolu_B", "name": "list_collections", "input": {}}}),
        json!({"type": "content_block_stop", "index": 2}),
        json!({"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {"output_tokens": 60}}),
        json!({"type": "message_stop"}),
    ]);
    let server = FakeServer::start(move |_, _| Reply::sse(&events, Duration::from_millis(2))).await;
    let (result, events) = run(&client(&server), ask("search")).await;
    let completion = result.unwrap();
    let search = LlmToolCall {
        id: "toolu_A".into(),
        name: "search".into(),
        arguments: json!({"query": "vector search", "limit": 5}),
    };
    let list = LlmToolCall {
        id: "toolu_B".into(),
        name: "list_collections".into(),
        arguments: json!({}),
    };
    assert_eq!(
        events,
        vec![
            StreamEvent::Text("Let me search.".into()),
            StreamEvent::ToolCallStarted {
                id: "toolu_A".into(),
                name: "search".into()
            },
            StreamEvent::ToolCall(search.clone()),
            StreamEvent::ToolCallStarted {
                id: "toolu_B".into(),
                name: "list_collections".into()
            },
            StreamEvent::ToolCall(list.clone()),
        ]
    );
    assert_eq!(completion.text, "Let me search.");
    assert_eq!(completion.tool_calls, vec![search, list]);
    assert_eq!(completion.stop_reason, StopReason::ToolUse);
    assert_eq!(completion.usage.output_tokens, 60);
}

#[tokio::test]
async fn rate_limit_with_retry_after_is_waited_then_retried() {
    let server = FakeServer::start(|_, n| match n {
        0 => Reply::json(
            429,
            json!({"type": "error", "error": {"type": "rate_limit_error", "message": "Number of request tokens has exceeded your per-minute rate limit"}}),
        )
        .header("retry-after", "1"),
        _ => ok_stream(),
    })
    .await;
    let started = Instant::now();
    let completion = client(&server).complete(ask("hi")).await.unwrap();
    assert!(
        started.elapsed() >= Duration::from_secs(1),
        "Retry-After was honoured"
    );
    assert_eq!(completion.text, "Hi");
    assert_eq!(server.requests().len(), 2);
}

#[tokio::test]
async fn a_rate_limit_longer_than_we_wait_is_reported_with_its_delay() {
    let server = FakeServer::start(|_, _| {
        Reply::json(
            429,
            json!({"type": "error", "error": {"type": "rate_limit_error", "message": "slow down"}}),
        )
        .header("retry-after", "3600")
    })
    .await;
    let err = client(&server).complete(ask("hi")).await.unwrap_err();
    assert_eq!(err.retry_after(), Some(Duration::from_secs(3600)));
    assert_eq!(
        err.to_string(),
        "anthropic: rate limited (retry after 3600000ms): rate_limit_error: slow down"
    );
    assert_eq!(server.requests().len(), 1);
}

#[tokio::test]
async fn server_errors_are_retried_until_exhausted() {
    let server = FakeServer::start(|_, _| {
        Reply::json(500, json!({"type": "error", "error": {"type": "api_error", "message": "Internal server error"}}))
    })
    .await;
    let err = client(&server).complete(ask("hi")).await.unwrap_err();
    assert_eq!(
        err,
        ProviderError::Server {
            provider: "anthropic".into(),
            status: 500,
            message: "api_error: Internal server error".into()
        }
    );
    assert_eq!(server.requests().len(), 3, "the first try and two retries");
}

#[tokio::test]
async fn client_errors_are_not_retried_and_never_show_the_key() {
    let server = FakeServer::start(|_, n| match n {
        0 => Reply::json(
            401,
            json!({"type": "error", "error": {"type": "authentication_error", "message": format!("invalid x-api-key {KEY}")}}),
        ),
        _ => Reply::json(
            400,
            json!({"type": "error", "error": {"type": "invalid_request_error", "message": "max_tokens: must be positive"}}),
        ),
    })
    .await;
    let llm = client(&server);
    let err = llm.complete(ask("hi")).await.unwrap_err();
    assert!(matches!(err, ProviderError::Auth { .. }), "{err:?}");
    assert!(!err.to_string().contains(KEY), "{err}");
    assert!(
        err.to_string().contains("invalid x-api-key <redacted>"),
        "{err}"
    );
    let err = llm.complete(ask("hi")).await.unwrap_err();
    assert_eq!(
        err.to_string(),
        "anthropic: invalid request: invalid_request_error: max_tokens: must be positive"
    );
    assert_eq!(server.requests().len(), 2, "one request each");
}

#[tokio::test]
async fn a_server_that_never_answers_times_out() {
    let (base, accepted) = silent_server().await;
    let llm = Anthropic::new(KEY, None, Some(&base))
        .unwrap()
        .with_limits(Limits {
            first_byte: Duration::from_millis(200),
            ..limits()
        })
        .with_retry(RetryPolicy::new(0, Duration::ZERO));
    let started = Instant::now();
    let err = llm.complete(ask("hi")).await.unwrap_err();
    assert_eq!(err.to_string(), "anthropic: timed out after 200ms");
    assert_eq!(accepted.load(std::sync::atomic::Ordering::SeqCst), 1);
    assert!(started.elapsed() < Duration::from_secs(2));
}

#[tokio::test]
async fn headers_then_silence_times_out() {
    let server = FakeServer::start(|_, _| ok_stream().delayed(Duration::from_secs(3))).await;
    let err = client(&server).complete(ask("hi")).await.unwrap_err();
    assert!(matches!(err, ProviderError::Timeout { .. }), "{err:?}");
}

#[tokio::test]
async fn a_stream_that_stalls_times_out_after_the_text_so_far() {
    let mut chunks: Vec<(Duration, String)> = text_stream(&["partial"])
        .into_iter()
        .map(|e| (Duration::ZERO, e))
        .collect();
    chunks[4].0 = Duration::from_secs(3); // before content_block_stop
    let server = FakeServer::start(move |_, _| paced(chunks.clone())).await;
    let (result, events) = run(&client(&server), ask("hi")).await;
    assert!(
        matches!(result, Err(ProviderError::Timeout { .. })),
        "{result:?}"
    );
    assert_eq!(texts(&events), ["partial"]);
    assert_eq!(
        server.requests().len(),
        1,
        "a started answer is not retried"
    );
}

#[tokio::test]
async fn the_overall_cap_bounds_a_slow_trickle() {
    let events = text_stream(&["a"; 20]);
    let server =
        FakeServer::start(move |_, _| Reply::sse(&events, Duration::from_millis(50))).await;
    let llm = client(&server).with_limits(Limits {
        total: Duration::from_millis(300),
        ..limits()
    });
    let err = llm.complete(ask("hi")).await.unwrap_err();
    assert_eq!(
        err,
        ProviderError::Timeout {
            provider: "anthropic".into(),
            after: Duration::from_millis(300)
        }
    );
}

#[tokio::test]
async fn malformed_or_cut_streams_are_clear_errors() {
    let server = FakeServer::start(|_, n| match n {
        0 => Reply::sse(
            &["event: message_start\ndata: {\"type\": \"message_start\", \"message\": {\n\n".to_string()],
            Duration::ZERO,
        ),
        1 => Reply::sse(&text_stream(&["cut"])[..4], Duration::ZERO),
        2 => Reply::sse(
            &named_events(&[
                json!({"type": "message_start", "message": {"model": "m", "usage": {"input_tokens": 1}}}),
                json!({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}),
            ]),
            Duration::ZERO,
        ),
        _ => Reply::sse(
            &named_events(&[
                json!({"type": "content_block_start", "index": 0, "content_block": {"type": "tool_use", "id": "t", "name": "search", "input": {}}}),
                json!({"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": "{\"query\": "}}),
                json!({"type": "content_block_stop", "index": 0}),
            ]),
            Duration::ZERO,
        ),
    })
    .await;
    let llm = client(&server);
    let err = llm.complete(ask("hi")).await.unwrap_err().to_string();
    assert!(
        err.starts_with("anthropic: malformed JSON in a streamed event"),
        "{err}"
    );
    let err = llm.complete(ask("hi")).await.unwrap_err().to_string();
    assert_eq!(
        err,
        "anthropic: the event stream ended before message_stop: the answer is incomplete"
    );
    let err = llm.complete(ask("hi")).await.unwrap_err();
    assert_eq!(
        err.to_string(),
        "anthropic: server error 529: overloaded_error: Overloaded"
    );
    assert!(err.is_transient());
    let err = llm.complete(ask("hi")).await.unwrap_err().to_string();
    assert!(
        err.starts_with("anthropic: malformed JSON in the arguments of tool call search"),
        "{err}"
    );
}

#[tokio::test]
async fn a_non_streamed_answer_is_read_whole() {
    let server = FakeServer::start(|_, n| match n {
        0 => Reply::json(
            200,
            json!({
                "id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
                "content": [
                    {"type": "text", "text": "Checking."},
                    {"type": "tool_use", "id": "toolu_1", "name": "search", "input": {"query": "x"}}
                ],
                "stop_reason": "tool_use",
                "usage": {"input_tokens": 12, "output_tokens": 7}
            }),
        ),
        _ => Reply::text(200, "{\"content\": [").header("content-type", "application/json"),
    })
    .await;
    let llm = client(&server);
    let (result, events) = run(&llm, ask("hi")).await;
    let completion = result.unwrap();
    assert_eq!(texts(&events), ["Checking."]);
    assert_eq!(completion.tool_calls[0].arguments, json!({"query": "x"}));
    assert_eq!(completion.stop_reason, StopReason::ToolUse);
    assert_eq!(
        (
            completion.usage.input_tokens,
            completion.usage.output_tokens
        ),
        (12, 7)
    );
    let err = llm.complete(ask("hi")).await.unwrap_err().to_string();
    assert!(
        err.starts_with("anthropic: malformed JSON in the response"),
        "{err}"
    );
}

/// A `response_format` is a tool the model must call, whose input is the answer: it comes back
/// as the answer's text, not as a tool call. With tools of its own the request is left alone.
#[tokio::test]
async fn a_response_format_is_a_forced_tool_whose_input_is_the_answer() {
    let events = named_events(&[
        json!({"type": "message_start", "message": {"model": "claude-sonnet-4-5", "usage": {"input_tokens": 30, "output_tokens": 1}}}),
        json!({"type": "content_block_start", "index": 0, "content_block": {"type": "tool_use", "id": "toolu_A", "name": "answer", "input": {}}}),
        json!({"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": "{\"scores\": {\"accuracy\""}}),
        json!({"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": ": 4}}"}}),
        json!({"type": "content_block_stop", "index": 0}),
        json!({"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {"output_tokens": 12}}),
        json!({"type": "message_stop"}),
    ]);
    let server = FakeServer::start(move |_, _| Reply::sse(&events, Duration::ZERO)).await;
    let llm = client(&server);
    assert!(llm.supports_structured_output());
    let schema = json!({"type": "object", "properties": {"scores": {"type": "object", "properties": {"accuracy": {"type": "integer"}}}}});
    let request = CompletionRequest {
        response_format: Some(schema.clone()),
        ..ask("rate")
    };
    let completion = llm.complete(request).await.unwrap();
    assert_eq!(
        serde_json::from_str::<Value>(&completion.text).unwrap(),
        json!({"scores": {"accuracy": 4}})
    );
    assert!(completion.tool_calls.is_empty());
    assert_eq!(completion.stop_reason, StopReason::EndTurn);
    let body = first(&server).json();
    assert_eq!(
        body["tools"],
        json!([{"name": "answer", "description": "Give the answer in the required shape.", "input_schema": schema}])
    );
    assert_eq!(
        body["tool_choice"],
        json!({"type": "tool", "name": "answer"})
    );
}
