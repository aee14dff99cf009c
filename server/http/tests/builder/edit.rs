//! References, renames, completions and the stable text form over HTTP.

use crate::support::TestApp;
use axum::http::StatusCode;
use serde_json::{Value, json};

/// Every kind of reference to `search`, and strings that only look like one.
fn document() -> Value {
    json!({
        "name": "refs",
        "inputs": {"q": {"type": "string", "description": "the question"}},
        "defaults": {"db": "kb"},
        "steps": [
            {"id": "search", "tool": "lookup", "inputs": {"query": "{{ inputs.q }}"}},
            {"id": "search_more", "tool": "echo", "condition": "search.output.resultCount > 0",
             "dependsOn": ["search"],
             "inputs": {"arrays": ["{{ search.output.results }}", "{{ 'search' }} {{ search_morex }}"]}},
            {"id": "each", "tool": "echo", "forEach": "{{ search.output.results }}",
             "inputs": {"text": "{{ item.text }} #{{ index }}"}},
            {"id": "gate", "tool": "conditional",
             "inputs": {"condition": "{{ search.output.resultCount }} > 1", "then": ["each"], "else": ["search_more"]}},
            {"id": "lp", "tool": "loop", "inputs": {"items": "{{ search.output.results }}", "as": "doc",
             "step": {"tool": "echo", "inputs": {"text": "{{ doc.text }} of {{ search.output.resultCount }}"}}}}
        ],
        "output": {"answer": "{{ search.output.results }}"},
        "ui": {"positions": {"search": {"x": 0, "y": 0}}}
    })
}

