//! The Ollama client against a loopback server speaking its OpenAI-compatible wire format.

use super::*;
use crate::TokenUsage;
use crate::llm::testkit::*;
use crate::llm::{LlmToolCall, StopReason, StreamEvent, ToolDefinition};
use serde_json::{Value, json};
use std::time::Duration;

/// A chunk as Ollama's `/v1/chat/completions` streams it.
fn chunk(delta: Value, finish: Option<&str>) -> Value {
    json!({
        "id": "chatcmpl-42", "object": "chat.completion.chunk", "created": 1,
        "model": "llama3.1", "system_fingerprint": "fp_ollama",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]
    })
}

fn client(base: &str) -> Ollama {
    Ollama::new(None, None, Some(base))
        .unwrap()
        .with_limits(limits())
        .with_retry(retry())
}

#[tokio::test]
async fn streams_from_the_openai_compatible_endpoint_without_a_key() {
    let chunks = [
        chunk(json!({"role": "assistant", "content": "Local"}), None),
        chunk(json!({"role": "assistant", "content": " models"}), None),
        chunk(json!({"role": "assistant", "content": ""}), Some("stop")),
        json!({"id": "chatcmpl-42", "object": "chat.completion.chunk", "model": "llama3.1", "choices": [], "usage": {"prompt_tokens": 26, "completion_tokens": 3, "total_tokens": 29}}),
    ];
    let events = data_events(&chunks);
    let server = FakeServer::start(move |_, _| Reply::sse(&events, Duration::from_millis(2))).await;
    // A base written with Ollama's `/v1` suffix works as well.
    let llm = client(&format!("{}/v1", server.base));
    assert_eq!((llm.name(), llm.default_model()), ("ollama", "llama3.1"));
    let request = CompletionRequest {
        system: Some("Be brief.".into()),
        max_tokens: Some(64),
        ..ask("hi")
    };
    let (result, events) = run(&llm, request).await;
    let completion = result.unwrap();
    assert_eq!(texts(&events), ["Local", " models"]);
    assert_eq!(completion.text, "Local models");
    assert_eq!(completion.model, "llama3.1");
    assert_eq!(
        completion.usage,
        TokenUsage {
            input_tokens: 26,
            output_tokens: 3
        }
    );

    let seen = first(&server);
    assert_eq!(
        (seen.method.as_str(), seen.path.as_str()),
        ("POST", "/v1/chat/completions")
    );
    assert_eq!(seen.header("authorization"), None);
    assert_eq!(
        seen.json(),
        json!({
            "model": "llama3.1",
            "messages": [
                {"role": "system", "content": "Be brief."},
                {"role": "user", "content": "hi"}
            ],
            "stream": true,
            "stream_options": {"include_usage": true},
            "max_tokens": 64
        })
    );
}

#[tokio::test]
async fn whole_tool_calls_in_one_delta_are_read() {
    // Ollama sends each call complete, and older versions finish with "stop".
    let chunks = [
        chunk(
            json!({"role": "assistant", "content": "", "tool_calls": [
                {"id": "call_x1", "index": 0, "type": "function", "function": {"name": "search", "arguments": "{\"query\":\"ollama\"}"}}
            ]}),
            None,
        ),
        chunk(json!({"role": "assistant", "content": ""}), Some("stop")),
    ];
    let events = data_events(&chunks);
    let server = FakeServer::start(move |_, _| Reply::sse(&events, Duration::ZERO)).await;
    let request = CompletionRequest {
        tools: vec![ToolDefinition {
            name: "search".into(),
            description: "Vector search".into(),
            input_schema: json!({"type": "object"}),
        }],
        ..ask("search")
    };
    let (result, events) = run(&client(&server.base), request).await;
    let completion = result.unwrap();
    let call = LlmToolCall {
        id: "call_x1".into(),
        name: "search".into(),
        arguments: json!({"query": "ollama"}),
    };
    assert_eq!(events.last(), Some(&StreamEvent::ToolCall(call.clone())));
    assert_eq!(completion.tool_calls, vec![call]);
    assert_eq!(completion.stop_reason, StopReason::ToolUse);
    assert_eq!(
        first(&server).json()["tools"][0]["function"]["name"],
        "search"
    );
}

#[tokio::test]
async fn a_stopped_ollama_says_where_it_was_expected() {
    let base = format!("http://127.0.0.1:{}", closed_port().await);
    let llm = client(&base).with_retry(RetryPolicy::new(0, Duration::ZERO));
    let err = llm.complete(ask("hi")).await.unwrap_err();
    assert!(matches!(err, ProviderError::Network { .. }), "{err:?}");
    assert!(
        err.to_string()
            .ends_with(&format!("(is Ollama running at {base}?)")),
        "{err}"
    );
}

#[tokio::test]
async fn a_missing_model_says_to_pull_it() {
    let server = FakeServer::start(|_, _| {
        Reply::json(
            404,
            json!({"error": {"message": "model \"qwen3\" not found, try pulling it first", "type": "api_error", "param": null, "code": null}}),
        )
    })
    .await;
    let llm = client(&server.base);
    let request = CompletionRequest {
        model: Some("qwen3".into()),
        ..ask("hi")
    };
    let err = llm.complete(request).await.unwrap_err();
    assert_eq!(
        err.to_string(),
        "ollama: invalid request: api_error: model \"qwen3\" not found, try pulling it first (run `ollama pull qwen3`)"
    );
    assert_eq!(server.requests().len(), 1);
}

#[tokio::test]
async fn an_optional_key_is_sent_as_a_bearer_token() {
    let events = data_events(&[chunk(json!({"content": "ok"}), Some("stop"))]);
    let server = FakeServer::start(move |_, _| Reply::sse(&events, Duration::ZERO)).await;
    let llm = Ollama::new(Some("proxy-token"), Some("mistral"), Some(&server.base)).unwrap();
    assert_eq!(llm.complete(ask("hi")).await.unwrap().text, "ok");
    let seen = first(&server);
    assert_eq!(seen.header("authorization"), Some("Bearer proxy-token"));
    assert_eq!(seen.json()["model"], "mistral");
}

/// Ollama's OpenAI-compatible endpoint takes the same `response_format`.
#[tokio::test]
async fn a_response_format_reaches_ollama_as_a_json_schema() {
    let chunks = [chunk(
        json!({"role": "assistant", "content": "{\"ok\":true}"}),
        Some("stop"),
    )];
    let events = data_events(&chunks);
    let server = FakeServer::start(move |_, _| Reply::sse(&events, Duration::ZERO)).await;
    let llm = client(&server.base);
    assert!(llm.supports_structured_output());
    let schema = json!({"type": "object", "properties": {"ok": {"type": "boolean"}}});
    let request = CompletionRequest {
        response_format: Some(schema),
        ..ask("ok?")
    };
    assert_eq!(llm.complete(request).await.unwrap().text, "{\"ok\":true}");
    let format = &first(&server).json()["response_format"];
    assert_eq!(format["type"], "json_schema");
    assert_eq!(format["json_schema"]["schema"]["required"], json!(["ok"]));
}
