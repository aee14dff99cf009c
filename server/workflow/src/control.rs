//! Declarations of the two tools the executor runs itself: `conditional` and `loop`.
//! They steer the run (skip branches, run an inner step per item), so they live in the engine.

use crate::tool::{ApiCalls, Category, ToolSpec};
use serde_json::json;

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
            input_schema: json!({
                "type": "object",
                "properties": {
                    "condition": {"type": ["string", "boolean"], "description": "Expression deciding the branch, e.g. {{ search.output.resultCount > 0 }}"},
                    "then": {"type": "array", "items": {"type": "string"}, "description": "Step ids to run when the condition is true"},
                    "else": {"type": "array", "items": {"type": "string"}, "description": "Step ids to run when the condition is false"}
                },
                "required": ["condition", "then"]
            }),
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
        },
        ToolSpec {
            name: LOOP,
            label: "Loop",
            category: Category::ControlFlow,
            icon: "Loop",
            description: "Run one inner step for every item of an array",
            help: "Resolves `items` to an array and runs the inner `step` (`{tool, inputs}`) once per item, in order, with the item bound to the name given in `as` (and its position to `index` and `_loopIndex`). Per-item failures are collected in `errors` and do not fail the step. At most `maxIterations` items run (default 100, never more than 10,000); a truncated loop records an error entry saying so.",
            input_schema: json!({
                "type": "object",
                "properties": {
                    "items": {"description": "Array to iterate, usually a template such as {{ chunks.output.chunks }}"},
                    "as": {"type": "string", "pattern": "^[A-Za-z_][A-Za-z0-9_]*$", "description": "Name the current item is bound to inside the inner step"},
                    "step": {
                        "type": "object",
                        "properties": {"tool": {"type": "string"}, "inputs": {"type": "object"}},
                        "required": ["tool"],
                        "description": "The inner step: a tool and its inputs"
                    },
                    "maxIterations": {"type": "integer", "minimum": 1, "maximum": LOOP_HARD_MAX, "default": LOOP_DEFAULT_MAX}
                },
                "required": ["items", "as", "step"]
            }),
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
        },
    ]
}
