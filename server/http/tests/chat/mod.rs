//! The Chat panel's server side: the configuration and session routes, and questions asked over
//! the WebSocket — answers streamed in order, stopped, refused beyond the budgets, failed
//! mid-answer — on the fake LLM (or LLMs of our own that stall or fail) and an in-memory history.

mod fakes;

use crate::support::{SendJson, Socket, TestApp, connect, next_json};
use axum::http::StatusCode;
use fakes::{Flaky, Stalling, engine};
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::Duration;
use vai_http::Limits;
use vai_providers::fakes::FakeLlm;
use vai_providers::llm::LlmToolCall;

/// A socket to `app`, past its `hello`.
async fn open(app: &TestApp) -> Socket {
    let mut ws = connect(app.port, None).await.expect("connect");
    assert_eq!(next_json(&mut ws).await["type"], "hello");
    ws
}

/// The next `chat` or `error` message (run announcements are passed over).
async fn next_chat(ws: &mut Socket) -> Value {
    loop {
        let m = next_json(ws).await;
        if m["type"] == "chat" || m["type"] == "error" {
            return m;
        }
    }
}

/// Every event of one turn, to `turn_finished`.
async fn turn(ws: &mut Socket) -> Vec<Value> {
    let mut events = Vec::new();
    loop {
        let m = next_chat(ws).await;
        assert_eq!(m["type"], "chat", "{m}");
        let last = m["event"]["type"] == "turn_finished";
        events.push(m);
        if last {
            return events;
        }
    }
}

fn ask(question: &str) -> Value {
    json!({"type": "chat_ask", "ask": {"question": question}})
}

fn ask_in(session: &str, question: &str) -> Value {
    json!({"type": "chat_ask", "ask": {"sessionId": session, "question": question}})
}

fn kinds(events: &[Value]) -> Vec<&str> {
    events
        .iter()
        .map(|e| e["event"]["type"].as_str().unwrap())
        .collect()
}

/// Wait for the first `text` event of a turn; its session id.
async fn until_text(ws: &mut Socket) -> String {
    loop {
        let m = next_chat(ws).await;
        assert_eq!(m["type"], "chat", "{m}");
        if m["event"]["type"] == "text" {
            return m["sessionId"].as_str().unwrap().to_string();
        }
    }
}

#[tokio::test]
async fn the_configuration_says_what_answers_and_how_to_fix_it_when_nothing_can() {
    let app = TestApp::with_chat(Some(engine(Some(Arc::new(FakeLlm::new())))));
    let (status, config) = app.get("/api/chat/config").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(config["available"], true);
    assert_eq!(config["provider"], "fake");
    assert_eq!(config["model"], "fake-llm");
    assert_eq!(config["label"], "fake · fake-llm");
    assert_eq!(config["models"], json!(["fake-llm"]));
    assert_eq!(config["supportsTools"], true);
    assert_eq!(config["mode"], "pipeline");
    assert_eq!(config["history"], "memory");
    assert_eq!(config["maxQuestionBytes"], 16 * 1024);
    assert!(config.get("hint").is_none());

    let app = TestApp::with_chat(Some(engine(None)));
    let (_, config) = app.get("/api/chat/config").await;
    assert_eq!(config["available"], false);
    assert!(
        config["hint"]
            .as_str()
            .unwrap()
            .contains("scripts/fetch-model.sh"),
        "{config}"
    );

    let app = TestApp::with_chat(None);
    let (status, config) = app.get("/api/chat/config").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(config["available"], false);
    assert_eq!(config["hint"], "chat is not available on this server");
    let (status, body) = app.get("/api/chat/sessions").await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(body["error"]["code"], "NOT_AVAILABLE");
}

