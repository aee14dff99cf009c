//! The `merge` tool: concatenate arrays (typically several searches' results), optionally
//! dropping duplicates by a field or by whole-item JSON equality.

use crate::args::{self, NO_API_CALLS};
use serde_json::Value;
use std::collections::HashSet;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::sync::LazyLock;
use vai_workflow::input_schema::{InputSchema, JsonType, PropertySchema};
use vai_workflow::{Category, Effects, Tool, ToolCall, ToolError, ToolFuture, ToolSpec};

const NAME: &str = "merge";

static SPEC: LazyLock<ToolSpec> = LazyLock::new(spec);

/// Concatenates arrays, optionally de-duplicating.
pub struct Merge;

pub fn spec() -> ToolSpec {
    ToolSpec {
        name: NAME,
        label: "Merge",
        category: Category::ControlFlow,
        icon: "MergeType",
        description: "Combine several arrays into one, optionally removing duplicates",
        help: "Concatenates the arrays listed in `arrays`, in order. Members that are not arrays — such as the null output of a skipped step — are ignored, so a merge of optional branches just works. With `dedup` on, only the first occurrence of each item is kept: items are compared by the value of `dedup_field` when one is given (items lacking that field are always kept), otherwise by their whole JSON value. Numbers compare by value, so 1 and 1.0 are duplicates.",
        input_schema: InputSchema::new()
            .required_input(
                "arrays",
                // Items declared as arrays: the builder appends a connection into this list.
                PropertySchema::of(JsonType::Array)
                    .items(PropertySchema::of(JsonType::Array))
                    .describe("The arrays to concatenate, e.g. [\"{{ a.output.results }}\", \"{{ b.output.results }}\"]; non-array members are ignored"),
            )
            .input(
                "dedup",
                PropertySchema::of(JsonType::Boolean)
                    .defaults_to(false)
                    .describe("Keep only the first occurrence of each item"),
            )
            .input(
                "dedup_field",
                PropertySchema::of(JsonType::String)
                    .describe("Field whose value identifies an item when de-duplicating (e.g. \"source\"); without it whole items are compared"),
            ),
        outputs: &[
            ("results", "the merged items, in input order"),
            ("resultCount", "number of merged items"),
        ],
        deferred: &[],
        main_input: Some("arrays"),
        api_calls: NO_API_CALLS,
        effects: Effects::PURE,
        optional_calls: &[],
        uses_store: false,
    }
}

impl Tool for Merge {
    fn spec(&self) -> &ToolSpec {
        &SPEC
    }

    fn run<'a>(&'a self, call: ToolCall<'a>) -> ToolFuture<'a> {
        Box::pin(async move {
            let dedup = args::flag(&SPEC, &call, "dedup")?;
            let field = if dedup {
                args::opt_string(&call, "dedup_field")
            } else {
                None
            };
            let arrays = match call.inputs.members("arrays") {
                Some(members) => members,
                None if call.input("arrays").is_none() => {
                    return Err(ToolError::required(NAME, "arrays"));
                }
                None => {
                    let got = call.input("arrays").map_or("null", args::kind);
                    return Err(ToolError::invalid(
                        NAME,
                        "arrays",
                        format!("must be an array of arrays, got {got}"),
                    ));
                }
            };
            // Only the kept items are copied, each charged as it is: a list naming one large
            // array many times is refused before the copies pile up.
            let merged = merge(&arrays, dedup, field.as_deref());
            let merged = call.copy_all("output.results", &merged, 2)?;
            args::built_results(&call, merged)
        })
    }
}

/// Flatten the array members of `arrays`; with `dedup`, keep the first item of each key. Nothing
/// is copied: the result borrows the kept items.
pub fn merge<'v>(arrays: &[&'v Value], dedup: bool, field: Option<&str>) -> Vec<&'v Value> {
    let all = arrays.iter().filter_map(|a| a.as_array()).flatten();
    if !dedup {
        return all.collect();
    }
    let mut seen = HashSet::new();
    all.filter(|item| match field {
        Some(f) => match item.get(f) {
            Some(key) => seen.insert(JsonKey(key)),
            None => true,
        },
        None => seen.insert(JsonKey(item)),
    })
    .collect()
}

/// A JSON value compared and hashed structurally, without serialising it: object key order does
/// not matter and numbers compare by value.
struct JsonKey<'a>(&'a Value);

impl PartialEq for JsonKey<'_> {
    fn eq(&self, other: &Self) -> bool {
        json_eq(self.0, other.0)
    }
}

impl Eq for JsonKey<'_> {}

impl Hash for JsonKey<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        hash_json(self.0, state);
    }
}

fn json_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Null, Value::Null) => true,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Number(x), Value::Number(y)) => {
            if let (Some(x), Some(y)) = (x.as_i64(), y.as_i64()) {
                x == y
            } else if let (Some(x), Some(y)) = (x.as_u64(), y.as_u64()) {
                x == y
            } else {
                x.as_f64() == y.as_f64()
            }
        }
        (Value::String(x), Value::String(y)) => x == y,
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| json_eq(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| json_eq(v, w)))
        }
        _ => false,
    }
}

