//! Command-line commands, one module per noun, one file per verb. Doc comments are the help.

mod bench;
mod bench_answers;
mod bench_llm;
mod bench_retrieval;
mod bench_store;
mod chat;
mod config;
mod explain;
mod mcp;
mod models;
mod ping;
mod playground;
mod runs;
mod workflow;

use clap::{Parser, Subcommand};

/// vai — portable RAG workflows: run `.vai-workflow.json` pipelines from the command line.
#[derive(Debug, Parser)]
#[command(name = "vai", version, about, propagate_version = true)]
pub(crate) struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run, validate, list, scaffold, test and format workflows.
    #[command(subcommand, visible_alias = "wf")]
    Workflow(workflow::WorkflowCommand),
    /// The runs kept in the data directory: list, show, resume (a run that waits for a person
    /// or whose process died) and cancel (running compensations).
    #[command(subcommand)]
    Runs(runs::RunsCommand),
    /// Show and change settings: API keys, MongoDB URI, LLM provider, default database.
    #[command(subcommand)]
    Config(config::ConfigCommand),
    /// Chat with your knowledge base: answers cite the documents they come from.
    ///
    /// Type questions at the prompt, or pipe them in one a line (`--json` prints one object per
    /// turn); /help lists the slash commands. `--mode agent` lets the model call vai's tools.
    /// Ctrl-C stops an answer, Ctrl-D or /quit leaves.
    Chat(chat::ChatArgs),
    /// Check each configured provider (Voyage AI, MongoDB, LLM, local) with one small call.
    Ping(ping::PingArgs),
    /// What model calls cost: the price table (Voyage AI, OpenAI, Anthropic; local models
    /// free) in dollars per million tokens, its date and sources, and `.vai.json`'s `pricing`.
    Models(models::ModelsArgs),
    /// Measure the engine on generated workflows (see docs/benchmarks.md).
    Bench(bench::BenchArgs),
    /// Open the playground in the browser: draw, run and inspect workflows with live status.
    Playground(playground::PlaygroundArgs),
    /// Explain a retrieval concept (embeddings, reranking, vector search, RAG, chunking, …) and
    /// what each kind of step does with it; without a topic, list the topics.
    ///
    /// A topic is matched loosely: its name, an alias (`rerank`, `pricing`), a step's tool
    /// (`merge`) or a question that contains one (`what is vector search`). Works offline.
    Explain(explain::ExplainArgs),
    /// Serve vai to MCP clients (Claude Desktop, Claude Code, Cursor, VS Code): its tools, its
    /// workflows as tools, and workflow authoring. `vai mcp tools` lists them; `vai mcp install`
    /// adds vai to a client.
    Mcp(mcp::McpArgs),
}

pub(crate) async fn dispatch(cli: Cli) -> anyhow::Result<u8> {
    match cli.command {
        Command::Workflow(cmd) => workflow::dispatch(cmd).await,
        Command::Runs(cmd) => runs::dispatch(cmd).await,
        Command::Config(cmd) => config::dispatch(cmd),
        Command::Chat(args) => chat::run(args).await,
        Command::Ping(args) => ping::run(args).await,
        Command::Models(args) => models::run(args),
        Command::Bench(args) => bench::run(args).await,
        Command::Playground(args) => playground::run(args).await,
        Command::Mcp(args) => mcp::dispatch(args).await,
        Command::Explain(args) => explain::run(args),
    }
}
