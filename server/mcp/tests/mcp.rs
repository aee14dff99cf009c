//! The MCP server as a client sees it: the SDK's own client over streamable HTTP on loopback,
//! against a server with the offline tools (no provider configured) and a scratch workflow
//! directory. (Over stdio, the `vai` binary is driven by server/cli/tests/mcp.rs.)

#![expect(
    deprecated,
    reason = "the sampling types: this server speaks the protocol revisions that have sampling"
)]

#[path = "mcp/authoring.rs"]
mod authoring;
#[path = "mcp/calls.rs"]
mod calls;
#[path = "mcp/guard.rs"]
mod guard;
#[path = "mcp/listing.rs"]
mod listing;
#[path = "mcp/reference.rs"]
mod reference;
#[path = "mcp/waiting.rs"]
mod waiting;

use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientCapabilities, ClientConfig,
    CreateMessageRequestParams, CreateMessageResult, ElicitRequestParams, ElicitResult,
    Implementation, ProgressNotificationParam, SamplingMessage,
};
use rmcp::service::{NotificationContext, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use vai_mcp::http::{BearerKey, HttpOptions};
use vai_mcp::{McpServer, McpSettings, WithLlm};
use vai_providers::{Providers, Settings};
use vai_runtime::{RunBudget, RunManager};
use vai_workflow::input_schema::JsonType;
use vai_workflow::{
    ApiCalls, Category, Effects, InputSchema, PropertySchema, Tool, ToolCall, ToolFuture,
    ToolOutput, ToolSpec,
};

/// A fresh directory for one test's workflow files.
pub(crate) fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("vai-mcp-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A server with every tool and no provider (and `sleep`, for runs that take a while), the
/// built-ins and `dir`.
pub(crate) fn server(dir: &Path, read_only: bool, budget: RunBudget) -> McpServer {
    let providers = Arc::new(Providers::none(Settings::default()));
    let with_sleep = |providers: Arc<Providers>| {
        let mut registry = vai_tools::registry(providers, Default::default());
        registry.register(Arc::new(Sleep));
        Arc::new(registry)
    };
    let registry = with_sleep(providers.clone());
    // No LLM here: a client that offers sampling answers `generate` steps.
    let with_client_llm: WithLlm = Arc::new(move |llm| {
        let mut with_llm = (*providers).clone();
        with_llm.llm = Some(llm);
        with_sleep(Arc::new(with_llm))
    });
    let limits = vai_workflow::Limits::DEFAULT;
    // Journals beside the directory, as `vai mcp` keeps them in the data directory.
    let journals =
        vai_workflow::journal::RunStore::open(&PathBuf::from(format!("{}-data", dir.display())))
            .unwrap();
    let runs =
        RunManager::new(registry.clone(), None, budget, limits).with_journals(Arc::new(journals));
    McpServer::new(McpSettings {
        registry,
        library: vai_runtime::builtin::library(Some(dir)).unwrap(),
        runs,
        before_tool: None,
        run_limits: limits,
        with_client_llm: Some(with_client_llm),
        read_only,
        max_tool_calls: 4,
        name: "vai".into(),
        version: "test".into(),
    })
}

/// A server listening on loopback; dropping it stops the server.
pub(crate) struct Running {
    pub(crate) url: String,
    pub(crate) port: u16,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

pub(crate) async fn serve(server: McpServer, key: Option<&str>) -> Running {
    serve_with(server, |options| {
        options.key = key.map(|k| BearerKey::parse(k).unwrap());
    })
    .await
}

/// Serve with the default options as `adjust` changes them.
pub(crate) async fn serve_with(
    server: McpServer,
    adjust: impl FnOnce(&mut HttpOptions),
) -> Running {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let mut options = HttpOptions::new(port);
    adjust(&mut options);
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(vai_mcp::http::serve(
        listener,
        server,
        options,
        async move {
            let _ = stopped.await;
        },
    ));
    Running {
        url: format!("http://127.0.0.1:{port}/mcp"),
        port,
        stop: Some(stop),
    }
}

/// What the test client saw besides replies.
#[derive(Clone, Default)]
pub(crate) struct Seen {
    pub(crate) progress: Arc<Mutex<Vec<ProgressNotificationParam>>>,
    pub(crate) tools_changed: Arc<AtomicUsize>,
    pub(crate) changed: Arc<tokio::sync::Notify>,
    /// Offer sampling, answering every request with this text.
    pub(crate) answer: Option<String>,
    /// The sampling requests received.
    pub(crate) sampled: Arc<Mutex<Vec<CreateMessageRequestParams>>>,
    /// Declare the tasks extension: workflow runs answer with a task.
    pub(crate) tasks: bool,
    /// Declare elicitation, answering each question with the next of these (the last one
    /// again once they run out).
    pub(crate) elicit: Option<Arc<Vec<ElicitResult>>>,
    /// The elicitation requests received.
    pub(crate) elicited: Arc<Mutex<Vec<ElicitRequestParams>>>,
}

impl ClientHandler for Seen {
    fn get_info(&self) -> ClientConfig {
        let capabilities = if self.answer.is_some() {
            ClientCapabilities::builder().enable_sampling().build()
        } else if self.tasks {
            ClientCapabilities::builder().enable_tasks().build()
        } else if self.elicit.is_some() {
            ClientCapabilities::builder().enable_elicitation().build()
        } else {
            ClientCapabilities::default()
        };
        ClientConfig::new(capabilities, Implementation::new("vai-mcp-tests", "1"))
    }

    async fn create_message(
        &self,
        params: CreateMessageRequestParams,
        _context: rmcp::service::RequestContext<RoleClient>,
    ) -> Result<CreateMessageResult, rmcp::ErrorData> {
        self.sampled.lock().unwrap().push(params);
        let answer = self.answer.clone().unwrap_or_default();
        Ok(CreateMessageResult::new(
            SamplingMessage::assistant_text(answer),
            "client-model-1".to_string(),
        ))
    }

    async fn create_elicitation(
        &self,
        params: ElicitRequestParams,
        _context: rmcp::service::RequestContext<RoleClient>,
    ) -> Result<ElicitResult, rmcp::ErrorData> {
        let mut elicited = self.elicited.lock().unwrap();
        elicited.push(params);
        let answers = self
            .elicit
            .as_deref()
            .map(Vec::as_slice)
            .unwrap_or_default();
        let answer = answers.get(elicited.len() - 1).or(answers.last());
        answer.cloned().ok_or_else(|| {
            rmcp::ErrorData::method_not_found::<rmcp::model::ElicitationCreateRequestMethod>()
        })
    }

    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        self.progress.lock().unwrap().push(params);
    }

    async fn on_tool_list_changed(&self, _context: NotificationContext<RoleClient>) {
        self.tools_changed.fetch_add(1, Ordering::SeqCst);
        self.changed.notify_waiters();
    }
}

pub(crate) type Client = RunningService<RoleClient, Seen>;

pub(crate) async fn connect(running: &Running, key: Option<&str>) -> Client {
    try_connect(running, key).await.expect("connect")
}

pub(crate) async fn try_connect(running: &Running, key: Option<&str>) -> Result<Client, String> {
    connect_as(running, key, Seen::default()).await
}

pub(crate) async fn connect_as(
    running: &Running,
    key: Option<&str>,
    seen: Seen,
) -> Result<Client, String> {
    // The client's reqwest needs rustls' provider, which vai installs only when it first
    // builds an HTTP client of its own.
    vai_providers::net::install_crypto_provider();
    let mut config = StreamableHttpClientTransportConfig::with_uri(running.url.clone());
    if let Some(key) = key {
        config = config.auth_header(key);
    }
    let transport = StreamableHttpClientTransport::from_config(config);
    seen.serve(transport).await.map_err(|e| e.to_string())
}

/// Call `name` with `args` (a JSON object).
pub(crate) async fn call(client: &Client, name: &str, args: Value) -> CallToolResult {
    try_call(client, name, args).await.expect("a tool result")
}

pub(crate) async fn try_call(
    client: &Client,
    name: &str,
    args: Value,
) -> Result<CallToolResult, rmcp::ServiceError> {
    let args: Map<String, Value> = args.as_object().cloned().unwrap_or_default();
    client
        .call_tool(CallToolRequestParams::new(name.to_string()).with_arguments(args))
        .await
}

/// The structured content of a successful result.
pub(crate) fn ok(result: &CallToolResult) -> &Value {
    assert_ne!(result.is_error, Some(true), "{result:?}");
    result
        .structured_content
        .as_ref()
        .expect("structuredContent")
}

/// The error body of a failed result.
pub(crate) fn err(result: &CallToolResult) -> &Value {
    assert_eq!(result.is_error, Some(true), "{result:?}");
    let body = result
        .structured_content
        .as_ref()
        .expect("structuredContent");
    for key in [
        "error_code",
        "category",
        "message",
        "context",
        "retryable",
        "suggested_action",
        "violations",
    ] {
        assert!(body.get(key).is_some(), "{key} missing: {body}");
    }
    body
}

/// A workflow running only offline tools: the cost of `docs` documents with one model.
pub(crate) fn costs(tool: &str) -> Value {
    serde_json::json!({
        "name": "My Costs",
        "description": "What embedding some documents costs",
        "inputs": {"docs": {"type": "number", "required": true, "description": "Documents"}},
        "steps": [
            {"id": "price", "tool": tool, "inputs": {"model": "voyage-4-lite", "docs": "{{ inputs.docs }}"}}
        ],
        "output": {"cost": "{{ price.output }}", "docs": "{{ inputs.docs }}"}
    })
}

/// A tool that waits `ms` milliseconds: a step that is still running when a test looks.
struct Sleep;

static SLEEP: std::sync::LazyLock<ToolSpec> = std::sync::LazyLock::new(|| ToolSpec {
    name: "sleep",
    label: "Sleep",
    category: Category::Utility,
    icon: "Bedtime",
    description: "Wait a while",
    help: "Waits `ms` milliseconds, then returns {slept}.",
    input_schema: InputSchema::new().input("ms", PropertySchema::of(JsonType::Integer)),
    outputs: &[("slept", "the milliseconds waited")],
    deferred: &[],
    main_input: Some("ms"),
    api_calls: ApiCalls::default(),
    effects: Effects::PURE,
    optional_calls: &[],
    uses_store: false,
});

impl Tool for Sleep {
    fn spec(&self) -> &ToolSpec {
        &SLEEP
    }

    fn run<'a>(&'a self, call: ToolCall<'a>) -> ToolFuture<'a> {
        Box::pin(async move {
            let ms = call.input("ms").and_then(Value::as_u64).unwrap_or(0);
            tokio::time::sleep(std::time::Duration::from_millis(ms)).await;
            Ok(ToolOutput::new(serde_json::json!({"slept": ms})))
        })
    }
}

/// A workflow of two `sleep` steps, the second waiting `ms`.
pub(crate) fn sleepy(ms: u64) -> Value {
    serde_json::json!({
        "name": "Sleepy",
        "steps": [
            {"id": "first", "tool": "sleep", "inputs": {"ms": 1}},
            {"id": "second", "tool": "sleep", "inputs": {"ms": ms}, "dependsOn": ["first"]}
        ],
        "output": "{{ second.output.slept }}"
    })
}
