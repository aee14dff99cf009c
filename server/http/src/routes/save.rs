//! `POST /api/workflows/save`: write a workflow into the start directory in its stable text
//! form, refusing to overwrite a file that changed on disk since the editor opened it.

use super::Json;
use crate::error::ApiError;
use crate::library::{FILE_SUFFIX, file_summary, id_of, version_of};
use crate::state::AppState;
use crate::write::{self, WriteError};
use axum::extract::State;
use std::path::Path;
use tokio::sync::Mutex;
use vai_contract::{SaveRequest, SaveResponse, WorkflowSource};
use vai_workflow::load::MAX_FILE_BYTES;

/// Longest file stem accepted.
const MAX_STEM: usize = 100;

pub(super) async fn save(
    State(state): State<AppState>,
    Json(body): Json<SaveRequest>,
) -> Result<Json<SaveResponse>, ApiError> {
    let dir = state
        .inner()
        .library
        .dir()
        .ok_or_else(|| {
            ApiError::NoDirectory(
                "the playground has no directory to save into; start `vai playground` in one"
                    .into(),
            )
        })?
        .to_path_buf();
    let name = file_name(&body.file_name)?;
    let text = vai_workflow::format::format(&body.definition);
    if text.len() as u64 > MAX_FILE_BYTES {
        return Err(ApiError::FileTooLarge(format!(
            "the workflow is {} bytes; workflow files are limited to {MAX_FILE_BYTES} bytes",
            text.len()
        )));
    }
    let summary = file_summary(&name, &text);
    let request = Request {
        name: name.clone(),
        text,
        base_version: body.base_version,
        overwrite: body.overwrite.unwrap_or(false),
    };
    // One save at a time, so checking the version and replacing the file are not interleaved
    // with another save (another editor on the same file may then see the conflict).
    static SAVES: Mutex<()> = Mutex::const_new(());
    let _one = SAVES.lock().await;
    let version = tokio::task::spawn_blocking(move || write_checked(&dir, &request))
        .await
        .map_err(|e| ApiError::Internal(e.to_string()))??;
    Ok(Json(SaveResponse {
        id: id_of(WorkflowSource::File, &name),
        version,
        summary,
    }))
}

/// The file name a save request names: `<stem>` or `<stem>.vai-workflow.json`, where the stem
/// is a plain name — never a path.
pub(crate) fn file_name(given: &str) -> Result<String, ApiError> {
    let stem = given.strip_suffix(FILE_SUFFIX).unwrap_or(given);
    let mut chars = stem.chars();
    let plain = chars.next().is_some_and(|c| c.is_ascii_alphanumeric())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | ' ' | '-'))
        && stem.len() <= MAX_STEM
        && !stem.contains("..");
    if !plain {
        return Err(ApiError::InvalidName(format!(
            "\"{given}\" is not a workflow file name: use letters, digits, spaces, '.', '_' and '-' (at most {MAX_STEM}, starting with a letter or digit), not a path"
        )));
    }
    Ok(format!("{stem}{FILE_SUFFIX}"))
}

struct Request {
    name: String,
    text: String,
    base_version: Option<String>,
    overwrite: bool,
}

/// Write unless the file on disk is not the one the editor opened; the new version.
fn write_checked(dir: &Path, request: &Request) -> Result<String, ApiError> {
    let name = &request.name;
    let on_disk = write::current(dir, name).map_err(write_error)?;
    if let Some(bytes) = on_disk
        && !request.overwrite
    {
        match &request.base_version {
            None => {
                return Err(ApiError::Conflict(format!(
                    "a file named {name} already exists; save under another name, or overwrite it"
                )));
            }
            Some(base) if *base != version_of(&bytes) => {
                return Err(ApiError::Conflict(format!(
                    "{name} changed on disk since it was opened; reload it, or save anyway to overwrite"
                )));
            }
            Some(_) => {}
        }
    }
    write::atomic_write(dir, name, request.text.as_bytes()).map_err(write_error)?;
    Ok(version_of(request.text.as_bytes()))
}

pub(crate) fn write_error(e: WriteError) -> ApiError {
    match e {
        WriteError::NotAFile { .. } => ApiError::Conflict(e.to_string()),
        WriteError::Io { .. } => ApiError::Internal(e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_are_names_not_paths() {
        assert_eq!(file_name("my flow").unwrap(), "my flow.vai-workflow.json");
        assert_eq!(
            file_name("rag.v2.vai-workflow.json").unwrap(),
            "rag.v2.vai-workflow.json"
        );
        for bad in [
            "",
            "../x",
            "a/b",
            "a\\b",
            ".hidden",
            "a..b",
            "x\n",
            "é",
            &"a".repeat(101),
            ".vai-workflow.json",
        ] {
            assert!(file_name(bad).is_err(), "{bad:?}");
        }
    }
}
