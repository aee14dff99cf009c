//! Driving a durable run from the command line: the run is journaled in the data directory; at
//! a `yield`, a person at a terminal answers field by field and the run goes on in this
//! process; without a terminal the run stays saved as waiting and the process says how to go
//! on (exit code 3).

use super::prompt;
use crate::config::Config;
use crate::exit::{EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK, EXIT_WAITING};
use crate::project::runs::RunsConfig;
use crate::render;
use serde_json::{Map, Value, json};
use std::io::IsTerminal;
use std::sync::Arc;
use vai_mongo_runs::MongoRuns;
use vai_workflow::exec::durable::{JournalAt, Recorded};
use vai_workflow::exec::{InputError, Waiting};
use vai_workflow::journal::{JournalError, RunBackend, RunJournal, RunStore};
use vai_workflow::{EventSink, Plan, Registry, RunOptions, RunResult, RunStatus};

/// The JSON object in `file` (`what` names it in errors: "the inputs file must hold …").
pub(crate) fn object_file(
    file: &std::path::Path,
    what: &str,
) -> anyhow::Result<Map<String, Value>> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", file.display()))?;
    match serde_json::from_str::<Value>(&text) {
        Ok(Value::Object(m)) => Ok(m),
        Ok(_) => anyhow::bail!(
            "{}: the {what} file must hold a JSON object",
            file.display()
        ),
        Err(e) => anyhow::bail!("{}: not valid JSON: {e}", file.display()),
    }
}

/// A cancellation that Ctrl-C triggers (the run stops, with compensation).
pub(crate) fn cancel_on_ctrl_c() -> tokio_util::sync::CancellationToken {
    let cancel = tokio_util::sync::CancellationToken::new();
    let on_signal = cancel.clone();
    tokio::spawn(async move {
        if tokio::signal::ctrl_c().await.is_ok() {
            eprintln!("\ninterrupted: cancelling the run…");
            on_signal.cancel();
        }
    });
    cancel
}

/// The step names of `plan`, by id, for progress lines.
pub(crate) fn step_names(plan: &Plan) -> std::collections::HashMap<String, String> {
    plan.steps
        .iter()
        .map(|s| (s.id.clone(), s.name.clone()))
        .collect()
}

/// The data directory's own store of run journals (`runs/`).
pub(crate) fn file_store() -> anyhow::Result<RunStore> {
    let path = vai_providers::local::store::LocalStore::default_path()
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let data = path
        .parent()
        .ok_or_else(|| anyhow::anyhow!("no data directory"))?;
    Ok(RunStore::open(data)?)
}

/// Where the playground and `vai mcp` keep their runs: the store `.vai.json` chooses, as for
/// `vai workflow run`. A shared store configured wrongly is an error (naming the file and the
/// field); a data directory that cannot be used leaves their runs in memory only.
pub(crate) fn server_store(cfg: &Config) -> anyhow::Result<Option<Arc<dyn RunBackend>>> {
    match store_for(cfg) {
        Ok(store) => {
            if store.kind() != "file" {
                eprintln!("runs: kept in {} ({})", store.kind(), store.location());
            }
            Ok(Some(store))
        }
        Err(e) if cfg.project.runs != RunsConfig::File => Err(e),
        Err(_) => Ok(None),
    }
}

/// Where this project keeps its runs (`.vai.json` `runs`), for a process started here.
pub(crate) fn store() -> anyhow::Result<Arc<dyn RunBackend>> {
    let cfg = Config::load(&std::env::current_dir()?, &[])?;
    store_for(&cfg)
}

/// Where runs are kept under `cfg`: the data directory, or the team's MongoDB database — on
/// `runs.uri`, else the MongoDB connection string vai already has (`mongodb-uri`).
pub(crate) fn store_for(cfg: &Config) -> anyhow::Result<Arc<dyn RunBackend>> {
    match &cfg.project.runs {
        RunsConfig::File => Ok(Arc::new(
            file_store()?.with_retention(cfg.project.retention),
        )),
        RunsConfig::Mongo { uri, database } => {
            let file = cfg
                .project
                .path
                .as_ref()
                .map_or_else(|| ".vai.json".to_string(), |p| p.display().to_string());
            let Some(uri) = uri.as_deref().or_else(|| cfg.value("mongodb-uri")) else {
                anyhow::bail!(
                    "{file}: runs.store is \"mongodb\" but no MongoDB connection string is \
                     configured: set MONGODB_URI (or `vai config set mongodb-uri …`), or give \
                     runs.uri"
                );
            };
            // Parsing only; the message never holds the password.
            let mongo = vai_providers::mongo::MongoStore::connect(uri)
                .map_err(|e| anyhow::anyhow!("{file}: runs.store is \"mongodb\": {e}"))?;
            Ok(Arc::new(
                MongoRuns::new(mongo, database.as_str()).with_retention(cfg.project.retention),
            ))
        }
    }
}

/// The most bytes a run's journal may take: twice what its step outputs may.
pub(crate) fn journal_limit(options: &RunOptions) -> u64 {
    options.limits.run_bytes.saturating_mul(2)
}

