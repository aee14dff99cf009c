//! Every tool reads each input's default from its own declaration — the value the builder's form
//! shows — and keeps no second constant. Each tool runs once with only its required inputs; the
//! accessors in `args` record which declared defaults they consulted, and every input with a
//! declared default must be among them. A tool that falls back to a literal of its own
//! (`.unwrap_or(10)`) never consults the declaration, and this test names it.

use crate::args::defaults_read;
use crate::retrieval::testing::Fakes;
use serde_json::{Value, json};
use std::collections::BTreeSet;
use vai_workflow::{Context, ToolCall};

/// Inputs a tool needs to get as far as reading its optional inputs.
fn required_inputs(tool: &str) -> Option<Value> {
    let ns = |mut v: Value| {
        v["db"] = json!("kb");
        v["collection"] = json!("docs");
        v
    };
    Some(match tool {
        "agent" => json!({"prompt": "p"}),
        "aggregate" => ns(json!({"pipeline": [{"$limit": 1}]})),
        "chunk" => json!({"text": "One sentence. Another one."}),
        "embed" => json!({"text": "a query"}),
        "estimate" | "models" | "collections" => json!({}),
        // Nothing listens on the discard port: the request fails after its inputs are read.
        "http" => json!({"url": "http://127.0.0.1:9/"}),
        "ingest" => ns(json!({"text": "Some text to store."})),
        "merge" => json!({"arrays": [[1], [1]]}),
        "query" | "search" => ns(json!({"query": "q"})),
        "rerank" => json!({"query": "q", "documents": ["a", "b"]}),
        _ => return None,
    })
}

#[tokio::test]
async fn every_declared_default_is_read_from_the_declaration() {
    let fakes = Fakes::new();
    fakes
        .seed("kb", "docs", json!([{"text": "alpha"}, {"text": "beta"}]))
        .await;
    let registry = crate::registry(
        fakes.providers(),
        // The http case aims at 127.0.0.1:9 (nothing listens): allowed, so every input is
        // read before the connection is refused.
        crate::http::HttpPolicy {
            flag_hosts: vec!["127.0.0.1".into()],
            ..Default::default()
        },
    );
    let mut checked = 0;
    for spec in registry.specs() {
        let defaulted: BTreeSet<(String, String)> = spec
            .input_schema
            .properties
            .iter()
            .filter(|(_, p)| p.default.is_some())
            .map(|(name, _)| (spec.name.to_string(), name.clone()))
            .collect();
        // `conditional` and `loop` are run by the engine itself.
        let Some(tool) = registry.tool(spec.name) else {
            continue;
        };
        if defaulted.is_empty() {
            continue;
        }
        let inputs = required_inputs(spec.name).unwrap_or_else(|| {
            panic!(
                "{}: declares defaults {defaulted:?}; add its required inputs to this test",
                spec.name
            )
        });
        defaults_read::take();
        let scope = Context::new();
        let defaults = json!({});
        let result = tool
            .run(ToolCall::standalone(
                "step",
                inputs.as_object().cloned().unwrap_or_default(),
                &defaults,
                &scope,
            ))
            .await;
        let read = defaults_read::take();
        let missed: Vec<&(String, String)> = defaulted.difference(&read).collect();
        assert!(
            missed.is_empty(),
            "{}: these declared defaults were not read through args (a second constant?): {missed:?}; the run gave {:?}",
            spec.name,
            result.map(|o| o.output)
        );
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} tools declare defaults");
}

#[test]
fn the_accessors_return_the_declared_default_and_check_bounds() {
    use crate::args;
    use vai_workflow::input_schema::{InputSchema, JsonType, PropertySchema};
    let mut spec = crate::merge::spec();
    spec.input_schema = InputSchema::new()
        .input(
            "n",
            PropertySchema::of(JsonType::Integer)
                .min(1u64)
                .max(5u64)
                .defaults_to(3),
        )
        .input(
            "mode",
            PropertySchema::of(JsonType::String)
                .choices(["a", "b"])
                .defaults_to("b"),
        )
        .input(
            "on",
            PropertySchema::of(JsonType::Boolean).defaults_to(true),
        )
        .input("free", PropertySchema::of(JsonType::Integer));
    let scope = Context::new();
    let defaults = json!({});
    let call = |inputs: Value| {
        ToolCall::standalone(
            "s",
            inputs.as_object().cloned().unwrap_or_default(),
            &defaults,
            &scope,
        )
    };
    let none = call(json!({"n": "", "mode": null}));
    assert_eq!(args::count(&spec, &none, "n").unwrap(), 3);
    assert_eq!(args::choice(&spec, &none, "mode").unwrap(), "b");
    assert!(args::flag(&spec, &none, "on").unwrap());
    assert_eq!(args::opt_count(&spec, &none, "free").unwrap(), None);
    assert!(args::count(&spec, &none, "free").is_err());

    let given = call(json!({"n": "4", "mode": "A", "on": "false", "free": 7}));
    assert_eq!(args::count(&spec, &given, "n").unwrap(), 4);
    assert_eq!(args::choice(&spec, &given, "mode").unwrap(), "a");
    assert!(!args::flag(&spec, &given, "on").unwrap());
    assert_eq!(args::opt_count(&spec, &given, "free").unwrap(), Some(7));

    let bad = call(json!({"n": 6, "mode": "c", "free": 1.5}));
    let message = |e: vai_workflow::ToolError| e.to_string();
    assert_eq!(
        message(args::count(&spec, &bad, "n").unwrap_err()),
        "merge: input \"n\" must be at most 5, got 6"
    );
    assert_eq!(
        message(args::choice(&spec, &bad, "mode").unwrap_err()),
        "merge: input \"mode\" must be one of a, b, got \"c\""
    );
    assert!(message(args::opt_count(&spec, &bad, "free").unwrap_err()).contains("whole number"));
    let zero = call(json!({"n": 0}));
    assert_eq!(
        message(args::count(&spec, &zero, "n").unwrap_err()),
        "merge: input \"n\" must be at least 1, got 0"
    );
}
