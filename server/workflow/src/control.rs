//! Declarations of the tools the executor runs itself: `conditional`, `loop`, `workflow`,
//! `yield` and `fail`. They steer the run (skip branches, run an inner step per item, run a
//! child workflow, wait for a person, end the run), so they live in the engine. `decide` owns
//! what a `conditional` decides: the branch taken and the steps to skip.

use crate::compile::{Plan, Route};
use crate::input_schema::{InputSchema, JsonType, PropertySchema, WidgetFormat};
use crate::limits::{LimitError, Limits};
use crate::scope::Context;
use crate::template::Condition;
use crate::tool::{ApiCalls, Category, Effects, ToolSpec};
use serde_json::{Value, json};

pub const CONDITIONAL: &str = "conditional";
pub const LOOP: &str = "loop";
pub const WORKFLOW: &str = "workflow";
pub const YIELD: &str = "yield";
pub const FAIL: &str = "fail";
/// The `router` tool (a model tool in vai-tools) picks a route; the engine skips the others.
pub const ROUTER: &str = "router";
/// Most routes one router may have.
pub const MAX_ROUTES: usize = 20;

/// How deep workflows may call workflows (the top-level run is depth 0).
pub const MAX_WORKFLOW_DEPTH: usize = 8;

/// Default and hard cap on `loop` iterations.
pub const LOOP_DEFAULT_MAX: u64 = 100;
pub const LOOP_HARD_MAX: u64 = 10_000;

pub fn specs() -> Vec<ToolSpec> {
    vec![
        ToolSpec {
            name: CONDITIONAL,
            label: "Conditional",
            category: Category::ControlFlow,
            icon: "CallSplit",
            description: "Evaluate a condition and run only the steps of the branch it selects",
            help: "Evaluates `condition` with the expression language. When it is true the steps listed in `then` run and those in `else` are skipped with the reason \"conditional branch not taken\"; when it is false, the other way round. Listed steps depend on the conditional, so they always start after it. Steps downstream of a skipped step still run and see `null` — list every step that belongs to a branch.",
            input_schema: InputSchema::new()
                .required_input(
                    "condition",
                    PropertySchema::one_of(&[JsonType::String, JsonType::Boolean])
                        .describe("Expression deciding the branch, e.g. {{ search.output.resultCount > 0 }}")
                        .format(WidgetFormat::Expression),
                )
                .required_input("then", step_ids("Step ids to run when the condition is true"))
                .input("else", step_ids("Step ids to run when the condition is false")),
            outputs: &[
                ("conditionResult", "the condition's boolean value"),
                ("branchTaken", "\"then\" or \"else\""),
                ("enabledSteps", "ids of the branch that runs"),
                ("skippedSteps", "ids of the branch that is skipped"),
            ],
            deferred: &[],
            main_input: Some("condition"),
            api_calls: ApiCalls {
                embed: 0,
                rerank: 0,
                vector_search: 0,
                llm: 0,
                http: 0,
            },
            // It only picks a branch; the branch's steps declare their own effects.
            effects: Effects::PURE,
            optional_calls: &[],
            uses_store: false,
        },
        ToolSpec {
            name: LOOP,
            label: "Loop",
            category: Category::ControlFlow,
            icon: "Loop",
            description: "Run one inner step for every item of an array",
            help: "Resolves `items` to an array and runs the inner `step` (`{tool, inputs}`) once per item, in order, with the item bound to the name given in `as` (and its position to `index` and `_loopIndex`). Per-item failures are collected in `errors` and do not fail the step. At most `maxIterations` items run (default 100, never more than 10,000); a truncated loop records an error entry saying so.",
            input_schema: InputSchema::new()
                .required_input(
                    "items",
                    PropertySchema::any().describe(
                        "Array to iterate, usually a template such as {{ chunks.output.chunks }}",
                    ),
                )
                .required_input(
                    "as",
                    PropertySchema::of(JsonType::String)
                        .pattern("^[A-Za-z_][A-Za-z0-9_]*$")
                        .describe("Name the current item is bound to inside the inner step"),
                )
                .required_input(
                    "step",
                    PropertySchema::of(JsonType::Object)
                        .member("tool", PropertySchema::of(JsonType::String))
                        .member("inputs", PropertySchema::of(JsonType::Object))
                        .require(&["tool"])
                        .describe("The inner step: a tool and its inputs"),
                )
                .input(
                    "maxIterations",
                    PropertySchema::of(JsonType::Integer)
                        .min(1u64)
                        .max(LOOP_HARD_MAX)
                        .defaults_to(LOOP_DEFAULT_MAX),
                ),
            outputs: &[
                ("iterations", "number of items whose inner step succeeded"),
                (
                    "results",
                    "inner step outputs of the successful items, in order",
                ),
                (
                    "errors",
                    "[{index, error}] for items whose inner step failed",
                ),
            ],
            deferred: &[],
            main_input: Some("items"),
            api_calls: ApiCalls {
                embed: 0,
                rerank: 0,
                vector_search: 0,
                llm: 0,
                http: 0,
            },
            // It runs whatever tool its inner step names, `ingest` and `http` included, so it
            // may do anything any tool may do.
            effects: Effects::MAY_CHANGE_REMOTE,
            optional_calls: &[],
            uses_store: false,
        },
    ]
    .into_iter()
    .chain(orchestration_specs())
    .collect()
}

