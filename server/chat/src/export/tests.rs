use super::*;
use vai_contract::{ChatMode, ChatToolCall};

fn tool_call(name: &str, arguments: Value, output: Value, ok: bool) -> ChatToolCall {
    ChatToolCall {
        id: format!("id-{name}"),
        name: name.into(),
        arguments,
        label: format!("Calling {name}"),
        ok,
        summary: String::new(),
        output: Some(output),
        duration_ms: 3,
    }
}

fn turn(calls: Vec<ChatToolCall>) -> ChatTurn {
    ChatTurn {
        answer: "a".into(),
        mode: ChatMode::Agent,
        tool_calls: calls,
        ..crate::history::tests::turn("error handling", 0)
    }
}

#[test]
fn calls_become_steps_with_real_tools_the_question_as_input_and_references() {
    let first = "Errors are JSON objects with a code and a message";
    let second = "429 responses carry a Retry-After header";
    let search =
        json!({"results": [{"text": first, "score": 0.9}, {"text": second, "score": 0.8}]});
    let workflow = export_workflow(&turn(vec![
        tool_call(
            "vai_search",
            json!({"query": "error handling", "collection": "api_docs", "limit": 5}),
            search,
            true,
        ),
        tool_call("vai_query", json!({"query": "broken"}), json!({}), false),
        tool_call(
            "vai_rerank",
            json!({"query": "error handling in the API", "documents": [first, second]}),
            json!({"results": []}),
            true,
        ),
        tool_call(
            "vai_similarity",
            json!({"text1": second, "text2": "ok"}),
            json!({"similarity": 0.5}),
            true,
        ),
    ]))
    .unwrap();

    let steps = workflow["steps"].as_array().unwrap();
    let ids: Vec<_> = steps.iter().map(|s| s["id"].as_str().unwrap()).collect();
    // The failed call is left out.
    assert_eq!(ids, ["search_1", "rerank_1", "similarity_1"]);
    assert_eq!(steps[0]["tool"], "search");
    assert_eq!(
        steps[0]["inputs"],
        json!({"query": "{{ inputs.question }}", "collection": "api_docs", "limit": 5})
    );
    assert_eq!(
        steps[1]["inputs"]["query"],
        "{{ inputs.question }} in the API"
    );
    assert_eq!(
        steps[1]["inputs"]["documents"],
        json!([
            "{{ search_1.output.results[0].text }}",
            "{{ search_1.output.results[1].text }}"
        ])
    );
    assert_eq!(
        steps[2]["inputs"]["text1"],
        "{{ search_1.output.results[1].text }}"
    );
    assert_eq!(steps[2]["inputs"]["text2"], "ok");
    assert_eq!(workflow["inputs"]["question"]["default"], "error handling");
    assert_eq!(workflow["output"], "{{ similarity_1.output }}");
}

#[test]
fn an_answer_without_tool_calls_has_nothing_to_export() {
    assert_eq!(
        export_workflow(&turn(vec![])),
        Err(ExportError::NoToolCalls)
    );
    let failed = tool_call("vai_query", json!({}), json!({}), false);
    assert_eq!(
        export_workflow(&turn(vec![failed])),
        Err(ExportError::NoToolCalls)
    );
}

#[test]
fn text_with_braces_is_not_turned_into_a_template() {
    let call = tool_call(
        "vai_query",
        json!({"query": "error handling {{ x }}"}),
        json!({}),
        true,
    );
    let workflow = export_workflow(&turn(vec![call])).unwrap();
    assert_eq!(
        workflow["steps"][0]["inputs"]["query"],
        "error handling {{ x }}"
    );
}
