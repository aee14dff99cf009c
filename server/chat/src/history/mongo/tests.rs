//! The collection's shape as data: a turn's two documents, the session rebuilt from them, the
//! `list` aggregation and its rows. (`wire_tests` runs the store itself.)

use super::documents::{list_pipeline, session_of, summary_of_row, turn_documents};
use super::*;
use crate::history::{MAX_LISTED, title_of, with_turn};
use mongodb::bson::{Bson, DateTime, oid::ObjectId};
use serde_json::json;
use vai_contract::{AnswerMethod, ChatMode, ChatSource, ChatTimings, ChatToolCall, TurnStatus};
use vai_workflow::Usage;

/// A pipeline turn with every optional field set.
pub(super) fn full_turn(id: &str, started_at: u64) -> ChatTurn {
    ChatTurn {
        id: id.into(),
        question: "How do I rotate keys?".into(),
        answer: "Run `vai keys rotate` [1].".into(),
        status: TurnStatus::Failed,
        error: Some("the model stopped".into()),
        mode: ChatMode::Agent,
        notice: Some("agent mode fell back to the pipeline".into()),
        sources: vec![
            ChatSource {
                index: 1,
                title: "docs/keys.md".into(),
                text: "Keys rotate with vai keys rotate.".into(),
                score: Some(0.94),
                collection: Some("knowledge".into()),
                passages: vec!["Keys rotate with vai keys rotate.".into()],
            },
            ChatSource {
                index: 2,
                title: "faq".into(),
                text: "".into(),
                score: None,
                collection: None,
                passages: Vec::new(),
            },
        ],
        method: Some(AnswerMethod::Extractive),
        tool_calls: vec![ChatToolCall {
            id: "call_1".into(),
            name: "vai_query".into(),
            // Extended JSON and keys MongoDB treats specially, as the aggregate tool's carry.
            arguments: json!({
                "query": "keys",
                "limit": 5,
                "filter": {"_id": {"$oid": "65f0a1b2c3d4e5f6a7b8c9d0"}},
                "odd": {"$date": null, "a.b": 1},
            }),
            label: "Searching knowledge for \"keys\"".into(),
            ok: true,
            summary: "2 results, top score 0.94".into(),
            output: Some(json!({
                "results": [{"score": 0.94, "at": {"$date": "2026-02-11T14:30:00Z"}}],
                "count": 2,
            })),
            duration_ms: 120,
        }],
        provider: "anthropic".into(),
        model: "claude-sonnet-4-5".into(),
        usage: Usage {
            embed_tokens: 12,
            rerank_tokens: 0,
            llm_input_tokens: 800,
            llm_output_tokens: 47,
            requests: 3,
            cost: None,
        },
        timings: ChatTimings {
            retrieval_ms: 230,
            generation_ms: 1450,
            total_ms: 1700,
        },
        started_at,
    }
}

/// A turn with nothing optional.
pub(super) fn bare_turn(id: &str, started_at: u64) -> ChatTurn {
    ChatTurn {
        id: id.into(),
        question: "And then?".into(),
        answer: String::new(),
        status: TurnStatus::Cancelled,
        error: None,
        mode: ChatMode::Pipeline,
        notice: None,
        sources: Vec::new(),
        method: None,
        tool_calls: Vec::new(),
        provider: "local".into(),
        model: "qwen".into(),
        usage: Usage::default(),
        timings: ChatTimings::default(),
        started_at,
    }
}

pub(super) fn session(id: &str, turns: &[ChatTurn]) -> ChatSession {
    turns
        .iter()
        .fold(None, |s, t| Some(with_turn(s, id, t)))
        .expect("at least one turn")
}

/// The documents of `turns` as a server returns them: with `_id`s.
fn stored(id: &str, turns: &[ChatTurn]) -> Vec<Document> {
    turns
        .iter()
        .flat_map(|t| turn_documents(id, t).unwrap())
        .map(|mut d| {
            d.insert("_id", ObjectId::new());
            d
        })
        .collect()
}

