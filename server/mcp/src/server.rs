//! The server's state: what the composition root hands it ([`McpSettings`]), what every module
//! reads ([`McpServer`], shared by every connection) and what one connection holds
//! ([`Connection`]). It sits below everything else in the crate: the tools, resources, prompts
//! and runs read it, and the `ServerHandler` (`handler`) answers each client on top of them.

use crate::names::Names;
use crate::plans::Plans;
use crate::sampling::WithLlm;
use crate::tasks::Tasks;
use crate::watch::Watch;
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
    pub with_client_llm: Option<WithLlm>,
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
    pub(crate) with_client_llm: Option<WithLlm>,
    pub(crate) read_only: bool,
    pub(crate) calls: Arc<Semaphore>,
    pub(crate) max_tool_calls: usize,
    pub(crate) name: String,
    pub(crate) version: String,
    /// Cancelled when the server stops: directory watchers end.
    pub(crate) closing: CancellationToken,
    /// Workflow runs answered with a task.
    pub(crate) tasks: Tasks,
    /// The `w_*` names given so far, kept for the server's life.
    pub(crate) names: Names,
    /// The plan of each run started here, to shape its results (also after it waited).
    pub(crate) plans: Plans,
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
            tasks: Tasks::default(),
            names: Default::default(),
            plans: Plans::default(),
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

/// One connected client: the server, and the watch that tells it when the workflow directory
/// changes. The `ServerHandler` it answers with is `handler`'s.
#[derive(Clone)]
pub(crate) struct Connection {
    pub(crate) server: McpServer,
    pub(crate) watch: Arc<Watch>,
}
