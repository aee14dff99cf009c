//! Structural checks: the JSON has the shape of a workflow, field by field. Produces the typed
//! `Workflow` with every malformed field reported and left out, so later checks still run.

use super::diags::Diags;
use super::nearest::nearest;
use crate::diagnostic::DiagnosticCode;
use crate::diagnostic::{Diagnostic, Severity};
use crate::model::{
    Compensation, Formatters, InputDecl, InputType, KnownKeys, RetryPolicy, Step, Workflow,
    WorkflowUi,
};
use crate::rules::{self, NumberRule, RESERVED_IDS, is_valid_id};
use crate::tool::Registry;
use indexmap::IndexMap;
use serde_json::{Map, Value};
use std::collections::HashSet;

/// Most steps a workflow may have.
pub(super) const MAX_STEPS: usize = 10_000;

const FORMATS: &[&str] = &["json", "table", "markdown", "text", "csv"];

pub(super) fn read(value: &Value, registry: &Registry, d: &mut Diags) -> Option<Workflow> {
    let Some(obj) = value.as_object() else {
        d.push(Diagnostic::error(
            DiagnosticCode::InvalidDefinition,
            "a workflow must be a JSON object",
        ));
        return None;
    };
    let mut extra = unknown_keys::<Workflow>(obj);

    let name = match obj.get("name") {
        Some(Value::String(s)) if !s.trim().is_empty() => s.clone(),
        _ => {
            d.soft(
                Diagnostic::error(
                    DiagnosticCode::MissingWorkflowName,
                    "the workflow needs a \"name\" string",
                )
                .field("name"),
                Severity::Info,
            );
            String::new()
        }
    };
    let description = opt_string(obj, "description", None, d);
    let version = opt_string(obj, "version", None, d);
    if let Some(v) = &version
        && !is_semver(v)
    {
        d.push(
            Diagnostic::warning(
                DiagnosticCode::InvalidVersion,
                format!("version \"{v}\" is not semver (e.g. 1.0.0)"),
            )
            .field("version"),
        );
    }
    let schema = opt_string(obj, "$schema", None, d);
    let inputs = read_inputs(obj.get("inputs"), d);
    let defaults = match obj.get("defaults") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(m)) => m.clone(),
        Some(_) => {
            d.push(
                Diagnostic::error(
                    DiagnosticCode::InvalidDefinition,
                    "\"defaults\" must be an object",
                )
                .field("defaults"),
            );
            Map::new()
        }
    };
    let formatters = read_formatters(obj.get("formatters"), d);
    let ui = read_ui(obj.get("ui"), d);
    if ui.is_none()
        && let Some(raw) = obj.get("ui")
    {
        // Malformed layout is only a warning: keep it as written.
        extra.insert("ui".into(), raw.clone());
    }

    let no_steps = Vec::new();
    let steps = match obj.get("steps") {
        Some(Value::Array(a)) if !a.is_empty() => a,
        // A workflow being built starts with none.
        None | Some(Value::Array(_)) if d.is_draft() => {
            d.soft(
                Diagnostic::error(
                    DiagnosticCode::MissingSteps,
                    "the workflow needs a non-empty \"steps\" array",
                )
                .field("steps"),
                Severity::Info,
            );
            &no_steps
        }
        _ => {
            d.push(
                Diagnostic::error(
                    DiagnosticCode::MissingSteps,
                    "the workflow needs a non-empty \"steps\" array",
                )
                .field("steps"),
            );
            return None;
        }
    };
    if steps.len() > MAX_STEPS {
        d.push(
            Diagnostic::error(
                DiagnosticCode::LimitExceeded,
                format!(
                    "{} steps; a workflow may have at most {MAX_STEPS}",
                    steps.len()
                ),
            )
            .field("steps"),
        );
        return None;
    }
    let mut seen = HashSet::new();
    let steps = steps
        .iter()
        .enumerate()
        .filter_map(|(i, s)| read_step(i, s, registry, &mut seen, d))
        .collect();

    Some(Workflow {
        schema,
        name,
        description,
        version,
        inputs,
        defaults,
        steps,
        output: obj.get("output").cloned(),
        formatters,
        branding: obj.get("branding").cloned(),
        ui,
        extra,
    })
}

