//! Tests of structural and semantic validation and planning: one per rule.

use super::*;
use crate::diagnostic::Severity;
use crate::test_support::registry;
use serde_json::json;

fn check(v: Value) -> Compiled {
    compile(&v, &registry(), Mode::Strict)
}

fn codes(c: &Compiled) -> Vec<&'static str> {
    c.diagnostics.iter().map(|d| d.code.as_str()).collect()
}

fn wf(steps: Value) -> Value {
    json!({"name": "t", "steps": steps})
}

fn only(c: &Compiled, code: &str) -> Diagnostic {
    let found: Vec<&Diagnostic> = c.diagnostics.iter().filter(|d| d.code == code).collect();
    assert_eq!(
        found.len(),
        1,
        "expected one {code}, got {:#?}",
        c.diagnostics
    );
    found[0].clone()
}

#[test]
fn a_valid_workflow_yields_a_plan() {
    let c = check(wf(json!([
        {"id": "a", "tool": "search", "inputs": {"query": "{{ inputs.q }}"}},
        {"id": "b", "tool": "search", "inputs": {"query": "x"}},
        {"id": "m", "tool": "echo", "inputs": {"arrays": ["{{ a.output.results }}", "{{ b.output.results }}"]}},
        {"id": "r", "tool": "echo", "inputs": {"docs": "{{ m.output }}"}}
    ])));
    assert!(c.is_valid(), "{:#?}", c.diagnostics);
    let plan = c.plan.unwrap();
    assert_eq!(plan.layer_ids(), vec![vec!["a", "b"], vec!["m"], vec!["r"]]);
    assert_eq!(plan.steps[2].deps, vec![0, 1]);
    let labels: Vec<&str> = plan.edges.iter().map(|e| e.label.as_str()).collect();
    assert!(labels.contains(&"a.output.results"), "{labels:?}");
}

#[test]
fn not_an_object() {
    assert_eq!(codes(&check(json!([1]))), vec!["INVALID_DEFINITION"]);
}

#[test]
fn missing_name_is_an_error_strict_and_info_in_draft() {
    let v = json!({"steps": [{"id": "a", "tool": "echo", "inputs": {}}]});
    assert_eq!(
        only(&check(v.clone()), "MISSING_WORKFLOW_NAME").severity,
        Severity::Error
    );
    let draft = compile(&v, &registry(), Mode::Draft);
    assert!(draft.is_valid());
    assert_eq!(
        only(&draft, "MISSING_WORKFLOW_NAME").severity,
        Severity::Info
    );
}

#[test]
fn missing_or_empty_steps() {
    assert_eq!(codes(&check(json!({"name": "x"}))), vec!["MISSING_STEPS"]);
    assert_eq!(
        codes(&check(json!({"name": "x", "steps": []}))),
        vec!["MISSING_STEPS"]
    );
    // A workflow being built starts empty: an info in draft mode, and it still has a shape.
    for v in [json!({"name": "x"}), json!({"name": "x", "steps": []})] {
        let draft = compile(&v, &registry(), Mode::Draft);
        assert!(draft.is_valid(), "{:#?}", draft.diagnostics);
        assert_eq!(only(&draft, "MISSING_STEPS").severity, Severity::Info);
        assert!(draft.workflow.unwrap().steps.is_empty());
        assert!(draft.outline.is_some());
    }
    let not_an_array = compile(&json!({"name": "x", "steps": 3}), &registry(), Mode::Draft);
    assert_eq!(
        only(&not_an_array, "MISSING_STEPS").severity,
        Severity::Error
    );
}

#[test]
fn bad_input_declarations() {
    let c = check(
        json!({"name": "x", "inputs": {"a": {"type": "date"}, "b": "string"}, "steps": [{"id": "s", "tool": "echo", "inputs": {}}]}),
    );
    let d = only(&c, "INVALID_INPUT_TYPE");
    assert_eq!(d.field.as_deref(), Some("inputs.a.type"));
    assert!(d.message.contains("\"date\""));
    assert_eq!(only(&c, "INVALID_INPUT").field.as_deref(), Some("inputs.b"));
}