/// A journaled run being driven.
pub(crate) struct Durable {
    pub(crate) store: Arc<dyn RunBackend>,
    pub(crate) journal: Arc<dyn RunJournal>,
    pub(crate) run_id: String,
}

impl Durable {
    /// Store everything written and let the run go (another machine may take it up); a journal
    /// that could not be written is said, with the run's id.
    pub(crate) async fn close(&self) {
        if let Err(e) = self.journal.close().await {
            eprintln!("error: run {}: {e}", self.run_id);
        }
    }
}

/// Say that the journal could not store what the run did (the run itself goes on).
pub(crate) fn journal_failed(run_id: &str, result: Result<(), JournalError>) {
    if let Err(e) = result {
        eprintln!("error: run {run_id}: {e}");
    }
}

/// Whether a person can answer at this terminal.
pub(crate) fn interactive(json: bool) -> bool {
    !json && std::io::stdin().is_terminal() && std::io::stderr().is_terminal()
}

/// Run `plan` (replaying `replay`) until it ends, answering waits at the terminal when
/// `interactive`; the journal is told how it ended unless it waits.
pub(crate) async fn drive(
    plan: Arc<Plan>,
    registry: Arc<Registry>,
    base: RunOptions,
    sink: Arc<dyn EventSink>,
    durable: Option<&Durable>,
    mut replay: Option<Recorded>,
    interactive: bool,
) -> Result<RunResult, Vec<InputError>> {
    loop {
        let options = RunOptions {
            journal: durable.map(|d| JournalAt::new(d.journal.clone().as_journal())),
            replay: replay.clone().map(Arc::new),
            ..base.clone()
        };
        let result =
            vai_workflow::run(plan.clone(), registry.clone(), options, sink.clone()).await?;
        if let (RunStatus::Waiting, Some(d), true) = (result.status, durable, interactive)
            && let Some(waiting) = result.waiting.clone()
        {
            let asked = waiting.clone();
            let answer = tokio::task::spawn_blocking(move || prompt::ask(&asked))
                .await
                .ok()
                .flatten();
            if let Some(answer) = answer {
                let stored = d
                    .journal
                    .answer(&waiting.within, &waiting.step_id, &answer)
                    .await;
                journal_failed(&d.run_id, stored);
                replay = d.store.read(&d.run_id).await.ok().map(|s| s.recorded);
                continue;
            }
        }
        if let Some(d) = durable {
            if result.status != RunStatus::Waiting {
                let stored = d.journal.finish(&result).await;
                journal_failed(&d.run_id, stored);
            }
            d.close().await;
        }
        return Ok(result);
    }
}

/// What to say when a run stops to wait, and the exit code.
pub(crate) fn report_waiting(run_id: &str, waiting: &Waiting, json: bool) -> u8 {
    if json {
        let body = json!({
            "status": "waiting",
            "runId": run_id,
            "stepId": waiting.step_id,
            "within": waiting.within,
            "message": waiting.message,
            "expects": waiting.expects,
        });
        println!(
            "{}",
            serde_json::to_string_pretty(&body).unwrap_or_default()
        );
    } else {
        eprintln!(
            "waiting: run {run_id} waits at step \"{}\": {}",
            waiting.step_id, waiting.message
        );
        let example = prompt::example_inputs(&waiting.expects);
        eprintln!("answer with: vai runs resume {run_id}{example}");
    }
    EXIT_WAITING
}

/// The exit code of a run that ended.
pub(crate) fn exit_code(status: RunStatus) -> u8 {
    match status {
        RunStatus::Completed => EXIT_OK,
        RunStatus::Failed => EXIT_FAILED,
        RunStatus::Cancelled => EXIT_INTERRUPTED,
        RunStatus::Waiting => EXIT_WAITING,
    }
}

/// Print what the compensations of a run that ended badly did.
pub(crate) fn report_compensation(result: &RunResult) {
    for c in &result.compensation {
        match &c.error {
            None => eprintln!("compensated: {}", c.step_id),
            Some(e) => eprintln!("compensation failed: {}: {e}", c.step_id),
        }
    }
}

/// Print a run's end as `vai workflow run` does, and its exit code.
pub(crate) fn finish(
    run_id: &str,
    result: &RunResult,
    plan: &Plan,
    json: bool,
    quiet: bool,
) -> anyhow::Result<u8> {
    if let (RunStatus::Waiting, Some(w)) = (result.status, &result.waiting) {
        return Ok(report_waiting(run_id, w, json));
    }
    if json {
        let mut body = serde_json::to_value(result)?;
        body["runId"] = json!(run_id);
        println!("{}", serde_json::to_string_pretty(&body)?);
    } else if let Some(output) = &result.output {
        println!(
            "{}",
            render::output(output, plan.workflow.formatters.as_ref())
        );
    }
    if !quiet {
        report_compensation(result);
        if result.status == RunStatus::Failed {
            eprintln!(
                "error: run {run_id}: {}",
                result.error.as_deref().unwrap_or("the run failed")
            );
        }
        let line = render::finished(result.status, result.duration_ms, &result.usage);
        let line: Vec<String> = line.into_iter().chain([format!("run {run_id}")]).collect();
        eprintln!("{}", line.join(" · "));
    }
    Ok(exit_code(result.status))
}
