//! Workflow test cases (`vai workflow test`): `tests/<workflow>.<case>.test.json` files with
//! inputs, mocked tool outputs and expectations about step statuses and the output.

use crate::compile::Plan;
use crate::events::NoEvents;
use crate::exec::{Mocks, RunOptions, StepOutcome, run};
use crate::tool::Registry;
use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// One test case file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TestCase {
    pub name: String,
    #[serde(default)]
    pub description: Option<String>,
    #[serde(default)]
    pub inputs: Map<String, Value>,
    /// Tool name or step id → the output that tool or step returns.
    #[serde(default)]
    pub mocks: Map<String, Value>,
    #[serde(default)]
    pub expect: Expect,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Expect {
    #[serde(default)]
    pub steps: IndexMap<String, StepExpect>,
    #[serde(default)]
    pub output: IndexMap<String, OutputExpect>,
    #[serde(default)]
    pub no_errors: bool,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StepExpect {
    pub status: ExpectedStatus,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ExpectedStatus {
    Completed,
    Skipped,
    Failed,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct OutputExpect {
    #[serde(rename = "type", default)]
    pub kind: Option<JsonType>,
    #[serde(default)]
    pub min_length: Option<usize>,
    #[serde(default)]
    pub equals: Option<Value>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum JsonType {
    Array,
    String,
    Number,
    Boolean,
    Object,
}

/// One checked expectation.
#[derive(Debug, Clone, Serialize)]
pub struct Assertion {
    pub pass: bool,
    pub message: String,
}

/// The outcome of one case.
#[derive(Debug, Clone, Serialize)]
pub struct CaseResult {
    pub name: String,
    pub file: String,
    pub passed: bool,
    pub assertions: Vec<Assertion>,
}

/// The case files beside a workflow: `<dir>/tests/<stem>.<case>.test.json`, sorted.
pub fn find_cases(workflow_path: &Path) -> Vec<PathBuf> {
    let stem = crate::load::stem(workflow_path);
    let dir = workflow_path
        .parent()
        .unwrap_or(Path::new("."))
        .join("tests");
    let prefix = format!("{stem}.");
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with(&prefix) && n.ends_with(".test.json"))
        })
        .collect();
    files.sort();
    files
}

/// Read and check a case file; the error names the file and what is wrong.
pub fn load_case(path: &Path) -> Result<TestCase, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    parse_case(&text, &path.display().to_string())
}

/// Parse a case from text; `file` names it in errors.
pub fn parse_case(text: &str, file: &str) -> Result<TestCase, String> {
    let value = crate::load::parse_json(text).map_err(|d| format!("{file}: {d}"))?;
    serde_json::from_value(value).map_err(|e| format!("{file}: not a valid test case: {e}"))
}

