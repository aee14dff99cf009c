//! `/api/ws`: the run-event stream, and the chat turns the page asks for. `serve` speaks the
//! protocol over any sink and stream of text frames, so tests can drive it without a network;
//! `upgrade` adapts an axum WebSocket to it, within the socket cap and the client message limit.

use crate::chat::{Refused, socket_id};
use crate::error::{ApiError, QUOTE_LIMIT, clip};
use crate::limits::MAX_SOCKET_MESSAGE;
use crate::state::AppState;
use axum::extract::State;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade, close_code};
use axum::http::HeaderMap;
use axum::http::header::ORIGIN;
use axum::response::{IntoResponse, Response};
use futures_util::{Sink, SinkExt, Stream, StreamExt};
use std::collections::HashMap;
use std::future::ready;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use tokio::sync::{broadcast, mpsc};
use tokio::task::JoinHandle;
use vai_contract::{ApiErrorCode, ClientMessage, RunState, ServerMessage};
use vai_runtime::runs::{Outgoing, Run};

/// Messages queued for one socket before its forwarders wait (they hold shared event text, so
/// this bounds handles, not copies).
const OUTBOX: usize = 64;

/// Each socket's read buffer. Client messages are tiny; the 128 KiB default, allocated for
/// every socket up front, made idle sockets cost ~160 KB each.
const READ_BUFFER: usize = 4 * 1024;

/// Longest malformed-message error sent back (serde's text quotes what it could not read).
const ERROR_TEXT_LIMIT: usize = 160;

pub(super) async fn upgrade(
    State(state): State<AppState>,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Response {
    // Browsers always send Origin on a WebSocket handshake; without it, the caller is not our
    // page.
    let origin = headers.get(ORIGIN).and_then(|o| o.to_str().ok());
    if !state.inner().guard.origin_allowed(origin) {
        return ApiError::ForbiddenOrigin.into_response();
    }
    // Held for the socket's life; released if the upgrade never completes.
    let Ok(permit) = state.inner().sockets.clone().try_acquire_owned() else {
        return ApiError::TooManySockets(state.limits().max_sockets).into_response();
    };
    ws.max_message_size(MAX_SOCKET_MESSAGE)
        .max_frame_size(MAX_SOCKET_MESSAGE)
        .read_buffer_size(READ_BUFFER)
        // Each message is written out at once (and flushed: `serve` sends one at a time).
        .write_buffer_size(0)
        .on_upgrade(move |socket: WebSocket| async move {
            let _permit = permit;
            let (mut write, read) = socket.split();
            let too_big = Arc::new(AtomicBool::new(false));
            let noted = too_big.clone();
            let read = read
                .take_while(move |m| {
                    if let Err(e) = m
                        && is_too_big(e)
                    {
                        noted.store(true, Ordering::Relaxed);
                    }
                    ready(matches!(m, Ok(m) if !matches!(m, Message::Close(_))))
                })
                .filter_map(|m| {
                    ready(match m {
                        Ok(Message::Text(t)) => Some(t.as_str().to_string()),
                        _ => None,
                    })
                });
            let text = (&mut write)
                .with(|text: String| ready(Ok::<_, axum::Error>(Message::Text(text.into()))));
            serve(state, Box::pin(text), Box::pin(read)).await;
            if too_big.load(Ordering::Relaxed) {
                let close = CloseFrame {
                    code: close_code::SIZE,
                    reason: format!("messages are limited to {} KB", MAX_SOCKET_MESSAGE / 1024)
                        .into(),
                };
                let _ = write.send(Message::Close(Some(close))).await;
            }
        })
        .into_response()
}

/// True when a read failed because the client's message or frame is over the limit.
fn is_too_big(error: &axum::Error) -> bool {
    let source: &(dyn std::error::Error + 'static) = error;
    let mut cause = Some(source);
    while let Some(e) = cause {
        if let Some(tungstenite::Error::Capacity(_)) = e.downcast_ref::<tungstenite::Error>() {
            return true;
        }
        cause = e.source();
    }
    false
}

/// Speak the socket protocol until the client goes away: `hello`, then `run_created` for every
/// new run, for each `subscribe` a snapshot followed by every later event of that run, and for
/// each `chat_ask` the turn's events. A chat turn still running when the socket closes is
/// cancelled.
pub async fn serve<W, R>(state: AppState, mut write: W, mut read: R)
where
    W: Sink<String> + Unpin,
    R: Stream<Item = String> + Unpin,
{
    let runs = state.runs();
    let socket = socket_id();
    let mut created = runs.created();
    let closing = runs.closing();
    let hello = ServerMessage::Hello {
        runs: runs.list().await,
    };
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
                                // A finished run sends nothing more after its snapshot; one that
                                // waits for a person goes on after an answer.
                                let finished = !matches!(snapshot.status, RunState::Running | RunState::Waiting);
                                if send(&mut write, &ServerMessage::Snapshot { run: Box::new(snapshot) }).await.is_err() {
                                    break;
                                }
                                if !finished {
                                    let task = tokio::spawn(forward(run, seq, rx, outbox.clone()));
                                    subscriptions.insert(run_id, task);
                                }
                                None
                            }
                            // A run saved as waiting or interrupted by an earlier server: its
                            // snapshot; an answer or a continue takes it up, and the client
                            // subscribes again.
                            None if let Some(snapshot) = runs.saved_snapshot(&run_id).await => {
                                if send(&mut write, &ServerMessage::Snapshot { run: Box::new(snapshot) }).await.is_err() {
                                    break;
                                }
                                None
                            }
                            None => {
                                let quoted = clip(&run_id, QUOTE_LIMIT);
                                Some(ServerMessage::Error {
                                    code: ApiErrorCode::NotFound,
                                    message: format!("no run \"{quoted}\""),
                                    run_id: Some(quoted),
                                    session_id: None,
                                })
                            }
                        }
                    }
                    Ok(ClientMessage::Unsubscribe { run_id }) => {
                        if let Some(task) = subscriptions.remove(&run_id) {
                            task.abort();
                        }
                        None
                    }
                    Ok(ClientMessage::ChatAsk { ask }) => match state.chat() {
                        Some(chats) => chats.ask(socket, ask, outbox.clone()).err().map(Refused::into_message),
                        None => Some(ServerMessage::Error {
                            code: ApiErrorCode::NotAvailable,
                            message: "chat is not available on this server".to_string(),
                            run_id: None,
                            session_id: ask.session_id.as_deref().map(|s| clip(s, QUOTE_LIMIT)),
                        }),
                    },
                    // Nothing to say when the session is not answering: it may just have ended.
                    Ok(ClientMessage::ChatCancel { session_id }) => {
                        if let Some(chats) = state.chat() {
                            chats.cancel(&session_id);
                        }
                        None
                    }
                    Err(e) => Some(ServerMessage::Error {
                        code: ApiErrorCode::BadMessage,
                        message: format!("cannot read the message: {}", clip(&e.to_string(), ERROR_TEXT_LIMIT)),
                        run_id: None,
                        session_id: None,
                    }),
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
    if let Some(chats) = state.chat() {
        chats.cancel_socket(socket);
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
                let (missed, fresh) = run.catch_up(seq);
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

async fn send<W: Sink<String> + Unpin>(write: &mut W, message: &ServerMessage) -> Result<(), ()> {
    let text = serde_json::to_string(message).map_err(|_| ())?;
    write.send(text).await.map_err(|_| ())
}
