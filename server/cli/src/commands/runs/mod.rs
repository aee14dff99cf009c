//! `vai runs …`: the runs journaled where the project keeps them (the data directory, or the
//! team's MongoDB database) — list them, show one, resume one that waits for a person or whose
//! process died, or cancel one (running its compensations).

mod drive;
mod history;
mod prompt;
mod rerun;

pub(crate) use drive::{
    Durable, cancel_on_ctrl_c, drive, exit_code, finish, interactive, journal_failed,
    journal_limit, object_file, report_compensation, report_waiting, server_store, step_names,
    store_for,
};

use super::workflow::compile_located;
use crate::exit::{EXIT_FAILED, EXIT_INVALID, EXIT_OK};
use crate::traces::{TraceArgs, traced};
use crate::{app, config::Config, render};
use clap::{Args, Subcommand};
use serde_json::{Map, Value};
use std::path::PathBuf;
use std::sync::Arc;
use vai_otlp::Exporter;
use vai_workflow::expects::Expects;
use vai_workflow::journal::{JournalError, JournalState, RunBackend, RunJournal, changes};
use vai_workflow::{Mode, RunOptions};

#[derive(Debug, Subcommand)]
pub(super) enum RunsCommand {
    /// List the run history, newest first.
    List(history::ListArgs),
    /// Show one run: its status, each step's outcome, timing and cost, and what it waits for.
    Show(history::ShowArgs),
    /// Compare two runs of a workflow step by step: inputs, outputs (documents that entered,
    /// left or moved in result lists, with score changes), time and cost.
    Diff(history::DiffArgs),
    /// Run a past run again from one of its steps: the steps upstream replay their recorded
    /// outputs.
    Rerun(rerun::RerunArgs),
    /// Remove finished runs from the history (waiting and interrupted runs are kept).
    Prune(history::PruneArgs),
    /// Go on with a run that waits for a person or whose process died: completed steps are
    /// not run again.
    Resume(ResumeArgs),
    /// Cancel a waiting or interrupted run: the compensations of its completed steps run.
    Cancel(CancelArgs),
}

#[derive(Debug, Args)]
pub(super) struct ResumeArgs {
    /// The run id (see `vai runs list`).
    id: String,
    /// A field of the answer to the step the run waits at, as key=value; repeatable.
    #[arg(short, long = "input", value_name = "KEY=VALUE")]
    inputs: Vec<String>,
    /// A JSON file holding the answer object; --input values override it.
    #[arg(long, value_name = "FILE")]
    input_file: Option<PathBuf>,
    /// Resume even though the workflow file changed since the run started.
    #[arg(long)]
    force: bool,
    /// Let `http` steps reach HOST even at a loopback or private address; repeatable.
    #[arg(long = "allow-host", value_name = "HOST")]
    allow_hosts: Vec<String>,
    /// Print the whole result as JSON on stdout.
    #[arg(long)]
    json: bool,
    /// No progress lines on stderr.
    #[arg(short, long)]
    quiet: bool,
    #[command(flatten)]
    traces: TraceArgs,
}

#[derive(Debug, Args)]
pub(super) struct CancelArgs {
    /// The run id (see `vai runs list`).
    id: String,
    /// Let compensating `http` calls reach HOST even at a loopback or private address.
    #[arg(long = "allow-host", value_name = "HOST")]
    allow_hosts: Vec<String>,
}

pub(super) async fn dispatch(cmd: RunsCommand) -> anyhow::Result<u8> {
    match cmd {
        RunsCommand::List(a) => history::list(a).await,
        RunsCommand::Show(a) => history::show(a).await,
        RunsCommand::Diff(a) => history::run_diff(a).await,
        RunsCommand::Rerun(a) => {
            let traces = a.traces.clone();
            traced(&traces, |exporter| rerun::rerun(a, exporter)).await
        }
        RunsCommand::Prune(a) => history::prune(a).await,
        RunsCommand::Resume(a) => {
            let traces = a.traces.clone();
            traced(&traces, |exporter| resume(a, exporter)).await
        }
        RunsCommand::Cancel(a) => cancel(a).await,
    }
}

