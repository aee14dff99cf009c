//! The banner: which model answers, from which knowledge base (with its document count), in
//! which mode and session — and a warning when the knowledge base has nothing to answer from.

use super::repl::Session;
use crate::app::App;
use serde_json::{Map, Value, json};
use std::time::Duration;
use vai_chat::{ChatEngine, ChatOptions};
use vai_contract::ChatMode;
use vai_providers::local::llm::LocalLlm;

/// The longest wait for the document count (an unreachable MongoDB takes far longer).
const COUNT_TIMEOUT: Duration = Duration::from_secs(5);

/// The banner for a chat of `engine` with `options` in `session` (`resumed`, or new), and a
/// warning when the knowledge base has nothing to answer from.
pub(super) async fn banner(
    app: &App,
    engine: &ChatEngine,
    options: &ChatOptions,
    session: &Session,
    resumed: bool,
) -> (String, Option<String>) {
    let (knowledge_base, warning) = knowledge_base(app, options).await;
    let state = if resumed {
        let plural = if session.turns == 1 { "" } else { "s" };
        format!("resumed, {} turn{plural}", session.turns)
    } else {
        "new".to_string()
    };
    let text = format!(
        "vai chat {}\nProvider: {}\nKnowledge base: {knowledge_base}\nMode: {}\nSession: {} ({state}, \
         history: {})\nType /help for commands, /quit to exit.",
        env!("CARGO_PKG_VERSION"),
        provider(engine, options),
        mode(engine, options),
        session.id,
        engine.history().kind()
    );
    (text, warning)
}

/// The banner's provider: `openai (gpt-4o)`, or the local model's label.
fn provider(engine: &ChatEngine, options: &ChatOptions) -> String {
    match engine.llm() {
        Some(llm) if llm.name() == LocalLlm::NAME => LocalLlm::LABEL.to_string(),
        Some(llm) => format!(
            "{} ({})",
            llm.name(),
            options.model.as_deref().unwrap_or(llm.default_model())
        ),
        None => "none".to_string(),
    }
}

fn mode(engine: &ChatEngine, options: &ChatOptions) -> String {
    match options.mode {
        ChatMode::Pipeline => "pipeline (search, then answer citing the sources)".to_string(),
        ChatMode::Agent if engine.supports_tools() => {
            "agent (the model calls vai's tools)".to_string()
        }
        ChatMode::Agent => format!(
            "agent, but {} cannot call tools, so answers use the fixed pipeline",
            engine.llm().map_or("the model", |l| l.default_model())
        ),
    }
}

/// The knowledge base with its document count, and a warning when it has nothing to answer
/// from.
async fn knowledge_base(app: &App, options: &ChatOptions) -> (String, Option<String>) {
    let db = options.db.as_deref().unwrap_or_default();
    let collections = match collections(app, db).await {
        Ok(collections) => collections,
        Err(e) => {
            let place = match &options.collection {
                Some(c) => format!("{db}.{c}"),
                None => db.to_string(),
            };
            return (format!("{place} (document count unavailable: {e})"), None);
        }
    };
    let count = |c: &Value| c["documentCount"].as_u64().unwrap_or(0);
    let Some(name) = &options.collection else {
        let plural = if collections.len() == 1 { "" } else { "s" };
        let line = format!("{db} ({} collection{plural})", collections.len());
        let warning = collections
            .iter()
            .all(|c| count(c) == 0)
            .then(|| format!("{db} has no documents yet: ingest some {ADD_DOCUMENTS}"));
        return (line, warning);
    };
    let place = format!("{db}.{name}");
    match collections.iter().find(|c| c["name"] == name.as_str()) {
        Some(c) if count(c) > 0 => {
            let n = count(c);
            (
                format!("{place} ({n} document{})", if n == 1 { "" } else { "s" }),
                None,
            )
        }
        Some(_) => (
            format!("{place} (empty)"),
            Some(format!(
                "{place} has no documents yet: ingest some {ADD_DOCUMENTS}"
            )),
        ),
        None => (
            format!("{place} (no such collection)"),
            Some(format!(
                "{place} does not exist yet: ingest documents into it {ADD_DOCUMENTS}"
            )),
        ),
    }
}

/// How to give a chat something to answer from.
const ADD_DOCUMENTS: &str = "first (for example with `vai workflow run smart-ingest`), or choose \
                             another knowledge base with --db and --collection";

/// The collections of `db`, as the `collections` tool lists them.
async fn collections(app: &App, db: &str) -> Result<Vec<Value>, String> {
    let tool = app
        .registry
        .tool("collections")
        .ok_or("the collections tool is not available")?;
    let mut inputs = Map::new();
    inputs.insert("db".into(), json!(db));
    let call =
        vai_workflow::run_alone(tool.as_ref(), "chat", inputs, vai_workflow::Limits::DEFAULT);
    let out = tokio::time::timeout(COUNT_TIMEOUT, call)
        .await
        .map_err(|_| format!("no answer in {} s", COUNT_TIMEOUT.as_secs()))?
        .map_err(|e| e.to_string())?;
    Ok(out.output["collections"]
        .as_array()
        .cloned()
        .unwrap_or_default())
}
