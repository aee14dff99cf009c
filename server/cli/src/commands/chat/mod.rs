//! `vai chat`: ask the knowledge base questions from the terminal, or from a script one line at a
//! time. The composition here — configuration, the chat engine, the session, the banner — then
//! the loop in `repl`; the engine (`vai_chat`) does the answering and reports it as events.

mod banner;
mod export;
mod input;
mod lists;
mod render;
mod repl;
mod slash;

use crate::app::{self, ChatHistory};
use crate::config::Config;
use crate::exit::{EXIT_FAILED, EXIT_INVALID};
use clap::{Args, ValueEnum};
use render::{Look, ShowToolCalls};
use repl::{Repl, Session};
use serde_json::Value;
use std::io::IsTerminal;
use vai_chat::{
    ChatEngine, ChatOptions, HistoryError, MAX_ANSWER_TOKENS, MAX_CONTEXT_DOCS, MAX_TURNS,
};
use vai_contract::ChatMode;

/// `vai chat`'s flags; the command's help is its doc comment in `commands/mod.rs`.
#[derive(Debug, Args)]
pub(super) struct ChatArgs {
    /// Database of the knowledge base (default: "db" in .vai.json, VAI_DEFAULT_DB, or the
    /// sample knowledge base).
    #[arg(long)]
    db: Option<String>,
    /// Collection searched (default: "collection" in .vai.json, VAI_DEFAULT_COLLECTION, or the
    /// sample's api_docs).
    #[arg(long)]
    collection: Option<String>,
    /// Resume a kept session (/history lists them).
    #[arg(long, value_name = "ID")]
    session: Option<String>,
    /// LLM provider: anthropic, openai or ollama (instead of VAI_LLM_PROVIDER).
    #[arg(long, value_name = "NAME")]
    llm_provider: Option<String>,
    /// LLM model (instead of VAI_LLM_MODEL; each provider has a default).
    #[arg(long, value_name = "NAME")]
    llm_model: Option<String>,
    /// Documents retrieved as context for each answer [default: 5, or chat.maxContextDocs]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=MAX_CONTEXT_DOCS as i64))]
    max_context_docs: Option<u32>,
    /// The longest answer, in tokens; a longer one is cut off and says so [default: the
    /// provider's (the local model: 256), or chat.maxTokens]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=MAX_ANSWER_TOKENS as i64))]
    max_tokens: Option<u32>,
    /// Earlier turns sent with each question, fewer when they do not fit [default: 20, or
    /// chat.maxTurns]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(0..=MAX_TURNS as i64))]
    max_turns: Option<u32>,
    /// Keep the session in memory only: nothing is written, nothing can be resumed.
    #[arg(long)]
    no_history: bool,
    /// Keep the vector search's order (no reranking).
    #[arg(long)]
    no_rerank: bool,
    /// Print each answer once it is complete instead of as it arrives.
    #[arg(long)]
    no_stream: bool,
    /// Replace the default system prompt.
    #[arg(long, value_name = "TEXT")]
    system_prompt: Option<String>,
    /// A MongoDB pre-filter for the vector search, as a JSON object: '{"category": "api"}'.
    #[arg(long, value_name = "JSON")]
    filter: Option<String>,
    /// How answers are found [default: pipeline, or chat.mode]
    #[arg(long, value_enum)]
    mode: Option<Mode>,
    /// Let agent mode call tools that change the knowledge base (vai_ingest); off by default
    /// (`/allow-writes on` turns it on for a session).
    #[arg(long)]
    allow_writes: bool,
    /// Print one JSON object per turn on stdout: the recorded turn (answer, sources, tool calls,
    /// usage, timings, status) and its sessionId.
    #[arg(long)]
    json: bool,
    /// No banner, progress or timings on stderr.
    #[arg(short, long)]
    quiet: bool,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum Mode {
    /// Search the knowledge base, then answer from what was found.
    Pipeline,
    /// The model calls vai's tools (search, rerank, collections, …) until it can answer.
    Agent,
}

impl ChatArgs {
    /// `.vai.json`'s chat options with the flags over them.
    fn options(&self, mut options: ChatOptions, filter: Option<Value>) -> ChatOptions {
        if let Some(db) = &self.db {
            options.db = Some(db.clone());
        }
        if let Some(collection) = &self.collection {
            options.collection = Some(collection.clone());
        }
        if let Some(n) = self.max_context_docs {
            options.max_context_docs = n as usize;
        }
        if let Some(n) = self.max_turns {
            options.max_turns = n as usize;
        }
        if let Some(n) = self.max_tokens {
            options.max_tokens = Some(n);
        }
        if let Some(mode) = self.mode {
            options.mode = match mode {
                Mode::Pipeline => ChatMode::Pipeline,
                Mode::Agent => ChatMode::Agent,
            };
        }
        if self.no_rerank {
            options.rerank = false;
        }
        if self.no_stream {
            options.stream = false;
        }
        if let Some(prompt) = &self.system_prompt {
            options.system_prompt = Some(prompt.clone());
        }
        if filter.is_some() {
            options.filter = filter;
        }
        if self.allow_writes {
            options.allow_writes = true;
        }
        options.bounded()
    }
}

pub(super) async fn run(args: ChatArgs) -> anyhow::Result<u8> {
    let cwd = std::env::current_dir()?;
    // As flags of the configuration, so they also reach what resolves them there (the
    // database chat sessions are kept in, with MongoDB).
    let flags: Vec<(&str, String)> = [
        ("llm-provider", &args.llm_provider),
        ("llm-model", &args.llm_model),
        ("default-db", &args.db),
        ("default-collection", &args.collection),
    ]
    .into_iter()
    .filter_map(|(key, value)| Some((key, value.clone()?)))
    .collect();
    let cfg = Config::load(&cwd, &flags)?;
    let chat = cfg.project.chat.clone().unwrap_or_default();
    let tools = match ShowToolCalls::from_setting(chat.get("showToolCalls")) {
        Ok(tools) => tools,
        Err(message) => return Ok(invalid(&message)),
    };
    let filter = match args.filter.as_deref().map(parse_filter).transpose() {
        Ok(filter) => filter,
        Err(message) => return Ok(invalid(&message)),
    };
    let look = Look::detect(args.json, args.quiet, tools);

    let app = match app::live(&cfg) {
        Ok(app) => app,
        Err(e) => return Ok(invalid(&format!("{e:#}"))),
    };
    let kept = if args.no_history {
        ChatHistory::Memory
    } else {
        ChatHistory::Kept
    };
    let engine = match app::chat_engine(&cfg, &app, kept) {
        Ok(engine) => engine,
        Err(e) => return Ok(invalid(&format!("{e:#}"))),
    };
    if engine.llm().is_none() {
        return Ok(invalid(engine.no_llm_hint()));
    }
    let options = args.options(app::chat_options(&cfg, &app), filter);
    if let Some(message) = missing_knowledge_base(&options) {
        return Ok(invalid(&message));
    }
    let (session, resumed) = match args.session.as_deref() {
        None => (Session::new(), false),
        Some(id) => match resume(&engine, id, args.no_history).await {
            Ok(session) => (session, true),
            Err((code, message)) => {
                eprintln!("error: {message}");
                return Ok(code);
            }
        },
    };

    match app.prepare_sample().await {
        Some(Ok(line)) if !args.quiet => eprintln!("{line}"),
        Some(Err(e)) => eprintln!("warning: {e}"),
        _ => {}
    }
    let (banner, warning) = banner::banner(&app, &engine, &options, &session, resumed).await;
    if !args.quiet {
        eprintln!("{banner}\n");
    }
    if let Some(warning) = warning {
        eprintln!("{}", look.warning(&warning));
    }

    let repl = Repl {
        engine,
        options,
        session,
        look,
        interactive: std::io::stdin().is_terminal(),
    };
    Ok(repl.run().await)
}

/// Say what is wrong; the exit code for it.
fn invalid(message: &str) -> u8 {
    eprintln!("error: {message}");
    EXIT_INVALID
}

fn parse_filter(text: &str) -> Result<Value, String> {
    match serde_json::from_str::<Value>(text) {
        Ok(filter @ Value::Object(_)) => Ok(filter),
        Ok(_) => Err(format!(
            "--filter must be a JSON object, like '{{\"category\": \"api\"}}', not {text}"
        )),
        Err(e) => Err(format!("--filter is not valid JSON: {e}")),
    }
}

/// What is missing for a chat to search anything: a database, and in pipeline mode a
/// collection (an agent can list the collections and choose).
fn missing_knowledge_base(options: &ChatOptions) -> Option<String> {
    if options.db.is_none() {
        return Some(
            "no knowledge base: name its database with --db (or \"db\" in .vai.json, \
             VAI_DEFAULT_DB, `vai config set default-db NAME`)"
                .to_string(),
        );
    }
    if options.collection.is_none() && options.mode == ChatMode::Pipeline {
        return Some(
            "no knowledge base: name its collection with --collection (or \"collection\" in \
             .vai.json, VAI_DEFAULT_COLLECTION, `vai config set default-collection NAME`)"
                .to_string(),
        );
    }
    None
}

/// Session `id` from the history, or the exit code and what to say.
async fn resume(engine: &ChatEngine, id: &str, no_history: bool) -> Result<Session, (u8, String)> {
    match engine.session(id).await {
        Ok(session) => Ok(Session {
            id: session.id,
            turns: session.turns.len(),
            last: session.turns.last().cloned(),
        }),
        Err(HistoryError::NotFound(_)) => Err((
            EXIT_INVALID,
            format!(
                "no chat session \"{id}\"{}: run `vai chat` and type /history to list the \
                 sessions",
                if no_history {
                    " (--no-history keeps sessions in memory only, so none can be resumed)"
                } else {
                    ""
                }
            ),
        )),
        Err(e @ HistoryError::BadId(_)) => Err((EXIT_INVALID, e.to_string())),
        Err(e) => Err((EXIT_FAILED, e.to_string())),
    }
}
