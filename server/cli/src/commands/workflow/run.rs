//! `vai workflow run`, stepping through the run in a terminal with `--step` and `--break`.

use super::load::{load, print_diagnostics};
use super::step::stepper;
use crate::commands::runs;
use crate::exit::{EXIT_FAILED, EXIT_INVALID, EXIT_OK};
use crate::project::runs::RunsConfig;
use crate::traces::{self, TraceArgs};
use crate::{app, config::Config, render};
use clap::Args;
use serde_json::{Map, Value, json};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use vai_runtime::runs::step_through::{MAX_PACE_MS, breakpoints};
use vai_workflow::{
    Mode, Plan, RunOptions, RunStatus, StepThrough, Stepping, exec::prepare_inputs,
};

/// Run a workflow: a file path or the name of a built-in or example.
#[derive(Debug, Args)]
pub(crate) struct RunArgs {
    /// Workflow file, or the name of a built-in (see `vai workflow list`).
    pub workflow: String,
    /// An input as key=value; repeatable. Values are converted to the declared type
    /// (numbers, true/false, JSON arrays and objects, or a,b,c for arrays).
    #[arg(short, long = "input", value_name = "KEY=VALUE")]
    pub inputs: Vec<String>,
    /// A JSON file holding an object of inputs; --input values override it.
    #[arg(long, value_name = "FILE")]
    pub inputs_file: Option<PathBuf>,
    /// Database for steps that do not name one (overrides the workflow's defaults.db).
    #[arg(long)]
    pub db: Option<String>,
    /// Collection for steps that do not name one (overrides defaults.collection).
    #[arg(long)]
    pub collection: Option<String>,
    /// Print the whole result (status, output, steps, usage) as JSON on stdout.
    #[arg(long)]
    pub json: bool,
    /// No progress lines on stderr.
    #[arg(short, long)]
    pub quiet: bool,
    /// Also print each step's start and output.
    #[arg(short, long)]
    pub verbose: bool,
    /// Show the plan (inputs, layers, parallel steps, estimated API calls) without running.
    #[arg(long)]
    pub dry_run: bool,
    /// Let `http` steps reach HOST (`name`, `name:port` or an IP address) even at a loopback,
    /// private or link-local address; repeatable. Adds to allowedHosts in .vai.json.
    #[arg(long = "allow-host", value_name = "HOST")]
    pub allow_hosts: Vec<String>,
    /// Step through the run in a terminal: before each step, show it and the inputs it will get
    /// and wait. Enter runs the step, c then Enter runs on to the end (or the next --break), q
    /// then Enter or Ctrl-C cancels.
    #[arg(long)]
    pub step: bool,
    /// Pause before step STEP, as --step does before every step; repeatable. Needs a terminal.
    #[arg(long = "break", value_name = "STEP")]
    pub breakpoints: Vec<String>,
    /// Show each step running for at least MS milliseconds (up to 10000), to narrate a fast
    /// workflow; the times reported stay the steps' own.
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(0..=MAX_PACE_MS))]
    pub pace: Option<u64>,
    #[command(flatten)]
    pub traces: TraceArgs,
}

pub(super) async fn run(args: RunArgs) -> anyhow::Result<u8> {
    let trace_args = args.traces.clone();
    traces::traced(&trace_args, |exporter| async move {
        run_traced(args, exporter.as_ref()).await
    })
    .await
}

