//! `vai workflow list`.

use crate::builtin::{self, Source};
use crate::commands::EXIT_OK;
use clap::Args;
use serde_json::{Value, json};

/// List the built-in and example workflows, and workflow files in the current directory.
#[derive(Debug, Args)]
pub(crate) struct ListArgs {
    /// Print the list as JSON.
    #[arg(long)]
    pub json: bool,
}

pub(super) fn run(args: ListArgs) -> anyhow::Result<u8> {
    let mut rows: Vec<(String, Source, String, usize)> = builtin::all()
        .into_iter()
        .map(|(name, source, text)| {
            let (desc, steps) = summary(text);
            (name, source, desc, steps)
        })
        .collect();
    let mut local: Vec<_> = std::fs::read_dir(".")
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.ends_with(".vai-workflow.json"))
        })
        .collect();
    local.sort();
    for path in local {
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let (desc, steps) = summary(&text);
        rows.push((path.display().to_string(), Source::File, desc, steps));
    }
    if args.json {
        let list: Vec<Value> = rows
            .iter()
            .map(|(name, source, desc, steps)| json!({"name": name, "source": source, "description": desc, "steps": steps}))
            .collect();
        println!("{}", serde_json::to_string_pretty(&list)?);
        return Ok(EXIT_OK);
    }
    let width = rows.iter().map(|r| r.0.chars().count()).max().unwrap_or(0);
    for source in [Source::BuiltIn, Source::Example, Source::File] {
        let group: Vec<_> = rows.iter().filter(|r| r.1 == source).collect();
        if group.is_empty() {
            continue;
        }
        println!(
            "{}:",
            match source {
                Source::BuiltIn => "Built-in",
                Source::Example => "Examples",
                Source::File => "In this directory",
            }
        );
        for (name, _, desc, steps) in group {
            println!(
                "  {name:<width$}  {steps:>2} steps  {}",
                vai_workflow::value::truncate_chars(desc, 80)
            );
        }
        println!();
    }
    println!("Run one with: vai workflow run <name> --input key=value");
    Ok(EXIT_OK)
}

fn summary(text: &str) -> (String, usize) {
    let v: Value = serde_json::from_str(text).unwrap_or(Value::Null);
    let desc = v
        .get("description")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    let steps = v.get("steps").and_then(Value::as_array).map_or(0, Vec::len);
    (desc, steps)
}
