//! Event sequences as the terminal shows them.

use super::*;
use serde_json::json;
use vai_contract::{AnswerMethod, ChatMode, ChatTimings};

fn look(tools: ShowToolCalls) -> Look {
    Look {
        colour: false,
        live: false,
        json: false,
        quiet: false,
        tools,
    }
}

/// What stdout and stderr read after `events`.
fn shown(look: Look, events: Vec<ChatEvent>) -> (String, String) {
    let mut view = TurnView::new(Vec::new(), Vec::new(), look, "s1");
    for event in events {
        view.event(event);
    }
    let (out, err) = view.into_parts();
    (
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap(),
    )
}

fn source(index: u32, title: &str, score: f64) -> ChatSource {
    ChatSource {
        index,
        title: title.into(),
        text: "text".into(),
        score: Some(score),
        collection: Some("api_docs".into()),
        passages: Vec::new(),
    }
}

fn call(id: &str, ok: bool, summary: &str) -> ChatToolCall {
    ChatToolCall {
        id: id.into(),
        name: "vai_query".into(),
        arguments: json!({"query": "auth", "collection": "api_docs"}),
        label: "Searching api_docs for \"auth\"".into(),
        ok,
        summary: summary.into(),
        output: Some(json!({"results": []})),
        duration_ms: 12,
    }
}

fn turn(answer: &str, status: TurnStatus, sources: Vec<ChatSource>) -> ChatTurn {
    ChatTurn {
        id: "t1".into(),
        question: "How does auth work?".into(),
        answer: answer.into(),
        status,
        error: (status == TurnStatus::Failed).then(|| "openai: the stream was cut".into()),
        mode: ChatMode::Agent,
        notice: None,
        sources,
        method: None,
        tool_calls: Vec::new(),
        provider: "openai".into(),
        model: "gpt-4o".into(),
        usage: vai_workflow::Usage {
            llm_input_tokens: 480,
            llm_output_tokens: 61,
            ..Default::default()
        },
        timings: ChatTimings {
            retrieval_ms: 100,
            generation_ms: 2000,
            total_ms: 2300,
        },
        started_at: 0,
    }
}

fn text(delta: &str) -> ChatEvent {
    ChatEvent::Text {
        delta: delta.into(),
    }
}

#[test]
fn an_agent_turn_shows_each_call_then_the_answer_and_its_sources() {
    let sources = vec![source(1, "auth.md", 0.912), source(2, "tokens.md", 0.5)];
    let (out, err) = shown(
        look(ShowToolCalls::Shown),
        vec![
            ChatEvent::State {
                state: TurnState::Thinking,
                label: "Thinking".into(),
            },
            ChatEvent::ToolCallStarted {
                id: "c1".into(),
                name: "vai_query".into(),
                arguments: json!({"query": "auth"}),
                label: "Searching api_docs for \"auth\"".into(),
            },
            ChatEvent::ToolCallFinished {
                call: call("c1", true, "2 results, top score 0.91"),
            },
            ChatEvent::Sources {
                sources: sources.clone(),
            },
            text("Tokens are JWTs"),
            text(" [1]."),
            ChatEvent::TurnFinished {
                turn: turn("Tokens are JWTs [1].", TurnStatus::Done, sources),
            },
        ],
    );
    assert_eq!(
        out,
        "Tokens are JWTs [1].\n\nSources:\n  [1] auth.md (relevance: 0.91)\n  [2] tokens.md (relevance: 0.50)\n\n"
    );
    assert_eq!(
        err,
        "● Searching api_docs for \"auth\"\n  ✔ 2 results, top score 0.91  [12ms]\n[2.3s · 480→61 tokens]\n"
    );
}

#[test]
fn a_quoted_answer_says_how_it_was_made_and_which_sources_it_quotes() {
    let mut quoted = source(1, "auth.md", 0.912);
    quoted.passages = vec!["Tokens are JWTs.".into(), "They last an hour.".into()];
    let sources = vec![quoted, source(2, "tokens.md", 0.5)];
    let answer = "Tokens are JWTs. [1] They last an hour. [1]";
    let finished = ChatTurn {
        method: Some(AnswerMethod::Extractive),
        usage: Default::default(),
        ..turn(answer, TurnStatus::Done, sources.clone())
    };
    let (out, err) = shown(
        look(ShowToolCalls::Shown),
        vec![
            ChatEvent::Sources { sources },
            text(answer),
            ChatEvent::TurnFinished { turn: finished },
        ],
    );
    assert_eq!(
        out,
        format!(
            "{answer}\n\nSources:\n  [1] auth.md (relevance: 0.91) · 2 sentences quoted\n  [2] tokens.md (relevance: 0.50)\n\n"
        )
    );
    assert_eq!(err, "[2.3s · quoted from the sources]\n");
}

