//! The evaluator: walks a [`Node`] tree against a [`Scope`].
//!
//! Values are `Option<Cow<Value>>` (`None` = undefined): identifiers, member lookups, literals and
//! the operands `||`, `&&` and `?:` return are borrowed from the scope or the tree, so walking
//! `a.b.length` never copies `a`; only operators that compute something (comparisons,
//! arithmetic, concatenation, `.length`) produce owned values, and those are always scalars.
//! Recursion follows the tree, whose depth the parser bounds; nothing loops.
//!
//! The one operator that can grow a value, `+` on text, appends within the evaluation's
//! [`Budget`]. Past it, `+` yields undefined and the evaluation notes the limit in its [`Cx`];
//! the caller turns that into an error, so the undefined is never taken for a result.

use super::ops;
use super::parser::{BinOp, Node, Segment};
use crate::limits::{Budget, Limit};
use crate::scope::Scope;
use crate::value::{self, truthy};
use serde_json::Value;
use std::borrow::Cow;
use std::cell::Cell;
use std::cmp::Ordering;

pub(crate) type Val<'a> = Option<Cow<'a, Value>>;

/// What one evaluation reads and may spend.
pub(crate) struct Cx<'a, 'b> {
    pub(crate) scope: &'a dyn Scope,
    budget: &'b Budget,
    exceeded: Cell<Option<Limit>>,
}

impl<'a, 'b> Cx<'a, 'b> {
    pub(crate) fn new(scope: &'a dyn Scope, budget: &'b Budget) -> Self {
        Self {
            scope,
            budget,
            exceeded: Cell::new(None),
        }
    }

    /// The limit a `+` ran into, if any: the evaluation's result is then not to be used.
    pub(crate) fn exceeded(&self) -> Option<Limit> {
        self.exceeded.get()
    }
}

pub(crate) fn eval<'a>(node: &'a Node, cx: &Cx<'a, '_>) -> Val<'a> {
    // Values are large (an object is ~80 bytes) and unoptimised builds give every temporary its
    // own stack slot, so this dispatcher holds none: each recursive case has its own function,
    // and only the cases on the current path occupy the stack. The operators' work stays out of
    // line (`inline(never)`) so optimised builds do not fold it into the recursive frames. The
    // deepest expression the parser accepts evaluates in about 400 KiB unoptimised.
    match node {
        Node::Literal(v) => Some(Cow::Borrowed(v)),
        Node::Undefined => None,
        Node::Ident(name, _) => cx.scope.get(name).map(Cow::Borrowed),
        Node::Member(object, segments) => eval_member(object, segments, cx),
        Node::Not(operand) => eval_not(operand, cx),
        Node::Neg(operand) => eval_neg(operand, cx),
        Node::Or(operands) => eval_or(operands, cx),
        Node::And(operands) => eval_and(operands, cx),
        Node::Chain(first, rest) => eval_chain(first, rest, cx),
        Node::Conditional(parts) => eval_conditional(parts, cx),
    }
}

fn eval_member<'a>(object: &'a Node, segments: &'a [Segment], cx: &Cx<'a, '_>) -> Val<'a> {
    let mut current = eval(object, cx);
    for segment in segments {
        let object = current?;
        current = match segment {
            Segment::Name(name, _) => member(object, name),
            Segment::Index(key) => index(object, eval(key, cx)),
        };
    }
    current
}

fn eval_not<'a>(operand: &'a Node, cx: &Cx<'a, '_>) -> Val<'a> {
    let truthy = eval(operand, cx).as_deref().is_some_and(truthy);
    Some(Cow::Owned(Value::Bool(!truthy)))
}

fn eval_neg<'a>(operand: &'a Node, cx: &Cx<'a, '_>) -> Val<'a> {
    let n = ops::to_number(eval(operand, cx).as_deref());
    value::number(-n).map(Cow::Owned)
}

/// The first present operand, else the last operand's value.
fn eval_or<'a>(operands: &'a [Node], cx: &Cx<'a, '_>) -> Val<'a> {
    let mut value = None;
    for operand in operands {
        value = eval(operand, cx);
        if ops::present(value.as_deref()) {
            break;
        }
    }
    value
}

