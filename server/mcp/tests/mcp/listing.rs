//! What a client is offered: tools, resources and prompts.

use super::*;
use rmcp::model::{GetPromptRequestParams, ReadResourceRequestParams, ResourceContents};
use serde_json::json;

#[tokio::test]
async fn a_client_is_offered_vai_tools_workflow_tools_authoring_tools_resources_and_prompts() {
    let dir = scratch("listing");
    let running = serve(server(&dir, false, RunBudget::default()), None).await;
    let client = connect(&running, None).await;
    let info = client.peer_info().expect("initialized");
    assert_eq!(
        info.server_info.as_ref().map(|i| i.name.as_str()),
        Some("vai")
    );
    assert!(
        info.capabilities
            .tools
            .as_ref()
            .and_then(|t| t.list_changed)
            == Some(true)
    );

    let tools = client.list_all_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    for name in [
        "vai_query",
        "vai_search",
        "vai_rerank",
        "vai_embed",
        "vai_similarity",
        "vai_collections",
        "vai_models",
        "vai_ingest",
        "vai_explain",
        "vai_estimate",
        "vai_chunk",
        "w_cost_analysis",
        "w_rag_chat",
        "workflow_list",
        "workflow_get",
        "workflow_validate",
        "workflow_preview_inputs",
        "workflow_preview_rendered",
        "workflow_step_plan",
        "workflow_resolve_inputs",
        "workflow_save",
        "workflow_rename",
        "workflow_run",
        "workflow_status",
        "workflow_delete",
        "workflow_cancel",
    ] {
        assert!(names.contains(&name), "{name} missing from {names:?}");
    }
    for name in [
        "vai_merge",
        "vai_conditional",
        "vai_loop",
        "vai_generate",
        "vai_http",
    ] {
        assert!(!names.contains(&name), "{name} listed");
    }
    for t in &tools {
        // What Claude Desktop, the Claude API and OpenAI accept.
        assert!(
            t.name.len() <= 64
                && t.name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-'),
            "{}",
            t.name
        );
        assert_eq!(
            t.input_schema.get("type"),
            Some(&json!("object")),
            "{}",
            t.name
        );
        let a = t.annotations.as_ref().expect("annotations");
        assert!(
            a.read_only_hint.is_some() && a.open_world_hint.is_some(),
            "{}",
            t.name
        );
        assert!(
            t.description.as_ref().is_some_and(|d| !d.is_empty()),
            "{}",
            t.name
        );
    }

    let tool = |name: &str| tools.iter().find(|t| t.name == name).unwrap();
    let query = tool("vai_query");
    assert_eq!(query.input_schema["required"], json!(["query"]));
    assert_eq!(
        query.input_schema["properties"]["limit"]["default"],
        json!(10)
    );
    let outputs = &query.output_schema.as_ref().unwrap()["properties"];
    assert!(outputs.get("results").is_some() && outputs.get("resultCount").is_some());
    assert_eq!(
        query.annotations.as_ref().unwrap().read_only_hint,
        Some(true)
    );
    let ingest = tool("vai_ingest").annotations.clone().unwrap();
    assert_eq!(
        (ingest.read_only_hint, ingest.idempotent_hint),
        (Some(false), Some(false))
    );

    // A workflow's inputs are its tool's arguments; its steps are outlined.
    let costs = tool("w_cost_analysis");
    assert_eq!(costs.input_schema["required"], json!(["docs"]));
    assert_eq!(
        costs.input_schema["properties"]["months"]["default"],
        json!(12)
    );
    assert_eq!(
        costs.input_schema["properties"]["docs"]["type"],
        json!("number")
    );
    let description = costs.description.as_deref().unwrap();
    assert!(
        description.contains("cost_large (estimate) ∥ cost_balanced (estimate)"),
        "{description}"
    );
    let a = costs.annotations.as_ref().unwrap();
    assert_eq!(
        (a.read_only_hint, a.open_world_hint),
        (Some(true), Some(false))
    );
    assert_eq!(
        tool("workflow_delete")
            .annotations
            .as_ref()
            .unwrap()
            .destructive_hint,
        Some(true)
    );

    let resources = client.list_all_resources().await.unwrap();
    let uris: Vec<&str> = resources.iter().map(|r| r.uri.as_str()).collect();
    for uri in [
        "vai://schema/workflow",
        "vai://docs/workflows.md",
        "vai://catalog/tools",
        "vai://workflows/cost_analysis",
    ] {
        assert!(uris.contains(&uri), "{uri} missing from {uris:?}");
    }
    let read = |uri: &str| {
        let client = &client;
        let uri = uri.to_string();
        async move {
            let result = client
                .read_resource(ReadResourceRequestParams::new(uri))
                .await
                .unwrap();
            match &result.contents[0] {
                ResourceContents::TextResourceContents { text, .. } => text.clone(),
                other => panic!("{other:?}"),
            }
        }
    };
    let schema: Value = serde_json::from_str(&read("vai://schema/workflow").await).unwrap();
    assert!(schema["properties"].get("steps").is_some(), "{schema}");
    assert!(read("vai://docs/workflows.md").await.contains("{{"));
    let catalog: Value = serde_json::from_str(&read("vai://catalog/tools").await).unwrap();
    assert!(
        catalog["tools"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["name"] == "merge")
    );
    let workflow: Value =
        serde_json::from_str(&read("vai://workflows/cost_analysis").await).unwrap();
    assert_eq!(workflow["name"], "Cost Analysis");
    let missing = client
        .read_resource(ReadResourceRequestParams::new(
            "vai://workflows/../../etc/passwd",
        ))
        .await;
    assert!(missing.is_err());

    let prompts = client.list_all_prompts().await.unwrap();
    let names: Vec<&str> = prompts.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "workflow_author",
            "workflow_extend",
            "workflow_fix_validation",
            "workflow_run_with_inputs"
        ]
    );
    let prompt = client
        .get_prompt(
            GetPromptRequestParams::new("workflow_author").with_arguments(
                json!({"goal": "answer questions about invoices"})
                    .as_object()
                    .unwrap()
                    .clone(),
            ),
        )
        .await
        .unwrap();
    let text = format!("{:?}", prompt.messages);
    for needle in [
        "answer questions about invoices",
        "vai://schema/workflow",
        "workflow_validate",
        "workflow_save",
    ] {
        assert!(text.contains(needle), "{needle} missing from {text}");
    }
    let run = client
        .get_prompt(
            GetPromptRequestParams::new("workflow_run_with_inputs").with_arguments(
                json!({"workflow_id": "w_cost_analysis"})
                    .as_object()
                    .unwrap()
                    .clone(),
            ),
        )
        .await
        .unwrap();
    let text = format!("{:?}", run.messages);
    assert!(
        text.contains("docs (number, required)") && text.contains("w_cost_analysis"),
        "{text}"
    );
    assert!(
        client
            .get_prompt(GetPromptRequestParams::new("workflow_extend"))
            .await
            .is_err()
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn read_only_lists_only_tools_that_change_nothing() {
    let dir = scratch("read-only");
    let running = serve(server(&dir, true, RunBudget::default()), None).await;
    let client = connect(&running, None).await;
    let tools = client.list_all_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    assert!(names.contains(&"workflow_validate") && names.contains(&"w_cost_analysis"));
    for hidden in [
        "workflow_save",
        "workflow_delete",
        "workflow_run",
        "vai_ingest",
        "vai_aggregate",
    ] {
        assert!(!names.contains(&hidden), "{hidden} listed read-only");
    }
    assert!(
        tools
            .iter()
            .all(|t| t.annotations.as_ref().unwrap().read_only_hint == Some(true))
    );
    // A hidden tool cannot be called either.
    let refused = try_call(&client, "workflow_save", json!({"name": "x"})).await;
    assert!(refused.is_err(), "{refused:?}");
    // Nothing tells the assistant to save.
    let info = client.peer_info().unwrap();
    let instructions = info.instructions.as_deref().unwrap();
    assert!(instructions.contains("read-only") && !instructions.contains("workflow_save"));
    let prompt = client
        .get_prompt(
            GetPromptRequestParams::new("workflow_author").with_arguments(
                json!({"goal": "answer questions"})
                    .as_object()
                    .unwrap()
                    .clone(),
            ),
        )
        .await
        .unwrap();
    let text = serde_json::to_string(&prompt.messages).unwrap();
    assert!(text.contains("This vai server is read-only"), "{text}");
    client.cancel().await.unwrap();
}
