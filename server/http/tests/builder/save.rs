//! Saving into the start directory: the stable form, versions and conflicts, names that are
//! not paths, and files the library cannot read.

use crate::support::TestApp;
use axum::http::StatusCode;
use serde_json::{Value, json};

fn flow(name: &str) -> Value {
    json!({"steps": [{"id": "a", "tool": "echo", "inputs": {"text": "{{ inputs.q }}"}}],
           "name": name, "inputs": {"q": {"type": "string"}}})
}

#[tokio::test]
async fn save_get_then_a_stale_save_conflicts_until_overwritten() {
    let app = TestApp::new();
    let (status, saved) = app
        .post(
            "/api/workflows/save",
            json!({"fileName": "my flow", "definition": flow("Mine v1")}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{saved}");
    assert_eq!(saved["id"], "file:my flow.vai-workflow.json");
    assert_eq!(saved["summary"]["name"], "Mine v1");
    assert_eq!(saved["summary"]["readOnly"], false);
    let on_disk = std::fs::read_to_string(app.dir.join("my flow.vai-workflow.json")).unwrap();
    assert!(
        on_disk.starts_with("{\n  \"name\": \"Mine v1\",\n  \"inputs\""),
        "{on_disk}"
    );
    assert_eq!(on_disk, vai_workflow::format::format(&flow("Mine v1")));

    let (status, doc) = app
        .get("/api/workflows/file:my%20flow.vai-workflow.json")
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(doc["version"], saved["version"]);
    assert_eq!(doc["text"], on_disk);

    // Saving on top of the version we opened works, and gives a new version.
    let (status, second) = app
        .post(
            "/api/workflows/save",
            json!({"fileName": "my flow.vai-workflow.json", "definition": flow("Mine v2"),
                   "baseVersion": doc["version"]}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{second}");
    assert_ne!(second["version"], saved["version"]);

    // Someone edits the file behind the editor's back.
    std::fs::write(
        app.dir.join("my flow.vai-workflow.json"),
        "{\"name\": \"theirs\", \"steps\": []}",
    )
    .unwrap();
    let stale = json!({"fileName": "my flow", "definition": flow("Mine v3"), "baseVersion": second["version"]});
    let (status, body) = app.post("/api/workflows/save", stale.clone()).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(body["error"]["code"], "CONFLICT");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("changed on disk since it was opened"),
        "{body}"
    );
    let theirs = std::fs::read_to_string(app.dir.join("my flow.vai-workflow.json")).unwrap();
    assert!(theirs.contains("theirs"), "nothing was written");

    let mut overwrite = stale;
    overwrite["overwrite"] = json!(true);
    let (status, body) = app.post("/api/workflows/save", overwrite).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (_, doc) = app
        .get("/api/workflows/file:my%20flow.vai-workflow.json")
        .await;
    assert_eq!(doc["definition"]["name"], "Mine v3");
    assert_eq!(doc["version"], body["version"]);
}

#[tokio::test]
async fn a_new_file_does_not_replace_an_existing_one_unasked() {
    let app = TestApp::new();
    let (status, body) = app
        .post(
            "/api/workflows/save",
            json!({"fileName": "mine", "definition": flow("Other")}),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("already exists"),
        "{body}"
    );
    assert_eq!(
        std::fs::read_to_string(app.dir.join("mine.vai-workflow.json")).unwrap(),
        crate::support::MINE
    );
}

#[tokio::test]
async fn names_with_paths_are_refused() {
    let app = TestApp::new();
    for name in [
        "../escape",
        "sub/inner",
        "a..b",
        "/etc/passwd",
        ".hidden",
        "",
        "x\\y",
    ] {
        let (status, body) = app
            .post(
                "/api/workflows/save",
                json!({"fileName": name, "definition": flow("x")}),
            )
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{name}: {body}");
        assert_eq!(body["error"]["code"], "INVALID_NAME", "{name}");
    }
    assert!(!app.dir.join("../escape.vai-workflow.json").exists());
}

#[cfg(unix)]
#[tokio::test]
async fn a_link_is_neither_read_nor_saved_through() {
    let app = TestApp::new();
    // The harness's link.vai-workflow.json points at secret.txt.
    let (status, _) = app.get("/api/workflows/file:link.vai-workflow.json").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, body) = app
        .post(
            "/api/workflows/save",
            json!({"fileName": "link", "definition": flow("x"), "overwrite": true}),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(
        std::fs::read_to_string(app.dir.join("secret.txt")).unwrap(),
        "top secret"
    );
}

#[tokio::test]
async fn workflows_over_5_mb_are_refused() {
    let app = TestApp::new();
    let mut big = flow("big");
    big["description"] = json!("x".repeat(5 * 1024 * 1024));
    let (status, body) = app
        .post(
            "/api/workflows/save",
            json!({"fileName": "big", "definition": big}),
        )
        .await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{}", body["error"]);
    assert_eq!(body["error"]["code"], "PAYLOAD_TOO_LARGE");
    assert!(!app.dir.join("big.vai-workflow.json").exists());
}

#[tokio::test]
async fn a_6_mb_file_is_listed_with_its_error() {
    let app = TestApp::new();
    std::fs::write(
        app.dir.join("huge.vai-workflow.json"),
        vec![b' '; 6 * 1024 * 1024],
    )
    .unwrap();
    let (status, body) = app.get("/api/workflows").await;
    assert_eq!(status, StatusCode::OK);
    let huge = body["workflows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|w| w["id"] == "file:huge.vai-workflow.json")
        .expect("listed");
    assert_eq!(huge["name"], "huge");
    let error = huge["error"].as_str().unwrap();
    assert!(error.contains("limited to 5242880 bytes"), "{error}");
    let broken = body["workflows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|w| w["id"] == "file:broken.vai-workflow.json")
        .unwrap();
    assert!(
        broken["error"].as_str().unwrap().contains("not valid JSON"),
        "{broken}"
    );

    let (status, body) = app.get("/api/workflows/file:huge.vai-workflow.json").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(body["error"]["code"], "UNREADABLE");
}

#[tokio::test]
async fn without_a_start_directory_there_is_nowhere_to_save() {
    let app = TestApp::without_directory();
    let (status, body) = app
        .post(
            "/api/workflows/save",
            json!({"fileName": "x", "definition": flow("x")}),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(body["error"]["code"], "NO_DIRECTORY");
}
