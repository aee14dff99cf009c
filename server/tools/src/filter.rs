//! The `filter` tool: keep the elements of an array for which a condition holds, evaluated per
//! element with `item` and `index` in scope.

use crate::args::{self, NO_API_CALLS};
use serde_json::Value;
use std::sync::LazyLock;
use vai_workflow::input_schema::{InputSchema, JsonType, PropertySchema, WidgetFormat};
use vai_workflow::value::truthy_opt;
use vai_workflow::{
    Category, Condition, DeferredInput, DeferredKind, Effects, Template, Tool, ToolCall, ToolError,
    ToolFuture, ToolSpec,
};

const NAME: &str = "filter";

static DEFERRED: [DeferredInput; 1] = [DeferredInput {
    name: "condition",
    kind: DeferredKind::Condition,
    locals: &["item", "index"],
}];

static SPEC: LazyLock<ToolSpec> = LazyLock::new(spec);

/// Keeps the elements that satisfy a condition.
pub struct Filter;

pub fn spec() -> ToolSpec {
    ToolSpec {
        name: NAME,
        label: "Filter",
        category: Category::ControlFlow,
        icon: "FilterAlt",
        description: "Keep the items of an array that satisfy a condition",
        help: "Evaluates `condition` once per element of `array`, with the element bound to `item` and its zero-based position to `index`, and keeps the elements for which it is true, in order. Write the condition as an expression such as `item.score >= 0.5 && item.source != 'draft'`; `{{ }}` blocks inside it are read before filtering, so `item.score >= {{ inputs.min_score }}` compares with the input's value. `index` is in scope too, so `index < 5` keeps the first five. A condition may also be a plain true or false.",
        input_schema: InputSchema::new()
            .required_input(
                "array",
                PropertySchema::of(JsonType::Array)
                    .items(PropertySchema::any())
                    .describe("The items to filter, e.g. {{ search.output.results }}"),
            )
            .required_input(
                "condition",
                PropertySchema::one_of(&[JsonType::String, JsonType::Boolean])
                    .describe("Expression evaluated per element with item and index, e.g. item.score > 0.5")
                    .format(WidgetFormat::Expression),
            ),
        outputs: &[
            (
                "results",
                "the items for which the condition holds, in order",
            ),
            ("resultCount", "number of kept items"),
        ],
        deferred: &DEFERRED,
        main_input: Some("condition"),
        api_calls: NO_API_CALLS,
        effects: Effects::PURE,
        optional_calls: &[],
        uses_store: false,
    }
}

impl Tool for Filter {
    fn spec(&self) -> &ToolSpec {
        &SPEC
    }

    fn run<'a>(&'a self, call: ToolCall<'a>) -> ToolFuture<'a> {
        Box::pin(async move {
            let array = args::required_array(NAME, &call, "array")?;
            let fallback = standalone_condition(&call)?;
            let mut kept = Vec::new();
            for (i, item) in array.iter().enumerate() {
                let index = Value::from(i);
                let locals = [("item", item), ("index", &index)];
                let keep = match &fallback {
                    None => call
                        .eval_condition("condition", &locals)?
                        .ok_or_else(|| ToolError::required(NAME, "condition"))?,
                    Some(Fallback::Const(b)) => *b,
                    Some(Fallback::Expr(t)) => {
                        truthy_opt(call.resolve_with("inputs.condition", t, &locals)?.as_ref())
                    }
                };
                if keep {
                    kept.push(item);
                }
            }
            let kept = call.copy_all("output.results", &kept, 2)?;
            args::built_results(&call, kept)
        })
    }
}

/// A condition given as a plain input, when the tool is called outside a workflow run (where
/// the engine has not parsed it into a deferred input).
enum Fallback {
    Const(bool),
    Expr(Template),
}

