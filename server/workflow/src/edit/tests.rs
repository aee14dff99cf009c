//! References and renames over documents holding every kind of reference.

use super::*;
use crate::test_support::{FnTool, registry_with};
use crate::tool::Registry;
use serde_json::{Value, json};
use std::sync::Arc;

/// The test registry plus `docs`, a tool that declares outputs.
pub(super) fn registry() -> Registry {
    registry_with(|r| {
        let mut tool = FnTool::new("docs", &[], |_| Ok(json!({})));
        tool.spec_mut().outputs = &[("results", "documents found"), ("resultCount", "how many")];
        r.register(Arc::new(tool));
    })
}

/// One document with every kind of reference, and things that only look like references.
pub(super) fn every_kind() -> Value {
    json!({
        "name": "every kind",
        "inputs": {"q": {"type": "string", "description": "the question"}, "min": {"type": "number"}},
        "defaults": {"db": "kb"},
        "steps": [
            {"id": "search", "tool": "docs", "inputs": {"query": "{{ inputs.q }}", "db": "{{ defaults.db }}"}},
            {"id": "search_2", "tool": "echo", "condition": "search.output.resultCount > 0",
             "dependsOn": ["search"],
             "inputs": {"arrays": ["{{ search.output.results }}", "x {{ search_2x }} {{ 'search' }}"]}},
            {"id": "each", "tool": "echo", "forEach": "{{ search.output.results }}",
             "inputs": {"t": "{{ item.text }}/{{ index }}", "deep": {"list": [{"v": "{{search.output}}"}]}}},
            {"id": "gate", "tool": "conditional",
             "inputs": {"condition": "{{ search.output.resultCount }} > 1", "then": ["each"], "else": ["search_2"]}},
            {"id": "kept", "tool": "keep",
             "inputs": {"array": "{{ search.output.results }}", "condition": "item.score > {{ inputs.min }}"}},
            {"id": "lp", "tool": "loop", "inputs": {"items": "{{ search.output.results }}", "as": "doc",
             "step": {"tool": "echo", "inputs": {"text": "{{ doc.text }} {{ search.output.resultCount }}"}}}},
            {"id": "legacy", "tool": "echo", "inputs": {"x": "{{ steps.search.output }}", "y": "{{ inputs['q'] }}"}}
        ],
        "output": {"answer": "{{ search.output.results }}", "q": "😀 {{ inputs.q }}"},
        "ui": {"positions": {"search": {"x": 1, "y": 2}, "gate": {"x": 3, "y": 4}}, "notes": [{"id": "n", "x": 0, "y": 0, "text": "search is first"}]}
    })
}

fn sites(definition: &Value) -> Vec<ReferenceSite> {
    references(definition, &registry())
}

fn at<'a>(sites: &'a [ReferenceSite], pointer: &str) -> Vec<&'a ReferenceSite> {
    sites.iter().filter(|s| s.pointer == pointer).collect()
}

/// The UTF-16 slice `[start, end)` of `text`, as JavaScript's `slice` gives it.
fn slice(text: &str, start: usize, end: usize) -> String {
    let units: Vec<u16> = text.encode_utf16().collect();
    String::from_utf16(&units[start..end]).unwrap()
}