#[test]
fn a_turn_is_a_question_and_an_answer_named_as_the_seed_names_them() {
    let [question, answer] = turn_documents("s1", &full_turn("t1", 1_770_000_000_000)).unwrap();
    assert_eq!(
        question,
        doc! {
            "sessionId": "s1",
            "timestamp": DateTime::from_millis(1_770_000_000_000),
            "role": "user",
            "content": "How do I rotate keys?",
            "turnId": "t1",
        }
    );
    assert_eq!(
        answer,
        doc! {
            "sessionId": "s1",
            "timestamp": DateTime::from_millis(1_770_000_000_001),
            "role": "assistant",
            "content": "Run `vai keys rotate` [1].",
            "turnId": "t1",
            "status": "failed",
            "error": "the model stopped",
            "mode": "agent",
            "notice": "agent mode fell back to the pipeline",
            "context": [
                {"source": "docs/keys.md", "chunk": "Keys rotate with vai keys rotate.",
                 "score": 0.94, "collection": "knowledge", "index": 1_i64,
                 "passages": ["Keys rotate with vai keys rotate."]},
                {"source": "faq", "chunk": "", "index": 2_i64},
            ],
            "method": "extractive",
            "toolCalls": [{
                "id": "call_1",
                "name": "vai_query",
                "arguments": r#"{"query":"keys","limit":5,"filter":{"_id":{"$oid":"65f0a1b2c3d4e5f6a7b8c9d0"}},"odd":{"$date":null,"a.b":1}}"#,
                "label": "Searching knowledge for \"keys\"",
                "ok": true,
                "summary": "2 results, top score 0.94",
                "output": r#"{"results":[{"score":0.94,"at":{"$date":"2026-02-11T14:30:00Z"}}],"count":2}"#,
                "durationMs": 120_i64,
            }],
            "metadata": {
                "llmProvider": "anthropic",
                "llmModel": "claude-sonnet-4-5",
                "tokensUsed": 847_i64,
                "retrievalTimeMs": 230_i64,
                "generationTimeMs": 1450_i64,
                "totalTimeMs": 1700_i64,
                "usage": {"embedTokens": 12_i64, "llmInputTokens": 800_i64, "llmOutputTokens": 47_i64, "requests": 3_i64},
            },
        }
    );
    let [_, bare] = turn_documents("s1", &bare_turn("t2", 5)).unwrap();
    assert!(
        ["error", "notice"].iter().all(|k| !bare.contains_key(k)),
        "{bare}"
    );
}

#[test]
fn the_documents_rebuild_the_turns_that_were_appended() {
    let turns = [
        full_turn("t1", 1_770_000_000_000),
        bare_turn("t2", 1_770_000_000_001),
        full_turn("t3", 1_770_000_060_000),
    ];
    let rebuilt = session_of("s1", stored("s1", &turns)).unwrap();
    assert_eq!(rebuilt, Some(session("s1", &turns)));
    let rebuilt = rebuilt.unwrap();
    assert_eq!(rebuilt.title, "How do I rotate keys?");
    assert_eq!(
        (rebuilt.created_at, rebuilt.updated_at),
        (1_770_000_000_000, 1_770_000_060_000)
    );
    assert_eq!(session_of("s1", Vec::new()).unwrap(), None);
}

