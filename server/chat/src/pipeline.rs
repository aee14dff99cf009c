//! The fixed pipeline (docs/chat.md, "Modes"): embed the question, search, rerank — all one
//! `query` call, the same tool a workflow step runs — then the prompt with the documents, then
//! the answer.

use crate::prompt::{self, Budget};
use crate::turn::{Turn, Work};
use serde_json::{Map, Value, json};
use std::time::Instant;
use vai_contract::{AnswerMethod, TurnState};
use vai_providers::grounded::{Method, SourceText};
use vai_providers::llm::{CompletionRequest, Message};

pub(crate) async fn answer(work: &Work<'_>, turn: &mut Turn<'_, '_>) -> Result<(), String> {
    let options = work.options;
    let place = match (&options.db, &options.collection) {
        (Some(db), Some(c)) => format!("{db}.{c}"),
        (None, Some(c)) => c.clone(),
        _ => "the knowledge base".to_string(),
    };
    turn.state(TurnState::Retrieving, format!("Searching {place}"));
    let started = Instant::now();
    let mut args = Map::new();
    args.insert("query".into(), json!(work.question));
    args.insert("limit".into(), json!(options.max_context_docs));
    args.insert("rerank".into(), json!(options.rerank));
    if let Some(db) = &options.db {
        args.insert("db".into(), json!(db));
    }
    if let Some(collection) = &options.collection {
        args.insert("collection".into(), json!(collection));
    }
    if let Some(filter) = &options.filter {
        args.insert("filter".into(), filter.clone());
    }
    let retrieved = work.run_tool("query", args).await;
    turn.timings.retrieval_ms += started.elapsed().as_millis() as u64;
    let (output, usage) = retrieved.map_err(|e| format!("searching {place} failed: {e}"))?;
    if let Some(usage) = usage {
        turn.usage.add(&usage);
    }
    let results = output
        .get("results")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    if results.is_empty() {
        empty_knowledge_base(work, &place).await?;
        turn.notice(format!(
            "No document in {place} matched the question; the answer has no sources."
        ));
    }
    turn.sources
        .add_results(&results, options.collection.as_deref());
    turn.sources_changed();
    if let Some(quoted) = quote(work, turn).await {
        return quoted;
    }

    let budget = Budget::for_model(work.llm.context_tokens());
    let (mut messages, dropped) = prompt::window(work.earlier, options.max_turns, budget.history);
    messages.push(Message::user(prompt::with_context(
        work.question,
        &turn.sources.list,
        budget.context,
    )));
    let request = CompletionRequest {
        system: Some(work.system(prompt::PIPELINE_SYSTEM_PROMPT, dropped).await),
        messages,
        model: options.model.clone(),
        max_tokens: options.max_tokens,
        ..CompletionRequest::default()
    };
    work.generate(turn, request).await.map(|_| ())
}

/// The answer of a model that quotes its sources instead of writing (the small local model):
/// the sentences that answer, each cited, with the passages marked on their sources; `None`
/// for a model that writes.
async fn quote(work: &Work<'_>, turn: &mut Turn<'_, '_>) -> Option<Result<(), String>> {
    let started = Instant::now();
    let grounded = {
        let sources: Vec<SourceText<'_>> = turn
            .sources
            .list
            .iter()
            .map(|s| SourceText {
                index: s.index,
                title: &s.title,
                text: &s.text,
            })
            .collect();
        if sources.is_empty() {
            return None;
        }
        work.llm.ground(work.question, &sources).await?
    };
    turn.timings.generation_ms += started.elapsed().as_millis() as u64;
    let grounded = match grounded {
        Ok(grounded) => grounded,
        Err(e) => return Some(Err(e.to_string())),
    };
    for quote in &grounded.quotes {
        if let Some(source) = turn
            .sources
            .list
            .iter_mut()
            .find(|s| s.index == quote.index)
        {
            source.passages.push(quote.passage.clone());
        }
    }
    turn.method = Some(match grounded.method {
        Method::Extractive => AnswerMethod::Extractive,
        Method::Declined => AnswerMethod::Declined,
    });
    turn.sources_changed();
    turn.quoted(grounded.text);
    Some(Ok(()))
}

/// When a search found nothing: an error naming the problem if the collection is missing or
/// empty (there is nothing to chat with); `Ok` when it holds documents that did not match.
async fn empty_knowledge_base(work: &Work<'_>, place: &str) -> Result<(), String> {
    let mut args = Map::new();
    if let Some(db) = &work.options.db {
        args.insert("db".into(), json!(db));
    }
    // Without a collection named, the configured one was searched: its name is not known
    // here, so only a database with no documents at all is reported.
    let Ok((output, _)) = work.run_tool("collections", args).await else {
        return Ok(());
    };
    let collections = output
        .get("collections")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let count = |c: &Value| c.get("documentCount").and_then(Value::as_u64).unwrap_or(0);
    let empty = match &work.options.collection {
        Some(name) => !collections
            .iter()
            .any(|c| c.get("name").and_then(Value::as_str) == Some(name) && count(c) > 0),
        None => collections.iter().all(|c| count(c) == 0),
    };
    if empty {
        return Err(format!(
            "{place} has no documents to answer from: add some first (the ingest tool, for \
             example `vai workflow run smart-ingest`), or choose another collection with \
             --db/--collection"
        ));
    }
    Ok(())
}
