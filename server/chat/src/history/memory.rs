//! Sessions kept in this process only (`--no-history`, or a playground with no store).

use super::{History, HistoryError, MAX_LISTED, summary_of, with_turn};
use async_trait::async_trait;
use std::collections::HashMap;
use std::sync::Mutex;
use vai_contract::{ChatSession, ChatSessionSummary, ChatTurn};

#[derive(Debug, Default)]
pub struct MemoryHistory {
    sessions: Mutex<HashMap<String, ChatSession>>,
}

impl MemoryHistory {
    pub fn new() -> Self {
        Self::default()
    }

    fn sessions(&self) -> std::sync::MutexGuard<'_, HashMap<String, ChatSession>> {
        self.sessions.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[async_trait]
impl History for MemoryHistory {
    fn kind(&self) -> &'static str {
        "memory"
    }

    async fn load(&self, id: &str) -> Result<Option<ChatSession>, HistoryError> {
        Ok(self.sessions().get(id).cloned())
    }

    async fn append(&self, id: &str, turn: &ChatTurn) -> Result<(), HistoryError> {
        let mut sessions = self.sessions();
        let session = with_turn(sessions.remove(id), id, turn);
        sessions.insert(id.to_string(), session);
        Ok(())
    }

    async fn list(&self) -> Result<Vec<ChatSessionSummary>, HistoryError> {
        let mut all: Vec<_> = self.sessions().values().map(summary_of).collect();
        all.sort_by_key(|s| std::cmp::Reverse(s.updated_at));
        all.truncate(MAX_LISTED);
        Ok(all)
    }

    async fn delete(&self, id: &str) -> Result<bool, HistoryError> {
        Ok(self.sessions().remove(id).is_some())
    }
}
