//! The provider calls a workflow is expected to make: what `vai workflow run --dry-run` prints
//! and the playground's Plan dialog shows — one count, made here, for both.
//!
//! It reads the workflow as written, so it answers for a draft with errors too. Every step is
//! counted once, branches of a `conditional` included (an upper bound: a run takes one of them).
//! A step with `forEach`, and a `loop`'s inner step, repeat per item, a number known only at
//! run time: their calls are counted per item. A call a tool declares optional (a `query`
//! step's rerank) is left out when the input that switches it is the literal `false`.

use crate::compile::Callee;
use crate::control::LOOP;
use crate::model::Workflow;
use crate::tool::{ApiCalls, Registry};
use serde::Serialize;
use serde_json::{Map, Value};

/// Expected provider calls: once per run, and once per item of each `forEach` or `loop`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Estimate {
    pub fixed: ApiCalls,
    pub per_item: ApiCalls,
}

/// The estimate of `workflow`; steps of unknown tools count nothing.
pub fn estimate(workflow: &Workflow, registry: &Registry) -> Estimate {
    let mut out = Estimate::default();
    for step in &workflow.steps {
        let (tool, inputs, looped) = match inner_step(&step.tool, &step.inputs) {
            Some((tool, inputs)) => (tool, inputs, true),
            None => (step.tool.as_str(), Some(&step.inputs), false),
        };
        let Some(spec) = registry.spec(tool) else {
            continue;
        };
        let mut calls = spec.api_calls;
        for (input, skipped) in spec.optional_calls {
            if inputs.and_then(|m| m.get(*input)) == Some(&Value::Bool(false)) {
                calls = without(calls, *skipped);
            }
        }
        let target = if looped || step.for_each.is_some() {
            &mut out.per_item
        } else {
            &mut out.fixed
        };
        add(target, calls);
    }
    out
}

/// The estimate of a planned workflow with the workflows its `workflow` steps call: a child's
/// calls count as the step's (per item when the step has `forEach`). A workflow an agent step
/// may call counts once, as if the agent called it once.
pub fn estimate_plan(plan: &crate::compile::Plan, registry: &Registry) -> Estimate {
    let mut out = estimate(&plan.workflow, registry);
    let called = plan.callees.iter().flat_map(|(&i, callees)| {
        callees.0.iter().filter_map(move |c| match c {
            Callee::Workflow { plan, .. } => Some((i, plan)),
            Callee::Tool(_) => None,
        })
    });
    for (i, child) in plan.children.iter().map(|(&i, c)| (i, c)).chain(called) {
        let inner = estimate_plan(child, registry);
        if plan.steps[i].for_each.is_some() {
            add(&mut out.per_item, inner.fixed);
        } else {
            add(&mut out.fixed, inner.fixed);
        }
        add(&mut out.per_item, inner.per_item);
    }
    out
}

/// A `loop` step's inner tool and its inputs, when it has them (`inputs.step.tool`,
/// `inputs.step.inputs`).
fn inner_step<'a>(
    tool: &str,
    inputs: &'a Map<String, Value>,
) -> Option<(&'a str, Option<&'a Map<String, Value>>)> {
    if tool != LOOP {
        return None;
    }
    let inner = inputs.get("step")?.as_object()?;
    let tool = inner.get("tool")?.as_str()?;
    Some((tool, inner.get("inputs").and_then(Value::as_object)))
}

fn add(total: &mut ApiCalls, calls: ApiCalls) {
    total.embed += calls.embed;
    total.rerank += calls.rerank;
    total.vector_search += calls.vector_search;
    total.llm += calls.llm;
    total.http += calls.http;
}

/// `calls` less the `skipped` ones.
fn without(calls: ApiCalls, skipped: ApiCalls) -> ApiCalls {
    ApiCalls {
        embed: calls.embed.saturating_sub(skipped.embed),
        rerank: calls.rerank.saturating_sub(skipped.rerank),
        vector_search: calls.vector_search.saturating_sub(skipped.vector_search),
        llm: calls.llm.saturating_sub(skipped.llm),
        http: calls.http.saturating_sub(skipped.http),
    }
}

#[cfg(test)]
mod tests;
