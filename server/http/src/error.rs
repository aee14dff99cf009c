//! One error type for every route: each variant maps to a status and a stable code, and renders
//! as `{error: {code, message}}`. Internal causes are logged, never sent.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use vai_contract::{ApiErrorBody, ApiErrorCode, ErrorInfo};
use vai_workflow::Diagnostic;
use vai_workflow::edit::RenameError;

/// Why a request failed.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    BadRequest(String),
    #[error("the workflow has errors")]
    InvalidWorkflow(Vec<Diagnostic>),
    #[error("{0}")]
    InvalidInputs(String),
    #[error("the request body is larger than 6 MB")]
    TooLarge,
    /// A workflow or test case over the 5 MB file limit.
    #[error("{0}")]
    FileTooLarge(String),
    /// A rename the builder asked for is not allowed (`INVALID_ID`, `RESERVED_ID`, `ID_TAKEN`).
    #[error("{0}")]
    Rename(#[from] RenameError),
    /// A file name that is not a plain workflow name.
    #[error("{0}")]
    InvalidName(String),
    /// The file changed on disk, already exists, or the run cannot become a test case yet.
    #[error("{0}")]
    Conflict(String),
    /// A resume of a run that is not paused (running between pauses, ended, or not a
    /// step-through run).
    #[error("{0}")]
    NotPaused(String),
    /// An answer to a run that is not waiting.
    #[error("{0}")]
    NotWaiting(String),
    /// An answer that does not satisfy the waiting step's `expects`.
    #[error("the answer does not satisfy what step \"{0}\" expects")]
    InvalidAnswer(String, Vec<vai_workflow::expects::FieldError>),
    /// The playground was started without a directory to save into.
    #[error("{0}")]
    NoDirectory(String),
    /// A listed workflow file that cannot be read (too large, not UTF-8, gone).
    #[error("{0}")]
    Unreadable(String),
    #[error("requests from other sites are refused")]
    ForbiddenOrigin,
    #[error(
        "this needs the playground's access token: open the URL `vai playground` printed (it carries ?token=…), or send `Authorization: Bearer <token>`"
    )]
    Unauthorized,
    #[error("{0} runs are already running; wait for one to finish or cancel one")]
    TooManyRuns(usize),
    #[error("{0} run sockets are already open; close a playground tab or raise --max-sockets")]
    TooManySockets(usize),
    /// The server has no chat engine.
    #[error("chat is not available on this server")]
    ChatUnavailable,
    /// A chat turn that cannot become a workflow (it called no tools).
    #[error("{0}")]
    Export(#[from] vai_chat::ExportError),
    /// The chat history cannot be read or written; the cause is logged, never sent.
    #[error("the chat history cannot be read or written (the playground's log says why)")]
    History(String),
    /// The run history's store cannot be read (a shared MongoDB store out of reach, say); the
    /// cause is logged, never sent.
    #[error("the run history cannot be read now; the playground's log says why")]
    RunHistory(String),
    /// Something broke on our side; the cause is logged, the client sees a generic message.
    #[error("internal error")]
    Internal(String),
}

