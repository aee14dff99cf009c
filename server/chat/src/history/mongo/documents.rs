//! The shape of `vai_chat_history` and its conversions: each turn is two
//! documents, the user's question and the assistant's answer with everything else the turn
//! carried, and a session is rebuilt from them exactly as it was appended. The `list`
//! aggregation is here too, so all of the collection's shape is tested as data.

use crate::history::{HistoryError, MAX_LISTED, check_id, title_of, with_turn};
use mongodb::bson::{self, Bson, DateTime, Document, doc};
use serde::{Deserialize, Serialize};
use vai_contract::{
    AnswerMethod, ChatMode, ChatSession, ChatSessionSummary, ChatSource, ChatTimings, ChatToolCall,
    ChatTurn, TurnStatus,
};
use vai_workflow::Usage;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Role {
    User,
    Assistant,
}

/// The user's message of a turn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Question {
    session_id: String,
    /// The turn's `started_at`.
    timestamp: DateTime,
    role: Role,
    content: String,
    turn_id: String,
}

/// The assistant's message of a turn: the answer and the rest of the turn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Answer {
    session_id: String,
    /// The turn's `started_at` + 1 ms, so the answer sorts after its question.
    timestamp: DateTime,
    role: Role,
    content: String,
    turn_id: String,
    status: TurnStatus,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    error: Option<String>,
    mode: ChatMode,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    notice: Option<String>,
    context: Vec<Context>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    method: Option<AnswerMethod>,
    tool_calls: Vec<ToolCall>,
    metadata: Metadata,
}

/// A source the answer could cite, named as the seed names it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Context {
    /// The source's title.
    source: String,
    /// The source's text.
    chunk: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    score: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    collection: Option<String>,
    /// The citation number.
    index: u32,
    /// The passages the answer quotes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    passages: Vec<String>,
}

/// A tool call with its arguments and output as JSON text: tool JSON holds Extended JSON
/// (`{"$oid": …}`, `{"$date": …}`) that BSON readers would turn into other values, and keys
/// MongoDB may refuse, so it is kept as written.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct ToolCall {
    id: String,
    name: String,
    arguments: String,
    label: String,
    ok: bool,
    summary: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    output: Option<String>,
    duration_ms: u64,
}

impl ToolCall {
    fn of(call: ChatToolCall) -> ToolCall {
        ToolCall {
            id: call.id,
            name: call.name,
            arguments: call.arguments.to_string(),
            label: call.label,
            ok: call.ok,
            summary: call.summary,
            output: call.output.map(|o| o.to_string()),
            duration_ms: call.duration_ms,
        }
    }

