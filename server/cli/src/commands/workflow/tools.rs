//! `vai workflow tools`: the tool catalog.

use crate::exit::EXIT_OK;
use crate::{app, config::Config};
use clap::Args;

/// List the tools a step can use, with their category and inputs.
#[derive(Debug, Args)]
pub(crate) struct ToolsArgs {
    /// Print every tool's full declaration (input schema, outputs, help) as JSON.
    #[arg(long)]
    pub json: bool,
}

pub(super) fn run(args: ToolsArgs) -> anyhow::Result<u8> {
    let registry = app::offline_registry(&Config::load(&std::env::current_dir()?, &[])?);
    let specs: Vec<_> = registry.specs().collect();
    if args.json {
        println!("{}", serde_json::to_string_pretty(&specs)?);
        return Ok(EXIT_OK);
    }
    let width = specs.iter().map(|s| s.name.len()).max().unwrap_or(0);
    for s in specs {
        let required = s.required_inputs();
        println!(
            "{:<width$}  {:<13} {}  (requires: {})",
            s.name,
            s.category.label(),
            s.description,
            if required.is_empty() {
                "nothing".to_string()
            } else {
                required.join(", ")
            }
        );
    }
    Ok(EXIT_OK)
}