async fn run_traced(args: RunArgs, exporter: Option<&vai_otlp::Exporter>) -> anyhow::Result<u8> {
    let cwd = std::env::current_dir()?;
    let mut cfg = Config::load(&cwd, &[])?;
    cfg.allow_hosts = args.allow_hosts.clone();
    let offline = app::offline_registry(&cfg);
    let (located, compiled) = match load(&args.workflow, &offline, Mode::Strict) {
        Ok(x) => x,
        Err(code) => return Ok(code),
    };
    print_diagnostics(&located.display, &compiled);
    let Some(plan) = compiled.plan.clone() else {
        return Ok(EXIT_INVALID);
    };

    let inputs = match collect_inputs(&args) {
        Ok(i) => i,
        Err(e) => {
            eprintln!("error: {e}");
            return Ok(EXIT_INVALID);
        }
    };
    for key in inputs.keys() {
        if !plan.workflow.inputs.contains_key(key) {
            eprintln!(
                "warning: {}: input \"{key}\" is not declared by the workflow (passed through)",
                located.display
            );
        }
    }
    let mut defaults_override = Map::new();
    if let Some(db) = &args.db {
        defaults_override.insert("db".into(), json!(db));
    }
    if let Some(c) = &args.collection {
        defaults_override.insert("collection".into(), json!(c));
    }

    if args.dry_run {
        return Ok(dry_run(
            &plan,
            &offline,
            &inputs,
            &defaults_override,
            args.json,
        ));
    }
    let step_through = match step_through(&args, &plan) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return Ok(EXIT_INVALID);
        }
    };
    let app = match app::live(&cfg) {
        Ok(app) => app,
        Err(e) => {
            eprintln!("error: {e:#}");
            return Ok(EXIT_INVALID);
        }
    };
    if let (true, Some(local)) = (args.verbose, &app.local) {
        // Step errors name the store without its path; the path is shown here.
        eprintln!("local store: {}", local.store.path().display());
    }
    if app.needs_store(&plan) {
        match app.prepare_sample().await {
            Some(Ok(line)) if !args.quiet => eprintln!("{line}"),
            Some(Err(e)) => eprintln!("warning: {e}"),
            _ => {}
        }
    }

    let cancel = runs::cancel_on_ctrl_c();
    let names = runs::step_names(&plan);
    let mut sink: Arc<dyn vai_workflow::EventSink> = if args.quiet {
        Arc::new(vai_workflow::events::NoEvents)
    } else {
        Arc::new(render::Progress::new(names.clone(), args.verbose))
    };
    // The person at the terminal decides how long a pause lasts.
    let stepping = step_through.map(|settings| Stepping::new(settings, Duration::MAX));
    if let Some(stepping) = &stepping
        && (args.step || !args.breakpoints.is_empty())
    {
        let has_breakpoints = !args.breakpoints.is_empty();
        let stepper = stepper(
            sink,
            !args.quiet,
            names,
            has_breakpoints,
            stepping.clone(),
            cancel.clone(),
        );
        sink = Arc::new(stepper);
    }
    let options = RunOptions {
        inputs: inputs.clone(),
        defaults_override: defaults_override.clone(),
        cancel,
        limits: cfg.project.limits(),
        stepping,
        // History keeps what each step ran with.
        capture_inputs: true,
        capture_inputs_max: Some(vai_workflow::journal::MAX_TRACE_INPUTS as u64),
        ..RunOptions::default()
    };
    let compiled_value = vai_workflow::load::parse_json(&located.text).unwrap_or(Value::Null);
    // Journaled where the project keeps runs (the data directory, or the team's MongoDB), so a
    // run that waits or whose process dies goes on later. A shared store that is configured
    // wrongly is an error; a data directory that cannot be used only loses the journal.
    let durable = match runs::store_for(&cfg) {
        Err(e) if cfg.project.runs != RunsConfig::File => return Err(e),
        Ok(store) => {
            let run_id = vai_workflow::journal::new_run_id();
            let source = match &located.path {
                Some(p) => std::path::absolute(p).unwrap_or_else(|_| p.clone()),
                None => PathBuf::from(&located.name),
            };
            let start = vai_workflow::journal::RunStart {
                run_id: run_id.clone(),
                workflow: plan.workflow.name.clone(),
                source: json!({"workflow": source.to_string_lossy()}),
                hash: Some(vai_workflow::journal::definition_hash(&compiled_value)),
                definition: compiled_value,
                inputs,
                defaults_override,
                started_at: vai_workflow::journal::now_ms(),
                from: None,
            };
            match store.create(&start, runs::journal_limit(&options)).await {
                Ok(journal) => Some(runs::Durable {
                    store,
                    journal,
                    run_id,
                }),
                Err(e) => {
                    eprintln!("warning: the run is not journaled: {e}");
                    None
                }
            }
        }
        Err(e) => {
            if args.verbose {
                eprintln!("warning: the run is not journaled: {e}");
            }
            None
        }
    };
    if let Some(d) = &durable {
        sink = vai_workflow::history::HistorySink::wrap(sink, d.journal.clone());
    }
    if let Some(exporter) = exporter {
        let run_id = durable
            .as_ref()
            .map_or_else(vai_workflow::journal::new_run_id, |d| d.run_id.clone());
        sink = exporter.sink(sink, &run_id);
    }
    let interactive = runs::interactive(args.json);
    let result = match runs::drive(
        plan.clone(),
        app.registry.clone(),
        options,
        sink,
        durable.as_ref(),
        None,
        interactive,
    )
    .await
    {
        Ok(r) => r,
        Err(errors) => {
            if let Some(d) = &durable {
                let ended = d
                    .journal
                    .end("failed", Some("the inputs are not valid"))
                    .await;
                runs::journal_failed(&d.run_id, ended);
                d.close().await;
            }
            for e in errors {
                eprintln!("error: {}: {e}", located.display);
            }
            return Ok(EXIT_INVALID);
        }
    };
    if result.status == RunStatus::Waiting {
        let (Some(d), Some(w)) = (&durable, &result.waiting) else {
            eprintln!(
                "error: {}: the run waits for a person but cannot be saved (no data directory)",
                located.display
            );
            return Ok(EXIT_FAILED);
        };
        return Ok(runs::report_waiting(&d.run_id, w, args.json));
    }

    if args.json {
        let mut body = serde_json::to_value(&result)?;
        if let (Some(d), Value::Object(map)) = (&durable, &mut body) {
            map.insert("runId".into(), json!(d.run_id));
        }
        println!("{}", serde_json::to_string_pretty(&body)?);
    } else if let Some(output) = &result.output {
        println!(
            "{}",
            render::output(output, plan.workflow.formatters.as_ref())
        );
    }
    if !args.quiet {
        runs::report_compensation(&result);
        if result.status == RunStatus::Failed {
            eprintln!(
                "error: {}: {}",
                located.display,
                result.error.as_deref().unwrap_or("the run failed")
            );
        }
        let line = render::finished(result.status, result.duration_ms, &result.usage);
        let run = durable.as_ref().map(|d| format!("run {}", d.run_id));
        let line: Vec<String> = line.into_iter().chain(run).collect();
        if !line.is_empty() {
            eprintln!("{}", line.join(" · "));
        }
    }
    Ok(runs::exit_code(result.status))
}

