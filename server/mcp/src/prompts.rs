//! Prompts (docs/mcp.md, "Prompts"): author a workflow from a goal, extend one, fix its
//! validation errors, run one with inputs. Each is a user message that carries what the task
//! needs (the current text and version, the diagnostics, the inputs still missing) and points at
//! the resources and tools that finish it, so the assistant validates before it saves.

use crate::resources::{CATALOG_URI, FORMAT_URI, SCHEMA_URI};
use crate::server::McpServer;
use crate::tools::authoring::Authoring;
use crate::tools::workflows::Listed;
use rmcp::ErrorData as McpError;
use rmcp::model::{GetPromptResult, JsonObject, Prompt, PromptArgument, PromptMessage, Role};
use serde_json::Value;
use std::fmt::Write;
use vai_workflow::starters::Starter;
use vai_workflow::value::truncate_chars;
use vai_workflow::{Mode, ToolSpec, compile};

/// One prompt's declaration.
pub(crate) struct PromptSpec {
    pub(crate) name: &'static str,
    pub(crate) title: &'static str,
    pub(crate) description: &'static str,
    /// (name, description, required)
    pub(crate) arguments: &'static [(&'static str, &'static str, bool)],
}

/// Every prompt.
pub(crate) const PROMPTS: [PromptSpec; 4] = [
    PromptSpec {
        name: "workflow_author",
        title: "Author a workflow",
        description: "Write a new vai workflow for a goal, validate it until it has no errors, and save it as a w_* tool",
        arguments: &[
            ("goal", "What the workflow should do, in plain words", true),
            (
                "constraints",
                "Anything it must respect: collections, models, limits, output shape",
                false,
            ),
        ],
    },
    PromptSpec {
        name: "workflow_extend",
        title: "Extend a workflow",
        description: "Change an existing workflow as asked, keeping what it does, and save it over the version read",
        arguments: &[
            (
                "workflow_id",
                "The workflow to change (an id from workflow_list or its w_* tool name)",
                true,
            ),
            ("change", "What to add or change", true),
        ],
    },
    PromptSpec {
        name: "workflow_fix_validation",
        title: "Fix a workflow's validation errors",
        description: "Correct every validation error of a workflow and save the fixed file",
        arguments: &[
            (
                "workflow_id",
                "The workflow to fix (give this or content)",
                false,
            ),
            (
                "content",
                "The workflow file's text to fix (give this or workflow_id)",
                false,
            ),
        ],
    },
    PromptSpec {
        name: "workflow_run_with_inputs",
        title: "Run a workflow with inputs",
        description: "Work out a workflow's inputs from what the user said, ask for what is missing, then run it",
        arguments: &[
            (
                "workflow_id",
                "The workflow to run (an id from workflow_list or its w_* tool name)",
                true,
            ),
            (
                "inputs",
                "Input values known so far, as a JSON object",
                false,
            ),
        ],
    },
];

pub(crate) fn list() -> Vec<Prompt> {
    PROMPTS
        .iter()
        .map(|p| {
            let arguments = p
                .arguments
                .iter()
                .map(|(n, d, required)| {
                    PromptArgument::new(*n)
                        .with_description(*d)
                        .with_required(*required)
                })
                .collect();
            Prompt::new(p.name, Some(p.description), Some(arguments)).with_title(p.title)
        })
        .collect()
}

pub(crate) fn get(
    server: &McpServer,
    name: &str,
    args: JsonObject,
) -> Result<GetPromptResult, McpError> {
    let Some(spec) = PROMPTS.iter().find(|p| p.name == name) else {
        return Err(McpError::invalid_params(
            format!(
                "unknown prompt \"{}\"; prompts/list gives those there are",
                truncate_chars(name, 80)
            ),
            None,
        ));
    };
    let arg = |key: &str| -> Option<String> {
        match args.get(key)? {
            Value::String(s) if !s.trim().is_empty() => Some(s.clone()),
            Value::Null => None,
            Value::String(_) => None,
            other => Some(other.to_string()),
        }
    };
    for (key, _, required) in spec.arguments {
        if *required && arg(key).is_none() {
            return Err(McpError::invalid_params(
                format!("the prompt {name} needs the argument \"{key}\""),
                None,
            ));
        }
    }
    let mut text = match name {
        "workflow_author" => author(server, &arg("goal").unwrap_or_default(), arg("constraints")),
        "workflow_extend" => {
            let w = workflow(server, &arg("workflow_id").unwrap_or_default())?;
            extend(&w, &arg("change").unwrap_or_default())
        }
        "workflow_fix_validation" => fix(server, arg("workflow_id"), arg("content"))?,
        _ => {
            let w = workflow(server, &arg("workflow_id").unwrap_or_default())?;
            run_with_inputs(server, &w, arg("inputs"))
        }
    };
    if server.inner().read_only && name != "workflow_run_with_inputs" {
        text.push_str(READ_ONLY_NOTE);
    }
    Ok(
        GetPromptResult::new(vec![PromptMessage::new_text(Role::User, text)])
            .with_description(spec.description),
    )
}

