//! The chat turns the server answers for its sockets: the engine, the options every question
//! starts from, and the turns running now — at most one per socket, one per session, and
//! `Limits::max_chat_turns` in all. A turn's events go to the socket that asked, in order; a
//! turn whose socket closes is cancelled, and the engine records it as cancelled.

use crate::error::{QUOTE_LIMIT, clip};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;
use vai_chat::{ChatEngine, ChatError, ChatOptions, HistoryError};
use vai_contract::{ApiErrorCode, ChatAsk, ChatConfig, ChatEvent, ServerMessage};
use vai_providers::local::llm::LocalLlm;

/// The chat engine as the server shares it; a cheap `Clone`.
#[derive(Clone)]
pub(crate) struct Chats(Arc<Inner>);

struct Inner {
    engine: ChatEngine,
    /// What a question is answered with unless it says otherwise (`.vai.json` `chat`).
    options: ChatOptions,
    max_turns: usize,
    /// The turns being answered, by session id.
    running: Mutex<HashMap<String, Running>>,
    tickets: AtomicU64,
}

struct Running {
    /// The socket that asked.
    socket: u64,
    /// Tells this turn from a later one of the same session.
    ticket: u64,
    cancel: CancellationToken,
}

/// A session's place among the running turns, given back when dropped.
struct Reservation {
    chats: Chats,
    session: String,
    ticket: u64,
    cancel: CancellationToken,
}

impl Drop for Reservation {
    fn drop(&mut self) {
        let mut running = self.chats.running();
        if running.get(&self.session).map(|r| r.ticket) == Some(self.ticket) {
            running.remove(&self.session);
        }
    }
}

/// A new id for each socket, so its turns can be found (and cancelled) when it closes.
pub(crate) fn socket_id() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// Why a question was not taken: the `error {code, message, sessionId?}` that says so.
#[derive(Debug)]
pub(crate) struct Refused {
    code: ApiErrorCode,
    message: String,
    session: Option<String>,
}

impl Refused {
    pub(crate) fn into_message(self) -> ServerMessage {
        ServerMessage::Error {
            code: self.code,
            message: self.message,
            run_id: None,
            session_id: self.session,
        }
    }
}

fn refused(code: ApiErrorCode, message: String, session: Option<&str>) -> Refused {
    Refused {
        code,
        message,
        session: session.map(quoted),
    }
}

/// `error {code, message, sessionId?}`.
fn error(code: ApiErrorCode, message: String, session: Option<&str>) -> ServerMessage {
    refused(code, message, session).into_message()
}

/// How a session id the client sent is quoted back.
pub(crate) fn quoted(id: &str) -> String {
    clip(id, QUOTE_LIMIT)
}

impl Chats {
    pub(crate) fn new(engine: ChatEngine, options: ChatOptions, max_turns: usize) -> Self {
        Chats(Arc::new(Inner {
            engine,
            options,
            max_turns: max_turns.max(1),
            running: Mutex::new(HashMap::new()),
            tickets: AtomicU64::new(1),
        }))
    }

    pub(crate) fn engine(&self) -> &ChatEngine {
        &self.0.engine
    }

    fn running(&self) -> MutexGuard<'_, HashMap<String, Running>> {
        self.0.running.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// What answers, where it looks, and how to fix it when nothing can.
    pub(crate) fn config(&self) -> ChatConfig {
        let engine = &self.0.engine;
        let options = &self.0.options;
        let Some(llm) = engine.llm() else {
            return ChatConfig {
                hint: Some(engine.no_llm_hint().to_string()),
                history: engine.history().kind().to_string(),
                ..unavailable(options)
            };
        };
        let provider = llm.name().to_string();
        let model = options
            .model
            .clone()
            .unwrap_or_else(|| llm.default_model().to_string());
        let label = if provider == LocalLlm::NAME {
            LocalLlm::LABEL.to_string()
        } else {
            format!("{provider} · {model}")
        };
        ChatConfig {
            available: true,
            provider,
            label,
            supports_tools: engine.supports_tools(),
            // The LLM trait cannot list a provider's models: the one in use is the choice.
            models: vec![model.clone()],
            model,
            history: engine.history().kind().to_string(),
            hint: None,
            ..unavailable(options)
        }
    }

    /// Whether a turn of `session` is being answered.
    pub(crate) fn is_running(&self, session: &str) -> bool {
        self.running().contains_key(session)
    }

    /// Stop the answer of `session`'s running turn, if there is one.
    pub(crate) fn cancel(&self, session: &str) {
        if let Some(turn) = self.running().get(session) {
            turn.cancel.cancel();
        }
    }

    /// Stop every turn socket `socket` asked for (it closed).
    pub(crate) fn cancel_socket(&self, socket: u64) {
        for turn in self.running().values().filter(|t| t.socket == socket) {
            turn.cancel.cancel();
        }
    }

    /// Start answering `ask` for socket `socket`, its events sent to `outbox`; the `error` to
    /// send back when it cannot start.
    pub(crate) fn ask(
        &self,
        socket: u64,
        ask: ChatAsk,
        outbox: mpsc::Sender<Arc<str>>,
    ) -> Result<(), Refused> {
        let engine = &self.0.engine;
        let given = ask.session_id.as_deref();
        if engine.llm().is_none() {
            return Err(refused(
                ApiErrorCode::NotAvailable,
                engine.no_llm_hint().to_string(),
                given,
            ));
        }
        let (session, existing) = match given {
            Some(id) => {
                vai_chat::history::check_id(id)
                    .map_err(|e| refused(ApiErrorCode::BadMessage, e.to_string(), Some(id)))?;
                (id.to_string(), true)
            }
            None => (vai_chat::history::new_id(), false),
        };
        let reservation = self.reserve(socket, &session, given)?;
        tokio::spawn(
            self.clone()
                .answer(ask, session, existing, reservation, outbox),
        );
        Ok(())
    }

