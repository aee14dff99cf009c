//! The tools a run may use, by name: the engine's own control-flow declarations, and each tool
//! registered with its spec.

use super::Tool;
use super::pricer::CallPricer;
use super::spec::ToolSpec;
use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

/// The tools a run may use, by name.
#[derive(Clone, Default)]
pub struct Registry {
    tools: BTreeMap<&'static str, Arc<dyn Tool>>,
    specs: BTreeMap<&'static str, Arc<ToolSpec>>,
    /// What estimates price expected calls with; none: estimates count calls only.
    pricer: Option<Arc<dyn CallPricer>>,
}

impl Registry {
    pub fn new() -> Self {
        let mut registry = Self::default();
        for spec in crate::control::specs() {
            registry.specs.insert(spec.name, Arc::new(spec));
        }
        registry
    }

    pub fn register(&mut self, tool: Arc<dyn Tool>) {
        let spec = Arc::new(tool.spec().clone());
        self.specs.insert(spec.name, spec);
        self.tools.insert(tool.spec().name, tool);
    }

    pub fn tool(&self, name: &str) -> Option<&Arc<dyn Tool>> {
        self.tools.get(name)
    }

    pub fn spec(&self, name: &str) -> Option<&ToolSpec> {
        self.specs.get(name).map(|s| s.as_ref())
    }

    pub fn specs(&self) -> impl Iterator<Item = &ToolSpec> {
        self.specs.values().map(|s| s.as_ref())
    }

    pub fn names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.specs.keys().copied()
    }

    /// Price estimates with `pricer` (the tools' price table).
    pub fn set_pricer(&mut self, pricer: Arc<dyn CallPricer>) {
        self.pricer = Some(pricer);
    }

    pub fn pricer(&self) -> Option<&dyn CallPricer> {
        self.pricer.as_deref()
    }
}

impl fmt::Debug for Registry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.specs.keys()).finish()
    }
}
