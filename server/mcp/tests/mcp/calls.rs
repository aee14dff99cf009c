//! Calling tools: vai's own on the offline tools, workflow tools with progress, cancellation
//! and a full run manager, and the refusals of bad calls.

use super::*;
use rmcp::model::{ClientRequest, Request};
use rmcp::service::PeerRequestOptions;
use serde_json::json;
use std::time::Duration;
use vai_contract::RunState;

#[tokio::test]
async fn vai_tools_run_on_their_own_and_return_structured_output() {
    let dir = scratch("vai-tools");
    let running = serve(server(&dir, false, RunBudget::default()), None).await;
    let client = connect(&running, None).await;

    let estimate = call(
        &client,
        "vai_estimate",
        json!({"docs": 1000, "model": "voyage-4-lite"}),
    )
    .await;
    let body = ok(&estimate);
    assert_eq!(body["model"], "voyage-4-lite");
    assert!(body["embeddingCost"].is_number(), "{body}");
    // The same JSON as text, for clients that read only content.
    let text = estimate.content[0].as_text().unwrap().text.clone();
    assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), *body);

    let models = call(&client, "vai_models", json!({})).await;
    assert!(
        ok(&models)["models"]
            .as_array()
            .is_some_and(|m| !m.is_empty())
    );
    let explain = call(&client, "vai_explain", json!({"topic": "embeddings"})).await;
    assert_eq!(ok(&explain)["found"], true);
    let chunks = call(
        &client,
        "vai_chunk",
        json!({"text": "One. Two. Three.", "size": 100}),
    )
    .await;
    assert!(ok(&chunks).is_object());

    // Arguments that fail the schema name their field; nothing runs.
    let bad = call(
        &client,
        "vai_estimate",
        json!({"docs": "many", "modle": "x"}),
    )
    .await;
    let body = err(&bad);
    assert_eq!(body["error_code"], "INVALID_ARGUMENTS");
    assert_eq!(body["category"], "validation");
    let paths: Vec<&str> = body["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["path"].as_str().unwrap())
        .collect();
    assert_eq!(paths, ["docs", "modle"]);
    let missing = call(&client, "vai_explain", json!({})).await;
    assert_eq!(err(&missing)["context"]["path"], "topic");

    // A provider that is not configured: a tool failure that says so, not a protocol error.
    let query = call(&client, "vai_query", json!({"query": "how do I log in"})).await;
    let body = err(&query);
    assert_eq!(body["error_code"], "NOT_CONFIGURED", "{body}");

    // Protocol mistakes are protocol errors.
    let unknown = try_call(&client, "vai_nope", json!({})).await;
    assert!(
        matches!(&unknown, Err(rmcp::ServiceError::McpError(e)) if e.message.contains("unknown tool")),
        "{unknown:?}"
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_workflow_tool_runs_the_whole_dag_and_returns_its_output_and_steps() {
    let dir = scratch("w-tool");
    let srv = server(&dir, false, RunBudget::default());
    let running = serve(srv.clone(), None).await;
    let client = connect(&running, None).await;

    let result = call(&client, "w_cost_analysis", json!({"docs": 1000})).await;
    let body = ok(&result);
    assert_eq!(body["status"], "completed");
    assert_eq!(body["workflow_id"], "builtin:cost-analysis");
    assert_eq!(body["output"]["comparison"].as_array().unwrap().len(), 3);
    assert_eq!(body["output"]["months"], 12, "the declared default applies");
    let steps = body["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 3);
    assert!(
        steps
            .iter()
            .all(|s| s["status"] == "completed" && s["tool"] == "estimate"),
        "{steps:?}"
    );
    // The same kind of run as the playground's, kept by the run manager.
    let run_id = body["run_id"].as_str().unwrap();
    let kept = srv.runs().get(run_id).expect("the run manager keeps it");
    assert_eq!(kept.summary().status, RunState::Completed);
    let status = call(&client, "workflow_status", json!({"run_id": run_id})).await;
    assert_eq!(ok(&status)["output"]["docs"], 1000);

    let missing = call(&client, "w_cost_analysis", json!({})).await;
    let body = err(&missing);
    assert_eq!(body["error_code"], "INVALID_ARGUMENTS");
    assert_eq!(body["violations"][0]["path"], "docs");
    client.cancel().await.unwrap();
}

/// Start `name` as a cancellable call that asks for progress.
async fn start_call(
    client: &Client,
    name: &str,
    args: Value,
) -> rmcp::service::RequestHandle<RoleClient> {
    let params = CallToolRequestParams::new(name.to_string())
        .with_arguments(args.as_object().cloned().unwrap_or_default());
    client
        .send_cancellable_request(
            ClientRequest::CallToolRequest(Request::new(params)),
            PeerRequestOptions::no_options(),
        )
        .await
        .unwrap()
}

/// Wait until the server holds a run in `state` (the newest one), and return its id.
async fn wait_for(srv: &McpServer, state: RunState) -> String {
    for _ in 0..500 {
        if let Some(run) = srv
            .runs()
            .list()
            .await
            .into_iter()
            .find(|r| r.status == state)
        {
            return run.run_id;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("no run became {state:?}: {:?}", srv.runs().list().await);
}

async fn wait_until(srv: &McpServer, run_id: &str, state: RunState) {
    for _ in 0..500 {
        if srv
            .runs()
            .get(run_id)
            .is_some_and(|r| r.summary().status == state)
        {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("run {run_id} did not become {state:?}");
}

#[tokio::test]
async fn a_workflow_call_reports_progress_per_step() {
    let dir = scratch("progress");
    std::fs::write(
        dir.join("sleepy.vai-workflow.json"),
        sleepy(300).to_string(),
    )
    .unwrap();
    let running = serve(server(&dir, false, RunBudget::default()), None).await;
    let client = connect(&running, None).await;
    let handle = start_call(&client, "w_sleepy", json!({})).await;
    let token = handle.progress_token.clone();
    let response = handle.await_response().await.unwrap();
    let rmcp::model::ServerResult::CallToolResult(result) = response else {
        panic!("{response:?}");
    };
    assert_eq!(ok(&result)["output"], 300);
    // Notifications may trail the reply on another stream; give them a moment.
    for _ in 0..100 {
        if client.service().progress.lock().unwrap().len() >= 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let progress = client.service().progress.lock().unwrap().clone();
    let seen: Vec<(f64, Option<f64>)> = progress.iter().map(|p| (p.progress, p.total)).collect();
    assert_eq!(seen, [(1.0, Some(2.0)), (2.0, Some(2.0))], "{progress:?}");
    assert!(progress.iter().all(|p| p.progress_token == token));
    assert_eq!(
        progress[0].message.as_deref(),
        Some("step \"first\" completed (1/2)")
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn cancelling_the_call_cancels_the_run() {
    let dir = scratch("cancel");
    std::fs::write(
        dir.join("sleepy.vai-workflow.json"),
        sleepy(60_000).to_string(),
    )
    .unwrap();
    let srv = server(&dir, false, RunBudget::default());
    let running = serve(srv.clone(), None).await;
    let client = connect(&running, None).await;
    let handle = start_call(&client, "w_sleepy", json!({})).await;
    let run_id = wait_for(&srv, RunState::Running).await;
    // Cancelled while its long step runs.
    for _ in 0..500 {
        let snapshot = srv.runs().get(&run_id).unwrap().snapshot();
        if snapshot.steps["second"].status == vai_contract::StepStatus::Running {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    handle
        .cancel(Some("the user changed their mind".into()))
        .await
        .unwrap();
    wait_until(&srv, &run_id, RunState::Cancelled).await;
    let snapshot = srv.runs().get(&run_id).unwrap().snapshot();
    assert_eq!(
        snapshot.steps["second"].status,
        vai_contract::StepStatus::Cancelled
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_client_that_goes_away_mid_run_cancels_it() {
    let dir = scratch("gone");
    std::fs::write(
        dir.join("sleepy.vai-workflow.json"),
        sleepy(60_000).to_string(),
    )
    .unwrap();
    let srv = server(&dir, false, RunBudget::default());
    let running = serve(srv.clone(), None).await;
    let client = connect(&running, None).await;
    let _handle = start_call(&client, "w_sleepy", json!({})).await;
    let run_id = wait_for(&srv, RunState::Running).await;
    client.cancel().await.unwrap();
    wait_until(&srv, &run_id, RunState::Cancelled).await;
}

#[tokio::test]
async fn a_flood_of_runs_is_refused_with_a_retryable_error() {
    let dir = scratch("flood");
    std::fs::write(
        dir.join("sleepy.vai-workflow.json"),
        sleepy(60_000).to_string(),
    )
    .unwrap();
    let budget = RunBudget {
        max_runs: 1,
        ..RunBudget::default()
    };
    let srv = server(&dir, false, budget);
    let running = serve(srv.clone(), None).await;
    let client = connect(&running, None).await;
    let first = start_call(&client, "w_sleepy", json!({})).await;
    let run_id = wait_for(&srv, RunState::Running).await;
    let second = call(&client, "w_sleepy", json!({})).await;
    let body = err(&second);
    assert_eq!(body["error_code"], "TOO_MANY_RUNS");
    assert_eq!(body["retryable"], true);
    // Started without waiting, then cancelled by id: the run manager is shared.
    let cancelled = call(&client, "workflow_cancel", json!({"run_id": run_id})).await;
    assert_eq!(ok(&cancelled)["run_id"], run_id.as_str());
    wait_until(&srv, &run_id, RunState::Cancelled).await;
    let response = first.await_response().await.unwrap();
    let rmcp::model::ServerResult::CallToolResult(result) = response else {
        panic!("{response:?}");
    };
    assert_eq!(err(&result)["error_code"], "RUN_CANCELLED");
    let unknown = call(&client, "workflow_status", json!({"run_id": "run-nope"})).await;
    assert_eq!(err(&unknown)["error_code"], "RUN_NOT_FOUND");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn generate_steps_ask_the_clients_model_when_vai_has_none() {
    let dir = scratch("sampling");
    let running = serve(server(&dir, false, RunBudget::default()), None).await;
    let answer = Seen {
        answer: Some("Rotate keys in Settings.".into()),
        ..Seen::default()
    };
    let client = connect_as(&running, None, answer).await.unwrap();
    let definition = json!({
        "name": "Ask",
        "inputs": {"q": {"type": "string", "required": true}},
        "steps": [{"id": "answer", "tool": "generate", "inputs": {
            "prompt": "{{ inputs.q }}", "systemPrompt": "Be brief.", "maxTokens": 50}}],
        "output": "{{ answer.output }}"
    });
    let ran = call(
        &client,
        "workflow_run",
        json!({"definition": definition, "inputs": {"q": "How do I rotate a key?"}}),
    )
    .await;
    let body = ok(&ran);
    assert_eq!(body["output"]["text"], "Rotate keys in Settings.");
    assert_eq!(
        body["output"]["model"], "client-model-1",
        "the step names the model that answered"
    );
    assert_eq!(body["output"]["provider"], "mcp-client");
    let sampled = client.service().sampled.lock().unwrap().clone();
    assert_eq!(sampled.len(), 1);
    assert_eq!(sampled[0].system_prompt.as_deref(), Some("Be brief."));
    assert_eq!(sampled[0].max_tokens, 50);
    let asked = serde_json::to_string(&sampled[0].messages).unwrap();
    assert!(asked.contains("How do I rotate a key?"), "{asked}");
    client.cancel().await.unwrap();

    // A client that offers no sampling: the step fails saying what to configure.
    let plain = connect(&running, None).await;
    let failed = call(
        &plain,
        "workflow_run",
        json!({"definition": definition, "inputs": {"q": "x"}}),
    )
    .await;
    let body = err(&failed);
    assert_eq!(body["error_code"], "RUN_FAILED");
    assert_eq!(body["context"]["step_id"], "answer");
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .contains("VAI_LLM_PROVIDER"),
        "{body}"
    );
    plain.cancel().await.unwrap();
}

/// A client that declares tasks gets a task at once for a workflow run, polls it to the same
/// result a waiting call gets, and cancels another by its task id.
#[tokio::test]
async fn with_tasks_a_workflow_run_is_a_task_polled_to_its_result_or_cancelled() {
    use rmcp::model::{CallToolRequestParams, CallToolResponse, CancelTaskParams, GetTaskParams};
    use rmcp::model::{TaskPayload, TaskStatus};
    let dir = scratch("tasks");
    std::fs::write(
        dir.join("sleepy.vai-workflow.json"),
        sleepy(60_000).to_string(),
    )
    .unwrap();
    let srv = server(&dir, false, RunBudget::default());
    let running = serve(srv.clone(), None).await;
    let seen = Seen {
        tasks: true,
        ..Seen::default()
    };
    let client = connect_as(&running, None, seen).await.unwrap();
    let start = |name: &str, args: Value| {
        CallToolRequestParams::new(name.to_string())
            .with_arguments(args.as_object().unwrap().clone())
    };

    let response = client
        .call_tool_once(start("w_cost_analysis", json!({"docs": 1000})))
        .await
        .unwrap();
    let CallToolResponse::Task(created) = response else {
        panic!("not a task: {response:?}");
    };
    let id = created.task.task_id.clone();
    assert!(srv.runs().get(&id).is_some(), "the task is the run {id}");
    let mut result = None;
    for _ in 0..500 {
        let got = client
            .get_task(GetTaskParams::new(id.clone()))
            .await
            .unwrap();
        if let TaskPayload::Completed { result: r } = got.task.payload {
            result = Some(r);
            break;
        }
        assert_eq!(got.task.status(), TaskStatus::Working);
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let result = result.expect("the task completed");
    let body = &result["structuredContent"];
    assert_eq!(
        body["output"]["comparison"].as_array().unwrap().len(),
        3,
        "{body}"
    );
    assert_eq!(body["run_id"], id);

    let response = client
        .call_tool_once(start(
            "workflow_run",
            json!({"workflow_id": "file:sleepy.vai-workflow.json"}),
        ))
        .await
        .unwrap();
    let CallToolResponse::Task(created) = response else {
        panic!("not a task: {response:?}");
    };
    let id = created.task.task_id.clone();
    client
        .cancel_task(CancelTaskParams::new(id.clone()))
        .await
        .unwrap();
    wait_until(&srv, &id, RunState::Cancelled).await;
    let got = client.get_task(GetTaskParams::new(id)).await.unwrap();
    assert_eq!(got.task.status(), TaskStatus::Cancelled);
    assert!(
        client
            .get_task(GetTaskParams::new("run-nope"))
            .await
            .is_err()
    );
    client.cancel().await.unwrap();
}
