//! What the calls a step is expected to make would cost: the engine knows no prices, so the
//! composition root lends the registry a [`CallPricer`] (the tools' price table) for estimates.

use super::outcome::Cost;
use super::spec::ApiCalls;
use serde_json::{Map, Value};

/// Prices the calls a step is expected to make, before anything runs (`vai workflow run
/// --dry-run`, the playground's Plan dialog).
pub trait CallPricer: Send + Sync {
    /// About what `calls` by a step of `tool` with these `inputs` (as written: templates are
    /// not resolved) cost under the workflow's `defaults`; `None` when they call no model.
    fn price(
        &self,
        tool: &str,
        inputs: &Map<String, Value>,
        defaults: &Map<String, Value>,
        calls: ApiCalls,
    ) -> Option<Cost>;

    /// What the figures assume (tokens per call, whose prices), in a sentence.
    fn assumptions(&self) -> String;
}
