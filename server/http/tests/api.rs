//! The playground API end to end: every route through `app(state)`, the same-origin guard, and
//! the WebSocket over a real loopback listener. Tools are small fakes: no model, network or keys.

mod builder;
mod chat;
mod history;
mod limits;
mod run_limits;
mod security;
mod shared_store;
mod stepping;
mod support;
mod waiting;

use axum::http::StatusCode;
use serde_json::{Value, json};
use support::{SendJson, TestApp, collect_run, connect, next_json};

#[tokio::test]
async fn the_tool_catalog_lists_tools_and_categories() {
    let app = TestApp::new();
    let (status, body) = app.get("/api/tools").await;
    assert_eq!(status, StatusCode::OK);
    let echo = body["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "echo")
        .expect("echo");
    assert_eq!(echo["category"], "retrieval");
    assert_eq!(echo["color"], "#40E0FF");
    assert_eq!(echo["mainInput"], "text");
    assert_eq!(echo["apiCalls"]["vectorSearch"], 1);
    // The order docs/tools.md uses too (both read `Category::ALL`).
    let ids: Vec<&str> = body["categories"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        [
            "retrieval",
            "embedding",
            "management",
            "generation",
            "control_flow",
            "utility",
            "integration"
        ]
    );
    assert_eq!(body["categories"][4]["label"], "Control flow");
}

#[tokio::test]
async fn the_tool_catalog_says_what_a_step_of_a_tool_is_doing() {
    // The real `http` tool has a note; the fakes have none.
    let app = TestApp::serve_with_http().await;
    let (status, body) = app.get("/api/tools").await;
    assert_eq!(status, StatusCode::OK);
    let tool = |name: &str| {
        body["tools"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == name)
            .cloned()
            .unwrap_or_else(|| panic!("{name}"))
    };
    let http = tool("http");
    assert_eq!(http["explain"]["topic"], "workflows");
    assert_eq!(http["explain"]["title"], "Workflows");
    assert!(
        http["explain"]["text"]
            .as_str()
            .unwrap()
            .starts_with("This step sends one web request"),
        "{http}"
    );
    assert!(tool("echo").get("explain").is_none(), "omitted, not null");
}

#[tokio::test]
async fn config_status_is_what_the_composition_root_said() {
    let app = TestApp::new();
    let (status, body) = app.get("/api/config/status").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["offline"], true);
    assert_eq!(body["providers"][0]["id"], "embeddings");
    assert_eq!(body["providers"][0]["backend"], "local");
}

#[tokio::test]
async fn the_price_table_lists_each_model_with_its_date_and_source() {
    let app = TestApp::new();
    let (status, body) = app.get("/api/pricing").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["pricedAt"], vai_providers::pricing::PRICED_AT);
    let gpt = body["models"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["model"] == "gpt-4o-mini")
        .expect("gpt-4o-mini");
    assert_eq!(
        gpt,
        &json!({"model": "gpt-4o-mini", "vendor": "openai", "use": "llm", "inputPerMTok": 0.15,
                "outputPerMTok": 0.6, "pricedAt": vai_providers::pricing::PRICED_AT,
                "source": "https://openai.com/api/pricing/"})
    );
}

#[tokio::test]
async fn the_library_lists_builtins_examples_and_workflow_files_only() {
    let app = TestApp::new();
    let (status, body) = app.get("/api/workflows").await;
    assert_eq!(status, StatusCode::OK);
    let ids: Vec<&str> = body["workflows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        vec![
            "builtin:chain",
            "example:hello",
            "file:broken.vai-workflow.json",
            "file:mine.vai-workflow.json"
        ]
    );
    let mine = &body["workflows"][3];
    assert_eq!(mine["name"], "Mine");
    assert_eq!(mine["source"], "file");
    assert_eq!(mine["stepCount"], 1);
    assert_eq!(mine["inputs"], json!(["q"]));
    // A file that is not JSON is listed by its stem.
    assert_eq!(body["workflows"][2]["name"], "broken");
}

