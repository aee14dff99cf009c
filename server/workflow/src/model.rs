//! The workflow file as typed data (docs/workflows.md describes the format). Unknown keys are
//! kept in `extra` so a file survives a load/save round trip; the JSON Schema in
//! `workflows/workflow.schema.json` is generated from these types.

use crate::rules;
use indexmap::IndexMap;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Number, Value};
use std::sync::LazyLock;

/// A `.vai-workflow.json` file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
#[schemars(
    title = "vai workflow",
    description = "A RAG pipeline run by `vai workflow run` and the vai playground."
)]
pub struct Workflow {
    /// Ignored by the engine; editors use it to find this schema.
    #[serde(rename = "$schema", default, skip_serializing_if = "Option::is_none")]
    pub schema: Option<String>,
    /// Display name.
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Semantic version of the workflow (e.g. "1.0.0").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// Declared inputs, readable as `{{ inputs.<name> }}`.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    #[cfg_attr(
        feature = "ts",
        ts(as = "Option<std::collections::HashMap<String, InputDecl>>", optional)
    )]
    pub inputs: IndexMap<String, InputDecl>,
    /// Defaults readable as `{{ defaults.<key> }}`; `db`, `collection` and `model` are used by
    /// tools when a step does not set them. `--db`/`--collection` override them.
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    #[cfg_attr(feature = "ts", ts(as = "Option<Map<String, Value>>", optional))]
    pub defaults: Map<String, Value>,
    /// The steps of the DAG.
    #[schemars(length(min = 1))]
    pub steps: Vec<Step>,
    /// Output mapping, resolved after the run (object, array or a string template). Absent: the
    /// whole run context is the output.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output: Option<Value>,
    /// Hints for rendering the output in the CLI.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub formatters: Option<Formatters>,
    /// Icon and colour for catalogs; kept, not used by the engine.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub branding: Option<Value>,
    /// How the playground's builder lays the workflow out; never affects a run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ui: Option<WorkflowUi>,
    /// Keys this version does not know, kept on round trip.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// The builder's layout: hand-placed node positions and sticky notes. Written only when the
/// person moved something or added a note; a file without it is laid out automatically.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct WorkflowUi {
    /// Canvas position of each step, by step id (`__inputs` and `__output` for those nodes).
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    #[cfg_attr(
        feature = "ts",
        ts(as = "std::collections::HashMap<String, UiPosition>")
    )]
    pub positions: IndexMap<String, UiPosition>,
    /// Sticky notes on the canvas.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<Note>,
    /// Keys this version does not know, kept on round trip.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A point on the builder's canvas. Coordinates are kept as written (`3` stays `3`), since the
/// engine never computes with them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct UiPosition {
    pub x: Number,
    pub y: Number,
}

/// A sticky note on the builder's canvas.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
pub struct Note {
    pub id: String,
    pub x: Number,
    pub y: Number,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub width: Option<Number>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub height: Option<Number>,
    /// Markdown.
    pub text: String,
    /// A CSS colour.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<String>,
}

/// The declared type of a workflow input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum InputType {
    String,
    Number,
    Boolean,
    Array,
    Object,
}

impl InputType {
    pub fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "string" => Self::String,
            "number" => Self::Number,
            "boolean" => Self::Boolean,
            "array" => Self::Array,
            "object" => Self::Object,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::String => "string",
            Self::Number => "number",
            Self::Boolean => "boolean",
            Self::Array => "array",
            Self::Object => "object",
        }
    }

    /// Whether `value` is of this type.
    pub fn accepts(self, value: &Value) -> bool {
        match self {
            Self::String => value.is_string(),
            Self::Number => value.is_number(),
            Self::Boolean => value.is_boolean(),
            Self::Array => value.is_array(),
            Self::Object => value.is_object(),
        }
    }
}