#[test]
fn step_ids_missing_duplicate_invalid_reserved() {
    let c = check(wf(json!([
        {"tool": "echo", "inputs": {}},
        {"id": "a", "tool": "echo", "inputs": {}},
        {"id": "a", "tool": "echo", "inputs": {}},
        {"id": "my-step", "tool": "echo", "inputs": {}},
        {"id": "inputs", "tool": "echo", "inputs": {}}
    ])));
    assert_eq!(
        only(&c, "MISSING_STEP_ID").field.as_deref(),
        Some("steps[0].id")
    );
    assert_eq!(only(&c, "DUPLICATE_ID").step_id.as_deref(), Some("a"));
    let invalid: Vec<_> = c
        .diagnostics
        .iter()
        .filter(|d| d.code == "INVALID_STEP_ID")
        .collect();
    assert_eq!(invalid.len(), 2);
    assert!(invalid[1].message.contains("reserved"));
}

#[test]
fn unknown_tool_suggests_the_nearest() {
    let d = only(
        &check(wf(
            json!([{"id": "a", "tool": "serch", "inputs": {"query": "x"}}]),
        )),
        "INVALID_TOOL",
    );
    assert!(
        d.message.contains("did you mean \"search\""),
        "{}",
        d.message
    );
    assert_eq!(d.step_id.as_deref(), Some("a"));
    let d = only(
        &check(wf(json!([{"id": "a", "tool": "zzzzzzzz", "inputs": {}}]))),
        "INVALID_TOOL",
    );
    assert!(d.message.contains("available: "), "{}", d.message);
}

#[test]
fn missing_tool_and_inputs() {
    let c = check(wf(
        json!([{"id": "a", "inputs": {}}, {"id": "b", "tool": "echo"}]),
    ));
    assert_eq!(only(&c, "MISSING_TOOL").step_id.as_deref(), Some("a"));
    assert_eq!(only(&c, "MISSING_INPUTS").step_id.as_deref(), Some("b"));
}

#[test]
fn required_inputs_of_tools_conditional_and_loop() {
    let c = check(wf(json!([
        {"id": "s", "tool": "search", "inputs": {}},
        {"id": "c", "tool": "conditional", "inputs": {"condition": "{{ true }}"}},
        {"id": "l", "tool": "loop", "inputs": {"items": [1]}}
    ])));
    let fields: Vec<_> = c
        .diagnostics
        .iter()
        .filter(|d| d.code == "MISSING_REQUIRED_INPUT")
        .map(|d| (d.step_id.clone().unwrap(), d.field.clone().unwrap()))
        .collect();
    assert_eq!(
        fields,
        vec![
            ("s".into(), "inputs.query".into()),
            ("c".into(), "inputs.then".into()),
            ("l".into(), "inputs.as".into()),
            ("l".into(), "inputs.step".into())
        ]
    );
}

#[test]
fn template_syntax_errors_name_the_field_and_position() {
    let c = check(wf(
        json!([{"id": "a", "tool": "echo", "inputs": {"arrays": ["ok", "x {{ inputs.q + }}"]}}]),
    ));
    let d = only(&c, "TEMPLATE_SYNTAX");
    assert_eq!(d.step_id.as_deref(), Some("a"));
    assert_eq!(d.field.as_deref(), Some("inputs.arrays[1]"));
    assert!(d.message.contains("position"), "{}", d.message);
}

#[test]
fn unclosed_template_is_reported() {
    let c = check(wf(
        json!([{"id": "a", "tool": "echo", "inputs": {"text": "{{ inputs.q"}}]),
    ));
    assert_eq!(
        only(&c, "TEMPLATE_SYNTAX").field.as_deref(),
        Some("inputs.text")
    );
}

