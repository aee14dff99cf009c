//! The engine end to end on in-memory providers: the fake LLM for the turn logic, and the real
//! Anthropic, OpenAI and Ollama clients against scripted loopback servers for conversations as
//! those APIs send them.

use crate::history::MemoryHistory;
use crate::{ChatEngine, ChatError, ChatOptions, History};
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::Duration;
use tokio_util::sync::CancellationToken;
use vai_contract::{AnswerMethod, ChatEvent, ChatMode, ChatTurn, TurnState, TurnStatus};
use vai_providers::fakes::{FakeEmbedder, FakeLlm, FakeReranker, MemoryStore};
use vai_providers::llm::{Anthropic, Limits, Llm, LlmToolCall, Ollama, OpenAi, RetryPolicy};
use vai_providers::testing::fake_http::{FakeServer, Recorded, Reply};
use vai_providers::{Namespace, Providers, Settings, VectorIndex, VectorStore};
use vai_workflow::Registry;

const DIMS: usize = 32;
const SESSION: &str = "s1";

/// The knowledge base every test searches: `kb.docs`, three documents.
async fn knowledge_base() -> (Arc<Registry>, Arc<MemoryStore>) {
    let embedder = Arc::new(FakeEmbedder::new(DIMS));
    let store = Arc::new(MemoryStore::new());
    let ns = Namespace::new("kb", "docs");
    let docs = [
        (
            "auth.md",
            "Authentication uses JWT access tokens and rotating refresh tokens",
        ),
        (
            "limits.md",
            "Rate limits: 100 requests per minute, with a Retry-After header",
        ),
        (
            "deploy.md",
            "Deploy with docker compose up on a single host",
        ),
    ];
    let docs = docs
        .iter()
        .map(|(source, text)| {
            let vector = embedder.vector(text);
            json!({"text": text, "source": source, "embedding": vai_providers::vector_to_json(&vector)})
                .as_object()
                .cloned()
                .unwrap()
        })
        .collect();
    store.insert(&ns, docs).await.unwrap();
    let index = VectorIndex {
        name: "vector_index".into(),
        path: "embedding".into(),
        dimensions: DIMS,
    };
    store.ensure_vector_index(&ns, &index).await.unwrap();
    let settings = Settings {
        fallback_db: Some("kb".into()),
        fallback_collection: Some("docs".into()),
        ..Settings::default()
    };
    let providers = Arc::new(
        Providers::none(settings)
            .with_embedder(embedder)
            .with_reranker(Arc::new(FakeReranker::new()))
            .with_store(store.clone()),
    );
    let registry = vai_tools::registry(providers, vai_tools::http::HttpPolicy::default());
    (Arc::new(registry), store)
}

struct Kit {
    engine: ChatEngine,
    history: Arc<MemoryHistory>,
}

async fn kit(llm: Arc<dyn Llm>) -> Kit {
    let (registry, _) = knowledge_base().await;
    let history = Arc::new(MemoryHistory::new());
    Kit {
        engine: ChatEngine::new(registry, Some(llm), history.clone()),
        history,
    }
}

fn options(mode: ChatMode) -> ChatOptions {
    ChatOptions {
        mode,
        db: Some("kb".into()),
        collection: Some("docs".into()),
        ..ChatOptions::default()
    }
}

/// Ask and keep every event.
async fn ask(kit: &Kit, question: &str, options: &ChatOptions) -> (ChatTurn, Vec<ChatEvent>) {
    let mut events = Vec::new();
    let turn = kit
        .engine
        .ask(
            SESSION,
            question,
            options,
            &mut |e| events.push(e),
            &CancellationToken::new(),
        )
        .await
        .unwrap();
    (turn, events)
}

fn states(events: &[ChatEvent]) -> Vec<TurnState> {
    events
        .iter()
        .filter_map(|e| match e {
            ChatEvent::State { state, .. } => Some(*state),
            _ => None,
        })
        .collect()
}

fn streamed(events: &[ChatEvent]) -> String {
    events
        .iter()
        .filter_map(|e| match e {
            ChatEvent::Text { delta } => Some(delta.as_str()),
            _ => None,
        })
        .collect()
}

fn call(id: &str, name: &str, arguments: Value) -> LlmToolCall {
    LlmToolCall {
        id: id.into(),
        name: name.into(),
        arguments,
    }
}

