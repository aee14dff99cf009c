//! Name lookup for templates and expressions: the run context plus per-iteration locals.

use serde_json::Value;
use std::collections::HashMap;
use std::sync::Arc;

/// Something that maps a root identifier (`inputs`, `defaults`, a step id, `item`, …) to a value.
///
/// Lookups borrow: evaluating `a.b.length` never clones `a`.
pub trait Scope: Sync {
    fn get(&self, name: &str) -> Option<&Value>;
}

/// The run context: `inputs`, `defaults` and one `{output, skipped?, error?}` entry per finished step.
#[derive(Debug, Default, Clone)]
pub struct Context {
    entries: HashMap<String, Arc<Value>>,
}

impl Context {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn insert(&mut self, name: impl Into<String>, value: impl Into<Arc<Value>>) {
        self.entries.insert(name.into(), value.into());
    }

    pub fn remove(&mut self, name: &str) -> Option<Arc<Value>> {
        self.entries.remove(name)
    }

    pub fn contains(&self, name: &str) -> bool {
        self.entries.contains_key(name)
    }

    pub fn get_arc(&self, name: &str) -> Option<&Arc<Value>> {
        self.entries.get(name)
    }

    /// The whole context as one JSON object (the run's output when a workflow maps none).
    pub fn to_value(&self) -> Value {
        let mut names: Vec<&String> = self.entries.keys().collect();
        names.sort_by_key(|n| match n.as_str() {
            "inputs" => (0, n.as_str()),
            "defaults" => (1, n.as_str()),
            _ => (2, n.as_str()),
        });
        Value::Object(
            names
                .into_iter()
                .map(|n| (n.clone(), (*self.entries[n]).clone()))
                .collect(),
        )
    }
}

impl Scope for Context {
    fn get(&self, name: &str) -> Option<&Value> {
        self.entries.get(name).map(|v| v.as_ref())
    }
}

/// A scope that adds local names (`item`, `index`, a loop's `as` variable) over a parent scope.
pub struct Locals<'a> {
    parent: &'a dyn Scope,
    locals: &'a [(&'a str, &'a Value)],
}

impl<'a> Locals<'a> {
    pub fn new(parent: &'a dyn Scope, locals: &'a [(&'a str, &'a Value)]) -> Self {
        Self { parent, locals }
    }
}

impl Scope for Locals<'_> {
    fn get(&self, name: &str) -> Option<&Value> {
        self.locals
            .iter()
            .rev()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| *v)
            .or_else(|| self.parent.get(name))
    }
}

impl Scope for HashMap<String, Value> {
    fn get(&self, name: &str) -> Option<&Value> {
        HashMap::get(self, name)
    }
}
