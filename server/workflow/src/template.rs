//! Templates (`{{ expr }}` inside any JSON string, deep) and conditions, parsed once at load.
//!
//! What it guarantees:
//! - `Template::parse(&Value)` walks strings, arrays and objects; a string that is exactly one
//!   `{{ expr }}` (surrounding whitespace inside the braces allowed) becomes `Sole` and keeps the
//!   value's type when resolved; other strings with templates interpolate (`value::to_text`);
//!   strings without `{{` and non-strings are literals. Every syntax error is reported, each with
//!   the JSON pointer of the string inside the value and the character position in that string.
//! - `Template::resolve(scope, budget)` → `None` for undefined. Objects drop keys that resolve to
//!   undefined; arrays turn undefined members into `null`. Fails with the limit it ran into when
//!   the value would outgrow `budget` or nest deeper than `limits::MAX_DEPTH`.
//! - `Condition::parse(&str)`: an expression in which `{{ e }}` blocks act as parenthesised
//!   sub-expressions (`item.score >= {{ inputs.min }}`); a string that is exactly `{{ e }}` is `e`.
//!
//! # Templates
//!
//! - A string that is exactly one `{{ expr }}` — starting with `{{` and ending with the `}}`
//!   that closes it, so `"{{ a }} and {{ b }}"` is not one — is [`Template::Sole`]: it resolves
//!   to the expression's value with its type (array, object, number, boolean, null, or
//!   undefined). Unlike the reference, whitespace outside the braces makes it text.
//! - Any other string containing `{{` is [`Template::Text`]: literal text and expressions, each
//!   expression read as `value::to_text` (undefined → `""`, null → `"null"`, arrays and objects
//!   as JSON). Note that `+` inside an expression reads null as `""` instead.
//! - A block ends at the first `}}` outside a quoted string (`{{ x || '}}' }}` is one block).
//!   An unclosed `{{` and an empty `{{ }}` are errors; there is no escape for a literal `{{`.
//! - Strings without `{{` and other scalars are literals, and an array or object with no
//!   template anywhere inside collapses into one [`Template::Literal`].
//! - Resolving an object drops keys whose value is undefined; in an array an undefined member
//!   becomes `null` (as `JSON.stringify` does).
//! - Errors: every syntax error in the value is reported, each with the JSON pointer of its
//!   string and the character offset within that string. The reference instead resolves a
//!   broken template to undefined (or `""`) at run time.

use crate::expr::scan::{Piece, scan};
use crate::expr::{Expr, Reference, SyntaxError};
use crate::limits::{Budget, Limit, MAX_DEPTH};
use crate::scope::Scope;
use serde_json::{Map, Value};
use std::borrow::Cow;

/// A syntax error inside a templated value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message} at position {position}{}", if pointer.is_empty() { String::new() } else { format!(" in {pointer}") })]
pub struct TemplateError {
    /// JSON pointer of the string within the parsed value ("" for the value itself).
    pub pointer: String,
    /// Character offset in that string.
    pub position: usize,
    pub message: String,
}

impl TemplateError {
    pub fn from_syntax(pointer: &str, offset: usize, err: SyntaxError) -> Self {
        Self {
            pointer: pointer.to_string(),
            position: offset + err.position,
            message: err.message,
        }
    }
}

/// A parsed templated JSON value.
#[derive(Debug, Clone, PartialEq)]
pub enum Template {
    /// A value with no template anywhere inside; resolves to a copy of itself.
    Literal(Value),
    /// A string that is exactly one `{{ expr }}`; resolves to the expression's value, any type.
    Sole(Expr),
    /// A string mixing text and `{{ expr }}` blocks; resolves to a string.
    Text(Vec<Part>),
    /// An array with a template somewhere inside.
    Array(Vec<Template>),
    /// An object with a template somewhere inside, keys in their original order.
    Object(Vec<(String, Template)>),
}

/// One piece of an interpolated string.
#[derive(Debug, Clone, PartialEq)]
pub enum Part {
    Text(String),
    Expr(Expr),
}