#[test]
fn references_to_unknown_steps_suggest_and_are_warnings_in_draft() {
    let v = wf(json!([
        {"id": "search", "tool": "search", "inputs": {"query": "x"}},
        {"id": "b", "tool": "echo", "inputs": {"x": "{{ serch.output.results }}"}}
    ]));
    let d = only(&check(v.clone()), "UNKNOWN_STEP_REF");
    assert_eq!(d.field.as_deref(), Some("inputs.x"));
    assert_eq!(d.referenced_step.as_deref(), Some("serch"));
    assert!(d.message.contains("did you mean \"search\""));
    let draft = compile(&v, &registry(), Mode::Draft);
    assert_eq!(only(&draft, "UNKNOWN_STEP_REF").severity, Severity::Warning);
}

#[test]
fn a_string_literal_is_not_a_reference() {
    let c = check(wf(
        json!([{"id": "a", "tool": "echo", "inputs": {"t": "{{ 'abc' }}", "u": "{{ inputs.x || 'hello.world' }}"}}]),
    ));
    assert!(c.is_valid(), "{:#?}", c.diagnostics);
}

#[test]
fn reading_your_own_output_is_not_upstream() {
    let d = only(
        &check(wf(
            json!([{"id": "a", "tool": "echo", "inputs": {"t": "{{ a.output }}"}}]),
        )),
        "NOT_UPSTREAM",
    );
    assert_eq!(d.step_id.as_deref(), Some("a"));
}

#[test]
fn cycles_are_printed() {
    let c = check(wf(json!([
        {"id": "a", "tool": "echo", "inputs": {"x": "{{ c.output }}"}},
        {"id": "b", "tool": "echo", "inputs": {"x": "{{ a.output }}"}},
        {"id": "c", "tool": "echo", "inputs": {"x": "{{ b.output }}"}},
        {"id": "d", "tool": "echo", "inputs": {}}
    ])));
    let d = only(&c, "CIRCULAR_DEPENDENCY");
    assert_eq!(d.message, "circular dependency: a -> b -> c -> a");
    assert!(c.plan.is_none());
}

#[test]
fn depends_on_orders_and_unknown_ids_are_reported() {
    let c = check(wf(json!([
        {"id": "ingest", "tool": "echo", "inputs": {}},
        {"id": "search", "tool": "echo", "inputs": {}, "dependsOn": ["ingest"]}
    ])));
    assert_eq!(
        c.plan.unwrap().layer_ids(),
        vec![vec!["ingest"], vec!["search"]]
    );
    let c = check(wf(
        json!([{"id": "a", "tool": "echo", "inputs": {}, "dependsOn": ["ingst"]}]),
    ));
    assert_eq!(
        only(&c, "UNKNOWN_DEPENDS_ON").referenced_step.as_deref(),
        Some("ingst")
    );
}

#[test]
fn conditional_branches_become_edges() {
    let c = check(wf(json!([
        {"id": "s", "tool": "search", "inputs": {"query": "x"}},
        {"id": "c", "tool": "conditional", "inputs": {"condition": "{{ s.output.resultCount > 0 }}", "then": ["yes"], "else": ["no", "nope"]}},
        {"id": "yes", "tool": "echo", "inputs": {}},
        {"id": "no", "tool": "echo", "inputs": {}}
    ])));
    let d = only(&c, "UNKNOWN_STEP_REF");
    assert_eq!(d.field.as_deref(), Some("inputs.else"));
    let ok = check(wf(json!([
        {"id": "s", "tool": "search", "inputs": {"query": "x"}},
        {"id": "c", "tool": "conditional", "inputs": {"condition": "{{ s.output.resultCount > 0 }}", "then": ["yes"], "else": ["no"]}},
        {"id": "yes", "tool": "echo", "inputs": {}},
        {"id": "no", "tool": "echo", "inputs": {}}
    ])));
    let plan = ok.plan.unwrap();
    assert_eq!(
        plan.layer_ids(),
        vec![vec!["s"], vec!["c"], vec!["yes", "no"]]
    );
    assert!(
        plan.edges
            .iter()
            .any(|e| e.kind == DependencyKind::Else && plan.steps[e.to].id == "no")
    );
}

