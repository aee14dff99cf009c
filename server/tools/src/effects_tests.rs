//! The side effects every tool declares — what the MCP server publishes as tool annotations —
//! hold the properties a user relies on before letting a client call a tool unasked.

use crate::unconfigured_registry;
use vai_workflow::{ApiCalls, Effects, Registry, ToolSpec};

fn names_where(registry: &Registry, keep: impl Fn(&ToolSpec) -> bool) -> Vec<&'static str> {
    registry
        .specs()
        .filter(|s| keep(s))
        .map(|s| s.name)
        .collect()
}

#[test]
fn only_the_tools_that_can_write_are_not_read_only() {
    // `aggregate` writes with `allowWrites`; `loop` runs any tool as its inner step,
    // `workflow` any workflow, and `agent` whatever its step lists.
    assert_eq!(
        names_where(&unconfigured_registry(), |s| !s.effects.read_only),
        ["agent", "aggregate", "http", "ingest", "loop", "workflow"]
    );
}

#[test]
fn no_read_only_tool_is_destructive() {
    assert_eq!(
        names_where(&unconfigured_registry(), |s| s.effects.read_only
            && s.effects.destructive),
        Vec::<&str>::new()
    );
}

#[test]
fn ingest_only_adds_and_adds_again_when_repeated() {
    let registry = unconfigured_registry();
    let ingest = registry.spec("ingest").unwrap().effects;
    assert!(!ingest.destructive && !ingest.idempotent, "{ingest:?}");
}

#[test]
fn tools_that_compute_on_their_inputs_reach_nothing_outside_vai() {
    let registry = unconfigured_registry();
    for name in [
        "merge",
        "filter",
        "transform",
        "template",
        "chunk",
        "estimate",
        "explain",
        "models",
        "conditional",
    ] {
        let spec = registry.spec(name).unwrap();
        assert_eq!(spec.effects, Effects::PURE, "{name}");
    }
}

#[test]
fn every_tool_that_calls_a_provider_is_open_world() {
    let registry = unconfigured_registry();
    let calls_a_provider = |s: &ToolSpec| s.api_calls != ApiCalls::default();
    assert_eq!(
        names_where(&registry, |s| calls_a_provider(s) && !s.effects.open_world),
        Vec::<&str>::new()
    );
    // The database tools make no counted provider call, yet reach MongoDB when it is configured.
    for name in ["collections", "aggregate"] {
        assert!(registry.spec(name).unwrap().effects.open_world, "{name}");
    }
}
