//! Which strings of a workflow document hold references, and how: templates, expressions
//! (conditions) or bare step ids, each with the local names bound there. These are the rules
//! the compiler applies (compile/step.rs), read off the JSON as written, so a half-built or
//! invalid document still answers.

use crate::compile::refs::join_pointer;
use crate::control::{CONDITIONAL, LOOP, ROUTER};
use crate::rules::is_valid_id;
use crate::tool::{DeferredKind, Registry};
use serde_json::{Map, Value};

/// How a string is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SlotKind {
    /// `{{ … }}` blocks inside text.
    Template,
    /// A condition: the whole string is an expression (`{{ }}` blocks are parentheses).
    Expression,
    /// The whole string is a step id.
    Id,
}

/// One string that may hold references.
#[derive(Debug)]
pub(crate) struct Slot<'a> {
    /// RFC 6901 pointer of the string in the document.
    pub(crate) pointer: String,
    /// The step holding it (its `id`, when that is a string).
    pub(crate) step: Option<&'a str>,
    /// As diagnostics name fields: `inputs.arrays[1]`, `condition`, `output.answer`.
    pub(crate) field: String,
    pub(crate) kind: SlotKind,
    /// Names bound where the string is evaluated (`item`, `index`, a loop's `as`, …).
    pub(crate) locals: Vec<String>,
    pub(crate) text: &'a str,
}

/// Every string of `definition` that may hold references, in document order.
pub(crate) fn slots<'a>(definition: &'a Value, registry: &Registry) -> Vec<Slot<'a>> {
    let mut out = Vec::new();
    if let Some(steps) = definition.get("steps").and_then(Value::as_array) {
        for (i, step) in steps.iter().enumerate() {
            let Some(step) = step.as_object() else {
                continue;
            };
            let id = step.get("id").and_then(Value::as_str);
            for key in ["condition", "forEach", "dependsOn", "inputs", "compensate"] {
                if let Some(value) = step.get(key) {
                    let mut path = vec![key.to_string()];
                    leaves(value, &mut path, &mut |path, text| {
                        if let Some((kind, locals)) = classify(step, registry, path) {
                            out.push(Slot {
                                pointer: format!("/steps/{i}{}", pointer_of(path)),
                                step: id,
                                field: field_of(path),
                                kind,
                                locals,
                                text,
                            });
                        }
                    });
                }
            }
        }
    }
    if let Some(output) = definition.get("output") {
        let mut path = vec!["output".to_string()];
        leaves(output, &mut path, &mut |path, text| {
            out.push(Slot {
                pointer: pointer_of(path),
                step: None,
                field: field_of(path),
                kind: SlotKind::Template,
                locals: Vec::new(),
                text,
            });
        });
    }
    out
}

