//! Completing the path at the cursor inside a template or an expression: roots (`inputs`,
//! `defaults`, upstream step ids, locals in scope), declared input names, default keys,
//! `<step>.output` and the fields a step's tool declares. The text before the cursor is read
//! with the engine's lexer, so strings, operators and `{{ }}` are understood as the parser
//! understands them.

use super::references::{INPUTS_NODE, find, step_ids};
use super::slots::{SlotKind, classify, path_of};
use super::text::Offsets;
use super::wire::{Completion, CompletionKind, ReferenceKind};
use crate::expr::lexer::{Lexer, Tok, Token};
use crate::expr::scan::scan;
use crate::tool::Registry;
use serde_json::{Map, Value};
use std::collections::{HashMap, HashSet};

/// Where the completion is asked for.
#[derive(Debug, Clone, Copy)]
pub struct CompleteAt<'a> {
    /// The step being edited; `None` for the output mapping.
    pub step_id: Option<&'a str>,
    /// As in diagnostics: `inputs.query`, `condition`, `output.answer`.
    pub field: &'a str,
    /// The field's text being edited.
    pub text: &'a str,
    /// UTF-16 offset of the cursor in `text`.
    pub cursor: usize,
}

/// What to offer: `insert` replaces `text[from, to)` (UTF-16 offsets).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Completions {
    pub from: usize,
    pub to: usize,
    pub items: Vec<Completion>,
}

/// Completions at `at` in `definition`; none outside a template in a template field, inside a
/// string literal, or where an operator is expected.
pub fn complete(definition: &Value, registry: &Registry, at: CompleteAt<'_>) -> Completions {
    let offsets = Offsets::new(at.text);
    let cursor = offsets.char_at_utf16(at.cursor);
    let none = Completions {
        from: offsets.utf16(cursor),
        to: offsets.utf16(cursor),
        items: Vec::new(),
    };
    let empty = Map::new();
    let step = at
        .step_id
        .map(|id| step_object(definition, id).unwrap_or(&empty));
    let path = path_of(at.field);
    let (kind, locals) = match step {
        Some(step) => match classify(step, registry, &path) {
            Some(found) => found,
            None => return none,
        },
        None if path.first().is_some_and(|p| p == "output") => (SlotKind::Template, Vec::new()),
        None => return none,
    };
    let prefix_end = offsets.byte(cursor);
    let prefix = &at.text[..prefix_end];
    let (start, templates) = match kind {
        SlotKind::Id => return none,
        SlotKind::Expression => (0, true),
        // Inside a block only when the prefix leaves one open.
        SlotKind::Template => match scan(prefix) {
            Err(e) if e.message.starts_with("unclosed") => (e.position + 2, false),
            _ => return none,
        },
    };
    let expr: String = prefix.chars().skip(start).collect();
    let Some(tokens) = lex(&expr, templates) else {
        return none;
    };
    let Some((word_start, segments, partial)) = path_at(&tokens, expr.chars().count()) else {
        return none;
    };
    let from = start + word_start;
    let to = cursor
        + at.text[prefix_end..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '$')
            .count();
    let cx = Scope {
        definition,
        registry,
        step_id: at.step_id,
        locals: &locals,
    };
    let mut items = match segments.as_slice() {
        [] => cx.roots(),
        [root, rest @ ..] => cx.members(root, rest),
    };
    let partial = partial.to_lowercase();
    // Keywords only once a word is begun: `{{ ` lists what can be read.
    items.retain(|c| {
        c.label.to_lowercase().starts_with(&partial)
            && !(partial.is_empty() && c.kind == CompletionKind::Keyword)
    });
    Completions {
        from: offsets.utf16(from),
        to: offsets.utf16(to),
        items,
    }
}

fn step_object<'a>(definition: &'a Value, id: &str) -> Option<&'a Map<String, Value>> {
    definition
        .get("steps")?
        .as_array()?
        .iter()
        .filter_map(Value::as_object)
        .find(|s| s.get("id").and_then(Value::as_str) == Some(id))
}

