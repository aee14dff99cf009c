//! `/api/tools`: the tool catalog, from each tool's one declaration and the `explain` tool's note
//! on what a step of it does.

use super::json::Json;
use crate::state::AppState;
use axum::extract::State;
use vai_contract::{CategoryView, ToolCatalog, ToolExplanation, ToolOutputField, ToolView};
use vai_workflow::Category;

pub(super) async fn catalog(State(state): State<AppState>) -> Json<ToolCatalog> {
    let tools = state
        .inner()
        .registry
        .specs()
        .map(|s| ToolView {
            name: s.name.into(),
            label: s.label.into(),
            category: s.category,
            color: s.colour().into(),
            icon: s.icon.into(),
            description: s.description.into(),
            help: s.help.into(),
            input_schema: s.input_schema.clone(),
            outputs: s
                .outputs
                .iter()
                .map(|(name, description)| ToolOutputField {
                    name: (*name).into(),
                    description: (*description).into(),
                })
                .collect(),
            main_input: s.main_input.map(str::to_string),
            api_calls: s.api_calls,
            explain: vai_tools::explain::step_note(s.name).map(|(topic, note)| ToolExplanation {
                topic: topic.key.into(),
                title: topic.title.into(),
                text: note.text.into(),
            }),
        })
        .collect();
    let categories = Category::ALL
        .iter()
        .map(|&c| CategoryView {
            id: c,
            label: c.label().into(),
            color: c.colour().into(),
        })
        .collect();
    Json(ToolCatalog { tools, categories })
}
