//! A scripted OpenAI-compatible server on loopback for `vai chat`'s tests, speaking the Chat
//! Completions streaming format (`data:` chunks, tool-call deltas, usage, `[DONE]`) as
//! `server/providers/src/llm/openai/tests.rs` does.

use super::super::support::offline_command;
use serde_json::{Value, json};
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A scripted OpenAI-compatible server on loopback. A request with tools whose last message is
/// the question gets a `vai_query` call for it; any other request gets a text answer citing [1]
/// — cut off mid-stream when the question holds `CUT`, slow when it holds `SLOW`.
pub(super) struct FakeOpenAi {
    port: u16,
    requests: Arc<Mutex<Vec<Value>>>,
}

impl FakeOpenAi {
    pub(super) fn start() -> FakeOpenAi {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let requests = Arc::new(Mutex::new(Vec::new()));
        let seen = requests.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let seen = seen.clone();
                std::thread::spawn(move || serve(stream, &seen));
            }
        });
        FakeOpenAi { port, requests }
    }

    /// `vai` with nothing configured but this server as its OpenAI LLM.
    pub(super) fn command(&self, home: &Path) -> Command {
        let mut command = offline_command(home, &home.join("no-local-llm"));
        command
            .env("VAI_LLM_PROVIDER", "openai")
            .env("VAI_LLM_API_KEY", "sk-test")
            .env(
                "VAI_LLM_BASE_URL",
                format!("http://127.0.0.1:{}", self.port),
            );
        command
    }

    pub(super) fn requests(&self) -> Vec<Value> {
        self.requests.lock().unwrap().clone()
    }
}

fn serve(mut stream: TcpStream, seen: &Mutex<Vec<Value>>) {
    let Some(body) = read_request(&mut stream) else {
        return;
    };
    let request: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    seen.lock().unwrap().push(request.clone());
    let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n";
    if stream.write_all(head.as_bytes()).is_err() {
        return;
    }
    for (event, delay) in reply(&request) {
        std::thread::sleep(delay);
        if stream.write_all(event.as_bytes()).is_err() || stream.flush().is_err() {
            return;
        }
    }
}

/// The body of one HTTP request.
fn read_request(stream: &mut TcpStream) -> Option<Vec<u8>> {
    let mut data = Vec::new();
    let mut buffer = [0u8; 8192];
    let head_end = loop {
        let n = stream.read(&mut buffer).ok()?;
        if n == 0 {
            return None;
        }
        data.extend_from_slice(&buffer[..n]);
        if let Some(at) = data.windows(4).position(|w| w == b"\r\n\r\n") {
            break at + 4;
        }
    };
    let head = String::from_utf8_lossy(&data[..head_end]).to_ascii_lowercase();
    let length: usize = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(0);
    while data.len() < head_end + length {
        let n = stream.read(&mut buffer).ok()?;
        if n == 0 {
            return None;
        }
        data.extend_from_slice(&buffer[..n]);
    }
    Some(data[head_end..head_end + length].to_vec())
}

/// A chunk of OpenAI's streaming format.
fn chunk(delta: Value, finish: Option<&str>) -> String {
    let chunk = json!({
        "id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1, "model": "gpt-4o-test",
        "choices": [{"index": 0, "delta": delta, "logprobs": null, "finish_reason": finish}],
        "usage": null
    });
    format!("data: {chunk}\n\n")
}

fn usage_and_done() -> Vec<String> {
    let usage = json!({
        "id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1, "model": "gpt-4o-test",
        "choices": [], "usage": {"prompt_tokens": 50, "completion_tokens": 9, "total_tokens": 59}
    });
    vec![format!("data: {usage}\n\n"), "data: [DONE]\n\n".to_string()]
}

/// The events answering `request`, each after its delay.
fn reply(request: &Value) -> Vec<(String, Duration)> {
    let messages = request["messages"].as_array().cloned().unwrap_or_default();
    let last = messages.last().cloned().unwrap_or(Value::Null);
    let asked = last["content"].as_str().unwrap_or("");
    let has_tools = request["tools"].as_array().is_some_and(|t| !t.is_empty());
    let now = |events: Vec<String>| events.into_iter().map(|e| (e, Duration::ZERO)).collect();
    let role = chunk(json!({"role": "assistant", "content": ""}), None);
    if has_tools && last["role"] == "user" {
        let arguments = json!({"query": asked}).to_string();
        let call = json!({"tool_calls": [{"index": 0, "id": "call_1", "type": "function",
                          "function": {"name": "vai_query", "arguments": arguments}}]});
        let mut events = vec![
            chunk(json!({"role": "assistant", "content": null}), None),
            chunk(call, None),
            chunk(json!({}), Some("tool_calls")),
        ];
        events.extend(usage_and_done());
        return now(events);
    }
    if asked.contains("CUT") {
        // Part of an answer, then the connection closes: no finish, no [DONE].
        return now(vec![
            role,
            chunk(json!({"content": "The answer begins"}), None),
        ]);
    }
    if asked.contains("SLOW") {
        let mut events = vec![(role, Duration::ZERO)];
        events.extend((0..150).map(|i| {
            let piece = chunk(json!({"content": format!("word{i} ")}), None);
            (piece, Duration::from_millis(100))
        }));
        return events;
    }
    let mut events = vec![
        role,
        chunk(json!({"content": "Requests carry a bearer key"}), None),
        chunk(
            json!({"content": " in the Authorization header [1]."}),
            None,
        ),
        chunk(json!({}), Some("stop")),
    ];
    events.extend(usage_and_done());
    now(events)
}
