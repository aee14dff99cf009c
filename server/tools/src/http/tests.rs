//! The http tool against a tiny HTTP/1.1 server on loopback, started per test. Loopback is not a
//! public address: tests that reach the server name it in `allowedHosts`, as a user would.

use super::*;
use serde_json::json;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use vai_workflow::Context;

const PAGE: &str = "<html><head><title>Docs</title><style>p { margin: 0 }</style></head>\
                    <body><p>Hello &amp; welcome</p><script>track()</script><p>Second  part</p></body></html>";

/// Start the server; it answers by path until the test's runtime ends.
pub(super) async fn serve() -> SocketAddr {
    serve_counted().await.0
}

/// The server, and how many connections it has accepted.
pub(super) async fn serve_counted() -> (SocketAddr, Arc<AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let accepted = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&accepted);
    tokio::spawn(async move {
        while let Ok((socket, _)) = listener.accept().await {
            counter.fetch_add(1, Ordering::SeqCst);
            tokio::spawn(answer(socket));
        }
    });
    (addr, accepted)
}

async fn answer(mut socket: TcpStream) {
    let mut buf = Vec::new();
    let mut tmp = [0u8; 8192];
    let head_end = loop {
        let Ok(n) = socket.read(&mut tmp).await else {
            return;
        };
        if n == 0 {
            return;
        }
        buf.extend_from_slice(&tmp[..n]);
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
    };
    let head = String::from_utf8_lossy(&buf[..head_end]).to_string();
    let mut lines = head.lines();
    let request_line = lines.next().unwrap_or_default().to_string();
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let header = |name: &str| {
        headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
    };
    let length: usize = header("content-length")
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    while buf.len() < head_end + length {
        let Ok(n) = socket.read(&mut tmp).await else {
            return;
        };
        if n == 0 {
            break;
        }
        buf.extend_from_slice(&tmp[..n]);
    }
    let body_in = String::from_utf8_lossy(&buf[head_end..]).to_string();
    let mut parts = request_line.split(' ');
    let method = parts.next().unwrap_or_default().to_string();
    let target = parts.next().unwrap_or_default();
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let path = path.to_string();

    let (status, extra, body): (&str, Vec<String>, Vec<u8>) = match path.as_str() {
        "/json" => (
            "200 OK",
            vec!["Content-Type: application/json".into()],
            br#"{"ok":true,"n":1}"#.to_vec(),
        ),
        "/text" => (
            "200 OK",
            vec!["Content-Type: text/plain".into()],
            b"plain words".to_vec(),
        ),
        "/html" => (
            "200 OK",
            vec!["Content-Type: text/html".into()],
            PAGE.as_bytes().to_vec(),
        ),
        "/missing" => ("404 Not Found", vec![], b"no such page".to_vec()),
        "/big" => (
            "200 OK",
            vec![],
            "é".repeat(MAX_BODY_BYTES / 2 + 100).into_bytes(),
        ),
        "/slow" => {
            tokio::time::sleep(Duration::from_secs(5)).await;
            ("200 OK", vec![], b"late".to_vec())
        }
        "/multi" => (
            "200 OK",
            vec!["X-Multi: a".into(), "X-Multi: b".into()],
            b"".to_vec(),
        ),
        "/echo" => {
            let echoed = json!({
                "method": method,
                "contentType": header("content-type"),
                "custom": header("x-custom"),
                "body": body_in,
            });
            (
                "200 OK",
                vec!["Content-Type: application/json".into()],
                echoed.to_string().into_bytes(),
            )
        }
        "/redirect" => ("302 Found", vec!["Location: /json".into()], vec![]),
        "/redirect-away" => (
            "302 Found",
            vec!["Location: http://elsewhere.invalid/x".into()],
            vec![],
        ),
        "/loop" => ("302 Found", vec!["Location: /loop".into()], vec![]),
        "/redirect-to" => (
            "302 Found",
            vec![format!(
                "Location: {}",
                query.strip_prefix("to=").unwrap_or_default()
            )],
            vec![],
        ),
        _ => (
            "500 Internal Server Error",
            vec![],
            b"unexpected path".to_vec(),
        ),
    };
    let mut response = format!(
        "HTTP/1.1 {status}\r\nContent-Length: {}\r\nConnection: close\r\n",
        body.len()
    );
    for h in extra {
        response.push_str(&h);
        response.push_str("\r\n");
    }
    response.push_str("\r\n");
    let _ = socket.write_all(response.as_bytes()).await;
    let _ = socket.write_all(&body).await;
    let _ = socket.shutdown().await;
}

