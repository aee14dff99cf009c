//! Accepting connections for `app(state)` within the server's limits: the bounded accept loop
//! all of vai's local servers share (`vai_serve::serve_bounded`).

use crate::state::AppState;
use std::future::Future;
use std::io;
use tokio::net::TcpListener;

/// Serve `state`'s app on `listener` until `shutdown` resolves, then stop accepting, let each
/// connection finish its request, and return once all have closed.
pub async fn serve(
    listener: TcpListener,
    state: AppState,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> io::Result<()> {
    let limits = state.limits().serve_limits();
    vai_serve::serve_bounded(listener, crate::app(state), limits, shutdown).await
}
