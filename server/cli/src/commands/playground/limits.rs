//! The playground's limits as flags (docs/security.md, "Limits"), and the file-descriptor soft
//! limit raised at start so the connection and socket caps, not the OS, decide what is refused.

use clap::Args;
use std::time::Duration;
use vai_http::Limits;

/// Every limit of the server; the defaults are `vai_http::Limits::default()`'s.
#[derive(Debug, Args)]
pub(crate) struct LimitArgs {
    /// HTTP connections served at once; more wait in the listen queue until one closes.
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_connections as u32, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_connections: u32,
    /// HTTP connections served at once from one client address; one more is closed at once.
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_connections_per_ip as u32, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_connections_per_ip: u32,
    /// Seconds a connection has to send its request headers (and an idle kept-alive
    /// connection stays open).
    #[arg(long, value_name = "SECONDS", default_value_t = Limits::default().header_timeout.as_secs(), value_parser = clap::value_parser!(u64).range(1..))]
    pub header_timeout: u64,
    /// Seconds a request's whole body may take to arrive.
    #[arg(long, value_name = "SECONDS", default_value_t = Limits::default().body_timeout.as_secs(), value_parser = clap::value_parser!(u64).range(1..))]
    pub body_timeout: u64,
    /// Seconds a request may go without a byte read or written.
    #[arg(long, value_name = "SECONDS", default_value_t = Limits::default().idle_timeout.as_secs(), value_parser = clap::value_parser!(u64).range(1..))]
    pub idle_timeout: u64,
    /// Runs going at once; starting one more is refused until one ends.
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_runs as u32, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_runs: u32,
    /// Finished runs kept for the web app to show (the newest).
    #[arg(long, value_name = "N", default_value_t = Limits::default().keep_runs as u32, value_parser = clap::value_parser!(u32).range(1..))]
    pub keep_runs: u32,
    /// Megabytes the kept finished runs may hold together (outputs, inputs and events as
    /// JSON); the oldest are dropped first.
    #[arg(long, value_name = "MB", default_value_t = (Limits::default().keep_bytes >> 20) as u32, value_parser = clap::value_parser!(u32).range(1..))]
    pub keep_mb: u32,
    /// Run-event WebSockets open at once (one per playground tab).
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_sockets as u32, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_sockets: u32,
    /// Chat answers written at once, across every tab (each tab and each session writes one
    /// at a time).
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_chat_turns as u32, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_chat_turns: u32,
    /// Seconds a step-through run may stay paused without Next or Continue before it is
    /// cancelled.
    #[arg(long, value_name = "SECONDS", default_value_t = Limits::default().pause_idle.as_secs(), value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub pause_idle: u64,
}

impl LimitArgs {
    pub(crate) fn limits(&self) -> Limits {
        Limits {
            max_connections: self.max_connections as usize,
            max_connections_per_ip: self.max_connections_per_ip as usize,
            header_timeout: Duration::from_secs(self.header_timeout),
            body_timeout: Duration::from_secs(self.body_timeout),
            idle_timeout: Duration::from_secs(self.idle_timeout),
            max_runs: self.max_runs as usize,
            keep_runs: self.keep_runs as usize,
            keep_bytes: (self.keep_mb as usize) << 20,
            max_sockets: self.max_sockets as usize,
            max_chat_turns: self.max_chat_turns as usize,
            pause_idle: Duration::from_secs(self.pause_idle),
        }
    }
}

/// Raise the soft limit on open files to the hard limit. The default soft limit (1,024 on most
/// Linux systems) is below what the connection and socket caps allow together; a refused
/// connection should come from those caps, with a clear answer, not from `accept` failing.
/// Returns a warning to print when it could not.
#[cfg(unix)]
pub(super) fn raise_fd_limit() -> Option<String> {
    use rustix::process::{Resource, Rlimit, getrlimit, setrlimit};
    let now = getrlimit(Resource::Nofile);
    // `None` is unlimited.
    let raised = Rlimit {
        current: now.maximum,
        maximum: now.maximum,
    };
    if now.current == now.maximum {
        return None;
    }
    let shown = |v: Option<u64>| v.map_or("unlimited".to_string(), |n| n.to_string());
    setrlimit(Resource::Nofile, raised).err().map(|e| {
        format!(
            "cannot raise the open-file limit from {} to {}: {e}",
            shown(now.current),
            shown(now.maximum)
        )
    })
}

#[cfg(not(unix))]
pub fn raise_fd_limit() -> Option<String> {
    None
}
