//! `vai workflow list`: the same library, listed the same way, as the playground's
//! `GET /api/workflows` and the MCP server's `workflow.list`.

use crate::exit::EXIT_OK;
use clap::Args;
use vai_contract::{WorkflowList, WorkflowSource, WorkflowSummary};

/// List the built-in and example workflows, and workflow files in the current directory.
#[derive(Debug, Args)]
pub(crate) struct ListArgs {
    /// Print the list as JSON (the playground API's `GET /api/workflows` body).
    #[arg(long)]
    pub json: bool,
}

pub(super) fn run(args: ListArgs) -> anyhow::Result<u8> {
    let library = vai_runtime::builtin::library(Some(&std::env::current_dir()?))?;
    let workflows = library.list();
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&WorkflowList { workflows })?
        );
        return Ok(EXIT_OK);
    }
    let width = workflows
        .iter()
        .map(|w| argument(w).chars().count())
        .max()
        .unwrap_or(0);
    for source in [
        WorkflowSource::Builtin,
        WorkflowSource::Example,
        WorkflowSource::File,
    ] {
        let group: Vec<&WorkflowSummary> =
            workflows.iter().filter(|w| w.source == source).collect();
        if group.is_empty() {
            continue;
        }
        println!(
            "{}:",
            match source {
                WorkflowSource::Builtin => "Built-in",
                WorkflowSource::Example => "Examples",
                WorkflowSource::File => "In this directory",
            }
        );
        for w in group {
            let about = match (&w.error, &w.description) {
                (Some(error), _) => format!("cannot be read: {error}"),
                (None, Some(d)) => format!("{} — {d}", w.name),
                (None, None) => w.name.clone(),
            };
            println!(
                "  {:<width$}  {:>2} steps  {}",
                argument(w),
                w.step_count,
                vai_workflow::value::truncate_chars(&about, 100)
            );
        }
        println!();
    }
    println!("Run one with: vai workflow run <name> --input key=value");
    Ok(EXIT_OK)
}

/// What to type to run it: the built-in's or example's name, or the file name.
fn argument(w: &WorkflowSummary) -> &str {
    w.id.split_once(':').map_or(&w.id, |(_, name)| name)
}
