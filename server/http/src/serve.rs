//! Accepting connections for `app(state)` within the server's limits. `axum::serve` has no
//! timeouts and no cap: a client that trickles its headers, or opens a socket and says nothing,
//! holds a connection (and a file descriptor) for good, and about a thousand of them starve
//! real requests. Here every connection has a header-read timeout (which also closes idle
//! kept-alive connections), an idle timeout while a request is under way, and at most
//! `max_connections` are served at once.

use crate::state::AppState;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::future::Future;
use std::io;
use std::pin::{Pin, pin};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

/// Serve `state`'s app on `listener` until `shutdown` resolves, then stop accepting, let each
/// connection finish its request, and return once all have closed.
///
/// At the connection cap the server stops accepting rather than accepting and closing: new
/// connections wait in the kernel's listen queue and are served as soon as a slot frees — and a
/// slot always frees within the timeouts, since a silent or trickling client is cut by them.
/// Refusing instead would fail the browser's real requests outright while an attacker holds
/// every slot. Upgraded WebSockets leave the count (they have their own cap, `max_sockets`).
pub async fn serve(
    listener: TcpListener,
    state: AppState,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> io::Result<()> {
    let limits = state.limits().clone();
    let router = crate::app(state);
    let slots = Arc::new(Semaphore::new(limits.max_connections));
    let connections = TaskTracker::new();
    let closing = CancellationToken::new();
    let mut shutdown = pin!(shutdown);
    loop {
        let slot = tokio::select! {
            slot = slots.clone().acquire_owned() => slot.map_err(io::Error::other)?,
            () = &mut shutdown => break,
        };
        let tcp = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((tcp, _)) => tcp,
                Err(e) => {
                    accept_failed(&e).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        // Run events are small frames written one after another; without TCP_NODELAY the
        // second waits for the client's delayed ACK of the first (up to 40 ms on Linux).
        let _ = tcp.set_nodelay(true);
        let service = TowerToHyperService::new(router.clone());
        let closing = closing.clone();
        let (header_timeout, idle_timeout) = (limits.header_timeout, limits.idle_timeout);
        connections.spawn(async move {
            let _slot = slot;
            let activity = Arc::new(Activity::new());
            let io = TokioIo::new(Watched {
                inner: tcp,
                activity: activity.clone(),
            });
            let conn = http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(header_timeout)
                .serve_connection(io, service)
                .with_upgrades();
            let mut conn = pin!(conn);
            let mut stopping = false;
            loop {
                tokio::select! {
                    // Done, failed, timed out, or handed over to a WebSocket.
                    _ = conn.as_mut() => break,
                    () = closing.cancelled(), if !stopping => {
                        stopping = true;
                        conn.as_mut().graceful_shutdown();
                    }
                    // Dropping the connection closes it.
                    () = activity.idle_for(idle_timeout) => break,
                }
            }
        });
    }
    drop(listener);
    closing.cancel();
    connections.close();
    connections.wait().await;
    Ok(())
}

/// After a failed accept: a connection that went away before we took it is nothing; anything
/// else (out of file descriptors, most likely) gets a pause so the loop does not spin.
async fn accept_failed(e: &io::Error) {
    use io::ErrorKind::{ConnectionAborted, ConnectionRefused, ConnectionReset};
    if matches!(
        e.kind(),
        ConnectionAborted | ConnectionRefused | ConnectionReset
    ) {
        return;
    }
    tracing::warn!(error = %e, "cannot accept a connection");
    tokio::time::sleep(Duration::from_millis(100)).await;
}

/// When a connection last moved a byte, in milliseconds since it opened.
struct Activity {
    opened: Instant,
    last_ms: AtomicU64,
}

impl Activity {
    fn new() -> Self {
        Self {
            opened: Instant::now(),
            last_ms: AtomicU64::new(0),
        }
    }

    fn touch(&self) {
        let ms = self.opened.elapsed().as_millis() as u64;
        self.last_ms.store(ms, Ordering::Relaxed);
    }

    /// Resolves once no byte has moved for `timeout`.
    async fn idle_for(&self, timeout: Duration) {
        loop {
            let last = self.opened + Duration::from_millis(self.last_ms.load(Ordering::Relaxed));
            let deadline = last + timeout;
            if Instant::now() >= deadline {
                return;
            }
            tokio::time::sleep_until(deadline.into()).await;
        }
    }
}

/// A TCP stream that notes each read and write in its `Activity`.
struct Watched {
    inner: TcpStream,
    activity: Arc<Activity>,
}

impl AsyncRead for Watched {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.inner).poll_read(cx, buf);
        if buf.filled().len() > before {
            self.activity.touch();
        }
        polled
    }
}

impl AsyncWrite for Watched {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let polled = Pin::new(&mut self.inner).poll_write(cx, buf);
        if matches!(polled, Poll::Ready(Ok(n)) if n > 0) {
            self.activity.touch();
        }
        polled
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let polled = Pin::new(&mut self.inner).poll_write_vectored(cx, bufs);
        if matches!(polled, Poll::Ready(Ok(n)) if n > 0) {
            self.activity.touch();
        }
        polled
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}
