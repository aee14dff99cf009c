//! A whole run on the scripted fakes prices every model call and sums the cost exactly: per
//! step, per `forEach` item and for the run, from the fakes' own token counts (one token a
//! word) at the price table's rates; a model with no price is listed, never counted as free.

use crate::retrieval::testing::Fakes;
use serde_json::json;
use std::collections::HashMap;
use std::sync::Arc;
use vai_workflow::{Mode, RunEvent, RunOptions, RunStatus, Usage};

/// Dollars per token of a rate given per million tokens.
fn per_token(per_million: f64) -> f64 {
    per_million / 1_000_000.0
}

fn close(actual: Option<f64>, expected: f64) {
    let actual = actual.expect("a priced cost");
    assert!((actual - expected).abs() < 1e-15, "{actual} ≠ {expected}");
}

#[tokio::test]
async fn a_run_sums_the_cost_of_every_model_call_exactly() {
    let fakes = Fakes::new();
    fakes
        .seed(
            "kb",
            "docs",
            json!([{"text": "vai is a tool"}, {"text": "workflows are json"}]),
        )
        .await;
    let registry = Arc::new(crate::registry(fakes.providers(), Default::default()));
    let workflow = json!({"name": "Priced", "inputs": {"items": {"type": "array", "default": ["one two", "three"]}},
    "steps": [
        {"id": "find", "tool": "query",
         "inputs": {"query": "what is vai", "db": "kb", "collection": "docs", "limit": 2}},
        {"id": "answer", "tool": "generate", "inputs": {"prompt": "Say hi", "model": "gpt-4o-mini"}},
        {"id": "each", "tool": "generate", "forEach": "{{ inputs.items }}",
         "inputs": {"prompt": "{{ item }}", "model": "claude-sonnet-4-5-20250929"}},
        {"id": "house", "tool": "generate", "inputs": {"prompt": "Hello", "model": "house-llm"}}
    ]});
    let plan = vai_workflow::compile(&workflow, &registry, Mode::Strict)
        .plan
        .expect("a valid workflow");
    let (events, mut received) = tokio::sync::mpsc::unbounded_channel();
    let result = vai_workflow::run(plan, registry, RunOptions::default(), Arc::new(events))
        .await
        .unwrap();
    assert_eq!(result.status, RunStatus::Completed, "{:?}", result.error);
    let mut steps = HashMap::new();
    while let Ok(event) = received.try_recv() {
        if let RunEvent::StepCompleted {
            step_id,
            usage,
            entry,
            ..
        } = event
        {
            steps.insert(step_id, (usage.expect("usage"), entry));
        }
    }
    let step = |id: &str| -> Usage { steps[id].0.clone() };

    // query: the question embedded (3 words) at voyage-4-large's $0.12, then both hits
    // reranked ((3 + 4) + (3 + 3) tokens) at rerank-2.5's $0.05.
    let find = step("find");
    assert_eq!((find.embed_tokens, find.rerank_tokens), (3, 13));
    let find_usd = 3.0 * per_token(0.12) + 13.0 * per_token(0.05);
    close(find.cost.as_ref().unwrap().usd, find_usd);
    // generate: "Say hi" in (2), "fake answer to: Say hi" out (5) at gpt-4o-mini's $0.15/$0.60.
    let answer = step("answer");
    assert_eq!((answer.llm_input_tokens, answer.llm_output_tokens), (2, 5));
    let answer_usd = 2.0 * per_token(0.15) + 5.0 * per_token(0.60);
    let answer_cost = answer.cost.unwrap();
    close(answer_cost.usd, answer_usd);
    assert_eq!(
        (answer_cost.input_per_mtok, answer_cost.output_per_mtok),
        (Some(0.15), Some(0.60))
    );
    // forEach: two calls of a dated Sonnet 4.5 snapshot ($3/$15): 2 in + 5 out, 1 in + 4 out.
    let each = step("each");
    assert_eq!((each.llm_input_tokens, each.llm_output_tokens), (3, 9));
    let each_usd = 3.0 * per_token(3.0) + 9.0 * per_token(15.0);
    close(each.cost.as_ref().unwrap().usd, each_usd);
    // A model with no price: null, with the model named, never 0.
    let house = step("house").cost.unwrap();
    assert_eq!(
        (house.usd, house.unpriced.clone()),
        (None, vec!["house-llm".to_string()])
    );
    // The model step's own output carries its usage and cost.
    let entry = &steps["answer"].1;
    assert_eq!(entry["output"]["cost"]["outputPerMTok"], json!(0.6));
    assert_eq!(entry["output"]["usage"]["llmOutputTokens"], json!(5));

    let total = result.usage.cost.expect("the run's cost");
    close(total.usd, find_usd + answer_usd + each_usd);
    assert_eq!(total.unpriced, ["house-llm"]);
    assert!(total.reason.unwrap().contains("house-llm"));
    assert_eq!(total.input_per_mtok, None, "several rates");
    assert_eq!(result.usage.requests, 1 + 1 + 1 + 1 + 2 + 1);
}
