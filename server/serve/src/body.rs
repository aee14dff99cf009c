//! A deadline for each request's body. The idle timeout cuts a body that stalls, but not one
//! trickled a byte every few seconds: 64 such requests of 100 kB held every slot of a server for
//! as long as their senders liked. A body that has not arrived whole within the deadline ends
//! in an error, the handler answers (400), and the connection is closed.

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use http_body::{Frame, SizeHint};
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::time::Sleep;

/// `router` with every request body bounded by `timeout`, counted from when its headers arrived.
pub(crate) fn with_body_deadline(router: Router, timeout: Duration) -> Router {
    router.layer(axum::middleware::map_request_with_state(timeout, bound))
}

async fn bound(State(timeout): State<Duration>, request: Request) -> Request {
    request.map(|inner| {
        Body::new(Deadline {
            inner,
            sleep: Box::pin(tokio::time::sleep(timeout)),
            timeout,
        })
    })
}

struct Deadline {
    inner: Body,
    sleep: Pin<Box<Sleep>>,
    timeout: Duration,
}

/// The error a late body ends with.
#[derive(Debug)]
struct TooSlow(Duration);

impl std::fmt::Display for TooSlow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the request body did not arrive within {} s",
            self.0.as_secs()
        )
    }
}

impl std::error::Error for TooSlow {}

impl http_body::Body for Deadline {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        let this = &mut *self;
        if let Poll::Ready(frame) = Pin::new(&mut this.inner).poll_frame(cx) {
            return Poll::Ready(frame);
        }
        match this.sleep.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Some(Err(axum::Error::new(TooSlow(this.timeout))))),
            Poll::Pending => Poll::Pending,
        }
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}
