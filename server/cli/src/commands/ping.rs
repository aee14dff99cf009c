//! `vai ping`: check every configured provider with one small real call each.

use crate::exit::{EXIT_FAILED, EXIT_OK};
use crate::{app, config::Config};
use clap::Args;
use std::future::Future;
use std::time::{Duration, Instant};
use vai_providers::llm::CompletionRequest;
use vai_providers::local::llm::LocalLlm;
use vai_providers::{EmbedInputType, EmbedRequest, Message};

/// Check each provider (Voyage AI, MongoDB, LLM, the local backend): one line each, with a hint
/// when something is wrong.
#[derive(Debug, Args)]
pub(super) struct PingArgs {
    /// Give up on a provider after this many seconds.
    #[arg(long, default_value_t = 20)]
    pub timeout: u64,
}

struct Line {
    ok: Option<bool>,
    name: &'static str,
    text: String,
    hint: Option<String>,
}

pub(super) async fn run(args: PingArgs) -> anyhow::Result<u8> {
    let cfg = Config::load(&std::env::current_dir()?, &[])?;
    let limit = Duration::from_secs(args.timeout.max(1));
    let mut lines = Vec::new();
    let app = match app::live(&cfg) {
        Ok(app) => app,
        Err(e) => {
            println!("✗ setup     {e:#}");
            return Ok(EXIT_FAILED);
        }
    };
    let providers = &app.providers;

    // Embeddings (Voyage AI or the local model).
    if let Some(embedder) = &providers.embedder {
        let name = if cfg.value("api-key").is_some() {
            "voyage"
        } else {
            "local"
        };
        let request = EmbedRequest {
            texts: vec!["ping".into()],
            model: providers.settings.default_embedding_model.clone(),
            input_type: Some(EmbedInputType::Query),
            dimensions: None,
        };
        lines.push(
            timed(limit, embedder.embed(request), |r| format!("embeddings ok ({}, {} dimensions)", r.model, r.embeddings.first().map_or(0, Vec::len)))
                .await
                .into_line(name, match name {
                    "voyage" => "check VOYAGE_API_KEY (`vai config set api-key …`) and VOYAGE_API_BASE",
                    _ => "install the local model with `bash scripts/fetch-model.sh` (or `npm start`), or set VAI_MODEL_DIR",
                }),
        );
    }

    // The vector store (MongoDB or the local store).
    if let Some(store) = &providers.store {
        let name = if cfg.value("mongodb-uri").is_some() {
            "mongodb"
        } else {
            "store"
        };
        let db = providers
            .settings
            .resolve_db("ping", None, &serde_json::Value::Null)
            .unwrap_or_else(|_| "admin".into());
        let shown_db = db.clone();
        // Store errors name no path (they may reach a browser); this is where the file is shown.
        let file = app
            .local
            .as_ref()
            .map(|l| l.store.path().display().to_string());
        let place = file.as_ref().map(|f| format!(" ({f})")).unwrap_or_default();
        let hint = match name {
            "mongodb" => "check MONGODB_URI (`vai config set mongodb-uri …`), network access and that the cluster is Atlas".to_string(),
            _ => format!("the local store file{place} may be damaged: move it aside and vai creates a new one"),
        };
        lines.push(
            timed(limit, store.list_collections(&db), move |cols| {
                let indexed = cols.iter().filter(|c| c.vector_index.is_some()).count();
                format!("{} ok: database \"{shown_db}\" has {} collection(s), {indexed} with a vector index{place}", store.name(), cols.len())
            })
            .await
            .into_line(name, &hint),
        );
    }

    // The LLM.
    match &providers.llm {
        Some(llm) => {
            let request = CompletionRequest {
                system: None,
                messages: vec![Message::user("Reply with the single word OK.")],
                model: None,
                temperature: Some(0.0),
                max_tokens: Some(5),
                tools: Vec::new(),
                response_format: None,
            };
            let name = llm.name().to_string();
            let local = name == LocalLlm::NAME;
            lines.push(
                timed(limit, llm.complete(request), |c| match local {
                    true => format!("{} ok (no LLM provider configured)", LocalLlm::LABEL),
                    false => format!("{name} ok ({})", c.model),
                })
                    .await
                    .into_line("llm", "check VAI_LLM_PROVIDER, VAI_LLM_API_KEY, VAI_LLM_MODEL and VAI_LLM_BASE_URL"),
            );
            if local {
                lines.push(Line {
                    ok: None,
                    name: "",
                    text: "it quotes sources rather than writing; for fluent answers configure Ollama \
                           (offline: `vai config set llm-provider ollama`), OpenAI or Anthropic, or \
                           use an MCP client's model through sampling (docs/configuration.md)"
                        .into(),
                    hint: None,
                });
            }
        }
        None => lines.push(Line {
            ok: None,
            name: "llm",
            text: "not configured (generate steps need one)".into(),
            hint: Some("`vai config set llm-provider anthropic|openai|ollama` and `vai config set llm-api-key …`, or `bash scripts/fetch-model.sh` for the small local model".into()),
        }),
    }

    let mut failed = false;
    for l in &lines {
        let mark = match l.ok {
            Some(true) => "✔",
            Some(false) => "✗",
            None => "-",
        };
        println!("{mark} {:<8}  {}", l.name, l.text);
        if let (false, Some(h)) = (l.ok == Some(true), &l.hint) {
            println!("    hint: {h}");
        }
        failed |= l.ok == Some(false);
    }
    Ok(if failed { EXIT_FAILED } else { EXIT_OK })
}

enum Outcome {
    Ok(String, Duration),
    Err(String),
}

impl Outcome {
    fn into_line(self, name: &'static str, hint: &str) -> Line {
        match self {
            Outcome::Ok(text, took) => Line {
                ok: Some(true),
                name,
                text: format!("{text}  [{}ms]", took.as_millis()),
                hint: None,
            },
            Outcome::Err(e) => Line {
                ok: Some(false),
                name,
                text: e,
                hint: Some(hint.to_string()),
            },
        }
    }
}

async fn timed<T, E: std::fmt::Display>(
    limit: Duration,
    call: impl Future<Output = Result<T, E>>,
    describe: impl FnOnce(T) -> String,
) -> Outcome {
    let started = Instant::now();
    match tokio::time::timeout(limit, call).await {
        Ok(Ok(v)) => Outcome::Ok(describe(v), started.elapsed()),
        Ok(Err(e)) => Outcome::Err(e.to_string()),
        Err(_) => Outcome::Err(format!("no answer within {} s", limit.as_secs())),
    }
}