#[tokio::test]
async fn a_workflow_is_returned_verbatim_with_its_definition() {
    let app = TestApp::new();
    let (status, body) = app.get("/api/workflows/file:mine.vai-workflow.json").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["summary"]["id"], "file:mine.vai-workflow.json");
    assert_eq!(body["text"], support::MINE);
    assert_eq!(body["definition"]["name"], "Mine");

    let (status, body) = app
        .get("/api/workflows/file:broken.vai-workflow.json")
        .await;
    assert_eq!(status, StatusCode::OK);
    assert!(body.get("definition").is_none());

    let (status, body) = app.get("/api/workflows/builtin:chain").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["summary"]["source"], "builtin");
}

#[tokio::test]
async fn nothing_but_listed_files_can_be_read() {
    let app = TestApp::new();
    for id in [
        "file:../Cargo.toml",
        "file:..%2FCargo.toml",
        "file:notes.json",
        "file:secret.txt",
        "file:sub",
        "file:%2Fetc%2Fpasswd",
        "builtin:nope",
        "example:chain",
        "nope",
        "other:thing",
    ] {
        let (status, body) = app.get(&format!("/api/workflows/{id}")).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{id}");
        assert_eq!(body["error"]["code"], "NOT_FOUND", "{id}");
        assert!(
            !body.to_string().contains("top secret"),
            "{id} leaked a file"
        );
    }
}

#[tokio::test]
async fn validate_reports_every_diagnostic() {
    let app = TestApp::new();
    let (status, body) = app
        .post(
            "/api/workflows/validate",
            json!({"definition": support::chain()}),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["valid"], true);

    let bad = json!({"name": "bad", "steps": [
        {"id": "a", "tool": "ech", "inputs": {}},
        {"id": "b", "tool": "echo", "inputs": {"text": "{{ ghost.output }}"}}
    ]});
    let (status, body) = app
        .post("/api/workflows/validate", json!({"definition": bad}))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["valid"], false);
    let codes: Vec<&str> = body["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    assert!(codes.contains(&"INVALID_TOOL"), "{codes:?}");
    assert!(codes.contains(&"UNKNOWN_STEP_REF"), "{codes:?}");
    let unknown = body["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "UNKNOWN_STEP_REF")
        .unwrap();
    assert_eq!(unknown["stepId"], "b");
    assert_eq!(unknown["field"], "inputs.text");
    assert_eq!(unknown["referencedStep"], "ghost");
}

#[tokio::test]
async fn text_with_a_syntax_error_comes_back_with_line_and_column() {
    let app = TestApp::new();
    let text = "{\n  \"name\": \"x\",\n  \"steps\": [,]\n}";
    for route in ["/api/workflows/validate", "/api/workflows/plan"] {
        let (status, body) = app.post(route, json!({ "text": text })).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(body["valid"], false);
        let d = &body["diagnostics"][0];
        assert_eq!(d["code"], "INVALID_JSON");
        assert_eq!(d["line"], 3);
        assert!(d["column"].as_u64().is_some());
        assert!(body.get("graph").is_none());
    }
}

#[tokio::test]
async fn a_body_needs_exactly_one_of_definition_and_text() {
    let app = TestApp::new();
    for body in [json!({}), json!({"definition": {}, "text": "{}"})] {
        let (status, body) = app.post("/api/workflows/validate", body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert_eq!(body["error"]["code"], "BAD_REQUEST");
    }
    let (status, body) = app.post_raw("/api/workflows/validate", "{not json").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["error"]["code"], "BAD_REQUEST");
}

#[tokio::test]
async fn the_plan_draws_nodes_edges_and_layers() {
    let app = TestApp::new();
    let (status, body) = app
        .post(
            "/api/workflows/plan",
            json!({"definition": support::chain()}),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let graph = &body["graph"];
    assert_eq!(graph["runnable"], true);
    assert_eq!(graph["layers"], json!([["a"], ["b"], ["c"]]));
    let nodes = graph["nodes"].as_array().unwrap();
    assert_eq!(nodes[0]["kind"], "inputs");
    assert_eq!(nodes[0]["id"], "__inputs");
    assert_eq!(nodes[0]["inputs"][0]["name"], "q");
    assert_eq!(nodes[0]["inputs"][0]["required"], true);
    assert_eq!(nodes[1]["kind"], "step");
    assert_eq!(nodes[1]["summary"], "{{ inputs.q }}");
    assert_eq!(nodes[1]["category"], "retrieval");
    assert!(
        nodes[2].get("layer").is_none(),
        "layers are in graph.layers only"
    );
    assert_eq!(nodes.last().unwrap()["kind"], "output");
    assert_eq!(nodes.last().unwrap()["fields"], json!(["answer"]));
    let edges: Vec<(String, String, String, String)> = graph["edges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            let s = |k: &str| e[k].as_str().unwrap().to_string();
            (s("source"), s("target"), s("kind"), s("field"))
        })
        .collect();
    let edge = |a: &str, b: &str, k: &str, f: &str| (a.into(), b.into(), k.into(), f.into());
    assert!(edges.contains(&edge("__inputs", "a", "input", "inputs.text")));
    assert!(edges.contains(&edge("a", "b", "reference", "inputs.text")));
    assert!(edges.contains(&edge("c", "__output", "output", "output.answer")));
    // Three echo steps, one vector search each: the engine's estimate, as `--dry-run` prints.
    assert_eq!(graph["estimate"]["fixed"]["vectorSearch"], 3);
    assert_eq!(graph["estimate"]["perItem"]["vectorSearch"], 0);
}

#[tokio::test]
async fn an_invalid_workflow_still_draws() {
    let app = TestApp::new();
    let bad = json!({"name": "bad", "steps": [
        {"id": "a", "tool": "echo", "inputs": {"text": "x"}},
        {"id": "b", "tool": "nope", "inputs": {"v": "{{ a.output }}"}}
    ]});
    let (status, body) = app
        .post("/api/workflows/plan", json!({"definition": bad}))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["valid"], false);
    assert_eq!(body["graph"]["runnable"], false);
    assert_eq!(body["graph"]["nodes"].as_array().unwrap().len(), 3);
    assert_eq!(body["graph"]["edges"][0]["source"], "a");
    assert_eq!(body["graph"]["edges"][0]["target"], "b");
}