/// The first falsy operand, else the last operand's value.
fn eval_and<'a>(operands: &'a [Node], cx: &Cx<'a, '_>) -> Val<'a> {
    let mut value = None;
    for operand in operands {
        value = eval(operand, cx);
        if !value.as_deref().is_some_and(truthy) {
            break;
        }
    }
    value
}

fn eval_chain<'a>(first: &'a Node, rest: &'a [(BinOp, Node)], cx: &Cx<'a, '_>) -> Val<'a> {
    let mut value = eval(first, cx);
    for (op, right) in rest {
        value = binary(*op, value, eval(right, cx), cx);
    }
    value
}

fn eval_conditional<'a>(parts: &'a [Node; 3], cx: &Cx<'a, '_>) -> Val<'a> {
    let [condition, then, otherwise] = parts;
    if eval(condition, cx).as_deref().is_some_and(truthy) {
        eval(then, cx)
    } else {
        eval(otherwise, cx)
    }
}

/// `object[key]`: a string or number key; anything else finds nothing.
#[inline(never)]
fn index<'a>(object: Cow<'a, Value>, key: Val<'_>) -> Val<'a> {
    match key.as_deref() {
        Some(Value::String(key)) => member(object, key),
        Some(Value::Number(n)) => member(object, &value::number_text(n)),
        _ => None,
    }
}

#[inline(never)]
fn binary<'a>(op: BinOp, left: Val<'a>, right: Val<'a>, cx: &Cx<'a, '_>) -> Val<'a> {
    if op == BinOp::Add {
        return add(left, right, cx);
    }
    let (a, b) = (left.as_deref(), right.as_deref());
    let result = match op {
        BinOp::Eq => Value::Bool(ops::loose_eq(a, b)),
        BinOp::Ne => Value::Bool(!ops::loose_eq(a, b)),
        BinOp::StrictEq => Value::Bool(ops::strict_eq(a, b)),
        BinOp::StrictNe => Value::Bool(!ops::strict_eq(a, b)),
        BinOp::Lt => Value::Bool(ops::compare(a, b) == Some(Ordering::Less)),
        BinOp::Le => Value::Bool(matches!(
            ops::compare(a, b),
            Some(Ordering::Less | Ordering::Equal)
        )),
        BinOp::Gt => Value::Bool(ops::compare(a, b) == Some(Ordering::Greater)),
        BinOp::Ge => Value::Bool(matches!(
            ops::compare(a, b),
            Some(Ordering::Greater | Ordering::Equal)
        )),
        BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem => {
            let (x, y) = (ops::to_number(a), ops::to_number(b));
            let n = match op {
                BinOp::Sub => x - y,
                BinOp::Mul => x * y,
                BinOp::Div => x / y,
                _ => x % y,
            };
            return value::number(n).map(Cow::Owned);
        }
    };
    Some(Cow::Owned(result))
}

/// `+`: concatenation when either side is a string, array or object (appending in place to a
/// string built by an earlier `+`), numeric addition otherwise. Text is appended within the
/// evaluation's budget; past it the result is undefined and the limit is noted in `cx`.
#[inline(never)]
fn add<'a>(left: Val<'a>, right: Val<'a>, cx: &Cx<'a, '_>) -> Val<'a> {
    if !ops::concatenates(left.as_deref(), right.as_deref()) {
        let sum = ops::to_number(left.as_deref()) + ops::to_number(right.as_deref());
        return value::number(sum).map(Cow::Owned);
    }
    if cx.exceeded.get().is_some() {
        return None;
    }
    let appended = match left {
        Some(Cow::Owned(Value::String(mut text))) => {
            ops::push_concat_text(&mut text, right.as_deref(), cx.budget).map(|()| text)
        }
        other => {
            let mut text = String::new();
            ops::push_concat_text(&mut text, other.as_deref(), cx.budget)
                .and_then(|()| ops::push_concat_text(&mut text, right.as_deref(), cx.budget))
                .map(|()| text)
        }
    };
    match appended {
        Ok(text) => Some(Cow::Owned(Value::String(text))),
        Err(limit) => {
            cx.exceeded.set(Some(limit));
            None
        }
    }
}