/// The members of `obj` that `T` has no field for.
fn unknown_keys<T: KnownKeys>(obj: &Map<String, Value>) -> Map<String, Value> {
    let known = T::known_keys();
    obj.iter()
        .filter(|(k, _)| !known.contains(k))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

/// The builder's layout. The engine never reads it, so a malformed one is a warning (and is
/// kept as written rather than typed).
fn read_ui(value: Option<&Value>, d: &mut Diags) -> Option<WorkflowUi> {
    match value? {
        Value::Null => None,
        value => match serde_json::from_value::<WorkflowUi>(value.clone()) {
            Ok(ui) => Some(ui),
            Err(e) => {
                d.push(
                    Diagnostic::warning(
                        DiagnosticCode::InvalidUi,
                        format!("\"ui\" is not a valid layout ({e}); the builder will lay the workflow out itself"),
                    )
                    .field("ui"),
                );
                None
            }
        },
    }
}

fn is_semver(v: &str) -> bool {
    let core = v.split(['-', '+']).next().unwrap_or("");
    let parts: Vec<&str> = core.split('.').collect();
    parts.len() == 3
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()))
}

fn opt_string(
    obj: &Map<String, Value>,
    key: &str,
    step: Option<&str>,
    d: &mut Diags,
) -> Option<String> {
    match obj.get(key) {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(_) => {
            let mut diag = Diagnostic::error(
                DiagnosticCode::InvalidDefinition,
                format!("\"{key}\" must be a string"),
            )
            .field(key);
            if let Some(s) = step {
                diag = diag.step(s);
            }
            d.push(diag);
            None
        }
    }
}

fn read_inputs(value: Option<&Value>, d: &mut Diags) -> IndexMap<String, InputDecl> {
    let mut out = IndexMap::new();
    let obj = match value {
        None | Some(Value::Null) => return out,
        Some(Value::Object(o)) => o,
        Some(_) => {
            d.push(
                Diagnostic::error(
                    DiagnosticCode::InvalidInput,
                    "\"inputs\" must be an object of input declarations",
                )
                .field("inputs"),
            );
            return out;
        }
    };
    for (key, decl) in obj {
        let field = format!("inputs.{key}");
        let Some(decl) = decl.as_object() else {
            d.push(
                Diagnostic::error(
                    DiagnosticCode::InvalidInput,
                    format!("input \"{key}\" must be an object like {{\"type\": \"string\"}}"),
                )
                .field(field),
            );
            continue;
        };
        let kind = match decl.get("type") {
            Some(Value::String(t)) => match InputType::parse(t) {
                Some(k) => k,
                None => {
                    d.push(Diagnostic::error(DiagnosticCode::InvalidInputType, format!("input \"{key}\" has invalid type \"{t}\" (must be string, number, boolean, array or object)")).field(format!("{field}.type")));
                    continue;
                }
            },
            None => InputType::String,
            Some(_) => {
                d.push(
                    Diagnostic::error(
                        DiagnosticCode::InvalidInputType,
                        format!("input \"{key}\": \"type\" must be a string"),
                    )
                    .field(format!("{field}.type")),
                );
                continue;
            }
        };
        let required = match decl.get("required") {
            None | Some(Value::Null) => None,
            Some(Value::Bool(b)) => Some(*b),
            Some(_) => {
                d.push(
                    Diagnostic::error(
                        DiagnosticCode::InvalidInput,
                        format!("input \"{key}\": \"required\" must be true or false"),
                    )
                    .field(format!("{field}.required")),
                );
                None
            }
        };
        let default = decl.get("default").cloned();
        if let Some(v) = &default
            && !v.is_null()
            && !kind.accepts(v)
        {
            d.push(
                Diagnostic::warning(
                    DiagnosticCode::InvalidInput,
                    format!(
                        "input \"{key}\": default {v} is not of type {}",
                        kind.as_str()
                    ),
                )
                .field(format!("{field}.default")),
            );
        }
        let description = match decl.get("description") {
            Some(Value::String(s)) => Some(s.clone()),
            _ => None,
        };
        let extra = unknown_keys::<InputDecl>(decl);
        out.insert(
            key.clone(),
            InputDecl {
                kind,
                description,
                required,
                default,
                extra,
            },
        );
    }
    out
}

