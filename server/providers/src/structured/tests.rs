use super::*;
use serde_json::json;

fn schema(v: Value) -> Schema {
    Schema::compile(&v).unwrap()
}

/// Every prefix of `text` is accepted, and the whole is complete.
fn writes(s: &Schema, text: &str) -> bool {
    let mut c = s.checker();
    c.feed_str(text) && c.can_end()
}

fn evaluator() -> Schema {
    schema(json!({
        "type": "object",
        "properties": {
            "scores": {
                "type": "object",
                "properties": {
                    "accuracy": {"type": "integer", "minimum": 1, "maximum": 5},
                    "tone": {"type": "number", "minimum": 0, "maximum": 1}
                }
            },
            "reasoning": {"type": "string", "maxLength": 40},
            "tags": {"type": "array", "items": {"enum": ["a", "b"]}, "maxItems": 2},
            "ok": {"type": "boolean"}
        }
    }))
}

#[test]
fn a_valid_answer_is_written_character_by_character_and_is_complete() {
    let s = evaluator();
    let text = r#"{"scores":{"accuracy":4,"tone":0.75},"reasoning":"Clear \"and\" short\u00e9.","tags":["b","a"],"ok":true}"#;
    let mut c = s.checker();
    for (i, ch) in text.chars().enumerate() {
        assert!(c.feed(ch), "refused {ch:?} at {i} of {text}");
    }
    assert!(c.is_complete());
    assert!(s.validate(text).is_ok());
}

#[test]
fn what_the_schema_does_not_allow_is_refused_where_it_begins() {
    let s = evaluator();
    for (bad, why) in [
        (r#" {"#, "white space"),
        (r#"{"x"#, "a key not in the schema"),
        (r#"{"scores":{"accuracy":6"#, "outside the integer range"),
        (r#"{"scores":{"accuracy":0"#, "outside the integer range"),
        (r#"{"scores":{"accuracy":4,"tone":2"#, "past the maximum"),
        (
            r#"{"scores":{"accuracy":4,"tone":-"#,
            "negative with a minimum of 0",
        ),
        (
            r#"{"scores":{"accuracy":4,"tone":0.5},"reasoning":"12345678901234567890123456789012345678901"#,
            "over maxLength",
        ),
        (
            r#"{"scores":{"accuracy":4,"tone":0.5},"reasoning":"x","tags":["c"#,
            "not in the enum",
        ),
        (
            r#"{"scores":{"accuracy":4,"tone":0.5},"reasoning":"x","tags":["a","b","#,
            "over maxItems",
        ),
        (
            r#"{"scores":{"accuracy":4,"tone":0.5},"reasoning":"x","tags":[],"ok":yes"#,
            "not a boolean",
        ),
        (
            r#"{"scores":{"accuracy":4,"tone":0.5}}"#,
            "a property missing",
        ),
    ] {
        let mut c = s.checker();
        assert!(!c.feed_str(bad), "accepted {bad} ({why})");
    }
}

#[test]
fn an_answer_ends_only_when_whole() {
    let s = evaluator();
    let mut c = s.checker();
    assert!(
        c.feed_str(r#"{"scores":{"accuracy":4,"tone":0.5},"reasoning":"x","tags":[],"ok":true"#)
    );
    assert!(!c.can_end() && !c.is_complete());
    assert!(c.feed('}') && c.is_complete());
    assert!(!c.feed('}'), "nothing after the whole answer");

    let n = schema(json!({"type": "number"}));
    assert!(writes(&n, "-12.5e3"));
    let bounded = schema(json!({"type": "number", "minimum": 0, "maximum": 1}));
    assert!(writes(&bounded, "0.25") && writes(&bounded, "1.0"));
    assert!(
        !writes(&bounded, "1e0"),
        "no exponent that could leave the range"
    );
    assert!(
        !bounded.checker().feed_str("1.5"),
        "past the maximum for good"
    );
    assert!(!writes(&n, "1."));
    assert!(!writes(&n, "01"));
    let route = schema(json!({"enum": ["billing", "bill"]}));
    assert!(writes(&route, "\"bill\""));
    assert!(writes(&route, "\"billing\""));
    assert!(!writes(&route, "\"bil"));
    let small = schema(json!({"type": "integer", "minimum": 1, "maximum": 10}));
    assert!(writes(&small, "1") && writes(&small, "10") && !writes(&small, "11"));
}

#[test]
fn finished_answers_are_validated_with_the_place_that_is_wrong() {
    let s = evaluator();
    let err = |text: &str| s.validate(text).unwrap_err();
    assert!(err("not json").contains("not JSON"));
    assert!(
        err(r#"{"scores":{"accuracy":7,"tone":0.5},"reasoning":"","tags":[],"ok":true}"#)
            .contains("the answer.scores.accuracy is 7")
    );
    assert!(
        err(r#"{"scores":{"accuracy":3,"tone":0.5},"reasoning":"","tags":[]}"#)
            .contains("has no \"ok\"")
    );
    assert!(
        err(r#"{"scores":{"accuracy":3,"tone":0.5},"reasoning":"","tags":[],"ok":true,"x":1}"#)
            .contains("\"x\", which the schema does not list")
    );
    // A provider's own structured output may be spaced out.
    assert!(s
        .validate("{ \"scores\": {\"accuracy\": 3, \"tone\": 0.5}, \"reasoning\": \"\", \"tags\": [], \"ok\": false }")
        .is_ok());
}

#[test]
fn schemas_outside_the_subset_are_refused_naming_the_field() {
    for (bad, field) in [
        (
            json!({"type": "object", "properties": {"a": {"type": "date"}}}),
            "responseFormat.properties.a.type",
        ),
        (
            json!({"type": "integer", "minimum": 5, "maximum": 1}),
            "minimum 5 is more than maximum 1",
        ),
        (json!({"type": "array"}), "responseFormat.items"),
        (json!({"enum": []}), "responseFormat.enum"),
        (json!({"enum": [{"a": 1}]}), "responseFormat.enum"),
        (json!("object"), "must be an object"),
        (
            json!({"type": "array", "items": {"type": "string"}, "minItems": 3, "maxItems": 2}),
            "minItems 3",
        ),
    ] {
        let e = Schema::compile(&bad).unwrap_err().to_string();
        assert!(e.contains(field), "{e} should name {field}");
    }
}
