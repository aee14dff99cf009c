//! `vai runs list | show | prune | diff`: the run history, wherever the project keeps it.

use super::drive::store;
use crate::exit::{EXIT_INVALID, EXIT_OK};
use crate::project::runs::parse_age;
use crate::render::usage::{dollars, usage};
use clap::Args;
use serde_json::{Value, json};
use vai_workflow::history::{RunDiff, RunRecord, StepDiff, diff};
use vai_workflow::journal::{Retention, RunBackend, RunInfo, now_ms};

#[derive(Debug, Args)]
pub(crate) struct ListArgs {
    /// Only runs with this status (running, waiting, interrupted, completed, failed, cancelled).
    #[arg(long)]
    status: Option<String>,
    /// Only runs of this workflow (its name, or the file or built-in it ran from).
    #[arg(long)]
    workflow: Option<String>,
    /// Only runs started since: a duration ago (`30m`, `2h`, `7d`) or a date (`2026-11-28`).
    #[arg(long, value_name = "WHEN")]
    since: Option<String>,
    /// At most this many runs (newest first).
    #[arg(long, default_value_t = 50)]
    limit: usize,
    #[arg(long)]
    json: bool,
}

#[derive(Debug, Args)]
pub(crate) struct ShowArgs {
    /// The run id (see `vai runs list`).
    id: String,
    /// Print one step's recorded inputs and output in full.
    #[arg(long, value_name = "STEP")]
    step: Option<String>,
    /// The whole record as JSON: every step's inputs, output, timing, usage and cost.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, Args)]
pub(crate) struct PruneArgs {
    /// Keep at most this many finished runs (default: `.vai.json` `runs.keep`, else 200).
    #[arg(long)]
    keep: Option<usize>,
    /// Remove finished runs older than this (`12h`, `7d`; default: `runs.maxAge`, else 30d).
    #[arg(long, value_name = "AGE")]
    older_than: Option<String>,
    /// Keep finished runs within this many megabytes together (default: `runs.maxMb`, else
    /// 512).
    #[arg(long, value_name = "MB")]
    max_mb: Option<u64>,
    #[arg(long)]
    json: bool,
}

#[derive(Debug, Args)]
pub(crate) struct DiffArgs {
    /// The run to compare from.
    a: String,
    /// The run to compare with.
    b: String,
    /// Every step, the unchanged ones too.
    #[arg(long)]
    all: bool,
    #[arg(long)]
    json: bool,
}

/// `--since`: a duration ago, or a `YYYY-MM-DD` date (UTC midnight), as ms since the epoch.
fn parse_since(text: &str) -> Result<u64, String> {
    if let Ok(age) = parse_age(text) {
        return Ok(now_ms().saturating_sub(age.as_millis() as u64));
    }
    let parts: Vec<&str> = text.trim().split('-').collect();
    let date = match parts.as_slice() {
        [y, m, d] => y
            .parse::<i64>()
            .ok()
            .zip(m.parse::<u32>().ok())
            .zip(d.parse::<u32>().ok()),
        _ => None,
    };
    let Some(((y, m), d)) = date.filter(|((_, m), d)| (1..=12).contains(m) && (1..=31).contains(d))
    else {
        return Err(format!(
            "--since \"{text}\" is neither a duration (30m, 2h, 7d) nor a date (2026-11-28)"
        ));
    };
    Ok(days_from_civil(y, m, d).max(0) as u64 * 86_400_000)
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (i64::from(m) + 9) % 12;
    let doy = (153 * mp + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// Whether run `r` is of workflow `w`: its name, or the file or built-in it ran from.
fn of_workflow(r: &RunInfo, source: Option<&str>, w: &str) -> bool {
    r.workflow.eq_ignore_ascii_case(w)
        || r.workflow_id.as_deref() == Some(w)
        || source.is_some_and(|s| {
            s == w
                || std::path::Path::new(s)
                    .file_stem()
                    .and_then(|f| f.to_str())
                    .is_some_and(|f| f.trim_end_matches(".vai-workflow") == w)
        })
}

pub(crate) async fn list(args: ListArgs) -> anyhow::Result<u8> {
    let since = match args.since.as_deref().map(parse_since).transpose() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return Ok(EXIT_INVALID);
        }
    };
    let store = store()?;
    let mut runs: Vec<RunInfo> = Vec::new();
    for r in store.list().await? {
        if runs.len() >= args.limit
            || args.status.as_deref().is_some_and(|s| s != r.status)
            || since.is_some_and(|t| r.started_at < t)
        {
            continue;
        }
        if let Some(w) = args.workflow.as_deref() {
            let source = store.read(&r.run_id).await.ok().and_then(|s| {
                s.start
                    .source
                    .get("workflow")
                    .and_then(Value::as_str)
                    .map(str::to_string)
            });
            if !of_workflow(&r, source.as_deref(), w) {
                continue;
            }
        }
        runs.push(r);
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&json!({"runs": runs}))?);
        return Ok(EXIT_OK);
    }
    if runs.is_empty() {
        eprintln!("no runs in {}", store.location());
        return Ok(EXIT_OK);
    }
    println!(
        "{:<22} {:<11} {:<16} {:>8} {:>9}  WORKFLOW · INPUTS",
        "RUN", "STATUS", "STARTED", "TIME", "COST"
    );
    for r in runs {
        let cost = r
            .usage
            .as_ref()
            .and_then(|u| u.cost.as_ref())
            .map_or_else(|| "-".to_string(), crate::render::usage::cost);
        let from = r
            .from
            .as_ref()
            .map(|f| format!(" (from {} at {})", f.run_id, f.step))
            .unwrap_or_default();
        println!(
            "{:<22} {:<11} {:<16} {:>8} {:>9}  {}{}{}",
            r.run_id,
            r.status,
            when(r.started_at),
            r.duration_ms.map_or_else(|| "-".into(), ms),
            cost,
            r.workflow,
            if r.inputs.is_empty() {
                String::new()
            } else {
                format!(" · {}", r.inputs)
            },
            from
        );
    }
    Ok(EXIT_OK)
}

