//! Resources: what an assistant reads before it writes a workflow — the workflow file format's
//! JSON Schema, the format reference (docs/workflows.md, embedded), the catalog of step tools —
//! and every workflow of the library as `vai://workflows/<name>`.

use crate::server::McpServer;
use crate::tools::{vai, workflows};
use rmcp::ErrorData as McpError;
use rmcp::model::{ReadResourceResult, Resource, ResourceContents, ResourceTemplate};
use serde_json::{Value, json};
use vai_runtime::tool_schema::public_name;
use vai_workflow::value::truncate_chars;
use vai_workflow::{Registry, ToolSpec};

pub(crate) const SCHEMA_URI: &str = "vai://schema/workflow";
pub(crate) const FORMAT_URI: &str = "vai://docs/workflows.md";
pub(crate) const CATALOG_URI: &str = "vai://catalog/tools";
const WORKFLOW_PREFIX: &str = "vai://workflows/";

/// The workflow format reference, as the repository's docs hold it.
const FORMAT_DOC: &str = include_str!("../../../docs/workflows.md");

/// The fixed resources: (uri, name, title, description, MIME type).
pub(crate) const FIXED: [(&str, &str, &str, &str, &str); 3] = [
    (
        SCHEMA_URI,
        "workflow-schema",
        "Workflow JSON Schema",
        "The JSON Schema of .vai-workflow.json files: top-level fields, inputs, steps and their fields",
        "application/schema+json",
    ),
    (
        FORMAT_URI,
        "workflow-format",
        "Workflow format reference",
        "How workflow files work: inputs, defaults, steps, templates and expressions, forEach, conditions, output, validation codes",
        "text/markdown",
    ),
    (
        CATALOG_URI,
        "tool-catalog",
        "Step tool catalog",
        "Every tool a step may name: its inputs (JSON Schema with defaults), its output fields, its category and what it does",
        "application/json",
    ),
];

pub(crate) fn list(server: &McpServer) -> Vec<Resource> {
    let mut out: Vec<Resource> = FIXED
        .iter()
        .map(|(uri, name, title, description, mime)| {
            Resource::new(*uri, *name)
                .with_title(*title)
                .with_description(*description)
                .with_mime_type(*mime)
        })
        .collect();
    for w in workflows::listed(server) {
        let mut resource = Resource::new(format!("{WORKFLOW_PREFIX}{}", w.slug), w.slug.clone())
            .with_title(w.summary.name.clone())
            .with_mime_type("application/json");
        let mut description = w.summary.description.clone().unwrap_or_default();
        if !description.is_empty() {
            description.push(' ');
        }
        description.push_str(&format!("({})", w.summary.id));
        resource = resource.with_description(description);
        if let Some(doc) = &w.document {
            resource = resource.with_size(doc.text.len() as u64);
        }
        out.push(resource);
    }
    out
}

pub(crate) fn templates() -> Vec<ResourceTemplate> {
    vec![
        ResourceTemplate::new(format!("{WORKFLOW_PREFIX}{{name}}"), "workflow")
            .with_title("A workflow of the library")
            .with_description(
                "A workflow file by the name its w_* tool has, without w_ (see workflow_list)",
            )
            .with_mime_type("application/json"),
    ]
}

pub(crate) fn read(server: &McpServer, uri: &str) -> Result<ReadResourceResult, McpError> {
    let text = |text: String, mime: &str| {
        ReadResourceResult::new(vec![ResourceContents::TextResourceContents {
            uri: uri.to_string(),
            mime_type: Some(mime.to_string()),
            text,
            meta: None,
        }])
    };
    match uri {
        SCHEMA_URI => Ok(text(
            vai_runtime::builtin::schema().to_string(),
            "application/schema+json",
        )),
        FORMAT_URI => Ok(text(FORMAT_DOC.to_string(), "text/markdown")),
        CATALOG_URI => Ok(text(
            serde_json::to_string_pretty(&catalog(&server.inner().registry)).unwrap_or_default(),
            "application/json",
        )),
        _ => {
            let not_found = || {
                McpError::resource_not_found(
                    format!(
                        "no resource {}; resources/list gives those there are",
                        truncate_chars(uri, 120)
                    ),
                    Some(json!({"uri": truncate_chars(uri, 120)})),
                )
            };
            let slug = uri.strip_prefix(WORKFLOW_PREFIX).ok_or_else(not_found)?;
            let listed = workflows::listed(server)
                .into_iter()
                .find(|w| w.slug == slug)
                .ok_or_else(not_found)?;
            let doc = listed.document.ok_or_else(not_found)?;
            Ok(text(doc.text, "application/json"))
        }
    }
}

/// Every step tool: what the catalog resource holds.
pub(crate) fn catalog(registry: &Registry) -> Value {
    let mut specs: Vec<&ToolSpec> = registry.specs().collect();
    specs.sort_by_key(|s| (s.category.rank(), s.name));
    let tools: Vec<Value> = specs
        .into_iter()
        .map(|s| {
            json!({
                "name": s.name,
                "label": s.label,
                "category": s.category,
                "description": s.description,
                "help": s.help,
                "inputs": s.input_schema.to_json(),
                "outputs": s.outputs.iter().map(|(f, d)| json!({"field": f, "description": d})).collect::<Vec<_>>(),
                "effects": s.effects,
                "mcpTool": vai::exposed().any(|n| n == s.name).then(|| public_name(s.name)),
            })
        })
        .collect();
    json!({ "tools": tools })
}