/// The tokens of `src`; `None` when it cannot be lexed (the cursor is inside an unterminated
/// string, or after a stray character).
fn lex(src: &str, templates: bool) -> Option<Vec<Token>> {
    let mut lexer = Lexer::new(src, templates);
    let mut out = Vec::new();
    loop {
        let token = lexer.next_token().ok()?;
        if token.tok == Tok::End {
            return Some(out);
        }
        out.push(token);
    }
}

/// The path being written at the end of the tokens (`len` characters): where the word being
/// completed starts, the names before it, and the word so far. `None` where no path can go
/// (after a complete operand, inside brackets).
fn path_at(tokens: &[Token], len: usize) -> Option<(usize, Vec<String>, String)> {
    let name = |t: &Tok| match t {
        Tok::Ident(n) | Tok::Name(n) => Some(n.clone()),
        Tok::True => Some("true".into()),
        Tok::False => Some("false".into()),
        Tok::Null => Some("null".into()),
        Tok::Undefined => Some("undefined".into()),
        _ => None,
    };
    let (word_start, partial, mut i) = match tokens.last() {
        Some(t) if t.end == len && name(&t.tok).is_some() => {
            (t.pos, name(&t.tok)?, tokens.len() - 1)
        }
        Some(t) if t.tok == Tok::Dot && t.end == len => (len, String::new(), tokens.len()),
        // A new operand may start here.
        None => return Some((len, Vec::new(), String::new())),
        Some(t) if !t.tok.ends_operand() => return Some((len, Vec::new(), String::new())),
        Some(_) => return None,
    };
    // Walk back over `a.b.` before the word.
    let mut segments = Vec::new();
    while i > 0 && tokens[i - 1].tok == Tok::Dot {
        let before = tokens.get(i.checked_sub(2)?)?;
        segments.push(name(&before.tok)?);
        if matches!(before.tok, Tok::Ident(_)) {
            segments.reverse();
            return Some((word_start, segments, partial));
        }
        i -= 2;
    }
    if segments.is_empty() {
        Some((word_start, segments, partial))
    } else {
        None
    }
}

/// What names mean where the completion is asked for.
struct Scope<'a> {
    definition: &'a Value,
    registry: &'a Registry,
    step_id: Option<&'a str>,
    locals: &'a [String],
}

