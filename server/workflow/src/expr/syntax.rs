//! What makes expression source invalid: the bounds on its length and nesting, and the error
//! that names the first problem and where it is.

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
