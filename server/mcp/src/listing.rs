//! What the server exposes, as plain data: `vai mcp tools` prints it and docs/mcp.md is written
//! from it (a test fails when the committed file drifts from the code).

use crate::codes::ErrorCode;
use crate::prompts::PROMPTS;
use crate::resources::{self, FIXED};
use crate::server::McpServer;
use crate::tools::{self, Target};
use serde::Serialize;
use serde_json::Value;
use std::fmt::Write;

/// The three kinds of tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ToolGroup {
    /// One of vai's step tools, called on its own (`vai_*`).
    Vai,
    /// A whole workflow of the library (`w_*`).
    Workflow,
    /// Reading, checking, saving and running workflows (`workflow_*`).
    Authoring,
}

/// One tool.
#[derive(Debug, Clone, Serialize)]
pub struct ListedTool {
    pub name: String,
    pub title: String,
    pub group: ToolGroup,
    /// One line on what it does.
    pub summary: String,
    /// Its arguments: (name, JSON type, required).
    pub arguments: Vec<(String, String, bool)>,
    pub read_only: bool,
    pub destructive: bool,
    pub idempotent: bool,
    pub open_world: bool,
    /// The full description clients receive.
    pub description: String,
    pub input_schema: Value,
}

/// One resource (or resource template).
#[derive(Debug, Clone, Serialize)]
pub struct ListedResource {
    pub uri: String,
    pub title: String,
    pub description: String,
    pub mime_type: String,
}

/// One prompt.
#[derive(Debug, Clone, Serialize)]
pub struct ListedPrompt {
    pub name: String,
    pub title: String,
    pub description: String,
    /// (name, description, required)
    pub arguments: Vec<(String, String, bool)>,
}

/// Everything the server exposes now.
#[derive(Debug, Clone, Serialize)]
pub struct Listing {
    pub read_only: bool,
    pub tools: Vec<ListedTool>,
    pub resources: Vec<ListedResource>,
    pub prompts: Vec<ListedPrompt>,
}

impl McpServer {
    /// What a client connecting now would be offered.
    pub fn listing(&self) -> Listing {
        let registry = &self.inner().registry;
        let tools = tools::list(self)
            .into_iter()
            .map(|e| {
                let (group, summary) = match &e.target {
                    Target::Vai(name) => (
                        ToolGroup::Vai,
                        registry
                            .spec(name)
                            .map(|s| s.description.to_string())
                            .unwrap_or_default(),
                    ),
                    Target::Workflow(w) => (
                        ToolGroup::Workflow,
                        w.plan.workflow.description.clone().unwrap_or_else(|| {
                            format!("Runs the workflow \"{}\"", w.plan.workflow.name)
                        }),
                    ),
                    Target::Authoring(_) => (
                        ToolGroup::Authoring,
                        first_sentence(e.tool.description.as_deref().unwrap_or_default())
                            .to_string(),
                    ),
                };
                let schema = Value::Object((*e.tool.input_schema).clone());
                let annotations = e.tool.annotations.clone().unwrap_or_default();
                ListedTool {
                    name: e.tool.name.to_string(),
                    title: e.tool.title.clone().unwrap_or_default(),
                    group,
                    summary,
                    arguments: arguments(&schema),
                    read_only: annotations.read_only_hint.unwrap_or(false),
                    destructive: annotations.destructive_hint.unwrap_or(false),
                    idempotent: annotations.idempotent_hint.unwrap_or(false),
                    open_world: annotations.open_world_hint.unwrap_or(false),
                    description: e
                        .tool
                        .description
                        .as_deref()
                        .unwrap_or_default()
                        .to_string(),
                    input_schema: schema,
                }
            })
            .collect();
        let resources = resources::list(self)
            .into_iter()
            .map(|r| ListedResource {
                uri: r.uri,
                title: r.title.unwrap_or_default(),
                description: r.description.unwrap_or_default(),
                mime_type: r.mime_type.unwrap_or_default(),
            })
            .chain(resources::templates().into_iter().map(|t| ListedResource {
                uri: t.uri_template,
                title: t.title.unwrap_or_default(),
                description: t.description.unwrap_or_default(),
                mime_type: t.mime_type.unwrap_or_default(),
            }))
            .collect();
        let prompts = PROMPTS
            .iter()
            .map(|p| ListedPrompt {
                name: p.name.to_string(),
                title: p.title.to_string(),
                description: p.description.to_string(),
                arguments: p
                    .arguments
                    .iter()
                    .map(|(n, d, r)| (n.to_string(), d.to_string(), *r))
                    .collect(),
            })
            .collect();
        Listing {
            read_only: self.inner().read_only,
            tools,
            resources,
            prompts,
        }
    }
}

fn first_sentence(text: &str) -> &str {
    match text.find(". ") {
        Some(i) => &text[..=i],
        None => text,
    }
}

