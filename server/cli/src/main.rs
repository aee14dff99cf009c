//! `vai`: run RAG workflows described as `.vai-workflow.json` files.

mod app;
mod commands;
mod config;
mod exit;
mod project;
mod render;
mod serving;
mod traces;

use clap::Parser;
use std::process::ExitCode;

/// Workflows move many small JSON values; mimalloc allocates and frees them markedly faster
/// than the system allocator (see docs/benchmarks.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = commands::Cli::parse();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("error: cannot start the async runtime: {e}");
            return ExitCode::from(exit::EXIT_INVALID);
        }
    };
    match runtime.block_on(commands::dispatch(cli)) {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(exit::EXIT_INVALID)
        }
    }
}
