//! The expression language shared by templates, `condition`, `filter` and `conditional`:
//! a lexer, a recursive-descent parser producing a typed tree, and a pure evaluator.
//!
//! What it guarantees (docs/workflows.md describes the language for users):
//! - `Expr::parse(src)` parses one expression (the text between `{{` and `}}`), rejecting
//!   sources longer than `MAX_EXPR_LEN` chars or nested deeper than `MAX_DEPTH`.
//! - `Expr::eval(scope, budget)` returns `None` for undefined; it never panics, never loops,
//!   never does I/O, and never clones a value it only reads through (paths borrow from the
//!   scope). Text built by `+` is charged to `budget`; past it evaluation fails with the limit.
//! - `Expr::references()` lists every path rooted at an identifier, in source order.
//!
//! # Syntax
//!
//! JavaScript-like, lowest precedence first: `c ? a : b` (right-associative), `||`, `&&`,
//! `== != === !==`, `< > <= >=`, `+ -`, `* / %`, unary `! -`, then member access `.name`, `.0`
//! and `[expr]`, and parentheses. Literals: numbers (`1`, `2.5`, `.5`, `1e-3`), `'single'` and
//! `"double"` quoted strings (escapes `\n \t \r \b \f \v \0 \\ \' \" \/ \xHH \uXXXX \u{X…}`;
//! raw line breaks are allowed inside quotes), `true`, `false`, `null`, `undefined`.
//! Identifiers are `[A-Za-z_$][A-Za-z0-9_$]*`. There are no function calls, assignments,
//! object or array literals or loops: anything else is a [`SyntaxError`] with the character
//! position and a message such as "unexpected '}'", "unterminated string",
//! "expected ':' of '?:'" or "function calls are not supported".
//!
//! # Evaluation (`None` is undefined)
//!
//! - Paths: a missing identifier, key or index, or a step through anything that has no members
//!   (null, numbers, booleans), is undefined — never an error. `.0` and `[0]` index arrays (only
//!   canonical indexes: `01`, `-1` and `1.5` find nothing) and are the key `"0"` on objects;
//!   `[expr]` takes a string or number key, anything else gives undefined. `.length` is an
//!   array's length or a string's length in UTF-16 code units (as JavaScript); on an object it is
//!   just the key `length`. A string index gives that code unit as a one-character string.
//! - `a || b`: the first operand that is *present* — not undefined, null, `""` or `false`; `0`
//!   counts as present — else the last operand's value.
//! - `a && b`: the first falsy operand (JavaScript truthiness), else the last operand.
//! - `!a`: the negated JavaScript truthiness, a boolean. `c ? a : b` picks by truthiness.
//! - `===` / `!==`: same type and value; numbers numerically (`1 === 1.0`); arrays and objects
//!   compare deeply (there is no identity to compare); `undefined !== null`.
//! - `==` / `!=`: `null == undefined`, and neither equals anything else; numbers, strings and
//!   booleans of different types compare as numbers (`5 == "5"`, `0 == ""`, `true == 1`);
//!   an array or object never loosely equals a value of another type.
//! - `< > <= >=`: two strings compare by UTF-16 code units; otherwise both sides become
//!   numbers (null → 0, booleans → 0/1, numeric text → its number, undefined, other text,
//!   arrays and objects → NaN) and a NaN makes the comparison false.
//! - `+`: when either side is a string, array or object, concatenation, with undefined and
//!   null reading as `""` (the reference's rule) and everything else as `value::to_text`
//!   (arrays and objects as JSON); otherwise numeric addition with the conversions above.
//! - `- * / %` and unary `-`: numeric. A result that is NaN or infinite (`1 / 0`, `'x' * 2`,
//!   `undefined + 1`) is undefined, since JSON has no such number.
//!
//! # Where this differs from the reference (voyageai-cli)
//!
//! - Templates get the whole language; the reference's templates knew only paths, `||` and `+`,
//!   so the ternaries and comparisons in its shipped files silently gave undefined (or `""`).
//! - `+` adds two numbers (the reference always concatenated: `1 + 2` → `"12"`).
//! - Numeric segments (`results.0.score`) and string `.length` work everywhere (the reference:
//!   only in conditions).
//! - Reading through null gives undefined (the reference gave null, so a skipped step's
//!   `{{ s.output.text }}` interpolated as "null" there and as "" here).
//! - `!` binds to its operand as in JavaScript: `!a === b` is `(!a) === b` (the reference's
//!   condition evaluator negated the whole rest). `||` and `&&` return an operand, not a
//!   boolean (the same truthiness wherever a condition is expected).
//! - Deliberately unlike JavaScript: `===` on arrays and objects compares deeply; `==` between an
//!   array or object and a primitive is false; NaN and infinities are undefined; an unknown
//!   escape such as `'\d'` is a syntax error rather than `d`.
//! - Syntax errors are found when the workflow loads, with a position; the reference turned a
//!   broken template into undefined (or `""`, or `false`) at run time.
//! - String literals reference nothing (`{{ 'abc' }}` made the reference look for a step
//!   `'abc'`, and `{{ x || 'hello.world' }}` one called `hello`).
//!
//! # Bounds
//!
//! Sources longer than [`MAX_EXPR_LEN`] characters and nesting (parentheses, brackets, unary
//! operators, ternary branches, `{{ }}` in conditions) deeper than [`MAX_DEPTH`] are syntax
//! errors. Runs of one binary operator are flat nodes, so the tree — and every recursion over
//! it — is bounded by the nesting depth; evaluation visits each node at most once. Values are
//! only read, never built, except text by `+`, which stays within the caller's
//! [`Budget`](crate::limits::Budget).