/// What replaces saving on a server started with `--read-only`.
const READ_ONLY_NOTE: &str = "\n\nThis vai server is read-only: it cannot save, rename or delete workflows. Instead of saving, give the user the final, validated workflow JSON and suggest a file name ending in .vai-workflow.json.";

fn workflow(server: &McpServer, given: &str) -> Result<Listed, McpError> {
    crate::tools::authoring::resolve_for_prompt(server, given)
        .map_err(|f| McpError::invalid_params(f.message, None))
}

/// Where the format is described, for every prompt that writes a workflow.
fn references(out: &mut String) {
    let _ = writeln!(
        out,
        "The workflow format is described in the resource {FORMAT_URI}, its JSON Schema is {SCHEMA_URI}, and every step tool with its inputs and outputs is in {CATALOG_URI}: read them before writing."
    );
}

fn tool_lines(server: &McpServer) -> String {
    let registry = &server.inner().registry;
    let mut specs: Vec<&ToolSpec> = registry.specs().collect();
    specs.sort_by_key(|s| (s.category.rank(), s.name));
    let mut out = String::new();
    for s in specs {
        let outputs: Vec<&str> = s.outputs.iter().map(|(f, _)| *f).collect();
        let required = s.required_inputs();
        let _ = writeln!(
            out,
            "- {} — {}. Required inputs: {}. Output: {}.",
            s.name,
            s.description,
            if required.is_empty() {
                "none".to_string()
            } else {
                required.join(", ")
            },
            outputs.join(", ")
        );
    }
    out
}

fn author(server: &McpServer, goal: &str, constraints: Option<String>) -> String {
    let mut out =
        format!("Write a vai workflow (a .vai-workflow.json file) that does this:\n\n{goal}\n\n");
    if let Some(c) = constraints {
        let _ = writeln!(out, "Constraints:\n\n{c}\n");
    }
    references(&mut out);
    let _ = write!(
        out,
        "\nSteps to follow:\n\
         1. Draft the workflow as JSON: name, description, inputs (each with type, description, and required or a default), steps (each with an id, a tool and its inputs; read inputs with {{{{ inputs.x }}}} and earlier steps with {{{{ step_id.output.field }}}}), and an output mapping.\n\
         2. Call {validate} with definition set to the draft. Fix every error it lists (each names its step, field and code) and call it again until valid is true.\n\
         3. Optionally check it with {plan} and {preview} with example inputs.\n\
         4. Call {save} with a short name. The workflow then becomes the tool w_<name>; call it to run the workflow.\n\n\
         Step tools:\n{tools}\n\
         A small valid workflow to start from:\n\n{example}\n",
        validate = Authoring::Validate.name(),
        plan = Authoring::StepPlan.name(),
        preview = Authoring::PreviewRendered.name(),
        save = Authoring::Save.name(),
        tools = tool_lines(server),
        example = serde_json::to_string_pretty(&Starter::Rag.workflow("Answer from documents"))
            .unwrap_or_default(),
    );
    out
}

fn extend(w: &Listed, change: &str) -> String {
    let mut out = format!(
        "Change the vai workflow {} (\"{}\") as follows:\n\n{change}\n\n",
        w.summary.id, w.summary.name
    );
    references(&mut out);
    let text = w.document.as_ref().map(|d| d.text.as_str()).unwrap_or("");
    let _ = writeln!(out, "\nIts current file:\n\n{text}\n");
    if w.summary.read_only {
        let _ = writeln!(
            out,
            "It ships with vai and cannot be changed in place: save the changed workflow under a new name with {} (no version).",
            Authoring::Save.name()
        );
    } else if let Some(doc) = &w.document {
        let _ = writeln!(
            out,
            "Keep its step ids and the order of what it already does. Validate the changed workflow with {} until valid is true, then save it with {} using name \"{}\" and version \"{}\" (a save over a file that changed since is refused; then read it again with {}).",
            Authoring::Validate.name(),
            Authoring::Save.name(),
            w.summary.id.strip_prefix("file:").unwrap_or(&w.summary.id),
            doc.version,
            Authoring::Get.name()
        );
    }
    out
}

