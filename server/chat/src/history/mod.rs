//! Where chat sessions are kept: in MongoDB when one is configured (`vai_chat_history`, as the
//! Node.js vai keeps them), else in files beside the local store, or only in memory
//! (`--no-history`). Every store keeps whole turns, failed and cancelled ones included, and
//! never rewrites an earlier turn.

mod file;
mod memory;
mod mongo;

pub use file::FileHistory;
pub use memory::MemoryHistory;
pub use mongo::MongoHistory;

use async_trait::async_trait;
use vai_contract::{ChatSession, ChatSessionSummary, ChatTurn};

/// Longest session id accepted (ids are generated as 32 hex digits; users type them back).
pub const MAX_SESSION_ID: usize = 64;

/// Sessions listed at most.
pub const MAX_LISTED: usize = 100;

#[derive(Debug, thiserror::Error)]
pub enum HistoryError {
    #[error("no chat session \"{0}\"")]
    NotFound(String),
    #[error(
        "\"{0}\" is not a session id: use letters, digits, '-' and '_', at most {MAX_SESSION_ID}"
    )]
    BadId(String),
    #[error("the chat history cannot be read or written: {0}")]
    Store(String),
}

/// A place sessions are kept.
#[async_trait]
pub trait History: Send + Sync {
    /// `local`, `mongodb` or `memory`.
    fn kind(&self) -> &'static str;

    /// The session with all its turns, oldest first; `None` when there is no such session.
    async fn load(&self, id: &str) -> Result<Option<ChatSession>, HistoryError>;

    /// Add `turn` at the end of session `id`, creating the session with its first turn.
    async fn append(&self, id: &str, turn: &ChatTurn) -> Result<(), HistoryError>;

    /// Sessions, most recently used first, at most [`MAX_LISTED`].
    async fn list(&self) -> Result<Vec<ChatSessionSummary>, HistoryError>;

    /// Remove session `id` and its turns; `false` when there was none.
    async fn delete(&self, id: &str) -> Result<bool, HistoryError>;
}

/// Check a session id a user typed or a client sent before it names a file or a query.
pub fn check_id(id: &str) -> Result<(), HistoryError> {
    let ok = !id.is_empty()
        && id.len() <= MAX_SESSION_ID
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if ok {
        Ok(())
    } else {
        let shown: String = id.chars().take(MAX_SESSION_ID).collect();
        Err(HistoryError::BadId(shown))
    }
}

/// A new session id: 32 random hex digits.
pub fn new_id() -> String {
    let mut bytes = [0u8; 16];
    // The operating system's random source; a clock-based id if it is unavailable.
    if getrandom::fill(&mut bytes).is_err() {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or_default();
        bytes = nanos.to_le_bytes();
    }
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A session's title: its first question on one line, cut to 80 characters.
pub fn title_of(question: &str) -> String {
    let line = question.split_whitespace().collect::<Vec<_>>().join(" ");
    if line.chars().count() <= 80 {
        line
    } else {
        let cut: String = line.chars().take(79).collect();
        format!("{cut}…")
    }
}

/// The summary of `session`.
pub fn summary_of(session: &ChatSession) -> ChatSessionSummary {
    ChatSessionSummary {
        id: session.id.clone(),
        title: session.title.clone(),
        created_at: session.created_at,
        updated_at: session.updated_at,
        turn_count: session.turns.len(),
    }
}

/// `session` with `turn` added (a new session when `session` is `None`).
pub(crate) fn with_turn(session: Option<ChatSession>, id: &str, turn: &ChatTurn) -> ChatSession {
    let mut session = session.unwrap_or_else(|| ChatSession {
        id: id.to_string(),
        title: title_of(&turn.question),
        created_at: turn.started_at,
        updated_at: turn.started_at,
        turns: Vec::new(),
    });
    session.updated_at = session.updated_at.max(turn.started_at);
    session.turns.push(turn.clone());
    session
}

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or_default()
}

#[cfg(test)]
pub(crate) mod tests;