mod eval;
pub(crate) mod lexer;
mod ops;
mod parser;
mod refs;
pub(crate) mod scan;
mod syntax;

pub use refs::Reference;
pub use syntax::{MAX_DEPTH, MAX_EXPR_LEN, SyntaxError};

use crate::limits::{Budget, Limit};
use crate::scope::Scope;
use serde_json::Value;
use std::borrow::Cow;
use std::ops::Range;
use std::sync::Arc;

/// A parsed expression. The tree is shared, so cloning is cheap (and never recursive).
#[derive(Debug, Clone, PartialEq)]
pub struct Expr {
    node: Arc<parser::Node>,
}

impl Expr {
    pub fn parse(src: &str) -> Result<Expr, SyntaxError> {
        parser::parse(src, false).map(|node| Expr {
            node: Arc::new(node),
        })
    }

    /// Parse a condition: like [`Expr::parse`], but each `{{ e }}` is a parenthesised
    /// sub-expression.
    pub(crate) fn parse_condition(src: &str) -> Result<Expr, SyntaxError> {
        parser::parse(src, true).map(|node| Expr {
            node: Arc::new(node),
        })
    }

    /// The expression's value (`None` for undefined), building text within `budget`.
    pub fn eval(&self, scope: &dyn Scope, budget: &Budget) -> Result<Option<Value>, Limit> {
        self.eval_cow(scope, budget).map(|v| v.map(Cow::into_owned))
    }

    /// Evaluate without copying: a result read from the scope (or a literal in the expression)
    /// is borrowed; a computed one is owned. Text that `+` builds is charged to `budget`; past
    /// it the evaluation fails with the budget's limit.
    pub fn eval_cow<'a>(
        &'a self,
        scope: &'a dyn Scope,
        budget: &Budget,
    ) -> Result<Option<Cow<'a, Value>>, Limit> {
        let cx = eval::Cx::new(scope, budget);
        let value = eval::eval(&self.node, &cx);
        match cx.exceeded() {
            None => Ok(value),
            Some(limit) => Err(limit),
        }
    }

    /// The value's JavaScript truthiness.
    pub fn eval_bool(&self, scope: &dyn Scope, budget: &Budget) -> Result<bool, Limit> {
        self.eval_cow(scope, budget)
            .map(|v| crate::value::truthy_opt(v.as_deref()))
    }

    pub fn references(&self) -> Vec<Reference> {
        let mut out = Vec::new();
        refs::collect(&self.node, &mut out);
        out
    }
}

