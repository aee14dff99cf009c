//! `/api/ws`: the run-event stream. `serve` speaks the protocol over any sink and stream of text
//! frames, so tests can drive it without a network; `upgrade` adapts an axum WebSocket to it.

use crate::error::ApiError;
use crate::guard::origin_matches;
use crate::runs::{Outgoing, Run, RunManager};
use crate::state::AppState;
use axum::extract::State;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::http::HeaderMap;
use axum::http::header::ORIGIN;
use axum::response::{IntoResponse, Response};
use futures_util::{Sink, SinkExt, Stream, StreamExt};
use std::collections::HashMap;
use std::future::ready;
use std::sync::Arc;
use tokio::sync::{broadcast, mpsc};
use tokio::task::JoinHandle;
use vai_contract::{ClientMessage, RunState, ServerMessage};

/// Messages queued for one socket before its forwarders wait.
const OUTBOX: usize = 256;

pub(super) async fn upgrade(
    State(state): State<AppState>,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Response {
    // Browsers always send Origin on a WebSocket handshake; without it, the caller is not our
    // page.
    let origin = headers.get(ORIGIN).and_then(|o| o.to_str().ok());
    if !origin_matches(&state, origin) {
        return ApiError::ForbiddenOrigin.into_response();
    }
    let runs = state.runs().clone();
    ws.on_upgrade(move |socket: WebSocket| async move {
        let (write, read) = socket.split();
        let write =
            write.with(|text: String| ready(Ok::<_, axum::Error>(Message::Text(text.into()))));
        let read = read
            .take_while(|m| ready(matches!(m, Ok(m) if !matches!(m, Message::Close(_)))))
            .filter_map(|m| {
                ready(match m {
                    Ok(Message::Text(t)) => Some(t.as_str().to_string()),
                    _ => None,
                })
            });
        serve(runs, Box::pin(write), Box::pin(read)).await;
    })
    .into_response()
}

/// Speak the socket protocol until the client goes away: `hello`, then `run_created` for every
/// new run, and for each `subscribe` a snapshot followed by every later event of that run.
pub async fn serve<W, R>(runs: RunManager, mut write: W, mut read: R)
where
    W: Sink<String> + Unpin,
    R: Stream<Item = String> + Unpin,
{
    let mut created = runs.created();
    let closing = runs.closing();
    let hello = ServerMessage::Hello { runs: runs.list() };
    if send(&mut write, &hello).await.is_err() {
        return;
    }
    let (outbox, mut queued) = mpsc::channel::<Arc<str>>(OUTBOX);
    let mut subscriptions: HashMap<String, JoinHandle<()>> = HashMap::new();
    loop {
        tokio::select! {
            _ = closing.cancelled() => break,
            incoming = read.next() => {
                let Some(text) = incoming else { break };
                let reply = match serde_json::from_str::<ClientMessage>(&text) {
                    Ok(ClientMessage::Subscribe { run_id }) => {
                        if let Some(old) = subscriptions.remove(&run_id) {
                            old.abort();
                        }
                        match runs.get(&run_id) {
                            Some(run) => {
                                let (snapshot, rx) = run.subscribe();
                                let seq = snapshot.seq;
                                // A finished run sends nothing more after its snapshot.
                                let finished = snapshot.status != RunState::Running;
                                if send(&mut write, &ServerMessage::Snapshot { run: snapshot }).await.is_err() {
                                    break;
                                }
                                if !finished {
                                    let task = tokio::spawn(forward(run, seq, rx, outbox.clone()));
                                    subscriptions.insert(run_id, task);
                                }
                                None
                            }
                            None => Some(error("NOT_FOUND", format!("no run \"{run_id}\""))),
                        }
                    }
                    Ok(ClientMessage::Unsubscribe { run_id }) => {
                        if let Some(task) = subscriptions.remove(&run_id) {
                            task.abort();
                        }
                        None
                    }
                    Err(e) => Some(error("BAD_MESSAGE", format!("cannot read the message: {e}"))),
                };
                if let Some(reply) = reply
                    && send(&mut write, &reply).await.is_err()
                {
                    break;
                }
            }
            run = created.recv() => match run {
                Ok(run) => {
                    if send(&mut write, &ServerMessage::RunCreated { run }).await.is_err() {
                        break;
                    }
                }
                // A missed announcement is not fatal: the run list is one request away.
                Err(broadcast::error::RecvError::Lagged(_)) => {}
                Err(broadcast::error::RecvError::Closed) => break,
            },
            Some(text) = queued.recv() => {
                if write.send(text.to_string()).await.is_err() {
                    break;
                }
            }
        }
    }
    for task in subscriptions.into_values() {
        task.abort();
    }
}

/// Pass one run's events after `seq` to the socket's outbox, in order, without gaps: a
/// receiver that fell behind catches up from the run's log.
async fn forward(
    run: Arc<Run>,
    mut seq: u64,
    mut rx: broadcast::Receiver<Outgoing>,
    outbox: mpsc::Sender<Arc<str>>,
) {
    loop {
        let batch = match rx.recv().await {
            Ok(event) => vec![event],
            Err(broadcast::error::RecvError::Lagged(_)) => {
                let (missed, fresh) = run.resume(seq);
                rx = fresh;
                missed
            }
            Err(broadcast::error::RecvError::Closed) => return,
        };
        for event in batch {
            if event.seq <= seq {
                continue;
            }
            seq = event.seq;
            if outbox.send(event.json.clone()).await.is_err() || event.last {
                return;
            }
        }
    }
}

fn error(code: &str, message: String) -> ServerMessage {
    ServerMessage::Error {
        code: code.to_string(),
        message,
    }
}

async fn send<W: Sink<String> + Unpin>(write: &mut W, message: &ServerMessage) -> Result<(), ()> {
    let text = serde_json::to_string(message).map_err(|_| ())?;
    write.send(text).await.map_err(|_| ())
}
