//! A finished run of a saved workflow becomes a test case that `vai workflow test` passes.

use crate::support::{self, TestApp};
use axum::http::StatusCode;
use serde_json::{Value, json};
use std::sync::Arc;

/// `lookup` calls a (fake) provider; `shape` and `answer` only reshape what it found.
fn flow() -> Value {
    json!({"name": "Lookup", "inputs": {"q": {"type": "string", "required": true}},
           "steps": [
               {"id": "find", "tool": "lookup", "inputs": {"query": "{{ inputs.q }}"}},
               {"id": "shape", "tool": "echo", "inputs": {"first": "{{ find.output.results[0].text }}"}},
               {"id": "never", "tool": "echo", "condition": "{{ find.output.resultCount > 5 }}", "inputs": {}}
           ],
           "output": {"answer": "{{ shape.output.first }}", "hits": "{{ find.output.results }}", "count": "{{ find.output.resultCount }}"}})
}

async fn saved_and_run(app: &TestApp, inputs: Value) -> String {
    let (status, body) = app
        .post(
            "/api/workflows/save",
            json!({"fileName": "lookup", "definition": flow(), "overwrite": true}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, body) = app
        .post(
            "/api/runs",
            json!({"definition": flow(), "inputs": inputs, "workflowId": "file:lookup.vai-workflow.json"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let run = body["runId"].as_str().unwrap().to_string();
    assert_eq!(app.wait_finished(&run).await["status"], "completed");
    run
}

#[tokio::test]
async fn a_completed_run_becomes_a_case_that_passes() {
    let app = TestApp::new();
    let run = saved_and_run(&app, json!({"q": "rust"})).await;
    let (status, saved) = app
        .post(
            &format!("/api/runs/{run}/test-case"),
            json!({"name": "basic"}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{saved}");
    assert_eq!(saved["fileName"], "lookup.basic.test.json");
    assert_eq!(saved["path"], "tests/lookup.basic.test.json");
    let text = std::fs::read_to_string(app.dir.join("tests/lookup.basic.test.json")).unwrap();
    assert_eq!(saved["text"], text);

    let case = vai_workflow::test_cases::parse_case(&text, "lookup.basic.test.json").unwrap();
    assert_eq!(case.inputs, *json!({"q": "rust"}).as_object().unwrap());
    assert_eq!(
        case.mocks.keys().collect::<Vec<_>>(),
        ["find"],
        "only the provider step is mocked"
    );
    let status = |id: &str| format!("{:?}", case.expect.steps[id].status);
    assert_eq!(
        (status("find"), status("shape"), status("never")),
        ("Completed".into(), "Completed".into(), "Skipped".into())
    );
    let answer = case.expect.output["answer"].equals.clone().unwrap();
    assert!(answer.as_str().unwrap().starts_with("hit "), "{answer}");
    assert_eq!(case.expect.output["hits"].min_length, Some(1));
    assert!(case.expect.no_errors);

    // `vai workflow test` runs the case against the file: it passes, because `find` is
    // mocked (unmocked, the fake answers differently on every call).
    let registry = support::registry();
    let compiled = vai_workflow::compile(&flow(), &registry, vai_workflow::Mode::Strict);
    let plan = compiled.plan.unwrap();
    let result = vai_workflow::test_cases::run_case(
        plan.clone(),
        Arc::clone(&registry),
        &case,
        "case",
        vai_workflow::Limits::DEFAULT,
    )
    .await;
    assert!(result.passed, "{:#?}", result.assertions);
    let mut unmocked = case.clone();
    unmocked.mocks.clear();
    let result = vai_workflow::test_cases::run_case(
        plan,
        registry,
        &unmocked,
        "case",
        vai_workflow::Limits::DEFAULT,
    )
    .await;
    assert!(
        !result.passed,
        "the expectations depend on the mocked output"
    );

    // The same name again: a conflict, unless overwriting.
    let url = format!("/api/runs/{run}/test-case");
    let (status, body) = app.post(&url, json!({"name": "basic"})).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    let (status, _) = app
        .post(&url, json!({"name": "basic", "overwrite": true}))
        .await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn only_completed_runs_of_the_saved_file_as_it_is() {
    let app = TestApp::new();
    let run = saved_and_run(&app, json!({"q": "rust"})).await;
    let url = format!("/api/runs/{run}/test-case");

    let (status, body) = app.post(&url, json!({"name": "no/slash"})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert_eq!(body["error"]["code"], "INVALID_NAME");

    // The file changed since the run.
    let mut edited = flow();
    edited["name"] = json!("Edited");
    let (status, body) = app
        .post(
            "/api/workflows/save",
            json!({"fileName": "lookup", "definition": edited, "overwrite": true}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, body) = app.post(&url, json!({"name": "x"})).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("save the workflow, run it again, then save the test case"),
        "{body}"
    );

    // A built-in is not a file in the directory.
    let (_, body) = app
        .post(
            "/api/runs",
            json!({"definition": support::chain(), "inputs": {"q": "x"}, "workflowId": "builtin:chain"}),
        )
        .await;
    let builtin = body["runId"].as_str().unwrap().to_string();
    app.wait_finished(&builtin).await;
    let (status, body) = app
        .post(
            &format!("/api/runs/{builtin}/test-case"),
            json!({"name": "x"}),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("save the workflow first"),
        "{body}"
    );

    // A run still going.
    let (_, body) = app
        .post(
            "/api/runs",
            json!({"definition": support::stuck(), "workflowId": "file:lookup.vai-workflow.json"}),
        )
        .await;
    let stuck = body["runId"].as_str().unwrap().to_string();
    let (status, body) = app
        .post(
            &format!("/api/runs/{stuck}/test-case"),
            json!({"name": "x"}),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("wait for it to complete"),
        "{body}"
    );
    app.post(&format!("/api/runs/{stuck}/cancel"), json!({}))
        .await;

    let (status, _) = app
        .post("/api/runs/run-nope/test-case", json!({"name": "x"}))
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}
