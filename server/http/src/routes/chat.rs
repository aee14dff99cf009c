//! `/api/chat`: what answers questions (the configuration), the kept sessions — list, read,
//! delete — and one turn's tool calls as a workflow. Questions themselves go over the WebSocket
//! (`chat_ask`), so their answers stream on the connection the page already has.

use super::json::Json;
use crate::chat::{self, Chats, quoted};
use crate::error::ApiError;
use crate::state::AppState;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde_json::Value;
use vai_chat::HistoryError;
use vai_contract::{ChatConfig, ChatSession, ChatSessionList};

pub(super) async fn config(State(state): State<AppState>) -> Json<ChatConfig> {
    Json(state.chat().map_or_else(chat::no_chat, Chats::config))
}

pub(super) async fn sessions(
    State(state): State<AppState>,
) -> Result<Json<ChatSessionList>, ApiError> {
    let chats = chats(&state)?;
    let sessions = chats
        .engine()
        .history()
        .list()
        .await
        .map_err(|e| history_error(e, ""))?;
    Ok(Json(ChatSessionList { sessions }))
}

pub(super) async fn session(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<ChatSession>, ApiError> {
    let chats = chats(&state)?;
    Ok(Json(load(chats, &id).await?))
}

/// 204; 409 while the session is answering (the turn would write it again).
pub(super) async fn delete(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    let chats = chats(&state)?;
    vai_chat::history::check_id(&id).map_err(|e| history_error(e, &id))?;
    if chats.is_running(&id) {
        return Err(ApiError::Conflict(format!(
            "chat session \"{}\" is answering a question; stop it first",
            quoted(&id)
        )));
    }
    let deleted = chats
        .engine()
        .history()
        .delete(&id)
        .await
        .map_err(|e| history_error(e, &id))?;
    if deleted {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(not_found(&id))
    }
}

/// The tool calls of turn `turn` as a `.vai-workflow.json` document.
pub(super) async fn workflow(
    State(state): State<AppState>,
    Path((id, turn)): Path<(String, String)>,
) -> Result<Json<Value>, ApiError> {
    let chats = chats(&state)?;
    let session = load(chats, &id).await?;
    let turn = session.turns.iter().find(|t| t.id == turn).ok_or_else(|| {
        ApiError::NotFound(format!(
            "chat session \"{}\" has no turn \"{}\"",
            quoted(&id),
            quoted(&turn)
        ))
    })?;
    Ok(Json(vai_chat::export_workflow(turn)?))
}

fn chats(state: &AppState) -> Result<&Chats, ApiError> {
    state.chat().ok_or(ApiError::ChatUnavailable)
}

async fn load(chats: &Chats, id: &str) -> Result<ChatSession, ApiError> {
    chats
        .engine()
        .session(id)
        .await
        .map_err(|e| history_error(e, id))
}

fn not_found(id: &str) -> ApiError {
    ApiError::NotFound(format!("no chat session \"{}\"", quoted(id)))
}

fn history_error(e: HistoryError, id: &str) -> ApiError {
    match e {
        HistoryError::NotFound(_) => not_found(id),
        HistoryError::BadId(_) => ApiError::BadRequest(e.to_string()),
        HistoryError::Store(cause) => ApiError::History(cause),
    }
}
