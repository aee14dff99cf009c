//! Runs that wait for a person at a `yield` step: asked through elicitation when the client
//! shows forms, returned as waiting and answered with `workflow_resume` when it does not, an
//! `input_required` task with tasks; and `workflow_plan`, which finds the workflow for a goal.

use super::*;
use rmcp::model::{ElicitationAction, GetTaskParams, TaskPayload, TaskStatus, UpdateTaskParams};
use serde_json::json;
use std::time::Duration;
use vai_contract::RunState;

/// Template → yield (expects `{approved: boolean}`, required) → template reading the answer.
fn approve() -> Value {
    json!({
        "name": "Approve Booking",
        "description": "Ask a person to approve a booking before it is made",
        "steps": [
            {"id": "find", "tool": "template", "inputs": {"text": "flight to Oslo"}},
            {"id": "ok", "tool": "yield", "inputs": {
                "message": "Book the {{ find.output.text }}?",
                "expects": {"type": "object", "properties": {
                    "approved": {"type": "boolean", "description": "Book it"}
                }, "required": ["approved"]}
            }},
            {"id": "done", "tool": "template", "inputs": {"text": "approved={{ ok.output.approved }}"}}
        ],
        "output": "{{ done.output.text }}"
    })
}

/// A server with the approval workflow in its directory, and a client that `seen` describes.
async fn setup(name: &str, seen: Seen) -> (McpServer, Running, Client) {
    let dir = scratch(name);
    std::fs::write(dir.join("approve.vai-workflow.json"), approve().to_string()).unwrap();
    let srv = server(&dir, false, RunBudget::default());
    let running = serve(srv.clone(), None).await;
    let client = connect_as(&running, None, seen).await.unwrap();
    (srv, running, client)
}

fn asking(answers: Vec<ElicitResult>) -> Seen {
    Seen {
        elicit: Some(Arc::new(answers)),
        ..Seen::default()
    }
}

fn accept(content: Value) -> ElicitResult {
    ElicitResult::new(ElicitationAction::Accept).with_content(content)
}