impl Template {
    pub fn parse(value: &Value) -> Result<Template, Vec<TemplateError>> {
        let mut errors = Vec::new();
        let template = parse_value(value, &mut String::new(), &mut errors);
        if errors.is_empty() {
            Ok(template)
        } else {
            Err(errors)
        }
    }

    /// The value the template makes (`None` for undefined), built within `budget`: every byte
    /// it builds or copies is charged as it is made, and nothing deeper than
    /// [`MAX_DEPTH`](crate::limits::MAX_DEPTH) is made.
    pub fn resolve(&self, scope: &dyn Scope, budget: &Budget) -> Result<Option<Value>, Limit> {
        self.resolve_at(scope, budget, 0)
    }

    /// Resolve as a value sitting `depth` levels deep in the one being built.
    fn resolve_at(
        &self,
        scope: &dyn Scope,
        budget: &Budget,
        depth: usize,
    ) -> Result<Option<Value>, Limit> {
        match self {
            Template::Literal(v) => budget.copy(v, depth).map(Some),
            Template::Sole(expr) => match expr.eval_cow(scope, budget)? {
                None => Ok(None),
                Some(Cow::Borrowed(v)) => budget.copy(v, depth).map(Some),
                // Computed: a scalar, or text `+` already charged.
                Some(Cow::Owned(v)) => Ok(Some(v)),
            },
            Template::Text(parts) => {
                let mut out = String::new();
                for part in parts {
                    match part {
                        Part::Text(text) => budget.push_str(&mut out, text)?,
                        Part::Expr(expr) => match expr.eval_cow(scope, budget)? {
                            Some(Cow::Owned(Value::String(s))) if out.is_empty() => out = s,
                            Some(Cow::Owned(Value::String(s))) => out.push_str(&s),
                            v => budget.push_text(&mut out, v.as_deref())?,
                        },
                    }
                }
                Ok(Some(Value::String(out)))
            }
            Template::Array(items) => {
                let inner = enter(depth)?;
                budget.charge(2 + items.len() as u64)?;
                let mut out = Vec::with_capacity(items.len());
                for t in items {
                    let v = t.resolve_at(scope, budget, inner)?;
                    out.push(v.unwrap_or(Value::Null));
                }
                Ok(Some(Value::Array(out)))
            }
            Template::Object(entries) => {
                let inner = enter(depth)?;
                budget.charge(2 + entries.len() as u64)?;
                let mut out = Map::with_capacity(entries.len());
                for (k, t) in entries {
                    if let Some(v) = t.resolve_at(scope, budget, inner)? {
                        budget.charge(k.len() as u64 + 2)?;
                        out.insert(k.clone(), v);
                    }
                }
                Ok(Some(Value::Object(out)))
            }
        }
    }

    pub fn references(&self) -> Vec<Reference> {
        let mut out = Vec::new();
        self.for_each_expr(&mut |e| out.extend(e.references()));
        out
    }

    /// Visit every embedded expression in document order.
    pub fn for_each_expr<'a>(&'a self, f: &mut impl FnMut(&'a Expr)) {
        match self {
            Template::Literal(_) => {}
            Template::Sole(expr) => f(expr),
            Template::Text(parts) => parts.iter().for_each(|p| {
                if let Part::Expr(e) = p {
                    f(e);
                }
            }),
            Template::Array(items) => items.iter().for_each(|t| t.for_each_expr(f)),
            Template::Object(entries) => entries.iter().for_each(|(_, t)| t.for_each_expr(f)),
        }
    }

    /// True when the value holds no template at all.
    pub fn is_literal(&self) -> bool {
        matches!(self, Template::Literal(_))
    }

    /// The literal value, when there is no template.
    fn into_literal(self) -> Option<Value> {
        match self {
            Template::Literal(v) => Some(v),
            _ => None,
        }
    }
}

/// Entering an array or object built at `depth`.
fn enter(depth: usize) -> Result<usize, Limit> {
    if depth >= MAX_DEPTH {
        return Err(Limit::Depth);
    }
    Ok(depth + 1)
}