fn fix(
    server: &McpServer,
    workflow_id: Option<String>,
    content: Option<String>,
) -> Result<String, McpError> {
    let (label, text, save_hint) = match (workflow_id, content) {
        (Some(id), None) => {
            let w = workflow(server, &id)?;
            let text = w
                .document
                .as_ref()
                .map(|d| d.text.clone())
                .unwrap_or_default();
            let hint = match (&w.document, w.summary.read_only) {
                (Some(doc), false) => format!(
                    "save it with {} using name \"{}\" and version \"{}\"",
                    Authoring::Save.name(),
                    w.summary.id.strip_prefix("file:").unwrap_or(&w.summary.id),
                    doc.version
                ),
                _ => format!("save it under a new name with {}", Authoring::Save.name()),
            };
            (w.summary.id, text, hint)
        }
        (None, Some(content)) => (
            "the workflow below".to_string(),
            content,
            format!("save it with {}", Authoring::Save.name()),
        ),
        _ => {
            return Err(McpError::invalid_params(
                "the prompt workflow_fix_validation needs exactly one of \"workflow_id\" and \"content\"",
                None,
            ));
        }
    };
    let diagnostics = match vai_workflow::load::parse_json(&text) {
        Ok(value) => compile(&value, &server.inner().registry, Mode::Strict).diagnostics,
        Err(syntax) => vec![*syntax],
    };
    let mut out = format!("Fix the validation errors of {label}.\n\n");
    references(&mut out);
    if diagnostics.is_empty() {
        let _ = writeln!(out, "\nIt has no validation problems now.");
    } else {
        let _ = writeln!(out, "\nWhat {} reports:\n", Authoring::Validate.name());
        for d in &diagnostics {
            let _ = writeln!(out, "- {d}");
        }
    }
    let _ = writeln!(
        out,
        "\nThe file:\n\n{text}\n\nCorrect every error without changing what the workflow does, call {} with the corrected definition until valid is true, then {save_hint}.",
        Authoring::Validate.name()
    );
    Ok(out)
}

fn run_with_inputs(server: &McpServer, w: &Listed, inputs: Option<String>) -> String {
    let mut out = format!(
        "Run the vai workflow {} (\"{}\").\n\n",
        w.summary.id, w.summary.name
    );
    let value = w.document.as_ref().and_then(|d| d.definition.clone());
    let compiled = value.map(|v| compile(&v, &server.inner().registry, Mode::Strict));
    let Some(workflow) = compiled.as_ref().and_then(|c| c.workflow.clone()) else {
        let _ = writeln!(
            out,
            "It cannot be read as a workflow; fix it first (workflow_fix_validation)."
        );
        return out;
    };
    let _ = writeln!(out, "Its inputs:\n");
    for (name, decl) in &workflow.inputs {
        let need = match (&decl.default, decl.is_required()) {
            (Some(d), _) => format!("optional, default {d}"),
            (None, true) => "required".to_string(),
            (None, false) => "optional".to_string(),
        };
        let _ = writeln!(
            out,
            "- {name} ({}, {need}){}",
            decl.kind.as_str(),
            decl.description
                .as_ref()
                .map(|d| format!(": {d}"))
                .unwrap_or_default()
        );
    }
    if workflow.inputs.is_empty() {
        let _ = writeln!(out, "- none");
    }
    if let Some(known) = inputs {
        let _ = writeln!(out, "\nValues known so far: {known}");
    }
    let _ = writeln!(
        out,
        "\nWork out each input from what the user asked. Call {} with the values to see which are missing or of the wrong type; ask the user only for required inputs you cannot work out. Then run it with {} and the inputs, and report its output.",
        Authoring::ResolveInputs.name(),
        w.tool_name().unwrap_or_else(|| format!(
            "{} (workflow_id \"{}\")",
            Authoring::Run.name(),
            w.summary.id
        ))
    );
    if compiled.as_ref().is_some_and(|c| !c.is_valid()) {
        let _ = writeln!(
            out,
            "\nIt has validation errors and will not run until they are fixed (workflow_fix_validation)."
        );
    }
    out
}