/// The declarations of `workflow`, `yield` and `fail`.
fn orchestration_specs() -> Vec<ToolSpec> {
    let none = ApiCalls {
        embed: 0,
        rerank: 0,
        vector_search: 0,
        llm: 0,
        http: 0,
    };
    vec![
        ToolSpec {
            name: WORKFLOW,
            label: "Sub-workflow",
            category: Category::ControlFlow,
            icon: "AccountTree",
            description: "Run another workflow as one step and use its output",
            help: "Runs the workflow named by `workflow` — a built-in name, or a file beside this one (`book-flight` finds `book-flight.vai-workflow.json`; a name ending in `.json` is taken as is), never a path — with `inputs` as its inputs. `{{ <id>.output }}` is the child's output mapping. The child shares this run's budgets and cancellation; workflows may call workflows 8 deep, never in a cycle. When the run ends badly after this step completed, the child's own compensations undo it.",
            input_schema: InputSchema::new()
                .required_input(
                    "workflow",
                    PropertySchema::of(JsonType::String)
                        .describe("The workflow to run: a built-in name or a file name beside this workflow (a literal, not a template)"),
                )
                .input(
                    "inputs",
                    PropertySchema::of(JsonType::Object)
                        .describe("The child workflow's inputs; values may be templates"),
                ),
            outputs: &[("(any)", "the child workflow's output mapping")],
            deferred: &[],
            main_input: Some("workflow"),
            api_calls: none,
            // It runs whatever the child runs.
            effects: Effects::MAY_CHANGE_REMOTE,
            optional_calls: &[],
            uses_store: false,
        },
        ToolSpec {
            name: YIELD,
            label: "Ask a person",
            category: Category::ControlFlow,
            icon: "PanTool",
            description: "Stop the run and wait for a person's answer",
            help: "Shows `message` and waits for an object that satisfies `expects` (a JSON Schema of an object: properties with type, required, enum, minimum/maximum, minLength/maxLength). The answer is the step's output. In a terminal `vai workflow run` asks for each field; elsewhere the run is saved as waiting (exit code 3) and goes on with `vai runs resume`, the playground's form, or MCP. After `timeoutMs` the run fails (`onTimeout: \"fail\"`, the default) or goes on with `default` (`onTimeout: \"default\"`).",
            input_schema: InputSchema::new()
                .required_input(
                    "message",
                    PropertySchema::of(JsonType::String)
                        .describe("What the person is asked; may hold templates")
                        .format(WidgetFormat::Multiline),
                )
                .input(
                    "expects",
                    PropertySchema::of(JsonType::Object)
                        .describe("JSON Schema of the answer: an object with properties"),
                )
                .input(
                    "timeoutMs",
                    PropertySchema::of(JsonType::Integer)
                        .min(1u64)
                        .describe("How long to wait, in milliseconds (no limit when absent)"),
                )
                .input(
                    "onTimeout",
                    PropertySchema::of(JsonType::String)
                        .choices(["fail", "default"])
                        .defaults_to("fail"),
                )
                .input(
                    "default",
                    PropertySchema::of(JsonType::Object)
                        .describe("The answer used when the wait times out with onTimeout \"default\""),
                ),
            outputs: &[("(fields)", "the submitted answer, validated against expects")],
            deferred: &[],
            main_input: Some("message"),
            api_calls: none,
            effects: Effects::PURE,
            optional_calls: &[],
            uses_store: false,
        },
        ToolSpec {
            name: FAIL,
            label: "Fail",
            category: Category::ControlFlow,
            icon: "Block",
            description: "End the run as failed with a message",
            help: "Ends the run failed with `message` (templates allowed), whatever `continueOnError` says; the compensations of the steps that completed run first. With `condition`, a `conditional` or a step that continues on error, it turns a result you cannot go on with into a clear failure.",
            input_schema: InputSchema::new().required_input(
                "message",
                PropertySchema::of(JsonType::String)
                    .describe("Why the run ends, e.g. No seats on {{ inputs.date }}"),
            ),
            outputs: &[],
            deferred: &[],
            main_input: Some("message"),
            api_calls: none,
            effects: Effects::PURE,
            optional_calls: &[],
            uses_store: false,
        },
    ]
}

