//! The `ServerHandler` each connected client talks to, on top of everything else: tools,
//! resources and prompts are computed from the registry and the library on every list, so they
//! always match the workflow directory; a call is routed by the name it gives against that same
//! list, its arguments checked against the tool's schema first.

use crate::failure::Failure;
use crate::server::Connection;
use crate::tools::{self, Target};
use crate::{prompts, resources, schema};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CancelTaskParams, GetPromptRequestParams,
    GetPromptResponse, GetTaskParams, GetTaskResult, Implementation, ListPromptsResult,
    ListResourceTemplatesResult, ListResourcesResult, ListToolsResult, PaginatedRequestParams,
    ProtocolVersion, ReadResourceRequestParams, ReadResourceResponse, ServerCapabilities,
    ServerConfig, UpdateTaskParams,
};
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};
use std::borrow::Cow;
use vai_workflow::value::truncate_chars;

/// What vai says about itself in `initialize`.
const INSTRUCTIONS: &str = "vai runs retrieval (RAG) workflows. Call a `w_*` tool to run a whole \
workflow in one call; `vai_*` tools are single retrieval steps (search, rerank, embed, …). To write \
a workflow, read the resources vai://docs/workflows.md and vai://schema/workflow, then use \
workflow_validate until it reports no errors, and workflow_save; it then appears as a `w_*` tool. \
workflow_plan ranks the workflows for a goal. A run that asks a person returns status \
\"waiting\" with a message and the answer it expects: ask them, then call workflow_resume.";

/// The instructions of a server started with `--read-only`.
const READ_ONLY_INSTRUCTIONS: &str = "vai runs retrieval (RAG) workflows. Call a `w_*` tool to run \
a whole workflow in one call; `vai_*` tools are single retrieval steps (search, rerank, embed, …). \
This server is read-only: it runs and checks workflows (workflow_validate, workflow_step_plan) but \
cannot save, rename or delete them, and offers only tools that change nothing.";

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
                    truncate_chars(&request.name, 80)
                ),
                None,
            ));
        };
        let args = request.arguments.unwrap_or_default();
        let violations = schema::check(
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
            Target::Authoring(tool) => tools::authoring::call(self, tool, args, &context).await?,
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

    async fn update_task(
        &self,
        request: UpdateTaskParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        let inner = self.server.inner();
        inner
            .tasks
            .update(&inner.runs, &request.task_id, request.input_responses)
            .await
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