#[tokio::test]
async fn starting_an_invalid_workflow_or_bad_inputs_is_refused() {
    let app = TestApp::new();
    let bad = json!({"name": "bad", "steps": [{"id": "a", "tool": "nope", "inputs": {}}]});
    let (status, body) = app.post("/api/runs", json!({"definition": bad})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["error"]["code"], "INVALID_WORKFLOW");
    assert_eq!(body["error"]["diagnostics"][0]["stepId"], "a");

    let (status, body) = app
        .post("/api/runs", json!({"definition": support::chain()}))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["error"]["code"], "INVALID_INPUTS");
    assert!(
        body["error"]["message"].as_str().unwrap().contains("\"q\""),
        "{body}"
    );
}

#[tokio::test]
async fn a_run_completes_and_its_steps_can_be_inspected() {
    let app = TestApp::new();
    let run_id = app.start(support::chain(), json!({"q": "hello"})).await;
    let snapshot = app.wait_finished(&run_id).await;
    assert_eq!(snapshot["status"], "completed");
    assert_eq!(snapshot["steps"]["c"]["status"], "completed");
    assert_eq!(snapshot["output"], json!({"answer": "hello!"}));
    assert_eq!(snapshot["layers"], json!([["a"], ["b"], ["c"]]));

    let (status, step) = app.get(&format!("/api/runs/{run_id}/steps/b/output")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(step["status"], "completed");
    assert_eq!(step["inputs"], json!({"text": "hello"}));
    assert_eq!(step["output"], json!({"text": "hello"}));

    let (status, list) = app.get("/api/runs").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(list["runs"][0]["runId"], run_id.as_str());
    assert_eq!(list["runs"][0]["status"], "completed");

    for route in [
        format!("/api/runs/{run_id}/steps/zzz/output"),
        "/api/runs/nope".to_string(),
        "/api/runs/nope/steps/a/output".to_string(),
    ] {
        let (status, body) = app.get(&route).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{route}");
        assert_eq!(body["error"]["code"], "NOT_FOUND");
    }
    let (status, _) = app.post("/api/runs/nope/cancel", json!(null)).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn one_step_runs_with_its_upstream_replayed_from_an_earlier_run() {
    let app = TestApp::new();
    let first = app.start(support::chain(), json!({"q": "one"})).await;
    app.wait_finished(&first).await;
    let (status, body) = app
        .post(
            "/api/runs",
            json!({"definition": support::chain(), "inputs": {"q": "two"}, "step": "b", "fromRun": first}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let run_id = body["runId"].as_str().unwrap().to_string();
    let snapshot = app.wait_finished(&run_id).await;
    assert_eq!(snapshot["steps"]["a"]["backend"], "replay");
    assert_eq!(snapshot["steps"]["b"]["status"], "completed");
    assert_eq!(snapshot["steps"]["c"]["status"], "skipped");
    let (_, b) = app.get(&format!("/api/runs/{run_id}/steps/b/output")).await;
    // b read the replayed output of a, from the run with "one".
    assert_eq!(b["output"], json!({"text": "one"}));

    let (status, _) = app
        .post(
            "/api/runs",
            json!({"definition": support::chain(), "inputs": {"q": "x"}, "step": "zz"}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn unknown_api_routes_are_json_404s_and_pages_get_the_app() {
    let app = TestApp::new();
    let (status, body) = app.get("/api/nothing/here").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(body["error"]["code"], "NOT_FOUND");

    let response = app
        .raw_get("/some/client/route?workflow=builtin:chain")
        .await;
    assert_eq!(response.status(), StatusCode::OK);
    let content_type = response.headers()["content-type"].to_str().unwrap();
    assert!(content_type.starts_with("text/html"), "{content_type}");
    assert_eq!(response.headers()["cache-control"], "no-cache");

    let response = app.raw_get("/assets/missing-0123.js").await;
    assert_eq!(response.status(), StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn bodies_over_6_mb_are_refused() {
    let app = TestApp::new();
    let big = format!("{{\"text\": \"{}\"}}", "x".repeat(7 * 1024 * 1024));
    let (status, body) = app.post_raw("/api/workflows/validate", &big).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(body["error"]["code"], "PAYLOAD_TOO_LARGE");
}

#[tokio::test]
async fn foreign_hosts_and_origins_are_refused() {
    let app = TestApp::new();
    let port = app.port;
    let refused = [
        // DNS rebinding: a name that resolves to 127.0.0.1, with our port.
        (format!("evil.example:{port}"), None),
        (format!("127.0.0.1:{}", port + 1), None),
        ("127.0.0.1".to_string(), None),
        (
            format!("127.0.0.1:{port}"),
            Some("http://evil.example".to_string()),
        ),
        (
            format!("127.0.0.1:{port}"),
            Some(format!("https://127.0.0.1:{port}")),
        ),
        (format!("127.0.0.1:{port}"), Some("null".to_string())),
    ];
    for (host, origin) in refused {
        let (status, body) = app.get_with("/api/tools", &host, origin.as_deref()).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{host} {origin:?}");
        assert_eq!(body["error"]["code"], "FORBIDDEN_ORIGIN");
    }
    for host in [
        format!("127.0.0.1:{port}"),
        format!("localhost:{port}"),
        format!("[::1]:{port}"),
    ] {
        let origin = format!("http://{host}");
        let (status, _) = app.get_with("/api/tools", &host, Some(&origin)).await;
        assert_eq!(status, StatusCode::OK, "{host}");
    }
    // The web app itself is guarded too.
    let (status, _) = app
        .get_with("/", &format!("evil.example:{port}"), None)
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn socket_events_come_in_order_without_gaps() {
    let server = TestApp::serve().await;
    let mut ws = connect(server.port, None).await.expect("connect");
    let hello = next_json(&mut ws).await;
    assert_eq!(hello["type"], "hello");

    let run_id = server
        .start(support::timed_chain(), json!({"q": "hi"}))
        .await;
    let created = next_json(&mut ws).await;
    assert_eq!(created["type"], "run_created");
    assert_eq!(created["run"]["runId"], run_id.as_str());

    let (snapshot, events) = collect_run(&mut ws, &run_id).await;
    let mut seq = snapshot["seq"].as_u64().unwrap();
    for e in &events {
        seq += 1;
        assert_eq!(e["seq"].as_u64().unwrap(), seq, "{e}");
        assert_eq!(e["runId"], run_id.as_str());
    }
    let last = events.last().unwrap();
    assert_eq!(last["event"]["type"], "run_finished");
    assert_eq!(last["event"]["status"], "completed");
    assert_eq!(last["output"], json!({"answer": "hi!"}));
    // The snapshot plus the events cover the whole run.
    let finished = server.wait_finished(&run_id).await;
    assert_eq!(finished["seq"].as_u64().unwrap(), seq);
    // 1 run_started + 3 × (started, completed) + run_finished
    assert_eq!(seq, 8);
    if let Some(completed) = events
        .iter()
        .find(|e| e["event"]["type"] == "step_completed")
    {
        assert!(completed["event"]["stepId"].is_string());
        assert!(completed["event"]["durationMs"].is_number());
        assert!(completed.get("output").is_some());
    }
}

#[tokio::test]
async fn a_second_socket_mid_run_gets_a_snapshot_and_no_duplicates() {
    let server = TestApp::serve().await;
    let mut first = connect(server.port, None).await.expect("connect");
    next_json(&mut first).await; // hello
    let run_id = server.start(support::slow_chain(), json!({})).await;
    next_json(&mut first).await; // run_created
    first
        .send_json(json!({"type": "subscribe", "runId": run_id}))
        .await;
    let snap1 = next_json(&mut first).await;
    assert_eq!(snap1["type"], "snapshot");
    let mut first_seqs = Vec::new();
    // Wait until the run is visibly under way.
    loop {
        let e = next_json(&mut first).await;
        first_seqs.push(e["seq"].as_u64().unwrap());
        if e["event"]["type"] == "step_completed" {
            break;
        }
    }

    let mut second = connect(server.port, None).await.expect("connect");
    let hello = next_json(&mut second).await;
    assert!(
        hello["runs"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["runId"] == run_id.as_str() && r["status"] == "running")
    );
    let (snap2, events2) = collect_run(&mut second, &run_id).await;
    let from = snap2["seq"].as_u64().unwrap();
    assert!(from >= 2, "the snapshot reflects what already happened");
    assert_eq!(snap2["steps"]["a"]["status"], "completed");
    let seqs2: Vec<u64> = events2.iter().map(|e| e["seq"].as_u64().unwrap()).collect();
    let expected: Vec<u64> = (from + 1..=from + seqs2.len() as u64).collect();
    assert_eq!(seqs2, expected, "no gaps, no duplicates");

    loop {
        let e = next_json(&mut first).await;
        first_seqs.push(e["seq"].as_u64().unwrap());
        if e["event"]["type"] == "run_finished" {
            break;
        }
    }
    let start = snap1["run"]["seq"].as_u64().unwrap();
    let expected: Vec<u64> = (start + 1..=start + first_seqs.len() as u64).collect();
    assert_eq!(first_seqs, expected);
    assert_eq!(first_seqs.last(), seqs2.last());
}

#[tokio::test]
async fn cancelling_a_run_ends_it_as_cancelled() {
    let server = TestApp::serve().await;
    let mut ws = connect(server.port, None).await.expect("connect");
    next_json(&mut ws).await; // hello
    let run_id = server.start(support::stuck(), json!({})).await;
    next_json(&mut ws).await; // run_created
    ws.send_json(json!({"type": "subscribe", "runId": run_id}))
        .await;
    assert_eq!(next_json(&mut ws).await["type"], "snapshot");
    let (status, body) = server
        .post(&format!("/api/runs/{run_id}/cancel"), json!(null))
        .await;
    assert_eq!(status, StatusCode::ACCEPTED);
    assert_eq!(body["runId"], run_id.as_str());
    let mut kinds = Vec::new();
    loop {
        let e = next_json(&mut ws).await;
        kinds.push(e["event"]["type"].as_str().unwrap().to_string());
        if e["event"]["type"] == "run_finished" {
            assert_eq!(e["event"]["status"], "cancelled");
            break;
        }
    }
    assert_eq!(kinds[kinds.len() - 2..], ["step_cancelled", "run_finished"]);
    let snapshot = server.wait_finished(&run_id).await;
    assert_eq!(snapshot["steps"]["wait"]["status"], "cancelled");
}

#[tokio::test]
async fn large_outputs_are_fetched_not_streamed() {
    let server = TestApp::serve().await;
    let mut ws = connect(server.port, None).await.expect("connect");
    next_json(&mut ws).await; // hello
    let wf = json!({
        "name": "big",
        "steps": [{"id": "big", "tool": "big", "inputs": {"n": 20000, "delayMs": 100}}],
        "output": {"text": "{{ big.output.text }}"}
    });
    let run_id = server.start(wf, json!({})).await;
    let (_, events) = collect_run(&mut ws, &run_id).await;
    let completed = events
        .iter()
        .find(|e| e["event"]["type"] == "step_completed")
        .expect("completed");
    assert!(completed.get("output").is_none());
    assert!(completed["outputBytes"].as_u64().unwrap() > 16 * 1024);
    let (_, step) = server
        .get(&format!("/api/runs/{run_id}/steps/big/output"))
        .await;
    assert_eq!(step["output"]["text"].as_str().unwrap().len(), 20000);

    let finished = events.last().expect("run_finished");
    assert!(finished.get("output").is_none());
    let (status, run) = server.get(&format!("/api/runs/{run_id}/output")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(run["status"], "completed");
    assert_eq!(run["output"]["text"].as_str().unwrap().len(), 20000);
    let (status, _) = server.get("/api/runs/nope/output").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn socket_messages_that_make_no_sense_get_errors() {
    let server = TestApp::serve().await;
    let mut ws = connect(server.port, None).await.expect("connect");
    next_json(&mut ws).await; // hello
    ws.send_json(json!({"type": "subscribe", "runId": "nope"}))
        .await;
    let e = next_json(&mut ws).await;
    assert_eq!(e["type"], "error");
    assert_eq!(e["code"], "NOT_FOUND");
    ws.send_json(json!({"type": "dance"})).await;
    assert_eq!(next_json(&mut ws).await["code"], "BAD_MESSAGE");
}

#[tokio::test]
async fn cross_origin_socket_upgrades_are_refused() {
    let server = TestApp::serve().await;
    for origin in [Some("http://evil.example"), None] {
        let result = connect(server.port, Some(origin)).await;
        let Err(tungstenite::Error::Http(response)) = result else {
            panic!("upgrade with origin {origin:?} was not refused");
        };
        assert_eq!(response.status(), StatusCode::FORBIDDEN);
    }
}

#[tokio::test]
async fn the_socket_protocol_runs_without_a_network() {
    let app = TestApp::new();
    let (to_server, from_client) = tokio::sync::mpsc::unbounded_channel::<String>();
    let (to_client, mut from_server) = tokio::sync::mpsc::unbounded_channel::<String>();
    let read = Box::pin(futures_util::stream::unfold(
        from_client,
        |mut rx| async move { rx.recv().await.map(|m| (m, rx)) },
    ));
    let write = Box::pin(futures_util::sink::unfold(
        to_client,
        |tx, message: String| async move {
            tx.send(message).map_err(|_| ())?;
            Ok::<_, ()>(tx)
        },
    ));
    let socket = tokio::spawn(vai_http::serve_socket(app.state.clone(), write, read));
    let hello: Value = serde_json::from_str(&from_server.recv().await.unwrap()).unwrap();
    assert_eq!(hello["type"], "hello");
    to_server
        .send(json!({"type": "subscribe", "runId": "missing"}).to_string())
        .unwrap();
    let reply: Value = serde_json::from_str(&from_server.recv().await.unwrap()).unwrap();
    assert_eq!(reply["code"], "NOT_FOUND");
    assert_eq!(reply["runId"], "missing");
    drop(to_server);
    socket.await.unwrap();
}

/// A shared workflow must not drive the playground that runs it: its own API is on loopback,
/// which the http tool does not reach unless the user names the host.
#[tokio::test]
async fn an_http_step_cannot_call_the_playground_s_own_api() {
    let app = TestApp::serve_with_http().await;
    let url = format!("http://127.0.0.1:{}/api/runs", app.port);
    let inner = json!({"name": "Inner", "steps": [{"id": "a", "tool": "echo", "inputs": {}}]});
    let workflow = json!({"name": "Recursive", "steps": [{"id": "again", "tool": "http",
        "inputs": {"url": url, "method": "POST", "body": {"definition": inner, "inputs": {}}}}]});
    let run_id = app.start(workflow, json!({})).await;
    let snapshot = app.wait_finished(&run_id).await;
    assert_eq!(snapshot["status"], "failed", "{snapshot}");
    assert_eq!(
        snapshot["steps"]["again"]["error"],
        format!(
            "http: refusing to connect to 127.0.0.1 (loopback address) for \"{url}\": private, \
             loopback and link-local addresses need an entry in allowedHosts in .vai.json or \
             --allow-host 127.0.0.1"
        )
    );
    let (_, list) = app.get("/api/runs").await;
    let runs = list["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 1, "no run was started: {list}");
    assert_eq!(runs[0]["runId"], run_id.as_str());
}

/// The run-event fold has two owners: the server's (`runs/run.rs`) and the web app's
/// (`web/src/state/runReducer.ts`). They share one recorded run, `web/src/state/fixtures/
/// run-fold.json`: the snapshot a subscriber got, the events after it, and the server's final
/// snapshot, with timings and the run id normalised. This test records the run again and
/// requires the server's final snapshot to be the fixture's; `runReducer.test.ts` folds the
/// fixture's events and must reach that snapshot. `VAI_UPDATE_GENERATED=1` rewrites the fixture.
#[tokio::test]
async fn the_shared_fold_fixture_is_what_the_server_records() {
    // One step per layer, so the events come in one order: completed, skipped, failed (and
    // continued), then a step after the failure.
    let workflow = json!({"name": "Fold", "inputs": {"q": {"type": "string", "required": true}},
        "steps": [
            {"id": "a", "tool": "echo", "inputs": {"text": "{{ inputs.q }}", "delayMs": 150}},
            {"id": "slow", "tool": "echo", "timeoutMs": 1, "continueOnError": true,
                "dependsOn": ["a"], "inputs": {"delayMs": 300}},
            {"id": "never", "tool": "echo", "condition": "{{ a.output.text == 'nope' }}",
                "dependsOn": ["slow"], "inputs": {"text": "no"}},
            {"id": "last", "tool": "echo", "dependsOn": ["never"],
                "inputs": {"text": "{{ a.output.text }}!"}}
        ],
        "output": {"answer": "{{ last.output.text }}", "from": "{{ a.output.text }}"}});
    let server = TestApp::serve().await;
    let mut ws = connect(server.port, None).await.expect("connect");
    next_json(&mut ws).await; // hello
    let run_id = server.start(workflow, json!({"q": "hi"})).await;
    let (first, events) = collect_run(&mut ws, &run_id).await;
    let last = server.wait_finished(&run_id).await;
    let recorded = normalised(json!({"first": first, "events": events, "last": last}));

    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../web/src/state/fixtures/run-fold.json");
    if std::env::var_os("VAI_UPDATE_GENERATED").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let text = serde_json::to_string_pretty(&recorded).unwrap();
        std::fs::write(&path, text + "\n").unwrap();
    }
    let fixture: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(
        recorded["last"], fixture["last"],
        "the server folds this run differently from web/src/state/fixtures/run-fold.json: \
         VAI_UPDATE_GENERATED=1 cargo test -p vai-http --test api the_shared_fold_fixture"
    );
    // Every kind of step ending is in it.
    let statuses: Vec<&str> = ["a", "slow", "never", "last"]
        .iter()
        .map(|id| fixture["last"]["steps"][id]["status"].as_str().unwrap())
        .collect();
    assert_eq!(statuses, ["completed", "failed", "skipped", "completed"]);
    // And the fixture's events continue its first snapshot without a gap.
    let mut seq = fixture["first"]["seq"].as_u64().unwrap();
    for e in fixture["events"].as_array().unwrap() {
        seq += 1;
        assert_eq!(e["seq"].as_u64(), Some(seq), "{e}");
    }
    assert_eq!(fixture["last"]["seq"].as_u64(), Some(seq));
}

/// `value` with what differs from run to run fixed: durations and times 0, the run id "run".
fn normalised(mut value: Value) -> Value {
    fn walk(v: &mut Value) {
        match v {
            Value::Object(m) => {
                for (k, v) in m.iter_mut() {
                    match k.as_str() {
                        "durationMs" | "startedAt" if v.is_number() => *v = json!(0),
                        "runId" if v.is_string() => *v = json!("run"),
                        _ => walk(v),
                    }
                }
            }
            Value::Array(a) => a.iter_mut().for_each(walk),
            _ => {}
        }
    }
    walk(&mut value);
    value
}