fn arguments(schema: &Value) -> Vec<(String, String, bool)> {
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    schema
        .get("properties")
        .and_then(Value::as_object)
        .map(|p| {
            p.iter()
                .map(|(name, s)| {
                    let ty = match s.get("type") {
                        Some(Value::String(t)) => t.clone(),
                        Some(Value::Array(ts)) => ts
                            .iter()
                            .filter_map(Value::as_str)
                            .collect::<Vec<_>>()
                            .join("|"),
                        _ => "any".to_string(),
                    };
                    (name.clone(), ty, required.contains(&name.as_str()))
                })
                .collect()
        })
        .unwrap_or_default()
}

fn hints(t: &ListedTool) -> String {
    let mut out = Vec::new();
    if t.read_only {
        out.push("read-only");
    } else if t.destructive {
        out.push("destructive");
    } else {
        out.push("writes");
    }
    if t.idempotent {
        out.push("idempotent");
    }
    if t.open_world {
        out.push("open-world");
    }
    out.join(", ")
}

fn argument_list(args: &[(String, String, bool)]) -> String {
    if args.is_empty() {
        return "—".to_string();
    }
    args.iter()
        .map(|(n, t, r)| format!("`{n}`{}: {t}", if *r { "*" } else { "" }))
        .collect::<Vec<_>>()
        .join(", ")
}

fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

impl Listing {
    /// The listing as `vai mcp tools` prints it.
    pub fn text(&self) -> String {
        let mut out = String::new();
        for (group, heading) in [
            (ToolGroup::Vai, "vai tools"),
            (ToolGroup::Workflow, "workflow tools"),
            (ToolGroup::Authoring, "authoring tools"),
        ] {
            let tools: Vec<&ListedTool> = self.tools.iter().filter(|t| t.group == group).collect();
            let _ = writeln!(out, "{heading} ({}):", tools.len());
            for t in tools {
                let _ = writeln!(out, "  {:<28} {} [{}]", t.name, t.summary, hints(t));
            }
            out.push('\n');
        }
        let _ = writeln!(out, "resources ({}):", self.resources.len());
        for r in &self.resources {
            let _ = writeln!(out, "  {:<36} {}", r.uri, r.title);
        }
        let _ = writeln!(out, "\nprompts ({}):", self.prompts.len());
        for p in &self.prompts {
            let _ = writeln!(out, "  {:<28} {}", p.name, p.description);
        }
        if self.read_only {
            let _ = writeln!(
                out,
                "\nread-only: tools that change anything are not listed"
            );
        }
        out
    }

    /// docs/mcp.md.
    pub fn markdown(&self) -> String {
        let mut out = String::from(DOC_HEAD);
        for (group, heading, intro) in [
            (
                ToolGroup::Vai,
                "vai tools",
                "One step tool, called on its own with the tool's own inputs and defaults (database, collection and models from the configuration). Each returns the tool's output as `structuredContent`; `_meta` names the backend that served it.",
            ),
            (
                ToolGroup::Workflow,
                "Workflow tools",
                "One per workflow of the library that validates: the built-ins and examples below, plus every valid `*.vai-workflow.json` file of the directory `vai mcp` started in (listed at run time; the list updates while a client is connected). Arguments are the workflow's `inputs`.",
            ),
            (
                ToolGroup::Authoring,
                "Authoring tools",
                "Reading and checking are safe; saving, renaming and running change things; deleting and cancelling undo things. `--read-only` lists only the read-only ones.",
            ),
        ] {
            let _ = writeln!(out, "\n## {heading}\n\n{intro}\n");
            out.push_str(
                "| tool | what it does | arguments (`*` required) | hints |\n|---|---|---|---|\n",
            );
            for t in self.tools.iter().filter(|t| t.group == group) {
                let _ = writeln!(
                    out,
                    "| `{}` | {} | {} | {} |",
                    t.name,
                    cell(&t.summary),
                    cell(&argument_list(&t.arguments)),
                    hints(t)
                );
            }
        }
        out.push_str("\n## Resources\n\n| URI | what it holds | type |\n|---|---|---|\n");
        for (uri, _, title, description, mime) in FIXED {
            let _ = writeln!(out, "| `{uri}` | {title}: {description} | `{mime}` |");
        }
        out.push_str("| `vai://workflows/{name}` | Each workflow of the library, by its tool name without `w_` (see `workflow_list`) | `application/json` |\n");
        out.push_str(
            "\n## Prompts\n\n| prompt | what it does | arguments (`*` required) |\n|---|---|---|\n",
        );
        for p in &self.prompts {
            let args: Vec<String> = p
                .arguments
                .iter()
                .map(|(n, _, r)| format!("`{n}`{}", if *r { "*" } else { "" }))
                .collect();
            let _ = writeln!(
                out,
                "| `{}` | {} | {} |",
                p.name,
                cell(&p.description),
                args.join(", ")
            );
        }
        out.push_str("\n## Error codes\n\nA tool call that fails returns `isError: true` and this body as `structuredContent` (and as text):\n\n```json\n{\n  \"error_code\": \"WORKFLOW_VALIDATION_FAILED\",\n  \"category\": \"validation\",\n  \"message\": \"the workflow has 2 errors; the first: …\",\n  \"context\": {\"workflow_id\": \"…\", \"run_id\": \"…\", \"step_id\": \"…\", \"path\": \"…\"},\n  \"retryable\": false,\n  \"suggested_action\": \"…\",\n  \"violations\": [{\"path\": \"steps[search].tool\", \"rule\": \"INVALID_TOOL\", \"message\": \"…\"}]\n}\n```\n\nAbsent context fields are left out. An unknown tool, prompt or resource, or a request that is not a well-formed call, is a JSON-RPC error instead.\n\n| code | category | retryable | when |\n|---|---|---|---|\n");
        for code in ErrorCode::ALL {
            let category = serde_json::to_value(code.category()).unwrap_or_default();
            let _ = writeln!(
                out,
                "| `{}` | {} | {} | {} |",
                code.as_str(),
                category.as_str().unwrap_or_default(),
                if code.retryable() { "yes" } else { "no" },
                code.when()
            );
        }
        out
    }
}

