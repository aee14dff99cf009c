//! Opening documents for editing: a version to save against, read-only built-ins, and
//! validation in draft mode while a workflow is half built.

use crate::support::{self, TestApp};
use axum::http::StatusCode;
use serde_json::json;

#[tokio::test]
async fn get_returns_the_version_of_the_bytes_and_whether_it_is_read_only() {
    let app = TestApp::new();
    let (status, body) = app.get("/api/workflows/file:mine.vai-workflow.json").await;
    assert_eq!(status, StatusCode::OK);
    let version = body["version"].as_str().unwrap();
    assert_eq!(
        version,
        vai_runtime::library::version_of(support::MINE.as_bytes())
    );
    assert_eq!(version.len(), 16);
    assert_eq!(body["summary"]["readOnly"], false);

    // Another byte, another version.
    std::fs::write(
        app.dir.join("mine.vai-workflow.json"),
        format!("{} ", support::MINE),
    )
    .unwrap();
    let (_, after) = app.get("/api/workflows/file:mine.vai-workflow.json").await;
    assert_ne!(after["version"], version);

    for id in ["builtin:chain", "example:hello"] {
        let (status, body) = app.get(&format!("/api/workflows/{id}")).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(body["summary"]["readOnly"], true, "{id}");
        assert_eq!(body["version"].as_str().unwrap().len(), 16, "{id}");
    }
    let (_, list) = app.get("/api/workflows").await;
    for w in list["workflows"].as_array().unwrap() {
        assert_eq!(w["readOnly"], w["source"] != "file", "{w}");
    }
}

#[tokio::test]
async fn draft_mode_tolerates_what_a_half_built_workflow_lacks() {
    let app = TestApp::new();
    let half = json!({"steps": [{"id": "a", "tool": "echo"}]});
    for route in ["/api/workflows/validate", "/api/workflows/plan"] {
        let (status, strict) = app.post(route, json!({"definition": half})).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(strict["valid"], false, "{route}: {strict}");
        let (status, draft) = app
            .post(route, json!({"definition": half, "mode": "draft"}))
            .await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(draft["valid"], true, "{route}: {draft}");
        if route.ends_with("plan") {
            assert_eq!(draft["graph"]["runnable"], false, "only a strict plan runs");
        }
        assert!(
            draft["diagnostics"]
                .as_array()
                .unwrap()
                .iter()
                .any(|d| d["code"] == "MISSING_WORKFLOW_NAME" && d["severity"] == "info"),
            "{draft}"
        );
    }
    let (status, body) = app
        .post(
            "/api/workflows/validate",
            json!({"definition": half, "mode": "lenient"}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
}

#[tokio::test]
async fn starters_are_the_templates_of_vai_workflow_init() {
    use vai_workflow::starters::Starter;
    let app = TestApp::new();
    let (status, body) = app.get("/api/workflows/starters").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let starters = body["starters"].as_array().unwrap();
    let ids: Vec<_> = starters.iter().map(|s| s["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["search", "rag", "ingest"]);
    for served in starters {
        let starter = Starter::from_id(served["id"].as_str().unwrap()).unwrap();
        assert_eq!(served["label"], starter.label());
        assert_eq!(served["description"], starter.description());
        assert_eq!(served["definition"], starter.workflow(starter.label()));
    }
    // The rag starter reads the search step's output: a real two-step workflow.
    assert_eq!(
        starters[1]["definition"]["steps"][1]["inputs"]["context"],
        "{{ search.output.results }}"
    );
}
