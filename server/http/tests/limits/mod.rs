//! What one client can take: connections (header and idle timeouts, the cap), runs (the cap),
//! finished runs (the byte budget), sockets (the cap, the message limit). Nothing here asserts
//! a duration: waits are bounded generously and end on what the server does.

use crate::support::{self, SendJson, TOKEN, TestApp, connect, next_json};
use axum::http::StatusCode;
use futures_util::StreamExt;
use serde_json::json;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::{self, Message};
use vai_http::Limits;

/// Far longer than any timeout under test: reaching it means the server never acted.
const GENEROUS: Duration = Duration::from_secs(30);

/// Everything the server sends until it closes the connection; panics if it has not closed
/// within `GENEROUS`.
/// A connection that has sent the head of a validate request announcing `length` bytes of
/// body, and the body's first bytes.
async fn start_body(server: &TestApp, length: usize) -> TcpStream {
    let mut tcp = TcpStream::connect(("127.0.0.1", server.port))
        .await
        .unwrap();
    let head = format!(
        "POST /api/workflows/validate HTTP/1.1\r\nHost: {}\r\nAuthorization: Bearer {TOKEN}\r\nContent-Type: application/json\r\nContent-Length: {length}\r\n\r\n{{\"text\": \"",
        server.host()
    );
    tcp.write_all(head.as_bytes()).await.unwrap();
    tcp
}

async fn read_until_closed(tcp: &mut TcpStream) -> String {
    let mut received = Vec::new();
    let mut buf = [0u8; 4096];
    let closed = tokio::time::timeout(GENEROUS, async {
        loop {
            match tcp.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(n) => received.extend_from_slice(&buf[..n]),
            }
        }
    })
    .await;
    assert!(closed.is_ok(), "the server kept the connection open");
    String::from_utf8_lossy(&received).into_owned()
}

#[tokio::test]
async fn trickled_headers_and_silent_connections_are_cut() {
    let server = TestApp::serve_with(Limits {
        header_timeout: Duration::from_millis(300),
        ..Limits::default()
    })
    .await;
    let addr = format!("127.0.0.1:{}", server.port);

    let silent = TcpStream::connect(&addr).await.unwrap();
    let mut trickle = TcpStream::connect(&addr).await.unwrap();
    // A slow-loris client: a header line every 50 ms, the request never complete.
    let (mut read, mut write) = trickle.split();
    let writer = async {
        write
            .write_all(format!("GET /api/tools HTTP/1.1\r\nHost: {addr}\r\n").as_bytes())
            .await?;
        for i in 0.. {
            tokio::time::sleep(Duration::from_millis(50)).await;
            write
                .write_all(format!("X-Slow-{i}: a\r\n").as_bytes())
                .await?;
        }
        Ok::<_, std::io::Error>(())
    };
    let reader = async {
        let mut all = Vec::new();
        // An error (a reset) is the server closing too.
        let closed = tokio::time::timeout(GENEROUS, read.read_to_end(&mut all)).await;
        assert!(
            closed.is_ok(),
            "the server kept the trickling connection open"
        );
        all
    };
    let received = tokio::select! {
        all = reader => all,
        // The write fails once the server has closed the socket; the reader then sees it too.
        _ = writer => Vec::new(),
    };
    assert!(
        !String::from_utf8_lossy(&received).contains(" 200 "),
        "the trickled request was served"
    );

    let mut silent = silent;
    read_until_closed(&mut silent).await;
}

#[tokio::test]
async fn a_stalled_request_body_is_cut_after_the_idle_timeout() {
    let server = TestApp::serve_with(Limits {
        idle_timeout: Duration::from_millis(300),
        ..Limits::default()
    })
    .await;
    let mut tcp = start_body(&server, 1000).await;
    let received = read_until_closed(&mut tcp).await;
    assert!(!received.contains(" 200 "), "{received}");
}

#[tokio::test]
async fn at_the_connection_cap_a_request_waits_for_a_slot_and_is_then_served() {
    let server = TestApp::serve_with(Limits {
        max_connections: 2,
        header_timeout: Duration::from_secs(600),
        ..Limits::default()
    })
    .await;
    let addr = format!("127.0.0.1:{}", server.port);
    let first = TcpStream::connect(&addr).await.unwrap();
    let _second = TcpStream::connect(&addr).await.unwrap();
    let mut third = TcpStream::connect(&addr).await.unwrap();
    let request = format!(
        "GET /api/tools HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {TOKEN}\r\nConnection: close\r\n\r\n"
    );
    third.write_all(request.as_bytes()).await.unwrap();
    // Both slots are held by silent clients: nothing is answered. (A slow machine could only
    // make this pass wrongly, never fail wrongly.)
    let mut buf = [0u8; 64];
    let early = tokio::time::timeout(Duration::from_millis(300), third.read(&mut buf)).await;
    assert!(early.is_err(), "served beyond the cap");

    drop(first);
    let response = read_until_closed(&mut third).await;
    assert!(response.starts_with("HTTP/1.1 200 "), "{response}");
}

