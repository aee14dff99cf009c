//! Robustness of the expression language: no input makes parsing panic or overflow the stack,
//! and whatever parses evaluates (and terminates) against any scope.

use proptest::prelude::*;
use serde_json::{Value, json};
use std::collections::HashMap;
use vai_workflow::expr::{Expr, MAX_DEPTH, MAX_EXPR_LEN};
use vai_workflow::{Budget, Condition, Limits, Template};

/// A fresh value budget of the default size.
fn budget() -> Budget {
    Limits::DEFAULT.value_budget()
}

fn scope() -> HashMap<String, Value> {
    serde_json::from_value(json!({
        "a": {"b": [1, "two", null, {"c": 0.5}], "length": 3, "0": "zero"},
        "b": "text",
        "x": 0,
        "n": null,
        "t": true,
        "inputs": {"q": "hi", "list": [], "min": 0.25},
        "item": {"score": 0.7, "0": [0, 1]},
    }))
    .unwrap()
}

/// Parse `src` every way there is and evaluate whatever parses.
fn exercise(src: &str) {
    let scope = scope();
    if let Ok(expr) = Expr::parse(src) {
        let _ = expr.eval(&scope, &budget());
        let _ = expr.eval_bool(&scope, &budget());
        let _ = expr.references();
    }
    if let Ok(template) = Template::parse(&Value::String(src.to_owned())) {
        let _ = template.resolve(&scope, &budget());
        let _ = template.references();
    }
    if let Ok(condition) = Condition::parse(src) {
        let _ = condition.eval(&scope, &budget());
        let _ = condition.references();
    }
}

const TOKENS: &[&str] = &[
    "{{",
    "}}",
    "{",
    "}",
    "(",
    ")",
    "'",
    "\"",
    "\\",
    "!",
    "&&",
    "||",
    "&",
    "|",
    "?",
    ":",
    ".",
    "[",
    "]",
    "0",
    "1.5",
    "1e3",
    "a",
    "b",
    "x",
    "a.b",
    "a.0",
    "item.score",
    ".length",
    "n",
    "null",
    "undefined",
    "true",
    " ",
    "==",
    "===",
    "!=",
    "<",
    ">=",
    "+",
    "-",
    "*",
    "/",
    "%",
    "'s'",
    "\"}}\"",
    "é",
    "😀",
    "\n",
];

fn token_soup() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(TOKENS), 0..60).prop_map(|t| t.concat())
}