#[tokio::test]
async fn chat_routes_need_the_token_like_every_other() {
    let app = TestApp::with_chat(Some(engine(Some(Arc::new(FakeLlm::new())))));
    let request = axum::http::Request::get("/api/chat/sessions")
        .header("host", app.host())
        .body(axum::body::Body::empty())
        .unwrap();
    assert_eq!(app.send(request).await.status(), StatusCode::UNAUTHORIZED);
    let (status, _) = app
        .get_with("/api/chat/config", &app.host(), Some("http://evil.example"))
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn an_answer_streams_in_order_and_the_session_is_kept() {
    let app = TestApp::serve_chat(engine(Some(Arc::new(FakeLlm::new()))), Limits::default()).await;
    let mut ws = open(&app).await;
    ws.send_json(ask("what is vai?")).await;
    let events = turn(&mut ws).await;
    assert_eq!(
        kinds(&events)[..5],
        ["turn_started", "state", "sources", "state", "text"]
    );
    assert_eq!(events[1]["event"]["state"], "retrieving");
    assert_eq!(events[3]["event"]["state"], "answering");
    let session = events[0]["sessionId"].as_str().unwrap().to_string();
    assert!(events.iter().all(|e| e["sessionId"] == session.as_str()));
    assert_eq!(events[0]["event"]["sessionId"], session.as_str());
    let sources = &events[2]["event"]["sources"];
    assert_eq!(sources[0]["index"], 1);
    assert_eq!(sources[0]["title"], "intro.md");

    let streamed: String = events
        .iter()
        .filter(|e| e["event"]["type"] == "text")
        .map(|e| e["event"]["delta"].as_str().unwrap())
        .collect();
    let finished = &events.last().unwrap()["event"]["turn"];
    assert_eq!(finished["status"], "done");
    assert_eq!(finished["answer"], streamed.trim());
    assert!(streamed.starts_with("fake answer to:"), "{streamed}");

    // The next question continues the session.
    ws.send_json(ask_in(&session, "and what else?")).await;
    let second = turn(&mut ws).await;
    assert_eq!(second[0]["sessionId"], session.as_str());

    let (status, list) = app.get("/api/chat/sessions").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(list["sessions"][0]["id"], session.as_str());
    assert_eq!(list["sessions"][0]["title"], "what is vai?");
    assert_eq!(list["sessions"][0]["turnCount"], 2);
    let (status, kept) = app.get(&format!("/api/chat/sessions/{session}")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(kept["turns"][0], *finished);
    assert_eq!(kept["turns"][1]["question"], "and what else?");
}

#[tokio::test]
async fn unknown_and_malformed_sessions_get_clear_errors_and_nothing_is_recorded() {
    let app = TestApp::serve_chat(engine(Some(Arc::new(FakeLlm::new()))), Limits::default()).await;
    let mut ws = open(&app).await;
    ws.send_json(ask_in("nope", "hello?")).await;
    let e = next_chat(&mut ws).await;
    assert_eq!(e["type"], "error");
    assert_eq!(e["code"], "NOT_FOUND");
    assert_eq!(e["message"], "no chat session \"nope\"");
    assert_eq!(e["sessionId"], "nope");

    ws.send_json(ask_in("../etc/passwd", "hello?")).await;
    let e = next_chat(&mut ws).await;
    assert_eq!(e["code"], "BAD_MESSAGE");
    assert!(
        e["message"].as_str().unwrap().contains("not a session id"),
        "{e}"
    );

    ws.send_json(ask("   ")).await;
    let e = next_chat(&mut ws).await;
    assert_eq!(e["code"], "BAD_QUESTION");
    assert_eq!(e["message"], "the question is empty");

    let (_, list) = app.get("/api/chat/sessions").await;
    assert_eq!(list["sessions"], json!([]));
    let (status, body) = app.get("/api/chat/sessions/nope").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(body["error"]["message"], "no chat session \"nope\"");
    let (status, body) = app.get("/api/chat/sessions/bad%20id").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["error"]["code"], "BAD_REQUEST");
    let long = "x".repeat(500);
    let (status, body) = app.get(&format!("/api/chat/sessions/{long}")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(body.to_string().len() < 400, "{body}");

    // The socket carries on.
    ws.send_json(ask("still there?")).await;
    assert_eq!(
        turn(&mut ws).await.last().unwrap()["event"]["turn"]["status"],
        "done"
    );
}

#[tokio::test]
async fn stop_ends_the_answer_and_keeps_what_it_had() {
    let app = TestApp::serve_chat(engine(Some(Arc::new(Stalling))), Limits::default()).await;
    let mut ws = open(&app).await;
    ws.send_json(ask("tell me everything")).await;
    let session = until_text(&mut ws).await;
    ws.send_json(json!({"type": "chat_cancel", "sessionId": session}))
        .await;
    let rest = turn(&mut ws).await;
    let finished = &rest.last().unwrap()["event"]["turn"];
    assert_eq!(finished["status"], "cancelled");
    assert_eq!(finished["answer"], "partial");

    let (_, kept) = app.get(&format!("/api/chat/sessions/{session}")).await;
    assert_eq!(kept["turns"][0]["status"], "cancelled");
    // Stopping a session that is not answering is not an error (it may just have finished).
    ws.send_json(json!({"type": "chat_cancel", "sessionId": session}))
        .await;
    ws.send_json(ask_in(&session, "again")).await;
    assert_eq!(next_chat(&mut ws).await["event"]["type"], "turn_started");
}

#[tokio::test]
async fn one_answer_at_a_time_per_socket_per_session_and_a_few_in_all() {
    let limits = Limits {
        max_chat_turns: 2,
        ..Limits::default()
    };
    let app = TestApp::serve_chat(engine(Some(Arc::new(Stalling))), limits).await;
    let mut first = open(&app).await;
    first.send_json(ask("one")).await;
    let session = until_text(&mut first).await;

    first.send_json(ask("two")).await;
    let e = next_chat(&mut first).await;
    assert_eq!(e["code"], "BUSY");
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .contains("already being written on this connection"),
        "{e}"
    );

    let mut second = open(&app).await;
    second.send_json(ask_in(&session, "same session")).await;
    let e = next_chat(&mut second).await;
    assert_eq!(e["code"], "BUSY");
    assert_eq!(e["sessionId"], session.as_str());
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .contains("is already answering"),
        "{e}"
    );
    second.send_json(ask("another")).await;
    until_text(&mut second).await;

    let mut third = open(&app).await;
    third.send_json(ask("a third")).await;
    let e = next_chat(&mut third).await;
    assert_eq!(e["code"], "BUSY");
    assert_eq!(
        e["message"],
        "2 chat answers are already being written; wait for one to finish"
    );

    // A stopped turn frees its place.
    first
        .send_json(json!({"type": "chat_cancel", "sessionId": session}))
        .await;
    turn(&mut first).await;
    third.send_json(ask("a third")).await;
    assert_eq!(next_chat(&mut third).await["event"]["type"], "turn_started");
}