async fn resume(args: ResumeArgs, exporter: Option<Exporter>) -> anyhow::Result<u8> {
    let cwd = std::env::current_dir()?;
    let mut cfg = Config::load(&cwd, &[])?;
    cfg.allow_hosts = args.allow_hosts.clone();
    let store = store_for(&cfg)?;
    let base_options = RunOptions {
        limits: cfg.project.limits(),
        ..RunOptions::default()
    };
    let limit = journal_limit(&base_options);
    let (state, journal) = match take_unfinished(&*store, &args.id, limit).await {
        Ok(x) => x,
        Err(code) => return Ok(code),
    };
    let durable = Durable {
        store,
        journal,
        run_id: args.id.clone(),
    };
    // However it goes, the run is let go at the end, so another process may take it up.
    let code = resume_taken(&args, &cfg, base_options, state, &durable, exporter).await;
    durable.close().await;
    code
}

/// The rest of `resume`, once this process holds the run.
async fn resume_taken(
    args: &ResumeArgs,
    cfg: &Config,
    base_options: RunOptions,
    state: JournalState,
    durable: &Durable,
    exporter: Option<Exporter>,
) -> anyhow::Result<u8> {
    if state.truncated {
        eprintln!(
            "error: run {} outgrew its journal's budget; it cannot be resumed (start it again)",
            args.id
        );
        return Ok(EXIT_INVALID);
    }
    let source = state.start.source.get("workflow").and_then(Value::as_str);
    let offline = app::offline_registry(cfg);
    let located = source.and_then(|s| vai_runtime::builtin::locate(s).ok());
    let definition = match &located {
        Some(l) => match vai_workflow::load::parse_json(&l.text) {
            Ok(now) => {
                let changed = changes(&state.start.definition, &now);
                if !changed.is_empty() && !args.force {
                    eprintln!(
                        "error: {} changed since run {} started:",
                        l.display, args.id
                    );
                    for c in changed {
                        eprintln!("  - {c}");
                    }
                    eprintln!("resume with --force to run the rest with the file as it is now");
                    return Ok(EXIT_INVALID);
                }
                now
            }
            Err(_) => state.start.definition.clone(),
        },
        None => {
            eprintln!(
                "warning: the workflow's file is gone; resuming with the definition it started with"
            );
            state.start.definition.clone()
        }
    };
    let located =
        located.unwrap_or_else(|| vai_runtime::builtin::Located::inline(&state.start.workflow));
    let compiled = compile_located(&located, &definition, &offline, Mode::Strict);
    super::workflow::print_diagnostics(&located.display, &compiled);
    let Some(plan) = compiled.plan.clone() else {
        return Ok(EXIT_INVALID);
    };
    let mut recorded = state.recorded.clone();
    if let Some(waiting) = &state.waiting {
        let expects = Expects::parse(&waiting.expects).unwrap_or_else(|_| Expects::empty());
        let answer = match answer_from_args(args, &expects) {
            Ok(a) => a,
            Err(e) => {
                eprintln!("error: {e}");
                return Ok(EXIT_INVALID);
            }
        };
        let answer = match answer {
            Some(a) => a,
            None if interactive(args.json) => {
                let asked = waiting.clone();
                match tokio::task::spawn_blocking(move || prompt::ask(&asked)).await? {
                    Some(a) => a,
                    None => return Ok(report_waiting(&args.id, waiting, args.json)),
                }
            }
            None => return Ok(report_waiting(&args.id, waiting, args.json)),
        };
        let errors = expects.check(&answer);
        if !errors.is_empty() {
            for e in &errors {
                eprintln!(
                    "error: step \"{}\": answer field \"{}\" {}",
                    waiting.step_id, e.field, e.message
                );
            }
            eprintln!("the run still waits; nothing was changed");
            return Ok(EXIT_INVALID);
        }
        if let Err(e) = durable
            .journal
            .answer(&waiting.within, &waiting.step_id, &answer)
            .await
        {
            eprintln!("error: run {}: {e}; the run still waits", args.id);
            return Ok(EXIT_FAILED);
        }
        recorded
            .level_mut(&waiting.within)
            .answers
            .insert(waiting.step_id.clone(), answer);
    }
    durable.journal.resumed();
    let app = match app::live(cfg) {
        Ok(app) => app,
        Err(e) => {
            eprintln!("error: {e:#}");
            return Ok(EXIT_INVALID);
        }
    };
    let cancel = cancel_on_ctrl_c();
    let progress: Arc<dyn vai_workflow::EventSink> = if args.quiet {
        Arc::new(vai_workflow::events::NoEvents)
    } else {
        Arc::new(render::Progress::new(step_names(&plan), false))
    };
    let options = RunOptions {
        inputs: state.start.inputs.clone(),
        defaults_override: state.start.defaults_override.clone(),
        cancel,
        capture_inputs: true,
        capture_inputs_max: Some(vai_workflow::journal::MAX_TRACE_INPUTS as u64),
        ..base_options
    };
    let mut sink = vai_workflow::history::HistorySink::wrap(progress, durable.journal.clone());
    if let Some(exporter) = exporter {
        sink = exporter.sink(sink, &args.id);
    }
    let result = match drive(
        plan.clone(),
        app.registry.clone(),
        options,
        sink,
        Some(durable),
        Some(recorded),
        interactive(args.json),
    )
    .await
    {
        Ok(r) => r,
        Err(errors) => {
            for e in errors {
                eprintln!("error: {}: {e}", located.display);
            }
            return Ok(EXIT_INVALID);
        }
    };
    finish(&args.id, &result, &plan, args.json, args.quiet)
}