pub(super) async fn call(http: &Http, inputs: Value) -> Result<Value, ToolError> {
    let scope = Context::new();
    let defaults = json!({});
    let call = ToolCall::standalone("h", inputs.as_object().unwrap().clone(), &defaults, &scope);
    http.run(call).await.map(|o| o.output)
}

/// The default policy: public addresses only.
pub(super) fn public_only() -> Http {
    Http::new(HttpPolicy::default())
}

/// The test server's address named in `allowedHosts`.
fn loopback() -> Http {
    Http::new(allowed(&["127.0.0.1"]))
}

pub(super) fn allowed(hosts: &[&str]) -> HttpPolicy {
    HttpPolicy {
        allowed_hosts: Some(hosts.iter().map(|h| h.to_string()).collect()),
        ..HttpPolicy::default()
    }
}

pub(super) fn flagged(hosts: &[&str]) -> HttpPolicy {
    HttpPolicy {
        flag_hosts: hosts.iter().map(|h| h.to_string()).collect(),
        ..HttpPolicy::default()
    }
}

#[tokio::test]
async fn json_bodies_are_parsed_and_headers_listed() {
    let addr = serve().await;
    let out = call(&loopback(), json!({"url": format!("http://{addr}/json")}))
        .await
        .unwrap();
    assert_eq!(out["status"], 200);
    assert_eq!(out["statusText"], "OK");
    assert_eq!(out["body"], json!({"ok": true, "n": 1}));
    assert_eq!(out["headers"]["content-type"], "application/json");
    assert!(out["durationMs"].is_u64());
    assert!(out.get("warning").is_none());
    let keys: Vec<&String> = out.as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        ["status", "statusText", "headers", "body", "durationMs"]
    );
}