/// Well-formed expressions, to check that evaluation agrees across the three entry points.
fn expression() -> impl Strategy<Value = String> {
    let leaf = prop::sample::select(vec![
        "a",
        "a.b",
        "a.b[3].c",
        "a.b.length",
        "a.0",
        "b",
        "b.length",
        "x",
        "n",
        "t",
        "missing",
        "inputs.q",
        "inputs.list.length",
        "item.score",
        "0",
        "1",
        "2.5",
        "'s'",
        "''",
        "null",
        "undefined",
        "true",
        "false",
    ])
    .prop_map(str::to_owned);
    leaf.prop_recursive(6, 64, 3, |inner| {
        let op = prop::sample::select(vec![
            "||", "&&", "==", "!=", "===", "!==", "<", "<=", ">", ">=", "+", "-", "*", "/", "%",
        ]);
        prop_oneof![
            (inner.clone(), op, inner.clone()).prop_map(|(l, op, r)| format!("{l} {op} {r}")),
            inner.clone().prop_map(|e| format!("!{e}")),
            inner.clone().prop_map(|e| format!("-({e})")),
            inner.clone().prop_map(|e| format!("({e})")),
            (inner.clone(), inner.clone(), inner.clone())
                .prop_map(|(c, t, o)| format!("{c} ? {t} : {o}")),
            (inner.clone(), inner).prop_map(|(o, k)| format!("({o})[{k}]")),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn arbitrary_strings_never_panic(src in "\\PC{0,200}") {
        exercise(&src);
    }

    #[test]
    fn arbitrary_unicode_never_panics(src in any::<String>()) {
        exercise(&src);
    }

    #[test]
    fn token_soup_never_panics(src in token_soup()) {
        exercise(&src);
        exercise(&format!("{{{{ {src} }}}}"));
        exercise(&format!("text {{{{ {src} }}}} more {{{{ a }}}}"));
    }

    #[test]
    fn well_formed_expressions_evaluate_alike_everywhere(src in expression()) {
        let scope = scope();
        let expr = Expr::parse(&src).map_err(|e| TestCaseError::fail(format!("{src}: {e}")))?;
        let b = budget();
        let value = expr.eval(&scope, &b).unwrap();
        let sole = Template::parse(&Value::String(format!("{{{{ {src} }}}}"))).unwrap();
        prop_assert_eq!(sole.resolve(&scope, &b).unwrap(), value.clone());
        let condition = Condition::parse(&src).unwrap();
        let holds = condition.eval(&scope, &b).unwrap();
        prop_assert_eq!(holds, vai_workflow::value::truthy_opt(value.as_ref()));
        let wrapped = Condition::parse(&format!("{{{{ {src} }}}}")).unwrap();
        prop_assert_eq!(wrapped.eval(&scope, &b).unwrap(), holds);
        let negated = Expr::parse(&format!("!({src})")).unwrap().eval(&scope, &b).unwrap();
        prop_assert_eq!(negated, Some(Value::Bool(!holds)));
    }
}

#[test]
fn huge_nesting_is_an_error_not_a_stack_overflow() {
    for open in ["(", "!", "-", "[", "a[", "a ? ", "{{"] {
        let src = open.repeat(100_000);
        assert!(Expr::parse(&src).is_err(), "{open}");
        assert!(Condition::parse(&src).is_err(), "{open}");
        let template = format!("{{{{ {src} }}}}");
        assert!(Template::parse(&Value::String(template)).is_err(), "{open}");
        if open == "[" {
            continue;
        }
        // Within the length limit, the depth limit is what stops it.
        let src = open.repeat(MAX_EXPR_LEN / open.len());
        let message = Condition::parse(&src).unwrap_err().message;
        assert!(message.contains("nested too deeply"), "{open}: {message}");
    }
}

#[test]
fn the_deepest_accepted_expression_evaluates_on_a_small_stack() {
    // The costliest shape: each bracket level passes through every precedence level, both
    // while parsing and while evaluating (`n` is not present and `t` truthy, so nothing
    // short-circuits). This needs about 400 KiB unoptimised and 150 KiB optimised; threads
    // (tokio's workers included) get 2 MiB by default.
    let mut src = String::from("a.b.0");
    for _ in 0..MAX_DEPTH {
        src = format!("n || t && x == 1 < 2 + 3 * a[{src}]");
    }
    assert!(Expr::parse(&format!("({src})")).is_err());
    let handle = std::thread::Builder::new()
        .stack_size(1024 * 1024)
        .spawn(move || {
            let expr = Expr::parse(&src).unwrap();
            let scope = scope();
            (
                expr.eval(&scope, &budget()).unwrap(),
                expr.references().len(),
                expr.clone() == expr,
            )
        })
        .unwrap();
    let (value, references, equal) = handle.join().unwrap();
    assert_eq!(value, Some(json!(true)));
    assert_eq!(references, 4 * MAX_DEPTH + 1);
    assert!(equal);
}

#[test]
fn long_flat_expressions_are_not_deep() {
    let src = vec!["x"; MAX_EXPR_LEN / 4].join(" + ");
    let eval = |src: &str| Expr::parse(src).unwrap().eval(&scope(), &budget()).unwrap();
    assert_eq!(eval(&src), Some(json!(0)));
    let src = vec!["'a'"; MAX_EXPR_LEN / 6].join(" + ");
    let text = eval(&src).unwrap();
    assert_eq!(text.as_str().unwrap().len(), MAX_EXPR_LEN / 6);
}
