//! The test harness: a `TestApp` over fake tools and a scratch workflow directory, requests
//! through the router, and a real loopback server for WebSocket tests (`socket`).

mod socket;

pub(crate) use socket::{SendJson, Socket, collect_run, connect, connect_as, next_json};

use axum::body::Body;
use axum::http::{Request, Response, StatusCode};
use serde_json::{Value, json};
use std::borrow::Cow;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use tower::ServiceExt;
use vai_contract::{Backend, ConfigStatus, ProviderId, ProviderStatus, WorkflowSource};
use vai_http::{AccessToken, AppState, Library, LibraryEntry, Limits, ServerSettings};
use vai_workflow::fsutil::Dir;
use vai_workflow::{
    ApiCalls, Category, Effects, InputSchema, Registry, Tool, ToolCall, ToolFuture, ToolOutput,
    ToolSpec,
};

/// The access token every test server uses.
pub(crate) const TOKEN: &str = "test-token-0123456789";

pub(crate) const MINE: &str = r#"{"name": "Mine", "inputs": {"q": {"type": "string"}}, "steps": [{"id": "a", "tool": "echo", "inputs": {"text": "{{ inputs.q }}"}}]}"#;

/// `a` → `b` → `c`, each echoing text; the output maps `c`.
pub(crate) fn chain() -> Value {
    json!({"name": "Chain", "inputs": {"q": {"type": "string", "required": true}}, "steps": [
        {"id": "a", "tool": "echo", "inputs": {"text": "{{ inputs.q }}"}},
        {"id": "b", "tool": "echo", "inputs": {"text": "{{ a.output.text }}"}},
        {"id": "c", "tool": "echo", "inputs": {"text": "{{ b.output.text }}!"}}
    ], "output": {"answer": "{{ c.output.text }}"}})
}

/// `chain` with steps that take 50 ms each, so a subscriber sees the run under way.
pub(crate) fn timed_chain() -> Value {
    let mut wf = chain();
    for step in wf["steps"].as_array_mut().unwrap() {
        step["inputs"]["delayMs"] = json!(50);
    }
    wf
}

/// A chain whose steps take a while, so a second client can join mid-run.
pub(crate) fn slow_chain() -> Value {
    json!({"name": "Slow", "steps": [
        {"id": "a", "tool": "echo", "inputs": {"delayMs": 100}},
        {"id": "b", "tool": "echo", "inputs": {"delayMs": 300, "v": "{{ a.output.delayMs }}"}},
        {"id": "c", "tool": "echo", "inputs": {"delayMs": 300, "v": "{{ b.output.v }}"}}
    ]})
}

/// One step that never finishes on its own.
pub(crate) fn stuck() -> Value {
    json!({"name": "Stuck", "steps": [{"id": "wait", "tool": "wait", "inputs": {}}]})
}

pub(crate) fn spec(
    name: &'static str,
    category: Category,
    main_input: Option<&'static str>,
) -> ToolSpec {
    ToolSpec {
        name,
        label: name,
        category,
        icon: "Search",
        description: "a test tool",
        help: "a test tool",
        input_schema: InputSchema::new(),
        outputs: &[("text", "the text")],
        deferred: &[],
        main_input,
        api_calls: ApiCalls {
            vector_search: u32::from(name == "echo"),
            ..ApiCalls::default()
        },
        // The fakes reach nothing and change nothing, `lookup` included.
        effects: Effects::PURE,
        optional_calls: &[],
        uses_store: false,
    }
}

/// Returns its inputs, after `delayMs`.
struct Echo(ToolSpec);
/// Returns `{text}` of `n` characters, after `delayMs`.
struct Big(ToolSpec);
/// Waits an hour.
struct Wait(ToolSpec);
/// A provider-backed search: reports a backend, and answers differently on every call in the
/// process, so only a mock reproduces a run.
struct Lookup(ToolSpec);

