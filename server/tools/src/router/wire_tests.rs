//! A router on each LLM wire format (OpenAI, Ollama's OpenAI-compatible endpoint, Anthropic),
//! served by a loopback server with scripted answers, run by the engine: the model is asked for
//! a route id in that format's structured-output form, the route it names runs, the other is
//! skipped with the choice as the reason, and the usage is the server's.

use serde_json::{Value, json};
use std::sync::Arc;
use std::time::Duration;
use vai_providers::fakes::FakeEmbedder;
use vai_providers::llm::{LlmConfig, llm_from_config};
use vai_providers::testing::fake_http::{FakeServer, Reply};
use vai_providers::{Providers, Settings};
use vai_workflow::events::NoEvents;
use vai_workflow::{Mode, RunOptions, RunResult, StepOutcome, compile, run};

fn support() -> Value {
    json!({"name": "support", "inputs": {"q": {"type": "string", "required": true}}, "steps": [
        {"id": "triage", "tool": "router", "inputs": {"input": "{{ inputs.q }}", "routes": [
            {"id": "billing", "description": "payments and invoices", "steps": ["refund"]},
            {"id": "technical", "description": "outages and bugs", "steps": ["debug"]}
        ]}},
        {"id": "refund", "tool": "template", "inputs": {"text": "refund"}},
        {"id": "debug", "tool": "template", "inputs": {"text": "debug"}}
    ]})
}

/// Run `support` with the LLM of `provider` at the fake server.
async fn route_with(provider: &str, server: &FakeServer) -> RunResult {
    let mut config = LlmConfig::new(provider);
    config.api_key = Some("sk-test".into());
    config.base_url = Some(server.base.clone());
    config.timeout = Duration::from_secs(5);
    let llm = llm_from_config(&config).unwrap();
    let providers = Providers::none(Settings::default())
        .with_embedder(Arc::new(FakeEmbedder::new(64)))
        .with_llm(llm);
    let registry = crate::registry(Arc::new(providers), Default::default());
    let compiled = compile(&support(), &registry, Mode::Strict);
    let plan = compiled
        .plan
        .unwrap_or_else(|| panic!("{:#?}", compiled.diagnostics));
    let options = RunOptions {
        inputs: json!({"q": "The app crashes"})
            .as_object()
            .cloned()
            .unwrap(),
        ..RunOptions::default()
    };
    run(plan, Arc::new(registry), options, Arc::new(NoEvents))
        .await
        .unwrap()
}

fn openai_answer(model: &str, text: &str, usage: (u64, u64)) -> Reply {
    let chunk = |delta: Value, finish: Option<&str>| {
        json!({"id": "c", "object": "chat.completion.chunk", "created": 1, "model": model,
               "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})
    };
    let chunks = [
        chunk(json!({"role": "assistant", "content": text}), None),
        chunk(json!({}), Some("stop")),
        json!({"id": "c", "object": "chat.completion.chunk", "model": model, "choices": [],
               "usage": {"prompt_tokens": usage.0, "completion_tokens": usage.1}}),
    ];
    let mut events: Vec<String> = chunks.iter().map(|c| format!("data: {c}\n\n")).collect();
    events.push("data: [DONE]\n\n".into());
    Reply::sse(&events, Duration::ZERO)
}

fn assert_routed(result: &RunResult, chosen: &str, skipped: &str) {
    let step = |id: &str| result.steps.iter().find(|s| s.id == id).unwrap();
    assert_eq!(step("triage").status, StepOutcome::Completed, "{result:?}");
    let out = step("triage").output.as_ref().unwrap();
    assert_eq!(out["method"], "llm");
    assert_eq!(out["reason"], "it crashes");
    let ran = if chosen == "technical" {
        "debug"
    } else {
        "refund"
    };
    assert_eq!(step(ran).status, StepOutcome::Completed);
    assert_eq!(step(skipped).status, StepOutcome::Skipped);
    assert_eq!(
        step(skipped).reason.as_deref(),
        Some(format!("router \"triage\" chose \"{chosen}\"").as_str())
    );
}

#[tokio::test]
async fn openai_and_ollama_choose_by_a_strict_json_schema_of_the_route_ids() {
    for provider in ["openai", "ollama"] {
        let answer = r#"{"route": "technical", "reason": "it crashes"}"#;
        let server =
            FakeServer::start(move |_, _| openai_answer("gpt-4o", answer, (120, 14))).await;
        let result = route_with(provider, &server).await;
        assert_routed(&result, "technical", "refund");
        assert_eq!(
            (
                result.usage.llm_input_tokens,
                result.usage.llm_output_tokens
            ),
            (120, 14)
        );
        // gpt-4o at the table's $2.50 / $10 per million tokens; a model Ollama serves is local.
        let cost = result.usage.cost.clone().unwrap();
        let want = match provider {
            "openai" => (120.0 * 2.5 + 14.0 * 10.0) / 1e6,
            _ => 0.0,
        };
        assert!(
            (cost.usd.unwrap() - want).abs() < 1e-12,
            "{provider}: {cost:?}"
        );
        let out = result.steps[0].output.as_ref().unwrap();
        assert_eq!(out["cost"], serde_json::to_value(&cost).unwrap());

        let body = server.requests()[0].json();
        let format = &body["response_format"];
        assert_eq!(format["type"], "json_schema", "{provider}: {body}");
        assert_eq!(
            format["json_schema"]["schema"]["properties"]["route"]["enum"],
            json!(["billing", "technical"]),
            "{provider}"
        );
    }
}

#[tokio::test]
async fn anthropic_chooses_through_the_answer_tool_it_must_call() {
    let server = FakeServer::start(|_, _| {
        let events = [
            json!({"type": "message_start", "message": {"model": "claude-sonnet-4-5", "usage": {"input_tokens": 200, "output_tokens": 1}}}),
            json!({"type": "content_block_start", "index": 0, "content_block": {"type": "tool_use", "id": "toolu_1", "name": "answer", "input": {}}}),
            json!({"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": "{\"route\": \"billing\", \"reason\": \"it crashes\"}"}}),
            json!({"type": "content_block_stop", "index": 0}),
            json!({"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {"output_tokens": 18}}),
            json!({"type": "message_stop"}),
        ];
        let text: Vec<String> = events
            .iter()
            .map(|e| format!("event: {}\ndata: {e}\n\n", e["type"].as_str().unwrap()))
            .collect();
        Reply::sse(&text, Duration::ZERO)
    })
    .await;
    let result = route_with("anthropic", &server).await;
    assert_routed(&result, "billing", "debug");
    assert_eq!(
        (
            result.usage.llm_input_tokens,
            result.usage.llm_output_tokens
        ),
        (200, 18)
    );
    // claude-sonnet-4-5 at the table's $3 / $15 per million tokens.
    let usd = result.usage.cost.as_ref().and_then(|c| c.usd).unwrap();
    assert!(
        (usd - (200.0 * 3.0 + 18.0 * 15.0) / 1e6).abs() < 1e-12,
        "{usd}"
    );
    let body = server.requests()[0].json();
    assert_eq!(body["tool_choice"]["name"], "answer", "{body}");
    assert_eq!(
        body["tools"][0]["input_schema"]["properties"]["route"]["enum"],
        json!(["billing", "technical"])
    );
}