#[tokio::test]
async fn a_pipeline_turn_retrieves_streams_cites_and_is_recorded() {
    let llm = Arc::new(FakeLlm::new());
    let kit = kit(llm.clone()).await;
    let (turn, events) = ask(
        &kit,
        "how do refresh tokens work?",
        &options(ChatMode::Pipeline),
    )
    .await;

    assert_eq!(turn.status, TurnStatus::Done);
    assert!(
        matches!(events.first(), Some(ChatEvent::TurnStarted { session_id, .. }) if session_id == SESSION)
    );
    assert!(matches!(events.last(), Some(ChatEvent::TurnFinished { turn: t }) if t == &turn));
    assert_eq!(
        states(&events),
        [TurnState::Retrieving, TurnState::Answering]
    );
    assert_eq!(streamed(&events), turn.answer);
    assert_eq!(turn.sources.len(), 3);
    assert_eq!(turn.sources[0].index, 1);
    assert!(turn.sources.iter().any(|s| s.title == "auth.md"));

    // The model saw the grounding rules and the numbered documents with the question.
    let request = &llm.requests()[0];
    assert!(
        request
            .system
            .as_deref()
            .unwrap()
            .contains("Cite your sources")
    );
    let prompt = &request.messages.last().unwrap().content;
    assert!(prompt.contains("[1] Source: "), "{prompt}");
    assert!(prompt.contains("Authentication uses JWT"), "{prompt}");
    assert!(prompt.ends_with("User question: how do refresh tokens work?"));

    let session = kit.history.load(SESSION).await.unwrap().unwrap();
    assert_eq!(session.turns, [turn]);
    assert_eq!(session.title, "how do refresh tokens work?");
}

#[tokio::test]
async fn a_quoting_model_answers_with_the_cited_sentences_and_marks_their_passages() {
    let fake = Arc::new(FakeLlm::new());
    let embedder = Arc::new(FakeEmbedder::new(4096));
    let llm = Arc::new(vai_providers::grounded::GroundedLlm::new(
        fake.clone(),
        embedder,
    ));
    let kit = kit(llm).await;
    let (turn, events) = ask(
        &kit,
        "What rate limits apply per minute?",
        &options(ChatMode::Pipeline),
    )
    .await;

    assert!(fake.requests().is_empty(), "the model was asked to write");
    assert_eq!(turn.method, Some(AnswerMethod::Extractive));
    let limits = turn
        .sources
        .iter()
        .find(|s| s.title == "limits.md")
        .unwrap();
    assert_eq!(
        limits.passages,
        ["Rate limits: 100 requests per minute, with a Retry-After header"]
    );
    assert!(
        turn.answer.contains(&format!(
            "Rate limits: 100 requests per minute, with a Retry-After header [{}]",
            limits.index
        )),
        "{}",
        turn.answer
    );
    assert_eq!(streamed(&events), turn.answer);
    assert_eq!(
        states(&events),
        [TurnState::Retrieving, TurnState::Answering]
    );
    // The passages reach the panel with the sources, before the answer.
    let marked = events.iter().rev().find_map(|e| match e {
        ChatEvent::Sources { sources } => Some(sources.clone()),
        _ => None,
    });
    assert_eq!(marked.unwrap(), turn.sources);
    let saved = kit.history.load(SESSION).await.unwrap().unwrap();
    assert_eq!(saved.turns[0].method, Some(AnswerMethod::Extractive));

    let (declined, _) = ask(
        &kit,
        "Which colour is the logo?",
        &options(ChatMode::Pipeline),
    )
    .await;
    assert_eq!(declined.method, Some(AnswerMethod::Declined));
    assert_eq!(declined.answer, vai_providers::grounded::DECLINED);
    assert!(declined.sources.iter().all(|s| s.passages.is_empty()));
}

#[tokio::test]
async fn later_turns_carry_the_conversation() {
    let llm = Arc::new(FakeLlm::new());
    let kit = kit(llm.clone()).await;
    let options = options(ChatMode::Pipeline);
    let (first, _) = ask(&kit, "first question", &options).await;
    ask(&kit, "second question", &options).await;
    let messages = &llm.requests()[1].messages;
    assert_eq!(messages.len(), 3);
    assert_eq!(messages[0].content, "first question");
    assert_eq!(messages[1].content, first.answer);
    assert_eq!(
        kit.history
            .load(SESSION)
            .await
            .unwrap()
            .unwrap()
            .turns
            .len(),
        2
    );
}

#[tokio::test]
async fn an_empty_collection_fails_the_turn_with_what_to_do() {
    let kit = kit(Arc::new(FakeLlm::new())).await;
    let options = ChatOptions {
        collection: Some("nothing_here".into()),
        ..options(ChatMode::Pipeline)
    };
    let (turn, _) = ask(&kit, "anything?", &options).await;
    assert_eq!(turn.status, TurnStatus::Failed);
    let error = turn.error.unwrap();
    assert!(
        error.contains("kb.nothing_here has no documents"),
        "{error}"
    );
    assert_eq!(
        kit.history.load(SESSION).await.unwrap().unwrap().turns[0].status,
        TurnStatus::Failed
    );
}

