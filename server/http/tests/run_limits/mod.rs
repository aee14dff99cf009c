//! A hostile workflow run from the playground fails its step with `LIMIT_EXCEEDED`, and the
//! server — which used to abort with every run and socket when a run overflowed the stack —
//! goes on answering.

use super::support::{TestApp, chain};
use axum::http::StatusCode;
use serde_json::{Value, json};

/// `depth` arrays around `inner`, built without recursion.
fn nested(depth: usize, inner: Value) -> Value {
    (0..depth).fold(inner, |v, _| Value::Array(vec![v]))
}

/// 80 steps, each wrapping the previous output in 118 arrays.
fn deep_chain() -> Value {
    let mut steps = vec![json!({"id": "s0", "tool": "echo", "inputs": {"text": "{{ inputs.q }}"}})];
    for i in 1..80 {
        let wrapped = nested(118, json!(format!("{{{{ s{}.output }}}}", i - 1)));
        steps.push(json!({"id": format!("s{i}"), "tool": "echo", "inputs": {"text": wrapped}}));
    }
    json!({"name": "deep chain", "inputs": {"q": {"type": "string"}}, "steps": steps})
}

#[tokio::test]
async fn the_playground_survives_a_deep_chain_and_still_answers() {
    let app = TestApp::serve().await;
    let run_id = app.start(deep_chain(), json!({"q": "x"})).await;
    let snapshot = app.wait_finished(&run_id).await;
    assert_eq!(snapshot["status"], "failed", "{snapshot}");
    // s0 echoes `{text}`; s1 wraps it in 118 arrays (120 levels); s2 would make 240.
    assert_eq!(snapshot["steps"]["s1"]["status"], "completed");
    let error = snapshot["steps"]["s2"]["error"].as_str().unwrap();
    assert!(
        error.starts_with("inputs.text: the value would nest deeper than 128 levels"),
        "{error}"
    );
    assert!(error.ends_with("[LIMIT_EXCEEDED]"), "{error}");
    assert_eq!(snapshot["steps"]["s3"]["status"], "pending");

    // The step route still serves what finished, with the inputs each step ran with.
    let (status, s1) = app
        .get(&format!("/api/runs/{run_id}/steps/s1/output"))
        .await;
    assert_eq!(status, StatusCode::OK, "{s1}");
    assert_eq!(s1["inputs"]["text"], nested(118, json!({"text": "x"})));
    let (status, s2) = app
        .get(&format!("/api/runs/{run_id}/steps/s2/output"))
        .await;
    assert_eq!(status, StatusCode::OK, "{s2}");
    assert_eq!(s2["status"], "failed");

    // And the server goes on: other routes answer and a normal run completes.
    let (status, _) = app.get("/api/tools").await;
    assert_eq!(status, StatusCode::OK);
    let run_id = app.start(chain(), json!({"q": "hi"})).await;
    let snapshot = app.wait_finished(&run_id).await;
    assert_eq!(snapshot["status"], "completed", "{snapshot}");
    assert_eq!(snapshot["output"], json!({"answer": "hi!"}));
}
