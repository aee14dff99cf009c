//! Step-through runs over the API: started with `stepThrough`, paused on the socket, resumed
//! with Next and Continue, cancelled while paused or after the idle limit, followed by two
//! sockets that agree on where the run waits.

use crate::support::{self, SendJson, Socket, TestApp, connect, next_json};
use axum::http::StatusCode;
use serde_json::{Value, json};
use std::time::Duration;
use vai_http::Limits;

/// Start `definition` with these step-through settings; its id.
async fn start(app: &TestApp, definition: Value, step_through: Value) -> String {
    let body =
        json!({"definition": definition, "inputs": {"q": "hi"}, "stepThrough": step_through});
    let (status, body) = app.post("/api/runs", body).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    body["runId"].as_str().unwrap().to_string()
}

/// A socket subscribed to `run_id`, and the snapshot it got.
async fn follow(app: &TestApp, run_id: &str) -> (Socket, Value) {
    let mut ws = connect(app.port, None).await.expect("connect");
    assert_eq!(next_json(&mut ws).await["type"], "hello");
    ws.send_json(json!({"type": "subscribe", "runId": run_id}))
        .await;
    loop {
        let m = next_json(&mut ws).await;
        if m["type"] == "snapshot" {
            return (ws, m["run"].clone());
        }
    }
}

/// The step the run waits before: from the snapshot when it paused before the socket
/// subscribed, else from the `paused` event.
async fn paused_at(ws: &mut Socket, snapshot: &Value) -> String {
    match snapshot["paused"]["stepId"].as_str() {
        Some(step) => step.to_string(),
        None => {
            let events = until(ws, "paused").await;
            events.last().unwrap()["event"]["stepId"]
                .as_str()
                .unwrap()
                .to_string()
        }
    }
}

/// Read run events until one of type `kind`; every event read, that one last.
async fn until(ws: &mut Socket, kind: &str) -> Vec<Value> {
    let mut events = Vec::new();
    loop {
        let m = next_json(ws).await;
        if m["type"] != "event" {
            continue;
        }
        let found = m["event"]["type"] == kind;
        events.push(m);
        if found {
            return events;
        }
    }
}

fn kinds(events: &[Value]) -> Vec<String> {
    events
        .iter()
        .map(|e| {
            let step = e["event"]["stepId"].as_str().map(|s| format!(" {s}"));
            format!(
                "{}{}",
                e["event"]["type"].as_str().unwrap(),
                step.unwrap_or_default()
            )
        })
        .collect()
}

async fn resume(app: &TestApp, run_id: &str, body: Value) -> (StatusCode, Value) {
    app.post(&format!("/api/runs/{run_id}/resume"), body).await
}