#[test]
fn every_kind_of_reference_is_found_where_it_is_written() {
    let doc = every_kind();
    let all = sites(&doc);

    let query = at(&all, "/steps/0/inputs/query");
    assert_eq!(query.len(), 1);
    let q = query[0];
    assert_eq!(
        (q.step_id.as_deref(), q.field.as_str(), q.kind),
        (Some("search"), "inputs.query", ReferenceKind::Template)
    );
    assert_eq!((q.path.as_str(), q.root.as_str()), ("inputs.q", "inputs"));
    assert_eq!(q.target.as_deref(), Some(INPUTS_NODE));
    assert_eq!((q.start, q.end, q.root_start, q.root_end), (3, 11, 3, 9));
    assert_eq!((q.template_start, q.template_end), (Some(0), Some(14)));
    assert!(q.whole);

    let db = at(&all, "/steps/0/inputs/db")[0];
    assert_eq!((db.root.as_str(), db.target.as_deref()), ("defaults", None));

    let cond = at(&all, "/steps/1/condition")[0];
    assert_eq!(cond.kind, ReferenceKind::Expression);
    assert_eq!(cond.target.as_deref(), Some("search"));
    assert_eq!(cond.template_start, None);
    assert!(!cond.whole);

    let dep = at(&all, "/steps/1/dependsOn/0")[0];
    assert_eq!(
        (dep.kind, dep.field.as_str(), dep.path.as_str()),
        (ReferenceKind::Id, "dependsOn[0]", "search")
    );
    assert!(dep.whole);

    let arrays = at(&all, "/steps/1/inputs/arrays/0")[0];
    assert_eq!(arrays.field, "inputs.arrays[0]");
    let mixed = at(&all, "/steps/1/inputs/arrays/1");
    assert_eq!(
        mixed.len(),
        1,
        "the string literal 'search' is no reference"
    );
    assert_eq!(mixed[0].path, "search_2x");
    assert_eq!(mixed[0].target, None, "unknown ids point nowhere");
    assert!(!mixed[0].whole);

    let locals: Vec<&ReferenceSite> = at(&all, "/steps/2/inputs/t");
    assert_eq!(
        locals.iter().map(|s| s.root.as_str()).collect::<Vec<_>>(),
        ["item", "index"]
    );
    assert!(locals.iter().all(|s| s.target.is_none()));
    assert_eq!(
        at(&all, "/steps/2/inputs/deep/list/0/v")[0].field,
        "inputs.deep.list[0].v"
    );
    assert_eq!(
        at(&all, "/steps/2/forEach")[0].kind,
        ReferenceKind::Template
    );

    let gate = at(&all, "/steps/3/inputs/condition")[0];
    assert_eq!(
        gate.kind,
        ReferenceKind::Template,
        "inside {{ }} of a condition"
    );
    assert!(!gate.whole);
    let then = at(&all, "/steps/3/inputs/then/0")[0];
    assert_eq!(
        (then.kind, then.field.as_str(), then.target.as_deref()),
        (ReferenceKind::Id, "inputs.then[0]", Some("each"))
    );
    assert_eq!(at(&all, "/steps/3/inputs/else/0")[0].path, "search_2");

    let kept = at(&all, "/steps/4/inputs/condition");
    assert_eq!(kept[0].kind, ReferenceKind::Expression);
    assert_eq!(
        (kept[0].root.as_str(), kept[0].target.as_deref()),
        ("item", None)
    );
    assert_eq!(kept[1].kind, ReferenceKind::Template);
    assert_eq!(kept[1].target.as_deref(), Some(INPUTS_NODE));

    let inner = at(&all, "/steps/5/inputs/step/inputs/text");
    assert_eq!(inner[0].root, "doc");
    assert_eq!(inner[0].target, None, "the loop's `as` is a local");
    assert_eq!(inner[1].target.as_deref(), Some("search"));
    assert_eq!(inner[1].field, "inputs.step.inputs.text");

    let legacy = at(&all, "/steps/6/inputs/x")[0];
    assert_eq!(
        (legacy.root.as_str(), legacy.target.as_deref()),
        ("steps", Some("search"))
    );
    let text = "{{ steps.search.output }}";
    assert_eq!(slice(text, legacy.root_start, legacy.root_end), "search");
    assert_eq!(slice(text, legacy.start, legacy.end), "steps.search.output");
    let bracket = at(&all, "/steps/6/inputs/y")[0];
    assert_eq!(bracket.path, "inputs.q");

    let out = at(&all, "/output/q")[0];
    assert_eq!(out.step_id, None);
    assert_eq!(out.field, "output.q");
    assert_eq!(slice("😀 {{ inputs.q }}", out.start, out.end), "inputs.q");
    assert_eq!((out.start, out.template_start), (6, Some(3)));
    assert!(!out.whole, "text around the template");
}

