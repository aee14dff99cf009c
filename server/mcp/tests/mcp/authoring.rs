//! Writing a workflow through the authoring tools, end to end, and the refusals on the way.

use super::*;
use serde_json::json;
use std::time::Duration;

#[tokio::test]
async fn an_assistant_writes_validates_fixes_saves_and_runs_a_workflow() {
    let dir = scratch("authoring");
    let running = serve(server(&dir, false, RunBudget::default()), None).await;
    let client = connect(&running, None).await;

    // Read a built-in to learn the format.
    let got = call(
        &client,
        "workflow_get",
        json!({"workflow_id": "w_cost_analysis"}),
    )
    .await;
    let body = ok(&got);
    assert_eq!(body["workflow_id"], "builtin:cost-analysis");
    assert_eq!(body["read_only"], true);
    assert_eq!(body["format"], "json");
    assert_eq!(body["parsed"]["name"], "Cost Analysis");
    assert_eq!(body["version"].as_str().unwrap().len(), 16);
    assert!(body["content"].as_str().unwrap().contains("\"steps\""));

    // A draft with a typo in its tool: every problem, placed.
    let draft = costs("estimat");
    let checked = call(&client, "workflow_validate", json!({"definition": draft})).await;
    let body = ok(&checked);
    assert_eq!(body["valid"], false);
    let first = &body["errors"][0];
    assert_eq!(first["path"], "steps[price].tool", "{body}");
    assert!(
        first["message"].as_str().unwrap().contains("estimate"),
        "{first}"
    );
    // Saving it is refused with the same violations, and writes nothing.
    let refused = call(
        &client,
        "workflow_save",
        json!({"name": "my-costs", "definition": draft}),
    )
    .await;
    let failure = err(&refused);
    assert_eq!(failure["error_code"], "WORKFLOW_VALIDATION_FAILED");
    assert_eq!(failure["context"]["step_id"], "price");
    assert_eq!(failure["violations"][0]["path"], "steps[price].tool");
    assert!(std::fs::read_dir(&dir).unwrap().next().is_none());
    // A syntax error in file text comes back with line and column.
    let broken = call(
        &client,
        "workflow_validate",
        json!({"content": "{\n  \"name\": \"x\",\n  \"steps\": [,]\n}"}),
    )
    .await;
    let body = ok(&broken);
    assert_eq!(body["valid"], false);
    assert_eq!(body["diagnostics"][0]["line"], 3, "{body}");

    // Fixed, it checks out: inputs, plan, rendering, readiness.
    let fixed = costs("estimate");
    assert_eq!(
        ok(&call(&client, "workflow_validate", json!({"definition": fixed})).await)["valid"],
        true
    );
    let inputs = call(
        &client,
        "workflow_preview_inputs",
        json!({"definition": fixed}),
    )
    .await;
    assert_eq!(ok(&inputs)["required"], json!(["docs"]));
    let plan = call(&client, "workflow_step_plan", json!({"definition": fixed})).await;
    assert_eq!(ok(&plan)["layers"], json!([["price"]]));
    let rendered = call(
        &client,
        "workflow_preview_rendered",
        json!({"definition": fixed, "inputs": {"docs": 5}}),
    )
    .await;
    assert_eq!(ok(&rendered)["steps"][0]["inputs"]["docs"], 5);
    let not_ready = call(
        &client,
        "workflow_resolve_inputs",
        json!({"definition": fixed}),
    )
    .await;
    assert_eq!(ok(&not_ready)["ready"], false);
    assert_eq!(ok(&not_ready)["missing"], json!(["docs"]));
    let ready = call(
        &client,
        "workflow_resolve_inputs",
        json!({"definition": fixed, "inputs": {"docs": "5"}}),
    )
    .await;
    assert_eq!(ok(&ready)["ready"], true);
    assert_eq!(ok(&ready)["resolved"]["docs"], 5);

    // Saved, it becomes a tool, and the client is told the list changed.
    let before = client.service().tools_changed.load(Ordering::SeqCst);
    let saved = call(
        &client,
        "workflow_save",
        json!({"name": "my-costs", "definition": fixed}),
    )
    .await;
    let body = ok(&saved).clone();
    assert_eq!(body["workflow_id"], "file:my-costs.vai-workflow.json");
    assert_eq!(body["tool"], "w_my_costs");
    let version = body["version"].as_str().unwrap().to_string();
    assert!(dir.join("my-costs.vai-workflow.json").is_file());
    for _ in 0..200 {
        if client.service().tools_changed.load(Ordering::SeqCst) > before {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(client.service().tools_changed.load(Ordering::SeqCst) > before);
    let tools = client.list_all_tools().await.unwrap();
    assert!(tools.iter().any(|t| t.name == "w_my_costs"));
    let ran = call(&client, "w_my_costs", json!({"docs": 2000})).await;
    let out = ok(&ran);
    assert_eq!(out["output"]["docs"], 2000);
    assert_eq!(out["output"]["cost"]["model"], "voyage-4-lite");

    // Optimistic concurrency: no version, a stale one, then the right one.
    let mut changed = fixed.clone();
    changed["description"] = json!("changed");
    let exists = call(
        &client,
        "workflow_save",
        json!({"name": "my-costs", "definition": changed}),
    )
    .await;
    assert_eq!(err(&exists)["error_code"], "WORKFLOW_EXISTS");
    let stale = call(
        &client,
        "workflow_save",
        json!({"name": "my-costs", "definition": changed, "version": "0123456789abcdef"}),
    )
    .await;
    let body = err(&stale);
    assert_eq!(body["error_code"], "VERSION_CONFLICT");
    assert_eq!(body["category"], "conflict");
    let resaved = call(&client, "workflow_save", json!({"name": "file:my-costs.vai-workflow.json", "definition": changed, "version": version})).await;
    let version = ok(&resaved)["version"].as_str().unwrap().to_string();

    // Without a file name, the file is named after the workflow.
    let mut named = fixed.clone();
    named["name"] = json!("Cost Check: Q3 (draft)");
    let unnamed = call(&client, "workflow_save", json!({"definition": named})).await;
    assert_eq!(
        ok(&unnamed)["workflow_id"],
        "file:cost-check-q3-draft.vai-workflow.json"
    );
    named["name"] = json!("✓✓");
    let nameless = call(&client, "workflow_save", json!({"definition": named})).await;
    assert_eq!(err(&nameless)["error_code"], "INVALID_ARGUMENTS");

    // Built-ins cannot be changed; a file can be renamed, then deleted, each at its version.
    let builtin = call(
        &client,
        "workflow_delete",
        json!({"workflow_id": "builtin:cost-analysis", "version": "x"}),
    )
    .await;
    assert_eq!(err(&builtin)["error_code"], "READ_ONLY_WORKFLOW");
    let renamed = call(
        &client,
        "workflow_rename",
        json!({"workflow_id": "w_my_costs", "new_name": "costs2", "version": version}),
    )
    .await;
    assert_eq!(ok(&renamed)["workflow_id"], "file:costs2.vai-workflow.json");
    assert_eq!(ok(&renamed)["tool"], "w_my_costs");
    let stale_delete = call(
        &client,
        "workflow_delete",
        json!({"workflow_id": "costs2", "version": "0123456789abcdef"}),
    )
    .await;
    assert_eq!(err(&stale_delete)["error_code"], "VERSION_CONFLICT");
    let deleted = call(
        &client,
        "workflow_delete",
        json!({"workflow_id": "costs2", "version": version}),
    )
    .await;
    assert_eq!(ok(&deleted)["deleted"], "file:costs2.vai-workflow.json");
    let tools = client.list_all_tools().await.unwrap();
    assert!(!tools.iter().any(|t| t.name == "w_my_costs"));

    // An unsaved definition runs too.
    let direct = call(
        &client,
        "workflow_run",
        json!({"definition": fixed, "inputs": {"docs": 10}}),
    )
    .await;
    assert_eq!(ok(&direct)["output"]["docs"], 10);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn paths_oversized_documents_and_unknown_names_are_refused() {
    let dir = scratch("refusals");
    let running = serve(server(&dir, false, RunBudget::default()), None).await;
    let client = connect(&running, None).await;
    for path in [
        "../etc/passwd",
        "file:../../x.vai-workflow.json",
        "/etc/passwd",
        "a\\b",
    ] {
        let got = call(&client, "workflow_get", json!({"workflow_id": path})).await;
        let body = err(&got);
        assert_eq!(
            body["error_code"], "INVALID_WORKFLOW_NAME",
            "{path}: {body}"
        );
    }
    for name in ["../x", "sub/x", ".hidden"] {
        let saved = call(
            &client,
            "workflow_save",
            json!({"name": name, "definition": costs("estimate")}),
        )
        .await;
        assert_eq!(err(&saved)["error_code"], "INVALID_WORKFLOW_NAME", "{name}");
    }
    let unknown = call(
        &client,
        "workflow_get",
        json!({"workflow_id": "nothing-like-this"}),
    )
    .await;
    assert_eq!(err(&unknown)["error_code"], "WORKFLOW_NOT_FOUND");
    assert_eq!(err(&unknown)["category"], "not_found");
    let neither = call(&client, "workflow_validate", json!({})).await;
    assert_eq!(err(&neither)["error_code"], "INVALID_ARGUMENTS");

    // Above the 5 MiB file limit: refused before the text is parsed.
    let big = format!(
        "{{\"name\": \"big\", \"description\": \"{}\", \"steps\": []}}",
        "x".repeat(6 * 1024 * 1024)
    );
    let saved = call(
        &client,
        "workflow_save",
        json!({"name": "big", "content": big}),
    )
    .await;
    assert_eq!(err(&saved)["error_code"], "WORKFLOW_TOO_LARGE");
    // Above the transport's 8 MiB body limit: refused by HTTP, and the server carries on.
    let huge = "x".repeat(10 * 1024 * 1024);
    let refused = try_call(
        &client,
        "workflow_save",
        json!({"name": "huge", "content": huge}),
    )
    .await;
    assert!(refused.is_err());
    assert!(
        std::fs::read_dir(&dir).unwrap().next().is_none(),
        "nothing written"
    );
    let fresh = connect(&running, None).await;
    let listed = call(&fresh, "workflow_list", json!({})).await;
    assert!(ok(&listed)["workflows"].as_array().unwrap().len() > 5);
    fresh.cancel().await.unwrap();
}

#[tokio::test]
async fn a_file_changed_by_someone_else_shows_in_the_tool_list() {
    let dir = scratch("watched");
    let running = serve(server(&dir, false, RunBudget::default()), None).await;
    let client = connect(&running, None).await;
    let changed = client.service().changed.clone();
    let notified = changed.notified();
    // Another editor writes a workflow into the directory.
    std::fs::write(
        dir.join("theirs.vai-workflow.json"),
        costs("estimate").to_string(),
    )
    .unwrap();
    tokio::time::timeout(Duration::from_secs(10), notified)
        .await
        .expect("tools/list_changed within the poll interval");
    let tools = client.list_all_tools().await.unwrap();
    assert!(
        tools.iter().any(|t| t.name == "w_my_costs"),
        "named after its name field"
    );
    client.cancel().await.unwrap();
}
