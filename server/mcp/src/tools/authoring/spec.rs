//! The authoring tools as clients see them: each one's name, title, description, input and
//! output schemas, and what it may do to the world.

use crate::finished;
use serde_json::{Value, json};
use vai_workflow::Effects;

/// One authoring tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Authoring {
    List,
    Get,
    Validate,
    PreviewInputs,
    PreviewRendered,
    StepPlan,
    ResolveInputs,
    Save,
    Rename,
    Run,
    Resume,
    Status,
    Delete,
    Cancel,
    Plan,
}

impl Authoring {
    pub(crate) const ALL: [Authoring; 15] = [
        Authoring::List,
        Authoring::Get,
        Authoring::Validate,
        Authoring::PreviewInputs,
        Authoring::PreviewRendered,
        Authoring::StepPlan,
        Authoring::ResolveInputs,
        Authoring::Save,
        Authoring::Rename,
        Authoring::Run,
        Authoring::Resume,
        Authoring::Status,
        Authoring::Delete,
        Authoring::Cancel,
        Authoring::Plan,
    ];

    pub(crate) fn name(self) -> &'static str {
        match self {
            Authoring::List => "workflow_list",
            Authoring::Get => "workflow_get",
            Authoring::Validate => "workflow_validate",
            Authoring::PreviewInputs => "workflow_preview_inputs",
            Authoring::PreviewRendered => "workflow_preview_rendered",
            Authoring::StepPlan => "workflow_step_plan",
            Authoring::ResolveInputs => "workflow_resolve_inputs",
            Authoring::Save => "workflow_save",
            Authoring::Rename => "workflow_rename",
            Authoring::Run => "workflow_run",
            Authoring::Resume => "workflow_resume",
            Authoring::Status => "workflow_status",
            Authoring::Delete => "workflow_delete",
            Authoring::Cancel => "workflow_cancel",
            Authoring::Plan => "workflow_plan",
        }
    }

    pub(super) fn title(self) -> &'static str {
        match self {
            Authoring::List => "List workflows",
            Authoring::Get => "Read a workflow",
            Authoring::Validate => "Validate a workflow",
            Authoring::PreviewInputs => "Preview a workflow's inputs",
            Authoring::PreviewRendered => "Preview a workflow's resolved step inputs",
            Authoring::StepPlan => "Plan a workflow's steps",
            Authoring::ResolveInputs => "Check inputs for a run",
            Authoring::Save => "Save a workflow",
            Authoring::Rename => "Rename a workflow file",
            Authoring::Run => "Run a workflow",
            Authoring::Resume => "Answer a waiting run",
            Authoring::Status => "Read a run's status",
            Authoring::Delete => "Delete a workflow file",
            Authoring::Cancel => "Cancel a run",
            Authoring::Plan => "Find workflows for a goal",
        }
    }

    pub(super) fn effects(self) -> Effects {
        match self {
            Authoring::Save => Effects {
                read_only: false,
                // With the version it read (or `overwrite`), it replaces the file.
                destructive: true,
                idempotent: false,
                open_world: false,
            },
            Authoring::Rename => Effects {
                read_only: false,
                // It never replaces another file.
                destructive: false,
                idempotent: false,
                open_world: false,
            },
            // A workflow may ingest, aggregate with writes, or call any allowed URL; an answered
            // run goes on to do so.
            Authoring::Run | Authoring::Resume => Effects::MAY_CHANGE_REMOTE,
            Authoring::Delete | Authoring::Cancel => Effects {
                read_only: false,
                destructive: true,
                idempotent: true,
                open_world: false,
            },
            // Read the library or the run manager, compute on a document.
            _ => Effects::PURE,
        }
    }

    pub(super) fn description(self) -> &'static str {
        match self {
            Authoring::List => {
                "Every workflow vai knows (built-ins, examples, the files of the workflow directory): id, name, description, its w_* tool when it runs, step count, inputs, whether it can be changed, and its error when it does not load."
            }
            Authoring::Get => {
                "One workflow: its file text (content) for editing, the parsed JSON, and its version (a content hash); pass that version to workflow_save, workflow_rename or workflow_delete so a file that changed meanwhile is not overwritten. workflow_id is an id from workflow_list, a w_* tool name, or a file or built-in name."
            }
            Authoring::Validate => {
                "Check a workflow (definition as JSON, content as file text, or workflow_id) and return every problem at once, each with its code, step, field and message (syntax errors with line and column). mode \"draft\" softens what a run needs; the default \"strict\" is what running and saving require."
            }
            Authoring::PreviewInputs => {
                "The inputs a workflow declares: name, type, required, default and description, and the JSON Schema its w_* tool takes."
            }
            Authoring::PreviewRendered => {
                "Each step's inputs, condition and forEach with every template that reads only inputs and defaults resolved against candidate inputs; templates that read other steps' outputs are kept as written and listed as pending."
            }
            Authoring::StepPlan => {
                "The order steps run in: each step with what it depends on (and why), its condition and forEach, the layers of steps that run at the same time, and the expected provider calls."
            }
            Authoring::ResolveInputs => {
                "Apply a workflow's defaults to partial inputs and check them: the resolved values, what is missing or of the wrong type, and ready (true only when the workflow is valid and the inputs are complete)."
            }
            Authoring::Save => {
                "Write a workflow (definition or content) into the workflow directory as <name>.vai-workflow.json, in vai's stable text form. It is validated first and refused with every violation when invalid. Replacing an existing file needs the version workflow_get returned (a file that changed since is refused), or overwrite. The saved workflow becomes a w_* tool."
            }
            Authoring::Rename => {
                "Give a workflow file a new file name; version must be the one workflow_get returned. Never replaces another file."
            }
            Authoring::Run => {
                "Run a workflow (workflow_id, or an unsaved definition/content) with inputs, as its w_* tool would: wait (default) returns the output and a step summary; wait false returns the run_id at once (read it with workflow_status, stop it with workflow_cancel)."
            }
            Authoring::Resume => {
                "Answer a run that waits for a person (a w_* or workflow_run result with status \"waiting\"): input is the person's answer, an object that satisfies the result's expects; it is checked first and every wrong field reported. The run then goes on and, as its w_* call would, this returns its output, its failure, or the next question when it waits again."
            }
            Authoring::Status => {
                "A run's status, each step's state, and its output once finished, by run_id (the server keeps the most recent finished runs)."
            }
            Authoring::Delete => {
                "Delete a workflow file of the workflow directory; version must be the one workflow_get returned. Built-ins and examples cannot be deleted."
            }
            Authoring::Cancel => {
                "Cancel a running workflow run by its run_id; steps in flight are stopped and reported as cancelled."
            }
            Authoring::Plan => {
                "Rank the workflows of the library for a goal in plain words: the best five with their w_* tool, a score, why they match and the inputs each takes, and the method used to rank them (lexical: BM25 over each workflow's name, description and inputs). Then call the best one's w_* tool with its inputs."
            }
        }
    }

    pub(super) fn input_schema(self) -> Value {
        let workflow_id = json!({"type": "string", "description": "An id from workflow_list (file:rag.vai-workflow.json, builtin:rag-chat), a w_* tool name, or a file or built-in name; never a path"});
        let definition = json!({"type": "object", "description": "The workflow as JSON"});
        let content = json!({"type": "string", "description": "The workflow file's text"});
        let inputs = json!({"type": "object", "description": "Input values by name"});
        let version = json!({"type": "string", "description": "The version workflow_get returned"});
        let run_id = json!({"type": "string", "description": "A run_id a run returned"});
        let (properties, required): (Value, &[&str]) = match self {
            Authoring::List => (json!({}), &[]),
            Authoring::Get => (json!({"workflow_id": workflow_id}), &["workflow_id"]),
            Authoring::Validate => (
                json!({
                    "workflow_id": workflow_id, "definition": definition, "content": content,
                    "mode": {"type": "string", "enum": ["strict", "draft"], "default": "strict"}
                }),
                &[],
            ),
            Authoring::PreviewInputs => (
                json!({"workflow_id": workflow_id, "definition": definition, "content": content}),
                &[],
            ),
            Authoring::PreviewRendered | Authoring::StepPlan | Authoring::ResolveInputs => (
                json!({"workflow_id": workflow_id, "definition": definition, "content": content, "inputs": inputs}),
                &[],
            ),
            Authoring::Save => (
                json!({
                    "name": {"type": "string", "description": "File name: <name> or <name>.vai-workflow.json (letters, digits, spaces, '.', '_', '-'), or a file workflow's id; never a path. Without it, the file is named after the workflow's name (\"RAG Chat\" → rag-chat.vai-workflow.json)"},
                    "definition": definition, "content": content,
                    "version": version,
                    "overwrite": {"type": "boolean", "default": false, "description": "Replace an existing file without checking its version"}
                }),
                &[],
            ),
            Authoring::Rename => (
                json!({
                    "workflow_id": workflow_id,
                    "new_name": {"type": "string", "description": "The new file name: <name> or <name>.vai-workflow.json"},
                    "version": version
                }),
                &["workflow_id", "new_name", "version"],
            ),
            Authoring::Run => (
                json!({
                    "workflow_id": workflow_id, "definition": definition, "content": content, "inputs": inputs,
                    "wait": {"type": "boolean", "default": true, "description": "Wait for the run to end (false: return its run_id at once)"}
                }),
                &[],
            ),
            Authoring::Resume => (
                json!({
                    "run_id": run_id,
                    "input": {"type": "object", "description": "The person's answer: an object that satisfies the waiting result's expects"},
                    "step_id": {"type": "string", "description": "The step the answer is for (the waiting result's step_id); the one the run waits at when left out"}
                }),
                &["run_id", "input"],
            ),
            Authoring::Status | Authoring::Cancel => (json!({"run_id": run_id}), &["run_id"]),
            Authoring::Plan => (
                json!({"goal": {"type": "string", "minLength": 1, "maxLength": 2000, "description": "What the person wants done, in plain words"}}),
                &["goal"],
            ),
            Authoring::Delete => (
                json!({"workflow_id": workflow_id, "version": version}),
                &["workflow_id", "version"],
            ),
        };
        let mut schema =
            json!({"type": "object", "properties": properties, "additionalProperties": false});
        if !required.is_empty() {
            schema["required"] = json!(required);
        }
        schema
    }

    pub(super) fn output_schema(self) -> Option<Value> {
        let object = |properties: Value, required: &[&str]| {
            Some(json!({"type": "object", "properties": properties, "required": required}))
        };
        match self {
            Authoring::List => object(
                json!({"workflows": {"type": "array", "items": {"type": "object"}}, "writable": {"type": "boolean"}}),
                &["workflows"],
            ),
            Authoring::Get => object(
                json!({
                    "workflow_id": {"type": "string"}, "path": {"type": ["string", "null"]}, "source": {"type": "string"},
                    "format": {"type": "string"}, "content": {"type": "string"}, "parsed": {},
                    "version": {"type": "string"}, "read_only": {"type": "boolean"}, "tool": {"type": ["string", "null"]}
                }),
                &["workflow_id", "content", "version"],
            ),
            Authoring::Validate => object(
                json!({"valid": {"type": "boolean"}, "errors": {"type": "array"}, "warnings": {"type": "array"}, "diagnostics": {"type": "array"}}),
                &["valid", "diagnostics"],
            ),
            Authoring::PreviewInputs => object(
                json!({"inputs": {"type": "array"}, "required": {"type": "array"}, "input_schema": {"type": "object"}}),
                &["inputs"],
            ),
            Authoring::PreviewRendered => object(
                json!({"inputs": {"type": "object"}, "steps": {"type": "array"}, "input_errors": {"type": "array"}}),
                &["steps"],
            ),
            Authoring::StepPlan => object(
                json!({"steps": {"type": "array"}, "layers": {"type": "array"}, "estimate": {"type": "object"}}),
                &["steps", "layers"],
            ),
            Authoring::ResolveInputs => object(
                json!({"ready": {"type": "boolean"}, "resolved": {"type": "object"}, "defaults_applied": {"type": "array"}, "missing": {"type": "array"}, "errors": {"type": "array"}, "undeclared": {"type": "array"}}),
                &["ready", "resolved"],
            ),
            Authoring::Save | Authoring::Rename => object(
                json!({"workflow_id": {"type": "string"}, "path": {"type": "string"}, "version": {"type": "string"}, "tool": {"type": ["string", "null"]}}),
                &["workflow_id", "path", "version"],
            ),
            Authoring::Run | Authoring::Resume => Some(finished::output_schema()),
            Authoring::Status => object(
                json!({"run_id": {"type": "string"}, "status": {"type": "string"}, "steps": {"type": "object"}, "output": {}}),
                &["run_id", "status"],
            ),
            Authoring::Delete => object(json!({"deleted": {"type": "string"}}), &["deleted"]),
            Authoring::Plan => object(
                json!({
                    "workflows": {
                        "type": "array",
                        "description": "best first: name (the w_* tool), workflow_id, score, why, inputs ({name: {type, required, description}})",
                        "items": {"type": "object"}
                    },
                    "method": {"type": "string", "description": "how they were ranked"}
                }),
                &["workflows", "method"],
            ),
            Authoring::Cancel => object(
                json!({"run_id": {"type": "string"}, "status": {"type": "string"}}),
                &["run_id", "status"],
            ),
        }
    }
}