#[test]
fn strings_that_do_not_parse_hold_no_references() {
    let doc = json!({"name": "x", "steps": [
        {"id": "a", "tool": "echo", "inputs": {"bad": "{{ a. }} {{ b.output }}", "open": "{{ b.output"}},
        {"id": "b", "tool": "echo", "condition": "b.output >", "inputs": {}}
    ]});
    assert!(sites(&doc).is_empty(), "{:#?}", sites(&doc));
}

fn rename(
    doc: &Value,
    steps: &[(&str, &str)],
    inputs: &[(&str, &str)],
) -> Result<Rewritten, RenameError> {
    let renames = Renames {
        steps: steps
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect(),
        inputs: inputs
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect(),
    };
    rewrite(doc, &renames, &registry())
}

#[test]
fn renaming_a_step_rewrites_every_reference_and_nothing_else() {
    let doc = every_kind();
    let out = rename(&doc, &[("search", "found")], &[]).unwrap();
    let d = &out.definition;
    let s = |p: &str| d.pointer(p).and_then(Value::as_str).unwrap().to_string();
    assert_eq!(s("/steps/0/id"), "found");
    assert_eq!(s("/steps/0/inputs/query"), "{{ inputs.q }}");
    assert_eq!(
        s("/steps/1/id"),
        "search_2",
        "an id that starts with the old one"
    );
    assert_eq!(s("/steps/1/condition"), "found.output.resultCount > 0");
    assert_eq!(s("/steps/1/dependsOn/0"), "found");
    assert_eq!(s("/steps/1/inputs/arrays/0"), "{{ found.output.results }}");
    assert_eq!(
        s("/steps/1/inputs/arrays/1"),
        "x {{ search_2x }} {{ 'search' }}"
    );
    assert_eq!(s("/steps/2/forEach"), "{{ found.output.results }}");
    assert_eq!(s("/steps/2/inputs/t"), "{{ item.text }}/{{ index }}");
    assert_eq!(
        s("/steps/2/inputs/deep/list/0/v"),
        "{{found.output}}",
        "spacing kept"
    );
    assert_eq!(
        s("/steps/3/inputs/condition"),
        "{{ found.output.resultCount }} > 1"
    );
    assert_eq!(s("/steps/3/inputs/else/0"), "search_2");
    assert_eq!(s("/steps/4/inputs/array"), "{{ found.output.results }}");
    assert_eq!(
        s("/steps/4/inputs/condition"),
        "item.score > {{ inputs.min }}"
    );
    assert_eq!(s("/steps/5/inputs/items"), "{{ found.output.results }}");
    assert_eq!(
        s("/steps/5/inputs/step/inputs/text"),
        "{{ doc.text }} {{ found.output.resultCount }}"
    );
    assert_eq!(s("/steps/6/inputs/x"), "{{ steps.found.output }}");
    assert_eq!(s("/output/answer"), "{{ found.output.results }}");
    let keys: Vec<&String> = d["ui"]["positions"].as_object().unwrap().keys().collect();
    assert_eq!(keys, ["found", "gate"], "positions follow, in their order");
    assert_eq!(
        d["ui"]["notes"][0]["text"], "search is first",
        "notes are prose"
    );
    assert!(out.changed.contains(&"/steps/0/id".to_string()));
    assert!(out.changed.contains(&"/ui/positions".to_string()));
    assert!(out.changed.contains(&"/steps/1/dependsOn/0".to_string()));
    assert!(
        !out.changed
            .contains(&"/steps/1/inputs/arrays/1".to_string())
    );

    // Everything else is byte for byte what it was.
    let back = rename(&out.definition, &[("found", "search")], &[])
        .unwrap()
        .definition;
    assert_eq!(back, doc);
}

