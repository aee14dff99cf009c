//! The server: what the composition root hands it, and the `ServerHandler` each connected
//! client talks to. Tools, resources and prompts are computed from the registry and the library
//! on every list, so they always match the workflow directory; a call is routed by the name it
//! gives against that same list.

use crate::failure::{Category, Failure};
use crate::tools::{self, Target};
use crate::watch::Watch;
use crate::{prompts, resources};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CancelTaskParams, GetPromptRequestParams,
    GetPromptResponse, GetTaskParams, GetTaskResult, Implementation, ListPromptsResult,
    ListResourceTemplatesResult, ListResourcesResult, ListToolsResult, PaginatedRequestParams,
    ProtocolVersion, ReadResourceRequestParams, ReadResourceResponse, ServerCapabilities,
    ServerConfig,
};
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};
use std::borrow::Cow;
use std::sync::Arc;
use tokio::sync::Semaphore;
use tokio_util::sync::CancellationToken;
use vai_runtime::{Library, RunManager};
use vai_workflow::{Limits, Registry};

pub use vai_runtime::tool_schema::BeforeTool;

/// What the composition root hands the server.
pub struct McpSettings {
    /// The tools, wired to the configured providers (as the playground's are).
    pub registry: Arc<Registry>,
    /// Built-ins, examples and the workflow directory; saves go into its directory.
    pub library: Library,
    /// Where workflow runs go, shared with any other front end of the process.
    pub runs: RunManager,
    /// Called before each vai tool call.
    pub before_tool: Option<BeforeTool>,
    /// Bounds on the values a vai tool call makes (`.vai.json` `limits`), as runs have.
    pub run_limits: Limits,
    /// vai's tools with another LLM, when vai has none of its own: `generate` steps of runs
    /// started by a client that offers sampling then ask the client's model. `None` when vai has
    /// an LLM configured (its own is used).
    pub with_client_llm: Option<crate::sampling::WithLlm>,
    /// Hide every tool that changes anything (saving, renaming, deleting, writing runs).
    pub read_only: bool,
    /// vai tool calls at once; one more is refused with a retryable error.
    pub max_tool_calls: usize,
    /// The name and version the server gives in `initialize`.
    pub name: String,
    pub version: String,
}

/// The MCP server. Cheap to clone; every connection shares it.
#[derive(Clone)]
pub struct McpServer(Arc<Inner>);

pub(crate) struct Inner {
    pub(crate) registry: Arc<Registry>,
    pub(crate) library: Library,
    pub(crate) runs: RunManager,
    pub(crate) before_tool: Option<BeforeTool>,
    pub(crate) run_limits: Limits,
    pub(crate) with_client_llm: Option<crate::sampling::WithLlm>,
    pub(crate) read_only: bool,
    pub(crate) calls: Arc<Semaphore>,
    pub(crate) max_tool_calls: usize,
    pub(crate) name: String,
    pub(crate) version: String,
    /// Cancelled when the server stops: directory watchers end.
    pub(crate) closing: CancellationToken,
    /// Workflow runs answered with a task.
    pub(crate) tasks: crate::tasks::Tasks,
    /// The `w_*` names given so far, kept for the server's life.
    pub(crate) names: tools::workflows::Names,
}

impl McpServer {
    pub fn new(settings: McpSettings) -> Self {
        let max_tool_calls = settings.max_tool_calls.max(1);
        Self(Arc::new(Inner {
            registry: settings.registry,
            library: settings.library,
            runs: settings.runs,
            before_tool: settings.before_tool,
            run_limits: settings.run_limits,
            with_client_llm: settings.with_client_llm,
            read_only: settings.read_only,
            calls: Arc::new(Semaphore::new(max_tool_calls)),
            max_tool_calls,
            name: settings.name,
            version: settings.version,
            closing: CancellationToken::new(),
            tasks: crate::tasks::Tasks::default(),
            names: Default::default(),
        }))
    }

    pub(crate) fn inner(&self) -> &Inner {
        &self.0
    }

    /// The run manager, to cancel its runs on shutdown.
    pub fn runs(&self) -> &RunManager {
        &self.0.runs
    }

    /// A handler for one client connection.
    pub(crate) fn connection(&self) -> Connection {
        Connection {
            server: self.clone(),
            watch: Arc::new(Watch::new(self.0.library.dir.clone())),
        }
    }

    /// Serve one client on this process's stdin and stdout until it closes them (or `stop`
    /// fires). Nothing else may write to stdout meanwhile.
    pub async fn serve_stdio(&self, stop: CancellationToken) -> std::io::Result<()> {
        use rmcp::ServiceExt;
        // The SDK cancels the token it is given when the connection ends; `stop` stays the
        // caller's, so it still tells whether the caller stopped the server.
        let service = self
            .connection()
            .serve_with_ct(rmcp::transport::stdio(), stop.child_token())
            .await
            .map_err(std::io::Error::other)?;
        let result = service.waiting().await;
        self.close();
        result.map(|_| ()).map_err(std::io::Error::other)
    }

