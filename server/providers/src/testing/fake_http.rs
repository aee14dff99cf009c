//! A tiny HTTP/1.1 server on 127.0.0.1 for provider tests: it records every request and answers
//! each with whatever the test's handler returns — a status, headers, and a body sent in chunks
//! with optional pauses (for streaming and timeouts).

use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

/// A request as the server saw it.
#[derive(Debug, Clone)]
pub struct Recorded {
    pub method: String,
    pub path: String,
    /// Header names lower-cased.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Recorded {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).unwrap_or(serde_json::Value::Null)
    }
}

/// What to answer.
#[derive(Debug, Clone)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    /// Sent in order; a chunk's pause is waited before it is written.
    pub chunks: Vec<(Duration, Vec<u8>)>,
}

impl Reply {
    pub fn json(status: u16, body: serde_json::Value) -> Self {
        Reply {
            status,
            headers: vec![("content-type".into(), "application/json".into())],
            chunks: vec![(Duration::ZERO, body.to_string().into_bytes())],
        }
    }

    pub fn text(status: u16, body: &str) -> Self {
        Reply {
            status,
            headers: vec![("content-type".into(), "text/plain".into())],
            chunks: vec![(Duration::ZERO, body.as_bytes().to_vec())],
        }
    }

    /// Server-sent events, one chunk per event, each after `gap`.
    pub fn sse(events: &[String], gap: Duration) -> Self {
        Reply {
            status: 200,
            headers: vec![("content-type".into(), "text/event-stream".into())],
            chunks: events
                .iter()
                .map(|e| (gap, e.clone().into_bytes()))
                .collect(),
        }
    }

    pub fn header(mut self, name: &str, value: &str) -> Self {
        self.headers.push((name.into(), value.into()));
        self
    }

    /// Wait `pause` before sending anything (to trigger client timeouts).
    pub fn delayed(mut self, pause: Duration) -> Self {
        if let Some(first) = self.chunks.first_mut() {
            first.0 += pause;
        }
        self
    }
}

type Handler = Arc<dyn Fn(&Recorded, usize) -> Reply + Send + Sync>;

/// A running fake server.
pub struct FakeServer {
    pub base: String,
    requests: Arc<Mutex<Vec<Recorded>>>,
}

impl FakeServer {
    /// Start a server; `handler(request, n)` answers the n-th request (from 0).
    pub async fn start(
        handler: impl Fn(&Recorded, usize) -> Reply + Send + Sync + 'static,
    ) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind loopback");
        let base = format!("http://{}", listener.local_addr().expect("addr"));
        let requests: Arc<Mutex<Vec<Recorded>>> = Arc::default();
        let handler: Handler = Arc::new(handler);
        let seen = requests.clone();
        tokio::spawn(async move {
            while let Ok((mut socket, _)) = listener.accept().await {
                let handler = handler.clone();
                let seen = seen.clone();
                tokio::spawn(async move {
                    let Some(req) = read_request(&mut socket).await else {
                        return;
                    };
                    let n = {
                        let mut list = seen.lock().expect("lock");
                        list.push(req.clone());
                        list.len() - 1
                    };
                    let reply = handler(&req, n);
                    let mut head = format!("HTTP/1.1 {} X\r\nconnection: close\r\n", reply.status);
                    let streaming = reply.chunks.len() > 1;
                    for (k, v) in &reply.headers {
                        head.push_str(&format!("{k}: {v}\r\n"));
                    }
                    if streaming {
                        head.push_str("transfer-encoding: chunked\r\n\r\n");
                    } else {
                        let len = reply.chunks.first().map_or(0, |c| c.1.len());
                        head.push_str(&format!("content-length: {len}\r\n\r\n"));
                    }
                    if socket.write_all(head.as_bytes()).await.is_err() {
                        return;
                    }
                    for (pause, bytes) in reply.chunks {
                        tokio::time::sleep(pause).await;
                        let out = if streaming {
                            let mut framed = format!("{:x}\r\n", bytes.len()).into_bytes();
                            framed.extend_from_slice(&bytes);
                            framed.extend_from_slice(b"\r\n");
                            framed
                        } else {
                            bytes
                        };
                        if socket.write_all(&out).await.is_err() {
                            return;
                        }
                        let _ = socket.flush().await;
                    }
                    if streaming {
                        let _ = socket.write_all(b"0\r\n\r\n").await;
                    }
                    let _ = socket.shutdown().await;
                });
            }
        });
        FakeServer { base, requests }
    }

    pub fn requests(&self) -> Vec<Recorded> {
        self.requests.lock().expect("lock").clone()
    }
}

async fn read_request(socket: &mut tokio::net::TcpStream) -> Option<Recorded> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 8192];
    let header_end = loop {
        let n = socket.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
    };
    let head = String::from_utf8_lossy(&buf[..header_end]).into_owned();
    let mut lines = head.split("\r\n");
    let mut first = lines.next()?.split(' ');
    let method = first.next()?.to_string();
    let path = first.next()?.to_string();
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let len: usize = headers
        .iter()
        .find(|(k, _)| k == "content-length")
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    let mut body = buf[header_end..].to_vec();
    while body.len() < len {
        let n = socket.read(&mut chunk).await.ok()?;
        if n == 0 {
            break;
        }
        body.extend_from_slice(&chunk[..n]);
    }
    Some(Recorded {
        method,
        path,
        headers,
        body,
    })
}