const DOC_HEAD: &str = "# vai over MCP\n\n<!-- Generated from the code by `cargo test -p vai-mcp --test mcp reference`; do not edit. Regenerate with VAI_UPDATE_GENERATED=1. -->\n\n\
`vai mcp` serves vai to any Model Context Protocol client (Claude Desktop, Claude Code, Cursor, VS Code, …): vai's retrieval tools, every workflow as one tool that runs the whole DAG with no model in the loop, and tools, resources and prompts with which an assistant writes, checks, fixes and saves workflows itself.\n\n\
- `vai mcp` serves one client over stdio, as desktop clients spawn it. Nothing but protocol messages is written to stdout; messages go to stderr.\n\
- `vai mcp --http [--port 3100] [--host 127.0.0.1]` serves streamable HTTP at `/mcp`. A request must name the server in `Host` (and in `Origin`, when it sends one), like the playground. On any address but loopback every request must carry `Authorization: Bearer <key>`: the key is `VAI_MCP_SERVER_KEY`, or one generated at start and printed on stderr. On loopback the key is checked when `VAI_MCP_SERVER_KEY` is set. Request bodies are limited to 8 MiB (a larger one is refused with 413 before it is read); connections are served by the playground's bounded loop — at most 256 at once and 128 from one address, each with 10 seconds to send its headers, 30 seconds to send a request body and 60 seconds without a byte moving — and at most 64 sessions are open at once (a further `initialize` gets 503 `TOO_MANY_SESSIONS`; a session idle for five minutes is closed).\n\
- `--read-only` (or the `mcp-read-only` setting: `VAI_MCP_READ_ONLY=1`, `vai config set mcp-read-only true`, or `mcp.readOnly` true in `.vai.json`) lists only the tools that change nothing.\n\
- `vai mcp tools [--json]` prints what a client would be offered; `vai mcp install <client>` prints (and with `--write` merges) the client's configuration entry.\n\
- Workflows are the built-ins, the examples and the `*.vai-workflow.json` files of the directory `vai mcp` starts in; saves go there.\n\
- Runs are kept in the run history where `.vai.json` `runs` says (the data directory, or a team's MongoDB), like every other run: `vai runs list` and the playground's Runs panel show them, and a run that waits can be answered from there. `--otlp-endpoint URL` (or `OTEL_EXPORTER_OTLP_ENDPOINT`) sends each run as an OpenTelemetry trace.\n\n\
Tool names use `_` where the design named `workflow.list` and so on: Claude Desktop, the Claude API and OpenAI refuse tool names outside `^[a-zA-Z0-9_-]{1,64}$`.\n\n\
Runs started here are runs of the same run manager the playground uses. A workflow tool called with a progress token reports each finished step (`notifications/progress`, `progress` = steps done of `total`); cancelling the call (`notifications/cancelled`), or the client going away, cancels the run. When vai has no LLM configured and the client offers sampling, the `generate` steps of those runs ask the client's own model (`sampling/createMessage`) with the step's system prompt, prompt and context; the step's output names the model that answered and `mcp-client` as its provider. A client that declares the tasks extension gets a task at once for `w_*` and `workflow_run` calls (its id is the run's): `tasks/get` reports the steps done and, once the run ended, the same result a waiting call gets; `tasks/cancel` cancels the run.\n\n\
A run that reaches a `yield` step waits for a person. When the client declares elicitation, the call asks them (`elicitation/create`, with the step's message and its `expects` as the requested schema): an answer goes on (one that does not satisfy `expects` is asked once more, saying what was wrong, and then ends the run with `INVALID_ANSWER`), and declining or dismissing cancels the run, its compensations undoing what it did, with `INPUT_DECLINED`; a run that waits again is asked again. Without elicitation the call returns at once with `status: \"waiting\"`, the `run_id`, the `step_id`, the `message` and what it `expects`, and `workflow_resume` (`run_id`, `input`) answers it and returns as the call would have: the output, the failure, or the next wait. A task whose run waits is `input_required`, its question an elicitation in `inputRequests` keyed by the step id, which `tasks/update` answers (an accepted answer goes on; a declined one cancels the run).\n\n\
`workflow_plan` ranks the workflows for a goal lexically (BM25 over each workflow's name, description and inputs; it says so in `method`) and gives the best five with the inputs each takes.\n";