fn parse_value(value: &Value, pointer: &mut String, errors: &mut Vec<TemplateError>) -> Template {
    match value {
        Value::String(s) => parse_string(s, pointer, errors),
        Value::Array(items) => {
            let parts: Vec<Template> = items
                .iter()
                .enumerate()
                .map(|(i, item)| at(pointer, &i.to_string(), |p| parse_value(item, p, errors)))
                .collect();
            if parts.iter().all(Template::is_literal) {
                Template::Literal(Value::Array(
                    parts
                        .into_iter()
                        .filter_map(Template::into_literal)
                        .collect(),
                ))
            } else {
                Template::Array(parts)
            }
        }
        Value::Object(map) => {
            let entries: Vec<(String, Template)> = map
                .iter()
                .map(|(k, v)| (k.clone(), at(pointer, k, |p| parse_value(v, p, errors))))
                .collect();
            if entries.iter().all(|(_, t)| t.is_literal()) {
                Template::Literal(Value::Object(
                    entries
                        .into_iter()
                        .filter_map(|(k, t)| Some((k, t.into_literal()?)))
                        .collect(),
                ))
            } else {
                Template::Object(entries)
            }
        }
        other => Template::Literal(other.clone()),
    }
}

/// Run `f` with `token` appended to the JSON pointer (escaped: `~` → `~0`, `/` → `~1`).
fn at<T>(pointer: &mut String, token: &str, f: impl FnOnce(&mut String) -> T) -> T {
    let len = pointer.len();
    pointer.push('/');
    pointer.push_str(&token.replace('~', "~0").replace('/', "~1"));
    let out = f(pointer);
    pointer.truncate(len);
    out
}

fn parse_string(s: &str, pointer: &str, errors: &mut Vec<TemplateError>) -> Template {
    if !s.contains("{{") {
        return Template::Literal(Value::String(s.to_owned()));
    }
    let pieces = match scan(s) {
        Ok(pieces) => pieces,
        Err(e) => {
            errors.push(TemplateError::from_syntax(pointer, 0, e));
            return Template::Literal(Value::Null);
        }
    };
    let sole = pieces.len() == 1;
    let mut parts = Vec::with_capacity(pieces.len());
    for piece in pieces {
        match piece {
            Piece::Text(text) => parts.push(Part::Text(text.to_owned())),
            Piece::Block { expr, open, .. } if expr.trim().is_empty() => {
                errors.push(TemplateError {
                    pointer: pointer.to_owned(),
                    position: open,
                    message: "empty '{{ }}'".into(),
                });
            }
            Piece::Block { expr, start, .. } => match Expr::parse(expr) {
                Ok(e) => parts.push(Part::Expr(e)),
                Err(e) => errors.push(TemplateError::from_syntax(pointer, start, e)),
            },
        }
    }
    match parts.pop() {
        Some(Part::Expr(e)) if sole => Template::Sole(e),
        Some(last) => {
            parts.push(last);
            Template::Text(parts)
        }
        None => Template::Literal(Value::Null),
    }
}

/// A parsed condition (step `condition`, `conditional.condition`, `filter.condition`).
///
/// The whole string is one expression in which each `{{ e }}` is a parenthesised
/// sub-expression: `item.score >= {{ inputs.min_score }}` is `item.score >= (inputs.min_score)`
/// and `{{ a.length > 0 && b }}` is `a.length > 0 && b`. The result is the value's JavaScript
/// truthiness. The reference instead substitutes the blocks' text first and re-parses the
/// result, so a string input turned into a bare word (a path); here values keep their types, so
/// `item.kind == {{ inputs.kind }}` compares with the string, and `{{ inputs.q }}` is the
/// truthiness of `inputs.q` rather than a lookup of the path its text spells. A condition that
/// fails to parse is an error at load, where the reference evaluated it to false.
#[derive(Debug, Clone, PartialEq)]
pub struct Condition {
    expr: Expr,
}

impl Condition {
    /// Errors carry pointer `""` and the character position in `src`; an empty or blank
    /// condition is an error ("condition is empty").
    pub fn parse(src: &str) -> Result<Condition, TemplateError> {
        if src.trim().is_empty() {
            return Err(TemplateError {
                pointer: String::new(),
                position: 0,
                message: "condition is empty".into(),
            });
        }
        Expr::parse_condition(src)
            .map(|expr| Condition { expr })
            .map_err(|e| TemplateError::from_syntax("", 0, e))
    }