/// How the string at `path` (segments below the step: `["inputs", "then", "0"]`) of `step` is
/// read, and the names bound there; `None` when it holds no references.
pub(crate) fn classify(
    step: &Map<String, Value>,
    registry: &Registry,
    path: &[String],
) -> Option<(SlotKind, Vec<String>)> {
    let path: Vec<&str> = path.iter().map(String::as_str).collect();
    let for_each: Vec<String> = if step.get("forEach").is_some_and(|f| !f.is_null()) {
        vec!["item".into(), "index".into()]
    } else {
        Vec::new()
    };
    let tool = step.get("tool").and_then(Value::as_str).unwrap_or("");
    match path.as_slice() {
        ["condition"] => Some((SlotKind::Expression, Vec::new())),
        ["forEach"] => Some((SlotKind::Template, Vec::new())),
        ["dependsOn", _] => Some((SlotKind::Id, Vec::new())),
        // A compensation's templates read the step itself and what it reads.
        ["compensate", "inputs", _, ..] => Some((SlotKind::Template, Vec::new())),
        ["compensate", ..] => None,
        ["inputs", "condition"] if tool == CONDITIONAL => Some((SlotKind::Expression, for_each)),
        ["inputs", "then" | "else", _] if tool == CONDITIONAL => Some((SlotKind::Id, Vec::new())),
        ["inputs", "condition" | "then" | "else", ..] if tool == CONDITIONAL => None,
        // A route's steps are ids (renames follow them); its id names no step.
        ["inputs", "routes", _, "steps", _] if tool == ROUTER => Some((SlotKind::Id, Vec::new())),
        ["inputs", "routes", _, "id" | "steps", ..] if tool == ROUTER => None,
        ["inputs", "as"] if tool == LOOP => None,
        ["inputs", "step", "inputs", _, ..] if tool == LOOP => {
            let mut locals: Vec<String> = step
                .get("inputs")
                .and_then(|i| i.get("as"))
                .and_then(Value::as_str)
                .filter(|v| is_valid_id(v))
                .map(str::to_string)
                .into_iter()
                .collect();
            locals.extend(["item", "index", "_loopIndex"].map(String::from));
            Some((SlotKind::Template, locals))
        }
        ["inputs", "step", ..] if tool == LOOP => None,
        ["inputs", key, rest @ ..] => {
            let deferred = registry.spec(tool).and_then(|s| s.deferred(key));
            match deferred {
                Some(def) => {
                    let mut locals: Vec<String> =
                        def.locals.iter().map(|l| l.to_string()).collect();
                    locals.extend(for_each);
                    match def.kind {
                        DeferredKind::Condition if rest.is_empty() => {
                            Some((SlotKind::Expression, locals))
                        }
                        DeferredKind::Condition => None,
                        DeferredKind::Template => Some((SlotKind::Template, locals)),
                    }
                }
                None => Some((SlotKind::Template, for_each)),
            }
        }
        _ => None,
    }
}

/// Visit every string inside `value` with its path of keys and indexes.
fn leaves<'a>(value: &'a Value, path: &mut Vec<String>, f: &mut impl FnMut(&[String], &'a str)) {
    match value {
        Value::String(s) => f(path, s),
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                path.push(i.to_string());
                leaves(item, path, f);
                path.pop();
            }
        }
        Value::Object(map) => {
            for (k, v) in map {
                path.push(k.clone());
                leaves(v, path, f);
                path.pop();
            }
        }
        _ => {}
    }
}

/// `["inputs", "a/b", "0"]` → `/inputs/a~1b/0`.
pub(crate) fn pointer_of(path: &[String]) -> String {
    path.iter()
        .map(|p| format!("/{}", p.replace('~', "~0").replace('/', "~1")))
        .collect()
}

/// `["inputs", "arrays", "1"]` → `inputs.arrays[1]`, as diagnostics name fields.
pub(crate) fn field_of(path: &[String]) -> String {
    let (first, rest) = path
        .split_first()
        .map_or(("", &[][..]), |(f, r)| (f.as_str(), r));
    join_pointer(first, &pointer_of(rest))
}

/// `inputs.arrays[1].x` → `["inputs", "arrays", "1", "x"]`.
pub(crate) fn path_of(field: &str) -> Vec<String> {
    let mut out = Vec::new();
    for part in field.split('.') {
        let mut rest = part;
        if let Some(i) = rest.find('[') {
            out.push(rest[..i].to_string());
            rest = &rest[i..];
            while let Some(end) = rest.find(']') {
                out.push(rest[1..end].to_string());
                rest = &rest[end + 1..];
            }
        } else {
            out.push(rest.to_string());
        }
    }
    out.retain(|s| !s.is_empty());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_and_paths_round_trip() {
        for field in [
            "inputs.arrays[1]",
            "condition",
            "inputs.step.inputs.text",
            "output",
        ] {
            assert_eq!(field_of(&path_of(field)), field);
        }
        assert_eq!(path_of("inputs.then[0]"), ["inputs", "then", "0"]);
        assert_eq!(pointer_of(&path_of("inputs.a/b")), "/inputs/a~1b");
    }
}
