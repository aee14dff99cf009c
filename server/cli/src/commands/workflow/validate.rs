//! `vai workflow validate`.

use super::load::load;
use crate::exit::{EXIT_INVALID, EXIT_OK};
use crate::{app, config::Config};
use clap::Args;
use serde_json::json;
use vai_workflow::Mode;

/// Check workflows without running them; every problem is reported.
#[derive(Debug, Args)]
pub(crate) struct ValidateArgs {
    /// Workflow files or names of built-ins.
    #[arg(required = true)]
    pub workflows: Vec<String>,
    /// Print the findings as JSON on stdout.
    #[arg(long)]
    pub json: bool,
    /// Draft mode: tolerate missing names, inputs and references of half-built workflows.
    #[arg(long)]
    pub draft: bool,
}

pub(super) fn run(args: ValidateArgs) -> anyhow::Result<u8> {
    let registry = app::offline_registry(&Config::load(&std::env::current_dir()?, &[])?);
    let mode = if args.draft {
        Mode::Draft
    } else {
        Mode::Strict
    };
    let mut all_valid = true;
    let mut reports = Vec::new();
    for arg in &args.workflows {
        if is_json_schema(arg) {
            if !args.json {
                println!("– {arg}  skipped (a JSON Schema document, not a workflow)");
            }
            continue;
        }
        let Ok((located, compiled)) = load(arg, &registry, mode) else {
            all_valid = false;
            reports.push(json!({"file": arg, "valid": false}));
            continue;
        };
        let valid = compiled.is_valid();
        all_valid &= valid;
        if args.json {
            reports.push(json!({
                "file": located.display,
                "valid": valid,
                "steps": compiled.workflow.as_ref().map(|w| w.steps.len()),
                "layers": compiled.plan.as_ref().map(|p| p.layer_ids()),
                "diagnostics": compiled.diagnostics,
            }));
            continue;
        }
        match (&compiled.plan, valid) {
            (Some(plan), true) => println!(
                "✔ {}  valid ({} steps, {} layers)",
                located.display,
                plan.steps.len(),
                plan.layers.len()
            ),
            _ if valid => println!("✔ {}  valid (draft)", located.display),
            _ => println!(
                "✗ {}  {} error(s)",
                located.display,
                compiled.errors().count()
            ),
        }
        for d in &compiled.diagnostics {
            let level = match d.severity {
                vai_workflow::Severity::Error => "error",
                vai_workflow::Severity::Warning => "warning",
                vai_workflow::Severity::Info => "info",
            };
            println!("    {level}: {d}");
        }
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&reports)?);
    }
    Ok(if all_valid { EXIT_OK } else { EXIT_INVALID })
}

/// `workflows/workflow.schema.json` sits beside the workflows, so `validate workflows/*.json`
/// meets it: a JSON Schema is skipped, not reported as a broken workflow.
fn is_json_schema(arg: &str) -> bool {
    let path = std::path::Path::new(arg);
    if !path.is_file() {
        return false;
    }
    vai_workflow::load::read_text(path)
        .ok()
        .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
        .is_some_and(|v| vai_workflow::load::not_a_workflow(&v) == Some("a JSON Schema document"))
}