/// Take up run `id` (this process holds it from now on), unless another process holds it or
/// it ended; `Err` is the exit code, the reason printed.
async fn take_unfinished(
    store: &dyn RunBackend,
    id: &str,
    limit: u64,
) -> Result<(JournalState, Arc<dyn RunJournal>), u8> {
    let (state, journal) = match store.take(id, limit).await {
        Ok(x) => x,
        Err(e @ (JournalError::Busy(_) | JournalError::Leased { .. })) => {
            eprintln!("error: {e}; it cannot be taken up twice at once");
            return Err(EXIT_FAILED);
        }
        Err(e) => {
            eprintln!("error: {e}");
            return Err(EXIT_INVALID);
        }
    };
    if let Some(end) = &state.end {
        eprintln!("error: run {id} already ended ({})", end.status);
        journal_failed(id, journal.close().await);
        return Err(EXIT_INVALID);
    }
    Ok((state, journal))
}

/// The answer given with --input-file and --input, typed as `expects` declares; `None` when
/// neither was given.
fn answer_from_args(args: &ResumeArgs, expects: &Expects) -> anyhow::Result<Option<Value>> {
    if args.inputs.is_empty() && args.input_file.is_none() {
        return Ok(None);
    }
    let mut answer = match &args.input_file {
        Some(file) => object_file(file, "answer")?,
        None => Map::new(),
    };
    for pair in &args.inputs {
        let Some((k, v)) = pair.split_once('=') else {
            anyhow::bail!("--input \"{pair}\" must be key=value");
        };
        answer.insert(k.to_string(), expects.coerce(k, v));
    }
    Ok(Some(Value::Object(answer)))
}

async fn cancel(args: CancelArgs) -> anyhow::Result<u8> {
    let cwd = std::env::current_dir()?;
    let mut cfg = Config::load(&cwd, &[])?;
    cfg.allow_hosts = args.allow_hosts.clone();
    let store = store_for(&cfg)?;
    let limits = cfg.project.limits();
    let (state, journal) =
        match take_unfinished(&*store, &args.id, limits.run_bytes.saturating_mul(2)).await {
            Ok(x) => x,
            Err(code) => return Ok(code),
        };
    let app = match app::live(&cfg) {
        Ok(app) => app,
        Err(e) => {
            eprintln!("error: {e:#}");
            journal_failed(&args.id, journal.close().await);
            return Ok(EXIT_INVALID);
        }
    };
    let report = vai_workflow::exec::compensate_recorded(
        &state.recorded,
        &app.registry,
        limits,
        Arc::new(vai_workflow::events::NoEvents),
        Some(vai_workflow::exec::durable::JournalAt::new(
            journal.clone().as_journal(),
        )),
    )
    .await;
    let ended = journal
        .end("cancelled", Some("cancelled with vai runs cancel"))
        .await
        .and(journal.close().await);
    let mut failed = ended.is_err();
    journal_failed(&args.id, ended);
    for c in &report {
        match &c.error {
            None => eprintln!("compensated: {}", c.step_id),
            Some(e) => {
                failed = true;
                eprintln!("compensation failed: {}: {e}", c.step_id);
            }
        }
    }
    eprintln!("run {} cancelled", args.id);
    Ok(if failed { EXIT_FAILED } else { EXIT_OK })
}