#[tokio::test]
async fn a_client_that_shows_forms_asks_the_person_and_the_run_completes_with_the_answer() {
    let seen = asking(vec![accept(json!({"approved": true}))]);
    let (srv, _running, client) = setup("elicit-accept", seen.clone()).await;

    let result = call(&client, "w_approve_booking", json!({})).await;
    let body = ok(&result);
    assert_eq!(body["status"], "completed", "{body}");
    assert_eq!(body["output"], "approved=true");
    let asked = seen.elicited.lock().unwrap().clone();
    assert_eq!(asked.len(), 1);
    let ElicitRequestParams::FormElicitationParams {
        message,
        requested_schema,
        ..
    } = &asked[0]
    else {
        panic!("not a form: {asked:?}");
    };
    assert_eq!(message, "Book the flight to Oslo?");
    let schema = serde_json::to_value(requested_schema).unwrap();
    assert_eq!(schema["properties"]["approved"]["type"], "boolean");
    assert_eq!(schema["required"], json!(["approved"]));
    let run_id = body["run_id"].as_str().unwrap();
    assert_eq!(
        srv.runs().get(run_id).unwrap().summary().status,
        RunState::Completed
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_run_that_waits_again_is_asked_again() {
    let seen = asking(vec![
        accept(json!({"approved": true})),
        accept(json!({"approved": false})),
    ]);
    let dir = scratch("elicit-twice");
    let mut twice = approve();
    twice["steps"][2] = json!({"id": "sure", "tool": "yield", "inputs": {
        "message": "Really?",
        "expects": {"type": "object", "properties": {"approved": {"type": "boolean"}}}
    }, "dependsOn": ["ok"]});
    twice["steps"].as_array_mut().unwrap().push(
        json!({"id": "done", "tool": "template", "inputs": {
            "text": "{{ ok.output.approved }} then {{ sure.output.approved }}"
        }}),
    );
    std::fs::write(dir.join("twice.vai-workflow.json"), twice.to_string()).unwrap();
    let running = serve(server(&dir, false, RunBudget::default()), None).await;
    let client = connect_as(&running, None, seen.clone()).await.unwrap();

    let result = call(&client, "w_approve_booking", json!({})).await;
    assert_eq!(ok(&result)["output"], "true then false");
    assert_eq!(seen.elicited.lock().unwrap().len(), 2);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn an_invalid_answer_is_asked_again_with_what_was_wrong() {
    let seen = asking(vec![
        accept(json!({"approved": "yes"})),
        accept(json!({"approved": false})),
    ]);
    let (_srv, _running, client) = setup("elicit-again", seen.clone()).await;

    let result = call(&client, "w_approve_booking", json!({})).await;
    assert_eq!(ok(&result)["output"], "approved=false");
    let asked = seen.elicited.lock().unwrap().clone();
    let ElicitRequestParams::FormElicitationParams { message, .. } = &asked[1] else {
        panic!("not a form: {asked:?}");
    };
    assert!(message.contains("not accepted: approved:"), "{message}");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn an_answer_still_invalid_when_asked_again_cancels_the_run() {
    let seen = asking(vec![accept(json!({"approved": "yes"}))]);
    let (srv, _running, client) = setup("elicit-invalid", seen.clone()).await;

    let result = call(&client, "w_approve_booking", json!({})).await;
    let body = err(&result);
    assert_eq!(body["error_code"], "INVALID_ANSWER", "{body}");
    assert_eq!(body["violations"][0]["path"], "approved");
    assert_eq!(seen.elicited.lock().unwrap().len(), 2);
    let run_id = body["context"]["run_id"].as_str().unwrap();
    assert_eq!(
        srv.runs().get(run_id).unwrap().summary().status,
        RunState::Cancelled
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn declining_cancels_the_run_and_says_so() {
    let seen = asking(vec![ElicitResult::new(ElicitationAction::Decline)]);
    let (srv, _running, client) = setup("elicit-decline", seen).await;

    let result = call(&client, "w_approve_booking", json!({})).await;
    let body = err(&result);
    assert_eq!(body["error_code"], "INPUT_DECLINED", "{body}");
    assert!(
        body["message"].as_str().unwrap().contains("declined"),
        "{body}"
    );
    assert_eq!(body["context"]["step_id"], "ok");
    let run_id = body["context"]["run_id"].as_str().unwrap();
    assert_eq!(
        srv.runs().get(run_id).unwrap().summary().status,
        RunState::Cancelled
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn without_forms_the_call_returns_the_wait_and_workflow_resume_answers_it() {
    let (srv, _running, client) = setup("resume", Seen::default()).await;

    let result = call(&client, "w_approve_booking", json!({})).await;
    let body = ok(&result);
    assert_eq!(body["status"], "waiting", "{body}");
    assert_eq!(body["step_id"], "ok");
    assert_eq!(body["message"], "Book the flight to Oslo?");
    assert_eq!(body["expects"]["required"], json!(["approved"]));
    let run_id = body["run_id"].as_str().unwrap().to_string();

    let result = call(
        &client,
        "workflow_resume",
        json!({"run_id": run_id, "input": {"approved": "yes"}}),
    )
    .await;
    let body = err(&result);
    assert_eq!(body["error_code"], "INVALID_ANSWER", "{body}");
    assert_eq!(body["violations"][0]["path"], "approved");
    let result = call(
        &client,
        "workflow_resume",
        json!({"run_id": run_id, "input": {}}),
    )
    .await;
    let body = err(&result);
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .contains("approved: is required"),
        "{body}"
    );
    assert_eq!(
        srv.runs().get(&run_id).unwrap().summary().status,
        RunState::Waiting
    );

    let result = call(
        &client,
        "workflow_resume",
        json!({"run_id": run_id, "input": {"approved": true}}),
    )
    .await;
    let body = ok(&result);
    assert_eq!(body["status"], "completed", "{body}");
    assert_eq!(body["output"], "approved=true");
    assert_eq!(body["run_id"], run_id.as_str());
    let steps: Vec<&str> = body["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["status"].as_str().unwrap())
        .collect();
    assert_eq!(steps, ["completed", "completed", "completed"]);

    let again = call(
        &client,
        "workflow_resume",
        json!({"run_id": run_id, "input": {"approved": true}}),
    )
    .await;
    assert_eq!(err(&again)["error_code"], "RUN_NOT_WAITING");
    let unknown = try_call(
        &client,
        "workflow_resume",
        json!({"run_id": "run-nope", "input": {}}),
    )
    .await
    .unwrap_err();
    assert!(unknown.to_string().contains("run-nope"), "{unknown}");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn workflow_resume_answers_a_run_an_earlier_server_left_waiting() {
    let dir = scratch("resume-saved");
    std::fs::write(dir.join("approve.vai-workflow.json"), approve().to_string()).unwrap();
    let first = server(&dir, false, RunBudget::default());
    let running = serve(first.clone(), None).await;
    let client = connect_as(&running, None, Seen::default()).await.unwrap();
    let body = ok(&call(&client, "w_approve_booking", json!({})).await).clone();
    assert_eq!(body["status"], "waiting", "{body}");
    let run_id = body["run_id"].as_str().unwrap().to_string();
    client.cancel().await.unwrap();
    // The server stops; the run stays waiting in its journal.
    first.runs().shutdown().await;
    drop(running);

    let second = server(&dir, false, RunBudget::default());
    let running = serve(second.clone(), None).await;
    let client = connect_as(&running, None, Seen::default()).await.unwrap();
    let bad = call(
        &client,
        "workflow_resume",
        json!({"run_id": run_id, "input": {"approved": 1}}),
    )
    .await;
    assert_eq!(err(&bad)["error_code"], "INVALID_ANSWER");
    let result = call(
        &client,
        "workflow_resume",
        json!({"run_id": run_id, "input": {"approved": true}}),
    )
    .await;
    let body = ok(&result);
    assert_eq!(body["status"], "completed", "{body}");
    assert_eq!(body["output"], "approved=true");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn with_tasks_a_waiting_run_is_input_required_and_tasks_update_answers_it() {
    use rmcp::model::CallToolResponse;
    let seen = Seen {
        tasks: true,
        ..Seen::default()
    };
    let (_srv, _running, client) = setup("tasks-input", seen).await;
    let response = client
        .call_tool_once(CallToolRequestParams::new("w_approve_booking"))
        .await
        .unwrap();
    let CallToolResponse::Task(created) = response else {
        panic!("not a task: {response:?}");
    };
    let id = created.task.task_id.clone();
    let poll = async |until: TaskStatus| {
        for _ in 0..500 {
            let got = client
                .get_task(GetTaskParams::new(id.clone()))
                .await
                .unwrap();
            if got.task.status() == until {
                return got.task.payload;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        panic!("the task did not become {until:?}");
    };
    let TaskPayload::InputRequired { input_requests } = poll(TaskStatus::InputRequired).await
    else {
        unreachable!()
    };
    assert!(input_requests.contains_key("ok"), "{input_requests:?}");
    let answer = serde_json::to_value(accept(json!({"approved": true}))).unwrap();
    client
        .update_task(UpdateTaskParams::new(
            id.clone(),
            [("ok".to_string(), answer)].into(),
        ))
        .await
        .unwrap();
    let TaskPayload::Completed { result } = poll(TaskStatus::Completed).await else {
        unreachable!()
    };
    assert_eq!(result["structuredContent"]["output"], "approved=true");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn workflow_plan_ranks_the_workflow_for_an_obvious_goal_first() {
    let (_srv, _running, client) = setup("plan", Seen::default()).await;
    let result = call(
        &client,
        "workflow_plan",
        json!({"goal": "ask someone to approve a booking"}),
    )
    .await;
    let body = ok(&result);
    assert!(body["method"].as_str().unwrap().starts_with("lexical"));
    let first = &body["workflows"][0];
    assert_eq!(first["name"], "w_approve_booking", "{body}");
    assert_eq!(first["workflow_id"], "file:approve.vai-workflow.json");
    assert!(first["score"].as_f64().unwrap() > 0.0);
    assert!(
        first["why"].as_str().unwrap().contains("\"booking\""),
        "{first}"
    );
    assert!(body["workflows"].as_array().unwrap().len() <= 5);
    client.cancel().await.unwrap();
}