/// One member lookup, borrowing when the object is borrowed.
#[inline(never)]
fn member<'a>(object: Cow<'a, Value>, key: &str) -> Val<'a> {
    match object {
        Cow::Borrowed(v) => child(v, key).map(|c| match c {
            Child::Ref(r) => Cow::Borrowed(r),
            Child::New(v) => Cow::Owned(v),
        }),
        Cow::Owned(v) => child(&v, key).map(|c| match c {
            Child::Ref(r) => Cow::Owned(r.clone()),
            Child::New(v) => Cow::Owned(v),
        }),
    }
}

enum Child<'v> {
    Ref(&'v Value),
    New(Value),
}

/// Objects: the key (`length` included). Arrays: `length`, or an element by canonical index
/// (`0`, `12`; not `01` or `-1`). Strings: `length` in UTF-16 code units, or the code unit at an
/// index as a one-character string. Anything else, or a missing key: undefined.
fn child<'v>(v: &'v Value, key: &str) -> Option<Child<'v>> {
    match v {
        Value::Object(map) => map.get(key).map(Child::Ref),
        Value::Array(items) if key == "length" => Some(Child::New(Value::from(items.len()))),
        Value::Array(items) => items.get(array_index(key)?).map(Child::Ref),
        Value::String(s) if key == "length" => Some(Child::New(Value::from(ops::utf16_len(s)))),
        Value::String(s) => {
            let unit = s.encode_utf16().nth(array_index(key)?)?;
            let c = char::decode_utf16([unit])
                .next()
                .and_then(Result::ok)
                .unwrap_or('\u{fffd}');
            Some(Child::New(Value::String(c.to_string())))
        }
        _ => None,
    }
}

fn array_index(key: &str) -> Option<usize> {
    let canonical =
        key == "0" || (!key.starts_with('0') && key.bytes().all(|b| b.is_ascii_digit()));
    canonical.then(|| key.parse().ok()).flatten()
}

#[cfg(test)]
mod tests {
    use super::super::parser::parse;
    use super::*;
    use crate::limits::Limits;
    use serde_json::json;
    use std::collections::HashMap;

    fn scope() -> HashMap<String, Value> {
        let ctx = json!({
            "inputs": {"q": "hello", "n": 0, "five": 5, "s": "5", "empty": "", "none": null,
                       "list": [1, 2, 3], "t": true, "f": false, "obj": {"length": 7, "0": "zero"},
                       "emoji": "a😀"},
            "search": {"output": {"results": [{"score": 0.9, "text": "a"}, {"score": 0.2}]}},
            "skipped": {"output": null, "skipped": true},
            "i": 1,
            "key": "score",
        });
        serde_json::from_value(ctx).unwrap()
    }

    fn ev(src: &str) -> Option<Value> {
        let node = parse(src, false).unwrap_or_else(|e| panic!("{src}: {e}"));
        let (scope, budget) = (scope(), Limits::DEFAULT.value_budget());
        let cx = Cx::new(&scope, &budget);
        let value = eval(&node, &cx).map(Cow::into_owned);
        assert_eq!(cx.exceeded(), None, "{src}");
        value
    }

    #[test]
    fn paths() {
        assert_eq!(ev("inputs.q"), Some(json!("hello")));
        assert_eq!(ev("search.output.results[0].score"), Some(json!(0.9)));
        assert_eq!(ev("search.output.results.0.score"), Some(json!(0.9)));
        assert_eq!(ev("search.output.results[i].score"), Some(json!(0.2)));
        assert_eq!(ev("search.output.results[0][key]"), Some(json!(0.9)));
        assert_eq!(
            ev("search.output.results['1']"),
            Some(json!({"score": 0.2}))
        );
        assert_eq!(ev("inputs.obj.0"), Some(json!("zero")));
        assert_eq!(ev("inputs.obj[0]"), Some(json!("zero")));
    }

    #[test]
    fn missing_paths_are_undefined() {
        for src in [
            "nope",
            "nope.a.b",
            "inputs.missing.deeper",
            "skipped.output.text",
            "inputs.none.x",
            "inputs.list[5]",
            "inputs.list[-1]",
            "inputs.list['01']",
            "inputs.list[1.5]",
            "inputs.list[inputs.t]",
            "inputs.list[nope]",
            "inputs.five.x",
            "inputs.t.length",
        ] {
            assert_eq!(ev(src), None, "{src}");
        }
    }

