//! `/api/workflows/{references,rewrite,complete,format}`: the builder's questions about a
//! document, answered by the engine's own parser (`vai_workflow::edit`) and formatter.

use super::json::Json;
use crate::error::ApiError;
use crate::state::AppState;
use axum::extract::State;
use vai_contract::{
    CompleteRequest, CompleteResponse, DefinitionBody, FormatResponse, ReferencesResponse,
    RewriteRequest, RewriteResponse,
};
use vai_workflow::edit::{self, CompleteAt, Renames};

pub(super) async fn references(
    State(state): State<AppState>,
    Json(body): Json<DefinitionBody>,
) -> Json<ReferencesResponse> {
    Json(ReferencesResponse {
        references: edit::references(&body.definition, &state.inner().registry),
    })
}

pub(super) async fn rewrite(
    State(state): State<AppState>,
    Json(body): Json<RewriteRequest>,
) -> Result<Json<RewriteResponse>, ApiError> {
    let renames = Renames {
        steps: body.steps.unwrap_or_default(),
        inputs: body.inputs.unwrap_or_default(),
    };
    let out = edit::rewrite(&body.definition, &renames, &state.inner().registry)?;
    Ok(Json(RewriteResponse {
        definition: out.definition,
        changed: out.changed,
    }))
}

pub(super) async fn complete(
    State(state): State<AppState>,
    Json(body): Json<CompleteRequest>,
) -> Json<CompleteResponse> {
    let at = CompleteAt {
        step_id: body.step_id.as_deref(),
        field: &body.field,
        text: &body.text,
        cursor: body.cursor,
    };
    let out = edit::complete(&body.definition, &state.inner().registry, at);
    Json(CompleteResponse {
        from: out.from,
        to: out.to,
        items: out.items,
    })
}

pub(super) async fn format(Json(body): Json<DefinitionBody>) -> Json<FormatResponse> {
    Json(FormatResponse {
        text: vai_workflow::format::format(&body.definition),
    })
}