/// A time in UTC, `2026-11-28 14:05`.
fn when(ms_epoch: u64) -> String {
    let secs = (ms_epoch / 1000) as i64;
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02}",
        rem / 3600,
        rem % 3600 / 60
    )
}

fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

fn ms(n: u64) -> String {
    if n >= 10_000 {
        format!("{:.1}s", n as f64 / 1000.0)
    } else {
        format!("{n}ms")
    }
}

/// Run `id`'s record, or the exit code with the reason printed.
pub(crate) async fn read_record(store: &dyn RunBackend, id: &str) -> Result<RunRecord, u8> {
    match store.read(id).await {
        Ok(state) => Ok(RunRecord::of(state)),
        Err(vai_workflow::journal::JournalError::NotFound(_)) => {
            eprintln!("error: no run \"{id}\" (see `vai runs list`)");
            Err(EXIT_INVALID)
        }
        Err(e) => {
            eprintln!("error: {e}");
            Err(EXIT_INVALID)
        }
    }
}

pub(crate) async fn show(args: ShowArgs) -> anyhow::Result<u8> {
    let store = store()?;
    let info = store.info(&args.id).await;
    let record = match read_record(&*store, &args.id).await {
        Ok(r) => r,
        Err(code) => return Ok(code),
    };
    if let Some(step) = &args.step {
        let Some(s) = record.step(step) else {
            let ids: Vec<&str> = record.steps.iter().map(|s| s.id.as_str()).collect();
            eprintln!(
                "error: run {} has no step \"{step}\" (its steps: {})",
                args.id,
                ids.join(", ")
            );
            return Ok(EXIT_INVALID);
        };
        let body =
            json!({"id": s.id, "status": s.status, "inputs": s.trace.inputs, "output": s.output});
        println!("{}", serde_json::to_string_pretty(&body)?);
        return Ok(EXIT_OK);
    }
    if args.json {
        let mut body = serde_json::to_value(&record)?;
        body["status"] = json!(info.status);
        println!("{}", serde_json::to_string_pretty(&body)?);
        return Ok(EXIT_OK);
    }
    println!(
        "run {} ({}) — {}",
        record.run_id, record.workflow, info.status
    );
    let source = record.source.get("workflow").and_then(Value::as_str);
    if let Some(s) = source {
        println!("workflow: {s}{}", version(record.hash.as_deref()));
    }
    println!("started: {} UTC", when(record.started_at));
    if let Some(d) = record.duration_ms {
        println!("took: {}", ms(d));
    }
    if let Some(u) = record.usage.as_ref().and_then(usage) {
        println!("used: {u}");
    }
    if !record.inputs.is_empty() {
        println!(
            "inputs: {}",
            vai_workflow::journal::inputs_summary(&record.inputs)
        );
    }
    if let Some(f) = &record.from {
        println!("restarted from run {} at step \"{}\"", f.run_id, f.step);
    }
    if let Some(e) = &info.error {
        println!("error: {e}");
    }
    if record.truncated {
        println!("note: the journal outgrew its budget; later steps were not recorded");
    }
    println!();
    for s in &record.steps {
        let t = &s.trace;
        let mut detail: Vec<String> = Vec::new();
        detail.extend(t.duration_ms.map(ms));
        detail.extend(t.backend.clone());
        detail.extend(t.usage.as_ref().and_then(usage));
        if t.replayed {
            detail.push("replayed".into());
        }
        let what = t
            .error
            .clone()
            .or_else(|| t.reason.clone())
            .or_else(|| t.summary.clone())
            .unwrap_or_default();
        println!(
            "  {:<10} {:<24} {}{}",
            s.status,
            s.id,
            what,
            if detail.is_empty() {
                String::new()
            } else {
                format!("  [{}]", detail.join(" · "))
            }
        );
    }
    if let Some(w) = &info.waiting {
        println!("\nwaits at step \"{}\": {}", w.step_id, w.message);
        println!("expects: {}", w.expects);
        println!(
            "answer with: vai runs resume {}{}",
            info.run_id,
            super::prompt::example_inputs(&w.expects)
        );
    }
    println!("\nstep detail: vai runs show {} --step <id>", record.run_id);
    Ok(EXIT_OK)
}