#[tokio::test]
async fn a_closed_socket_cancels_its_turn_and_the_session_keeps_it() {
    let app = TestApp::serve_chat(engine(Some(Arc::new(Stalling))), Limits::default()).await;
    let mut ws = open(&app).await;
    ws.send_json(ask("are you there?")).await;
    let session = until_text(&mut ws).await;
    drop(ws);
    let mut kept = Value::Null;
    for _ in 0..200 {
        let (status, body) = app.get(&format!("/api/chat/sessions/{session}")).await;
        if status == StatusCode::OK {
            kept = body;
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    assert_eq!(kept["turns"][0]["status"], "cancelled", "{kept}");
    assert_eq!(kept["turns"][0]["answer"], "partial");
    // And its place is free again.
    let mut ws = open(&app).await;
    ws.send_json(ask_in(&session, "back again")).await;
    assert_eq!(next_chat(&mut ws).await["event"]["type"], "turn_started");
}

#[tokio::test]
async fn an_llm_that_fails_mid_answer_records_a_failed_turn_and_the_session_goes_on() {
    let app =
        TestApp::serve_chat(engine(Some(Arc::new(Flaky::default()))), Limits::default()).await;
    let mut ws = open(&app).await;
    ws.send_json(ask("will this work?")).await;
    let events = turn(&mut ws).await;
    let session = events[0]["sessionId"].as_str().unwrap().to_string();
    let failed = &events.last().unwrap()["event"]["turn"];
    assert_eq!(failed["status"], "failed");
    assert_eq!(failed["answer"], "half an");
    assert!(
        failed["error"]
            .as_str()
            .unwrap()
            .contains("the connection dropped"),
        "{failed}"
    );

    ws.send_json(ask_in(&session, "and now?")).await;
    let events = turn(&mut ws).await;
    assert_eq!(
        events.last().unwrap()["event"]["turn"]["status"],
        "done",
        "{events:?}"
    );
    let (_, kept) = app.get(&format!("/api/chat/sessions/{session}")).await;
    let statuses: Vec<&str> = kept["turns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["status"].as_str().unwrap())
        .collect();
    assert_eq!(statuses, ["failed", "done"]);
}

#[tokio::test]
async fn a_question_over_the_limit_is_a_failed_turn_with_the_reason() {
    let app = TestApp::serve_chat(engine(Some(Arc::new(FakeLlm::new()))), Limits::default()).await;
    let mut ws = open(&app).await;
    ws.send_json(ask(&"a".repeat(40 * 1024))).await;
    let events = turn(&mut ws).await;
    assert_eq!(kinds(&events), ["turn_started", "turn_finished"]);
    let failed = &events[1]["event"]["turn"];
    assert_eq!(failed["status"], "failed");
    assert_eq!(
        failed["error"],
        "the question is 40 KB; a question may be at most 16 KB"
    );
    // What is kept of it is cut to the limit.
    assert!(failed["question"].as_str().unwrap().len() <= 16 * 1024 + 3);
}

#[tokio::test]
async fn without_an_llm_a_question_is_refused_with_the_hint() {
    let app = TestApp::serve_chat(engine(None), Limits::default()).await;
    let mut ws = open(&app).await;
    ws.send_json(ask("anyone?")).await;
    let e = next_chat(&mut ws).await;
    assert_eq!(e["code"], "NOT_AVAILABLE");
    assert!(
        e["message"].as_str().unwrap().contains("fetch-model.sh"),
        "{e}"
    );
}

#[tokio::test]
async fn a_socket_without_chat_says_so() {
    let app = TestApp::serve().await;
    let mut ws = open(&app).await;
    ws.send_json(ask("anyone?")).await;
    let e = next_chat(&mut ws).await;
    assert_eq!(e["code"], "NOT_AVAILABLE");
    assert_eq!(e["message"], "chat is not available on this server");
}

#[tokio::test]
async fn the_tool_calls_of_an_agent_answer_open_as_a_workflow() {
    let llm = Arc::new(FakeLlm::new());
    llm.call_tools_next(vec![LlmToolCall {
        id: "call_1".into(),
        name: "vai_query".into(),
        arguments: json!({"query": "what is vai?"}),
    }]);
    let app = TestApp::serve_chat(engine(Some(llm)), Limits::default()).await;
    let mut ws = open(&app).await;
    ws.send_json(json!({"type": "chat_ask", "ask": {"question": "what is vai?", "mode": "agent"}}))
        .await;
    let events = turn(&mut ws).await;
    let kinds = kinds(&events);
    assert!(
        kinds.contains(&"tool_call_started") && kinds.contains(&"tool_call_finished"),
        "{kinds:?}"
    );
    let session = events[0]["sessionId"].as_str().unwrap().to_string();
    let agent_turn = events.last().unwrap()["event"]["turn"].clone();
    assert_eq!(agent_turn["toolCalls"][0]["name"], "vai_query");

    let route = |turn: &Value| {
        format!(
            "/api/chat/sessions/{session}/turns/{}/workflow",
            turn["id"].as_str().unwrap()
        )
    };
    let (status, workflow) = app.get(&route(&agent_turn)).await;
    assert_eq!(status, StatusCode::OK, "{workflow}");
    assert_eq!(workflow["steps"][0]["tool"], "query");
    assert_eq!(
        workflow["steps"][0]["inputs"]["query"],
        "{{ inputs.question }}"
    );

    ws.send_json(ask_in(&session, "no tools this time")).await;
    let pipeline_turn = turn(&mut ws).await.last().unwrap()["event"]["turn"].clone();
    let (status, body) = app.get(&route(&pipeline_turn)).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(body["error"]["code"], "NOT_EXPORTABLE");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("called no tools"),
        "{body}"
    );
    let (status, _) = app
        .get(&format!("/api/chat/sessions/{session}/turns/nope/workflow"))
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn sessions_can_be_deleted_but_not_while_they_answer() {
    let app = TestApp::serve_chat(engine(Some(Arc::new(Stalling))), Limits::default()).await;
    let mut ws = open(&app).await;
    ws.send_json(ask("first")).await;
    let session = until_text(&mut ws).await;
    let uri = format!("/api/chat/sessions/{session}");
    let (status, body) = app.delete(&uri).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("stop it first")
    );

    ws.send_json(json!({"type": "chat_cancel", "sessionId": session}))
        .await;
    turn(&mut ws).await;
    let (status, _) = app.delete(&uri).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let (status, _) = app.get(&uri).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, body) = app.delete(&uri).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(body["error"]["code"], "NOT_FOUND");
    let (_, list) = app.get("/api/chat/sessions").await;
    assert_eq!(list["sessions"], json!([]));
}