impl Scope<'_> {
    fn roots(&self) -> Vec<Completion> {
        let mut out: Vec<Completion> = self
            .locals
            .iter()
            .map(|l| item(l, CompletionKind::Local, Some("bound here".into())))
            .collect();
        out.push(item(
            "inputs",
            CompletionKind::Input,
            Some("the workflow's inputs".into()),
        ));
        out.push(item(
            "defaults",
            CompletionKind::Default,
            Some("the workflow's defaults".into()),
        ));
        out.extend(self.upstream());
        for keyword in ["true", "false", "null", "undefined"] {
            out.push(item(keyword, CompletionKind::Keyword, None));
        }
        out
    }

    /// Steps this one may read: every step but itself and those downstream of it.
    fn upstream(&self) -> Vec<Completion> {
        let excluded = match self.step_id {
            Some(id) => downstream(self.definition, self.registry, id),
            None => HashSet::new(),
        };
        self.steps()
            .filter(|(id, _)| !excluded.contains(*id))
            .map(|(id, step)| {
                let tool = step.get("tool").and_then(Value::as_str).unwrap_or("");
                let detail = match step.get("name").and_then(Value::as_str) {
                    Some(name) => format!("{name} ({tool})"),
                    None => tool.to_string(),
                };
                item(id, CompletionKind::Step, Some(detail))
            })
            .collect()
    }

    fn steps(&self) -> impl Iterator<Item = (&str, &Map<String, Value>)> {
        self.definition
            .get("steps")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_object)
            .filter_map(|s| Some((s.get("id")?.as_str()?, s)))
    }

    fn members(&self, root: &str, rest: &[String]) -> Vec<Completion> {
        if self.locals.iter().any(|l| l == root) {
            return Vec::new();
        }
        let rest: Vec<&str> = rest.iter().map(String::as_str).collect();
        match (root, rest.as_slice()) {
            ("inputs", []) => self.inputs(),
            ("defaults", []) => self.defaults(),
            ("steps", []) => self.upstream(),
            ("steps", [id, more @ ..]) => self.step_members(id, more),
            (id, more) => self.step_members(id, more),
        }
    }

    fn inputs(&self) -> Vec<Completion> {
        let Some(inputs) = self.definition.get("inputs").and_then(Value::as_object) else {
            return Vec::new();
        };
        inputs
            .iter()
            .map(|(name, decl)| {
                let kind = decl.get("type").and_then(Value::as_str).unwrap_or("string");
                let detail = match decl.get("description").and_then(Value::as_str) {
                    Some(d) => format!("{kind} — {d}"),
                    None => kind.to_string(),
                };
                item(name, CompletionKind::Input, Some(detail))
            })
            .collect()
    }

    fn defaults(&self) -> Vec<Completion> {
        let Some(defaults) = self.definition.get("defaults").and_then(Value::as_object) else {
            return Vec::new();
        };
        defaults
            .iter()
            .map(|(key, value)| {
                let detail = crate::value::truncate_chars(&value.to_string(), 40);
                item(key, CompletionKind::Default, Some(detail))
            })
            .collect()
    }

    fn step_members(&self, id: &str, rest: &[&str]) -> Vec<Completion> {
        let Some((_, step)) = self.steps().find(|(s, _)| *s == id) else {
            return Vec::new();
        };
        match rest {
            [] => vec![item(
                "output",
                CompletionKind::Output,
                Some("what the step returned".into()),
            )],
            ["output"] if step.get("forEach").is_some_and(|f| !f.is_null()) => vec![
                item(
                    "results",
                    CompletionKind::Output,
                    Some("one output per element, in order".into()),
                ),
                item(
                    "count",
                    CompletionKind::Output,
                    Some("number of elements".into()),
                ),
            ],
            ["output"] => {
                let tool = step.get("tool").and_then(Value::as_str).unwrap_or("");
                self.registry
                    .spec(tool)
                    .map(|spec| {
                        spec.outputs
                            .iter()
                            .map(|(name, description)| {
                                item(
                                    name,
                                    CompletionKind::Output,
                                    Some((*description).to_string()),
                                )
                            })
                            .collect()
                    })
                    .unwrap_or_default()
            }
            _ => Vec::new(),
        }
    }
}

fn item(label: &str, kind: CompletionKind, detail: Option<String>) -> Completion {
    Completion {
        label: label.to_string(),
        insert: label.to_string(),
        kind,
        detail,
    }
}

/// `id` and every step that runs after it because of it: readers of its output, steps that
/// depend on it, and the branches of a conditional.
fn downstream(definition: &Value, registry: &Registry, id: &str) -> HashSet<String> {
    let ids = step_ids(definition);
    let mut after: HashMap<String, Vec<String>> = HashMap::new();
    for site in find(definition, registry) {
        let (Some(step), Some(target)) = (site.step, site.target) else {
            continue;
        };
        if target == INPUTS_NODE || site.local || !ids.contains(target.as_str()) {
            continue;
        }
        let branch = site.kind == ReferenceKind::Id && site.field.starts_with("inputs.");
        let (first, then) = if branch {
            (step, target)
        } else {
            (target, step)
        };
        after.entry(first).or_default().push(then);
    }
    let mut seen = HashSet::from([id.to_string()]);
    let mut stack = vec![id.to_string()];
    while let Some(next) = stack.pop() {
        for dependent in after.get(&next).into_iter().flatten() {
            if seen.insert(dependent.clone()) {
                stack.push(dependent.clone());
            }
        }
    }
    seen
}
