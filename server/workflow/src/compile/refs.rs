//! Template parsing and reference reporting shared by the step and output checks.

use super::diags::Diags;
use super::nearest::nearest;
use crate::diagnostic::DiagnosticCode;
use crate::diagnostic::{Diagnostic, Severity};
use crate::expr::Reference;
use crate::template::{Template, TemplateError};
use serde_json::Value;
use std::collections::HashMap;

/// Roots every template may read besides step ids and locals.
pub(super) const GLOBALS: &[&str] = &["inputs", "defaults"];

/// The references of a template, each with the field path it sits at (`inputs.arrays[1]`).
pub(super) fn references_by_field(
    tpl: &Template,
    field: &str,
    out: &mut Vec<(String, Vec<Reference>)>,
) {
    match tpl {
        Template::Literal(_) => {}
        Template::Object(entries) => {
            for (k, t) in entries {
                references_by_field(t, &format!("{field}.{k}"), out);
            }
        }
        Template::Array(items) => {
            for (i, t) in items.iter().enumerate() {
                references_by_field(t, &format!("{field}[{i}]"), out);
            }
        }
        other => out.push((field.to_string(), other.references())),
    }
}

pub(super) fn unknown_ref(
    d: &mut Diags,
    step: Option<&str>,
    field: &str,
    r: &Reference,
    index: &HashMap<String, usize>,
) {
    let hint = nearest(
        &r.root,
        index
            .keys()
            .map(String::as_str)
            .chain(GLOBALS.iter().copied()),
    )
    .map(|n| format!("; did you mean \"{n}\"?"))
    .unwrap_or_default();
    let mut diag = Diagnostic::error(
        DiagnosticCode::UnknownStepRef,
        format!(
            "\"{}\" references unknown step \"{}\"{hint}",
            r.path, r.root
        ),
    )
    .field(field)
    .referencing(&r.root);
    if let Some(s) = step {
        diag = diag.step(s);
    }
    d.soft(diag, Severity::Warning);
}

pub(super) fn parse_template(
    value: &Value,
    field: &str,
    step: Option<&str>,
    d: &mut Diags,
) -> Option<Template> {
    match Template::parse(value) {
        Ok(t) => Some(t),
        Err(errors) => {
            for e in errors {
                let mut diag = syntax_diag(&e, &join_pointer(field, &e.pointer));
                if let Some(s) = step {
                    diag = diag.step(s);
                }
                d.push(diag);
            }
            None
        }
    }
}

pub(super) fn syntax_diag(e: &TemplateError, field: &str) -> Diagnostic {
    Diagnostic::error(
        DiagnosticCode::TemplateSyntax,
        format!(
            "template syntax error: {} at position {}",
            e.message, e.position
        ),
    )
    .field(field)
}

/// `inputs` + `/arrays/1/x` → `inputs.arrays[1].x`.
pub(crate) fn join_pointer(field: &str, pointer: &str) -> String {
    let mut out = field.to_string();
    for seg in pointer.split('/').skip(1) {
        let seg = seg.replace("~1", "/").replace("~0", "~");
        if !seg.is_empty() && seg.chars().all(|c| c.is_ascii_digit()) {
            out.push_str(&format!("[{seg}]"));
        } else {
            out.push('.');
            out.push_str(&seg);
        }
    }
    out
}