    /// Stop background work (directory watchers).
    pub fn close(&self) {
        self.0.closing.cancel();
    }
}

impl std::fmt::Debug for McpServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpServer")
            .field("name", &self.0.name)
            .field("read_only", &self.0.read_only)
            .finish_non_exhaustive()
    }
}

/// What vai says about itself in `initialize`.
const INSTRUCTIONS: &str = "vai runs retrieval (RAG) workflows. Call a `w_*` tool to run a whole \
workflow in one call; `vai_*` tools are single retrieval steps (search, rerank, embed, …). To write \
a workflow, read the resources vai://docs/workflows.md and vai://schema/workflow, then use \
workflow_validate until it reports no errors, and workflow_save; it then appears as a `w_*` tool.";

/// The instructions of a server started with `--read-only`.
const READ_ONLY_INSTRUCTIONS: &str = "vai runs retrieval (RAG) workflows. Call a `w_*` tool to run \
a whole workflow in one call; `vai_*` tools are single retrieval steps (search, rerank, embed, …). \
This server is read-only: it runs and checks workflows (workflow_validate, workflow_step_plan) but \
cannot save, rename or delete them, and offers only tools that change nothing.";

/// The handler of one connected client.
#[derive(Clone)]
pub(crate) struct Connection {
    pub(crate) server: McpServer,
    pub(crate) watch: Arc<Watch>,
}

impl ServerHandler for Connection {
    fn get_info(&self) -> ServerConfig {
        let inner = self.server.inner();
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_prompts()
                .enable_resources()
                .enable_tools()
                .enable_tool_list_changed()
                .enable_resources_list_changed()
                .enable_tasks()
                .build(),
        )
        .with_server_info(Implementation::new(&inner.name, &inner.version))
        .with_instructions(if inner.read_only {
            READ_ONLY_INSTRUCTIONS
        } else {
            INSTRUCTIONS
        })
    }

    /// The revisions with an `initialize` handshake and sessions: what clients speak today, and
    /// where progress, cancellation and list-changed notifications work as this server uses them.
    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Borrowed(ProtocolVersion::known_up_to(&ProtocolVersion::V_2025_11_25))
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        self.watch
            .start(context.peer, self.server.inner().closing.clone());
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        let listed = tools::list(&self.server);
        Ok(ListToolsResult::with_all_items(
            listed.into_iter().map(|e| e.tool).collect(),
        ))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let listed = tools::list(&self.server);
        let Some(entry) = listed.into_iter().find(|e| e.tool.name == request.name) else {
            return Err(McpError::invalid_params(
                format!(
                    "unknown tool \"{}\"; tools/list gives the tools this server has",
                    clip(&request.name, 80)
                ),
                None,
            ));
        };
        let args = request.arguments.unwrap_or_default();
        let violations = crate::schema::check(
            &serde_json::Value::Object((*entry.tool.input_schema).clone()),
            &args,
        );
        if !violations.is_empty() {
            return Ok(Failure::invalid_arguments(&entry.tool.name, violations)
                .into_result()
                .into());
        }
        Ok(match entry.target {
            Target::Vai(name) => tools::vai::call(&self.server, name, args, &context)
                .await
                .into(),
            Target::Workflow(w) => tools::workflows::call(self, &w, args, &context).await,
            Target::Authoring(tool) => tools::authoring::call(self, tool, args, &context).await,
        })
    }

    async fn get_task(
        &self,
        request: GetTaskParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, McpError> {
        let inner = self.server.inner();
        inner.tasks.get(&inner.runs, &request.task_id)
    }

    async fn cancel_task(
        &self,
        request: CancelTaskParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        let inner = self.server.inner();
        inner.tasks.cancel(&inner.runs, &request.task_id)
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        Ok(ListResourcesResult::with_all_items(resources::list(
            &self.server,
        )))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, McpError> {
        Ok(ListResourceTemplatesResult::with_all_items(
            resources::templates(),
        ))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, McpError> {
        resources::read(&self.server, &request.uri).map(Into::into)
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, McpError> {
        Ok(ListPromptsResult::with_all_items(prompts::list()))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, McpError> {
        prompts::get(
            &self.server,
            &request.name,
            request.arguments.unwrap_or_default(),
        )
        .map(Into::into)
    }
}

/// `text` cut to `max` characters, for quoting what a client sent.
pub(crate) fn clip(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_string(),
    }
}

/// The failure of a call refused because `max` calls are already going.
pub(crate) fn too_many_calls(max: usize) -> Failure {
    Failure::new(
        "TOO_MANY_CALLS",
        Category::Execution,
        format!("{max} vai tool calls are already running"),
        "wait for one to finish, then call again",
    )
    .retryable()
}
