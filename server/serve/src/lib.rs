//! Serving one of vai's local HTTP ports — the playground and `vai mcp --http` — within limits:
//! [`serve_bounded`] accepts connections for a router with a cap (in all and per client
//! address), a header-read timeout, a deadline for reading each request body and an idle
//! timeout; [`HostGuard`] refuses requests that do not name this server; [`error_response`] is
//! the one `{"error": {"code", "message"}}` body both servers answer with.

mod accept;
mod body;
mod guard;

pub use accept::{ServeLimits, serve_bounded};
pub use guard::{HostGuard, error_response};