/// The run's step-through settings from `--step`, `--break` and `--pace`, or none. Pausing
/// needs a terminal to answer on; a pace alone does not.
fn step_through(args: &RunArgs, plan: &Plan) -> anyhow::Result<Option<StepThrough>> {
    let pauses = args.step || !args.breakpoints.is_empty();
    if pauses && !std::io::stdin().is_terminal() {
        let flag = if args.step { "--step" } else { "--break" };
        anyhow::bail!("{flag} needs a terminal (stdin is not one)");
    }
    if !pauses && args.pace.is_none() {
        return Ok(None);
    }
    let breakpoints = breakpoints(
        |id| plan.step_index(id).is_some(),
        plan.steps.len(),
        args.breakpoints.clone(),
        "--break",
    )
    .map_err(anyhow::Error::msg)?;
    Ok(Some(StepThrough {
        pause_each: args.step,
        breakpoints,
        pace_ms: args.pace.unwrap_or(0),
    }))
}

fn collect_inputs(args: &RunArgs) -> anyhow::Result<Map<String, Value>> {
    let mut inputs = match &args.inputs_file {
        Some(file) => runs::object_file(file, "inputs")?,
        None => Map::new(),
    };
    for pair in &args.inputs {
        let Some((k, v)) = pair.split_once('=') else {
            anyhow::bail!("--input \"{pair}\" must be key=value");
        };
        let k = k.trim();
        if k.is_empty() {
            anyhow::bail!("--input \"{pair}\" has an empty key");
        }
        inputs.insert(k.to_string(), Value::String(v.to_string()));
    }
    Ok(inputs)
}

/// A child workflow's plan as `--dry-run --json` shows it: its name and steps, children nested.
fn child_json(plan: &Plan) -> Value {
    let steps: Vec<Value> = plan
        .steps
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let mut step = json!({"id": s.id, "tool": s.tool});
            if let Some(child) = plan.children.get(&i) {
                step["child"] = child_json(child);
            }
            step
        })
        .collect();
    json!({"name": plan.workflow.name, "file": plan.label, "steps": steps})
}

/// Print the steps of the child workflows of `plan`'s step `i`, indented by `depth`.
fn print_child(plan: &Plan, i: usize, depth: usize) {
    let Some(child) = plan.children.get(&i) else {
        return;
    };
    let pad = "    ".repeat(depth + 2);
    println!("{pad}└ runs {} ({}):", child.workflow.name, child.label);
    for (j, s) in child.steps.iter().enumerate() {
        println!("{pad}    {} → {}", s.id, s.tool);
        print_child(child, j, depth + 1);
    }
}