#[test]
fn conditions_and_for_each_are_checked() {
    let c = check(wf(json!([
        {"id": "a", "tool": "echo", "inputs": {}, "condition": 5},
        {"id": "b", "tool": "echo", "inputs": {}, "condition": "  "},
        {"id": "c", "tool": "echo", "inputs": {}, "forEach": ["x"]},
        {"id": "d", "tool": "echo", "inputs": {}, "condition": "{{ nothere.output }}"}
    ])));
    assert_eq!(only(&c, "INVALID_CONDITION").step_id.as_deref(), Some("a"));
    assert_eq!(only(&c, "EMPTY_CONDITION").step_id.as_deref(), Some("b"));
    assert_eq!(only(&c, "INVALID_FOREACH").step_id.as_deref(), Some("c"));
    assert_eq!(
        only(&c, "UNKNOWN_STEP_REF").field.as_deref(),
        Some("condition")
    );
}

#[test]
fn item_and_index_only_where_bound() {
    let with = check(wf(
        json!([{"id": "a", "tool": "echo", "forEach": "{{ inputs.list }}", "inputs": {"x": "{{ item.name }} {{ index }}"}}]),
    ));
    assert!(with.is_valid(), "{:#?}", with.diagnostics);
    let without = check(wf(
        json!([{"id": "a", "tool": "echo", "inputs": {"x": "{{ item.name }}"}}]),
    ));
    assert_eq!(
        only(&without, "UNKNOWN_STEP_REF")
            .referenced_step
            .as_deref(),
        Some("item")
    );
    let deferred = check(wf(
        json!([{"id": "a", "tool": "keep", "inputs": {"array": [1], "condition": "item > {{ inputs.min }} && index < 3"}}]),
    ));
    assert!(deferred.is_valid(), "{:#?}", deferred.diagnostics);
}

#[test]
fn loops_bind_their_variable_and_check_the_inner_tool() {
    let ok = check(wf(
        json!([{"id": "l", "tool": "loop", "inputs": {"items": "{{ inputs.qs }}", "as": "q", "step": {"tool": "search", "inputs": {"query": "{{ q }} #{{ _loopIndex }}"}}}}]),
    ));
    assert!(ok.is_valid(), "{:#?}", ok.diagnostics);
    let bad = check(wf(json!([
        {"id": "l", "tool": "loop", "inputs": {"items": [], "as": "q", "step": {"tool": "serch", "inputs": {}}}},
        {"id": "m", "tool": "loop", "inputs": {"items": [], "as": "q", "step": {"tool": "search", "inputs": {}}, "maxIterations": 20000}}
    ])));
    assert!(
        only(&bad, "INVALID_TOOL")
            .message
            .contains("did you mean \"search\"")
    );
    assert_eq!(
        only(&bad, "MISSING_REQUIRED_INPUT").field.as_deref(),
        Some("inputs.step.inputs.query")
    );
    assert_eq!(only(&bad, "LIMIT_EXCEEDED").step_id.as_deref(), Some("m"));
}

#[test]
fn output_references_are_checked() {
    let c = check(
        json!({"name": "t", "steps": [{"id": "a", "tool": "echo", "inputs": {}}], "output": {"x": "{{ b.output }}"}}),
    );
    assert_eq!(
        only(&c, "UNKNOWN_STEP_REF").field.as_deref(),
        Some("output")
    );
}

#[test]
fn every_problem_is_reported_at_once() {
    let c = check(json!({
        "inputs": {"a": {"type": "nope"}},
        "steps": [
            {"id": "x", "tool": "serch", "inputs": {}},
            {"id": "y", "tool": "echo", "inputs": {"t": "{{ z.output }}", "u": "{{ ( }}"}},
            {"id": "y", "tool": "echo", "inputs": {}}
        ]
    }));
    let mut got = codes(&c);
    got.sort();
    assert_eq!(
        got,
        vec![
            "DUPLICATE_ID",
            "INVALID_INPUT_TYPE",
            "INVALID_TOOL",
            "MISSING_WORKFLOW_NAME",
            "TEMPLATE_SYNTAX"
        ]
    );
}

