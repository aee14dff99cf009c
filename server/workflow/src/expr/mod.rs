//! The expression language shared by templates, `condition`, `filter` and `conditional`:
//! a lexer, a recursive-descent parser producing a typed tree, and a pure evaluator.
//!
//! CONTRACT (implemented by the expression work package; see docs/workflows.md):
//! - `Expr::parse(src)` parses one expression (the text between `{{` and `}}`), rejecting
//!   sources longer than `MAX_EXPR_LEN` chars or nested deeper than `MAX_DEPTH`.
//! - `Expr::eval(scope)` returns `None` for undefined; it never panics, never loops, never does
//!   I/O, and never clones a value it only reads through (paths borrow from the scope).
//! - `Expr::references()` lists every path rooted at an identifier, in source order.

use crate::scope::Scope;
use serde_json::Value;

/// Longest expression source accepted, in characters.
pub const MAX_EXPR_LEN: usize = 4096;
/// Deepest nesting of parentheses, unary operators, ternaries and brackets.
pub const MAX_DEPTH: usize = 64;

/// A syntax error at a character offset in the expression source.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message} at position {position}")]
pub struct SyntaxError {
    pub position: usize,
    pub message: String,
}

/// A path rooted at an identifier, as written: `search_1.output.results` → root `search_1`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reference {
    pub root: String,
    /// The path as text, normalised (`a.b[0].c`).
    pub path: String,
}

/// A parsed expression.
#[derive(Debug, Clone, PartialEq)]
pub struct Expr {
    _todo: (),
}

impl Expr {
    pub fn parse(_src: &str) -> Result<Expr, SyntaxError> {
        todo!("expression work package")
    }

    pub fn eval(&self, _scope: &dyn Scope) -> Option<Value> {
        todo!("expression work package")
    }

    pub fn eval_bool(&self, scope: &dyn Scope) -> bool {
        crate::value::truthy_opt(self.eval(scope).as_ref())
    }

    pub fn references(&self) -> Vec<Reference> {
        todo!("expression work package")
    }
}