#[tokio::test]
async fn references_lists_every_site_with_utf16_offsets() {
    let app = TestApp::new();
    let mut doc = document();
    doc["steps"][0]["inputs"]["query"] = json!("😀 {{ inputs.q }}");
    let (status, body) = app
        .post("/api/workflows/references", json!({"definition": doc}))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let sites = body["references"].as_array().unwrap();
    let query = sites
        .iter()
        .find(|s| s["pointer"] == "/steps/0/inputs/query")
        .unwrap();
    assert_eq!(
        query,
        &json!({"pointer": "/steps/0/inputs/query", "stepId": "search", "field": "inputs.query",
                "kind": "template", "path": "inputs.q", "root": "inputs", "target": "__inputs",
                "start": 6, "end": 14, "rootStart": 6, "rootEnd": 12,
                "templateStart": 3, "templateEnd": 17, "whole": false})
    );
    let targets = |target: &str| {
        sites
            .iter()
            .filter(|s| s["target"] == target)
            .map(|s| s["field"].as_str().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        targets("search"),
        [
            "condition",
            "dependsOn[0]",
            "inputs.arrays[0]",
            "forEach",
            "inputs.condition",
            "inputs.items",
            "inputs.step.inputs.text",
            "output.answer"
        ]
    );
    let then = sites
        .iter()
        .find(|s| s["field"] == "inputs.then[0]")
        .unwrap();
    assert_eq!(
        (&then["kind"], &then["target"]),
        (&json!("id"), &json!("each"))
    );
}

#[tokio::test]
async fn rename_rewrites_every_kind_of_reference_and_nothing_else() {
    let app = TestApp::new();
    let (status, body) = app
        .post(
            "/api/workflows/rewrite",
            json!({"definition": document(), "steps": {"search": "find"}}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let d = &body["definition"];
    let mut expected = document();
    for (pointer, text) in [
        ("/steps/0/id", "find"),
        ("/steps/1/condition", "find.output.resultCount > 0"),
        ("/steps/1/dependsOn/0", "find"),
        ("/steps/1/inputs/arrays/0", "{{ find.output.results }}"),
        ("/steps/2/forEach", "{{ find.output.results }}"),
        (
            "/steps/3/inputs/condition",
            "{{ find.output.resultCount }} > 1",
        ),
        ("/steps/4/inputs/items", "{{ find.output.results }}"),
        (
            "/steps/4/inputs/step/inputs/text",
            "{{ doc.text }} of {{ find.output.resultCount }}",
        ),
        ("/output/answer", "{{ find.output.results }}"),
    ] {
        *expected.pointer_mut(pointer).unwrap() = json!(text);
    }
    expected["ui"]["positions"] = json!({"find": {"x": 0, "y": 0}});
    assert_eq!(d, &expected, "only the references changed");
    let changed: Vec<&str> = body["changed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    assert!(
        changed.contains(&"/steps/4/inputs/step/inputs/text"),
        "{changed:?}"
    );
    assert!(changed.contains(&"/ui/positions"), "{changed:?}");

    // An input rename keeps the declaration in its place.
    let (_, body) = app
        .post(
            "/api/workflows/rewrite",
            json!({"definition": document(), "inputs": {"q": "question"}}),
        )
        .await;
    assert_eq!(
        body["definition"]["inputs"],
        json!({"question": {"type": "string", "description": "the question"}})
    );
    assert_eq!(
        body["definition"]["steps"][0]["inputs"]["query"],
        "{{ inputs.question }}"
    );
}

#[tokio::test]
async fn bad_renames_are_400s_with_a_code_naming_the_id() {
    let app = TestApp::new();
    for (steps, code, id) in [
        (json!({"search": "9lives"}), "INVALID_ID", "9lives"),
        (json!({"search": "defaults"}), "RESERVED_ID", "defaults"),
        (json!({"search": "gate"}), "ID_TAKEN", "gate"),
    ] {
        let (status, body) = app
            .post(
                "/api/workflows/rewrite",
                json!({"definition": document(), "steps": steps}),
            )
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        assert_eq!(body["error"]["code"], code);
        assert!(
            body["error"]["message"].as_str().unwrap().contains(id),
            "{body}"
        );
    }
}

async fn complete(app: &TestApp, step: Option<&str>, field: &str, text: &str) -> Value {
    let cursor = text.encode_utf16().count();
    let (status, body) = app
        .post(
            "/api/workflows/complete",
            json!({"definition": document(), "stepId": step, "field": field, "text": text, "cursor": cursor}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body
}

fn labels(body: &Value) -> Vec<&str> {
    body["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["label"].as_str().unwrap())
        .collect()
}

#[tokio::test]
async fn completions_in_templates_conditions_and_loops() {
    let app = TestApp::new();
    // After `{{ `: the roots this step may read.
    let body = complete(&app, Some("lp"), "inputs.items", "{{ ").await;
    let roots = labels(&body);
    for want in [
        "inputs",
        "defaults",
        "search",
        "search_more",
        "each",
        "gate",
    ] {
        assert!(roots.contains(&want), "{want} in {roots:?}");
    }
    assert!(!roots.contains(&"lp"), "{roots:?}");
    assert_eq!((&body["from"], &body["to"]), (&json!(3), &json!(3)));

    // After `search.output.`: the fields the tool declares.
    let body = complete(&app, Some("lp"), "inputs.items", "{{ search.output.").await;
    assert_eq!(labels(&body), ["results", "resultCount"]);
    assert_eq!(body["items"][0]["kind"], "output");
    assert_eq!(body["items"][0]["detail"], "documents");

    // In a condition, without braces.
    let body = complete(
        &app,
        Some("search_more"),
        "condition",
        "search.output.result",
    )
    .await;
    assert_eq!(labels(&body), ["results", "resultCount"]);
    assert_eq!(body["from"], 14);

    // forEach locals, and the loop's `as`.
    let body = complete(&app, Some("each"), "inputs.text", "{{ item.text }} #{{ i").await;
    assert_eq!(labels(&body), ["item", "index", "inputs"]);
    let body = complete(&app, Some("lp"), "inputs.step.inputs.text", "{{ do").await;
    assert_eq!(labels(&body), ["doc"]);
    assert_eq!(body["items"][0]["kind"], "local");

    // Declared inputs, with type and description.
    let body = complete(&app, None, "output.answer", "{{ inputs.").await;
    assert_eq!(labels(&body), ["q"]);
    assert_eq!(body["items"][0]["detail"], "string — the question");

    // Outside a template: nothing.
    let body = complete(&app, Some("each"), "inputs.text", "plain").await;
    assert_eq!(labels(&body), Vec::<&str>::new());
}

#[tokio::test]
async fn format_returns_the_stable_text() {
    let app = TestApp::new();
    let (status, body) = app
        .post(
            "/api/workflows/format",
            json!({"definition": {"steps": [], "ui": {}, "x": 1, "name": "n"}}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(
        body["text"],
        "{\n  \"name\": \"n\",\n  \"steps\": [],\n  \"x\": 1,\n  \"ui\": {}\n}\n"
    );
}
