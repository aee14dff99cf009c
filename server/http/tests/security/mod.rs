//! Who may use the API: the access token (cookie or Bearer header, traded from the printed URL)
//! on every `/api` request and the WebSocket upgrade, and exactly one `Host` that names us.

use crate::support::{self, TOKEN, TestApp, connect_as, json_of, next_json};
use axum::body::Body;
use axum::http::{Request, StatusCode};

#[tokio::test]
async fn api_requests_without_the_token_are_refused_with_401() {
    let app = TestApp::new();
    let host = app.host();
    let cases: [(&str, Option<(&str, String)>); 5] = [
        ("nothing", None),
        (
            "a wrong bearer",
            Some(("authorization", "Bearer wrong-token-0123456789".into())),
        ),
        (
            "a basic header",
            Some(("authorization", format!("Basic {TOKEN}"))),
        ),
        (
            "another port's cookie",
            Some(("cookie", format!("vai_token_4444={TOKEN}"))),
        ),
        (
            "a cookie with the wrong token",
            Some(("cookie", "vai_token_3333=wrong-token-0123456789".into())),
        ),
    ];
    for (what, header) in cases {
        for (method, uri) in [("GET", "/api/workflows"), ("POST", "/api/runs")] {
            let mut request = Request::builder()
                .method(method)
                .uri(uri)
                .header("host", &host)
                .header("content-type", "application/json");
            if let Some((name, value)) = &header {
                request = request.header(*name, value);
            }
            let body = Body::from(serde_json::json!({"definition": support::chain()}).to_string());
            let (status, body) = json_of(app.send(request.body(body).unwrap()).await).await;
            assert_eq!(status, StatusCode::UNAUTHORIZED, "{what}: {method} {uri}");
            assert_eq!(body["error"]["code"], "UNAUTHORIZED");
            let message = body["error"]["message"].as_str().unwrap();
            assert!(message.contains("vai playground"), "{message}");
        }
    }
    assert!(
        app.state.runs().list().await.is_empty(),
        "no run was started"
    );
}

#[tokio::test]
async fn the_printed_url_trades_its_token_for_a_cookie_and_drops_it() {
    let app = TestApp::new();
    let request = Request::get(format!("/?token={TOKEN}&workflow=builtin:chain"))
        .header("host", app.host())
        .body(Body::empty())
        .unwrap();
    let response = app.send(request).await;
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    assert_eq!(response.headers()["location"], "/?workflow=builtin:chain");
    let cookie = response.headers()["set-cookie"].to_str().unwrap();
    assert_eq!(
        cookie,
        format!("vai_token_3333={TOKEN}; HttpOnly; SameSite=Strict; Path=/")
    );

    // The browser sends the cookie back: the API answers.
    let pair = cookie.split(';').next().unwrap();
    let request = Request::get("/api/tools")
        .header("host", app.host())
        .header("cookie", format!("theme=dark; {pair}"))
        .body(Body::empty())
        .unwrap();
    assert_eq!(app.send(request).await.status(), StatusCode::OK);
}

#[tokio::test]
async fn pages_load_without_the_token_and_a_wrong_one_sets_nothing() {
    let app = TestApp::new();
    for uri in [
        "/",
        "/?workflow=builtin:chain",
        "/?token=wrong-token-0123456789",
    ] {
        let request = Request::get(uri)
            .header("host", app.host())
            .body(Body::empty())
            .unwrap();
        let response = app.send(request).await;
        assert_eq!(response.status(), StatusCode::OK, "{uri}");
        assert!(response.headers().get("set-cookie").is_none(), "{uri}");
    }
}

#[tokio::test]
async fn the_socket_upgrade_needs_the_token() {
    let server = TestApp::serve().await;
    for authorization in [None, Some("Bearer wrong-token-0123456789")] {
        let result = connect_as(server.port, None, authorization).await;
        let Err(tungstenite::Error::Http(response)) = result else {
            panic!("an upgrade with {authorization:?} was not refused");
        };
        assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
        let body: serde_json::Value =
            serde_json::from_slice(response.body().as_deref().unwrap_or_default()).unwrap();
        assert_eq!(body["error"]["code"], "UNAUTHORIZED");
    }
    let cookie = format!("vai_token_{}={TOKEN}", server.port);
    let mut ws = {
        use tokio_tungstenite::tungstenite::client::IntoClientRequest;
        let mut request = format!("ws://127.0.0.1:{}/api/ws", server.port)
            .into_client_request()
            .unwrap();
        let headers = request.headers_mut();
        headers.insert(
            "origin",
            format!("http://127.0.0.1:{}", server.port).parse().unwrap(),
        );
        headers.insert("cookie", cookie.parse().unwrap());
        tokio_tungstenite::connect_async(request).await.unwrap().0
    };
    assert_eq!(next_json(&mut ws).await["type"], "hello");
}

#[tokio::test]
async fn two_host_headers_are_refused() {
    let app = TestApp::new();
    let own = app.host();
    for second in [own.clone(), "evil.example".to_string()] {
        let request = app
            .request("GET", "/api/tools")
            .header("host", &second)
            .body(Body::empty())
            .unwrap();
        assert_eq!(request.headers().get_all("host").iter().count(), 2);
        let (status, body) = json_of(app.send(request).await).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{own} + {second}");
        assert_eq!(body["error"]["code"], "FORBIDDEN_ORIGIN");
    }
}
