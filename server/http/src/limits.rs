//! How much the playground server takes on at once: connections, runs, sockets, chat answers
//! and the finished runs it keeps. One struct, so the CLI flags, the docs (docs/security.md, "Limits") and the
//! tests all name the same defaults.

use std::time::Duration;
use vai_runtime::RunBudget;
use vai_serve::ServeLimits;

/// Largest client message on the run socket. The protocol's messages (`subscribe`,
/// `unsubscribe`) are under 200 bytes, and a `chat_ask` carries a question of at most 16 KB; a
/// larger one is closed with 1009 before it is parsed.
pub const MAX_SOCKET_MESSAGE: usize = 64 * 1024;

/// The server's limits; `Limits::default()` is what `vai playground` uses without flags.
#[derive(Debug, Clone)]
pub struct Limits {
    /// HTTP connections served at once. Beyond it the server stops accepting until one closes:
    /// new connections wait in the kernel's listen queue (see `vai_serve::serve_bounded`).
    pub max_connections: usize,
    /// HTTP connections served at once from one client address; one more is closed at once.
    pub max_connections_per_ip: usize,
    /// Time a connection has to send a request's headers: from when it opens, or from the end
    /// of the previous response on a kept-alive connection. It also closes idle kept-alive
    /// connections.
    pub header_timeout: Duration,
    /// Time a request's whole body may take to arrive (a body trickled a byte at a time).
    pub body_timeout: Duration,
    /// Time a request may go without a byte read or written (a stalled body, a client that
    /// stopped reading the response).
    pub idle_timeout: Duration,
    /// Runs going at once; `POST /api/runs` beyond it is 429 `TOO_MANY_RUNS`.
    pub max_runs: usize,
    /// Finished runs kept, at most (the newest).
    pub keep_runs: usize,
    /// Bytes the kept finished runs may hold together (their outputs, inputs and events as
    /// JSON); the oldest are dropped first. The newest finished run is kept even when it alone
    /// is larger.
    pub keep_bytes: usize,
    /// Run-event WebSockets open at once; an upgrade beyond it is 503 `TOO_MANY_SOCKETS`.
    pub max_sockets: usize,
    /// Chat answers being written at once, across every socket (each socket and each session
    /// has at most one); a `chat_ask` beyond it is an `error` with code `BUSY`.
    pub max_chat_turns: usize,
    /// How long a step-through run may wait paused for Next or Continue before it is
    /// cancelled.
    pub pause_idle: Duration,
}

impl Limits {
    /// The accept loop's share of the limits.
    pub fn serve_limits(&self) -> ServeLimits {
        ServeLimits {
            max_connections: self.max_connections,
            max_connections_per_ip: self.max_connections_per_ip,
            header_timeout: self.header_timeout,
            body_timeout: self.body_timeout,
            idle_timeout: self.idle_timeout,
            ..ServeLimits::default()
        }
    }

    /// The run manager's share of the limits.
    pub fn run_budget(&self) -> RunBudget {
        RunBudget {
            max_runs: self.max_runs,
            keep_runs: self.keep_runs,
            keep_bytes: self.keep_bytes,
            pause_idle: self.pause_idle,
        }
    }
}

impl Default for Limits {
    fn default() -> Self {
        let runs = RunBudget::default();
        let serve = ServeLimits::default();
        Self {
            max_connections: serve.max_connections,
            max_connections_per_ip: serve.max_connections_per_ip,
            header_timeout: serve.header_timeout,
            body_timeout: serve.body_timeout,
            idle_timeout: serve.idle_timeout,
            max_runs: runs.max_runs,
            keep_runs: runs.keep_runs,
            keep_bytes: runs.keep_bytes,
            max_sockets: 256,
            max_chat_turns: 4,
            pause_idle: runs.pause_idle,
        }
    }
}