#[tokio::test]
async fn runs_beyond_the_cap_are_refused_with_429_until_one_ends() {
    let app = TestApp::with_limits(Limits {
        max_runs: 2,
        ..Limits::default()
    });
    let first = app.start(support::stuck(), json!({})).await;
    app.start(support::stuck(), json!({})).await;
    let (status, body) = app
        .post("/api/runs", json!({"definition": support::stuck()}))
        .await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
    assert_eq!(body["error"]["code"], "TOO_MANY_RUNS");
    assert_eq!(
        body["error"]["message"],
        "2 runs are already running; wait for one to finish or cancel one"
    );
    assert_eq!(
        app.state.runs().list().await.len(),
        2,
        "the refused run was not created"
    );

    let (status, _) = app
        .post(&format!("/api/runs/{first}/cancel"), json!(null))
        .await;
    assert_eq!(status, StatusCode::ACCEPTED);
    app.wait_finished(&first).await;
    // The cancelled run leaves the count when its task has wound up.
    for _ in 0..1000 {
        let (status, _) = app
            .post("/api/runs", json!({"definition": support::stuck()}))
            .await;
        if status == StatusCode::CREATED {
            app.state.runs().shutdown().await;
            return;
        }
        assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("no place freed after a run ended");
}

#[tokio::test]
async fn starts_racing_past_the_route_check_are_refused_by_the_manager() {
    let app = TestApp::with_limits(Limits {
        max_runs: 1,
        ..Limits::default()
    });
    let compiled = vai_workflow::compile(
        &support::stuck(),
        &support::registry(),
        vai_workflow::Mode::Strict,
    );
    let request = vai_runtime::runs::StartRequest {
        plan: compiled.plan.expect("a plan"),
        inputs: Default::default(),
        workflow_id: None,
        only: None,
        definition_version: String::new(),
        step_through: None,
        restart: None,
    };
    let runs = app.state.runs();
    assert!(runs.start(request.clone()).is_ok());
    assert!(runs.is_full());
    let refused = runs.start(request).map(|_| ()).unwrap_err();
    assert!(
        matches!(refused, vai_runtime::runs::StartError::TooManyRuns(1)),
        "{refused}"
    );
    runs.shutdown().await;
}

/// One `big` step of `n` characters, mapped to the run's output: the run keeps about 2 × n.
fn big(n: usize) -> serde_json::Value {
    json!({"name": "big", "steps": [{"id": "big", "tool": "big", "inputs": {"n": n}}],
           "output": {"text": "{{ big.output.text }}"}})
}

/// Waits until the manager keeps `runs` finished runs.
async fn until_kept(app: &TestApp, runs: usize) -> usize {
    for _ in 0..1000 {
        let (count, bytes) = app.state.runs().kept();
        if count == runs {
            return bytes;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("kept {:?}, not {runs} runs", app.state.runs().kept());
}

#[tokio::test]
async fn finished_runs_are_kept_within_the_byte_budget_oldest_dropped_first() {
    let app = TestApp::with_limits(Limits {
        keep_bytes: 150_000,
        ..Limits::default()
    });
    let mut ids = Vec::new();
    for _ in 0..3 {
        let id = app.start(big(50_000), json!({})).await;
        app.wait_finished(&id).await;
        ids.push(id);
    }
    // Each holds ~100 KB (the step's output and the run's): only the newest fits.
    let bytes = until_kept(&app, 1).await;
    assert!((100_000..150_000).contains(&bytes), "{bytes}");
    // Dropped from memory, the older runs are still read from the run history (the journal).
    for old in &ids[..2] {
        let (status, body) = app.get(&format!("/api/runs/{old}")).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body["status"], "completed");
        let (status, output) = app.get(&format!("/api/runs/{old}/output")).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(output["output"]["text"].as_str().unwrap().len(), 50_000);
    }
    let (status, output) = app.get(&format!("/api/runs/{}/output", ids[2])).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(output["output"]["text"].as_str().unwrap().len(), 50_000);

    // Small runs cost little: several fit beside it.
    for _ in 0..3 {
        let id = app.start(support::chain(), json!({"q": "hi"})).await;
        app.wait_finished(&id).await;
    }
    until_kept(&app, 4).await;
}

#[tokio::test]
async fn the_newest_run_is_kept_even_when_it_alone_is_over_the_budget() {
    let app = TestApp::with_limits(Limits {
        keep_bytes: 1_000,
        ..Limits::default()
    });
    let id = app.start(big(20_000), json!({})).await;
    app.wait_finished(&id).await;
    until_kept(&app, 1).await;
    let (status, step) = app.get(&format!("/api/runs/{id}/steps/big/output")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(step["output"]["text"].as_str().unwrap().len(), 20_000);
    assert_eq!(step["inputs"], json!({"n": 20_000}));
    assert_eq!(step["status"], "completed");
}

#[tokio::test]
async fn an_oversized_client_message_closes_the_socket_with_1009() {
    let server = TestApp::serve().await;
    let mut ws = connect(server.port, None).await.expect("connect");
    next_json(&mut ws).await; // hello

    // Under the limit: read, and the id is not echoed in full.
    let long_id = "r".repeat(60_000);
    ws.send_json(json!({"type": "subscribe", "runId": long_id}))
        .await;
    let error = next_json(&mut ws).await;
    assert_eq!(error["code"], "NOT_FOUND");
    assert!(error.to_string().len() < 400, "{error}");
    assert!(error["runId"].as_str().unwrap().starts_with("rrrr"));

    ws.send_json(json!({"type": "subscribe", "runId": "r".repeat(100_000)}))
        .await;
    let close = tokio::time::timeout(GENEROUS, async {
        while let Some(message) = ws.next().await {
            match message {
                Ok(Message::Close(frame)) => return frame,
                Ok(_) => continue,
                Err(e) => panic!("the socket failed without a close frame: {e}"),
            }
        }
        panic!("the socket ended without a close frame");
    })
    .await
    .expect("closed in time");
    let frame = close.expect("a close code");
    assert_eq!(u16::from(frame.code), 1009);
}

#[tokio::test]
async fn sockets_beyond_the_cap_are_refused_with_503_until_one_closes() {
    let server = TestApp::serve_with(Limits {
        max_sockets: 2,
        ..Limits::default()
    })
    .await;
    let mut first = connect(server.port, None).await.expect("connect");
    next_json(&mut first).await;
    let mut second = connect(server.port, None).await.expect("connect");
    next_json(&mut second).await;

    let Err(tungstenite::Error::Http(refused)) = connect(server.port, None).await else {
        panic!("a third socket was accepted");
    };
    assert_eq!(refused.status(), StatusCode::SERVICE_UNAVAILABLE);
    let body: serde_json::Value =
        serde_json::from_slice(refused.body().as_deref().unwrap_or_default()).unwrap();
    assert_eq!(body["error"]["code"], "TOO_MANY_SOCKETS");

    first.close(None).await.unwrap();
    while first.next().await.is_some() {}
    for _ in 0..1000 {
        if let Ok(mut again) = connect(server.port, None).await {
            assert_eq!(next_json(&mut again).await["type"], "hello");
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("no socket place freed after one closed");
}

#[tokio::test]
async fn a_trickled_request_body_is_cut_at_the_body_deadline() {
    let server = TestApp::serve_with(Limits {
        body_timeout: Duration::from_millis(500),
        ..Limits::default()
    })
    .await;
    let mut tcp = start_body(&server, 100000).await;
    let (mut read, mut write) = tcp.split();
    // A byte every 50 ms: never idle, never done.
    let writer = async {
        loop {
            tokio::time::sleep(Duration::from_millis(50)).await;
            if write.write_all(b" ").await.is_err() {
                return;
            }
        }
    };
    let reader = async {
        let mut all = Vec::new();
        let closed = tokio::time::timeout(GENEROUS, read.read_to_end(&mut all)).await;
        assert!(closed.is_ok(), "the server kept the trickled body coming");
        all
    };
    let received = tokio::select! {
        all = reader => all,
        _ = writer => Vec::new(),
    };
    assert!(!String::from_utf8_lossy(&received).contains(" 200 "));
}

#[tokio::test]
async fn one_address_gets_at_most_its_share_of_connections() {
    let server = TestApp::serve_with(Limits {
        max_connections_per_ip: 2,
        header_timeout: Duration::from_secs(600),
        ..Limits::default()
    })
    .await;
    let addr = format!("127.0.0.1:{}", server.port);
    let first = TcpStream::connect(&addr).await.unwrap();
    let _second = TcpStream::connect(&addr).await.unwrap();
    let mut third = TcpStream::connect(&addr).await.unwrap();
    assert_eq!(read_until_closed(&mut third).await, "", "closed unanswered");
    drop(first);
    // The slot comes back once the server has seen the close.
    let served = tokio::time::timeout(GENEROUS, async {
        loop {
            let mut tcp = TcpStream::connect(&addr).await.unwrap();
            let request = format!(
                "GET /api/tools HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {TOKEN}\r\nConnection: close\r\n\r\n"
            );
            if tcp.write_all(request.as_bytes()).await.is_ok() {
                let response = read_until_closed(&mut tcp).await;
                if response.starts_with("HTTP/1.1 200 ") {
                    return;
                }
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await;
    assert!(served.is_ok(), "the address never got its slot back");
}

#[tokio::test]
async fn an_absolute_form_request_for_another_authority_is_refused() {
    let server = TestApp::serve().await;
    let addr = format!("127.0.0.1:{}", server.port);
    let mut lines = Vec::new();
    for target in [
        "http://evil.example/api/tools".to_string(),
        format!("http://{addr}/api/tools"),
    ] {
        let mut tcp = TcpStream::connect(&addr).await.unwrap();
        let request = format!(
            "GET {target} HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {TOKEN}\r\nConnection: close\r\n\r\n"
        );
        tcp.write_all(request.as_bytes()).await.unwrap();
        let response = read_until_closed(&mut tcp).await;
        lines.push(response.lines().next().unwrap_or_default().to_string());
    }
    assert_eq!(lines, ["HTTP/1.1 403 Forbidden", "HTTP/1.1 200 OK"]);
}
