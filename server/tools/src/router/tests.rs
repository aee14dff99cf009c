use super::*;
use crate::retrieval::testing::{Fakes, run};
use vai_providers::Settings;
use vai_providers::fakes::FakeEmbedder;

fn routes() -> Value {
    json!([
        {"id": "billing", "description": "invoice charge refund payment card", "steps": ["refund"]},
        {"id": "technical", "description": "error crash bug install timeout", "steps": ["debug"]}
    ])
}

/// Providers with only an embedder (no LLM): the similarity method, on wide fake vectors so
/// texts without a shared word score near 0.
fn embedder_only() -> (Arc<FakeEmbedder>, Arc<Providers>) {
    let embedder = Arc::new(FakeEmbedder::new(1024));
    let providers = Providers::none(Settings::default()).with_embedder(embedder.clone());
    (embedder, Arc::new(providers))
}

#[tokio::test]
async fn a_configured_llm_chooses_among_the_route_ids_as_structured_output() {
    let fakes = Fakes::new();
    let tool = Router::new(fakes.providers());
    fakes
        .llm
        .answer_next(r#"{"route": "technical", "reason": "the app crashes"}"#);
    let out = run(
        &tool,
        json!({"input": "The app crashes at start", "routes": routes()}),
        json!({}),
    )
    .await
    .unwrap();
    assert_eq!(out.output["route"], "technical");
    assert_eq!(out.output["reason"], "the app crashes");
    assert_eq!(out.output["method"], "llm");
    assert!(out.output.get("scores").is_none());
    let usage = out.usage.unwrap();
    assert_eq!(usage.requests, 1);
    assert!(usage.llm_input_tokens > 0 && usage.llm_output_tokens > 0);
    assert_eq!(
        out.output["usage"]["llmOutputTokens"],
        json!(usage.llm_output_tokens)
    );

    let request = &fakes.llm.requests()[0];
    assert_eq!(
        request.response_format.as_ref().unwrap()["properties"]["route"],
        json!({"enum": ["billing", "technical"]})
    );
    let asked = &request.messages[0].content;
    assert!(
        asked.contains("- billing: invoice charge refund payment card"),
        "{asked}"
    );
    assert!(
        asked.ends_with("Input:\nThe app crashes at start"),
        "{asked}"
    );
}

#[tokio::test]
async fn an_answer_naming_no_route_takes_the_fallback_or_fails_the_step() {
    let fakes = Fakes::new();
    let tool = Router::new(fakes.providers());
    fakes
        .llm
        .answer_next(r#"{"route": "sales", "reason": "?"}"#);
    let out = run(
        &tool,
        json!({"input": "hello", "routes": routes(), "fallback": "billing"}),
        json!({}),
    )
    .await
    .unwrap();
    assert_eq!(out.output["route"], "billing");
    let reason = out.output["reason"].as_str().unwrap();
    assert!(
        reason.starts_with("the model's answer named no route"),
        "{reason}"
    );

    fakes.llm.answer_next("I think billing");
    let error = run(
        &tool,
        json!({"input": "hello", "routes": routes()}),
        json!({}),
    )
    .await
    .unwrap_err()
    .to_string();
    assert!(
        error.contains("the model's answer named no route") && error.contains("fallback"),
        "{error}"
    );
}

#[tokio::test]
async fn without_an_llm_the_closest_description_wins_with_its_scores() {
    let (embedder, providers) = embedder_only();
    let tool = Router::new(providers);
    let out = run(
        &tool,
        json!({"input": "a refund for a double charge on my card", "routes": routes()}),
        json!({}),
    )
    .await
    .unwrap();
    assert_eq!(out.output["method"], "similarity");
    assert_eq!(out.output["route"], "billing");
    let scores = out.output["scores"].as_object().unwrap();
    assert!(
        scores["billing"].as_f64().unwrap() > scores["technical"].as_f64().unwrap(),
        "{scores:?}"
    );
    let reason = out.output["reason"].as_str().unwrap();
    assert!(reason.contains("next \"technical\""), "{reason}");
    // One call embeds the input and every description.
    assert_eq!(embedder.requests().len(), 1);
    assert_eq!(embedder.requests()[0].texts.len(), 3);
    assert_eq!(out.usage.unwrap().requests, 1);
}

#[tokio::test]
async fn nothing_similar_enough_takes_the_fallback_and_says_so() {
    let (_, providers) = embedder_only();
    let tool = Router::new(providers);
    let out = run(
        &tool,
        json!({"input": "what is the weather like", "routes": routes(), "fallback": "technical"}),
        json!({}),
    )
    .await
    .unwrap();
    assert_eq!(out.output["route"], "technical");
    let reason = out.output["reason"].as_str().unwrap();
    assert!(reason.contains("the fallback"), "{reason}");
}

#[tokio::test]
async fn method_forces_similarity_even_with_an_llm() {
    let fakes = Fakes::new();
    let tool = Router::new(fakes.providers());
    let out = run(
        &tool,
        json!({"input": "install error", "routes": routes(), "method": "similarity"}),
        json!({}),
    )
    .await
    .unwrap();
    assert_eq!(out.output["method"], "similarity");
    assert_eq!(out.output["route"], "technical");
    assert!(fakes.llm.requests().is_empty());
}

#[tokio::test]
async fn a_route_without_description_is_refused_naming_it() {
    let (_, providers) = embedder_only();
    let tool = Router::new(providers);
    let error = run(
        &tool,
        json!({"input": "x", "routes": [{"id": "a", "steps": []}]}),
        json!({}),
    )
    .await
    .unwrap_err()
    .to_string();
    assert!(error.contains("routes[0].description"), "{error}");
}