impl Tool for Echo {
    fn spec(&self) -> &ToolSpec {
        &self.0
    }
    fn run<'a>(&'a self, call: ToolCall<'a>) -> ToolFuture<'a> {
        Box::pin(async move {
            if let Some(ms) = call.inputs.get("delayMs").and_then(Value::as_u64) {
                tokio::time::sleep(Duration::from_millis(ms)).await;
            }
            Ok(ToolOutput::new(Value::Object(call.inputs.to_map())))
        })
    }
}

impl Tool for Big {
    fn spec(&self) -> &ToolSpec {
        &self.0
    }
    fn run<'a>(&'a self, call: ToolCall<'a>) -> ToolFuture<'a> {
        Box::pin(async move {
            if let Some(ms) = call.inputs.get("delayMs").and_then(Value::as_u64) {
                tokio::time::sleep(Duration::from_millis(ms)).await;
            }
            let n = call.inputs.get("n").and_then(Value::as_u64).unwrap_or(10) as usize;
            Ok(ToolOutput::new(json!({"text": "x".repeat(n)})))
        })
    }
}

impl Tool for Wait {
    fn spec(&self) -> &ToolSpec {
        &self.0
    }
    fn run<'a>(&'a self, _call: ToolCall<'a>) -> ToolFuture<'a> {
        Box::pin(async move {
            tokio::time::sleep(Duration::from_secs(3600)).await;
            Ok(ToolOutput::new(Value::Null))
        })
    }
}

impl Tool for Lookup {
    fn spec(&self) -> &ToolSpec {
        &self.0
    }
    fn run<'a>(&'a self, _call: ToolCall<'a>) -> ToolFuture<'a> {
        Box::pin(async move {
            static CALLS: AtomicUsize = AtomicUsize::new(0);
            let n = CALLS.fetch_add(1, Ordering::SeqCst);
            Ok(ToolOutput {
                output: json!({"results": [{"text": format!("hit {n}")}], "resultCount": 1}),
                usage: None,
                backend: Some("fake".into()),
                size: None,
            })
        })
    }
}

/// The fake tools: `echo`, `big`, `wait` and `lookup`.
pub(crate) fn registry() -> Arc<Registry> {
    let mut r = Registry::new();
    r.register(Arc::new(Echo(spec(
        "echo",
        Category::Retrieval,
        Some("text"),
    ))));
    r.register(Arc::new(Big(spec("big", Category::Utility, None))));
    r.register(Arc::new(Wait(spec("wait", Category::Utility, None))));
    let mut lookup = spec("lookup", Category::Retrieval, Some("query"));
    lookup.outputs = &[("results", "documents"), ("resultCount", "how many")];
    r.register(Arc::new(Lookup(lookup)));
    Arc::new(r)
}

/// A scratch directory with workflow files and files that must never be served.
fn workflow_dir() -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "vai-http-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::SeqCst)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::create_dir_all(dir.join("folder.vai-workflow.json")).unwrap();
    std::fs::write(dir.join("mine.vai-workflow.json"), MINE).unwrap();
    std::fs::write(dir.join("broken.vai-workflow.json"), "{ not json").unwrap();
    std::fs::write(dir.join("notes.json"), MINE).unwrap();
    std::fs::write(dir.join("secret.txt"), "top secret").unwrap();
    std::fs::write(dir.join("sub/inner.vai-workflow.json"), MINE).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(dir.join("secret.txt"), dir.join("link.vai-workflow.json")).unwrap();
    dir
}

/// The fake tools and the real `http` tool under its default policy (public addresses only).
fn registry_with_http() -> Arc<Registry> {
    let mut r = Arc::unwrap_or_clone(registry());
    r.register(Arc::new(vai_tools::http::Http::new(
        vai_tools::http::HttpPolicy::default(),
    )));
    Arc::new(r)
}

