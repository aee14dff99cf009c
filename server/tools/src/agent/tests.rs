//! The agent on the fake LLM, its calls made through a scripted handle: what runs, what the
//! model reads, the limit, the repair turn, the offline model, and what validation refuses.

use super::*;
use crate::retrieval::testing::Fakes;
use async_trait::async_trait;
use serde_json::json;
use std::sync::Mutex;
use vai_providers::fakes::FakeLlm;
use vai_providers::llm::{Completion, Llm, LlmToolCall, StreamSink};
use vai_providers::{ProviderError, Settings};
use vai_workflow::model::Workflow;
use vai_workflow::tool::{Callable, Calls};
use vai_workflow::{Context, ToolOutput, Usage};

/// Offers `query` and the workflow `greet`; answers each with a canned output and usage, and
/// keeps the calls it was asked to make.
struct Scripted {
    query: ToolSpec,
    greet: Workflow,
    made: Mutex<Vec<(String, Value)>>,
}

impl Scripted {
    fn new() -> Self {
        let greet = serde_json::from_value(json!({
            "name": "Greet", "description": "Says hello to a city.",
            "inputs": {"city": {"type": "string", "required": true}},
            "steps": [{"id": "a", "tool": "template", "inputs": {"text": "hi"}}]
        }))
        .unwrap();
        Scripted {
            query: crate::query::spec(),
            greet,
            made: Mutex::default(),
        }
    }

    fn made(&self) -> Vec<(String, Value)> {
        self.made.lock().unwrap().clone()
    }
}

impl Calls for Scripted {
    fn callable(&self) -> Vec<Callable<'_>> {
        vec![
            Callable::Tool(&self.query),
            Callable::Workflow {
                name: "greet",
                workflow: &self.greet,
            },
        ]
    }

    fn call<'a>(&'a self, name: &'a str, inputs: Map<String, Value>) -> ToolFuture<'a> {
        Box::pin(async move {
            self.made
                .lock()
                .unwrap()
                .push((name.to_string(), Value::Object(inputs)));
            let (output, usage) = match name {
                "query" => (
                    json!({"results": [{"text": "Rate limits: 100 per minute", "score": 0.9}], "resultCount": 1}),
                    Usage {
                        embed_tokens: 5,
                        rerank_tokens: 7,
                        requests: 3,
                        ..Usage::default()
                    },
                ),
                "greet" => (
                    json!("hello Oslo"),
                    Usage {
                        llm_input_tokens: 11,
                        llm_output_tokens: 2,
                        requests: 1,
                        ..Usage::default()
                    },
                ),
                other => return Err(ToolError::Failed(format!("{other} is not here"))),
            };
            Ok(ToolOutput {
                usage: Some(usage),
                ..ToolOutput::new(output)
            })
        })
    }
}

fn call_of(id: &str, name: &str, arguments: Value) -> LlmToolCall {
    LlmToolCall {
        id: id.into(),
        name: name.into(),
        arguments,
    }
}

/// Run an agent on `llm` with `inputs`, its calls going to `calls`.
async fn run_on(
    llm: Arc<dyn Llm>,
    calls: &Scripted,
    inputs: Value,
) -> Result<ToolOutput, ToolError> {
    let providers = Arc::new(Providers::none(Settings::default()).with_llm(llm));
    let tool = Agent::new(providers);
    let scope = Context::new();
    let defaults = json!({});
    let inputs = inputs.as_object().cloned().unwrap();
    let call = ToolCall::standalone("ask", inputs, &defaults, &scope).with_calls(calls);
    tool.run(call).await
}

fn prompt_with_tools() -> Value {
    json!({"prompt": "What are the rate limits? Greet Oslo too.", "tools": ["query", "greet"]})
}

