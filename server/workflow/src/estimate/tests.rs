use super::*;
use crate::test_support::{FnTool, registry_with};
use crate::tool::{CallPricer, Cost};
use serde_json::{Map, Value, json};
use std::sync::Arc;

fn calls(embed: u32, rerank: u32, vector_search: u32, llm: u32, http: u32) -> ApiCalls {
    ApiCalls {
        embed,
        rerank,
        vector_search,
        llm,
        http,
    }
}

/// Reranking a `query` step makes is switched off by its `rerank` input, as the tool declares.
const RERANK_OPTIONAL: &[(&str, ApiCalls)] = &[(
    "rerank",
    ApiCalls {
        rerank: 1,
        ..ApiCalls::NONE
    },
)];

/// The engine's test tools plus `query` (embed, rerank, vector search; the rerank optional) and
/// `generate` (LLM).
fn registry() -> Registry {
    registry_with(|r| {
        for (name, c, optional) in [
            ("query", calls(1, 1, 1, 0, 0), RERANK_OPTIONAL),
            ("generate", calls(0, 0, 0, 1, 0), &[]),
        ] {
            let mut tool = FnTool::new(name, &[], |_| Ok(json!({})));
            tool.spec_mut().api_calls = c;
            tool.spec_mut().optional_calls = optional;
            r.register(Arc::new(tool));
        }
    })
}

fn workflow(steps: Value) -> Workflow {
    serde_json::from_value(json!({"name": "w", "steps": steps})).unwrap()
}

#[test]
fn counts_each_step_once_and_repeated_steps_per_item() {
    let w = workflow(json!([
        {"id": "a", "tool": "query", "inputs": {"query": "q"}},
        {"id": "b", "tool": "query", "inputs": {"query": "q", "rerank": false}},
        {"id": "each", "tool": "generate", "forEach": "{{ a.output.results }}", "inputs": {"prompt": "{{ item }}"}},
        {"id": "lp", "tool": "loop", "inputs": {"items": "{{ a.output.results }}", "as": "hit",
            "step": {"tool": "query", "inputs": {"query": "{{ hit }}", "rerank": false}}}},
        {"id": "answer", "tool": "generate", "inputs": {"prompt": "p"}},
        {"id": "unknown", "tool": "no_such_tool", "inputs": {}}
    ]));
    assert_eq!(
        estimate(&w, &registry()),
        Estimate {
            // a (with rerank), b (rerank off), answer.
            fixed: calls(2, 1, 2, 1, 0),
            // each's generate; the loop's inner query without rerank.
            per_item: calls(1, 0, 1, 1, 0),
            cost: None,
        }
    );
}

/// A dollar a model call, ten for a step that names `model: "dear"`.
struct DollarACall;

impl CallPricer for DollarACall {
    fn price(
        &self,
        _tool: &str,
        inputs: &Map<String, Value>,
        _defaults: &Map<String, Value>,
        calls: ApiCalls,
    ) -> Option<Cost> {
        let n = calls.embed + calls.rerank + calls.llm;
        let each = if inputs.get("model") == Some(&json!("dear")) {
            10.0
        } else {
            1.0
        };
        (n > 0).then(|| Cost {
            usd: Some(f64::from(n) * each),
            priced_at: "test".into(),
            ..Cost::default()
        })
    }

    fn assumptions(&self) -> String {
        "a dollar a call".into()
    }
}

#[test]
fn a_registry_with_a_pricer_prices_each_step_once_and_repeated_steps_per_item() {
    let mut r = registry();
    r.set_pricer(Arc::new(DollarACall));
    let w = workflow(json!([
        {"id": "a", "tool": "query", "inputs": {"query": "q"}},
        {"id": "b", "tool": "query", "inputs": {"query": "q", "rerank": false}},
        {"id": "each", "tool": "generate", "forEach": "{{ a.output.results }}", "inputs": {"prompt": "{{ item }}", "model": "dear"}},
        {"id": "lp", "tool": "loop", "inputs": {"items": "{{ a.output.results }}", "as": "hit",
            "step": {"tool": "query", "inputs": {"query": "{{ hit }}", "rerank": false}}}},
        {"id": "merge", "tool": "echo", "inputs": {}}
    ]));
    let cost = estimate(&w, &r).cost.expect("priced");
    assert_eq!(cost.assumptions, "a dollar a call");
    // a: embed + rerank; b: embed.
    assert_eq!(cost.fixed.unwrap().usd, Some(3.0));
    // each: one dear LLM call; the loop's query: one embed.
    assert_eq!(cost.per_item.unwrap().usd, Some(11.0));
    assert_eq!(
        estimate(
            &workflow(json!([{"id": "m", "tool": "echo", "inputs": {}}])),
            &r
        )
        .cost,
        Some(EstimateCost {
            assumptions: "a dollar a call".into(),
            ..EstimateCost::default()
        }),
        "nothing to price"
    );
}

#[test]
fn a_draft_with_errors_is_estimated_as_written() {
    // A loop without an inner step and a step missing its inputs still count what they can.
    let w = workflow(json!([
        {"id": "lp", "tool": "loop", "inputs": {}},
        {"id": "a", "tool": "query"}
    ]));
    assert_eq!(estimate(&w, &registry()).fixed, calls(1, 1, 1, 0, 0));
    assert_eq!(estimate(&w, &registry()).per_item, ApiCalls::default());
}

#[test]
fn a_sub_workflow_counts_its_childs_calls() {
    use crate::compile::{Children, Mode, compile_with};
    struct One(Value);
    impl Children for One {
        fn load(&self, name: &str) -> Result<(String, Value), String> {
            Ok((format!("{name}.json"), self.0.clone()))
        }
    }
    let mut registry = crate::test_support::registry();
    let mut embed = FnTool::new("embedder", &[], |_| Ok(json!({})));
    embed.spec_mut().api_calls.embed = 1;
    registry.register(Arc::new(embed));
    let child = json!({"name": "c", "steps": [{"id": "e", "tool": "embedder", "inputs": {}}]});
    let parent = json!({"name": "p", "inputs": {"xs": {"type": "array"}}, "steps": [
        {"id": "once", "tool": "workflow", "inputs": {"workflow": "c"}},
        {"id": "each", "tool": "workflow", "forEach": "{{ inputs.xs }}", "inputs": {"workflow": "c"}}
    ]});
    let plan = compile_with(&parent, &registry, Mode::Strict, &One(child), "p.json")
        .plan
        .unwrap();
    let e = estimate_plan(&plan, &registry);
    assert_eq!((e.fixed.embed, e.per_item.embed), (1, 1));
    registry.set_pricer(Arc::new(DollarACall));
    let cost = estimate_plan(&plan, &registry).cost.unwrap();
    assert_eq!(
        (cost.fixed.unwrap().usd, cost.per_item.unwrap().usd),
        (Some(1.0), Some(1.0)),
        "the child's call, once and per item"
    );
}
