//! `vai runs rerun ID --from STEP`: run a past run again from one of its steps. The steps
//! upstream of STEP replay their recorded outputs (nothing is called again); STEP and
//! everything downstream run, on the workflow as it is now (or an edited file), with the past
//! run's inputs unless --input changes them. The new run records which run it came from.

use super::drive::{
    Durable, cancel_on_ctrl_c, drive, finish, interactive, journal_failed, journal_limit,
    step_names, store_for,
};
use super::history::read_record;
use crate::exit::EXIT_INVALID;
use crate::traces::TraceArgs;
use crate::{app, config::Config, render};
use clap::Args;
use serde_json::{Value, json};
use std::path::PathBuf;
use std::sync::Arc;
use vai_otlp::Exporter;
use vai_workflow::journal::{RerunFrom, RunStart, changes, definition_hash, new_run_id, now_ms};
use vai_workflow::{Mode, RunOptions};

#[derive(Debug, Args)]
pub(crate) struct RerunArgs {
    /// The past run (see `vai runs list`).
    id: String,
    /// The step to run again from; the steps it does not lead to replay their recorded outputs.
    #[arg(long, value_name = "STEP")]
    from: String,
    /// Change one of the run's inputs, as key=value; repeatable.
    #[arg(short, long = "input", value_name = "KEY=VALUE")]
    inputs: Vec<String>,
    /// Run this (edited) workflow file instead of the run's own.
    #[arg(long, value_name = "FILE")]
    workflow: Option<PathBuf>,
    /// Run the definition exactly as the past run did, even though its file changed since.
    #[arg(long, conflicts_with = "workflow")]
    as_recorded: bool,
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
    pub(super) traces: TraceArgs,
}

pub(crate) async fn rerun(args: RerunArgs, exporter: Option<Exporter>) -> anyhow::Result<u8> {
    let cwd = std::env::current_dir()?;
    let mut cfg = Config::load(&cwd, &[])?;
    cfg.allow_hosts = args.allow_hosts.clone();
    let store = store_for(&cfg)?;
    let Ok(past) = store.read(&args.id).await else {
        // Says why (not found, unreadable) the way `show` does.
        return Ok(read_record(&*store, &args.id)
            .await
            .err()
            .unwrap_or(EXIT_INVALID));
    };
    if past.truncated {
        eprintln!(
            "error: run {} outgrew its journal's budget: its later steps were not recorded, so it cannot be restarted",
            args.id
        );
        return Ok(EXIT_INVALID);
    }
    // Which definition runs: an edited file, the run's file as it is now, or what ran.
    let recorded_source = past.start.source.get("workflow").and_then(Value::as_str);
    let source = args
        .workflow
        .as_ref()
        .map(|p| p.to_string_lossy().into_owned())
        .or_else(|| {
            recorded_source
                .filter(|_| !args.as_recorded)
                .map(str::to_string)
        });
    let located = match &source {
        Some(s) => match vai_runtime::builtin::locate(s) {
            Ok(l) => Some(l),
            Err(e) if args.workflow.is_some() => {
                eprintln!("error: --workflow: {e}");
                return Ok(EXIT_INVALID);
            }
            Err(_) => {
                eprintln!(
                    "note: the run's workflow file is gone; running the definition as recorded"
                );
                None
            }
        },
        None => None,
    };
    let definition = match &located {
        Some(l) => match vai_workflow::load::parse_json(&l.text) {
            Ok(v) => v,
            Err(d) => {
                eprintln!("error: {}: {d}", l.display);
                return Ok(EXIT_INVALID);
            }
        },
        None => past.start.definition.clone(),
    };
    let changed = changes(&past.start.definition, &definition);
    if !changed.is_empty() && !args.quiet {
        eprintln!(
            "note: the workflow changed since run {}: {}",
            args.id,
            changed.join("; ")
        );
    }
    let located =
        located.unwrap_or_else(|| vai_runtime::builtin::Located::inline(&past.start.workflow));
    let offline = app::offline_registry(&cfg);
    let compiled =
        crate::commands::workflow::compile_located(&located, &definition, &offline, Mode::Strict);
    crate::commands::workflow::print_diagnostics(&located.display, &compiled);
    let Some(plan) = compiled.plan.clone() else {
        return Ok(EXIT_INVALID);
    };
    let restart = match vai_workflow::history::restart(&past, &plan, &args.from) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {}: {e}", located.display);
            return Ok(EXIT_INVALID);
        }
    };
    let mut inputs = past.start.inputs.clone();
    for pair in &args.inputs {
        let Some((k, v)) = pair.split_once('=') else {
            eprintln!("error: --input \"{pair}\" must be key=value");
            return Ok(EXIT_INVALID);
        };
        inputs.insert(k.trim().to_string(), Value::String(v.to_string()));
    }
    let app = match app::live(&cfg) {
        Ok(app) => app,
        Err(e) => {
            eprintln!("error: {e:#}");
            return Ok(EXIT_INVALID);
        }
    };
    let base = RunOptions {
        inputs: inputs.clone(),
        defaults_override: past.start.defaults_override.clone(),
        cancel: cancel_on_ctrl_c(),
        limits: cfg.project.limits(),
        capture_inputs: true,
        capture_inputs_max: Some(vai_workflow::journal::MAX_TRACE_INPUTS as u64),
        ..RunOptions::default()
    };
    let run_id = new_run_id();
    let start = RunStart {
        run_id: run_id.clone(),
        workflow: plan.workflow.name.clone(),
        hash: Some(definition_hash(&definition)),
        definition,
        source: match &located.path {
            Some(p) => {
                json!({"workflow": std::path::absolute(p).unwrap_or_else(|_| p.clone()).to_string_lossy()})
            }
            None => past.start.source.clone(),
        },
        inputs,
        defaults_override: past.start.defaults_override.clone(),
        started_at: now_ms(),
        from: Some(RerunFrom {
            run_id: args.id.clone(),
            step: args.from.clone(),
        }),
    };
    let journal = match store.create(&start, journal_limit(&base)).await {
        Ok(j) => j,
        Err(e) => {
            eprintln!("error: the new run cannot be journaled: {e}");
            return Ok(EXIT_INVALID);
        }
    };
    vai_workflow::history::copy_into(&*journal, &past, &restart);
    if !args.quiet {
        eprintln!(
            "run {run_id}: from step \"{}\" of run {} ({} step{} replayed)",
            args.from,
            args.id,
            restart.kept.len(),
            if restart.kept.len() == 1 { "" } else { "s" }
        );
    }
    let progress: Arc<dyn vai_workflow::EventSink> = if args.quiet {
        Arc::new(vai_workflow::events::NoEvents)
    } else {
        Arc::new(render::Progress::new(step_names(&plan), false))
    };
    let mut sink = vai_workflow::history::HistorySink::wrap(progress, journal.clone());
    if let Some(exporter) = exporter {
        sink = exporter.sink(sink, &run_id);
    }
    let durable = Durable {
        store,
        journal,
        run_id: run_id.clone(),
    };
    let result = match drive(
        plan.clone(),
        app.registry.clone(),
        base,
        sink,
        Some(&durable),
        Some(restart.replay),
        interactive(args.json),
    )
    .await
    {
        Ok(r) => r,
        Err(errors) => {
            let ended = durable
                .journal
                .end("failed", Some("the inputs are not valid"))
                .await;
            journal_failed(&run_id, ended);
            durable.close().await;
            for e in errors {
                eprintln!("error: {}: {e}", located.display);
            }
            return Ok(EXIT_INVALID);
        }
    };
    finish(&run_id, &result, &plan, args.json, args.quiet)
}