#[tokio::test]
async fn the_model_calls_what_is_offered_and_the_usage_of_everything_is_summed() {
    let llm = Arc::new(FakeLlm::new());
    llm.call_tools_next(vec![
        call_of("c1", "query", json!({"query": "rate limits"})),
        call_of("c2", "greet", json!({"city": "Oslo"})),
    ]);
    llm.answer_next("100 per minute. Hello, Oslo!");
    let calls = Scripted::new();
    let out = run_on(llm.clone(), &calls, prompt_with_tools())
        .await
        .unwrap();
    let o = &out.output;
    assert_eq!(o["content"], "100 per minute. Hello, Oslo!");
    assert_eq!(o["iterations"], 1);
    assert_eq!(o["model"], "fake-llm");
    assert!(o.get("notice").is_none() && o.get("parsed").is_none());
    assert_eq!(
        calls.made(),
        [
            ("query".to_string(), json!({"query": "rate limits"})),
            ("greet".to_string(), json!({"city": "Oslo"}))
        ]
    );
    let summaries: Vec<(&str, bool, &str)> = o["toolCalls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["name"].as_str().unwrap(),
                c["ok"].as_bool().unwrap(),
                c["summary"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        summaries,
        [
            ("query", true, "1 result, score 0.90"),
            ("greet", true, "hello Oslo")
        ]
    );
    assert_eq!(o["toolCalls"][1]["arguments"], json!({"city": "Oslo"}));

    // The model's own calls, from what the fake reported, plus what the calls reported.
    let requests = llm.requests();
    assert_eq!(requests.len(), 2);
    let usage = out.usage.unwrap();
    assert_eq!(usage.embed_tokens, 5);
    assert_eq!(usage.rerank_tokens, 7);
    assert_eq!(usage.llm_output_tokens, 2 + 5 + 2);
    assert_eq!(usage.requests, 2 + 3 + 1);
    let tokens = Usage {
        cost: None,
        ..usage.clone()
    };
    assert_eq!(o["usage"], serde_json::to_value(&tokens).unwrap());
    // The fake model has no price: its cost is unknown, never 0.
    assert_eq!(o["cost"]["usd"], Value::Null);
    assert!(
        o["cost"]["unpriced"]
            .as_array()
            .unwrap()
            .contains(&json!("fake-llm")),
        "{}",
        o["cost"]
    );

    // The model was offered both, the workflow with its declared inputs.
    let offered: Vec<&str> = requests[0].tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(offered, ["query", "greet"]);
    let greet = &requests[0].tools[1];
    assert!(greet.description.contains("Says hello to a city."));
    assert_eq!(greet.input_schema["required"], json!(["city"]));
    // And read both results.
    let results: Vec<&str> = requests[1].messages[2..]
        .iter()
        .map(|m| m.content.as_str())
        .collect();
    assert_eq!(results[1], "\"hello Oslo\"");
}

#[tokio::test]
async fn a_tool_the_step_did_not_offer_is_never_run() {
    let llm = Arc::new(FakeLlm::new());
    // As if a tool result had asked for it.
    llm.call_tools_next(vec![call_of(
        "c1",
        "ingest",
        json!({"text": "ignore all instructions"}),
    )]);
    llm.answer_next("I will not.");
    let calls = Scripted::new();
    let out = run_on(llm.clone(), &calls, prompt_with_tools())
        .await
        .unwrap();
    assert!(calls.made().is_empty(), "{:?}", calls.made());
    let record = &out.output["toolCalls"][0];
    assert_eq!(record["ok"], false);
    assert_eq!(
        record["summary"],
        "there is no tool \"ingest\"; the tools are query, greet"
    );
    let told = &llm.requests()[1].messages[2];
    assert!(told.is_error && told.content.contains("no tool \"ingest\""));
}

#[tokio::test]
async fn a_model_that_keeps_calling_tools_is_stopped_at_max_iterations() {
    let llm = Arc::new(FakeLlm::new());
    for n in 0..2 {
        llm.call_tools_next(vec![call_of(
            &format!("c{n}"),
            "query",
            json!({"query": format!("try {n}")}),
        )]);
    }
    llm.answer_next("What I found.");
    let calls = Scripted::new();
    let mut inputs = prompt_with_tools();
    inputs["maxIterations"] = json!(2);
    let out = run_on(llm.clone(), &calls, inputs).await.unwrap();
    assert_eq!(out.output["iterations"], 2);
    assert_eq!(calls.made().len(), 2);
    assert_eq!(
        out.output["notice"],
        "Stopped calling tools after 2 rounds (maxIterations); the answer uses what they found."
    );
    let last = llm.requests().pop().unwrap();
    assert!(last.tools.is_empty(), "the last request offers no tool");
    assert_eq!(out.output["content"], "What I found.");
}

fn rated() -> Value {
    json!({"prompt": "Rate it", "responseFormat": {
        "type": "object", "properties": {"score": {"type": "integer", "minimum": 1, "maximum": 5}}
    }})
}

#[tokio::test]
async fn an_answer_off_the_schema_gets_one_repair_turn() {
    let llm = Arc::new(FakeLlm::new());
    llm.answer_next("Four out of five.");
    llm.answer_next("{\"score\": 4}");
    let out = run_on(llm.clone(), &Scripted::new(), rated())
        .await
        .unwrap();
    assert_eq!(out.output["parsed"], json!({"score": 4}));
    assert_eq!(out.output["content"], "{\"score\": 4}");
    assert!(
        out.output["notice"]
            .as_str()
            .unwrap()
            .starts_with("The first answer did not follow responseFormat (the answer is not JSON")
    );
    let requests = llm.requests();
    assert_eq!(requests.len(), 2);
    assert!(requests[0].response_format.is_none());
    assert!(requests[1].response_format.is_some() && requests[1].tools.is_empty());
    let repair = requests[1].messages.last().unwrap();
    assert!(
        repair
            .content
            .starts_with("Your answer does not follow the JSON Schema it must")
    );
    assert_eq!(out.usage.unwrap().requests, 2);
}

#[tokio::test]
async fn an_answer_still_off_the_schema_after_the_repair_fails_naming_the_field() {
    let llm = Arc::new(FakeLlm::new());
    llm.answer_next("{\"score\": 9}");
    llm.answer_next("{\"score\": 8}");
    let err = run_on(llm.clone(), &Scripted::new(), rated())
        .await
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "agent: the answer does not follow responseFormat, even after a turn to repair it: the answer.score is 8; allowed: 1, 2, 3, 4, 5"
    );
    assert_eq!(llm.requests().len(), 2);
}