#[test]
fn limits_on_step_fields() {
    let c = check(wf(
        json!([{"id": "a", "tool": "echo", "inputs": {}, "forEach": "{{ inputs.l }}", "forEachConcurrency": 64, "retry": {"maxAttempts": 50}}]),
    ));
    assert_eq!(
        only(&c, "LIMIT_EXCEEDED").field.as_deref(),
        Some("forEachConcurrency")
    );
    assert_eq!(
        only(&c, "INVALID_DEFINITION").field.as_deref(),
        Some("retry.maxAttempts")
    );
}

#[test]
fn draft_mode_reports_names_and_orphans() {
    let v = wf(
        json!([{"id": "a", "tool": "echo", "inputs": {}}, {"id": "b", "tool": "echo", "inputs": {}, "name": "B"}]),
    );
    let c = compile(&v, &registry(), Mode::Draft);
    assert!(c.is_valid());
    assert_eq!(only(&c, "MISSING_STEP_NAME").step_id.as_deref(), Some("a"));
    assert_eq!(
        c.diagnostics
            .iter()
            .filter(|d| d.code == "ORPHAN_NODE")
            .count(),
        2
    );
    assert!(check(v).diagnostics.is_empty());
}

#[test]
fn unknown_keys_survive_a_round_trip() {
    let v = json!({
        "$schema": "x", "name": "t", "description": "d", "version": "1.0.0", "branding": {"icon": "i"},
        "custom": {"k": 1},
        "inputs": {"q": {"type": "string", "required": true, "ui": "textarea"}},
        "defaults": {"db": "x"},
        "steps": [{"id": "a", "name": "A", "tool": "echo", "inputs": {"q": "{{ inputs.q }}"}, "position": {"x": 1, "y": 2}}],
        "output": "{{ a.output }}",
        "formatters": {"default": "json", "extra": true}
    });
    let c = check(v.clone());
    assert!(c.is_valid(), "{:#?}", c.diagnostics);
    assert_eq!(serde_json::to_value(c.workflow.unwrap()).unwrap(), v);
}

#[test]
fn version_must_be_semver() {
    let c = check(
        json!({"name": "t", "version": "one", "steps": [{"id": "a", "tool": "echo", "inputs": {}}]}),
    );
    assert!(c.is_valid());
    assert_eq!(only(&c, "INVALID_VERSION").severity, Severity::Warning);
}

#[test]
fn the_builder_layout_is_typed_kept_and_never_an_error() {
    let v = json!({
        "name": "t",
        "steps": [{"id": "a", "tool": "echo", "inputs": {}}],
        "ui": {
            "positions": {"a": {"x": 10.5, "y": -3}, "__inputs": {"x": -200, "y": 0}, "__output": {"x": 400, "y": 0}},
            "notes": [{"id": "n1", "x": 0, "y": 0, "text": "**why**", "color": "#ff0"}],
            "zoom": 2
        }
    });
    let c = check(v.clone());
    assert!(c.diagnostics.is_empty(), "{:#?}", c.diagnostics);
    let workflow = c.workflow.unwrap();
    let ui = workflow.ui.as_ref().unwrap();
    assert_eq!(ui.positions["a"].x.as_f64(), Some(10.5));
    // The inputs and output nodes are placed by hand too, under their node ids.
    assert_eq!(ui.positions["__output"].x.as_f64(), Some(400.0));
    assert_eq!(ui.notes[0].text, "**why**");
    assert_eq!(ui.extra["zoom"], 2);
    assert!(workflow.extra.is_empty(), "{:?}", workflow.extra);
    assert_eq!(serde_json::to_value(&workflow).unwrap(), v);

    // Malformed: a warning naming the field, the file still runs, and the value is kept.
    let bad = json!({"name": "t", "steps": [{"id": "a", "tool": "echo", "inputs": {}}],
                     "ui": {"positions": {"a": {"x": "left"}}}});
    let c = check(bad.clone());
    assert!(c.is_valid() && c.plan.is_some());
    let d = only(&c, "INVALID_UI");
    assert_eq!(d.severity, Severity::Warning);
    assert_eq!(d.field.as_deref(), Some("ui"));
    assert_eq!(serde_json::to_value(c.workflow.unwrap()).unwrap(), bad);
}
