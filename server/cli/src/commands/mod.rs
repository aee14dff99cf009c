//! Command-line commands, one module per noun, one file per verb. Doc comments are the help.

mod bench;
mod workflow;

use clap::{Parser, Subcommand};

/// The run finished (or the command did what was asked).
pub const EXIT_OK: u8 = 0;
/// The run failed, or a test failed.
pub const EXIT_FAILED: u8 = 1;
/// The workflow, an input or an argument is invalid.
pub const EXIT_INVALID: u8 = 2;
/// Interrupted (Ctrl-C).
pub const EXIT_INTERRUPTED: u8 = 130;

/// vai — portable RAG workflows: run `.vai-workflow.json` pipelines from the command line.
#[derive(Debug, Parser)]
#[command(name = "vai", version, about, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run, validate, list, scaffold and test workflows.
    #[command(subcommand, visible_alias = "wf")]
    Workflow(workflow::WorkflowCommand),
    /// Measure the engine on generated workflows (see docs/benchmarks.md).
    Bench(bench::BenchArgs),
}

pub async fn dispatch(cli: Cli) -> anyhow::Result<u8> {
    match cli.command {
        Command::Workflow(cmd) => workflow::dispatch(cmd).await,
        Command::Bench(args) => bench::run(args).await,
    }
}