/// One declared input.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
pub struct InputDecl {
    #[serde(rename = "type")]
    pub kind: InputType,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub required: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<Value>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl InputDecl {
    pub fn is_required(&self) -> bool {
        self.required.unwrap_or(false)
    }
}

/// One step of the DAG.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
#[serde(rename_all = "camelCase")]
pub struct Step {
    /// Unique id, `^[A-Za-z_][A-Za-z0-9_]*$`; other steps read its output as `{{ <id>.output }}`.
    #[schemars(regex(pattern = r"^[A-Za-z_][A-Za-z0-9_]*$"))]
    pub id: String,
    /// Display label.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The tool this step runs (see docs/tools.md).
    pub tool: String,
    /// The tool's inputs; string values may hold `{{ }}` templates, at any depth.
    #[serde(default)]
    pub inputs: Map<String, Value>,
    /// Expression; when false the step is skipped ("condition not met").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<String>,
    /// Template resolving to an array; the step runs once per element with `item` and `index`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub for_each: Option<String>,
    /// How many `forEach` iterations run at once (default 4, at most 16).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = rules::FOR_EACH_CONCURRENCY.minimum, max = rules::FOR_EACH_CONCURRENCY.maximum))]
    pub for_each_concurrency: Option<u32>,
    /// On failure, record the error and go on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub continue_on_error: Option<bool>,
    /// Steps that must finish first, when no template reference says so.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depends_on: Option<Vec<String>>,
    /// Retry transient failures (rate limits, timeouts, 5xx, network errors).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry: Option<RetryPolicy>,
    /// Time limit of one attempt, in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = rules::TIMEOUT_MS.minimum, max = rules::TIMEOUT_MS.maximum))]
    pub timeout_ms: Option<u64>,
    /// What undoes this step when the run ends badly after it completed (a failed step, a
    /// `fail` step, cancellation, a refused or timed-out `yield`). Compensations run once each,
    /// in reverse order of completion.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compensate: Option<Compensation>,
    /// Keys this version does not know, kept on round trip.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// The call that undoes a completed step. Its templates may read the step's own output
/// (`{{ <id>.output }}`) and whatever the step itself could read; they are resolved when the
/// step completes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
#[serde(rename_all = "camelCase")]
pub struct Compensation {
    /// The tool to call, e.g. `http`.
    pub tool: String,
    #[serde(default)]
    pub inputs: Map<String, Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry: Option<RetryPolicy>,
    /// Time limit of one attempt, in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = rules::TIMEOUT_MS.minimum, max = rules::TIMEOUT_MS.maximum))]
    pub timeout_ms: Option<u64>,
}

impl Step {
    pub fn display_name(&self) -> &str {
        self.name.as_deref().unwrap_or(&self.id)
    }
}

/// Retry policy of a step.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct RetryPolicy {
    /// Attempts in all, the first included (default 3, at most 10).
    #[serde(default = "default_attempts")]
    #[schemars(range(min = rules::RETRY_MAX_ATTEMPTS.minimum, max = rules::RETRY_MAX_ATTEMPTS.maximum))]
    #[cfg_attr(feature = "ts", ts(as = "Option<u32>", optional))]
    pub max_attempts: u32,
    /// Delay before the second attempt (default 500 ms).
    #[serde(default = "default_initial_delay")]
    #[cfg_attr(feature = "ts", ts(as = "Option<u64>", optional))]
    pub initial_delay_ms: u64,
    /// Factor applied to the delay after each attempt (default 2).
    #[serde(default = "default_backoff")]
    #[cfg_attr(feature = "ts", ts(as = "Option<f64>", optional))]
    pub backoff_rate: f64,
    /// Upper bound of one delay (default 30,000 ms).
    #[serde(default = "default_max_delay")]
    #[cfg_attr(feature = "ts", ts(as = "Option<u64>", optional))]
    pub max_delay_ms: u64,
}

fn default_attempts() -> u32 {
    rules::default_int(rules::RETRY_MAX_ATTEMPTS) as u32
}
fn default_initial_delay() -> u64 {
    rules::default_int(rules::RETRY_INITIAL_DELAY_MS)
}
fn default_backoff() -> f64 {
    rules::RETRY_BACKOFF_RATE.default.unwrap_or(1.0)
}
fn default_max_delay() -> u64 {
    rules::default_int(rules::RETRY_MAX_DELAY_MS)
}

impl Default for RetryPolicy {
    fn default() -> Self {
        Self {
            max_attempts: default_attempts(),
            initial_delay_ms: default_initial_delay(),
            backoff_rate: default_backoff(),
            max_delay_ms: default_max_delay(),
        }
    }
}

/// Output rendering hints.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
#[serde(rename_all = "camelCase")]
pub struct Formatters {
    /// json, table, markdown, text or csv.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub columns: Option<Vec<String>>,
    /// Which output field holds the array rendered as a table.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub array_field: Option<String>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// The keys the file format gives a meaning to, per object: read from the JSON Schema generated
/// from these types, so the structural checks (and what lands in `extra`) never keep a second
/// list. Adding a field to a type above is the whole change.
pub trait KnownKeys: JsonSchema {
    fn known_keys() -> &'static [String];
}

macro_rules! known_keys {
    ($($t:ty),*) => {$(
        impl KnownKeys for $t {
            fn known_keys() -> &'static [String] {
                static KEYS: LazyLock<Vec<String>> = LazyLock::new(property_names::<$t>);
                &KEYS
            }
        }
    )*};
}

known_keys!(Workflow, Step, InputDecl, Formatters);

fn property_names<T: JsonSchema>() -> Vec<String> {
    schemars::schema_for!(T)
        .get("properties")
        .and_then(Value::as_object)
        .map(|p| p.keys().cloned().collect())
        .unwrap_or_default()
}

/// The JSON Schema of a workflow file, as published in `workflows/workflow.schema.json`.
pub fn json_schema() -> Value {
    let mut schema = serde_json::to_value(schemars::schema_for!(Workflow)).unwrap_or(Value::Null);
    if let Some(obj) = schema.as_object_mut() {
        obj.insert(
            "$id".into(),
            Value::String("https://vai.dev/schemas/workflow-v1.json".into()),
        );
    }
    schema
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `workflows/workflow.schema.json` is generated from these types; regenerate with
    /// `VAI_UPDATE_GENERATED=1 cargo test -p vai-workflow schema`.
    #[test]
    fn published_schema_matches_the_model() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../workflows/workflow.schema.json");
        let mut generated = serde_json::to_string_pretty(&json_schema()).unwrap();
        generated.push('\n');
        if std::env::var_os("VAI_UPDATE_GENERATED").is_some() {
            std::fs::write(&path, &generated).unwrap();
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == generated,
            "{} is out of date: run VAI_UPDATE_GENERATED=1 cargo test -p vai-workflow schema",
            path.display()
        );
    }

    #[test]
    fn known_keys_come_from_the_types() {
        assert_eq!(
            Workflow::known_keys(),
            [
                "$schema",
                "name",
                "description",
                "version",
                "inputs",
                "defaults",
                "steps",
                "output",
                "formatters",
                "branding",
                "ui"
            ]
        );
        assert_eq!(
            Step::known_keys(),
            [
                "id",
                "name",
                "description",
                "tool",
                "inputs",
                "condition",
                "forEach",
                "forEachConcurrency",
                "continueOnError",
                "dependsOn",
                "retry",
                "timeoutMs",
                "compensate"
            ]
        );
        assert_eq!(
            InputDecl::known_keys(),
            ["type", "description", "required", "default"]
        );
        assert_eq!(
            Formatters::known_keys(),
            ["default", "title", "columns", "arrayField"]
        );
    }
}
