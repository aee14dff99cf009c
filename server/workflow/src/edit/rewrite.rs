//! Renaming steps and inputs with every reference rewritten: templates anywhere in inputs
//! (a loop's inner step and deferred inputs included), conditions, `forEach`, `dependsOn`,
//! `then`/`else`, the output mapping, the `steps.<id>` form and `ui.positions` keys. Only the
//! name changes; the rest of each string is kept byte for byte. Locals (`item`, `index`, a
//! loop's `as`), string literals and other ids that merely start with the old one are left
//! alone, because the parser, not a text search, says where the references are.

use super::references::{Found, INPUTS_NODE, find};
use super::wire::ReferenceKind;
use crate::rules::{RESERVED_IDS, is_valid_id};
use crate::tool::Registry;
use indexmap::IndexMap;
use serde_json::{Map, Value};
use std::collections::{BTreeMap, HashSet};
use std::ops::Range;

/// Old name → new name, for steps and for declared inputs.
#[derive(Debug, Clone, Default)]
pub struct Renames {
    pub steps: IndexMap<String, String>,
    pub inputs: IndexMap<String, String>,
}

/// Why a rename was refused; nothing is changed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RenameError {
    #[error("\"{0}\" is not a valid id: use letters, digits and _, not starting with a digit")]
    InvalidId(String),
    #[error("\"{0}\" is a reserved name; choose another")]
    ReservedId(String),
    #[error("\"{0}\" is already taken")]
    IdTaken(String),
}

/// The document with the renames applied, and the pointers of what changed: each rewritten
/// string, each renamed step's `/steps/<i>/id`, and `/inputs` or `/ui/positions` when keys
/// were renamed there.
#[derive(Debug, Clone, PartialEq)]
pub struct Rewritten {
    pub definition: Value,
    pub changed: Vec<String>,
}

/// Apply `renames` to `definition`. Renames of ids the document does not have only rewrite
/// references to them (a pasted group refers to steps by their old ids); references to ids
/// outside the map are kept.
pub fn rewrite(
    definition: &Value,
    renames: &Renames,
    registry: &Registry,
) -> Result<Rewritten, RenameError> {
    let steps: BTreeMap<&str, &str> = effective(&renames.steps);
    let inputs: BTreeMap<&str, &str> = effective(&renames.inputs);
    let step_ids: Vec<&str> = super::references::step_ids(definition)
        .into_iter()
        .collect();
    let input_names: Vec<&str> = definition
        .get("inputs")
        .and_then(Value::as_object)
        .map(|m| m.keys().map(String::as_str).collect())
        .unwrap_or_default();
    check(&steps, &step_ids, true)?;
    check(&inputs, &input_names, false)?;

    // Every string edit, by pointer: (byte range, replacement).
    let mut edits: BTreeMap<String, Vec<(Range<usize>, String)>> = BTreeMap::new();
    for site in find(definition, registry) {
        if let Some((range, text)) = edit(&site, &steps, &inputs) {
            edits
                .entry(site.pointer.clone())
                .or_default()
                .push((range, text));
        }
    }

    let mut out = definition.clone();
    let mut changed = Vec::new();
    for (pointer, mut list) in edits {
        let Some(Value::String(s)) = out.pointer_mut(&pointer) else {
            continue;
        };
        // Right to left, so earlier ranges stay valid.
        list.sort_by_key(|(range, _)| std::cmp::Reverse(range.start));
        for (range, text) in list {
            s.replace_range(range, &text);
        }
        changed.push(pointer);
    }
    if let Some(list) = out.get_mut("steps").and_then(Value::as_array_mut) {
        for (i, step) in list.iter_mut().enumerate() {
            if let Some(Value::String(id)) = step.get_mut("id")
                && let Some(new) = steps.get(id.as_str())
            {
                *id = new.to_string();
                changed.push(format!("/steps/{i}/id"));
            }
        }
    }
    if rename_keys(out.get_mut("inputs"), &inputs) {
        changed.push("/inputs".into());
    }
    let positions = out.get_mut("ui").and_then(|ui| ui.get_mut("positions"));
    if rename_keys(positions, &steps) {
        changed.push("/ui/positions".into());
    }
    Ok(Rewritten {
        definition: out,
        changed,
    })
}

/// The renames that change something.
fn effective(map: &IndexMap<String, String>) -> BTreeMap<&str, &str> {
    map.iter()
        .filter(|(old, new)| old != new)
        .map(|(old, new)| (old.as_str(), new.as_str()))
        .collect()
}

/// New names must be identifiers, not reserved (for steps), and free: not held by a name that
/// stays, nor given twice.
fn check(
    renames: &BTreeMap<&str, &str>,
    existing: &[&str],
    steps: bool,
) -> Result<(), RenameError> {
    let mut given = HashSet::new();
    for new in renames.values() {
        if !is_valid_id(new) {
            return Err(RenameError::InvalidId(new.to_string()));
        }
        if steps && RESERVED_IDS.contains(new) {
            return Err(RenameError::ReservedId(new.to_string()));
        }
        let stays = existing.contains(new) && !renames.contains_key(new);
        if stays || !given.insert(*new) {
            return Err(RenameError::IdTaken(new.to_string()));
        }
    }
    Ok(())
}

/// The text replacing part of a site's string, if a rename touches it.
fn edit(
    site: &Found,
    steps: &BTreeMap<&str, &str>,
    inputs: &BTreeMap<&str, &str>,
) -> Option<(Range<usize>, String)> {
    if site.local {
        return None;
    }
    if site.kind == ReferenceKind::Id {
        let new = steps.get(site.path.as_str())?;
        return Some((site.span.clone(), new.to_string()));
    }
    let (new, (_, at, bracket)) = match site.target.as_deref()? {
        INPUTS_NODE => {
            let segment = site.names.get(1)?;
            (inputs.get(segment.0.as_str())?, segment)
        }
        id => {
            let new = steps.get(id)?;
            let segment = site
                .names
                .iter()
                .find(|(_, at, _)| *at == site.target_span)?;
            (new, segment)
        }
    };
    // A bracket segment (`steps['x']`) becomes `.name`: the new name is an identifier.
    let text = if *bracket {
        format!(".{new}")
    } else {
        new.to_string()
    };
    Some((at.clone(), text))
}

/// Rename the keys of an object in place, keeping their order; whether any changed.
fn rename_keys(object: Option<&mut Value>, renames: &BTreeMap<&str, &str>) -> bool {
    let Some(Value::Object(map)) = object else {
        return false;
    };
    if !map.keys().any(|k| renames.contains_key(k.as_str())) {
        return false;
    }
    let old = std::mem::take(map);
    *map = old
        .into_iter()
        .map(|(k, v)| match renames.get(k.as_str()) {
            Some(new) => (new.to_string(), v),
            None => (k, v),
        })
        .collect::<Map<String, Value>>();
    true
}
