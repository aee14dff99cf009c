//! A step whose tool calls tools and workflows (an agent's `tools`): the names checked and the
//! workflows loaded when the workflow is, and the calls made through the engine's handle.

use super::*;
use crate::compile::{Children, Mode, compile_with};
use crate::events::{NoEvents, RunStatus};
use crate::input_schema::{InputSchema, JsonType, PropertySchema, WidgetFormat};
use crate::test_support::{FnTool, registry_with, spec};
use crate::tool::{
    Callable, Category, Tool, ToolCall, ToolError, ToolFuture, ToolOutput, ToolSpec,
};
use serde_json::{Map, Value, json};
use std::collections::HashMap;

/// Calls everything its step lists, each with the inputs `args` gives under its name, then
/// `extra` (a name it may not list); outputs what each call returned or why it failed.
struct Caller(ToolSpec);

impl Caller {
    fn new() -> Self {
        let mut spec = spec("caller", &[], &[]);
        spec.category = Category::Generation;
        spec.input_schema = InputSchema::new().input(
            "tools",
            PropertySchema::of(JsonType::Array).format(WidgetFormat::ToolNames),
        );
        Caller(spec)
    }
}

impl Tool for Caller {
    fn spec(&self) -> &ToolSpec {
        &self.0
    }

    fn run<'a>(&'a self, call: ToolCall<'a>) -> ToolFuture<'a> {
        Box::pin(async move {
            let calls = call
                .calls()
                .ok_or_else(|| ToolError::Failed("no calls here".into()))?;
            let mut names: Vec<String> = calls
                .callable()
                .iter()
                .map(|c| match c {
                    Callable::Tool(spec) => format!("tool {}", spec.name),
                    Callable::Workflow { name, workflow } => {
                        format!("workflow {name} ({})", workflow.name)
                    }
                })
                .collect();
            let mut outputs = Map::new();
            let listed: Vec<String> = calls.callable().iter().map(|c| c.name().into()).collect();
            let extra = call.str_input("extra").map(str::to_string);
            for name in listed.iter().chain(&extra) {
                let args = call
                    .input("args")
                    .and_then(|a| a.get(name))
                    .and_then(Value::as_object)
                    .cloned()
                    .unwrap_or_default();
                let out = match calls.call(name, args).await {
                    Ok(out) => out.output,
                    Err(e) => json!({"error": e.to_string()}),
                };
                outputs.insert(name.clone(), out);
            }
            names.sort();
            Ok(ToolOutput::new(
                json!({"callable": names, "outputs": outputs}),
            ))
        })
    }
}

/// `lookup` (returns its inputs with `found: true`) may be offered; `echo` is control flow.
fn registry() -> Registry {
    registry_with(|r| {
        let mut lookup = FnTool::new("lookup", &[], |mut inputs| {
            inputs.insert("found".into(), json!(true));
            Ok(Value::Object(inputs))
        });
        lookup.spec_mut().category = Category::Retrieval;
        r.register(Arc::new(lookup));
        r.register(Arc::new(Caller::new()));
    })
}