#[tokio::test]
async fn a_huge_question_is_recorded_as_failed_without_calling_the_model() {
    let llm = Arc::new(FakeLlm::new());
    let kit = kit(llm.clone()).await;
    let question = "why ".repeat(25_000);
    let (turn, _) = ask(&kit, &question, &options(ChatMode::Pipeline)).await;
    assert_eq!(turn.status, TurnStatus::Failed);
    assert_eq!(
        turn.error.as_deref(),
        Some("the question is 98 KB; a question may be at most 16 KB")
    );
    assert!(turn.question.len() <= crate::MAX_QUESTION_BYTES);
    assert!(llm.requests().is_empty());
    // The session goes on.
    let (next, _) = ask(&kit, "a short one", &options(ChatMode::Pipeline)).await;
    assert_eq!(next.status, TurnStatus::Done);
}

#[tokio::test]
async fn unknown_sessions_bad_ids_and_no_model_are_errors_before_a_turn() {
    let kit = kit(Arc::new(FakeLlm::new())).await;
    let err = kit.engine.session("nope").await.unwrap_err();
    assert_eq!(err.to_string(), "no chat session \"nope\"");
    let err = kit.engine.session("../etc/passwd").await.unwrap_err();
    assert!(
        err.to_string()
            .starts_with("\"../etc/passwd\" is not a session id"),
        "{err}"
    );

    let (registry, _) = knowledge_base().await;
    let none = ChatEngine::new(registry, None, Arc::new(MemoryHistory::new()));
    let err = none
        .ask(
            SESSION,
            "q",
            &ChatOptions::default(),
            &mut |_| {},
            &CancellationToken::new(),
        )
        .await
        .unwrap_err();
    assert!(
        matches!(err, ChatError::NoLlm(ref m) if m.contains("VAI_LLM_PROVIDER")),
        "{err}"
    );
}