#[test]
fn renaming_an_input_rewrites_its_references_and_keeps_its_place() {
    let doc = every_kind();
    let out = rename(&doc, &[], &[("q", "question")]).unwrap().definition;
    let keys: Vec<&String> = out["inputs"].as_object().unwrap().keys().collect();
    assert_eq!(keys, ["question", "min"]);
    assert_eq!(out["inputs"]["question"]["description"], "the question");
    assert_eq!(out["steps"][0]["inputs"]["query"], "{{ inputs.question }}");
    assert_eq!(
        out["steps"][6]["inputs"]["y"], "{{ inputs.question }}",
        "a bracket becomes a name"
    );
    assert_eq!(out["output"]["q"], "😀 {{ inputs.question }}");
    assert_eq!(
        out["steps"][4]["inputs"]["condition"],
        "item.score > {{ inputs.min }}"
    );
}

#[test]
fn swaps_and_pasted_groups() {
    let doc = json!({"name": "x", "steps": [
        {"id": "a", "tool": "echo", "inputs": {"v": "{{ b.output }}"}},
        {"id": "b", "tool": "echo", "inputs": {"v": "{{ outside.output }}"}}
    ]});
    let out = rename(&doc, &[("a", "b"), ("b", "a")], &[])
        .unwrap()
        .definition;
    assert_eq!(out["steps"][0]["id"], "b");
    assert_eq!(out["steps"][0]["inputs"]["v"], "{{ a.output }}");
    // A paste: ids made unique, references inside the group follow, the rest are kept.
    let out = rename(&doc, &[("a", "a_1"), ("b", "b_1")], &[])
        .unwrap()
        .definition;
    assert_eq!(out["steps"][0]["inputs"]["v"], "{{ b_1.output }}");
    assert_eq!(out["steps"][1]["inputs"]["v"], "{{ outside.output }}");
}

#[test]
fn bad_new_names_are_refused_with_a_code_naming_the_id() {
    let doc = every_kind();
    let code = |steps: &[(&str, &str)], inputs: &[(&str, &str)]| {
        let e = rename(&doc, steps, inputs).unwrap_err();
        assert!(e.to_string().contains('"'), "{e}");
        match e {
            RenameError::InvalidId(_) => "INVALID_ID",
            RenameError::ReservedId(_) => "RESERVED_ID",
            RenameError::IdTaken(_) => "ID_TAKEN",
        }
    };
    assert_eq!(code(&[("search", "1x")], &[]), "INVALID_ID");
    assert_eq!(code(&[("search", "my-step")], &[]), "INVALID_ID");
    assert_eq!(code(&[("search", "inputs")], &[]), "RESERVED_ID");
    assert_eq!(code(&[("search", "gate")], &[]), "ID_TAKEN");
    assert_eq!(code(&[("each", "z"), ("gate", "z")], &[]), "ID_TAKEN");
    assert_eq!(code(&[], &[("q", "min")]), "ID_TAKEN");
    assert_eq!(code(&[], &[("q", "a b")]), "INVALID_ID");
    assert_eq!(
        rename(&doc, &[("search", "inputs")], &[])
            .unwrap_err()
            .to_string(),
        "\"inputs\" is a reserved name; choose another"
    );
}

#[test]
fn renaming_a_step_follows_the_routes_that_list_it_and_leaves_route_ids_alone() {
    let doc = json!({"name": "r", "steps": [
        {"id": "triage", "tool": "router", "inputs": {"input": "{{ inputs.q }}", "routes": [
            {"id": "debug", "description": "see {{ debug.output }}", "steps": ["debug"]},
            {"id": "other", "description": "rest", "steps": []}
        ]}},
        {"id": "debug", "tool": "echo", "inputs": {}}
    ]});
    let out = rename(&doc, &[("debug", "fix")], &[]).unwrap();
    let routes = &out.definition["steps"][0]["inputs"]["routes"];
    assert_eq!(routes[0]["steps"], json!(["fix"]));
    assert_eq!(
        routes[0]["id"], "debug",
        "a route id is not a step reference"
    );
    assert_eq!(routes[0]["description"], "see {{ fix.output }}");
}