/// Character ranges of the `{{ … }}` blocks of a condition (where they are parenthesised
/// sub-expressions), braces included; inner blocks come before the blocks holding them.
pub(crate) fn condition_blocks(src: &str) -> Vec<Range<usize>> {
    let mut lexer = lexer::Lexer::new(src, true);
    let mut open = Vec::new();
    let mut blocks = Vec::new();
    while let Ok(token) = lexer.next_token() {
        match token.tok {
            lexer::Tok::End => break,
            lexer::Tok::OpenTemplate => open.push(token.pos),
            lexer::Tok::CloseTemplate => {
                if let Some(start) = open.pop() {
                    blocks.push(start..token.end);
                }
            }
            _ => {}
        }
    }
    blocks
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scope::Context;
    use serde_json::json;

    fn refs(src: &str) -> Vec<String> {
        Expr::parse(src)
            .unwrap()
            .references()
            .into_iter()
            .map(|r| r.path)
            .collect()
    }

    #[test]
    fn references_in_source_order_with_normalised_paths() {
        assert_eq!(
            refs("search_1.output.results[0].score > inputs.min || defaults.db"),
            [
                "search_1.output.results[0].score",
                "inputs.min",
                "defaults.db"
            ]
        );
        assert_eq!(refs("results.0.score"), ["results[0].score"]);
        assert_eq!(refs("a['b c'].d[\"e\"]"), ["a[\"b c\"].d.e"]);
        assert_eq!(refs("a ? b : c"), ["a", "b", "c"]);
        assert_eq!(refs("(a || b).c"), ["a", "b"]);
        assert_eq!(refs("-a.b + !c"), ["a.b", "c"]);
        let r = Expr::parse("step.output").unwrap().references();
        assert_eq!(
            r,
            [Reference {
                root: "step".into(),
                path: "step.output".into(),
                span: 0..11,
                names: vec![("step".into(), 0..4), ("output".into(), 5..11)],
            }]
        );
    }

    #[test]
    fn references_know_where_each_name_is_written() {
        let src = "'é' + ab.a['b c'][0][k.z].w";
        let r = Expr::parse(src).unwrap().references();
        let text = |range: &Range<usize>| -> String {
            src.chars()
                .skip(range.start)
                .take(range.end - range.start)
                .collect()
        };
        assert_eq!(r[0].path, "ab.a[\"b c\"][0]");
        assert_eq!(text(&r[0].span), "ab.a['b c'][0]");
        assert_eq!(
            r[0].names
                .iter()
                .map(|(_, at)| text(at))
                .collect::<Vec<_>>(),
            ["ab", "a", "['b c']", "[0]"]
        );
        assert_eq!(
            r[0].names
                .iter()
                .map(|(n, _)| n.as_str())
                .collect::<Vec<_>>(),
            ["ab", "a", "b c", "0"]
        );
        assert_eq!(r[1].path, "k.z");
        assert_eq!(text(&r[1].span), "k.z");
        // In a condition, offsets count from the start of the whole condition.
        let c = "item.n > {{ inputs.min }}";
        let r = crate::template::Condition::parse(c).unwrap().references();
        assert_eq!(r[1].span, 12..22);
    }

    #[test]
    fn computed_indexes_stop_the_path_and_are_scanned_too() {
        assert_eq!(refs("a.b[item.i].c[j]"), ["a.b", "item.i", "j"]);
        assert_eq!(refs("a[0][i + k.l]"), ["a[0]", "i", "k.l"]);
    }

    #[test]
    fn string_literals_are_not_references() {
        assert!(refs("'abc'").is_empty());
        assert_eq!(refs("x || 'hello.world'"), ["x"]);
        assert!(refs("'a' + \"b.c\" + 1 + null + undefined + true").is_empty());
    }

    #[test]
    fn eval_with_a_context_scope() {
        let mut ctx = Context::new();
        ctx.insert("inputs", json!({"q": "hi", "n": 0}));
        let budget = crate::limits::Limits::DEFAULT.value_budget();
        let e = Expr::parse("inputs.q + '!'").unwrap();
        assert_eq!(e.eval(&ctx, &budget), Ok(Some(json!("hi!"))));
        assert_eq!(
            Expr::parse("inputs.n").unwrap().eval_bool(&ctx, &budget),
            Ok(false)
        );
        assert!(matches!(
            Expr::parse("inputs.n || 1")
                .unwrap()
                .eval_cow(&ctx, &budget),
            Ok(Some(_))
        ));
        assert_eq!(
            Expr::parse("inputs.zz").unwrap().eval(&ctx, &budget),
            Ok(None)
        );
        let tiny = Budget::new(Limit::ValueBytes(2));
        assert_eq!(e.eval(&ctx, &tiny), Err(Limit::ValueBytes(2)));
    }

    #[test]
    fn errors_display_with_position() {
        let e = Expr::parse("a }").unwrap_err();
        assert_eq!(e.to_string(), "unexpected '}' at position 2");
    }
}
