//! The provider calls a workflow is expected to make: what `vai workflow run --dry-run` prints
//! and the playground's Plan dialog shows — one count, made here, for both.
//!
//! It reads the workflow as written, so it answers for a draft with errors too. Every step is
//! counted once, branches of a `conditional` included (an upper bound: a run takes one of them).
//! A step with `forEach`, and a `loop`'s inner step, repeat per item, a number known only at
//! run time: their calls are counted per item. A call a tool declares optional (a `query`
//! step's rerank) is left out when the input that switches it is the literal `false`. When the
//! registry has a [`CallPricer`], the calls are priced too: an approximate cost, never a bill.

use crate::compile::Callee;
use crate::control::LOOP;
use crate::model::Workflow;
use crate::tool::{ApiCalls, Cost, Registry};
use serde::Serialize;
use serde_json::{Map, Value};

/// Expected provider calls: once per run, and once per item of each `forEach` or `loop`.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Estimate {
    pub fixed: ApiCalls,
    pub per_item: ApiCalls,
    /// About what those calls would cost; absent when the registry prices nothing.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub cost: Option<EstimateCost>,
}

/// The approximate cost (`≈`) of an [`Estimate`]'s calls, at the price table's rates and
/// assumed token counts per call.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct EstimateCost {
    /// The calls made once per run; absent when none calls a model.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub fixed: Option<Cost>,
    /// The calls made per item of each `forEach` or `loop`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub per_item: Option<Cost>,
    /// What the figures assume, in a sentence.
    pub assumptions: String,
}

impl EstimateCost {
    fn add(&mut self, per_item: bool, cost: Option<&Cost>) {
        let Some(cost) = cost else { return };
        let slot = if per_item {
            &mut self.per_item
        } else {
            &mut self.fixed
        };
        match slot {
            Some(total) => total.add(cost),
            none => *none = Some(cost.clone()),
        }
    }
}

/// The estimate of `workflow`; steps of unknown tools count nothing.
pub fn estimate(workflow: &Workflow, registry: &Registry) -> Estimate {
    let mut out = Estimate {
        cost: registry.pricer().map(|p| EstimateCost {
            assumptions: p.assumptions(),
            ..EstimateCost::default()
        }),
        ..Estimate::default()
    };
    let none = Map::new();
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
        let per_item = looped || step.for_each.is_some();
        if let (Some(pricer), Some(cost)) = (registry.pricer(), &mut out.cost) {
            let priced = pricer.price(tool, inputs.unwrap_or(&none), &workflow.defaults, calls);
            cost.add(per_item, priced.as_ref());
        }
        add(
            if per_item {
                &mut out.per_item
            } else {
                &mut out.fixed
            },
            calls,
        );
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
        let each = plan.steps[i].for_each.is_some();
        add(
            if each {
                &mut out.per_item
            } else {
                &mut out.fixed
            },
            inner.fixed,
        );
        add(&mut out.per_item, inner.per_item);
        if let (Some(cost), Some(inner)) = (&mut out.cost, &inner.cost) {
            cost.add(each, inner.fixed.as_ref());
            cost.add(true, inner.per_item.as_ref());
        }
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
