//! The run the tests trace: `trip`, with fake tools — a step that fails transiently once, a
//! `workflow` step whose child runs a child of its own, and a model step — and a sink that
//! keeps its events.

use serde_json::{Map, Value, json};
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use vai_workflow::input_schema::InputSchema;
use vai_workflow::{
    ApiCalls, Category, Children, Cost, Effects, EventSink, Mode, Plan, Registry, RunEvent,
    RunOptions, RunResult, Tool, ToolCall, ToolError, ToolFuture, ToolOutput, ToolSpec, Usage,
    compile_with,
};

type Behaviour = Box<dyn Fn(&Map<String, Value>) -> Result<ToolOutput, ToolError> + Send + Sync>;

struct Fake {
    spec: ToolSpec,
    run: Behaviour,
}

impl Tool for Fake {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    fn run<'a>(&'a self, call: ToolCall<'a>) -> ToolFuture<'a> {
        Box::pin(async move {
            tokio::time::sleep(Duration::from_millis(5)).await;
            (self.run)(&call.inputs.to_map())
        })
    }
}

fn fake(
    name: &'static str,
    run: impl Fn(&Map<String, Value>) -> Result<ToolOutput, ToolError> + Send + Sync + 'static,
) -> Arc<dyn Tool> {
    Arc::new(Fake {
        spec: ToolSpec {
            name,
            label: name,
            category: Category::ControlFlow,
            icon: "Build",
            description: "test tool",
            help: "test tool",
            input_schema: InputSchema::new(),
            outputs: &[],
            deferred: &[],
            main_input: None,
            api_calls: ApiCalls::default(),
            effects: Effects::PURE,
            optional_calls: &[],
            uses_store: false,
        },
        run: Box::new(run),
    })
}

/// `echo` returns its inputs; `flaky` fails transiently on its first call only; `generate`
/// answers like a model step, with its model, backend, tokens and cost.
fn registry() -> Registry {
    let mut r = Registry::new();
    r.register(fake("echo", |inputs| {
        Ok(ToolOutput::new(Value::Object(inputs.clone())))
    }));
    let calls = AtomicUsize::new(0);
    r.register(fake("flaky", move |_| {
        if calls.fetch_add(1, Ordering::SeqCst) == 0 {
            return Err(ToolError::Transient {
                message: "HTTP 503 from the service".into(),
                retry_after: None,
            });
        }
        Ok(ToolOutput::new(json!({"text": "fetched"})))
    }));
    r.register(fake("generate", |_| {
        Ok(ToolOutput {
            usage: Some(Usage {
                llm_input_tokens: 120,
                llm_output_tokens: 30,
                requests: 1,
                cost: Some(Cost {
                    usd: Some(0.0025),
                    priced_at: "2026-11-01".into(),
                    ..Cost::default()
                }),
                ..Usage::default()
            }),
            backend: Some("openai".into()),
            ..ToolOutput::new(json!({"text": "a seat in Oslo", "model": "gpt-4o-mini"}))
        })
    }));
    r
}

/// Child workflows by name.
struct Library(HashMap<&'static str, Value>);

impl Children for Library {
    fn load(&self, name: &str) -> Result<(String, Value), String> {
        self.0
            .get(name)
            .map(|v| (format!("{name}.vai-workflow.json"), v.clone()))
            .ok_or_else(|| format!("no workflow \"{name}\""))
    }
}

/// `trip`: a step retried once, a `workflow` step running `book` (which runs `hold` in turn),
/// and a model step.
fn plan(registry: &Registry) -> Arc<Plan> {
    let library = Library(HashMap::from([
        (
            "book",
            json!({"name": "book", "inputs": {"city": {"type": "string", "required": true}},
            "steps": [
                {"id": "hold", "tool": "workflow", "inputs": {"workflow": "hold", "inputs": {"city": "{{ inputs.city }}"}}},
                {"id": "pay", "tool": "echo", "inputs": {"seat": "{{ hold.output.seat }}"}}
            ], "output": {"seat": "{{ pay.output.seat }}"}}),
        ),
        (
            "hold",
            json!({"name": "hold", "inputs": {"city": {"type": "string", "required": true}},
            "steps": [{"id": "seat", "tool": "echo", "inputs": {"seat": "{{ inputs.city }}-1A"}}],
            "output": {"seat": "{{ seat.output.seat }}"}}),
        ),
    ]));
    let workflow = json!({"name": "trip", "steps": [
        {"id": "fetch", "tool": "flaky", "inputs": {},
         "retry": {"maxAttempts": 2, "initialDelayMs": 20}},
        {"id": "book", "tool": "workflow", "inputs": {"workflow": "book", "inputs": {"city": "Oslo"}},
         "dependsOn": ["fetch"]},
        {"id": "answer", "tool": "generate", "inputs": {"prompt": "{{ book.output.seat }}"}}
    ], "output": {"seat": "{{ book.output.seat }}", "text": "{{ answer.output.text }}"}});
    let compiled = compile_with(
        &workflow,
        registry,
        Mode::Strict,
        &library,
        "trip.vai-workflow.json",
    );
    compiled
        .plan
        .unwrap_or_else(|| panic!("invalid: {:#?}", compiled.diagnostics))
}

/// Keeps the events it is given.
#[derive(Default)]
pub(crate) struct Events(Mutex<Vec<RunEvent>>);

impl EventSink for Events {
    fn emit(&self, event: RunEvent) {
        self.0.lock().unwrap().push(event);
    }
}

impl Events {
    /// Each event's type and step, in order (times left out).
    pub(crate) fn outline(&self) -> Vec<String> {
        self.0
            .lock()
            .unwrap()
            .iter()
            .map(|e| {
                let v = serde_json::to_value(e).unwrap();
                format!("{} {}", v["type"], v["stepId"])
            })
            .collect()
    }
}

/// Run `trip` with fresh tools, its events through `wrap` (the tracing sink, or none).
pub(crate) async fn run_trip(
    wrap: impl FnOnce(Arc<dyn EventSink>) -> Arc<dyn EventSink>,
) -> (RunResult, Arc<Events>, Duration) {
    let registry = registry();
    let plan = plan(&registry);
    let events = Arc::new(Events::default());
    let sink = wrap(events.clone());
    let started = Instant::now();
    let result = vai_workflow::run(plan, Arc::new(registry), RunOptions::default(), sink)
        .await
        .expect("inputs are fine");
    (result, events, started.elapsed())
}
