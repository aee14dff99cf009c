//! `vai mcp tools`: what `vai mcp` started here would offer a client, without starting it.

use super::server::{read_only, server};
use crate::exit::EXIT_OK;
use crate::{app, config::Config};
use clap::Args;

#[derive(Debug, Args)]
pub(super) struct ToolsArgs {
    /// Print the listing as JSON (tools with their input schemas, resources, prompts).
    #[arg(long)]
    json: bool,
    /// List as `vai mcp --read-only` would offer.
    #[arg(long)]
    read_only: bool,
}

pub(super) fn run(args: &ToolsArgs) -> anyhow::Result<u8> {
    let cwd = std::env::current_dir()?;
    let cfg = Config::load(&cwd, &[])?;
    // The declarations are all a listing needs: no provider is opened.
    let server = server(
        &cfg,
        &cwd,
        app::offline_registry(&cfg),
        read_only(args.read_only, &cfg),
        // A listing runs nothing: no run store is opened.
        None,
        None,
        None,
        None,
    )?;
    let listing = server.listing();
    if args.json {
        println!("{}", serde_json::to_string_pretty(&listing)?);
    } else {
        print!("{}", listing.text());
    }
    Ok(EXIT_OK)
}