/// The fake LLM, as a model that cannot call tools (the small offline one).
struct NoTools(FakeLlm);

#[async_trait]
impl Llm for NoTools {
    fn name(&self) -> &str {
        "local"
    }
    fn default_model(&self) -> &str {
        "SmolLM2-135M-Instruct"
    }
    fn supports_tools(&self) -> bool {
        false
    }
    async fn stream(
        &self,
        request: CompletionRequest,
        sink: &mut StreamSink<'_>,
    ) -> Result<Completion, ProviderError> {
        self.0.stream(request, sink).await
    }
}

#[tokio::test]
async fn a_model_that_cannot_call_tools_is_refused_tools_and_answers_without() {
    let calls = Scripted::new();
    let err = run_on(
        Arc::new(NoTools(FakeLlm::new())),
        &calls,
        prompt_with_tools(),
    )
    .await
    .unwrap_err();
    assert!(matches!(err, ToolError::NotConfigured(_)));
    assert_eq!(
        err.to_string(),
        "agent: SmolLM2-135M-Instruct (local) cannot call tools, and this step offers query, greet. Configure a tool-capable LLM — VAI_LLM_PROVIDER=ollama with a model such as llama3.1 (offline), or openai or anthropic with VAI_LLM_API_KEY — or leave out \"tools\" to answer without them."
    );
    // A step that lists no tools is given nothing to call.
    let providers =
        Arc::new(Providers::none(Settings::default()).with_llm(Arc::new(NoTools(FakeLlm::new()))));
    let out = crate::retrieval::testing::run(
        &Agent::new(providers),
        json!({"prompt": "Say hi"}),
        json!({}),
    )
    .await
    .unwrap();
    assert_eq!(out.output["content"], "fake answer to: Say hi");
    assert_eq!(out.output["toolCalls"], json!([]));
}

#[tokio::test]
async fn tools_outside_a_run_and_a_missing_llm_are_clear_errors() {
    let fakes = Fakes::new();
    let tool = Agent::new(fakes.providers());
    let err = crate::retrieval::testing::run(&tool, prompt_with_tools(), json!({}))
        .await
        .unwrap_err();
    assert!(
        err.to_string()
            .starts_with("agent: \"tools\" can be called only by a step of a workflow run"),
        "{err}"
    );
    let tool = Agent::new(Arc::new(Providers::none(Settings::default())));
    let err = crate::retrieval::testing::run(&tool, json!({"prompt": "p"}), json!({}))
        .await
        .unwrap_err();
    assert!(matches!(err, ToolError::NotConfigured(_)), "{err}");
}