/// Run one case against `plan`, within `limits`.
pub async fn run_case(
    plan: Arc<Plan>,
    registry: Arc<Registry>,
    case: &TestCase,
    file: &str,
    limits: crate::Limits,
) -> CaseResult {
    let mut assertions = Vec::new();
    let mut mocks = Mocks::default();
    for (key, output) in &case.mocks {
        if plan.step_index(key).is_some() {
            mocks.by_step.insert(key.clone(), output.clone());
        } else if registry.spec(key).is_some() {
            mocks.by_tool.insert(key.clone(), output.clone());
        } else {
            assertions.push(fail(format!(
                "mock \"{key}\" is neither a step id of this workflow nor a tool name"
            )));
        }
    }
    let options = RunOptions {
        inputs: case.inputs.clone(),
        mocks,
        limits,
        ..RunOptions::default()
    };
    let result = match run(plan.clone(), registry, options, Arc::new(NoEvents)).await {
        Ok(r) => r,
        Err(errors) => {
            for e in errors {
                assertions.push(fail(format!("inputs: {e}")));
            }
            return CaseResult {
                name: case.name.clone(),
                file: file.to_string(),
                passed: false,
                assertions,
            };
        }
    };

    let expects_failure = case
        .expect
        .steps
        .values()
        .any(|s| s.status == ExpectedStatus::Failed);
    if let Some(error) = &result.error
        && !expects_failure
    {
        assertions.push(fail(format!("the run failed: {error}")));
    }
    for (id, want) in &case.expect.steps {
        let Some(record) = result.steps.iter().find(|r| &r.id == id) else {
            assertions.push(fail(format!("step \"{id}\" is not in the workflow")));
            continue;
        };
        let got = match record.status {
            StepOutcome::Completed => Some(ExpectedStatus::Completed),
            StepOutcome::Skipped => Some(ExpectedStatus::Skipped),
            StepOutcome::Failed => Some(ExpectedStatus::Failed),
            StepOutcome::Pending | StepOutcome::Cancelled | StepOutcome::Waiting => None,
        };
        let want_text = status_text(want.status);
        if got == Some(want.status) {
            assertions.push(pass(format!("step \"{id}\" {want_text}")));
        } else {
            let detail = record
                .error
                .as_ref()
                .or(record.reason.as_ref())
                .map(|d| format!(" ({d})"))
                .unwrap_or_default();
            let got_text = match record.status {
                StepOutcome::Completed => "completed",
                StepOutcome::Skipped => "skipped",
                StepOutcome::Failed => "failed",
                StepOutcome::Pending => "never ran",
                StepOutcome::Cancelled => "was cancelled",
                StepOutcome::Waiting => "waits for a person",
            };
            assertions.push(fail(format!(
                "step \"{id}\" expected {want_text}, but {got_text}{detail}"
            )));
        }
    }
    for (key, want) in &case.expect.output {
        let got = result
            .output
            .as_ref()
            .and_then(|o| o.get(key))
            .filter(|v| !v.is_null());
        let Some(got) = got else {
            assertions.push(fail(format!("output.{key} is missing")));
            continue;
        };
        if let Some(kind) = want.kind {
            let ok = match kind {
                JsonType::Array => got.is_array(),
                JsonType::String => got.is_string(),
                JsonType::Number => got.is_number(),
                JsonType::Boolean => got.is_boolean(),
                JsonType::Object => got.is_object(),
            };
            let name = serde_json::to_value(kind)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default();
            assertions.push(check(
                ok,
                format!("output.{key} is of type {name}"),
                format!("output.{key} should be of type {name}, got {}", short(got)),
            ));
        }
        if let Some(min) = want.min_length {
            let len = match got {
                Value::Array(a) => Some(a.len()),
                Value::String(s) => Some(s.chars().count()),
                _ => None,
            };
            assertions.push(match len {
                Some(n) => check(
                    n >= min,
                    format!("output.{key} has length {n} ≥ {min}"),
                    format!("output.{key} has length {n}, expected at least {min}"),
                ),
                None => fail(format!("output.{key} has no length (got {})", short(got))),
            });
        }
        if let Some(expected) = &want.equals {
            assertions.push(check(
                json_eq(got, expected),
                format!("output.{key} equals {}", short(expected)),
                format!(
                    "output.{key} is {}, expected {}",
                    short(got),
                    short(expected)
                ),
            ));
        }
    }
    if case.expect.no_errors {
        let failed: Vec<&str> = result
            .steps
            .iter()
            .filter(|r| r.status == StepOutcome::Failed)
            .map(|r| r.id.as_str())
            .collect();
        assertions.push(check(
            failed.is_empty(),
            "no step failed".to_string(),
            format!("steps failed: {}", failed.join(", ")),
        ));
    }
    let passed = assertions.iter().all(|a| a.pass);
    CaseResult {
        name: case.name.clone(),
        file: file.to_string(),
        passed,
        assertions,
    }
}

fn status_text(s: ExpectedStatus) -> &'static str {
    match s {
        ExpectedStatus::Completed => "completed",
        ExpectedStatus::Skipped => "was skipped",
        ExpectedStatus::Failed => "failed",
    }
}

fn pass(message: String) -> Assertion {
    Assertion {
        pass: true,
        message,
    }
}

fn fail(message: String) -> Assertion {
    Assertion {
        pass: false,
        message,
    }
}

fn check(ok: bool, yes: String, no: String) -> Assertion {
    Assertion {
        pass: ok,
        message: if ok { yes } else { no },
    }
}

fn short(v: &Value) -> String {
    crate::value::truncate_chars(&v.to_string(), 80)
}

/// Deep JSON equality where numbers compare by value (`5` equals `5.0`).
pub fn json_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| json_eq(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| json_eq(v, w)))
        }
        _ => a == b,
    }
}
