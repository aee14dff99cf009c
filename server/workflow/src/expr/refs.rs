//! The paths an expression reads, for dependency inference and validation.
//!
//! Each identifier-rooted path is reported once where it is written, in source order, as
//! normalised text: `.name` for identifier keys, `[0]` for canonical indexes (`.0` and `[0]`
//! alike), `["any key"]` otherwise, with where it was written (for editing it in place). A computed `[expr]` ends the path (what follows depends on
//! run-time values) and the references inside it are reported after it. Literals, strings
//! included, reference nothing.

use super::parser::{Node, Segment};
use std::ops::Range;

/// A path rooted at an identifier, as written: `search_1.output.results` → root `search_1`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reference {
    pub root: String,
    /// The path as text, normalised (`a.b[0].c`).
    pub path: String,
    /// Character offsets in the parsed source of the path as written, from the root to the end
    /// of its last name (`a.b` in `(a.b)` ends at the `b`).
    pub span: Range<usize>,
    /// The root and each name after it, with character offsets of where each is written: `.b`
    /// gives the `b`, `['b c']` and `[0]` the whole bracket.
    pub names: Vec<(String, Range<usize>)>,
}

pub(crate) fn collect(node: &Node, out: &mut Vec<Reference>) {
    match node {
        Node::Literal(_) | Node::Undefined => {}
        Node::Ident(name, span) => out.push(Reference {
            root: name.clone(),
            path: name.clone(),
            span: span.start..span.end,
            names: vec![(name.clone(), span.start..span.end)],
        }),
        Node::Member(object, segments) => {
            if let Node::Ident(root, span) = &**object {
                let mut path = root.clone();
                let mut names = vec![(root.clone(), span.start..span.end)];
                for segment in segments {
                    let Segment::Name(name, at) = segment else {
                        break;
                    };
                    push_segment(&mut path, name);
                    names.push((name.clone(), at.start..at.end));
                }
                out.push(Reference {
                    root: root.clone(),
                    path,
                    span: span.start..names.last().map_or(span.end, |(_, at)| at.end),
                    names,
                });
            } else {
                collect(object, out);
            }
            for segment in segments {
                if let Segment::Index(key) = segment {
                    collect(key, out);
                }
            }
        }
        Node::Not(operand) | Node::Neg(operand) => collect(operand, out),
        Node::Or(operands) | Node::And(operands) => {
            operands.iter().for_each(|n| collect(n, out));
        }
        Node::Chain(first, rest) => {
            collect(first, out);
            rest.iter().for_each(|(_, n)| collect(n, out));
        }
        Node::Conditional(parts) => parts.iter().for_each(|n| collect(n, out)),
    }
}

fn push_segment(path: &mut String, name: &str) {
    let index = name == "0" || (!name.starts_with('0') && name.bytes().all(|b| b.is_ascii_digit()));
    let ident = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
    if index && !name.is_empty() {
        path.push('[');
        path.push_str(name);
        path.push(']');
    } else if ident {
        path.push('.');
        path.push_str(name);
    } else {
        path.push('[');
        path.push_str(&serde_json::Value::String(name.to_owned()).to_string());
        path.push(']');
    }
}
