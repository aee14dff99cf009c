//! What validation refuses in an agent step, naming the step and the field.

use serde_json::{Value, json};

/// The diagnostics of a workflow with one agent step of `inputs`, as (field, message).
fn diagnostics(inputs: Value) -> Vec<(String, String)> {
    let wf = json!({"name": "w", "steps": [{"id": "ask", "tool": "agent", "inputs": inputs}]});
    let compiled = vai_workflow::compile(
        &wf,
        &crate::unconfigured_registry(),
        vai_workflow::Mode::Strict,
    );
    compiled
        .errors()
        .map(|d| {
            assert_eq!(d.step_id.as_deref(), Some("ask"));
            (d.field.clone().unwrap_or_default(), d.message.clone())
        })
        .collect()
}

#[test]
fn validation_names_the_step_and_field() {
    assert_eq!(
        diagnostics(json!({"prompt": "p", "maxIterations": 60})),
        [(
            "inputs.maxIterations".to_string(),
            "agent: input \"maxIterations\" is 60; the limit is 50".to_string()
        )]
    );
    assert_eq!(
        diagnostics(json!({"prompt": "p", "tools": ["query", "search", "qurey", "conditional", "agent"]})),
        [
            (
                "inputs.tools[3]".to_string(),
                "agent: \"conditional\" is control flow, which steers a run and means nothing called alone".to_string()
            ),
            (
                "inputs.tools[4]".to_string(),
                "agent: \"agent\" calls tools itself; a step's tool cannot hand its work to another one".to_string()
            ),
            (
                "inputs.tools[2]".to_string(),
                "agent: \"qurey\" is neither a vai tool nor a workflow (cannot load \"qurey\" here: sub-workflows are found beside a workflow file or among the built-ins); did you mean \"query\"?".to_string()
            ),
        ]
    );
    let bad = diagnostics(
        json!({"prompt": "p", "responseFormat": {"type": "object", "properties": {"when": {"type": "date"}}}}),
    );
    assert_eq!(bad.len(), 1);
    assert_eq!(bad[0].0, "inputs.responseFormat.properties.when.type");
    assert!(bad[0].1.contains("\"date\" is not supported"), "{bad:?}");
    assert!(
        diagnostics(
            json!({"prompt": "p", "tools": ["query", "ingest", "http"], "maxIterations": 50})
        )
        .is_empty()
    );
}
