//! Tests of sizes, the nesting bound and budgets.

use super::*;
use serde_json::json;

/// `depth` arrays around `inner`, built without recursion.
fn nested(depth: usize, inner: Value) -> Value {
    (0..depth).fold(inner, |v, _| Value::Array(vec![v]))
}

#[test]
fn sizes_are_compact_json_lengths() {
    for v in [
        json!(null),
        json!(true),
        json!(false),
        json!(0),
        json!(7),
        json!(-12),
        json!(u64::MAX),
        json!(i64::MIN),
        json!(0.25),
        json!(-1.5e-7),
        json!(1e300),
        json!("héllo"),
        json!([]),
        json!({}),
        json!([1, [2, 3], {"a": "b", "cd": [null, false]}]),
        json!({"results": [{"id": 1, "score": 0.5, "text": "doc"}], "resultCount": 1}),
    ] {
        let expected = serde_json::to_string(&v).unwrap().len() as u64;
        assert_eq!(
            measure(&v, 0, Limit::ValueBytes(1 << 20)),
            Ok(expected),
            "{v}"
        );
        let budget = Budget::new(Limit::ValueBytes(1 << 20));
        assert_eq!(budget.copy(&v, 0).unwrap(), v);
        assert_eq!(budget.used(), expected, "{v}");
    }
    // Escaped characters count once.
    assert_eq!(measure(&json!("a\"b\n"), 0, Limit::ValueBytes(100)), Ok(6));
}

#[test]
fn nesting_is_bounded_wherever_the_value_sits() {
    let ok = nested(MAX_DEPTH, json!(1));
    assert!(measure(&ok, 0, Limit::ValueBytes(1 << 20)).is_ok());
    assert_eq!(
        measure(&ok, 1, Limit::ValueBytes(1 << 20)),
        Err(Limit::Depth)
    );
    let budget = Budget::new(Limit::ValueBytes(1 << 20));
    assert_eq!(
        budget.copy(&nested(MAX_DEPTH + 1, json!(1)), 0),
        Err(Limit::Depth)
    );
    // A value far deeper than the stack could walk is refused at the bound. (Dropping it
    // would overflow the stack, so it is taken apart level by level.)
    let mut deep = nested(100_000, json!(null));
    assert_eq!(
        measure(&deep, 0, Limit::ValueBytes(u64::MAX)),
        Err(Limit::Depth)
    );
    while let Value::Array(mut items) = deep {
        deep = items.pop().unwrap_or(Value::Null);
    }
}

#[test]
fn budgets_refuse_before_the_limit_is_passed() {
    let budget = Budget::new(Limit::StepOutputBytes(10));
    assert_eq!(budget.charge(6), Ok(()));
    assert_eq!(budget.remaining(), 4);
    assert_eq!(
        budget.copy(&json!("abcdef"), 0),
        Err(Limit::StepOutputBytes(10))
    );
    // A refused copy charges nothing.
    assert_eq!(budget.used(), 6);
    assert_eq!(budget.charge(5), Err(Limit::StepOutputBytes(10)));

    let big = Value::Array(vec![json!("x".repeat(100)); 1000]);
    let budget = Budget::new(Limit::ValueBytes(1000));
    assert_eq!(budget.measure(&big, 0), Err(Limit::ValueBytes(1000)));
}

#[test]
fn text_is_appended_within_the_budget() {
    let budget = Budget::new(Limit::ValueBytes(20));
    let mut out = String::new();
    budget.push_text(&mut out, Some(&json!("ab"))).unwrap();
    budget.push_text(&mut out, None).unwrap();
    budget.push_text(&mut out, Some(&json!(3.0))).unwrap();
    budget.push_text(&mut out, Some(&json!(null))).unwrap();
    budget
        .push_text(&mut out, Some(&json!([1, {"a": "b"}])))
        .unwrap();
    assert_eq!(out, "ab3null[1,{\"a\":\"b\"}]");
    assert_eq!(
        budget.push_text(&mut out, Some(&json!(["more"]))),
        Err(Limit::ValueBytes(20))
    );
    assert_eq!(out, "ab3null[1,{\"a\":\"b\"}]");
}

#[test]
fn errors_name_the_field_the_limit_and_its_key() {
    let e = LimitError::new("inputs.text", Limit::ValueBytes(16 << 20));
    assert_eq!(
        e.to_string(),
        "inputs.text: the value would be larger than 16 MiB (limits.valueBytes in .vai.json) [LIMIT_EXCEEDED]"
    );
    let e = LimitError::new("output", Limit::Depth);
    assert!(e.to_string().contains("deeper than 128 levels"), "{e}");
    assert!(
        Limit::RunBytes(1000)
            .to_string()
            .contains("1000 bytes (limits.runBytes")
    );
}