struct Library(HashMap<&'static str, Value>);

impl Children for Library {
    fn load(&self, name: &str) -> Result<(String, Value), String> {
        self.0
            .get(name)
            .map(|v| (format!("{name}.vai-workflow.json"), v.clone()))
            .ok_or_else(|| format!("no workflow \"{name}\" beside this one"))
    }
}

fn greet() -> Value {
    json!({"name": "greet", "inputs": {"city": {"type": "string", "required": true}},
        "steps": [{"id": "hi", "tool": "lookup", "inputs": {"text": "hello {{ inputs.city }}"}}],
        "output": "{{ hi.output.text }}"})
}

fn main(tools: Value) -> Value {
    json!({"name": "main", "steps": [{"id": "ask", "tool": "caller", "inputs": {
        "tools": tools,
        "args": {"lookup": {"q": "x"}, "greet": {"city": "Oslo"}},
        "extra": "echo"
    }}], "output": "{{ ask.output }}"})
}

fn errors(wf: &Value, lib: &Library) -> Vec<(String, String)> {
    let compiled = compile_with(wf, &registry(), Mode::Strict, lib, "main.vai-workflow.json");
    compiled
        .errors()
        .map(|d| (d.field.clone().unwrap_or_default(), d.message.clone()))
        .collect()
}

#[tokio::test]
async fn a_step_calls_the_tools_and_workflows_it_lists_and_nothing_else() {
    let reg = registry();
    let lib = Library(HashMap::from([("greet", greet())]));
    let compiled = compile_with(
        &main(json!(["lookup", "greet"])),
        &reg,
        Mode::Strict,
        &lib,
        "main.vai-workflow.json",
    );
    let plan = compiled.plan.expect("valid");
    let result = run(
        plan,
        Arc::new(reg),
        RunOptions::default(),
        Arc::new(NoEvents),
    )
    .await
    .unwrap();
    assert_eq!(result.status, RunStatus::Completed, "{:?}", result.error);
    let output = result.output.unwrap();
    assert_eq!(
        output["callable"],
        json!(["tool lookup", "workflow greet (greet)"])
    );
    assert_eq!(
        output["outputs"]["lookup"],
        json!({"q": "x", "found": true})
    );
    assert_eq!(output["outputs"]["greet"], json!("hello Oslo"));
    assert_eq!(
        output["outputs"]["echo"]["error"],
        "\"echo\" is not one of the tools step \"ask\" offers"
    );
}

#[test]
fn names_that_cannot_be_called_are_refused_naming_the_step_and_field() {
    let lib = Library(HashMap::from([("greet", greet())]));
    assert_eq!(
        errors(&main(json!(["lookup", "lokup", "echo", "caller"])), &lib),
        [
            (
                "inputs.tools[2]".to_string(),
                "caller: \"echo\" is control flow, which steers a run and means nothing called alone".to_string()
            ),
            (
                "inputs.tools[3]".to_string(),
                "caller: \"caller\" calls tools itself; a step's tool cannot hand its work to another one".to_string()
            ),
            (
                "inputs.tools[1]".to_string(),
                "caller: \"lokup\" is neither a vai tool nor a workflow (no workflow \"lokup\" beside this one); did you mean \"lookup\"?".to_string()
            ),
        ]
    );
    let shapes = [
        (json!("lookup"), "inputs.tools", "must be an array"),
        (json!(["{{ inputs.t }}"]), "inputs.tools", "not templates"),
        (
            json!(["lookup", 3]),
            "inputs.tools[1]",
            "must be a tool or workflow name",
        ),
        (
            json!(["lookup", "lookup"]),
            "inputs.tools[1]",
            "is listed twice",
        ),
        (json!(["../x"]), "inputs.tools[0]", "never a path"),
    ];
    for (tools, field, says) in shapes {
        let found = errors(&main(tools.clone()), &lib);
        assert!(
            found.iter().any(|(f, m)| f == field && m.contains(says)),
            "{tools}: {found:?}"
        );
    }
}

#[test]
fn a_cycle_through_a_step_that_calls_workflows_is_refused() {
    let looping = json!({"name": "again", "steps": [
        {"id": "inner", "tool": "caller", "inputs": {"tools": ["main"]}}
    ]});
    let lib = Library(HashMap::from([
        ("again", looping),
        ("main", main(json!(["again"]))),
    ]));
    let found = errors(&main(json!(["again"])), &lib);
    assert!(
        found.iter().any(|(f, m)| f == "inputs.tools[0]"
            && m.contains("makes a cycle: main.vai-workflow.json → again.vai-workflow.json → main.vai-workflow.json")),
        "{found:?}"
    );
}

#[tokio::test]
async fn outside_a_run_there_is_nothing_to_call() {
    let reg = registry();
    let out = crate::tool::run_alone(
        reg.tool("caller").unwrap().as_ref(),
        "test",
        Map::new(),
        Limits::DEFAULT,
    )
    .await;
    assert_eq!(out.unwrap_err().to_string(), "no calls here");
}

#[test]
fn the_estimate_counts_a_listed_workflow_once() {
    let reg = registry_with(|r| {
        let mut lookup = FnTool::new("lookup", &[], |inputs| Ok(Value::Object(inputs)));
        lookup.spec_mut().category = Category::Retrieval;
        lookup.spec_mut().api_calls.embed = 1;
        r.register(Arc::new(lookup));
        r.register(Arc::new(Caller::new()));
    });
    let lib = Library(HashMap::from([("greet", greet())]));
    let wf = main(json!(["lookup", "greet"]));
    let plan = compile_with(&wf, &reg, Mode::Strict, &lib, "main.vai-workflow.json")
        .plan
        .expect("valid");
    // The step itself calls nothing it declares; the workflow it may call embeds once.
    assert_eq!(crate::estimate::estimate_plan(&plan, &reg).fixed.embed, 1);
}