#[tokio::test]
async fn agent_calls_tools_in_parallel_fills_defaults_and_cites_results() {
    let llm = Arc::new(FakeLlm::new());
    llm.call_tools_next(vec![
        call(
            "c1",
            "vai_query",
            json!({"query": "refresh tokens", "limit": 2}),
        ),
        call("c2", "vai_collections", json!({})),
    ]);
    let kit = kit(llm.clone()).await;
    let (turn, events) = ask(
        &kit,
        "how do refresh tokens work?",
        &options(ChatMode::Agent),
    )
    .await;

    assert_eq!(turn.status, TurnStatus::Done, "{:?}", turn.error);
    assert_eq!(
        states(&events),
        [
            TurnState::Thinking,
            TurnState::CallingTools,
            TurnState::Thinking,
            TurnState::Answering
        ]
    );
    let started: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            ChatEvent::ToolCallStarted {
                label, arguments, ..
            } => Some((label.clone(), arguments.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(started[0].0, "Searching docs for \"refresh tokens\"");
    // The chat's database and collection went into the calls that omitted them.
    assert_eq!(started[0].1["collection"], "docs");
    assert_eq!(started[1].1["db"], "kb");

    assert_eq!(turn.tool_calls.len(), 2);
    assert!(
        turn.tool_calls.iter().all(|c| c.ok),
        "{:?}",
        turn.tool_calls
    );
    assert_eq!(
        turn.tool_calls[0].summary.split(',').next(),
        Some("2 results")
    );
    assert_eq!(turn.tool_calls[1].summary, "1 collection");
    assert_eq!(turn.sources.len(), 2);

    // The results went back to the model, numbered for citing.
    let second = &llm.requests()[1];
    let results = &second.messages[second.messages.len() - 2];
    assert_eq!(results.tool_call_id.as_deref(), Some("c1"));
    assert!(
        results.content.contains("\"cite\":1"),
        "{}",
        results.content
    );
    assert!(!second.tools.is_empty());
    let names: Vec<_> = second.tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names[..3], ["vai_query", "vai_search", "vai_rerank"]);
}

#[tokio::test]
async fn unknown_tools_and_bad_arguments_go_back_to_the_model_as_errors() {
    let llm = Arc::new(FakeLlm::new());
    llm.call_tools_next(vec![
        call("c1", "vai_delete_everything", json!({})),
        call("c2", "vai_query", json!("not an object")),
        call("c3", "vai_query", json!({"query": "q", "limit": "many"})),
    ]);
    let kit = kit(llm.clone()).await;
    let (turn, _) = ask(&kit, "do it", &options(ChatMode::Agent)).await;
    assert_eq!(turn.status, TurnStatus::Done);
    assert!(turn.tool_calls.iter().all(|c| !c.ok));
    assert!(
        turn.tool_calls[0]
            .summary
            .starts_with("there is no tool \"vai_delete_everything\"; the tools are vai_query,")
    );
    assert_eq!(
        turn.tool_calls[1].summary,
        "the arguments of vai_query must be a JSON object, not a string"
    );
    assert!(
        turn.tool_calls[2].summary.contains("\"limit\""),
        "{}",
        turn.tool_calls[2].summary
    );
    let second = &llm.requests()[1];
    let errors: Vec<_> = second.messages.iter().filter(|m| m.is_error).collect();
    assert_eq!(errors.len(), 3);
}

#[tokio::test]
async fn a_model_that_keeps_calling_tools_is_stopped_at_the_limit_and_must_answer() {
    let llm = Arc::new(FakeLlm::new());
    for n in 0..3 {
        llm.call_tools_next(vec![call(
            &format!("c{n}"),
            "vai_query",
            json!({"query": "same"}),
        )]);
    }
    let kit = kit(llm.clone()).await;
    let options = ChatOptions {
        max_iterations: 3,
        ..options(ChatMode::Agent)
    };
    let (turn, events) = ask(&kit, "loop", &options).await;
    assert_eq!(turn.status, TurnStatus::Done);
    assert_eq!(llm.requests().len(), 4);
    // The repeats were answered from the first call, not run again.
    assert_eq!(turn.tool_calls.len(), 3);
    assert!(turn.tool_calls[0].ok);
    assert!(
        turn.tool_calls[1]
            .summary
            .starts_with("you already made this exact call")
    );
    assert!(turn.notice.as_deref().unwrap().contains("after 3 rounds"));
    assert!(events.iter().any(|e| matches!(e, ChatEvent::Notice { .. })));
    // The last request offered no tools.
    assert!(llm.requests()[3].tools.is_empty());
}

/// `max_tokens` bounds every answer the model is asked for, in both modes; unset, the
/// provider's own default applies.
#[tokio::test]
async fn the_answer_length_limit_reaches_every_request() {
    for mode in [ChatMode::Pipeline, ChatMode::Agent] {
        let llm = Arc::new(FakeLlm::new());
        llm.call_tools_next(vec![call("c0", "vai_query", json!({"query": "q"}))]);
        let kit = kit(llm.clone()).await;
        let options = ChatOptions {
            max_tokens: Some(48),
            max_iterations: 1,
            ..options(mode)
        };
        let (turn, _) = ask(&kit, "how do refresh tokens work?", &options).await;
        assert_eq!(turn.status, TurnStatus::Done, "{mode:?}");
        let requests = llm.requests();
        assert!(!requests.is_empty());
        assert!(
            requests.iter().all(|r| r.max_tokens == Some(48)),
            "{mode:?}"
        );
    }
    let llm = Arc::new(FakeLlm::new());
    let kit = kit(llm.clone()).await;
    ask(&kit, "q", &options(ChatMode::Pipeline)).await;
    assert_eq!(llm.requests()[0].max_tokens, None);
}

/// A model without tool support (the tiny local one).
#[derive(Debug)]
struct NoTools(FakeLlm);

#[async_trait::async_trait]
impl Llm for NoTools {
    fn name(&self) -> &str {
        "local"
    }
    fn default_model(&self) -> &str {
        "tiny"
    }
    fn supports_tools(&self) -> bool {
        false
    }
    fn context_tokens(&self) -> Option<usize> {
        Some(512)
    }
    async fn stream(
        &self,
        request: vai_providers::CompletionRequest,
        sink: &mut vai_providers::llm::StreamSink<'_>,
    ) -> Result<vai_providers::Completion, vai_providers::ProviderError> {
        self.0.stream(request, sink).await
    }
}

#[tokio::test]
async fn agent_mode_on_a_model_without_tools_falls_back_to_the_pipeline_with_a_notice() {
    let inner = FakeLlm::new();
    let kit = kit(Arc::new(NoTools(inner))).await;
    let (turn, events) = ask(
        &kit,
        "how do refresh tokens work?",
        &options(ChatMode::Agent),
    )
    .await;
    assert_eq!(turn.status, TurnStatus::Done);
    assert!(
        turn.notice
            .as_deref()
            .unwrap()
            .starts_with("tiny cannot call tools")
    );
    assert_eq!(states(&events)[0], TurnState::Retrieving);
    assert!(turn.tool_calls.is_empty());
    assert!(!turn.sources.is_empty());
}

#[tokio::test]
async fn a_small_model_gets_a_short_prompt() {
    let kit = kit(Arc::new(NoTools(FakeLlm::new()))).await;
    let (turn, _) = ask(&kit, "q", &options(ChatMode::Pipeline)).await;
    // The budget for 512 tokens leaves about 1 KB of documents.
    let prompt_tokens = turn.usage.llm_input_tokens;
    assert!(prompt_tokens < 400, "{prompt_tokens}");
}

#[tokio::test]
async fn cancelling_keeps_the_partial_turn_as_cancelled() {
    let (registry, _) = knowledge_base().await;
    let history = Arc::new(MemoryHistory::new());
    let server = FakeServer::start(|_, _| {
        openai_text(&["The answer ", "begins", " and then"]).paced(Duration::from_secs(5))
    })
    .await;
    let engine = ChatEngine::new(registry, Some(openai(&server)), history.clone());
    let cancel = CancellationToken::new();
    let mut events = Vec::new();
    let stop = cancel.clone();
    let turn = engine
        .ask(
            SESSION,
            "q",
            &options(ChatMode::Pipeline),
            &mut |e| {
                if matches!(&e, ChatEvent::Text { .. }) {
                    stop.cancel();
                }
                events.push(e);
            },
            &cancel,
        )
        .await
        .unwrap();
    assert_eq!(turn.status, TurnStatus::Cancelled);
    assert_eq!(turn.answer, "The answer");
    assert_eq!(
        history.load(SESSION).await.unwrap().unwrap().turns[0].status,
        TurnStatus::Cancelled
    );
}

// ---- the real clients against scripted servers ----

fn limits() -> Limits {
    Limits {
        first_byte: Duration::from_millis(800),
        idle: Duration::from_millis(800),
        total: Duration::from_secs(10),
    }
}

fn openai(server: &FakeServer) -> Arc<dyn Llm> {
    Arc::new(
        OpenAi::new("sk-test", None, Some(&server.base))
            .unwrap()
            .with_limits(limits())
            .with_retry(RetryPolicy::new(0, Duration::from_millis(1))),
    )
}

fn chunk(delta: Value, finish: Option<&str>) -> Value {
    json!({"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "gpt-4o",
           "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})
}

fn data(chunks: &[Value], done: bool) -> Vec<String> {
    let mut events: Vec<String> = chunks.iter().map(|c| format!("data: {c}\n\n")).collect();
    if done {
        events.push("data: [DONE]\n\n".into());
    }
    events
}

fn openai_text(pieces: &[&str]) -> Reply {
    let mut chunks = vec![chunk(json!({"role": "assistant", "content": ""}), None)];
    chunks.extend(pieces.iter().map(|p| chunk(json!({"content": p}), None)));
    chunks.push(chunk(json!({}), Some("stop")));
    Reply::sse(&data(&chunks, true), Duration::from_millis(1))
}

fn openai_calls(calls: &[(&str, &str, Value)]) -> Reply {
    let mut chunks = vec![chunk(json!({"role": "assistant", "content": null}), None)];
    for (i, (id, name, args)) in calls.iter().enumerate() {
        chunks.push(chunk(
            json!({"tool_calls": [{"index": i, "id": id, "type": "function",
                   "function": {"name": name, "arguments": args.to_string()}}]}),
            None,
        ));
    }
    chunks.push(chunk(json!({}), Some("tool_calls")));
    Reply::sse(&data(&chunks, true), Duration::from_millis(1))
}

trait Paced {
    fn paced(self, after_first: Duration) -> Reply;
}

impl Paced for Reply {
    /// Every chunk after the first two arrives after `after_first`.
    fn paced(mut self, after_first: Duration) -> Reply {
        for chunk in self.chunks.iter_mut().skip(2) {
            chunk.0 = after_first;
        }
        self
    }
}

fn body(request: &Recorded) -> Value {
    request.json()
}

#[tokio::test]
async fn openai_a_scripted_multi_step_agent_conversation() {
    let server = FakeServer::start(|_, n| match n {
        0 => openai_calls(&[
            ("call_1", "vai_query", json!({"query": "rate limits"})),
            (
                "call_2",
                "vai_search",
                json!({"query": "retry after", "limit": 1}),
            ),
        ]),
        1 => openai_calls(&[(
            "call_3",
            "vai_similarity",
            json!({"text1": "a", "text2": "b"}),
        )]),
        _ => openai_text(&["Limits are 100/min [1]", "; retry after the header [2]."]),
    })
    .await;
    let kit = kit(openai(&server)).await;
    let (turn, events) = ask(&kit, "what are the rate limits?", &options(ChatMode::Agent)).await;
    assert_eq!(turn.status, TurnStatus::Done, "{:?}", turn.error);
    assert_eq!(
        turn.answer,
        "Limits are 100/min [1]; retry after the header [2]."
    );
    let names: Vec<_> = turn.tool_calls.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["vai_query", "vai_search", "vai_similarity"]);
    assert!(
        turn.tool_calls.iter().all(|c| c.ok),
        "{:?}",
        turn.tool_calls
    );
    assert_eq!(
        events
            .iter()
            .filter(|e| matches!(e, ChatEvent::ToolCallFinished { .. }))
            .count(),
        3
    );
    let requests = server.requests();
    assert_eq!(requests.len(), 3);
    // The third request carried both rounds: two results, then one.
    let messages = body(&requests[2])["messages"].as_array().unwrap().clone();
    let tool_messages: Vec<_> = messages.iter().filter(|m| m["role"] == "tool").collect();
    assert_eq!(tool_messages.len(), 3);
    assert_eq!(tool_messages[0]["tool_call_id"], "call_1");
    // Every standalone tool but the one that writes (off unless the session allows it).
    let tools = body(&requests[0])["tools"].as_array().unwrap().clone();
    assert_eq!(tools.len(), 9);
    assert!(tools.iter().all(|t| t["function"]["name"] != "vai_ingest"));
}

#[tokio::test]
async fn openai_malformed_tool_arguments_fail_the_turn_with_the_tool_named() {
    let server = FakeServer::start(|_, _| {
        let chunks = [
            chunk(json!({"role": "assistant", "content": null}), None),
            chunk(
                json!({"tool_calls": [{"index": 0, "id": "call_1", "type": "function",
                       "function": {"name": "vai_query", "arguments": "{\"query\": "}}]}),
                None,
            ),
            chunk(json!({}), Some("tool_calls")),
        ];
        Reply::sse(&data(&chunks, true), Duration::ZERO)
    })
    .await;
    let kit = kit(openai(&server)).await;
    let (turn, _) = ask(&kit, "q", &options(ChatMode::Agent)).await;
    assert_eq!(turn.status, TurnStatus::Failed);
    let error = turn.error.unwrap();
    assert!(
        error.contains("malformed JSON in the arguments of tool call vai_query"),
        "{error}"
    );
    assert_eq!(
        kit.history
            .load(SESSION)
            .await
            .unwrap()
            .unwrap()
            .turns
            .len(),
        1
    );
}

#[tokio::test]
async fn openai_a_stream_cut_mid_answer_keeps_the_partial_answer_in_a_failed_turn() {
    let server = FakeServer::start(|_, _| {
        let chunks = [
            chunk(json!({"role": "assistant", "content": ""}), None),
            chunk(json!({"content": "Half an"}), None),
            chunk(json!({"content": " answer"}), None),
        ];
        // No finish reason and no [DONE]: the connection just ends.
        Reply::sse(&data(&chunks, false), Duration::ZERO)
    })
    .await;
    let kit = kit(openai(&server)).await;
    let (turn, _) = ask(&kit, "q", &options(ChatMode::Pipeline)).await;
    assert_eq!(turn.status, TurnStatus::Failed);
    assert_eq!(turn.answer, "Half an answer");
    assert!(
        turn.error.as_deref().unwrap().contains("incomplete"),
        "{:?}",
        turn.error
    );
    // The next question in the session is answered.
    let (registry, _) = knowledge_base().await;
    let fine = FakeServer::start(|_, _| openai_text(&["Fine."])).await;
    let engine = ChatEngine::new(registry, Some(openai(&fine)), kit.history.clone());
    let next = engine
        .ask(
            SESSION,
            "again",
            &options(ChatMode::Pipeline),
            &mut |_| {},
            &CancellationToken::new(),
        )
        .await
        .unwrap();
    assert_eq!(next.status, TurnStatus::Done);
    // The failed turn is not replayed to the model as conversation.
    let messages = body(&fine.requests()[0])["messages"]
        .as_array()
        .unwrap()
        .len();
    assert_eq!(messages, 2, "system + the question");
}

#[tokio::test]
async fn openai_a_timeout_and_a_rate_limit_are_failed_turns_that_say_so() {
    let server = FakeServer::start(|_, n| match n {
        0 => openai_text(&["late"]).delayed(Duration::from_secs(3)),
        _ => Reply::json(
            429,
            json!({"error": {"message": "Rate limit reached", "type": "requests"}}),
        )
        .header("retry-after", "0"),
    })
    .await;
    let kit = kit(openai(&server)).await;
    let (turn, _) = ask(&kit, "q", &options(ChatMode::Pipeline)).await;
    assert_eq!(turn.status, TurnStatus::Failed);
    assert!(
        turn.error.as_deref().unwrap().contains("openai"),
        "{:?}",
        turn.error
    );
    let (turn, _) = ask(&kit, "q", &options(ChatMode::Pipeline)).await;
    assert_eq!(turn.status, TurnStatus::Failed);
    let error = turn.error.unwrap().to_ascii_lowercase();
    assert!(error.contains("rate limit"), "{error}");
}

#[tokio::test]
async fn ollama_a_model_that_refuses_tools_falls_back_to_the_pipeline() {
    let server = FakeServer::start(|request: &Recorded, _| {
        if body(request).get("tools").is_some() {
            Reply::json(
                400,
                json!({"error": {"message": "registry.ollama.ai/library/llama2:latest does not support tools"}}),
            )
        } else {
            openai_text(&["From the docs [1]."])
        }
    })
    .await;
    let llm = Ollama::new(None, Some("llama2"), Some(&server.base))
        .unwrap()
        .with_limits(limits())
        .with_retry(RetryPolicy::new(0, Duration::from_millis(1)));
    let kit = kit(Arc::new(llm)).await;
    let (turn, _) = ask(
        &kit,
        "how do refresh tokens work?",
        &options(ChatMode::Agent),
    )
    .await;
    assert_eq!(turn.status, TurnStatus::Done, "{:?}", turn.error);
    assert_eq!(turn.answer, "From the docs [1].");
    assert!(
        turn.notice
            .as_deref()
            .unwrap()
            .contains("refused tool calls")
    );
    assert!(!turn.sources.is_empty());
}

fn anthropic_events(events: &[Value]) -> Reply {
    let text: Vec<String> = events
        .iter()
        .map(|e| format!("event: {}\ndata: {e}\n\n", e["type"].as_str().unwrap_or("")))
        .collect();
    Reply::sse(&text, Duration::from_millis(1))
}

#[tokio::test]
async fn anthropic_a_tool_round_then_a_cited_answer() {
    let server = FakeServer::start(|_, n| match n {
        0 => anthropic_events(&[
            json!({"type": "message_start", "message": {"model": "claude-sonnet-4-5", "usage": {"input_tokens": 40, "output_tokens": 1}}}),
            json!({"type": "content_block_start", "index": 0, "content_block": {"type": "tool_use", "id": "toolu_1", "name": "vai_query", "input": {}}}),
            json!({"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": "{\"query\": \"deploy\"}"}}),
            json!({"type": "content_block_stop", "index": 0}),
            json!({"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {"output_tokens": 20}}),
            json!({"type": "message_stop"}),
        ]),
        _ => anthropic_events(&[
            json!({"type": "message_start", "message": {"model": "claude-sonnet-4-5", "usage": {"input_tokens": 90, "output_tokens": 1}}}),
            json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
            json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Use docker compose [1]."}}),
            json!({"type": "content_block_stop", "index": 0}),
            json!({"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 8}}),
            json!({"type": "message_stop"}),
        ]),
    })
    .await;
    let llm = Anthropic::new("sk-ant-test", None, Some(&server.base))
        .unwrap()
        .with_limits(limits())
        .with_retry(RetryPolicy::new(0, Duration::from_millis(1)));
    let kit = kit(Arc::new(llm)).await;
    let (turn, _) = ask(&kit, "how do I deploy?", &options(ChatMode::Agent)).await;
    assert_eq!(turn.status, TurnStatus::Done, "{:?}", turn.error);
    assert_eq!(turn.answer, "Use docker compose [1].");
    assert_eq!(turn.usage.llm_input_tokens, 130);
    // Priced at Sonnet 4.5's $3/$15, with the query tool's embedding ($0.12) and rerank
    // ($0.05) calls: one sum, exact.
    let u = &turn.usage;
    let expected = (130.0 * 3.0
        + u.llm_output_tokens as f64 * 15.0
        + u.embed_tokens as f64 * 0.12
        + u.rerank_tokens as f64 * 0.05)
        / 1_000_000.0;
    assert!(u.llm_output_tokens > 0 && u.embed_tokens > 0 && u.rerank_tokens > 0);
    let usd = u.cost.as_ref().and_then(|c| c.usd).expect("a priced turn");
    assert!((usd - expected).abs() < 1e-15, "{usd} ≠ {expected}");
    assert!(turn.sources.iter().any(|s| s.title == "deploy.md"));
    let second = body(&server.requests()[1]);
    let last = second["messages"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()
        .clone();
    assert_eq!(last["content"][0]["type"], "tool_result");
    assert_eq!(last["content"][0]["tool_use_id"], "toolu_1");
}

#[tokio::test]
async fn an_exported_agent_turn_validates_and_runs() {
    let llm = Arc::new(FakeLlm::new());
    llm.call_tools_next(vec![call(
        "c1",
        "vai_query",
        json!({"query": "deploy with docker", "limit": 2}),
    )]);
    let kit = kit(llm.clone()).await;
    let (turn, _) = ask(&kit, "deploy with docker", &options(ChatMode::Agent)).await;
    let workflow = crate::export_workflow(&turn).unwrap();
    assert_eq!(workflow["steps"][0]["tool"], "query");
    assert_eq!(
        workflow["steps"][0]["inputs"]["query"],
        "{{ inputs.question }}"
    );

    let (registry, _) = knowledge_base().await;
    let compiled = vai_workflow::compile(&workflow, &registry, vai_workflow::Mode::Strict);
    assert!(compiled.is_valid(), "{:?}", compiled.diagnostics);
    let plan = compiled.plan.unwrap();
    let mut inputs = serde_json::Map::new();
    inputs.insert("question".into(), json!("rate limits"));
    let result = vai_workflow::run(
        plan,
        registry,
        vai_workflow::RunOptions {
            inputs,
            ..Default::default()
        },
        Arc::new(vai_workflow::events::NoEvents),
    )
    .await
    .unwrap();
    assert_eq!(
        result.status,
        vai_workflow::RunStatus::Completed,
        "{:?}",
        result.error
    );
    let output = result.output.unwrap();
    assert_eq!(output["resultCount"], 2);
}

#[tokio::test]
async fn turns_beyond_the_budget_are_summarized_by_a_large_model_only() {
    let llm = Arc::new(FakeLlm::new());
    let kit = kit(llm.clone()).await;
    let options = options(ChatMode::Pipeline);
    // Three turns of about 2,000 tokens each: the 4,000-token window keeps one.
    for n in 0..3 {
        ask(
            &kit,
            &format!("question {n} {}", "word ".repeat(1_600)),
            &options,
        )
        .await;
    }
    let before = llm.requests().len();
    ask(&kit, "and now?", &options).await;
    let requests = llm.requests();
    assert_eq!(requests.len(), before + 2, "a summary, then the answer");
    assert!(
        requests[before].messages[0]
            .content
            .starts_with("Summarize this conversation")
    );
    let system = requests[before + 1].system.clone().unwrap();
    assert!(
        system.contains("The conversation so far, summarized: fake answer to: Summarize"),
        "{system}"
    );

    // The small local model is not asked to summarize.
    let tiny = Arc::new(NoTools(FakeLlm::new()));
    let small = self::kit(tiny.clone()).await;
    for n in 0..3 {
        ask(
            &small,
            &format!("question {n} {}", "word ".repeat(200)),
            &options,
        )
        .await;
    }
    ask(&small, "and now?", &options).await;
    assert_eq!(tiny.0.requests().len(), 4, "one request per turn");
}

#[tokio::test]
async fn an_answer_cut_at_the_length_limit_says_so() {
    let server = FakeServer::start(|_, _| {
        let chunks = [
            chunk(json!({"role": "assistant", "content": ""}), None),
            chunk(json!({"content": "It starts and"}), None),
            chunk(json!({}), Some("length")),
        ];
        Reply::sse(&data(&chunks, true), Duration::ZERO)
    })
    .await;
    let kit = kit(openai(&server)).await;
    let (turn, _) = ask(&kit, "q", &options(ChatMode::Pipeline)).await;
    assert_eq!(turn.status, TurnStatus::Done);
    assert!(
        turn.notice.as_deref().unwrap().contains("length limit"),
        "{:?}",
        turn.notice
    );
}

/// A key pasted into a question (or echoed by a tool or the model) is not kept in the history.
#[tokio::test]
async fn a_key_in_a_turn_is_masked_before_it_is_recorded() {
    vai_redact::register("pa-chat-test-0a1b2c3d4e5f6a7b8c9d");
    let kit = kit(Arc::new(FakeLlm::new())).await;
    let (turn, _) = ask(
        &kit,
        "why is PA-CHAT-TEST-0A1B2C3D4E5F rejected?",
        &options(ChatMode::Pipeline),
    )
    .await;
    assert_eq!(turn.question, "why is <redacted> rejected?");
    let session = kit.history.load(SESSION).await.unwrap().unwrap();
    let kept = serde_json::to_string(&session)
        .unwrap()
        .to_ascii_lowercase();
    assert!(!kept.contains("0a1b2c3d"), "{kept}");
}

/// Tools that change data are off unless the session allows writes: not offered, and a model
/// that calls one anyway is told so and nothing is written.
#[tokio::test]
async fn write_tools_are_offered_and_run_only_when_the_session_allows_writes() {
    let ingest = || {
        call(
            "c1",
            "vai_ingest",
            json!({"text": "A new note about webhooks.", "source": "note.md"}),
        )
    };
    let documents = |store: &MemoryStore| {
        let ns = Namespace::new("kb", "docs");
        store.documents(&ns).len()
    };
    let (registry, store) = knowledge_base().await;
    let llm = Arc::new(FakeLlm::new());
    llm.call_tools_next(vec![ingest()]);
    let engine = ChatEngine::new(
        registry.clone(),
        Some(llm.clone()),
        Arc::new(MemoryHistory::new()),
    );
    let kit = Kit {
        engine,
        history: Arc::new(MemoryHistory::new()),
    };
    let (turn, _) = ask(&kit, "remember this", &options(ChatMode::Agent)).await;
    let offered: Vec<_> = llm.requests()[0]
        .tools
        .iter()
        .map(|t| t.name.clone())
        .collect();
    assert!(!offered.contains(&"vai_ingest".to_string()), "{offered:?}");
    assert!(!turn.tool_calls[0].ok);
    assert!(
        turn.tool_calls[0].summary.starts_with(
            "vai_ingest changes the knowledge base, and this chat does not allow that"
        ),
        "{}",
        turn.tool_calls[0].summary
    );
    assert_eq!(documents(&store), 3, "nothing was written");

    llm.call_tools_next(vec![ingest()]);
    let allowed = ChatOptions {
        allow_writes: true,
        ..options(ChatMode::Agent)
    };
    let (turn, _) = ask(&kit, "remember this", &allowed).await;
    assert!(turn.tool_calls[0].ok, "{:?}", turn.tool_calls);
    let requests = llm.requests();
    let offered = &requests.last().unwrap().tools;
    assert!(offered.iter().any(|t| t.name == "vai_ingest"));
    assert!(documents(&store) > 3);
}
