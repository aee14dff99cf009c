//! Fake tools for the engine's own tests: declared like real tools, behaving as each test needs.

use crate::input_schema::InputSchema;
use crate::tool::{
    ApiCalls, Category, DeferredInput, DeferredKind, Effects, Registry, Tool, ToolCall, ToolError,
    ToolFuture, ToolOutput, ToolSpec,
};
use serde_json::{Map, Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

type Behaviour = Arc<dyn Fn(Map<String, Value>) -> Result<Value, ToolError> + Send + Sync>;

/// A tool whose output is computed by a closure, after an optional delay read from the
/// `delayMs` input.
pub(crate) struct FnTool {
    spec: ToolSpec,
    f: Behaviour,
    pub calls: Arc<AtomicUsize>,
    pub running: Arc<AtomicUsize>,
    pub max_running: Arc<AtomicUsize>,
}

impl FnTool {
    pub(crate) fn new(
        name: &'static str,
        required: &[&str],
        f: impl Fn(Map<String, Value>) -> Result<Value, ToolError> + Send + Sync + 'static,
    ) -> Self {
        Self {
            spec: spec(name, required, &[]),
            f: Arc::new(f),
            calls: Arc::default(),
            running: Arc::default(),
            max_running: Arc::default(),
        }
    }

    /// Its declaration, to give it outputs or deferred inputs before registering it.
    pub(crate) fn spec_mut(&mut self) -> &mut ToolSpec {
        &mut self.spec
    }
}

pub(crate) fn spec(
    name: &'static str,
    required: &[&str],
    deferred: &'static [DeferredInput],
) -> ToolSpec {
    ToolSpec {
        name,
        label: name,
        category: Category::ControlFlow,
        icon: "Build",
        description: "test tool",
        help: "test tool",
        input_schema: InputSchema {
            required: required.iter().map(|r| r.to_string()).collect(),
            ..InputSchema::new()
        },
        outputs: &[],
        deferred,
        main_input: None,
        api_calls: ApiCalls::default(),
        effects: Effects::PURE,
        optional_calls: &[],
        uses_store: false,
    }
}

impl Tool for FnTool {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    fn run<'a>(&'a self, call: ToolCall<'a>) -> ToolFuture<'a> {
        Box::pin(async move {
            self.calls.fetch_add(1, Ordering::SeqCst);
            let now = self.running.fetch_add(1, Ordering::SeqCst) + 1;
            self.max_running.fetch_max(now, Ordering::SeqCst);
            if let Some(ms) = call.inputs.get("delayMs").and_then(Value::as_u64) {
                tokio::time::sleep(Duration::from_millis(ms)).await;
            }
            let out = (self.f)(call.inputs.to_map());
            self.running.fetch_sub(1, Ordering::SeqCst);
            out.map(ToolOutput::new)
        })
    }
}

/// A filter-like tool with a deferred condition, to test per-element evaluation.
pub(crate) struct Keep;

static KEEP_DEFERRED: [DeferredInput; 1] = [DeferredInput {
    name: "condition",
    kind: DeferredKind::Condition,
    locals: &["item", "index"],
}];

impl Tool for Keep {
    fn spec(&self) -> &ToolSpec {
        static SPEC: std::sync::OnceLock<ToolSpec> = std::sync::OnceLock::new();
        SPEC.get_or_init(|| spec("keep", &["array", "condition"], &KEEP_DEFERRED))
    }

    fn run<'a>(&'a self, call: ToolCall<'a>) -> ToolFuture<'a> {
        Box::pin(async move {
            let items = call
                .inputs
                .get("array")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            let kept: Vec<Value> = items
                .iter()
                .enumerate()
                .filter(|(i, item)| {
                    call.eval_condition("condition", &[("item", item), ("index", &json!(i))])
                        .ok()
                        .flatten()
                        .unwrap_or(false)
                })
                .map(|(_, v)| v.clone())
                .collect();
            Ok(ToolOutput::new(
                json!({"results": kept, "resultCount": kept.len()}),
            ))
        })
    }
}

/// A registry with: `echo` (returns its inputs), `broken` (always fails), `flaky` (fails
/// transiently while the shared counter is below `failures`), `search` (returns `results`
/// input, requires `query`), `keep`, and the engine's conditional and loop.
pub(crate) fn registry() -> Registry {
    registry_with(|_| {})
}

pub(crate) fn registry_with(extra: impl FnOnce(&mut Registry)) -> Registry {
    let mut r = Registry::new();
    r.register(Arc::new(FnTool::new("echo", &[], |inputs| {
        Ok(Value::Object(inputs))
    })));
    r.register(Arc::new(FnTool::new("broken", &[], |inputs| {
        Err(ToolError::Failed(
            inputs
                .get("message")
                .and_then(Value::as_str)
                .unwrap_or("boom")
                .to_string(),
        ))
    })));
    r.register(Arc::new(FnTool::new("search", &["query"], |inputs| {
        if inputs
            .get("query")
            .and_then(Value::as_str)
            .is_none_or(str::is_empty)
        {
            return Err(ToolError::required("search", "query"));
        }
        let results = inputs.get("results").cloned().unwrap_or(json!([]));
        let n = results.as_array().map_or(0, Vec::len);
        Ok(json!({"results": results, "resultCount": n}))
    })));
    r.register(Arc::new(Keep));
    extra(&mut r);
    r
}