fn read_formatters(value: Option<&Value>, d: &mut Diags) -> Option<Formatters> {
    let obj = match value? {
        Value::Null => return None,
        Value::Object(o) => o,
        _ => {
            d.push(
                Diagnostic::error(
                    DiagnosticCode::InvalidFormatters,
                    "\"formatters\" must be an object",
                )
                .field("formatters"),
            );
            return None;
        }
    };
    let text = |key: &str, d: &mut Diags| match obj.get(key) {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(_) => {
            d.push(
                Diagnostic::error(
                    DiagnosticCode::InvalidFormatters,
                    format!("formatters.{key} must be a string"),
                )
                .field(format!("formatters.{key}")),
            );
            None
        }
    };
    let default = text("default", d);
    if let Some(f) = &default
        && !FORMATS.contains(&f.as_str())
    {
        d.push(
            Diagnostic::warning(
                DiagnosticCode::InvalidFormatters,
                format!(
                    "formatters.default \"{f}\" is not one of {}",
                    FORMATS.join(", ")
                ),
            )
            .field("formatters.default"),
        );
    }
    let title = text("title", d);
    let array_field = text("arrayField", d);
    let columns = match obj.get("columns") {
        None | Some(Value::Null) => None,
        Some(Value::Array(a)) if a.iter().all(Value::is_string) => Some(
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect(),
        ),
        Some(_) => {
            d.push(
                Diagnostic::error(
                    DiagnosticCode::InvalidFormatters,
                    "formatters.columns must be an array of strings",
                )
                .field("formatters.columns"),
            );
            None
        }
    };
    let extra = unknown_keys::<Formatters>(obj);
    Some(Formatters {
        default,
        title,
        columns,
        array_field,
        extra,
    })
}

