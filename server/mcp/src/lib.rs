//! `vai mcp`: vai over the Model Context Protocol (the official Rust SDK, `rmcp`). An assistant
//! calls vai's retrieval tools, runs a whole workflow as one tool call (`w_<name>`, no LLM in
//! the loop), and writes, checks, fixes and saves workflows itself (the authoring tools), with
//! the workflow format, the tool catalog and every workflow as resources and four authoring
//! prompts. Runs go through the shared run manager, so a run started here is the same kind of
//! run, with the same events, as one started in the playground.
//!
//! The composition root builds an [`McpServer`] from the registry, the library and the run
//! manager, then serves it over stdio ([`McpServer::serve_stdio`]) or streamable HTTP
//! ([`http::serve`]). What it exposes is listed by [`McpServer::listing`], from which
//! `vai mcp tools` and docs/mcp.md are made.
//!
//! Inside, from the bottom up: `server` holds the state every module reads (it depends only on
//! the leaves it is made of: `tasks`, `names`, `plans`, `watch`, `sampling`); `tools`,
//! `resources`, `prompts` and `running` work on that state, `finished` shaping how a run ended
//! as a result and `answers` asking a person what a waiting run needs; `handler` answers each
//! client on top of them, and `stdio` and `http` serve it.

mod answers;
mod codes;
mod failure;
mod finished;
mod handler;
pub mod http;
mod listing;
mod names;
mod plans;
mod prompts;
mod resources;
mod running;
mod sampling;
mod schema;
mod server;
mod stdio;
mod tasks;
mod tools;
mod watch;

pub use listing::{ListedPrompt, ListedResource, ListedTool, Listing, ToolGroup};
pub use sampling::WithLlm;
pub use server::{BeforeTool, McpServer, McpSettings};
