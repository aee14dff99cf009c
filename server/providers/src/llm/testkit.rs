//! Helpers for the LLM clients' tests against the loopback fake server.

use super::{Completion, CompletionRequest, Limits, Llm, Message, StreamEvent};
use crate::ProviderError;
use crate::net::RetryPolicy;
use serde_json::Value;
use std::time::Duration;

pub(crate) use crate::testing::fake_http::{FakeServer, Recorded, Reply};

/// Short timeouts for tests.
pub(crate) fn limits() -> Limits {
    Limits {
        first_byte: Duration::from_millis(500),
        idle: Duration::from_millis(500),
        total: Duration::from_secs(10),
    }
}

/// Two retries, a few milliseconds apart.
pub(crate) fn retry() -> RetryPolicy {
    RetryPolicy::new(2, Duration::from_millis(5))
}

/// A request with one user message.
pub(crate) fn ask(prompt: &str) -> CompletionRequest {
    CompletionRequest {
        messages: vec![Message::user(prompt)],
        ..CompletionRequest::default()
    }
}

/// Run a streaming call, keeping every event the sink received.
pub(crate) async fn run(
    llm: &dyn Llm,
    request: CompletionRequest,
) -> (Result<Completion, ProviderError>, Vec<StreamEvent>) {
    let mut events = Vec::new();
    let result = llm.stream(request, &mut |e| events.push(e)).await;
    (result, events)
}

/// The streamed text pieces, in order.
pub(crate) fn texts(events: &[StreamEvent]) -> Vec<&str> {
    events
        .iter()
        .filter_map(|e| match e {
            StreamEvent::Text(t) => Some(t.as_str()),
            _ => None,
        })
        .collect()
}

/// Anthropic-style events: `event: <type>` plus the JSON as `data:`.
pub(crate) fn named_events(events: &[Value]) -> Vec<String> {
    events
        .iter()
        .map(|e| format!("event: {}\ndata: {e}\n\n", e["type"].as_str().unwrap_or("")))
        .collect()
}

/// OpenAI-style events: `data: <json>` for each chunk, then `data: [DONE]`.
pub(crate) fn data_events(chunks: &[Value]) -> Vec<String> {
    chunks
        .iter()
        .map(|c| format!("data: {c}\n\n"))
        .chain(["data: [DONE]\n\n".to_string()])
        .collect()
}

/// A port on loopback that nothing listens on.
pub(crate) async fn closed_port() -> u16 {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    listener.local_addr().unwrap().port()
}

/// A reply whose chunks arrive after the given pauses (to trip idle timeouts mid-stream).
pub(crate) fn paced(chunks: Vec<(Duration, String)>) -> Reply {
    Reply {
        status: 200,
        headers: vec![("content-type".into(), "text/event-stream".into())],
        chunks: chunks
            .into_iter()
            .map(|(pause, text)| (pause, text.into_bytes()))
            .collect(),
    }
}

/// The first request the server saw.
pub(crate) fn first(server: &FakeServer) -> Recorded {
    server.requests().into_iter().next().expect("a request")
}

/// A loopback server that accepts connections and never answers (a first-byte timeout).
/// Returns its base URL and a count of the connections it took.
pub(crate) async fn silent_server() -> (String, std::sync::Arc<std::sync::atomic::AtomicUsize>) {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let accepted = std::sync::Arc::new(AtomicUsize::new(0));
    let count = accepted.clone();
    tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((socket, _)) = listener.accept().await {
            count.fetch_add(1, Ordering::SeqCst);
            held.push(socket);
        }
    });
    (base, accepted)
}
