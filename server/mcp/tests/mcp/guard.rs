//! The HTTP transport's guard: the bearer key, and `Host` and `Origin` naming this server.

use super::*;
use serde_json::json;

const KEY: &str = "test-key-0123456789abcdef";

fn initialize() -> String {
    json!({
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}
    })
    .to_string()
}

async fn post(running: &Running, headers: &[(&str, String)]) -> reqwest::Response {
    vai_providers::net::install_crypto_provider();
    let mut request = reqwest::Client::new()
        .post(&running.url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(initialize());
    for (k, v) in headers {
        request = request.header(*k, v);
    }
    request.send().await.unwrap()
}

#[tokio::test]
async fn with_a_key_set_every_request_must_carry_it() {
    let dir = scratch("key");
    let running = serve(server(&dir, false, RunBudget::default()), Some(KEY)).await;
    assert!(try_connect(&running, None).await.is_err());
    assert!(
        try_connect(&running, Some("wrong-key-0123456789abcdef"))
            .await
            .is_err()
    );
    let denied = post(&running, &[]).await;
    assert_eq!(denied.status(), 401);
    assert_eq!(denied.headers()["www-authenticate"], "Bearer");
    let body: Value = denied.json().await.unwrap();
    assert_eq!(body["error"]["code"], "UNAUTHORIZED");

    let client = connect(&running, Some(KEY)).await;
    let listed = call(&client, "workflow_list", json!({})).await;
    assert!(ok(&listed)["workflows"].is_array());
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn another_host_or_origin_is_refused_before_the_key_is_looked_at() {
    let dir = scratch("origin");
    let running = serve(server(&dir, false, RunBudget::default()), Some(KEY)).await;
    let bearer = ("authorization", format!("Bearer {KEY}"));
    let port = running.port;

    let fine = post(&running, std::slice::from_ref(&bearer)).await;
    assert_eq!(fine.status(), 200);
    let local_page = post(
        &running,
        &[
            bearer.clone(),
            ("origin", format!("http://localhost:{port}")),
        ],
    )
    .await;
    assert_eq!(local_page.status(), 200);

    for headers in [
        vec![
            bearer.clone(),
            ("origin", "http://evil.example".to_string()),
        ],
        vec![
            bearer.clone(),
            ("origin", format!("http://evil.example:{port}")),
        ],
        vec![bearer.clone(), ("origin", "null".to_string())],
        // A DNS-rebound name reaches the socket but names another host.
        vec![bearer.clone(), ("host", format!("evil.example:{port}"))],
        vec![("origin", "http://evil.example".to_string())],
    ] {
        let refused = post(&running, &headers).await;
        assert_eq!(refused.status(), 403, "{headers:?}");
        let body: Value = refused.json().await.unwrap();
        assert_eq!(body["error"]["code"], "FORBIDDEN_ORIGIN");
    }
}

#[tokio::test]
async fn on_loopback_without_a_key_none_is_asked_for() {
    let dir = scratch("no-key");
    let running = serve(server(&dir, false, RunBudget::default()), None).await;
    assert_eq!(post(&running, &[]).await.status(), 200);
    let evil = post(&running, &[("origin", "http://evil.example".to_string())]).await;
    assert_eq!(evil.status(), 403, "the origin check holds without a key");
}

#[tokio::test]
async fn sessions_beyond_the_limit_are_refused_until_one_closes() {
    let dir = scratch("sessions");
    let running = serve_with(server(&dir, false, RunBudget::default()), |o| {
        o.max_sessions = 2;
    })
    .await;
    let first = connect(&running, None).await;
    let _second = connect(&running, None).await;
    let third = post(&running, &[]).await;
    assert_eq!(third.status(), 503);
    let body: Value = serde_json::from_str(&third.text().await.unwrap()).unwrap();
    assert_eq!(body["error"]["code"], "TOO_MANY_SESSIONS");
    // A client that leaves ends its session: a new one may connect.
    first.cancel().await.unwrap();
    let mut again = None;
    for _ in 0..100 {
        if let Ok(client) = try_connect(&running, None).await {
            again = Some(client);
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert!(
        again.is_some(),
        "a session freed by a client that left is reusable"
    );
}

/// Trickled bodies: every connection slot held by a request whose body arrives a byte at a
/// time (never idle, never done) — the attack that made `vai mcp --http` unusable. The body
/// deadline frees the slots, and a real client is then served.
#[tokio::test]
async fn trickled_request_bodies_are_cut_and_a_real_client_is_served() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let dir = scratch("trickle");
    let running = serve_with(server(&dir, false, RunBudget::default()), |o| {
        o.limits.max_connections = 4;
        o.limits.body_timeout = std::time::Duration::from_millis(500);
    })
    .await;
    let port = running.port;
    let mut trickling = Vec::new();
    for _ in 0..4 {
        trickling.push(tokio::spawn(async move {
            let mut tcp = tokio::net::TcpStream::connect(("127.0.0.1", port)).await?;
            let head = format!(
                "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 100000\r\n\r\n"
            );
            tcp.write_all(head.as_bytes()).await?;
            // A byte every 100 ms: far within the idle timeout, for as long as the server lets.
            for _ in 0..600 {
                tokio::time::sleep(std::time::Duration::from_millis(100)).await;
                tcp.write_all(b" ").await?;
            }
            let mut rest = Vec::new();
            tcp.read_to_end(&mut rest).await?;
            Ok::<_, std::io::Error>(())
        }));
    }
    // Let them take every slot first.
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    let served = tokio::time::timeout(std::time::Duration::from_secs(30), async {
        post(&running, &[]).await.status()
    })
    .await
    .expect("a real client was kept waiting behind the trickled bodies");
    assert_eq!(served, 200);
    for t in trickling {
        let ended = tokio::time::timeout(std::time::Duration::from_secs(30), t).await;
        assert!(ended.is_ok(), "a trickling connection was kept open");
    }
}

/// A request line for another authority (`POST http://evil.example/mcp`) is refused even
/// with a right `Host`.
#[tokio::test]
async fn an_absolute_form_request_for_another_authority_is_refused() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let dir = scratch("absolute");
    let running = serve(server(&dir, false, RunBudget::default()), None).await;
    let port = running.port;
    let body = initialize();
    let mut answers = Vec::new();
    for target in [
        "http://evil.example/mcp".to_string(),
        format!("http://127.0.0.1:{port}/mcp"),
    ] {
        let mut tcp = tokio::net::TcpStream::connect(("127.0.0.1", port))
            .await
            .unwrap();
        let request = format!(
            "POST {target} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        );
        tcp.write_all(request.as_bytes()).await.unwrap();
        let mut answer = String::new();
        tcp.read_to_string(&mut answer).await.unwrap();
        answers.push(answer.lines().next().unwrap_or_default().to_string());
    }
    assert_eq!(answers, ["HTTP/1.1 403 Forbidden", "HTTP/1.1 200 OK"]);
}