#[tokio::test]
async fn text_response_type_and_non_json_fallback() {
    let addr = serve().await;
    let http = loopback();
    let out = call(
        &http,
        json!({"url": format!("http://{addr}/json"), "responseType": "text"}),
    )
    .await
    .unwrap();
    assert_eq!(out["body"], r#"{"ok":true,"n":1}"#);
    let out = call(&http, json!({"url": format!("http://{addr}/text")}))
        .await
        .unwrap();
    assert_eq!(out["body"], "plain words");
}

#[tokio::test]
async fn error_statuses_are_returned_not_raised() {
    let addr = serve().await;
    let out = call(
        &loopback(),
        json!({"url": format!("http://{addr}/missing")}),
    )
    .await
    .unwrap();
    assert_eq!(out["status"], 404);
    assert_eq!(out["statusText"], "Not Found");
    assert_eq!(out["body"], "no such page");
}

#[tokio::test]
async fn extract_text_strips_the_page() {
    let addr = serve().await;
    let out = call(
        &loopback(),
        json!({"url": format!("http://{addr}/html"), "extract": "text"}),
    )
    .await
    .unwrap();
    assert_eq!(out["body"], "Docs\n\nHello & welcome\n\nSecond part");
}

#[tokio::test]
async fn bodies_are_sent_for_writes_only() {
    let addr = serve().await;
    let http = loopback();
    let url = format!("http://{addr}/echo");
    let out = call(
        &http,
        json!({"url": url, "method": "post", "body": {"q": "hi"}, "headers": {"X-Custom": 7}}),
    )
    .await
    .unwrap();
    assert_eq!(
        out["body"],
        json!({"method": "POST", "contentType": "application/json", "custom": "7", "body": "{\"q\":\"hi\"}"})
    );
    let out = call(&http, json!({"url": url, "method": "PUT", "body": "raw", "headers": {"content-type": "text/csv"}}))
        .await
        .unwrap();
    assert_eq!(out["body"]["contentType"], "text/csv");
    assert_eq!(out["body"]["body"], "raw");
    let out = call(&http, json!({"url": url, "body": {"ignored": true}}))
        .await
        .unwrap();
    assert_eq!(out["body"]["method"], "GET");
    assert_eq!(out["body"]["body"], "");
}

#[tokio::test]
async fn large_bodies_are_cut_with_a_warning() {
    let addr = serve().await;
    let out = call(&loopback(), json!({"url": format!("http://{addr}/big")}))
        .await
        .unwrap();
    let body = out["body"].as_str().unwrap();
    // "é" is two bytes: the cut lands on a character boundary.
    assert_eq!(body.len(), MAX_BODY_BYTES);
    assert!(body.chars().all(|c| c == 'é'));
    assert_eq!(out["warning"], "response body truncated at 5 MB");
}

#[tokio::test]
async fn timeouts_are_transient() {
    let addr = serve().await;
    let started = Instant::now();
    let err = call(
        &loopback(),
        json!({"url": format!("http://{addr}/slow?key=secret"), "timeout": 200}),
    )
    .await
    .unwrap_err();
    assert!(err.is_transient(), "{err:?}");
    let msg = err.to_string();
    assert!(
        msg.contains("timed out after 200 ms") && !msg.contains("secret"),
        "{msg}"
    );
    assert!(started.elapsed() < Duration::from_secs(4));
}

#[tokio::test]
async fn connection_failures_are_transient() {
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let err = call(
        &loopback(),
        json!({"url": format!("http://127.0.0.1:{port}/")}),
    )
    .await
    .unwrap_err();
    assert!(err.is_transient(), "{err:?}");
}

#[tokio::test]
async fn redirects_follow_within_limits() {
    let addr = serve().await;
    let http = loopback();
    let out = call(&http, json!({"url": format!("http://{addr}/redirect")}))
        .await
        .unwrap();
    assert_eq!(out["body"], json!({"ok": true, "n": 1}));

    let out = call(
        &http,
        json!({"url": format!("http://{addr}/redirect"), "followRedirects": false}),
    )
    .await
    .unwrap();
    assert_eq!(out["status"], 302);
    assert_eq!(out["headers"]["location"], "/json");

    let err = call(
        &http,
        json!({"url": format!("http://{addr}/redirect-away")}),
    )
    .await
    .unwrap_err();
    assert!(!err.is_transient());
    assert!(
        err.to_string()
            .contains("\"elsewhere.invalid\" is not in allowedHosts"),
        "{err}"
    );

    let err = call(&http, json!({"url": format!("http://{addr}/loop")}))
        .await
        .unwrap_err();
    assert!(err.to_string().contains("more than 5 redirects"), "{err}");
}

#[tokio::test]
async fn repeated_headers_are_joined() {
    let addr = serve().await;
    let out = call(&loopback(), json!({"url": format!("http://{addr}/multi")}))
        .await
        .unwrap();
    assert_eq!(out["headers"]["x-multi"], "a, b");
    assert_eq!(out["body"], "");
}

#[tokio::test]
async fn the_allow_list_refuses_other_hosts_before_connecting() {
    let addr = serve().await;
    let http = Http::new(allowed(&["api.example.com", "*.voyageai.com"]));
    let err = call(&http, json!({"url": format!("http://{addr}/json")}))
        .await
        .unwrap_err();
    assert!(matches!(err, ToolError::InvalidInput { .. }), "{err:?}");
    assert!(
        err.to_string()
            .contains("not in allowedHosts (api.example.com, *.voyageai.com)"),
        "{err}"
    );
}

#[tokio::test]
async fn urls_and_inputs_are_validated() {
    let http = public_only();
    for (inputs, needle) in [
        (json!({}), "\"url\" is required"),
        (json!({"url": "not a url"}), "is not a valid URL"),
        (
            json!({"url": "ftp://example.com/file"}),
            "only http and https",
        ),
        (json!({"url": "file:///etc/passwd"}), "only http and https"),
        (
            json!({"url": "http://x.test/", "method": "TRACE"}),
            "\"method\"",
        ),
        (
            json!({"url": "http://x.test/", "extract": "html"}),
            "\"extract\"",
        ),
        (
            json!({"url": "http://x.test/", "headers": {"bad header": "x"}}),
            "invalid header name",
        ),
        (
            json!({"url": "http://x.test/", "headers": "x"}),
            "\"headers\"",
        ),
    ] {
        let err = call(&http, inputs).await.unwrap_err();
        assert!(err.to_string().contains(needle), "{err} lacks {needle}");
    }
}

#[test]
fn host_patterns() {
    let url = |u: &str| Url::parse(u).unwrap();
    let policy = allowed;
    let p = policy(&[
        "API.example.com",
        "*.docs.io",
        "localhost:8080",
        "https://site.org/path",
        "[::1]",
    ]);
    assert!(p.check(&url("https://api.example.com/v1")).is_ok());
    assert!(p.check(&url("https://a.b.docs.io/")).is_ok());
    assert!(
        p.check(&url("https://docs.io/")).is_err(),
        "a wildcard does not match the bare domain"
    );
    assert!(p.check(&url("https://evildocs.io/")).is_err());
    assert!(p.check(&url("http://localhost:8080/")).is_ok());
    assert!(p.check(&url("http://localhost:9090/")).is_err());
    assert!(p.check(&url("http://site.org/other")).is_ok());
    assert!(p.check(&url("http://[::1]:3000/")).is_ok());
    assert!(p.check(&url("https://example.com/")).is_err());
    assert!(policy(&["*"]).check(&url("https://anything.net/")).is_ok());
    assert!(policy(&[]).check(&url("https://anything.net/")).is_err());
    assert!(
        HttpPolicy::default()
            .check(&url("https://anything.net/"))
            .is_ok()
    );
}
