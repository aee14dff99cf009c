//! Every reference in a document, from the engine's own parser: where it is written (pointer,
//! field, offsets), how (template, expression, id) and what it points to.

use super::slots::{Slot, SlotKind, slots};
use super::text::Offsets;
use super::wire::{ReferenceKind, ReferenceSite};
use crate::expr::scan::{Piece, scan};
use crate::expr::{Expr, Reference, condition_blocks};
pub use crate::rules::INPUTS_NODE;
use crate::template::Condition;
use crate::tool::Registry;
use serde_json::Value;
use std::collections::HashSet;
use std::ops::Range;

/// One reference found in a slot, with byte ranges into the slot's text.
#[derive(Debug, Clone)]
pub(crate) struct Found {
    pub(crate) pointer: String,
    pub(crate) step: Option<String>,
    pub(crate) field: String,
    pub(crate) kind: ReferenceKind,
    pub(crate) path: String,
    pub(crate) root: String,
    pub(crate) target: Option<String>,
    /// The root and every name after it: name, byte range (`.b` → `b`; `['b']` → the
    /// bracket) and whether it is written as a bracket. Empty for `id` sites.
    pub(crate) names: Vec<(String, Range<usize>, bool)>,
    /// Whether a name is a local bound where the string is read.
    pub(crate) local: bool,
    /// Byte ranges: the path, the name of the target, the enclosing `{{ }}`.
    pub(crate) span: Range<usize>,
    pub(crate) target_span: Range<usize>,
    pub(crate) template: Option<Range<usize>>,
    pub(crate) whole: bool,
    /// UTF-16 offsets of the same, for the wire.
    utf16: [usize; 4],
    template_utf16: Option<(usize, usize)>,
}

impl Found {
    pub(crate) fn site(&self) -> ReferenceSite {
        let [start, end, root_start, root_end] = self.utf16;
        ReferenceSite {
            pointer: self.pointer.clone(),
            step_id: self.step.clone(),
            field: self.field.clone(),
            kind: self.kind,
            path: self.path.clone(),
            root: self.root.clone(),
            target: self.target.clone(),
            start,
            end,
            root_start,
            root_end,
            template_start: self.template_utf16.map(|t| t.0),
            template_end: self.template_utf16.map(|t| t.1),
            whole: self.whole,
        }
    }
}

/// Every reference in `definition`, in document order. Strings that fail to parse yield none
/// (validation reports their syntax errors).
pub fn references(definition: &Value, registry: &Registry) -> Vec<ReferenceSite> {
    find(definition, registry).iter().map(Found::site).collect()
}

/// The step ids of a document.
pub(crate) fn step_ids(definition: &Value) -> HashSet<&str> {
    definition
        .get("steps")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|s| s.get("id")?.as_str())
        .collect()
}

pub(crate) fn find(definition: &Value, registry: &Registry) -> Vec<Found> {
    let ids = step_ids(definition);
    let mut out = Vec::new();
    for slot in slots(definition, registry) {
        in_slot(&slot, &ids, &mut out);
    }
    out
}

