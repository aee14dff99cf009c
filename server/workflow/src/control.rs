//! Declarations of the two tools the executor runs itself: `conditional` and `loop`.
//! They steer the run (skip branches, run an inner step per item), so they live in the engine.

use crate::input_schema::{InputSchema, JsonType, PropertySchema, WidgetFormat};
use crate::tool::{ApiCalls, Category, Effects, ToolSpec};

pub const CONDITIONAL: &str = "conditional";
pub const LOOP: &str = "loop";

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
}

fn step_ids(description: &str) -> PropertySchema {
    PropertySchema::of(JsonType::Array)
        .items(PropertySchema::of(JsonType::String))
        .describe(description)
        .format(WidgetFormat::StepIds)
}
