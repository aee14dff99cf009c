//! What the long-running servers (`vai playground`, `vai mcp`) share around the server itself:
//! stopping on a signal, naming the listening address, and seeding the local sample knowledge
//! base once, when a run or a call first needs the store.

use crate::app;
use crate::exit::{EXIT_INTERRUPTED, EXIT_OK};
use std::future::Future;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::Arc;
use tokio::net::TcpListener;
use tokio::sync::OnceCell;

/// Ctrl-C exits 130 like every command; SIGTERM (a service manager, a test harness) exits 0.
/// The handlers are installed when this is called, not when the future is first polled, so a
/// signal sent as soon as the address is printed is never lost (it would otherwise kill the
/// process without the graceful shutdown).
#[cfg(unix)]
pub(crate) fn stop_signal() -> impl Future<Output = u8> + Send + 'static {
    use tokio::signal::unix::{SignalKind, signal};
    let handlers = signal(SignalKind::interrupt()).and_then(|int| {
        let term = signal(SignalKind::terminate())?;
        Ok((int, term))
    });
    async move {
        match handlers {
            Ok((mut int, mut term)) => tokio::select! {
                _ = int.recv() => EXIT_INTERRUPTED,
                _ = term.recv() => EXIT_OK,
            },
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
                EXIT_INTERRUPTED
            }
        }
    }
}

#[cfg(not(unix))]
pub(crate) fn stop_signal() -> impl Future<Output = u8> + Send + 'static {
    async {
        let _ = tokio::signal::ctrl_c().await;
        EXIT_INTERRUPTED
    }
}

/// A listener on `host:port`, or `None` after saying on stderr why there is none (the port is
/// taken, the address is not this machine's).
pub(crate) async fn listen(host: IpAddr, port: u16) -> Option<TcpListener> {
    match TcpListener::bind((host, port)).await {
        Ok(listener) => Some(listener),
        Err(e) if e.kind() == std::io::ErrorKind::AddrInUse => {
            eprintln!(
                "error: port {port} is already in use; choose another with --port (0 picks a free one)"
            );
            None
        }
        Err(e) => {
            eprintln!("error: cannot listen on {host}:{port}: {e}");
            None
        }
    }
}

/// An address as it goes in a URL (IPv6 in brackets).
pub(crate) fn url_host(ip: IpAddr) -> String {
    match ip {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => format!("[{v6}]"),
    }
}

/// Seeds the sample knowledge base when called; cheap once done.
pub(crate) type Seed = Arc<dyn Fn() -> Pin<Box<dyn Future<Output = ()> + Send>> + Send + Sync>;

/// Seeding the local sample knowledge base, once, shared by every run and call that needs it;
/// what it says goes to stderr (stdout may be a protocol).
pub(crate) fn sample_seeding(live: Arc<app::App>) -> Seed {
    let once = Arc::new(OnceCell::<()>::new());
    Arc::new(move || {
        let once = once.clone();
        let live = live.clone();
        Box::pin(async move {
            once.get_or_init(|| async {
                match live.prepare_sample().await {
                    Some(Ok(line)) => eprintln!("{line}"),
                    Some(Err(e)) => eprintln!("warning: {e}"),
                    None => {}
                }
            })
            .await;
        })
    })
}