    fn call(self) -> Result<ChatToolCall, serde_json::Error> {
        Ok(ChatToolCall {
            id: self.id,
            name: self.name,
            arguments: serde_json::from_str(&self.arguments)?,
            label: self.label,
            ok: self.ok,
            summary: self.summary,
            output: self
                .output
                .as_deref()
                .map(serde_json::from_str)
                .transpose()?,
            duration_ms: self.duration_ms,
        })
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Metadata {
    llm_provider: String,
    llm_model: String,
    /// The model's input and output tokens, for people reading the collection.
    tokens_used: u64,
    retrieval_time_ms: u64,
    generation_time_ms: u64,
    total_time_ms: u64,
    usage: Usage,
}

/// The user and assistant documents of `turn` in session `id`.
pub(super) fn turn_documents(id: &str, turn: &ChatTurn) -> Result<[Document; 2], HistoryError> {
    // Every field named, so a field added to `ChatTurn` cannot be silently left unstored.
    let ChatTurn {
        id: turn_id,
        question,
        answer,
        status,
        error,
        mode,
        notice,
        sources,
        method,
        tool_calls,
        provider,
        model,
        usage,
        timings,
        started_at,
    } = turn.clone();
    let started = i64::try_from(started_at)
        .map_err(|_| HistoryError::Store(format!("turn {turn_id} has no valid start time")))?;
    let question = Question {
        session_id: id.to_string(),
        timestamp: DateTime::from_millis(started),
        role: Role::User,
        content: question,
        turn_id: turn_id.clone(),
    };
    let answer = Answer {
        session_id: id.to_string(),
        timestamp: DateTime::from_millis(started.saturating_add(1)),
        role: Role::Assistant,
        content: answer,
        turn_id: turn_id.clone(),
        status,
        error,
        mode,
        notice,
        context: sources
            .into_iter()
            .map(|s| Context {
                source: s.title,
                chunk: s.text,
                score: s.score,
                collection: s.collection,
                index: s.index,
                passages: s.passages,
            })
            .collect(),
        method,
        tool_calls: tool_calls.into_iter().map(ToolCall::of).collect(),
        metadata: Metadata {
            llm_provider: provider,
            llm_model: model,
            tokens_used: usage
                .llm_input_tokens
                .saturating_add(usage.llm_output_tokens),
            retrieval_time_ms: timings.retrieval_ms,
            generation_time_ms: timings.generation_ms,
            total_time_ms: timings.total_ms,
            usage,
        },
    };
    let stored = |e: bson::ser::Error| {
        HistoryError::Store(format!("turn {turn_id} cannot be stored in MongoDB: {e}"))
    };
    Ok([
        bson::to_document(&question).map_err(stored)?,
        bson::to_document(&answer).map_err(stored)?,
    ])
}

/// The turn a question and its answer tell.
fn turn_of(question: Question, answer: Answer) -> Result<ChatTurn, serde_json::Error> {
    let Metadata {
        llm_provider,
        llm_model,
        retrieval_time_ms,
        generation_time_ms,
        total_time_ms,
        usage,
        tokens_used: _,
    } = answer.metadata;
    Ok(ChatTurn {
        id: answer.turn_id,
        question: question.content,
        answer: answer.content,
        status: answer.status,
        error: answer.error,
        mode: answer.mode,
        notice: answer.notice,
        sources: answer
            .context
            .into_iter()
            .map(|c| ChatSource {
                index: c.index,
                title: c.source,
                text: c.chunk,
                score: c.score,
                collection: c.collection,
                passages: c.passages,
            })
            .collect(),
        method: answer.method,
        tool_calls: answer
            .tool_calls
            .into_iter()
            .map(ToolCall::call)
            .collect::<Result<_, _>>()?,
        provider: llm_provider,
        model: llm_model,
        usage,
        timings: ChatTimings {
            retrieval_ms: retrieval_time_ms,
            generation_ms: generation_time_ms,
            total_ms: total_time_ms,
        },
        started_at: u64::try_from(question.timestamp.timestamp_millis()).unwrap_or_default(),
    })
}

/// The two documents of one turn, as far as they were found.
#[derive(Debug, Default)]
struct Halves {
    question: Option<Question>,
    answer: Option<Answer>,
}

/// Session `id` rebuilt from its documents in `(timestamp, _id)` order; `None` when there are
/// none. A turn missing one of its two documents (a write cut short, or one expired by the TTL
/// index before the other) is left out.
pub(super) fn session_of(
    id: &str,
    documents: Vec<Document>,
) -> Result<Option<ChatSession>, HistoryError> {
    // Turns in the order their first document came.
    let mut turns: Vec<(String, Halves)> = Vec::new();
    for document in documents {
        let at = document
            .get("_id")
            .map_or_else(String::new, |id| format!(" {id}"));
        let unreadable = |e: &dyn std::fmt::Display| {
            HistoryError::Store(format!(
                "document{at} of session {id} in vai_chat_history was not written by vai: {e}"
            ))
        };
        let role = document
            .get_str("role")
            .map_err(|e| unreadable(&e))?
            .to_string();
        let turn_id = document.get_str("turnId").map_err(|e| unreadable(&e))?;
        let slot = match turns.iter().position(|(t, _)| t == turn_id) {
            Some(slot) => slot,
            None => {
                turns.push((turn_id.to_string(), Halves::default()));
                turns.len() - 1
            }
        };
        let halves = &mut turns[slot].1;
        match role.as_str() {
            "user" => halves.question = Some(parse(document, unreadable)?),
            "assistant" => halves.answer = Some(parse(document, unreadable)?),
            other => return Err(unreadable(&format!("unknown role \"{other}\""))),
        }
    }
    let mut session = None;
    for (turn_id, halves) in turns {
        let Halves {
            question: Some(question),
            answer: Some(answer),
        } = halves
        else {
            continue;
        };
        let turn = turn_of(question, answer).map_err(|e| {
            HistoryError::Store(format!(
                "turn {turn_id} of session {id} in vai_chat_history has a tool call that is not \
                 JSON: {e}"
            ))
        })?;
        session = Some(with_turn(session, id, &turn));
    }
    Ok(session)
}

fn parse<T: serde::de::DeserializeOwned>(
    document: Document,
    unreadable: impl Fn(&dyn std::fmt::Display) -> HistoryError,
) -> Result<T, HistoryError> {
    bson::from_document(document).map_err(|e| unreadable(&e))
}

/// The filter of session `id`'s documents.
pub(super) fn session_filter(id: &str) -> Document {
    doc! {"sessionId": id}
}

/// The order of a session's documents (`_id` breaks ties between equal timestamps).
pub(super) fn message_order() -> Document {
    doc! {"timestamp": 1, "_id": 1}
}

/// The keys of the index that finds a session's documents in order.
pub(super) fn session_index_keys() -> Document {
    doc! {"sessionId": 1, "timestamp": 1}
}

/// The keys of the optional TTL index.
pub(super) fn ttl_index_keys() -> Document {
    doc! {"timestamp": 1}
}

/// Sessions, most recently used first, at most [`MAX_LISTED`]: one row per session with its
/// first question and start, its last start, and its number of answers. The first stage walks the
/// session index, so no sort of the whole collection is held in memory.
pub(super) fn list_pipeline() -> Vec<Document> {
    let is_user = doc! {"$eq": ["$role", "user"]};
    vec![
        doc! {"$sort": session_index_keys()},
        doc! {"$group": {
            "_id": "$sessionId",
            // The least {at, question} of the user documents is the first question: documents
            // compare field by field, and `$min` skips the nulls of the assistant documents.
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
}

/// One row of [`list_pipeline`] as a summary; `None` for a row vai would not have written.
pub(super) fn summary_of_row(row: &Document) -> Option<ChatSessionSummary> {
    let id = row.get_str("_id").ok()?;
    check_id(id).ok()?;
    let millis = |field: &str| {
        let at = row.get_datetime(field).ok()?.timestamp_millis();
        Some(u64::try_from(at).unwrap_or_default())
    };
    let turn_count = match row.get("turnCount")? {
        Bson::Int32(n) => usize::try_from(*n).ok()?,
        Bson::Int64(n) => usize::try_from(*n).ok()?,
        _ => return None,
    };
    Some(ChatSessionSummary {
        id: id.to_string(),
        title: title_of(row.get_str("question").ok()?),
        created_at: millis("createdAt")?,
        updated_at: millis("updatedAt")?,
        turn_count,
    })
}