fn version(hash: Option<&str>) -> String {
    hash.map(|h| format!(" (version {h})")).unwrap_or_default()
}

pub(crate) async fn prune(args: PruneArgs) -> anyhow::Result<u8> {
    let store = store()?;
    // What a flag leaves out is what `.vai.json` `runs` sets (else the store's defaults).
    let defaults = store.retention();
    let max_age = match args.older_than.as_deref().map(parse_age).transpose() {
        Ok(a) => a.unwrap_or(defaults.max_age),
        Err(e) => {
            eprintln!("error: --older-than: {e}");
            return Ok(EXIT_INVALID);
        }
    };
    let retention = Retention {
        keep: args.keep.unwrap_or(defaults.keep),
        max_age,
        max_bytes: args
            .max_mb
            .map_or(defaults.max_bytes, |mb| mb.saturating_mul(1024 * 1024)),
    };
    let pruned = store.prune(&retention).await?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&pruned)?);
    } else {
        eprintln!(
            "pruned {} run{} ({} KB); waiting and interrupted runs are kept",
            pruned.run_ids.len(),
            if pruned.run_ids.len() == 1 { "" } else { "s" },
            pruned.bytes / 1024
        );
    }
    Ok(EXIT_OK)
}

pub(crate) async fn run_diff(args: DiffArgs) -> anyhow::Result<u8> {
    let store = store()?;
    let (a, b) = (
        read_record(&*store, &args.a).await,
        read_record(&*store, &args.b).await,
    );
    let (a, b) = match (a, b) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(code), _) | (_, Err(code)) => return Ok(code),
    };
    let d = match diff(&a, &b) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("error: {e}");
            return Ok(EXIT_INVALID);
        }
    };
    if args.json {
        println!("{}", serde_json::to_string_pretty(&d)?);
        return Ok(EXIT_OK);
    }
    print_diff(&d, args.all);
    Ok(EXIT_OK)
}

fn signed_ms(a: Option<u64>, b: Option<u64>) -> String {
    match (a, b) {
        (Some(a), Some(b)) => {
            let delta = b as i64 - a as i64;
            format!(
                "{} → {} ({}{})",
                ms(a),
                ms(b),
                if delta >= 0 { "+" } else { "-" },
                ms(delta.unsigned_abs())
            )
        }
        _ => "-".into(),
    }
}

fn signed_usd(a: Option<f64>, b: Option<f64>) -> Option<String> {
    let (a, b) = (a?, b?);
    (a != b).then(|| {
        let delta = b - a;
        format!(
            "{} → {} ({}{})",
            dollars(a),
            dollars(b),
            if delta >= 0.0 { "+" } else { "-" },
            dollars(delta.abs())
        )
    })
}