#[test]
fn calls_made_together_are_named_when_they_end() {
    let started = |id: &str| ChatEvent::ToolCallStarted {
        id: id.into(),
        name: "vai_query".into(),
        arguments: json!({}),
        label: format!("Searching {id}"),
    };
    let mut second = call("c2", false, "vai_query: the collection does not exist");
    second.label = "Searching c2".into();
    let (_, err) = shown(
        look(ShowToolCalls::Shown),
        vec![
            started("c1"),
            started("c2"),
            ChatEvent::ToolCallFinished {
                call: call("c1", true, "no results"),
            },
            ChatEvent::ToolCallFinished { call: second },
        ],
    );
    assert_eq!(
        err,
        "● Searching c1\n● Searching c2\n  ✔ Searching api_docs for \"auth\": no results  [12ms]\n  ✗ Searching c2: vai_query: the collection does not exist  [12ms]\n"
    );
}

#[test]
fn verbose_shows_inputs_and_outputs_and_hidden_shows_no_calls() {
    let events = || {
        vec![
            ChatEvent::ToolCallStarted {
                id: "c1".into(),
                name: "vai_query".into(),
                arguments: json!({"query": "auth"}),
                label: "Searching".into(),
            },
            ChatEvent::ToolCallFinished {
                call: call("c1", true, "no results"),
            },
        ]
    };
    let (_, err) = shown(look(ShowToolCalls::Verbose), events());
    assert_eq!(
        err,
        "● Searching\n    input: {\"query\":\"auth\"}\n  ✔ no results  [12ms]\n    {\n      \"results\": []\n    }\n"
    );
    let (_, err) = shown(look(ShowToolCalls::Hidden), events());
    assert_eq!(err, "");
}

#[test]
fn a_failed_turn_keeps_its_partial_answer_and_says_why() {
    let (out, err) = shown(
        look(ShowToolCalls::Shown),
        vec![
            text("Tokens are"),
            ChatEvent::Notice {
                message: "agent mode answered with the fixed pipeline".into(),
            },
            ChatEvent::TurnFinished {
                turn: turn("Tokens are", TurnStatus::Failed, Vec::new()),
            },
        ],
    );
    assert_eq!(out, "Tokens are\n\n");
    assert_eq!(
        err,
        "⚠ agent mode answered with the fixed pipeline\n✗ error: openai: the stream was cut\n"
    );
}

#[test]
fn json_prints_one_object_a_turn_with_the_session_id() {
    let look = Look {
        json: true,
        quiet: true,
        ..look(ShowToolCalls::Shown)
    };
    let finished = turn(
        "Tokens [1].",
        TurnStatus::Done,
        vec![source(1, "auth.md", 0.9)],
    );
    let (out, err) = shown(
        look,
        vec![
            text("Tokens [1]."),
            ChatEvent::TurnFinished {
                turn: finished.clone(),
            },
        ],
    );
    assert_eq!(err, "");
    assert_eq!(out.lines().count(), 1, "{out}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["sessionId"], "s1");
    assert_eq!(v["answer"], "Tokens [1].");
    assert_eq!(v["status"], "done");
    assert_eq!(v["sources"][0]["title"], "auth.md");
    let back: ChatTurn = serde_json::from_value(v).unwrap();
    assert_eq!(back, finished);
}

#[test]
fn the_show_tool_calls_setting_is_checked() {
    assert_eq!(ShowToolCalls::from_setting(None), Ok(ShowToolCalls::Shown));
    assert_eq!(
        ShowToolCalls::from_setting(Some(&json!(false))),
        Ok(ShowToolCalls::Hidden)
    );
    assert_eq!(
        ShowToolCalls::from_setting(Some(&json!("verbose"))),
        Ok(ShowToolCalls::Verbose)
    );
    assert!(
        ShowToolCalls::from_setting(Some(&json!("loud")))
            .unwrap_err()
            .contains("must be true, false or \"verbose\"")
    );
}

#[test]
fn a_turn_footer_shows_what_it_cost() {
    let mut priced = turn("Tokens last 15 minutes.", TurnStatus::Done, Vec::new());
    priced.usage.cost = Some(vai_workflow::Cost {
        usd: Some(0.0021),
        priced_at: "2026-11-28".into(),
        ..Default::default()
    });
    assert_eq!(footer(&priced), "[2.3s · 480→61 tokens · $0.0021]");
    priced.usage.cost = Some(vai_workflow::Cost {
        usd: None,
        priced_at: "2026-11-28".into(),
        unpriced: vec!["house-llm".into()],
        ..Default::default()
    });
    assert_eq!(
        footer(&priced),
        "[2.3s · 480→61 tokens · $? (house-llm unpriced)]"
    );
}