fn read_step(
    i: usize,
    value: &Value,
    registry: &Registry,
    seen: &mut HashSet<String>,
    d: &mut Diags,
) -> Option<Step> {
    let at = format!("steps[{i}]");
    let Some(obj) = value.as_object() else {
        d.push(
            Diagnostic::error(
                DiagnosticCode::InvalidDefinition,
                format!("step {i} must be an object"),
            )
            .field(at),
        );
        return None;
    };
    let id = match obj.get("id") {
        Some(Value::String(s)) if !s.is_empty() => s.clone(),
        _ => {
            d.push(
                Diagnostic::error(
                    DiagnosticCode::MissingStepId,
                    format!("step {i} needs a string \"id\""),
                )
                .field(format!("{at}.id")),
            );
            return None;
        }
    };
    if !is_valid_id(&id) {
        d.push(Diagnostic::error(DiagnosticCode::InvalidStepId, format!("step id \"{id}\" is not valid: use letters, digits and _, not starting with a digit (templates read it as {{{{ {id}.output }}}})")).step(&id).field("id"));
    } else if RESERVED_IDS.contains(&id.as_str()) {
        d.push(
            Diagnostic::error(
                DiagnosticCode::InvalidStepId,
                format!("step id \"{id}\" is a reserved name; choose another"),
            )
            .step(&id)
            .field("id"),
        );
    }
    if !seen.insert(id.clone()) {
        d.push(
            Diagnostic::error(
                DiagnosticCode::DuplicateId,
                format!("duplicate step id \"{id}\" (step {i})"),
            )
            .step(&id)
            .field("id"),
        );
        return None;
    }
    let tool = match obj.get("tool") {
        Some(Value::String(t)) => {
            if registry.spec(t).is_none() {
                let hint = match nearest(t, registry.names()) {
                    Some(n) => format!("; did you mean \"{n}\"?"),
                    None => format!(
                        " (available: {})",
                        registry.names().collect::<Vec<_>>().join(", ")
                    ),
                };
                d.push(
                    Diagnostic::error(
                        DiagnosticCode::InvalidTool,
                        format!("unknown tool \"{t}\"{hint}"),
                    )
                    .step(&id)
                    .field("tool"),
                );
            }
            t.clone()
        }
        _ => {
            d.push(
                Diagnostic::error(
                    DiagnosticCode::MissingTool,
                    "the step needs a string \"tool\"",
                )
                .step(&id)
                .field("tool"),
            );
            String::new()
        }
    };
    let inputs = match obj.get("inputs") {
        Some(Value::Object(m)) => m.clone(),
        None | Some(Value::Null) => {
            d.soft(
                Diagnostic::error(
                    DiagnosticCode::MissingInputs,
                    "the step needs an \"inputs\" object",
                )
                .step(&id)
                .field("inputs"),
                Severity::Info,
            );
            Map::new()
        }
        Some(_) => {
            d.push(
                Diagnostic::error(
                    DiagnosticCode::MissingInputs,
                    "\"inputs\" must be an object",
                )
                .step(&id)
                .field("inputs"),
            );
            Map::new()
        }
    };
    let name = opt_string(obj, "name", Some(&id), d);
    if name.is_none() {
        d.draft_only(
            Diagnostic::info(DiagnosticCode::MissingStepName, "the step has no \"name\"")
                .step(&id)
                .field("name"),
        );
    }
    let description = opt_string(obj, "description", Some(&id), d);
    let condition = match obj.get("condition") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) if s.trim().is_empty() => {
            d.soft(
                Diagnostic::error(DiagnosticCode::EmptyCondition, "\"condition\" is empty")
                    .step(&id)
                    .field("condition"),
                Severity::Info,
            );
            None
        }
        Some(Value::String(s)) => Some(s.clone()),
        Some(_) => {
            d.push(Diagnostic::error(DiagnosticCode::InvalidCondition, "\"condition\" must be a string expression, e.g. \"{{ search.output.resultCount > 0 }}\"").step(&id).field("condition"));
            None
        }
    };
    let for_each = match obj.get("forEach") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(_) => {
            d.push(Diagnostic::error(DiagnosticCode::InvalidForeach, "\"forEach\" must be a template string resolving to an array, e.g. \"{{ inputs.queries }}\"").step(&id).field("forEach"));
            None
        }
    };
    let for_each_concurrency =
        bounded_int(obj, rules::FOR_EACH_CONCURRENCY, &id, d).map(|n| n as u32);
    let timeout_ms = bounded_int(obj, rules::TIMEOUT_MS, &id, d);
    let continue_on_error = match obj.get("continueOnError") {
        None | Some(Value::Null) => None,
        Some(Value::Bool(b)) => Some(*b),
        Some(_) => {
            d.push(
                Diagnostic::error(
                    DiagnosticCode::InvalidDefinition,
                    "\"continueOnError\" must be true or false",
                )
                .step(&id)
                .field("continueOnError"),
            );
            None
        }
    };
    let depends_on = match obj.get("dependsOn") {
        None | Some(Value::Null) => None,
        Some(Value::Array(a)) if a.iter().all(Value::is_string) => Some(
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect(),
        ),
        Some(_) => {
            d.push(
                Diagnostic::error(
                    DiagnosticCode::InvalidDefinition,
                    "\"dependsOn\" must be an array of step ids",
                )
                .step(&id)
                .field("dependsOn"),
            );
            None
        }
    };
    let retry = read_retry(obj.get("retry"), "retry", &id, d);
    let compensate = read_compensate(obj.get("compensate"), &id, registry, d);
    let extra = unknown_keys::<Step>(obj);
    Some(Step {
        id,
        name,
        description,
        tool,
        inputs,
        condition,
        for_each,
        for_each_concurrency,
        continue_on_error,
        depends_on,
        retry,
        timeout_ms,
        compensate,
        extra,
    })
}