fn dry_run(
    plan: &Plan,
    registry: &vai_workflow::Registry,
    inputs: &Map<String, Value>,
    overrides: &Map<String, Value>,
    as_json: bool,
) -> u8 {
    let (effective, problems) = match prepare_inputs(&plan.workflow, inputs) {
        Ok(i) => (i, Vec::new()),
        Err(errs) => {
            let mut partial = inputs.clone();
            for (k, d) in &plan.workflow.inputs {
                if let (false, Some(v)) = (partial.contains_key(k), &d.default) {
                    partial.insert(k.clone(), v.clone());
                }
            }
            (partial, errs.iter().map(ToString::to_string).collect())
        }
    };
    let estimate = vai_workflow::estimate_plan(plan, registry);
    let mut defaults = plan.workflow.defaults.clone();
    defaults.extend(overrides.clone());
    if as_json {
        let steps: Vec<Value> = plan
            .steps
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let mut step = json!({"id": s.id, "name": s.name, "tool": s.tool, "dependsOn": s.deps.iter().map(|&d| &plan.steps[d].id).collect::<Vec<_>>(), "condition": s.condition.is_some(), "forEach": s.for_each.is_some()});
                if let Some(child) = plan.children.get(&i) {
                    step["child"] = child_json(child);
                }
                step
            })
            .collect();
        let out = json!({
            "name": plan.workflow.name,
            "inputs": effective,
            "defaults": defaults,
            "missingInputs": problems,
            "layers": plan.layer_ids(),
            "steps": steps,
            "apiCalls": estimate,
        });
        println!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
        return EXIT_OK;
    }
    println!(
        "Plan for \"{}\" ({} steps, {} layers)",
        plan.workflow.name,
        plan.steps.len(),
        plan.layers.len()
    );
    if !effective.is_empty() {
        println!("\nInputs:");
        for (k, v) in &effective {
            println!(
                "  {k} = {}",
                vai_workflow::value::truncate_chars(&v.to_string(), 70)
            );
        }
    }
    for p in &problems {
        println!("  ! {p}");
    }
    if !defaults.is_empty() {
        println!("\nDefaults:");
        for (k, v) in &defaults {
            println!("  {k} = {v}");
        }
    }
    println!("\nExecution plan:");
    let mut n = 0;
    for (li, layer) in plan.layers.iter().enumerate() {
        println!("  Layer {}", li + 1);
        for &i in layer {
            n += 1;
            let s = &plan.steps[i];
            let mut notes = Vec::new();
            if s.condition.is_some() {
                notes.push("conditional".to_string());
            }
            if s.for_each.is_some() {
                notes.push(format!("forEach ×{}", s.for_each_concurrency));
            }
            if s.continue_on_error {
                notes.push("continueOnError".to_string());
            }
            let notes = if notes.is_empty() {
                String::new()
            } else {
                format!("  [{}]", notes.join(", "))
            };
            println!(
                "    {n}. {} → {}({}){notes}",
                s.id,
                s.tool,
                describe_inputs(&plan.workflow.steps[i].inputs)
            );
            print_child(plan, i, 0);
            if let vai_workflow::compile::StepKind::Router { routes } = &s.kind {
                let each: Vec<String> = routes
                    .iter()
                    .map(|r| {
                        let steps: Vec<&str> =
                            r.steps.iter().map(|&j| plan.steps[j].id.as_str()).collect();
                        match steps.is_empty() {
                            true => format!("{} → (nothing)", r.id),
                            false => format!("{} → {}", r.id, steps.join(", ")),
                        }
                    })
                    .collect();
                println!("       routes: {} (one runs)", each.join("; "));
            }
        }
        if layer.len() > 1 {
            let ids: Vec<&str> = layer.iter().map(|&i| plan.steps[i].id.as_str()).collect();
            println!("       ({} run in parallel)", join_and(&ids));
        }
    }
    println!("\nEstimated API calls:");
    let (f, p) = (estimate.fixed, estimate.per_item);
    for (label, fixed, per_item) in [
        ("embeddings", f.embed, p.embed),
        ("reranks", f.rerank, p.rerank),
        ("vector searches", f.vector_search, p.vector_search),
        ("LLM calls", f.llm, p.llm),
        ("HTTP requests", f.http, p.http),
    ] {
        let extra = if per_item > 0 {
            format!(" + {per_item} per forEach/loop item")
        } else {
            String::new()
        };
        println!("  {label:<16} {fixed}{extra}");
    }
    if let Some(cost) = &estimate.cost {
        println!();
        for line in render::estimate_cost(cost) {
            println!("{line}");
        }
    }
    EXIT_OK
}

fn describe_inputs(inputs: &Map<String, Value>) -> String {
    inputs
        .iter()
        .filter_map(|(k, v)| match v {
            Value::String(s) => Some(format!(
                "{k}={}",
                vai_workflow::value::truncate_chars(s, 30)
            )),
            Value::Number(_) | Value::Bool(_) => Some(format!("{k}={v}")),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn join_and(ids: &[&str]) -> String {
    match ids {
        [] => String::new(),
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}