fn settings(port: u16, dir: PathBuf, registry: Arc<Registry>, limits: Limits) -> ServerSettings {
    let text = |v: Value| Cow::Owned(serde_json::to_string_pretty(&v).unwrap());
    ServerSettings {
        registry,
        library: Library {
            entries: vec![
                LibraryEntry {
                    name: "chain".into(),
                    source: WorkflowSource::Builtin,
                    text: text(chain()),
                },
                LibraryEntry {
                    name: "hello".into(),
                    source: WorkflowSource::Example,
                    text: text(stuck()),
                },
            ],
            dir: Some(Arc::new(Dir::open(&dir).unwrap())),
        },
        config: ConfigStatus {
            offline: true,
            providers: vec![ProviderStatus {
                id: ProviderId::Embeddings,
                label: "Embeddings".into(),
                backend: Backend::Local,
                configured: false,
                detail: "the local model".into(),
            }],
        },
        port,
        extra_hosts: Vec::new(),
        before_run: None,
        token: AccessToken::parse(TOKEN).unwrap(),
        limits,
        run_limits: vai_workflow::Limits::DEFAULT,
        chat: None,
        chat_options: vai_chat::ChatOptions::default(),
        // Journals beside the scratch directory, never in it.
        run_journals: Some(Arc::new(
            vai_workflow::journal::RunStore::open(&PathBuf::from(format!(
                "{}-data",
                dir.display()
            )))
            .unwrap(),
        )),
        pricing: vai_providers::Pricing::default(),
    }
}

/// The app under test.
pub(crate) struct TestApp {
    pub state: AppState,
    pub port: u16,
    /// The start directory: the workflow files it lists and saves into.
    pub dir: PathBuf,
}

impl TestApp {
    /// Requests go through the router; nothing listens.
    pub(crate) fn new() -> Self {
        Self::with_limits(Limits::default())
    }

    pub(crate) fn with_limits(limits: Limits) -> Self {
        let port = 3333;
        let dir = workflow_dir();
        Self {
            state: AppState::new(settings(port, dir.clone(), registry(), limits)),
            port,
            dir,
        }
    }

    /// A playground started again over `dir` with `journals` (the data directory's, or a
    /// shared store), as after a restart or on another machine.
    pub(crate) fn reopen(
        dir: PathBuf,
        registry: Arc<Registry>,
        journals: impl vai_workflow::journal::RunBackend + 'static,
    ) -> Self {
        let port = 3333;
        let mut settings = settings(port, dir.clone(), registry, Limits::default());
        settings.run_journals = Some(Arc::new(journals));
        Self {
            state: AppState::new(settings),
            port,
            dir,
        }
    }

    /// A playground started without a directory: nothing to list files from or save into.
    pub(crate) fn without_directory() -> Self {
        let mut app = Self::new();
        let mut settings = settings(app.port, app.dir.clone(), registry(), Limits::default());
        settings.library.dir = None;
        app.state = AppState::new(settings);
        app
    }

    /// Requests go through the router, with this chat engine (or none).
    pub(crate) fn with_chat(chat: Option<vai_chat::ChatEngine>) -> Self {
        let mut app = Self::new();
        let mut settings = settings(app.port, app.dir.clone(), registry(), Limits::default());
        settings.chat = chat;
        app.state = AppState::new(settings);
        app
    }

    /// A real server with this chat engine and these limits.
    pub(crate) async fn serve_chat(chat: vai_chat::ChatEngine, limits: Limits) -> Self {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let dir = workflow_dir();
        let mut settings = settings(port, dir.clone(), registry(), limits);
        settings.chat = Some(chat);
        let state = AppState::new(settings);
        tokio::spawn(vai_http::serve(
            listener,
            state.clone(),
            std::future::pending(),
        ));
        Self { state, port, dir }
    }

    /// A real server on a loopback port, for sockets.
    pub(crate) async fn serve() -> Self {
        Self::serve_tools(registry(), Limits::default()).await
    }

    /// A real server whose workflows may also use the real `http` tool, as the playground's do.
    pub(crate) async fn serve_with_http() -> Self {
        Self::serve_tools(registry_with_http(), Limits::default()).await
    }