    #[test]
    fn length_of_arrays_strings_and_objects() {
        assert_eq!(ev("inputs.list.length"), Some(json!(3)));
        assert_eq!(ev("inputs.q.length"), Some(json!(5)));
        assert_eq!(ev("inputs.emoji.length"), Some(json!(3)));
        assert_eq!(ev("'abc'.length"), Some(json!(3)));
        assert_eq!(ev("inputs.obj.length"), Some(json!(7)));
        assert_eq!(ev("search.output.length"), None);
        assert_eq!(ev("inputs.q[1]"), Some(json!("e")));
        assert_eq!(ev("(inputs.q + '!').length"), Some(json!(6)));
    }

    #[test]
    fn or_returns_the_first_present_operand() {
        assert_eq!(ev("inputs.n || 5"), Some(json!(0)));
        assert_eq!(
            ev("inputs.empty || inputs.none || inputs.f || 'x'"),
            Some(json!("x"))
        );
        assert_eq!(ev("nope || inputs.none"), Some(json!(null)));
        assert_eq!(ev("inputs.none || nope"), None);
        assert_eq!(ev("inputs.list || 1"), Some(json!([1, 2, 3])));
    }

    #[test]
    fn and_follows_javascript() {
        assert_eq!(ev("inputs.n && 5"), Some(json!(0)));
        assert_eq!(ev("inputs.q && inputs.five"), Some(json!(5)));
        assert_eq!(ev("nope && 1"), None);
        assert_eq!(
            ev("inputs.list.length > 0 && inputs.q"),
            Some(json!("hello"))
        );
    }

    #[test]
    fn not_and_ternary() {
        assert_eq!(ev("!inputs.n"), Some(json!(true)));
        assert_eq!(ev("!!inputs.q"), Some(json!(true)));
        assert_eq!(ev("!nope"), Some(json!(true)));
        assert_eq!(ev("!inputs.list"), Some(json!(false)));
        assert_eq!(ev("inputs.t ? 'y' : 'n'"), Some(json!("y")));
        assert_eq!(
            ev("inputs.n ? 'y' : inputs.f ? 'a' : 'b'"),
            Some(json!("b"))
        );
        assert_eq!(ev("nope ? 1 : undefined"), None);
        assert_eq!(ev("(inputs.t ? inputs : search).q"), Some(json!("hello")));
    }

    #[test]
    fn equality() {
        for src in [
            "inputs.five == inputs.s",
            "inputs.five === 5.0",
            "inputs.none == nope",
            "inputs.none !== nope",
            "inputs.n == ''",
            "inputs.t == 1",
            "inputs.list === inputs.list",
            "search.output.results[1] == search.output.results[1]",
            "inputs.q === 'hello'",
            "inputs.s !== 5",
            "inputs.none != 0",
            "1 == 1 == true",
        ] {
            assert_eq!(ev(src), Some(json!(true)), "{src}");
        }
        for src in [
            "inputs.five === inputs.s",
            "inputs.none == 0",
            "inputs.none === nope",
        ] {
            assert_eq!(ev(src), Some(json!(false)), "{src}");
        }
    }

    #[test]
    fn relational() {
        for src in [
            "inputs.five > 4",
            "inputs.s >= 5",
            "'apple' < 'banana'",
            "'10' < '9'",
            "'10' > 9",
            "inputs.none <= 0",
            "inputs.t > 0",
            "1 < 2 == true",
        ] {
            assert_eq!(ev(src), Some(json!(true)), "{src}");
        }
        for src in [
            "nope < 1",
            "nope >= 1",
            "'x' < 1",
            "'x' >= 1",
            "inputs.list > 0",
        ] {
            assert_eq!(ev(src), Some(json!(false)), "{src}");
        }
    }