/// Hashes consistently with `json_eq`: equal values hash equally.
fn hash_json<H: Hasher>(value: &Value, state: &mut H) {
    match value {
        Value::Null => state.write_u8(0),
        Value::Bool(b) => {
            state.write_u8(1);
            b.hash(state);
        }
        Value::Number(n) => {
            state.write_u8(2);
            let f = n.as_f64().unwrap_or(f64::NAN);
            if f.fract() == 0.0 && f.abs() < 9.2e18 {
                state.write_i64(f as i64);
            } else {
                state.write_u64(f.to_bits());
            }
        }
        Value::String(s) => {
            state.write_u8(3);
            s.hash(state);
        }
        Value::Array(items) => {
            state.write_u8(4);
            state.write_usize(items.len());
            for item in items {
                hash_json(item, state);
            }
        }
        Value::Object(map) => {
            // Order-independent: combine per-entry hashes commutatively.
            state.write_u8(5);
            state.write_usize(map.len());
            let mut sum = 0u64;
            for (k, v) in map {
                let mut h = DefaultHasher::new();
                k.hash(&mut h);
                hash_json(v, &mut h);
                sum = sum.wrapping_add(h.finish());
            }
            state.write_u64(sum);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use vai_workflow::{Context, ToolError};

    async fn run(inputs: Value) -> Result<Value, ToolError> {
        let scope = Context::new();
        let defaults = json!({});
        let call =
            ToolCall::standalone("m", inputs.as_object().unwrap().clone(), &defaults, &scope);
        Merge.run(call).await.map(|o| o.output)
    }

    /// The builder tells a list of references (connecting appends) from a list of values
    /// (connecting replaces) by the declared item type.
    #[test]
    fn arrays_declares_a_list_of_arrays() {
        let schema = spec().input_schema.to_json();
        assert_eq!(
            schema["properties"]["arrays"]["items"],
            json!({"type": "array"})
        );
    }

    #[tokio::test]
    async fn concatenates_in_order_and_ignores_non_arrays() {
        let out = run(json!({"arrays": [[1, 2], null, [3], "x", {"a": 1}, []]}))
            .await
            .unwrap();
        assert_eq!(out, json!({"results": [1, 2, 3], "resultCount": 3}));
    }

    #[tokio::test]
    async fn dedups_by_field_keeping_the_first() {
        let out = run(json!({
            "arrays": [[{"source": "a", "n": 1}, {"source": "b", "n": 2}], [{"source": "a", "n": 3}, {"n": 4}, {"n": 5}]],
            "dedup": true,
            "dedup_field": "source"
        }))
        .await
        .unwrap();
        assert_eq!(
            out["results"],
            json!([{"source": "a", "n": 1}, {"source": "b", "n": 2}, {"n": 4}, {"n": 5}])
        );
        assert_eq!(out["resultCount"], 4);
    }

    #[tokio::test]
    async fn dedups_whole_items_by_json_equality() {
        let out = run(json!({
            "arrays": [[{"a": 1, "b": [1, 2]}, "x", 1], [{"b": [1, 2], "a": 1.0}, "x", 1.0, {"a": 1, "b": [2, 1]}]],
            "dedup": true
        }))
        .await
        .unwrap();
        assert_eq!(
            out["results"],
            json!([{"a": 1, "b": [1, 2]}, "x", 1, {"a": 1, "b": [2, 1]}])
        );
    }

    #[tokio::test]
    async fn field_without_dedup_does_not_dedup() {
        let out = run(json!({"arrays": [[{"s": 1}], [{"s": 1}]], "dedup_field": "s"}))
            .await
            .unwrap();
        assert_eq!(out["resultCount"], 2);
        let out =
            run(json!({"arrays": [[{"s": 1}], [{"s": 1}]], "dedup": "true", "dedup_field": "s"}))
                .await
                .unwrap();
        assert_eq!(out["resultCount"], 1);
    }

    #[tokio::test]
    async fn arrays_is_required_and_must_be_an_array() {
        let err = run(json!({})).await.unwrap_err();
        assert!(err.to_string().contains("\"arrays\" is required"), "{err}");
        let err = run(json!({"arrays": "nope"})).await.unwrap_err();
        assert!(err.to_string().contains("must be an array"), "{err}");
    }

    #[test]
    fn large_merges_dedup_linearly() {
        let make = |offset: usize| -> Value {
            Value::Array(
                (0..2000)
                    .map(|i| json!({"source": format!("doc-{}", i + offset), "text": "lorem ipsum", "score": 0.5}))
                    .collect(),
            )
        };
        let (a, b) = (make(0), make(1000));
        let merged = merge(&[&a, &b], true, Some("source"));
        assert_eq!(merged.len(), 3000);
        let (c, d) = (make(0), make(0));
        let merged = merge(&[&c, &d], true, None);
        assert_eq!(merged.len(), 2000);
    }
}
