//! A tool's resolved inputs. Values a template reads straight out of the run context are
//! borrowed, not copied: a step that reads a 2,000-item array pays for it only if it keeps it.

use crate::limits::{Budget, Limit, LimitError, Limits};
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::fmt;
use std::sync::OnceLock;

/// Bounds the joining of list inputs into one array, which happens lazily, when a tool asks for
/// the list whole: members are copied within one value budget, and a join that would exceed it
/// yields `null` instead and is recorded here. The engine checks the guard once the tool
/// returns and fails the step, whatever the tool made of the `null`.
#[derive(Debug)]
pub struct JoinGuard {
    budget: Budget,
    tripped: OnceLock<LimitError>,
}

impl JoinGuard {
    pub fn new(limits: &Limits) -> Self {
        Self {
            budget: limits.value_budget(),
            tripped: OnceLock::new(),
        }
    }

    /// The limit a join ran into, naming the input.
    pub fn tripped(&self) -> Option<&LimitError> {
        self.tripped.get()
    }

    fn join<'v>(&self, name: &str, members: impl Iterator<Item = &'v Value>) -> Value {
        let mut out = Vec::new();
        for member in members {
            match self.budget.copy(member, 1) {
                Ok(v) => out.push(v),
                Err(limit) => {
                    let _ = self
                        .tripped
                        .set(LimitError::new(format!("inputs.{name}"), limit));
                    return Value::Null;
                }
            }
        }
        Value::Array(out)
    }
}

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
        guard: &'a JoinGuard,
    },
}

impl<'a> Slot<'a> {
    fn get(&self, name: &str) -> &Value {
        match self {
            Slot::One(v) => v.as_ref(),
            Slot::List {
                members,
                joined,
                guard,
            } => joined.get_or_init(|| guard.join(name, members.iter().map(AsRef::as_ref))),
        }
    }

    fn into_cow(self, name: &str) -> Cow<'a, Value> {
        match self {
            Slot::One(v) => v,
            Slot::List {
                members,
                joined,
                guard,
            } => Cow::Owned(
                joined
                    .into_inner()
                    .unwrap_or_else(|| guard.join(name, members.iter().map(AsRef::as_ref))),
            ),
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

    /// Set `name` to a list of separately resolved members (undefined members as `null`),
    /// joined within `guard` if a tool asks for the list whole.
    pub fn insert_list(
        &mut self,
        name: impl Into<String>,
        members: Vec<Cow<'a, Value>>,
        guard: &'a JoinGuard,
    ) {
        self.put(
            name.into(),
            Slot::List {
                members,
                joined: OnceLock::new(),
                guard,
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
            .map(|(k, v)| v.get(k))
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
        let (name, slot) = self.entries.remove(at);
        Some(slot.into_cow(&name))
    }

    /// Remove `name` as an owned value (copied only if it was borrowed).
    pub fn remove(&mut self, name: &str) -> Option<Value> {
        self.take(name).map(Cow::into_owned)
    }

    pub fn iter(&self) -> impl Iterator<Item = (&str, &Value)> {
        self.entries.iter().map(|(k, v)| (k.as_str(), v.get(k)))
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

    /// An owned copy as a JSON object (lists joined as the tool would see them).
    pub fn to_map(&self) -> Map<String, Value> {
        self.iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect()
    }

    /// An owned copy as a JSON object, charged to `budget` (lists are copied member by member,
    /// never joined): what the step was given, for the playground's inspector.
    pub fn record(&self, budget: &Budget) -> Result<Value, Limit> {
        let mut out = Map::with_capacity(self.entries.len());
        for (name, slot) in &self.entries {
            let value = match slot {
                Slot::One(v) => budget.copy(v, 1)?,
                Slot::List { members, .. } => Value::Array(
                    members
                        .iter()
                        .map(|m| budget.copy(m, 2))
                        .collect::<Result<_, _>>()?,
                ),
            };
            budget.charge(name.len() as u64 + 3)?;
            out.insert(name.clone(), value);
        }
        Ok(Value::Object(out))
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
        let guard = JoinGuard::new(&Limits::DEFAULT);
        let mut inputs = Inputs::new();
        inputs.insert_list(
            "arrays",
            vec![Cow::Borrowed(&a), Cow::Owned(Value::Null)],
            &guard,
        );
        assert_eq!(inputs.members("arrays").unwrap(), vec![&a, &Value::Null]);
        assert_eq!(inputs.get("arrays"), Some(&json!([[1], null])));
        assert_eq!(inputs.remove("arrays"), Some(json!([[1], null])));
        assert!(guard.tripped().is_none());
    }

    #[test]
    fn a_join_past_the_value_budget_yields_null_and_trips_the_guard() {
        let big = json!("x".repeat(1000));
        let limits = Limits {
            value_bytes: 10_000,
            ..Limits::DEFAULT
        };
        let guard = JoinGuard::new(&limits);
        let mut inputs = Inputs::new();
        // The same reference a hundred times: cheap as a list, 100 KB joined.
        inputs.insert_list("many", vec![Cow::Borrowed(&big); 100], &guard);
        assert_eq!(inputs.members("many").map(|m| m.len()), Some(100));
        assert_eq!(inputs.get("many"), Some(&Value::Null));
        let tripped = guard.tripped().unwrap();
        assert_eq!(tripped.field, "inputs.many");
        assert_eq!(tripped.limit, Limit::ValueBytes(10_000));
    }

    #[test]
    fn records_copy_within_a_budget() {
        let a = json!({"k": "v"});
        let guard = JoinGuard::new(&Limits::DEFAULT);
        let mut inputs = Inputs::new();
        inputs.insert("q", Cow::Owned(json!("text")));
        inputs.insert_list("arrays", vec![Cow::Borrowed(&a)], &guard);
        let budget = Limits::DEFAULT.value_budget();
        assert_eq!(
            inputs.record(&budget),
            Ok(json!({"q": "text", "arrays": [{"k": "v"}]}))
        );
        assert!(guard.tripped().is_none(), "recording never joins");
        let tiny = Budget::new(Limit::RunBytes(5));
        assert_eq!(inputs.record(&tiny), Err(Limit::RunBytes(5)));
    }
}
