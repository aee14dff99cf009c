//! Templates (`{{ expr }}` inside any JSON string, deep) and conditions, parsed once at load.
//!
//! CONTRACT (implemented by the expression work package):
//! - `Template::parse(&Value)` walks strings, arrays and objects; a string that is exactly one
//!   `{{ expr }}` (surrounding whitespace inside the braces allowed) becomes `Sole` and keeps the
//!   value's type when resolved; other strings with templates interpolate (`value::to_text`);
//!   strings without `{{` and non-strings are literals. Every syntax error is reported, each with
//!   the JSON pointer of the string inside the value and the character position in that string.
//! - `Template::resolve(scope)` → `None` for undefined. Objects drop keys that resolve to
//!   undefined; arrays turn undefined members into `null`.
//! - `Condition::parse(&str)`: an expression in which `{{ e }}` blocks act as parenthesised
//!   sub-expressions (`item.score >= {{ inputs.min }}`); a string that is exactly `{{ e }}` is `e`.

use crate::expr::{Expr, Reference, SyntaxError};
use crate::scope::Scope;
use serde_json::Value;

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
    Literal(Value),
    _Todo(Expr),
}

impl Template {
    pub fn parse(_value: &Value) -> Result<Template, Vec<TemplateError>> {
        todo!("expression work package")
    }

    pub fn resolve(&self, _scope: &dyn Scope) -> Option<Value> {
        todo!("expression work package")
    }

    pub fn references(&self) -> Vec<Reference> {
        todo!("expression work package")
    }

    /// True when the value holds no template at all.
    pub fn is_literal(&self) -> bool {
        matches!(self, Template::Literal(_))
    }
}

/// A parsed condition.
#[derive(Debug, Clone, PartialEq)]
pub struct Condition {
    _todo: (),
}

impl Condition {
    pub fn parse(_src: &str) -> Result<Condition, TemplateError> {
        todo!("expression work package")
    }

    pub fn eval(&self, _scope: &dyn Scope) -> bool {
        todo!("expression work package")
    }

    pub fn references(&self) -> Vec<Reference> {
        todo!("expression work package")
    }
}