fn standalone_condition(call: &ToolCall<'_>) -> Result<Option<Fallback>, ToolError> {
    if call.has_deferred("condition") {
        return Ok(None);
    }
    match call.input("condition") {
        None => Err(ToolError::required(NAME, "condition")),
        Some(Value::Bool(b)) => Ok(Some(Fallback::Const(*b))),
        Some(Value::String(s)) => {
            let condition = Condition::parse(s)
                .map_err(|e| ToolError::invalid(NAME, "condition", e.to_string()))?;
            Ok(Some(Fallback::Expr(Template::Sole(
                condition.expr().clone(),
            ))))
        }
        Some(other) => Err(ToolError::invalid(
            NAME,
            "condition",
            format!("must be an expression string, got {}", args::kind(other)),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::collections::HashMap;
    use vai_workflow::{Context, DeferredValue};

    fn context() -> Context {
        let mut scope = Context::new();
        scope.insert("inputs", json!({"min": 2, "kind": "doc"}));
        scope
    }

    async fn run(array: Value, condition: &str) -> Result<Value, ToolError> {
        let scope = context();
        let defaults = json!({});
        let deferred = HashMap::from([(
            "condition".to_string(),
            DeferredValue::Condition(Condition::parse(condition).unwrap()),
        )]);
        let inputs = json!({"array": array});
        let call = ToolCall::with_deferred(
            "f",
            inputs.as_object().unwrap().clone(),
            &defaults,
            &deferred,
            &scope,
        );
        Filter.run(call).await.map(|o| o.output)
    }

    async fn run_standalone(inputs: Value) -> Result<Value, ToolError> {
        let scope = context();
        let defaults = json!({});
        let call =
            ToolCall::standalone("f", inputs.as_object().unwrap().clone(), &defaults, &scope);
        Filter.run(call).await.map(|o| o.output)
    }

    #[tokio::test]
    async fn keeps_items_matching_the_condition_in_order() {
        let items = json!([{"s": 1}, {"s": 3}, {"s": 2}, {"s": 5}, {"t": 9}]);
        let out = run(items, "item.s >= {{ inputs.min }}").await.unwrap();
        assert_eq!(
            out,
            json!({"results": [{"s": 3}, {"s": 2}, {"s": 5}], "resultCount": 3})
        );
    }

    #[tokio::test]
    async fn index_is_in_scope() {
        let out = run(json!(["a", "b", "c", "d"]), "index < 2 || item == 'd'")
            .await
            .unwrap();
        assert_eq!(out["results"], json!(["a", "b", "d"]));
    }

    #[tokio::test]
    async fn string_inputs_compare_as_strings() {
        let items = json!([{"kind": "doc"}, {"kind": "faq"}]);
        let out = run(items, "item.kind == {{ inputs.kind }}").await.unwrap();
        assert_eq!(out["results"], json!([{"kind": "doc"}]));
    }

    #[tokio::test]
    async fn standalone_calls_parse_the_condition_themselves() {
        let out = run_standalone(json!({"array": [1, 2, 3], "condition": "item > 1"}))
            .await
            .unwrap();
        assert_eq!(out["resultCount"], 2);
        let out = run_standalone(json!({"array": [1, 2], "condition": false}))
            .await
            .unwrap();
        assert_eq!(out["resultCount"], 0);
    }

    #[tokio::test]
    async fn missing_inputs_are_errors() {
        let err = run_standalone(json!({"array": [1]})).await.unwrap_err();
        assert!(
            err.to_string().contains("\"condition\" is required"),
            "{err}"
        );
        let err = run(json!(null), "true").await.unwrap_err();
        assert!(err.to_string().contains("\"array\" is required"), "{err}");
        let err = run_standalone(json!({"array": [1], "condition": "item >"}))
            .await
            .unwrap_err();
        assert!(err.to_string().contains("\"condition\""), "{err}");
    }

    #[test]
    fn condition_is_declared_deferred() {
        let d = spec().deferred("condition").copied().unwrap();
        assert_eq!(d.kind, DeferredKind::Condition);
        assert_eq!(d.locals, ["item", "index"]);
    }

    #[tokio::test]
    async fn kept_items_are_copied_within_the_output_budget_and_nesting_bound() {
        let sized = Filter
            .run(ToolCall::standalone(
                "f",
                json!({"array": vec![json!({"s": 1}); 50], "condition": true})
                    .as_object()
                    .unwrap()
                    .clone(),
                &json!({}),
                &context(),
            ))
            .await
            .unwrap();
        // The size the engine takes without measuring is the output's JSON length.
        let expected = serde_json::to_string(&sized.output).unwrap().len() as u64;
        assert!(
            sized
                .size
                .is_some_and(|s| s >= expected && s <= expected + 40),
            "{:?} vs {expected}",
            sized.size
        );
        // An item 127 levels deep would sit at 129 in `{results: [item]}`.
        let deep = (0..127).fold(json!(1), |v, _| json!([v]));
        let err = run(json!([deep]), "true").await.unwrap_err();
        assert!(
            err.to_string()
                .starts_with("output.results: the value would nest deeper than 128 levels"),
            "{err}"
        );
    }
}