    /// Take a place for a turn of `session`, within the budgets.
    fn reserve(
        &self,
        socket: u64,
        session: &str,
        given: Option<&str>,
    ) -> Result<Reservation, Refused> {
        let mut running = self.running();
        let busy = |message: String| refused(ApiErrorCode::Busy, message, given);
        if running.values().any(|t| t.socket == socket) {
            return Err(busy(
                "an answer is already being written on this connection; stop it or wait for it \
                 to finish"
                    .to_string(),
            ));
        }
        if running.contains_key(session) {
            return Err(busy(format!(
                "chat session \"{}\" is already answering a question; stop it or wait for it \
                 to finish",
                quoted(session)
            )));
        }
        if running.len() >= self.0.max_turns {
            return Err(busy(format!(
                "{} chat answers are already being written; wait for one to finish",
                self.0.max_turns
            )));
        }
        let ticket = self.0.tickets.fetch_add(1, Ordering::Relaxed);
        let cancel = CancellationToken::new();
        running.insert(
            session.to_string(),
            Running {
                socket,
                ticket,
                cancel: cancel.clone(),
            },
        );
        Ok(Reservation {
            chats: self.clone(),
            session: session.to_string(),
            ticket,
            cancel,
        })
    }

    /// Answer one question, passing its events on to the socket's outbox as they come.
    async fn answer(
        self,
        ask: ChatAsk,
        session: String,
        existing: bool,
        reservation: Reservation,
        outbox: mpsc::Sender<Arc<str>>,
    ) {
        // The engine reports through a plain callback; this queue hands its events to the
        // socket without waiting. It holds at most one turn's events (the turn's size is bounded
        // by the model's answer and the tool-call limit) and only while the socket is slow.
        let (queue, mut queued) = mpsc::unbounded_channel::<Arc<str>>();
        let forward = async move {
            while let Some(text) = queued.recv().await {
                if outbox.send(text).await.is_err() {
                    break;
                }
            }
        };
        tokio::join!(
            self.turn(ask, session, existing, reservation, queue),
            forward
        );
    }

    async fn turn(
        &self,
        ask: ChatAsk,
        session: String,
        existing: bool,
        reservation: Reservation,
        queue: mpsc::UnboundedSender<Arc<str>>,
    ) {
        let send = |message: &ServerMessage| {
            if let Ok(text) = serde_json::to_string(message) {
                // The socket is gone: the turn still finishes and is recorded.
                let _ = queue.send(text.into());
            }
        };
        let engine = &self.0.engine;
        // The engine would start a session by any id; only ids it gave out are continued.
        if existing {
            match engine.history().load(&session).await {
                Ok(Some(_)) => {}
                Ok(None) => {
                    send(&error(
                        ApiErrorCode::NotFound,
                        format!("no chat session \"{}\"", quoted(&session)),
                        Some(&session),
                    ));
                    return;
                }
                Err(e) => {
                    send(&history_failure(&e, &session, false));
                    return;
                }
            }
        }
        let options = self.0.options.with_ask(&ask);
        let cancel = reservation.cancel.clone();
        let mut reservation = Some(reservation);
        let mut finished = false;
        let result = {
            let mut sink = |event: ChatEvent| {
                if matches!(event, ChatEvent::TurnFinished { .. }) {
                    // The turn is recorded: the session is free before the client hears so and
                    // asks again.
                    reservation.take();
                    finished = true;
                }
                send(&ServerMessage::Chat {
                    session_id: session.clone(),
                    event,
                });
            };
            engine
                .ask(&session, &ask.question, &options, &mut sink, &cancel)
                .await
        };
        if let Err(e) = result {
            let message = match &e {
                ChatError::NoLlm(hint) => {
                    error(ApiErrorCode::NotAvailable, hint.clone(), Some(&session))
                }
                ChatError::EmptyQuestion => {
                    error(ApiErrorCode::BadQuestion, e.to_string(), Some(&session))
                }
                ChatError::History(e) => history_failure(e, &session, finished),
            };
            send(&message);
        }
    }
}

/// The configuration with nothing to answer with, the rest from `options`.
fn unavailable(options: &ChatOptions) -> ChatConfig {
    ChatConfig {
        available: false,
        provider: String::new(),
        model: String::new(),
        label: "no LLM".to_string(),
        supports_tools: false,
        models: Vec::new(),
        db: options.db.clone().unwrap_or_default(),
        collection: options.collection.clone().unwrap_or_default(),
        mode: options.mode,
        history: "memory".to_string(),
        max_question_bytes: vai_chat::MAX_QUESTION_BYTES,
        hint: Some("chat is not available on this server".to_string()),
    }
}

/// The configuration of a server started without a chat engine.
pub(crate) fn no_chat() -> ChatConfig {
    unavailable(&ChatOptions::default())
}

/// The `error` for a history that failed: ids are the client's fault, the store's causes are
/// logged, never sent.
fn history_failure(e: &HistoryError, session: &str, answered: bool) -> ServerMessage {
    match e {
        HistoryError::NotFound(_) => error(
            ApiErrorCode::NotFound,
            format!("no chat session \"{}\"", quoted(session)),
            Some(session),
        ),
        HistoryError::BadId(_) => error(ApiErrorCode::BadMessage, e.to_string(), Some(session)),
        HistoryError::Store(cause) => {
            tracing::warn!(%cause, "chat history");
            let message = if answered {
                "the answer could not be kept in the chat history (the playground's log says why)"
            } else {
                "the chat history cannot be read (the playground's log says why)"
            };
            error(
                ApiErrorCode::HistoryUnavailable,
                message.to_string(),
                Some(session),
            )
        }
    }
}