fn in_slot(slot: &Slot<'_>, ids: &HashSet<&str>, out: &mut Vec<Found>) {
    let text = slot.text;
    let offsets = Offsets::new(text);
    let base = |kind, path: String, root: String, target| Found {
        pointer: slot.pointer.clone(),
        step: slot.step.map(str::to_string),
        field: slot.field.clone(),
        kind,
        path,
        root,
        target,
        names: Vec::new(),
        local: false,
        span: 0..0,
        target_span: 0..0,
        template: None,
        whole: false,
        utf16: [0; 4],
        template_utf16: None,
    };
    match slot.kind {
        SlotKind::Id => {
            let target = ids.contains(text).then(|| text.to_string());
            let end = offsets.utf16(offsets.len());
            out.push(Found {
                span: 0..text.len(),
                target_span: 0..text.len(),
                whole: true,
                utf16: [0, end, 0, end],
                ..base(
                    ReferenceKind::Id,
                    text.to_string(),
                    text.to_string(),
                    target,
                )
            });
        }
        SlotKind::Template => {
            let Some(blocks) = template_blocks(text) else {
                return;
            };
            // Exactly one block, and nothing else but whitespace around it.
            let whole_block = match blocks.as_slice() {
                [(block, _, _)] => {
                    let b = offsets.bytes(block);
                    text[..b.start].trim().is_empty() && text[b.end..].trim().is_empty()
                }
                _ => false,
            };
            for (block, start, expr) in &blocks {
                for r in expr.references() {
                    let shifted = shift(r, *start);
                    let whole = whole_block && expr_is_path(text, &offsets, block, &shifted);
                    out.push(found(
                        base(ReferenceKind::Template, String::new(), String::new(), None),
                        shifted,
                        Some(block.clone()),
                        whole,
                        slot,
                        ids,
                        &offsets,
                    ));
                }
            }
        }
        SlotKind::Expression => {
            let Ok(condition) = Condition::parse(text) else {
                return;
            };
            let blocks = condition_blocks(text);
            for r in condition.references() {
                // The innermost `{{ }}` holding it, if any.
                let block = blocks
                    .iter()
                    .filter(|b| b.start <= r.span.start && r.span.end <= b.end)
                    .min_by_key(|b| b.end - b.start)
                    .cloned();
                let written = &text[offsets.bytes(&r.span)];
                let trimmed = text.trim();
                let whole = match &block {
                    Some(b) => {
                        let bytes = offsets.bytes(b);
                        trimmed == &text[bytes.clone()]
                            && text[bytes.start + 2..bytes.end - 2].trim() == written
                    }
                    None => trimmed == written,
                };
                let kind = if block.is_some() {
                    ReferenceKind::Template
                } else {
                    ReferenceKind::Expression
                };
                out.push(found(
                    base(kind, String::new(), String::new(), None),
                    r,
                    block,
                    whole,
                    slot,
                    ids,
                    &offsets,
                ));
            }
        }
    }
}

/// The `{{ … }}` blocks of a template string, parsed: (block range in characters, offset of
/// its expression, expression). `None` when any block fails to parse.
fn template_blocks(text: &str) -> Option<Vec<(Range<usize>, usize, Expr)>> {
    if !text.contains("{{") {
        return Some(Vec::new());
    }
    let mut out = Vec::new();
    for piece in scan(text).ok()? {
        if let Piece::Block { expr, open, start } = piece {
            let parsed = Expr::parse(expr).ok()?;
            out.push((open..start + expr.chars().count() + 2, start, parsed));
        }
    }
    Some(out)
}

/// `r` with its offsets moved by `by` characters.
fn shift(mut r: Reference, by: usize) -> Reference {
    r.span = r.span.start + by..r.span.end + by;
    for (_, at) in &mut r.names {
        *at = at.start + by..at.end + by;
    }
    r
}

/// Whether the block's expression is exactly the written path.
fn expr_is_path(text: &str, offsets: &Offsets, block: &Range<usize>, r: &Reference) -> bool {
    let b = offsets.bytes(block);
    text[b.start + 2..b.end - 2].trim() == &text[offsets.bytes(&r.span)]
}

fn found(
    mut f: Found,
    r: Reference,
    block: Option<Range<usize>>,
    whole: bool,
    slot: &Slot<'_>,
    ids: &HashSet<&str>,
    offsets: &Offsets,
) -> Found {
    let local = slot.locals.contains(&r.root);
    // `steps.<id>.output` names its step in the second segment.
    let named = if r.root == "steps" && !local {
        r.names.get(1).cloned()
    } else {
        r.names.first().cloned()
    };
    let target = match &named {
        _ if local => None,
        _ if r.root == "inputs" => Some(INPUTS_NODE.to_string()),
        Some((name, _)) if ids.contains(name.as_str()) => Some(name.clone()),
        _ => None,
    };
    let target_chars = named.map_or(r.span.clone(), |(_, at)| at);
    f.utf16 = [
        offsets.utf16(r.span.start),
        offsets.utf16(r.span.end),
        offsets.utf16(target_chars.start),
        offsets.utf16(target_chars.end),
    ];
    f.template_utf16 = block
        .as_ref()
        .map(|b| (offsets.utf16(b.start), offsets.utf16(b.end)));
    f.span = offsets.bytes(&r.span);
    f.target_span = offsets.bytes(&target_chars);
    f.template = block.map(|b| offsets.bytes(&b));
    f.names = r
        .names
        .iter()
        .map(|(n, at)| {
            let bytes = offsets.bytes(at);
            let bracket = slot.text[bytes.clone()].starts_with('[');
            (n.clone(), bytes, bracket)
        })
        .collect();
    f.local = local;
    f.whole = whole;
    f.path = r.path;
    f.root = r.root;
    f.target = target;
    f
}
