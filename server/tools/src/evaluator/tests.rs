use super::*;
use crate::retrieval::testing::{Fakes, run};
use vai_providers::Settings;
use vai_providers::fakes::FakeLlm;

fn metrics() -> Value {
    json!([
        {"name": "accuracy", "description": "Facts match the reference", "range": {"min": 1, "max": 5}},
        {"name": "tone", "range": {"min": 0, "max": 1}}
    ])
}

#[tokio::test]
async fn scores_come_back_in_their_ranges_asked_for_as_structured_output() {
    let fakes = Fakes::new();
    let tool = Evaluator::new(fakes.providers());
    fakes
        .llm
        .answer_next(r#"{"reasoning": "Matches [1].", "scores": {"accuracy": 4, "tone": 0.5}}"#);
    let out = run(
        &tool,
        json!({
            "content": "Keys are rolled from the dashboard.",
            "metrics": metrics(),
            "context": [{"text": "Roll a key in the dashboard.", "source": "keys.md"}]
        }),
        json!({}),
    )
    .await
    .unwrap();
    assert_eq!(out.output["scores"], json!({"accuracy": 4, "tone": 0.5}));
    assert_eq!(out.output["reasoning"], "Matches [1].");
    assert_eq!(out.output["provider"], "fake");
    assert!(out.output.get("judge").is_none(), "a configured LLM judges");

    let request = &fakes.llm.requests()[0];
    assert_eq!(
        request.response_format.as_ref().unwrap()["properties"]["scores"]["properties"],
        json!({
            "accuracy": {"type": "integer", "minimum": 1.0, "maximum": 5.0},
            "tone": {"type": "number", "minimum": 0.0, "maximum": 1.0}
        })
    );
    let asked = &request.messages[0].content;
    assert!(
        asked.contains("- accuracy (1 to 5): Facts match the reference"),
        "{asked}"
    );
    assert!(
        asked.contains("[1] (source: keys.md) Roll a key in the dashboard."),
        "{asked}"
    );
    assert!(
        asked.ends_with("Content:\nKeys are rolled from the dashboard."),
        "{asked}"
    );
}

#[tokio::test]
async fn a_missing_or_out_of_range_score_fails_naming_its_metric() {
    let fakes = Fakes::new();
    let tool = Evaluator::new(fakes.providers());
    let inputs = json!({"content": "x", "metrics": metrics()});
    for (answer, want) in [
        (
            r#"{"reasoning": "", "scores": {"accuracy": 9, "tone": 0}}"#,
            "evaluator: the score of \"accuracy\" is 9, outside 1..5",
        ),
        (
            r#"{"reasoning": "", "scores": {"accuracy": 3}}"#,
            "evaluator: the score of \"tone\" is missing",
        ),
        (
            r#"{"scores": {"accuracy": "high", "tone": 1}}"#,
            "evaluator: the score of \"accuracy\" is \"high\", not a number",
        ),
    ] {
        fakes.llm.answer_next(answer);
        let err = run(&tool, inputs.clone(), json!({})).await.unwrap_err();
        assert_eq!(err.to_string(), want);
    }
    fakes.llm.answer_next("Four out of five.");
    let err = run(&tool, inputs, json!({})).await.unwrap_err();
    assert!(err.to_string().contains("the answer is not JSON"), "{err}");
}

#[tokio::test]
async fn bad_metrics_are_refused_naming_the_field_before_any_model_is_asked() {
    let fakes = Fakes::new();
    let tool = Evaluator::new(fakes.providers());
    for (metrics, want) in [
        (json!([]), "\"metrics\" lists no metric"),
        (
            json!([{"name": "a"}, {"name": "a"}]),
            "\"metrics[1].name\" \"a\" is listed twice",
        ),
        (
            json!([{"name": "a", "range": {"min": 5, "max": 1}}]),
            "\"metrics[0].range\" min 5 is more than max 1",
        ),
        (
            json!([{"description": "no name"}]),
            "\"metrics[0].name\" must be a name",
        ),
        (json!(["accuracy"]), "\"metrics[0]\" must be an object"),
        (
            json!([{"name": "a", "range": {"max": "high"}}]),
            "\"metrics[0].range.max\" must be a number",
        ),
    ] {
        let err = run(
            &tool,
            json!({"content": "x", "metrics": metrics}),
            json!({}),
        )
        .await
        .unwrap_err();
        assert!(err.to_string().contains(want), "{err} should say {want}");
    }
    assert!(fakes.llm.requests().is_empty());
}

#[tokio::test]
async fn the_small_local_model_is_marked_as_no_judge() {
    let llm = Arc::new(FakeLlm::new().named(LocalLlm::NAME));
    let providers = Arc::new(Providers::none(Settings::default()).with_llm(llm.clone()));
    let tool = Evaluator::new(providers);
    llm.answer_next(r#"{"reasoning": "ok", "scores": {"accuracy": 2}}"#);
    let out = run(
        &tool,
        json!({"content": "x", "metrics": [{"name": "accuracy"}]}),
        json!({}),
    )
    .await
    .unwrap();
    assert_eq!(out.output["scores"]["accuracy"], 2);
    assert_eq!(out.output["judge"], "local-small");
    assert!(
        out.output["notice"]
            .as_str()
            .unwrap()
            .contains("not a judgement to rely on")
    );
}