/// A step's `compensate`: a tool that exists and is not one the engine steers the run with,
/// its inputs object, and its retry and time limit.
fn read_compensate(
    value: Option<&Value>,
    id: &str,
    registry: &Registry,
    d: &mut Diags,
) -> Option<Compensation> {
    let obj = match value? {
        Value::Null => return None,
        Value::Object(o) => o,
        _ => {
            d.push(
                Diagnostic::error(
                    DiagnosticCode::InvalidDefinition,
                    "\"compensate\" must be an object like {\"tool\": \"http\", \"inputs\": {…}}",
                )
                .step(id)
                .field("compensate"),
            );
            return None;
        }
    };
    let tool = match obj.get("tool") {
        Some(Value::String(t)) if registry.tool(t).is_some() => t.clone(),
        Some(Value::String(t)) => {
            let why = if registry.spec(t).is_some() {
                format!("\"{t}\" steers a run and cannot undo a step")
            } else {
                let hint = nearest(t, registry.names())
                    .map(|n| format!("; did you mean \"{n}\"?"))
                    .unwrap_or_default();
                format!("unknown tool \"{t}\"{hint}")
            };
            d.push(
                Diagnostic::error(DiagnosticCode::InvalidTool, format!("compensate: {why}"))
                    .step(id)
                    .field("compensate.tool"),
            );
            return None;
        }
        _ => {
            d.push(
                Diagnostic::error(
                    DiagnosticCode::MissingTool,
                    "compensate needs a string \"tool\"",
                )
                .step(id)
                .field("compensate.tool"),
            );
            return None;
        }
    };
    let inputs = match obj.get("inputs") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(m)) => m.clone(),
        Some(_) => {
            d.push(
                Diagnostic::error(
                    DiagnosticCode::MissingInputs,
                    "compensate: \"inputs\" must be an object",
                )
                .step(id)
                .field("compensate.inputs"),
            );
            return None;
        }
    };
    for key in obj.keys() {
        if !["tool", "inputs", "retry", "timeoutMs"].contains(&key.as_str()) {
            d.push(
                Diagnostic::warning(
                    DiagnosticCode::InvalidDefinition,
                    format!("compensate: unknown key \"{key}\" is ignored"),
                )
                .step(id)
                .field(format!("compensate.{key}")),
            );
        }
    }
    let retry = read_retry(obj.get("retry"), "compensate.retry", id, d);
    let timeout_ms = bounded_int(obj, rules::TIMEOUT_MS, id, d);
    Some(Compensation {
        tool,
        inputs,
        retry,
        timeout_ms,
    })
}

/// The whole number `obj` holds at `rule.key`, when it is within the rule's bounds.
fn bounded_int(obj: &Map<String, Value>, rule: NumberRule, id: &str, d: &mut Diags) -> Option<u64> {
    let (key, min, max) = (rule.key, rule.minimum as u64, rule.maximum as u64);
    match obj.get(key) {
        None | Some(Value::Null) => None,
        Some(v) => match v.as_u64() {
            Some(n) if rule.admits(n as f64) => Some(n),
            Some(n) if n > max => {
                d.push(
                    Diagnostic::error(
                        DiagnosticCode::LimitExceeded,
                        format!("\"{key}\" is {n}; the limit is {max}"),
                    )
                    .step(id)
                    .field(key),
                );
                None
            }
            _ => {
                d.push(
                    Diagnostic::error(
                        DiagnosticCode::InvalidDefinition,
                        format!("\"{key}\" must be a whole number from {min} to {max}"),
                    )
                    .step(id)
                    .field(key),
                );
                None
            }
        },
    }
}

fn read_retry(value: Option<&Value>, at: &str, id: &str, d: &mut Diags) -> Option<RetryPolicy> {
    let obj = match value? {
        Value::Null => return None,
        Value::Object(o) => o,
        _ => {
            d.push(
                Diagnostic::error(
                    DiagnosticCode::InvalidDefinition,
                    format!("\"{at}\" must be an object like {{\"maxAttempts\": 3}}"),
                )
                .step(id)
                .field(at),
            );
            return None;
        }
    };
    let mut policy = RetryPolicy::default();
    let mut ok = true;
    let mut num = |rule: NumberRule| -> Option<f64> {
        let key = rule.key;
        match obj.get(key) {
            None => None,
            Some(v) => match v.as_f64() {
                Some(n) if rule.admits(n) => Some(n),
                _ => {
                    ok = false;
                    let what = if rule.integer {
                        "whole number"
                    } else {
                        "number"
                    };
                    let (min, max) = (rule.minimum, rule.maximum);
                    d.push(
                        Diagnostic::error(
                            DiagnosticCode::InvalidDefinition,
                            format!("{at}.{key} must be a {what} from {min} to {max}"),
                        )
                        .step(id)
                        .field(format!("{at}.{key}")),
                    );
                    None
                }
            },
        }
    };
    if let Some(n) = num(rules::RETRY_MAX_ATTEMPTS) {
        policy.max_attempts = n as u32;
    }
    if let Some(n) = num(rules::RETRY_INITIAL_DELAY_MS) {
        policy.initial_delay_ms = n as u64;
    }
    if let Some(n) = num(rules::RETRY_BACKOFF_RATE) {
        policy.backoff_rate = n;
    }
    if let Some(n) = num(rules::RETRY_MAX_DELAY_MS) {
        policy.max_delay_ms = n as u64;
    }
    ok.then_some(policy)
}
