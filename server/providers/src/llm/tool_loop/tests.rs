use super::*;
use crate::llm::{Role, StopReason};
use std::collections::VecDeque;
use std::sync::Mutex;

/// A host answering from a script: each model call takes the next completion; it offers the
/// tools `echo` and `fail`, and notes what happened.
struct Scripted {
    answers: VecDeque<Completion>,
    requests: Vec<CompletionRequest>,
    log: Vec<String>,
}

fn scripted(answers: Vec<Completion>) -> Scripted {
    Scripted {
        answers: answers.into(),
        requests: Vec::new(),
        log: Vec::new(),
    }
}

fn text(answer: &str) -> Completion {
    Completion {
        text: answer.into(),
        ..Completion::default()
    }
}

fn calls(list: &[(&str, &str, Value)]) -> Completion {
    Completion {
        tool_calls: list
            .iter()
            .map(|(id, name, arguments)| LlmToolCall {
                id: id.to_string(),
                name: name.to_string(),
                arguments: arguments.clone(),
            })
            .collect(),
        stop_reason: StopReason::ToolUse,
        ..Completion::default()
    }
}

impl Host for Scripted {
    type Pending = ();
    type Output = Value;
    type Error = String;

    async fn complete(&mut self, request: CompletionRequest) -> Result<Completion, String> {
        self.requests.push(request);
        self.answers
            .pop_front()
            .ok_or_else(|| "no more answers".to_string())
    }

    fn calling(&mut self, completion: &Completion) {
        self.log
            .push(format!("calling {}", completion.tool_calls.len()));
    }

    fn begin(&mut self, call: &LlmToolCall) -> ((), Result<Ready, String>) {
        let ready = match (call.name.as_str(), &call.arguments) {
            ("echo" | "fail", Value::Object(arguments)) => Ok(Ready {
                tool: call.name.clone(),
                arguments: arguments.clone(),
            }),
            (name, _) => Err(format!("there is no tool \"{name}\"")),
        };
        ((), ready)
    }

    fn end(
        &mut self,
        call: &LlmToolCall,
        (): (),
        outcome: Result<Value, String>,
        _duration_ms: u64,
    ) -> Result<String, String> {
        self.log.push(format!("end {}", call.id));
        outcome.map(|v| result_for_model(&v))
    }

    fn limit_reached(&mut self, rounds: usize) {
        self.log.push(format!("limit {rounds}"));
    }
}

/// Runs `echo` (its arguments back) and `fail`, counting the runs.
#[derive(Default)]
struct Tools(Mutex<usize>);

impl Runner for Tools {
    type Output = Value;

    async fn run(&self, _call: &LlmToolCall, ready: &Ready) -> Result<Value, String> {
        *self.0.lock().unwrap() += 1;
        match ready.tool.as_str() {
            "echo" => Ok(Value::Object(ready.arguments.clone())),
            _ => Err("it failed".into()),
        }
    }
}

fn request() -> CompletionRequest {
    CompletionRequest {
        system: Some("sys".into()),
        messages: vec![Message::user("question")],
        tools: vec![crate::llm::ToolDefinition {
            name: "echo".into(),
            description: "echo".into(),
            input_schema: json!({"type": "object"}),
        }],
        ..CompletionRequest::default()
    }
}

#[tokio::test]
async fn calls_run_their_results_go_back_and_an_answer_ends_the_loop() {
    let mut host = scripted(vec![
        calls(&[
            ("a", "echo", json!({"x": 1})),
            ("b", "fail", json!({})),
            ("c", "nope", json!({})),
        ]),
        text("done"),
    ]);
    let tools = Tools::default();
    let finished = run(&mut host, &tools, request(), 5).await.unwrap();
    assert_eq!(finished.completion.text, "done");
    assert_eq!((finished.rounds, finished.stopped), (1, false));
    assert_eq!(*tools.0.lock().unwrap(), 2, "the unknown tool never ran");
    assert_eq!(host.log, ["calling 3", "end a", "end b", "end c"]);
    let results: Vec<(&str, bool)> = finished.messages[2..]
        .iter()
        .map(|m| (m.content.as_str(), m.is_error))
        .collect();
    assert_eq!(
        results,
        [
            (r#"{"x":1}"#, false),
            ("it failed", true),
            ("there is no tool \"nope\"", true)
        ]
    );
    assert_eq!(finished.messages[1].role, Role::Assistant);
    assert_eq!(host.requests[1].messages.len(), 5);
    assert!(!host.requests[1].tools.is_empty());
}

#[tokio::test]
async fn a_repeated_call_is_answered_from_memory_not_run_again() {
    let mut host = scripted(vec![
        calls(&[("a", "echo", json!({"x": 1}))]),
        calls(&[
            ("b", "echo", json!({"x": 1})),
            ("c", "echo", json!({"x": 2})),
        ]),
        text("done"),
    ]);
    let tools = Tools::default();
    let finished = run(&mut host, &tools, request(), 5).await.unwrap();
    assert_eq!(*tools.0.lock().unwrap(), 2);
    let repeated = &finished.messages[4];
    assert!(repeated.is_error);
    assert_eq!(
        repeated.content,
        "you already made this exact call in this turn; its result was: {\"x\":1}. Use it, or answer now."
    );
}

#[tokio::test]
async fn at_the_limit_the_model_must_answer_without_tools() {
    let mut host = scripted(vec![
        calls(&[("a", "echo", json!({"n": 1}))]),
        calls(&[("b", "echo", json!({"n": 2}))]),
        text("from what I found"),
    ]);
    let finished = run(&mut host, &Tools::default(), request(), 2)
        .await
        .unwrap();
    assert_eq!((finished.rounds, finished.stopped), (2, true));
    assert_eq!(finished.completion.text, "from what I found");
    assert_eq!(
        host.log,
        ["calling 1", "end a", "calling 1", "end b", "limit 2"]
    );
    let last = host.requests.last().unwrap();
    assert!(last.tools.is_empty());
    assert_eq!(last.system.as_deref(), Some("sys"));
    assert_eq!(last.messages.last().unwrap().content, LIMIT_REACHED);
}

#[tokio::test]
async fn a_failed_model_call_says_in_which_round() {
    let mut host = scripted(vec![calls(&[("a", "echo", json!({}))])]);
    let failed = run(&mut host, &Tools::default(), request(), 3)
        .await
        .unwrap_err();
    assert_eq!(
        (failed.error.as_str(), failed.round),
        ("no more answers", 1)
    );
}

#[test]
fn vectors_are_not_sent_back_to_the_model_and_long_results_are_cut() {
    let embedding: Vec<f64> = (0..384).map(|i| i as f64 / 384.0).collect();
    let text = result_for_model(&json!({"embedding": embedding, "model": "m"}));
    assert_eq!(text, r#"{"embedding":"[384 numbers]","model":"m"}"#);
    let long = result_for_model(&json!("é".repeat(MAX_RESULT_FOR_MODEL)));
    assert!(long.len() <= MAX_RESULT_FOR_MODEL && long.ends_with('…'));
}