#[tokio::test]
async fn a_step_through_run_pauses_before_each_step_and_next_and_continue_go_on() {
    let app = TestApp::serve().await;
    let run_id = start(&app, support::chain(), json!({"pauseEach": true})).await;
    let (mut ws, snapshot) = follow(&app, &run_id).await;
    assert_eq!(paused_at(&mut ws, &snapshot).await, "a");
    // The inspector shows what the paused step will get.
    let (status, detail) = app.get(&format!("/api/runs/{run_id}/steps/a/output")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(detail["status"], "pending");
    assert_eq!(detail["inputs"], json!({"text": "hi"}));
    let (_, snapshot) = app.get(&format!("/api/runs/{run_id}")).await;
    assert_eq!(snapshot["status"], "running");
    assert_eq!(snapshot["paused"]["stepId"], "a");
    assert!(snapshot["paused"]["since"].is_number());
    assert_eq!(
        snapshot["stepThrough"],
        json!({"pauseEach": true, "breakpoints": [], "paceMs": 0})
    );

    let (status, accepted) = resume(&app, &run_id, json!({"action": "next"})).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{accepted}");
    assert_eq!(
        accepted,
        json!({"runId": run_id, "status": "running", "stepId": "a", "action": "next"})
    );
    let second = until(&mut ws, "paused").await;
    assert_eq!(
        kinds(&second),
        [
            "resumed a",
            "step_started a",
            "step_completed a",
            "paused b"
        ]
    );
    assert_eq!(
        second[0]["event"],
        json!({"type": "resumed", "stepId": "a", "action": "next"})
    );
    assert_eq!(
        second[3]["event"],
        json!({"type": "paused", "stepId": "b", "name": "b", "tool": "echo", "breakpoint": false})
    );
    let (_, detail) = app.get(&format!("/api/runs/{run_id}/steps/b/output")).await;
    assert_eq!(
        detail["inputs"],
        json!({"text": "hi"}),
        "resolved from a's output"
    );

    let (status, _) = resume(&app, &run_id, json!({"action": "continue"})).await;
    assert_eq!(status, StatusCode::ACCEPTED);
    let rest = until(&mut ws, "run_finished").await;
    assert_eq!(
        kinds(&rest),
        [
            "resumed b",
            "step_started b",
            "step_completed b",
            "step_started c",
            "step_completed c",
            "run_finished"
        ]
    );
    assert_eq!(rest.last().unwrap()["output"], json!({"answer": "hi!"}));
    let snapshot = app.wait_finished(&run_id).await;
    assert!(snapshot.get("paused").is_none(), "{snapshot}");
    assert_eq!(snapshot["stepThrough"]["pauseEach"], false);
    // Nothing left to resume.
    let (status, body) = resume(&app, &run_id, json!({"action": "next"})).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(body["error"]["code"], "NOT_PAUSED");
    assert_eq!(
        body["error"]["message"],
        format!("run \"{run_id}\" is not paused: it has ended")
    );
}

#[tokio::test]
async fn a_run_that_is_not_paused_cannot_be_resumed() {
    let app = TestApp::serve().await;
    // Paused at `a` only; after Continue it never pauses again.
    let run_id = start(&app, support::slow_chain(), json!({"breakpoints": ["a"]})).await;
    let (mut ws, snapshot) = follow(&app, &run_id).await;
    paused_at(&mut ws, &snapshot).await;
    let (status, _) = resume(&app, &run_id, json!({"action": "continue"})).await;
    assert_eq!(status, StatusCode::ACCEPTED);
    let (status, body) = resume(&app, &run_id, json!({"action": "next"})).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(body["error"]["code"], "NOT_PAUSED");

    let plain = app.start(support::stuck(), json!({})).await;
    let (status, body) = resume(&app, &plain, json!({"action": "next"})).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(
        body["error"]["message"],
        format!("run \"{plain}\" is not paused: it was not started to step through")
    );
    let (status, body) = resume(&app, "nope", json!({"action": "next"})).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    let (status, _) = resume(&app, &plain, json!({"action": "jump"})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    app.post(&format!("/api/runs/{plain}/cancel"), json!(null))
        .await;
}

#[tokio::test]
async fn two_sockets_following_one_paused_run_agree() {
    let app = TestApp::serve().await;
    let run_id = start(&app, support::chain(), json!({"breakpoints": ["b"]})).await;
    let (mut first, snapshot) = follow(&app, &run_id).await;
    assert_eq!(paused_at(&mut first, &snapshot).await, "b");

    // A second tab opened while the run waits is told where.
    let (mut second, snapshot) = follow(&app, &run_id).await;
    assert_eq!(snapshot["status"], "running");
    assert_eq!(snapshot["paused"]["stepId"], "b");
    assert_eq!(snapshot["paused"]["breakpoint"], true);
    assert_eq!(snapshot["steps"]["a"]["status"], "completed");
    assert_eq!(snapshot["steps"]["b"]["status"], "pending");
    assert_eq!(
        snapshot["stepThrough"],
        json!({"pauseEach": false, "breakpoints": ["b"], "paceMs": 0})
    );

    // Either tab may resume, and both see the same events after.
    let (status, _) = resume(&app, &run_id, json!({"action": "next"})).await;
    assert_eq!(status, StatusCode::ACCEPTED);
    let from_first = until(&mut first, "paused").await;
    let from_second = until(&mut second, "paused").await;
    assert_eq!(from_first, from_second);
    assert_eq!(
        from_first.first().unwrap()["seq"].as_u64(),
        Some(snapshot["seq"].as_u64().unwrap() + 1)
    );
    assert_eq!(kinds(&from_first).last().unwrap(), "paused c");
    // Next from a breakpoint pauses before every step from there on.
    let (_, now) = app.get(&format!("/api/runs/{run_id}")).await;
    assert_eq!(now["stepThrough"]["pauseEach"], true);

    // A resume may replace the breakpoints; both tabs learn of it.
    let (status, body) = resume(
        &app,
        &run_id,
        json!({"action": "continue", "breakpoints": ["c", "a", "a"]}),
    )
    .await;
    assert_eq!(status, StatusCode::ACCEPTED, "{body}");
    let end_first = until(&mut first, "run_finished").await;
    let end_second = until(&mut second, "run_finished").await;
    assert_eq!(end_first, end_second);
    assert_eq!(end_first[0]["event"]["breakpoints"], json!(["a", "c"]));
    let finished = app.wait_finished(&run_id).await;
    assert_eq!(finished["status"], "completed");
    assert_eq!(finished["stepThrough"]["breakpoints"], json!(["a", "c"]));
}

#[tokio::test]
async fn cancelling_while_paused_ends_the_run_cancelled() {
    let app = TestApp::serve().await;
    let run_id = start(&app, support::chain(), json!({"pauseEach": true})).await;
    let (mut ws, snapshot) = follow(&app, &run_id).await;
    paused_at(&mut ws, &snapshot).await;
    let (status, _) = app
        .post(&format!("/api/runs/{run_id}/cancel"), json!(null))
        .await;
    assert_eq!(status, StatusCode::ACCEPTED);
    let events = until(&mut ws, "run_finished").await;
    assert_eq!(kinds(&events), ["step_cancelled a", "run_finished"]);
    assert_eq!(events[1]["event"]["status"], "cancelled");
    let snapshot = app.wait_finished(&run_id).await;
    assert_eq!(snapshot["steps"]["a"]["status"], "cancelled");
    assert_eq!(snapshot["steps"]["b"]["status"], "pending");
    assert!(snapshot.get("paused").is_none(), "{snapshot}");
}

#[tokio::test]
async fn a_paused_run_no_one_resumes_is_cancelled_after_the_idle_limit() {
    let app = TestApp::serve_with(Limits {
        pause_idle: Duration::from_millis(300),
        ..Limits::default()
    })
    .await;
    let run_id = start(&app, support::chain(), json!({"pauseEach": true})).await;
    let (mut ws, _) = follow(&app, &run_id).await;
    let events = until(&mut ws, "run_finished").await;
    assert_eq!(
        kinds(&events)[events.len() - 2..],
        ["step_cancelled a", "run_finished"]
    );
    let finished = &events.last().unwrap()["event"];
    assert_eq!(finished["status"], "cancelled");
    assert_eq!(
        finished["error"],
        "the run was paused for 300 ms without Next or Continue"
    );
    // The default, as docs/api.md says.
    assert_eq!(Limits::default().pause_idle, Duration::from_secs(600));
}

#[tokio::test]
async fn step_through_settings_are_checked() {
    let app = TestApp::new();
    let cases = [
        (
            json!({"breakpoints": ["a", "nope"]}),
            "stepThrough.breakpoints: the workflow has no step \"nope\"",
        ),
        (
            json!({"breakpoints": ["a", "a", "a", "a"]}),
            "stepThrough.breakpoints has 4 entries; the workflow has 3 steps",
        ),
        (
            json!({"paceMs": 10001}),
            "stepThrough.paceMs is 10001; the most is 10000",
        ),
    ];
    for (step_through, message) in cases {
        let body = json!({"definition": support::chain(), "inputs": {"q": "hi"}, "stepThrough": step_through});
        let (status, body) = app.post("/api/runs", body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        assert_eq!(body["error"]["code"], "BAD_REQUEST");
        assert_eq!(body["error"]["message"], message);
    }
    assert!(
        app.state.runs().list().await.is_empty(),
        "nothing was started"
    );

    let run_id = start(
        &app,
        support::chain(),
        json!({"pauseEach": true, "paceMs": 10}),
    )
    .await;
    let (status, body) = resume(
        &app,
        &run_id,
        json!({"action": "next", "breakpoints": ["zzz"]}),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert_eq!(
        body["error"]["message"],
        "breakpoints: the workflow has no step \"zzz\""
    );
    app.post(&format!("/api/runs/{run_id}/cancel"), json!(null))
        .await;
}
