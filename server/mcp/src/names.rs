//! The names the server gives the library's workflows: `w_<slug>` as tools, `<slug>` in
//! `vai://workflows/<slug>` resources. A slug is the workflow's name lowercased, every run of
//! other characters one `_`, at most 64 characters with the prefix; a slug already taken (in
//! library order: built-ins, examples, files) gets `_2`, `_3`, … A workflow keeps its name for as
//! long as the server runs and it is listed under the same name: a file saved later that clashes
//! gets the suffix, never the one that was there.

use std::collections::{HashMap, HashSet};
use std::sync::Mutex;

/// Longest tool name clients accept.
const MAX_NAME: usize = 64;
/// What a workflow's tool name starts with.
pub(crate) const PREFIX: &str = "w_";

/// The names given so far: library id → (the name's base, the name given).
#[derive(Debug, Default)]
pub(crate) struct Names(Mutex<HashMap<String, (String, String)>>);

impl Names {
    /// A unique name for each `(id, base)`, in order: a workflow named before under the same
    /// base keeps its name; the others get theirs, suffixed when taken, in library order.
    /// Workflows no longer listed are forgotten.
    pub(crate) fn assign(&self, workflows: &[(&str, String)]) -> Vec<String> {
        let mut given = self.0.lock().unwrap_or_else(|e| e.into_inner());
        given.retain(|id, _| workflows.iter().any(|(listed, _)| listed == id));
        let mut taken = HashSet::new();
        let mut names: Vec<Option<String>> = workflows
            .iter()
            .map(|(id, base)| match given.get(*id) {
                Some((was, name)) if was == base && taken.insert(name.clone()) => {
                    Some(name.clone())
                }
                _ => None,
            })
            .collect();
        for ((id, base), name) in workflows.iter().zip(&mut names) {
            if name.is_none() {
                let new = unique(&mut taken, base);
                given.insert(id.to_string(), (base.clone(), new.clone()));
                *name = Some(new);
            }
        }
        names.into_iter().flatten().collect()
    }
}

/// `name` as it appears in tool names: lowercase ASCII letters and digits, other runs `_`.
pub(crate) fn slug(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('_') {
            out.push('_');
        }
    }
    let trimmed = out.trim_matches('_');
    let mut slug = if trimmed.is_empty() {
        "workflow".to_string()
    } else {
        trimmed.to_string()
    };
    slug.truncate(MAX_NAME - PREFIX.len());
    slug
}

/// `base`, or `base_2`, `base_3`, … when taken; recorded as taken.
fn unique(taken: &mut HashSet<String>, base: &str) -> String {
    let mut candidate = base.to_string();
    let mut n = 2;
    while taken.contains(&candidate) {
        let suffix = format!("_{n}");
        let keep = base.len().min(MAX_NAME - PREFIX.len() - suffix.len());
        candidate = format!("{}{suffix}", &base[..keep]);
        n += 1;
    }
    taken.insert(candidate.clone());
    candidate
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_lowercase_words_joined_by_one_underscore() {
        assert_eq!(slug("RAG Chat"), "rag_chat");
        assert_eq!(slug("Search with Fallback"), "search_with_fallback");
        assert_eq!(slug("  a -- b!! "), "a_b");
        assert_eq!(slug("Ünïcode ✓"), "n_code");
        assert_eq!(slug("✓✓"), "workflow");
        assert_eq!(slug(&"x".repeat(100)).len(), 62);
    }

    #[test]
    fn a_workflow_keeps_its_name_when_a_clashing_one_appears_before_it() {
        let names = Names::default();
        let first = names.assign(&[("file:b.vai-workflow.json", "search".into())]);
        assert_eq!(first, ["search"]);
        // A new file listed before it, with the same name: the newcomer gets the suffix.
        let both = names.assign(&[
            ("file:a.vai-workflow.json", "search".into()),
            ("file:b.vai-workflow.json", "search".into()),
        ]);
        assert_eq!(both, ["search_2", "search"]);
        // Renamed inside (another base): it gets a name for that base.
        let renamed = names.assign(&[
            ("file:a.vai-workflow.json", "search".into()),
            ("file:b.vai-workflow.json", "lookup".into()),
        ]);
        assert_eq!(renamed, ["search_2", "lookup"]);
        // Gone and back: forgotten, so named afresh, around the name that stayed.
        names.assign(&[("file:a.vai-workflow.json", "search".into())]);
        let back = names.assign(&[
            ("file:a.vai-workflow.json", "search".into()),
            ("file:b.vai-workflow.json", "search".into()),
        ]);
        assert_eq!(back, ["search_2", "search"]);
    }

    #[test]
    fn taken_names_get_a_number_and_stay_within_64() {
        let mut taken = HashSet::new();
        assert_eq!(unique(&mut taken, "a"), "a");
        assert_eq!(unique(&mut taken, "a"), "a_2");
        assert_eq!(unique(&mut taken, "a"), "a_3");
        let long = "y".repeat(62);
        assert_eq!(unique(&mut taken, &long), long);
        let second = unique(&mut taken, &long);
        assert_eq!(second.len(), 62);
        assert!(second.ends_with("_2"));
    }
}