impl ApiError {
    fn status_and_code(&self) -> (StatusCode, ApiErrorCode) {
        match self {
            ApiError::NotFound(_) => (StatusCode::NOT_FOUND, ApiErrorCode::NotFound),
            ApiError::BadRequest(_) => (StatusCode::BAD_REQUEST, ApiErrorCode::BadRequest),
            ApiError::InvalidWorkflow(_) => {
                (StatusCode::BAD_REQUEST, ApiErrorCode::InvalidWorkflow)
            }
            ApiError::InvalidInputs(_) => (StatusCode::BAD_REQUEST, ApiErrorCode::InvalidInputs),
            ApiError::TooLarge | ApiError::FileTooLarge(_) => {
                (StatusCode::PAYLOAD_TOO_LARGE, ApiErrorCode::PayloadTooLarge)
            }
            ApiError::Rename(e) => (
                StatusCode::BAD_REQUEST,
                match e {
                    RenameError::InvalidId(_) => ApiErrorCode::InvalidId,
                    RenameError::ReservedId(_) => ApiErrorCode::ReservedId,
                    RenameError::IdTaken(_) => ApiErrorCode::IdTaken,
                },
            ),
            ApiError::InvalidName(_) => (StatusCode::BAD_REQUEST, ApiErrorCode::InvalidName),
            ApiError::Conflict(_) => (StatusCode::CONFLICT, ApiErrorCode::Conflict),
            ApiError::NotPaused(_) => (StatusCode::CONFLICT, ApiErrorCode::NotPaused),
            ApiError::NotWaiting(_) => (StatusCode::CONFLICT, ApiErrorCode::NotWaiting),
            ApiError::InvalidAnswer(..) => (StatusCode::BAD_REQUEST, ApiErrorCode::InvalidAnswer),
            ApiError::NoDirectory(_) => (StatusCode::CONFLICT, ApiErrorCode::NoDirectory),
            ApiError::Unreadable(_) => (StatusCode::UNPROCESSABLE_ENTITY, ApiErrorCode::Unreadable),
            ApiError::ForbiddenOrigin => (StatusCode::FORBIDDEN, ApiErrorCode::ForbiddenOrigin),
            ApiError::Unauthorized => (StatusCode::UNAUTHORIZED, ApiErrorCode::Unauthorized),
            ApiError::TooManyRuns(_) => (StatusCode::TOO_MANY_REQUESTS, ApiErrorCode::TooManyRuns),
            ApiError::TooManySockets(_) => (
                StatusCode::SERVICE_UNAVAILABLE,
                ApiErrorCode::TooManySockets,
            ),
            ApiError::ChatUnavailable => {
                (StatusCode::SERVICE_UNAVAILABLE, ApiErrorCode::NotAvailable)
            }
            ApiError::Export(_) => (
                StatusCode::UNPROCESSABLE_ENTITY,
                ApiErrorCode::NotExportable,
            ),
            ApiError::History(_) => (
                StatusCode::INTERNAL_SERVER_ERROR,
                ApiErrorCode::HistoryUnavailable,
            ),
            ApiError::RunHistory(_) => (
                StatusCode::SERVICE_UNAVAILABLE,
                ApiErrorCode::HistoryUnavailable,
            ),
            ApiError::Internal(_) => (StatusCode::INTERNAL_SERVER_ERROR, ApiErrorCode::Internal),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (status, code) = self.status_and_code();
        match &self {
            ApiError::Internal(cause) => tracing::error!(%cause, "internal error"),
            ApiError::History(cause) => tracing::error!(%cause, "chat history"),
            ApiError::RunHistory(cause) => tracing::error!(%cause, "run history"),
            _ => {}
        }
        let message = match &self {
            ApiError::InvalidWorkflow(diagnostics) => {
                let errors: Vec<String> = diagnostics
                    .iter()
                    .filter(|d| d.is_error())
                    .map(ToString::to_string)
                    .collect();
                format!("the workflow has errors: {}", errors.join("; "))
            }
            other => other.to_string(),
        };
        match self {
            ApiError::InvalidWorkflow(diagnostics) => {
                let body = ApiErrorBody {
                    error: ErrorInfo {
                        code,
                        message,
                        diagnostics: Some(diagnostics),
                        fields: None,
                    },
                };
                (status, Json(body)).into_response()
            }
            ApiError::InvalidAnswer(_, fields) => {
                let body = ApiErrorBody {
                    error: ErrorInfo {
                        code,
                        message,
                        diagnostics: None,
                        fields: Some(fields),
                    },
                };
                (status, Json(body)).into_response()
            }
            _ => vai_serve::error_response(status, code, message),
        }
    }
}

/// Longest client-supplied text (a run id, a step id) quoted back in a message.
pub(crate) const QUOTE_LIMIT: usize = 64;

// `clip(text, limit)`: `text` cut to `limit` characters, with `…` when cut, so what the client
// sent is never echoed back unbounded. The workflow crate owns the one such helper.
pub(crate) use vai_workflow::value::truncate_chars as clip;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn internal_causes_are_not_sent() {
        let response = ApiError::Internal("disk /secret/path exploded".into()).into_response();
        assert_eq!(response.status(), StatusCode::INTERNAL_SERVER_ERROR);
        let ApiError::Internal(_) = ApiError::Internal(String::new()) else {
            unreachable!()
        };
        assert_eq!(ApiError::Internal("x".into()).to_string(), "internal error");
    }

    #[test]
    fn quoted_client_text_is_clipped() {
        assert_eq!(clip("run-1", QUOTE_LIMIT), "run-1");
        let long = "é".repeat(10_000);
        let clipped = clip(&long, QUOTE_LIMIT);
        assert_eq!(clipped.chars().count(), QUOTE_LIMIT + 1);
        assert!(clipped.ends_with('…'));
    }
}