#[test]
fn a_turn_missing_a_document_is_left_out_and_foreign_documents_are_refused() {
    let turns = [full_turn("t1", 1_000), bare_turn("t2", 2_000)];
    let [t1_question, t1_answer, t2_question, t2_answer]: [Document; 4] =
        stored("s1", &turns).try_into().unwrap();
    // t2's answer was never written.
    let cut_short = vec![t1_question.clone(), t1_answer.clone(), t2_question.clone()];
    assert_eq!(
        session_of("s1", cut_short).unwrap(),
        Some(session("s1", &turns[..1]))
    );
    // t1's question expired before its answer.
    let expired = vec![t1_answer, t2_question, t2_answer];
    assert_eq!(
        session_of("s1", expired).unwrap(),
        Some(session("s1", &turns[1..]))
    );
    assert_eq!(session_of("s1", vec![t1_question]).unwrap(), None);

    let foreign =
        doc! {"_id": 7, "sessionId": "s1", "role": "system", "turnId": "x", "content": "hi"};
    let err = session_of("s1", vec![foreign]).unwrap_err().to_string();
    assert_eq!(
        err,
        "the chat history cannot be read or written: document 7 of session s1 in \
         vai_chat_history was not written by vai: unknown role \"system\""
    );
    let mut broken = stored("s1", &turns[..1]);
    broken[1].insert("status", "exploded");
    let err = session_of("s1", broken).unwrap_err().to_string();
    assert!(
        err.contains("was not written by vai") && err.contains("exploded"),
        "{err}"
    );
    let mut damaged = stored("s1", &turns[..1]);
    let calls = damaged[1].get_array_mut("toolCalls").unwrap();
    calls[0]
        .as_document_mut()
        .unwrap()
        .insert("arguments", "{cut");
    let err = session_of("s1", damaged).unwrap_err().to_string();
    assert!(
        err.contains("turn t1 of session s1 in vai_chat_history has a tool call that is not JSON"),
        "{err}"
    );
}

#[test]
fn a_start_time_past_what_bson_holds_is_refused() {
    let err = turn_documents("s1", &bare_turn("t1", u64::MAX)).unwrap_err();
    assert!(
        err.to_string().contains("turn t1 has no valid start time"),
        "{err}"
    );
}

#[test]
fn list_groups_messages_by_session_newest_first() {
    let is_user = doc! {"$eq": ["$role", "user"]};
    assert_eq!(
        list_pipeline(),
        vec![
            doc! {"$sort": {"sessionId": 1, "timestamp": 1}},
            doc! {"$group": {
                "_id": "$sessionId",
                "first": {"$min": {"$cond": [is_user.clone(), {"at": "$timestamp", "question": "$content"}, Bson::Null]}},
                "updatedAt": {"$max": {"$cond": [is_user, "$timestamp", Bson::Null]}},
                "turnCount": {"$sum": {"$cond": [{"$eq": ["$role", "assistant"]}, 1, 0]}},
            }},
            doc! {"$match": {"first": {"$ne": Bson::Null}, "turnCount": {"$gt": 0}}},
            doc! {"$sort": {"updatedAt": -1, "_id": 1}},
            doc! {"$limit": MAX_LISTED as i64},
            doc! {"$project": {
                "_id": 1,
                "question": "$first.question",
                "createdAt": "$first.at",
                "updatedAt": 1,
                "turnCount": 1,
            }},
        ]
    );
}

pub(super) fn row(id: &str, question: &str, turns: i32) -> Document {
    doc! {
        "_id": id,
        "question": question,
        "createdAt": DateTime::from_millis(1_000),
        "updatedAt": DateTime::from_millis(9_000),
        "turnCount": turns,
    }
}

#[test]
fn list_rows_become_summaries_and_rows_vai_did_not_write_are_skipped() {
    let long = format!("  why\n{}", "x".repeat(100));
    assert_eq!(
        summary_of_row(&row("s1", &long, 3)),
        Some(ChatSessionSummary {
            id: "s1".into(),
            title: title_of(&long),
            created_at: 1_000,
            updated_at: 9_000,
            turn_count: 3,
        })
    );
    let mut wide = row("s2", "q", 0);
    wide.insert("turnCount", 4_i64);
    assert_eq!(summary_of_row(&wide).map(|s| s.turn_count), Some(4));
    assert_eq!(summary_of_row(&row("../etc", "q", 1)), None);
    let mut no_date = row("s3", "q", 1);
    no_date.insert("createdAt", "yesterday");
    assert_eq!(summary_of_row(&no_date), None);
}

#[test]
fn ttl_is_whole_seconds_mongodb_accepts() {
    assert_eq!(ttl_seconds(Duration::from_secs(30 * 24 * 3600)), 2_592_000);
    assert_eq!(ttl_seconds(Duration::from_millis(1_500)), 1);
    assert_eq!(ttl_seconds(Duration::ZERO), 1);
    assert_eq!(ttl_seconds(Duration::from_secs(1 << 40)), 2_147_483_647);
    assert_eq!(ttl_seconds(Duration::MAX), 2_147_483_647);
}