    /// Whether the condition holds; text `+` builds is charged to `budget`.
    pub fn eval(&self, scope: &dyn Scope, budget: &Budget) -> Result<bool, Limit> {
        self.expr.eval_bool(scope, budget)
    }

    pub fn references(&self) -> Vec<Reference> {
        self.expr.references()
    }

    /// The condition as one expression.
    pub fn expr(&self) -> &Expr {
        &self.expr
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::{MAX_DEPTH as MAX_EXPR_DEPTH, MAX_EXPR_LEN};
    use crate::limits::Limits;
    use crate::scope::Context;
    use serde_json::json;

    fn ctx() -> Context {
        let mut ctx = Context::new();
        ctx.insert(
            "inputs",
            json!({"q": "rust", "n": 0, "min_score": 0.5, "list": [1, 2], "none": null,
                   "obj": {"a": 1}, "collection2": [], "chat_history": "hi there",
                   "kind": "doc", "flag": true}),
        );
        ctx.insert(
            "search_primary",
            json!({"output": {"results": [{"score": 0.9}, {"score": 0.3}]}}),
        );
        ctx.insert("merge_results", json!({"output": null, "skipped": true}));
        ctx.insert("check", json!({"output": {"similarity": 0.95}}));
        ctx.insert("fresh", json!({"output": null, "skipped": true}));
        ctx
    }

    fn resolve(template: Value) -> Option<Value> {
        let budget = Limits::DEFAULT.value_budget();
        Template::parse(&template)
            .unwrap()
            .resolve(&ctx(), &budget)
            .unwrap()
    }

    fn errors(template: Value) -> Vec<TemplateError> {
        Template::parse(&template).unwrap_err()
    }

    fn err(pointer: &str, position: usize, message: &str) -> TemplateError {
        TemplateError {
            pointer: pointer.into(),
            position,
            message: message.into(),
        }
    }

    fn condition(src: &str) -> bool {
        Condition::parse(src)
            .unwrap_or_else(|e| panic!("{src}: {e}"))
            .eval(&ctx(), &Limits::DEFAULT.value_budget())
            .unwrap()
    }

    #[test]
    fn a_sole_template_keeps_the_type() {
        assert_eq!(resolve(json!("{{ inputs.list }}")), Some(json!([1, 2])));
        assert_eq!(resolve(json!("{{inputs.n}}")), Some(json!(0)));
        assert_eq!(resolve(json!("{{ inputs.obj }}")), Some(json!({"a": 1})));
        assert_eq!(resolve(json!("{{ inputs.none }}")), Some(json!(null)));
        assert_eq!(resolve(json!("{{ inputs.flag }}")), Some(json!(true)));
        assert_eq!(resolve(json!("{{ inputs.missing }}")), None);
        assert_eq!(
            resolve(json!("{{ inputs.collection2.length > 0 }}")),
            Some(json!(false))
        );
        assert!(matches!(
            Template::parse(&json!("{{ a }}")).unwrap(),
            Template::Sole(_)
        ));
    }

    #[test]
    fn other_templated_strings_interpolate() {
        assert_eq!(resolve(json!("q={{ inputs.q }}")), Some(json!("q=rust")));
        assert_eq!(
            resolve(json!("{{ inputs.q }}{{ inputs.n }}")),
            Some(json!("rust0"))
        );
        assert_eq!(
            resolve(json!("{{ inputs.n }} and {{ inputs.q }}")),
            Some(json!("0 and rust"))
        );
        assert_eq!(resolve(json!(" {{ inputs.n }}")), Some(json!(" 0")));
        assert_eq!(resolve(json!("{{ inputs.list }}!")), Some(json!("[1,2]!")));
        assert_eq!(
            resolve(json!("{{ inputs.obj }}!")),
            Some(json!("{\"a\":1}!"))
        );
        assert!(matches!(
            Template::parse(&json!("{{ a }} and {{ b }}")).unwrap(),
            Template::Text(_)
        ));
    }

    #[test]
    fn undefined_interpolates_as_empty_and_null_as_null() {
        assert_eq!(resolve(json!("[{{ inputs.missing }}]")), Some(json!("[]")));
        assert_eq!(resolve(json!("[{{ inputs.none }}]")), Some(json!("[null]")));
        // Inside an expression, `+` reads null as "" (the reference's rule).
        assert_eq!(
            resolve(json!("[{{ '' + inputs.none }}]")),
            Some(json!("[]"))
        );
    }

    #[test]
    fn closing_braces_inside_quotes_do_not_end_a_block() {
        assert_eq!(
            resolve(json!("{{ inputs.missing || '}}' }}")),
            Some(json!("}}"))
        );
        assert_eq!(resolve(json!("<{{ \"a}}b\" }}>")), Some(json!("<a}}b>")));
    }

    #[test]
    fn literals_and_collapsed_subtrees() {
        for v in [
            json!("plain"),
            json!(3),
            json!(null),
            json!({"a": [1, {"b": "c"}]}),
        ] {
            let t = Template::parse(&v).unwrap();
            assert_eq!(t, Template::Literal(v.clone()));
            assert!(t.references().is_empty());
        }
        let t = Template::parse(&json!({"fixed": {"a": [1, 2]}, "q": "{{ inputs.q }}"})).unwrap();
        let Template::Object(entries) = &t else {
            panic!("{t:?}")
        };
        assert_eq!(entries[0].1, Template::Literal(json!({"a": [1, 2]})));
        assert!(!t.is_literal());
    }

    #[test]
    fn objects_drop_undefined_keys_and_arrays_null_them() {
        assert_eq!(
            resolve(json!({
                "q": "{{ inputs.q }}",
                "gone": "{{ inputs.missing }}",
                "kept": "{{ inputs.none }}",
                "deep": {"list": ["{{ inputs.missing }}", "{{ inputs.n }}", 7]},
            })),
            Some(json!({"q": "rust", "kept": null, "deep": {"list": [null, 0, 7]}}))
        );
        // Key order is preserved.
        let keys: Vec<String> = resolve(json!({"z": "{{ inputs.n }}", "a": 1, "m": "x"}))
            .unwrap()
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect();
        assert_eq!(keys, ["z", "a", "m"]);
    }

    #[test]
    fn shipped_file_idioms() {
        // rag-chat: a ternary with concatenation, embedded in text (the reference drops it).
        let prompt = "{{ inputs.chat_history ? 'Previous conversation:\\n' + inputs.chat_history + '\\n\\n' : '' }}Based on...";
        assert_eq!(
            resolve(json!(prompt)),
            Some(json!("Previous conversation:\nhi there\n\nBased on..."))
        );
        // The same with real line breaks inside the quotes (JSON "\n" already decoded).
        let raw = "{{ inputs.missing ? 'Previous:\n' + inputs.missing : '' }}Based on...";
        assert_eq!(resolve(json!(raw)), Some(json!("Based on...")));
        // Fallback through a skipped step.
        assert_eq!(
            resolve(json!(
                "{{ merge_results.output.results || search_primary.output.results }}"
            )),
            Some(json!([{"score": 0.9}, {"score": 0.3}]))
        );
        // smart-ingest: the reference always yields undefined here.
        assert_eq!(
            resolve(json!("{{ fresh.output ? true : false }}")),
            Some(json!(false))
        );
        // code-review: concatenation with a literal.
        assert_eq!(
            resolve(json!("{{ 'text: ' + inputs.q }}")),
            Some(json!("text: rust"))
        );
    }

    #[test]
    fn references_of_every_embedded_expression() {
        let t = Template::parse(&json!({
            "a": "{{ search_primary.output.results[0].score }}",
            "b": ["x {{ inputs.q }} {{ 'abc' }}", "{{ y || 'hello.world' }}"],
        }))
        .unwrap();
        let paths: Vec<String> = t.references().into_iter().map(|r| r.path).collect();
        assert_eq!(
            paths,
            ["search_primary.output.results[0].score", "inputs.q", "y"]
        );
    }

    #[test]
    fn every_error_is_reported_with_pointer_and_position() {
        assert_eq!(
            errors(json!({
                "ok": "{{ a }}",
                "arrays": ["{{ a b }}", "x {{ c ? d }}"],
                "a/b~": "text {{ unclosed",
                "empty": "{{  }} and {{ a. }}",
            })),
            [
                err("/arrays/0", 5, "unexpected identifier 'b'"),
                err("/arrays/1", 11, "expected ':' of '?:'"),
                err("/a~1b~0", 5, "unclosed '{{'"),
                err("/empty", 0, "empty '{{ }}'"),
                err("/empty", 17, "expected a property name after '.'"),
            ]
        );
        assert_eq!(
            errors(json!("{{ f(x) }}")),
            [err("", 4, "function calls are not supported")]
        );
        assert_eq!(
            errors(json!("é{{ 'abc }}")),
            [err("", 4, "unterminated string")]
        );
        assert_eq!(errors(json!("{{ a }")), [err("", 0, "unclosed '{{'")]);
        assert_eq!(
            errors(json!("{{ a }")).first().unwrap().to_string(),
            "unclosed '{{' at position 0"
        );
        assert_eq!(
            errors(json!(["{{ } }}"])).first().unwrap().to_string(),
            "unexpected '}' at position 3 in /0"
        );
    }

    #[test]
    fn limits_apply_to_each_expression() {
        let long = format!("x {{{{ {} }}}}", "a".repeat(MAX_EXPR_LEN + 1));
        let e = errors(json!(long));
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].position, 4 + MAX_EXPR_LEN);
        let deep = format!(
            "{{{{ {}a{} }}}}",
            "(".repeat(MAX_EXPR_DEPTH + 1),
            ")".repeat(MAX_EXPR_DEPTH + 1)
        );
        assert!(errors(json!(deep))[0].message.contains("nested too deeply"));
        // A long text with many short templates is fine.
        let many = "{{ inputs.n }} ".repeat(1000);
        assert_eq!(resolve(json!(many)).unwrap().as_str().unwrap().len(), 2000);
    }

    #[test]
    fn conditions_treat_blocks_as_parenthesised_expressions() {
        assert!(Condition::parse("item.score >= {{ inputs.min_score }}").is_ok());
        let mut ctx = ctx();
        ctx.insert("item", json!({"score": 0.7, "kind": "doc"}));
        let budget = Limits::DEFAULT.value_budget();
        let eval = |src: &str| Condition::parse(src).unwrap().eval(&ctx, &budget).unwrap();
        assert!(eval("item.score >= {{ inputs.min_score }}"));
        assert!(!eval("item.score >= {{ inputs.min_score }} * 2"));
        // Types are kept: a string input compares as a string, not as a path.
        assert!(eval("item.kind == {{ inputs.kind }}"));
        assert!(eval("{{ inputs.q }}"));
        assert!(!condition("{{ inputs.collection2.length > 0 }}"));
        assert!(condition("{{ inputs.list.length > 0 && inputs.q }}"));
        assert!(condition(
            "{{ search_primary.output.results.0.score > 0.8 }}"
        ));
        assert!(!condition(
            "{{ !check.output || check.output.similarity < 0.9 }}"
        ));
        assert!(condition(
            "{{ !fresh.output || fresh.output.similarity < 0.9 }}"
        ));
        assert!(condition("inputs.q === 'rust' && !inputs.n"));
        assert!(!condition("inputs.missing"));
        assert!(condition("'}}' == '}}'"));
    }

    #[test]
    fn condition_errors() {
        for src in ["", "   \n"] {
            assert_eq!(
                Condition::parse(src).unwrap_err(),
                err("", 0, "condition is empty")
            );
        }
        assert_eq!(
            Condition::parse("a >= {{ }}").unwrap_err(),
            err("", 5, "empty '{{ }}'")
        );
        assert_eq!(
            Condition::parse("{{ a ").unwrap_err(),
            err("", 5, "expected '}}'")
        );
        assert_eq!(
            Condition::parse("a > 1 }}").unwrap_err(),
            err("", 6, "unexpected '}}'")
        );
        assert_eq!(
            Condition::parse("a ? b").unwrap_err(),
            err("", 5, "expected ':' of '?:'")
        );
        let too_long = "a".repeat(MAX_EXPR_LEN + 1);
        assert!(Condition::parse(&too_long).is_err());
    }

    #[test]
    fn condition_references() {
        let c = Condition::parse("item.score >= {{ inputs.min_score }} && {{ 'x.y' }}").unwrap();
        let paths: Vec<String> = c.references().into_iter().map(|r| r.path).collect();
        assert_eq!(paths, ["item.score", "inputs.min_score"]);
        assert_eq!(c.expr().references().len(), 2);
    }

    /// `depth` arrays around `inner`, as template JSON.
    fn nested(depth: usize, inner: Value) -> Value {
        (0..depth).fold(inner, |v, _| Value::Array(vec![v]))
    }

    #[test]
    fn values_made_at_run_time_nest_at_most_max_depth() {
        let mut ctx = ctx();
        // A value as deep as parsing allows, wrapped once more by a template: refused.
        ctx.insert("prev", json!({"output": nested(120, json!(1))}));
        let wrap =
            |depth: usize| Template::parse(&nested(depth, json!("{{ prev.output }}"))).unwrap();
        let budget = Limits::DEFAULT.value_budget();
        assert_eq!(
            wrap(8).resolve(&ctx, &budget).unwrap(),
            Some(nested(128, json!(1)))
        );
        assert_eq!(wrap(9).resolve(&ctx, &budget), Err(Limit::Depth));
        // Literal structure alone counts too.
        let literal = Template::parse(&json!({"a": nested(127, json!("{{ inputs.q }}"))})).unwrap();
        assert_eq!(
            literal.resolve(&ctx, &budget),
            Ok(Some(json!({"a": nested(127, json!("rust"))})))
        );
        let literal = Template::parse(&json!({"a": nested(128, json!("{{ inputs.q }}"))})).unwrap();
        assert_eq!(literal.resolve(&ctx, &budget), Err(Limit::Depth));
    }

    #[test]
    fn interpolated_text_is_charged_as_it_is_built() {
        let mut ctx = ctx();
        ctx.insert("big", json!({"x": "y".repeat(40_000)}));
        // 50,000 copies of a 40 KB string would be 2 GB: refused once past the budget.
        let bomb = Template::parse(&json!("{{ big.x }}".repeat(50_000))).unwrap();
        let budget = Budget::new(Limit::ValueBytes(1 << 20));
        assert_eq!(bomb.resolve(&ctx, &budget), Err(Limit::ValueBytes(1 << 20)));
        assert!(budget.used() <= (1 << 20) + 40_000, "{}", budget.used());
        // Within the budget the same template resolves.
        let fine = Template::parse(&json!("{{ big.x }}".repeat(20))).unwrap();
        let budget = Budget::new(Limit::ValueBytes(1 << 20));
        let text = fine.resolve(&ctx, &budget).unwrap().unwrap();
        assert_eq!(text.as_str().map(str::len), Some(800_000));
        // Concatenation inside one expression, and copies into arrays, are charged too.
        let plus = Template::parse(&json!(format!(
            "{{{{ {} }}}}",
            vec!["big.x"; 30].join(" + ")
        )))
        .unwrap();
        let budget = Budget::new(Limit::ValueBytes(1 << 20));
        assert_eq!(plus.resolve(&ctx, &budget), Err(Limit::ValueBytes(1 << 20)));
        let copies = Template::parse(&Value::Array(vec![json!("{{ big }}"); 30])).unwrap();
        let budget = Budget::new(Limit::ValueBytes(1 << 20));
        assert_eq!(
            copies.resolve(&ctx, &budget),
            Err(Limit::ValueBytes(1 << 20))
        );
        // Conditions spend from their budget as well.
        let cond = Condition::parse(&format!("{} == ''", vec!["big.x"; 30].join(" + "))).unwrap();
        let budget = Budget::new(Limit::ValueBytes(1 << 20));
        assert_eq!(cond.eval(&ctx, &budget), Err(Limit::ValueBytes(1 << 20)));
    }
}