fn short(v: Option<&Value>) -> String {
    let text = match v {
        None => "(absent)".to_string(),
        Some(Value::String(s)) => format!("\"{s}\""),
        // Lists of lists (merge's inputs) by their lengths, lists of records by theirs.
        Some(Value::Array(items)) if !items.is_empty() && items.iter().all(Value::is_array) => {
            let lengths: Vec<String> = items
                .iter()
                .map(|i| i.as_array().map_or(0, Vec::len).to_string())
                .collect();
            format!("[{} items]", lengths.join(" + "))
        }
        Some(Value::Array(items)) if items.iter().any(Value::is_object) => {
            format!("[{} items]", items.len())
        }
        Some(other) => other.to_string(),
    };
    if text.chars().count() > 60 {
        format!("{}…", text.chars().take(59).collect::<String>())
    } else {
        text
    }
}

fn print_diff(d: &RunDiff, all: bool) {
    println!("{} — run {} → run {}", d.workflow, d.a.run_id, d.b.run_id);
    println!("  time: {}", signed_ms(d.a.duration_ms, d.b.duration_ms));
    if let Some(c) = signed_usd(d.a.cost_usd, d.b.cost_usd) {
        println!("  cost: {c}");
    }
    if d.workflow_changes.is_empty() {
        println!("  workflow: the same version");
    } else {
        println!("  workflow changed: {}", d.workflow_changes.join("; "));
    }
    for c in &d.inputs {
        println!(
            "  input {}: {} → {}",
            c.field,
            short(c.a.as_ref()),
            short(c.b.as_ref())
        );
    }
    println!();
    for s in &d.steps {
        if s.change == "same" && !all {
            continue;
        }
        print_step(s);
    }
    let same = d.steps.iter().filter(|s| s.change == "same").count();
    if same > 0 && !all {
        println!(
            "({same} step{} unchanged; --all shows them)",
            if same == 1 { "" } else { "s" }
        );
    }
}

fn print_step(s: &StepDiff) {
    let mark = match s.change.as_str() {
        "added" => "+",
        "removed" => "-",
        "changed" => "~",
        _ => "=",
    };
    let status = match (&s.status_a, &s.status_b) {
        (Some(a), Some(b)) if a != b => format!("  {a} → {b}"),
        _ => String::new(),
    };
    println!(
        "{mark} {} ({}){status}  {}",
        s.id,
        s.tool,
        signed_ms(s.duration_a, s.duration_b)
    );
    if let Some(c) = signed_usd(s.cost_a, s.cost_b) {
        println!("    cost: {c}");
    }
    for c in &s.inputs {
        println!(
            "    input {}: {} → {}",
            c.field,
            short(c.a.as_ref()),
            short(c.b.as_ref())
        );
    }
    if let Some(r) = &s.results {
        let field = if r.field.is_empty() {
            "results".to_string()
        } else {
            r.field.clone()
        };
        println!(
            "    {field}: {} entered, {} left, {} moved, {} unchanged",
            r.entered.len(),
            r.left.len(),
            r.moved.len(),
            r.unchanged
        );
        let score = |a: Option<f64>, b: Option<f64>| match (a, b) {
            (Some(a), Some(b)) if a != b => format!("  score {a:.3} → {b:.3} ({:+.3})", b - a),
            (None, Some(b)) => format!("  score {b:.3}"),
            (Some(a), None) => format!("  score {a:.3}"),
            _ => String::new(),
        };
        for m in &r.entered {
            println!(
                "      + #{} {}{}",
                m.rank_b.unwrap_or(0),
                m.label,
                score(None, m.score_b)
            );
        }
        for m in &r.left {
            println!(
                "      - #{} {}{}",
                m.rank_a.unwrap_or(0),
                m.label,
                score(m.score_a, None)
            );
        }
        for m in &r.moved {
            let (a, b) = (m.rank_a.unwrap_or(0), m.rank_b.unwrap_or(0));
            let arrow = match b.cmp(&a) {
                std::cmp::Ordering::Less => format!("↑{}", a - b),
                std::cmp::Ordering::Greater => format!("↓{}", b - a),
                std::cmp::Ordering::Equal => "=".into(),
            };
            println!(
                "      {arrow} #{a} → #{b} {}{}",
                m.label,
                score(m.score_a, m.score_b)
            );
        }
    }
    for c in &s.outputs {
        let field = if c.field.is_empty() {
            "output"
        } else {
            c.field.as_str()
        };
        println!(
            "    {field}: {} → {}",
            short(c.a.as_ref()),
            short(c.b.as_ref())
        );
    }
}
