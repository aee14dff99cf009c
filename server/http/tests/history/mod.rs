//! Run history over REST: past runs listed (filtered by workflow), opened after a restart as
//! they ended (snapshot, step inputs and outputs, output), two runs compared (unrelated ones
//! refused), and a restart from a step that replays what came before it.

use crate::support::{TestApp, chain, registry};
use axum::http::StatusCode;
use serde_json::json;

fn journals(app: &TestApp) -> vai_workflow::journal::RunStore {
    vai_workflow::journal::RunStore::open(&std::path::PathBuf::from(format!(
        "{}-data",
        app.dir.display()
    )))
    .unwrap()
}

#[tokio::test]
async fn past_runs_are_listed_opened_compared_and_restarted_after_a_restart() {
    let app = TestApp::new();
    let first = app.start(chain(), json!({"q": "one"})).await;
    app.wait_finished(&first).await;
    let second = app.start(chain(), json!({"q": "two"})).await;
    app.wait_finished(&second).await;
    let other = app
        .start(json!({"name": "Other", "steps": [{"id": "z", "tool": "echo", "inputs": {"text": "z"}}]}), json!({}))
        .await;
    app.wait_finished(&other).await;
    // The server stops; the next one knows its runs only from the journal.
    app.state.runs().shutdown().await;
    let app = TestApp::reopen(app.dir.clone(), registry(), journals(&app));

    let (code, list) = app.get("/api/history").await;
    assert_eq!(code, StatusCode::OK, "{list}");
    let ids: Vec<&str> = list["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["runId"].as_str().unwrap())
        .collect();
    assert_eq!(ids, [other.as_str(), second.as_str(), first.as_str()]);
    assert_eq!(list["runs"][1]["status"], "completed");
    assert_eq!(list["runs"][1]["inputs"], "q=two");
    assert!(list["runs"][1]["durationMs"].is_u64());
    let (_, filtered) = app.get("/api/history?status=completed&since=1").await;
    assert_eq!(filtered["runs"].as_array().unwrap().len(), 3);
    let (_, none) = app
        .get(&format!("/api/history?since={}", u64::MAX / 2))
        .await;
    assert_eq!(none["runs"], json!([]));

    // Opened as it ended.
    let (code, snapshot) = app.get(&format!("/api/runs/{second}")).await;
    assert_eq!(code, StatusCode::OK, "{snapshot}");
    assert_eq!(snapshot["status"], "completed");
    assert_eq!(snapshot["steps"]["c"]["status"], "completed");
    assert!(snapshot["steps"]["c"]["durationMs"].is_u64());
    assert_eq!(snapshot["output"], json!({"answer": "two!"}));
    let (code, step) = app.get(&format!("/api/runs/{second}/steps/b/output")).await;
    assert_eq!(code, StatusCode::OK, "{step}");
    assert_eq!(step["inputs"], json!({"text": "two"}));
    assert_eq!(step["output"]["text"], "two");
    let (code, output) = app.get(&format!("/api/runs/{second}/output")).await;
    assert_eq!(
        (code, &output["output"]),
        (StatusCode::OK, &json!({"answer": "two!"}))
    );
    let (code, record) = app.get(&format!("/api/history/{second}")).await;
    assert_eq!(code, StatusCode::OK, "{record}");
    assert_eq!(record["inputs"], json!({"q": "two"}));
    assert_eq!(record["definition"]["steps"][2]["id"], "c");
    let (code, _) = app.get("/api/history/no-such-run").await;
    assert_eq!(code, StatusCode::NOT_FOUND);

    // Compared step by step.
    let (code, diff) = app
        .get(&format!("/api/history/diff?a={first}&b={second}"))
        .await;
    assert_eq!(code, StatusCode::OK, "{diff}");
    assert_eq!(
        diff["inputs"],
        json!([{"field": "q", "a": "one", "b": "two"}])
    );
    assert_eq!(diff["steps"][0]["change"], "changed");
    assert_eq!(
        diff["steps"][0]["inputs"],
        json!([{"field": "text", "a": "one", "b": "two"}])
    );
    let (code, refused) = app
        .get(&format!("/api/history/diff?a={first}&b={other}"))
        .await;
    assert_eq!(code, StatusCode::BAD_REQUEST, "{refused}");
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap()
            .contains("unrelated workflows")
    );

    // One step run again on a past run's outputs ("Run this step" on a past run).
    let (code, created) = app
        .post(
            "/api/runs",
            json!({"definition": chain(), "inputs": {"q": "two"}, "step": "c", "fromRun": second}),
        )
        .await;
    assert_eq!(code, StatusCode::CREATED, "{created}");
    let single = app.wait_finished(created["runId"].as_str().unwrap()).await;
    assert_eq!(single["steps"]["b"]["backend"], "replay");
    assert_eq!(single["output"], json!({"answer": "two!"}));

    // Restarted from `c` with an edited step: `a` and `b` replay, `c` runs.
    let mut edited = chain();
    edited["steps"][2]["inputs"]["text"] = json!("{{ b.output.text }}?");
    let (code, created) = app
        .post(
            &format!("/api/history/{second}/restart"),
            json!({"from": "c", "definition": edited}),
        )
        .await;
    assert_eq!(code, StatusCode::CREATED, "{created}");
    let new_id = created["runId"].as_str().unwrap().to_string();
    let done = app.wait_finished(&new_id).await;
    assert_eq!(done["output"], json!({"answer": "two?"}));
    assert_eq!(done["steps"]["a"]["backend"], "journal");
    assert_eq!(done["steps"]["b"]["backend"], "journal");
    assert_ne!(done["steps"]["c"]["backend"], "journal");
    let (_, list) = app.get("/api/history").await;
    assert_eq!(list["runs"][0]["runId"], new_id.as_str());
    assert_eq!(
        list["runs"][0]["from"],
        json!({"runId": second, "step": "c"})
    );
    let (code, bad) = app
        .post(
            &format!("/api/history/{second}/restart"),
            json!({"from": "nope"}),
        )
        .await;
    assert_eq!(code, StatusCode::BAD_REQUEST, "{bad}");
    assert!(
        bad["error"]["message"]
            .as_str()
            .unwrap()
            .contains("no step \"nope\"")
    );
    app.state.runs().shutdown().await;
}
