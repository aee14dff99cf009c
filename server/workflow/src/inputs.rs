//! A tool's resolved inputs. Values a template reads straight out of the run context are
//! borrowed, not copied: a step that reads a 2,000-item array pays for it only if it keeps it.

use serde_json::{Map, Value};
use std::borrow::Cow;
use std::fmt;
use std::sync::OnceLock;

/// Input name → value, in declaration order; each value borrowed from the run context or owned.
#[derive(Clone, Default)]
pub struct Inputs<'a> {
    entries: Vec<(String, Slot<'a>)>,
}

/// One input: a value, or a list whose members were resolved separately (`["{{ a.output }}",
/// "{{ b.output }}"]`) and are joined into one array only if a tool asks for it whole.
#[derive(Clone)]
enum Slot<'a> {
    One(Cow<'a, Value>),
    List {
        members: Vec<Cow<'a, Value>>,
        joined: OnceLock<Value>,
    },
}

impl<'a> Slot<'a> {
    fn get(&self) -> &Value {
        match self {
            Slot::One(v) => v.as_ref(),
            Slot::List { members, joined } => joined
                .get_or_init(|| Value::Array(members.iter().map(|m| m.as_ref().clone()).collect())),
        }
    }

    fn into_cow(self) -> Cow<'a, Value> {
        match self {
            Slot::One(v) => v,
            Slot::List { members, joined } => {
                Cow::Owned(joined.into_inner().unwrap_or_else(|| {
                    Value::Array(members.into_iter().map(Cow::into_owned).collect())
                }))
            }
        }
    }
}

impl<'a> Inputs<'a> {
    pub fn new() -> Self {
        Self::default()
    }

    /// Set `name`, replacing an earlier value.
    pub fn insert(&mut self, name: impl Into<String>, value: Cow<'a, Value>) {
        self.put(name.into(), Slot::One(value));
    }

    /// Set `name` to a list of separately resolved members (undefined members as `null`).
    pub fn insert_list(&mut self, name: impl Into<String>, members: Vec<Cow<'a, Value>>) {
        self.put(
            name.into(),
            Slot::List {
                members,
                joined: OnceLock::new(),
            },
        );
    }

    fn put(&mut self, name: String, slot: Slot<'a>) {
        match self.entries.iter_mut().find(|(k, _)| *k == name) {
            Some(entry) => entry.1 = slot,
            None => self.entries.push((name, slot)),
        }
    }

    pub fn get(&self, name: &str) -> Option<&Value> {
        self.entries
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.get())
    }

    /// The members of an array input without copying them: the elements of an array value, or
    /// the members of a list resolved one by one.
    pub fn members(&self, name: &str) -> Option<Vec<&Value>> {
        match &self.entries.iter().find(|(k, _)| k == name)?.1 {
            Slot::One(v) => v.as_array().map(|a| a.iter().collect()),
            Slot::List { members, .. } => Some(members.iter().map(|m| m.as_ref()).collect()),
        }
    }

    pub fn contains_key(&self, name: &str) -> bool {
        self.entries.iter().any(|(k, _)| k == name)
    }

    /// Remove `name`, borrowed or owned as it was resolved.
    pub fn take(&mut self, name: &str) -> Option<Cow<'a, Value>> {
        let at = self.entries.iter().position(|(k, _)| k == name)?;
        Some(self.entries.remove(at).1.into_cow())
    }

    /// Remove `name` as an owned value (copied only if it was borrowed).
    pub fn remove(&mut self, name: &str) -> Option<Value> {
        self.take(name).map(Cow::into_owned)
    }

    pub fn iter(&self) -> impl Iterator<Item = (&str, &Value)> {
        self.entries.iter().map(|(k, v)| (k.as_str(), v.get()))
    }

    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|(k, _)| k.as_str())
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// An owned copy as a JSON object (for events, records and the playground).
    pub fn to_map(&self) -> Map<String, Value> {
        self.iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect()
    }
}

impl From<Map<String, Value>> for Inputs<'_> {
    fn from(map: Map<String, Value>) -> Self {
        Self {
            entries: map
                .into_iter()
                .map(|(k, v)| (k, Slot::One(Cow::Owned(v))))
                .collect(),
        }
    }
}

impl fmt::Debug for Inputs<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn borrowed_values_are_copied_only_when_taken_owned() {
        let big = json!([1, 2, 3]);
        let mut inputs = Inputs::new();
        inputs.insert("a", Cow::Borrowed(&big));
        inputs.insert("b", Cow::Owned(json!(1)));
        inputs.insert("b", Cow::Owned(json!(2)));
        assert_eq!(inputs.len(), 2);
        assert!(matches!(inputs.take("a"), Some(Cow::Borrowed(_))));
        assert_eq!(inputs.remove("b"), Some(json!(2)));
        assert!(inputs.is_empty());
    }

    #[test]
    fn lists_join_only_when_asked() {
        let a = json!([1]);
        let mut inputs = Inputs::new();
        inputs.insert_list("arrays", vec![Cow::Borrowed(&a), Cow::Owned(Value::Null)]);
        assert_eq!(inputs.members("arrays").unwrap(), vec![&a, &Value::Null]);
        assert_eq!(inputs.get("arrays"), Some(&json!([[1], null])));
        assert_eq!(inputs.remove("arrays"), Some(json!([[1], null])));
    }
}