    /// A real server with these limits, served as `vai playground` serves it.
    pub(crate) async fn serve_with(limits: Limits) -> Self {
        Self::serve_tools(registry(), limits).await
    }

    async fn serve_tools(registry: Arc<Registry>, limits: Limits) -> Self {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let dir = workflow_dir();
        let state = AppState::new(settings(port, dir.clone(), registry, limits));
        tokio::spawn(vai_http::serve(
            listener,
            state.clone(),
            std::future::pending(),
        ));
        Self { state, port, dir }
    }

    pub(crate) fn host(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }

    /// A request that names this server and carries the token.
    pub(crate) fn request(&self, method: &str, uri: &str) -> axum::http::request::Builder {
        Request::builder()
            .method(method)
            .uri(uri)
            .header("host", self.host())
            .header("authorization", format!("Bearer {TOKEN}"))
    }

    pub(crate) async fn send(&self, request: Request<Body>) -> Response<Body> {
        vai_http::app(self.state.clone())
            .oneshot(request)
            .await
            .unwrap()
    }

    pub(crate) async fn raw_get(&self, uri: &str) -> Response<Body> {
        let request = self.request("GET", uri).body(Body::empty()).unwrap();
        self.send(request).await
    }

    pub(crate) async fn get(&self, uri: &str) -> (StatusCode, Value) {
        let host = self.host();
        self.get_with(uri, &host, None).await
    }

    pub(crate) async fn get_with(
        &self,
        uri: &str,
        host: &str,
        origin: Option<&str>,
    ) -> (StatusCode, Value) {
        let mut request = Request::get(uri)
            .header("host", host)
            .header("authorization", format!("Bearer {TOKEN}"));
        if let Some(origin) = origin {
            request = request.header("origin", origin);
        }
        json_of(self.send(request.body(Body::empty()).unwrap()).await).await
    }

    pub(crate) async fn delete(&self, uri: &str) -> (StatusCode, Value) {
        let request = self.request("DELETE", uri).body(Body::empty()).unwrap();
        json_of(self.send(request).await).await
    }

    pub(crate) async fn post(&self, uri: &str, body: Value) -> (StatusCode, Value) {
        self.post_raw(uri, &body.to_string()).await
    }

    pub(crate) async fn post_raw(&self, uri: &str, body: &str) -> (StatusCode, Value) {
        let request = self
            .request("POST", uri)
            .header("content-type", "application/json")
            .body(Body::from(body.to_string()))
            .unwrap();
        json_of(self.send(request).await).await
    }

    /// Start a run; its id.
    pub(crate) async fn start(&self, definition: Value, inputs: Value) -> String {
        let (status, body) = self
            .post(
                "/api/runs",
                json!({"definition": definition, "inputs": inputs}),
            )
            .await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
        body["runId"].as_str().unwrap().to_string()
    }

    /// The run's snapshot once it has finished.
    pub(crate) async fn wait_finished(&self, run_id: &str) -> Value {
        for _ in 0..500 {
            let (status, snapshot) = self.get(&format!("/api/runs/{run_id}")).await;
            assert_eq!(status, StatusCode::OK, "{snapshot}");
            if snapshot["status"] != "running" {
                return snapshot;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        panic!("run {run_id} did not finish");
    }

    /// Run `run_id`'s snapshot once its status is `status`.
    pub(crate) async fn wait_for(&self, run_id: &str, status: &str) -> Value {
        for _ in 0..500 {
            let (code, snapshot) = self.get(&format!("/api/runs/{run_id}")).await;
            assert_eq!(code, StatusCode::OK, "{snapshot}");
            if snapshot["status"] == status {
                return snapshot;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        panic!("run {run_id} never became {status}");
    }
}

pub(crate) async fn json_of(response: Response<Body>) -> (StatusCode, Value) {
    let status = response.status();
    let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
        .await
        .unwrap();
    let value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    (status, value)
}