fn step_ids(description: &str) -> PropertySchema {
    PropertySchema::of(JsonType::Array)
        .items(PropertySchema::of(JsonType::String))
        .describe(description)
        .format(WidgetFormat::StepIds)
}

/// The route a router's `output` chose (its index in `routes`), or why the output chose none.
pub(crate) fn chosen_route(routes: &[Route], output: &Value) -> Result<usize, String> {
    let ids = || {
        let ids: Vec<&str> = routes.iter().map(|r| r.id.as_str()).collect();
        ids.join(", ")
    };
    match output.get("route") {
        Some(Value::String(id)) => routes.iter().position(|r| &r.id == id).ok_or_else(|| {
            format!(
                "router chose \"{id}\", which is not one of its routes ({})",
                ids()
            )
        }),
        _ => Err(format!(
            "router output has no \"route\" naming one of its routes ({})",
            ids()
        )),
    }
}

/// What a conditional decided.
pub(crate) struct Decision {
    /// The step's output: `conditionResult`, `branchTaken`, `enabledSteps`, `skippedSteps`.
    pub(crate) output: Value,
    /// The steps of the branch not taken that the taken one does not list too.
    pub(crate) skipped: Vec<usize>,
}

/// The branch `condition` takes over `context`: `then` when it is true, `otherwise` when not.
pub(crate) fn decide(
    plan: &Plan,
    condition: &Condition,
    then: &[usize],
    otherwise: &[usize],
    context: &Context,
    limits: &Limits,
) -> Result<Decision, LimitError> {
    let taken = condition
        .eval(context, &limits.value_budget())
        .map_err(|l| LimitError::new("inputs.condition", l))?;
    let (enabled, skipped) = if taken {
        (then, otherwise)
    } else {
        (otherwise, then)
    };
    let ids = |l: &[usize]| {
        l.iter()
            .map(|&j| Value::String(plan.steps[j].id.clone()))
            .collect::<Vec<_>>()
    };
    let output = json!({
        "conditionResult": taken,
        "branchTaken": if taken { "then" } else { "else" },
        "enabledSteps": ids(enabled),
        "skippedSteps": ids(skipped),
    });
    let skipped = skipped
        .iter()
        .copied()
        .filter(|j| !enabled.contains(j))
        .collect();
    Ok(Decision { output, skipped })
}