    #[test]
    fn plus_concatenates_or_adds() {
        assert_eq!(ev("1 + 2"), Some(json!(3)));
        assert_eq!(ev("inputs.five + inputs.n"), Some(json!(5)));
        assert_eq!(ev("inputs.five + inputs.s"), Some(json!("55")));
        assert_eq!(ev("1 + 2 + 'x' + 1 + 2"), Some(json!("3x12")));
        assert_eq!(ev("'a: ' + nope + '|' + inputs.none"), Some(json!("a: |")));
        assert_eq!(ev("'n=' + inputs.n"), Some(json!("n=0")));
        assert_eq!(ev("'' + inputs.list"), Some(json!("[1,2,3]")));
        assert_eq!(ev("inputs.list + 1"), Some(json!("[1,2,3]1")));
        assert_eq!(ev("inputs.t + 1"), Some(json!(2)));
        assert_eq!(ev("inputs.none + 1"), Some(json!(1)));
        assert_eq!(ev("nope + 1"), None);
        assert_eq!(ev("0.1 + 0.2"), Some(json!(0.30000000000000004)));
    }

    #[test]
    fn arithmetic() {
        assert_eq!(ev("7 - 2 * 3"), Some(json!(1)));
        assert_eq!(ev("(7 - 2) * 3"), Some(json!(15)));
        assert_eq!(ev("7 / 2"), Some(json!(3.5)));
        assert_eq!(ev("-7 % 3"), Some(json!(-1)));
        assert_eq!(ev("inputs.s * 2"), Some(json!(10)));
        assert_eq!(ev("-inputs.five"), Some(json!(-5)));
        assert_eq!(ev("-inputs.s"), Some(json!(-5)));
        assert_eq!(ev("- -1"), Some(json!(1)));
        assert_eq!(ev("1 / 0"), None);
        assert_eq!(ev("0 / 0"), None);
        assert_eq!(ev("inputs.q * 2"), None);
        assert_eq!(ev("-inputs.q"), None);
        assert_eq!(ev("1 / 0 > 5"), Some(json!(false)));
        assert_eq!(ev("6 / 3 / 2"), Some(json!(1)));
    }

    #[test]
    fn literals_evaluate_to_themselves() {
        assert_eq!(ev("'it\\'s'"), Some(json!("it's")));
        assert_eq!(ev("\"a\\u0041\""), Some(json!("aA")));
        assert_eq!(ev("null"), Some(json!(null)));
        assert_eq!(ev("undefined"), None);
        assert_eq!(ev("1e2"), Some(json!(100)));
        assert_eq!(ev("false"), Some(json!(false)));
    }

    #[test]
    fn paths_borrow_from_the_scope() {
        let scope = scope();
        let budget = Limits::DEFAULT.value_budget();
        let cx = Cx::new(&scope, &budget);
        for src in [
            "search.output.results",
            "search.output.results[0]",
            "nope || inputs.list",
        ] {
            let node = parse(src, false).unwrap();
            assert!(matches!(eval(&node, &cx), Some(Cow::Borrowed(_))), "{src}");
        }
        let node = parse("inputs.list.length", false).unwrap();
        assert!(matches!(eval(&node, &cx), Some(Cow::Owned(_))));
    }

    #[test]
    fn concatenation_stops_at_the_budget() {
        let scope = scope();
        let node = parse(&vec!["inputs.q"; 100].join(" + "), false).unwrap();
        let budget = Budget::new(Limit::ValueBytes(100));
        let cx = Cx::new(&scope, &budget);
        assert_eq!(eval(&node, &cx), None);
        assert_eq!(cx.exceeded(), Some(Limit::ValueBytes(100)));
        assert!(budget.used() > 100);

        let budget = Budget::new(Limit::ValueBytes(500));
        let cx = Cx::new(&scope, &budget);
        let text = eval(&node, &cx).unwrap();
        assert_eq!(text.as_str().map(str::len), Some(500));
        assert_eq!(cx.exceeded(), None);
        // Arrays and objects are written as JSON within the budget too.
        let node = parse("'' + search.output.results", false).unwrap();
        let budget = Budget::new(Limit::ValueBytes(10));
        let cx = Cx::new(&scope, &budget);
        assert_eq!(eval(&node, &cx), None);
        assert_eq!(cx.exceeded(), Some(Limit::ValueBytes(10)));
    }
}
