//! WebSocket helpers: connect to a test server (with the token, or as told), read JSON
//! messages, follow a run to its end.

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::time::Duration;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::{self, Message};
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use super::TOKEN;

pub(crate) type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// Open `/api/ws` with `origin` (default: the server's own) and the token.
pub(crate) async fn connect(
    port: u16,
    origin: Option<Option<&str>>,
) -> Result<Socket, tungstenite::Error> {
    connect_as(port, origin, Some(&format!("Bearer {TOKEN}"))).await
}

/// Open `/api/ws` with `origin` (default: the server's own) and this `Authorization`, if any.
pub(crate) async fn connect_as(
    port: u16,
    origin: Option<Option<&str>>,
    authorization: Option<&str>,
) -> Result<Socket, tungstenite::Error> {
    let mut request = format!("ws://127.0.0.1:{port}/api/ws")
        .into_client_request()
        .unwrap();
    let own = format!("http://127.0.0.1:{port}");
    if let Some(origin) = origin.unwrap_or(Some(&own)) {
        request
            .headers_mut()
            .insert("origin", origin.parse().unwrap());
    }
    if let Some(authorization) = authorization {
        request
            .headers_mut()
            .insert("authorization", authorization.parse().unwrap());
    }
    tokio_tungstenite::connect_async(request)
        .await
        .map(|(ws, _)| ws)
}

/// The next text message, as JSON.
pub(crate) async fn next_json(ws: &mut Socket) -> Value {
    loop {
        let message = tokio::time::timeout(Duration::from_secs(10), ws.next())
            .await
            .expect("a message within 10 s")
            .expect("the socket is open")
            .expect("a frame");
        if let Message::Text(text) = message {
            return serde_json::from_str(text.as_str()).unwrap();
        }
    }
}

/// Subscribe to `run_id`: its snapshot, then every event to `run_finished` (or none when the
/// snapshot shows it finished). Other messages (`run_created`) are passed over.
pub(crate) async fn collect_run(ws: &mut Socket, run_id: &str) -> (Value, Vec<Value>) {
    ws.send_json(json!({"type": "subscribe", "runId": run_id}))
        .await;
    let snapshot = loop {
        let m = next_json(ws).await;
        if m["type"] == "snapshot" {
            break m;
        }
    };
    let mut events = Vec::new();
    if snapshot["run"]["status"] != "running" {
        return (snapshot["run"].clone(), events);
    }
    loop {
        let m = next_json(ws).await;
        if m["type"] != "event" {
            continue;
        }
        let last = m["event"]["type"] == "run_finished";
        events.push(m);
        if last {
            break;
        }
    }
    (snapshot["run"].clone(), events)
}

pub(crate) trait SendJson {
    async fn send_json(&mut self, value: Value);
}

impl SendJson for Socket {
    async fn send_json(&mut self, value: Value) {
        self.send(Message::Text(value.to_string().into()))
            .await
            .unwrap();
    }
}
