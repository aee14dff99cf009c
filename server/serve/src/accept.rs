//! The accept loop. `axum::serve` has no timeouts and no cap: a client that trickles its
//! headers or its body, or opens a socket and says nothing, holds a connection (and a file
//! descriptor) for good, and enough of them starve real requests. Here every connection has a
//! header-read timeout (which also closes idle kept-alive connections), a deadline for each
//! request's body, an idle timeout while a request is under way, at most `max_connections` are
//! served at once, and at most `max_connections_per_ip` from one address.

use crate::body::with_body_deadline;
use axum::Router;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::net::IpAddr;
use std::pin::{Pin, pin};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

/// How much one port takes on at once, and how long a client may take.
#[derive(Debug, Clone)]
pub struct ServeLimits {
    /// Connections served at once. Beyond it the server stops accepting until one closes: new
    /// connections wait in the kernel's listen queue.
    pub max_connections: usize,
    /// Connections served at once from one client address; one more is closed at once. On
    /// loopback every client shares one address, so this is the cap a local process meets.
    pub max_connections_per_ip: usize,
    /// Time a connection has to send a request's headers: from when it opens, or from the end
    /// of the previous response on a kept-alive connection.
    pub header_timeout: Duration,
    /// Time a request's whole body may take to arrive, from its headers: a body trickled a
    /// byte at a time is cut here even though bytes keep moving.
    pub body_timeout: Duration,
    /// Time a request may go without a byte read or written (a stalled body, a client that
    /// stopped reading the response).
    pub idle_timeout: Duration,
    /// After shutdown, how long open connections get to finish their requests.
    pub shutdown_grace: Duration,
}

impl Default for ServeLimits {
    fn default() -> Self {
        Self {
            max_connections: 512,
            max_connections_per_ip: 256,
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(30),
            idle_timeout: Duration::from_secs(60),
            shutdown_grace: Duration::from_secs(10),
        }
    }
}

/// Serve `router` on `listener` until `shutdown` resolves, then stop accepting, let each
/// connection finish its request (within `shutdown_grace`), and return.
///
/// At the connection cap the server stops accepting rather than accepting and closing: new
/// connections wait in the kernel's listen queue and are served as soon as a slot frees — and a
/// slot always frees within the timeouts, since a silent or trickling client is cut by them.
/// Refusing instead would fail the browser's real requests outright while an attacker holds
/// every slot. An upgraded connection (a WebSocket) leaves the count once upgraded; its own
/// handler bounds it.
pub async fn serve_bounded(
    listener: TcpListener,
    router: Router,
    limits: ServeLimits,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> io::Result<()> {
    let router = with_body_deadline(router, limits.body_timeout);
    let slots = Arc::new(Semaphore::new(limits.max_connections.max(1)));
    let per_ip = PerIp::new(limits.max_connections_per_ip.max(1));
    let connections = TaskTracker::new();
    let closing = CancellationToken::new();
    let mut shutdown = pin!(shutdown);
    loop {
        let slot = tokio::select! {
            slot = slots.clone().acquire_owned() => slot.map_err(io::Error::other)?,
            () = &mut shutdown => break,
        };
        let (tcp, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    accept_failed(&e).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        // Dropping the stream closes it: this address already holds its share.
        let Some(ip_slot) = per_ip.take(peer.ip()) else {
            continue;
        };
        // Small frames written one after another (run events, SSE) would otherwise wait for the
        // client's delayed ACK of the previous one (up to 40 ms on Linux).
        let _ = tcp.set_nodelay(true);
        let service = TowerToHyperService::new(router.clone());
        let closing = closing.clone();
        let limits = limits.clone();
        connections.spawn(async move {
            let _slots = (slot, ip_slot);
            let activity = Arc::new(Activity::new());
            let io = TokioIo::new(Watched {
                inner: tcp,
                activity: activity.clone(),
            });
            let conn = http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(limits.header_timeout)
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
                    () = activity.idle_for(limits.idle_timeout) => break,
                }
            }
        });
    }
    drop(listener);
    closing.cancel();
    connections.close();
    let _ = tokio::time::timeout(limits.shutdown_grace, connections.wait()).await;
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

/// Connections open per client address.
#[derive(Clone)]
struct PerIp {
    cap: usize,
    open: Arc<Mutex<HashMap<IpAddr, usize>>>,
}

/// One connection's place in its address's count; given back when dropped.
struct IpSlot {
    ip: IpAddr,
    open: Arc<Mutex<HashMap<IpAddr, usize>>>,
}

impl PerIp {
    fn new(cap: usize) -> Self {
        Self {
            cap,
            open: Arc::default(),
        }
    }

    fn take(&self, ip: IpAddr) -> Option<IpSlot> {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let count = open.entry(ip).or_insert(0);
        if *count >= self.cap {
            return None;
        }
        *count += 1;
        Some(IpSlot {
            ip,
            open: self.open.clone(),
        })
    }
}

impl Drop for IpSlot {
    fn drop(&mut self) {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(count) = open.get_mut(&self.ip) {
            *count -= 1;
            if *count == 0 {
                open.remove(&self.ip);
            }
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_gets_its_share_and_no_more_and_gets_it_back() {
        let per_ip = PerIp::new(2);
        let a: IpAddr = "127.0.0.1".parse().unwrap();
        let b: IpAddr = "10.0.0.2".parse().unwrap();
        let first = per_ip.take(a).unwrap();
        let _second = per_ip.take(a).unwrap();
        assert!(per_ip.take(a).is_none());
        assert!(
            per_ip.take(b).is_some(),
            "another address has its own share"
        );
        drop(first);
        assert!(per_ip.take(a).is_some());
    }
}
