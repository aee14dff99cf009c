//! `POST /api/workflows/save`: write a workflow into the start directory in its stable text
//! form, refusing to overwrite a file that changed on disk since the editor opened it (the
//! library's `save` does the checking and the writing; this maps its refusals to statuses).

use super::json::Json;
use crate::error::ApiError;
use crate::state::AppState;
use axum::extract::State;
use vai_contract::{SaveRequest, SaveResponse};
use vai_runtime::{SaveError, save};
use vai_workflow::fsutil::FileError;

pub(super) async fn save(
    State(state): State<AppState>,
    Json(body): Json<SaveRequest>,
) -> Result<Json<SaveResponse>, ApiError> {
    let request = save::SaveRequest {
        file_name: body.file_name,
        definition: body.definition,
        base_version: body.base_version,
        overwrite: body.overwrite.unwrap_or(false),
    };
    let state2 = state.clone();
    let saved = tokio::task::spawn_blocking(move || state2.inner().library.save(request))
        .await
        .map_err(|e| ApiError::Internal(e.to_string()))?
        .map_err(save_error)?;
    Ok(Json(SaveResponse {
        id: saved.id,
        version: saved.version,
        summary: saved.summary,
    }))
}

pub(crate) fn save_error(e: SaveError) -> ApiError {
    match e {
        SaveError::NoDirectory => ApiError::NoDirectory(
            "the playground has no directory to save into; start `vai playground` in one".into(),
        ),
        SaveError::InvalidName(m) => ApiError::InvalidName(m),
        SaveError::TooLarge(m) => ApiError::FileTooLarge(m),
        SaveError::Conflict(m) => ApiError::Conflict(m),
        SaveError::NotFound(m) => ApiError::NotFound(m),
        SaveError::Io(m) => ApiError::Internal(m),
    }
}

pub(crate) fn file_error(e: FileError) -> ApiError {
    save_error(e.into())
}
