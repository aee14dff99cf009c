//! What changed between two runs of a workflow, step by step: inputs, outputs (for result
//! lists, which documents entered, left or moved and how their scores changed), status, time
//! and cost, and the steps added or removed between the two versions of the definition.

use super::{RunRecord, StepRecord};
use crate::journal::changes;
use serde::Serialize;
use serde_json::{Map, Value};
use std::collections::HashMap;

/// One run of a diff, in brief.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RunSide {
    pub run_id: String,
    pub status: String,
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub started_at: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional, type = "number"))]
    pub duration_ms: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub cost_usd: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub hash: Option<String>,
}

/// A field whose value differs (`a` or `b` absent: the field is only on one side).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct FieldChange {
    pub field: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub a: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub b: Option<Value>,
}

/// One result of a list in either run: where it ranked (1 = first) and its score.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ResultMove {
    /// What identifies it across runs (`_id`, `id`, else its source and text).
    pub key: String,
    /// What a person recognises it by (its source or title, else its text's beginning).
    pub label: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub rank_a: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub rank_b: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub score_a: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub score_b: Option<f64>,
}

/// How a list of results changed.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ResultsDiff {
    /// The field holding the list (`results`, or empty for an output that is the list).
    pub field: String,
    /// In B, not in A (by B's rank).
    pub entered: Vec<ResultMove>,
    /// In A, not in B (by A's rank).
    pub left: Vec<ResultMove>,
    /// In both, at another rank or with another score (by B's rank).
    pub moved: Vec<ResultMove>,
    /// In both at the same rank with the same score.
    pub unchanged: usize,
}

impl ResultsDiff {
    pub fn is_empty(&self) -> bool {
        self.entered.is_empty() && self.left.is_empty() && self.moved.is_empty()
    }
}

/// One step of a diff.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct StepDiff {
    pub id: String,
    pub name: String,
    pub tool: String,
    /// `same`, `changed`, `added` (only in B's workflow) or `removed` (only in A's).
    pub change: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub status_a: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub status_b: Option<String>,
    /// Resolved inputs that differ, by top-level field.
    pub inputs: Vec<FieldChange>,
    pub output_changed: bool,
    /// For an output holding a list of results: how it changed.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub results: Option<ResultsDiff>,
    /// Output fields (other than a result list) that differ.
    pub outputs: Vec<FieldChange>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional, type = "number"))]
    pub duration_a: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional, type = "number"))]
    pub duration_b: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub cost_a: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub cost_b: Option<f64>,
}

/// Two runs compared.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RunDiff {
    pub workflow: String,
    pub a: RunSide,
    pub b: RunSide,
    /// How B's definition differs from A's (empty: the same version).
    pub workflow_changes: Vec<String>,
    /// Run inputs that differ.
    pub inputs: Vec<FieldChange>,
    /// Every step of either version: B's order, then the steps only A had.
    pub steps: Vec<StepDiff>,
}

/// Compare run `a` with run `b`. Runs of unrelated workflows (another name and no step in
/// common) are refused with a message saying so.
pub fn diff(a: &RunRecord, b: &RunRecord) -> Result<RunDiff, String> {
    let shared = b.steps.iter().any(|s| a.step(&s.id).is_some());
    if a.workflow != b.workflow && !shared {
        return Err(format!(
            "runs {} (\"{}\") and {} (\"{}\") are of unrelated workflows: they share neither a name nor a step",
            a.run_id, a.workflow, b.run_id, b.workflow
        ));
    }
    let mut steps: Vec<StepDiff> = b
        .steps
        .iter()
        .map(|sb| step_diff(sb, a.step(&sb.id), Some(sb)))
        .collect();
    steps.extend(
        a.steps
            .iter()
            .filter(|sa| b.step(&sa.id).is_none())
            .map(|sa| step_diff(sa, Some(sa), None)),
    );
    Ok(RunDiff {
        workflow: b.workflow.clone(),
        a: side(a),
        b: side(b),
        workflow_changes: changes(&a.definition, &b.definition),
        inputs: field_changes(&a.inputs, &b.inputs),
        steps,
    })
}

fn side(r: &RunRecord) -> RunSide {
    RunSide {
        run_id: r.run_id.clone(),
        status: r.status().to_string(),
        started_at: r.started_at,
        duration_ms: r.duration_ms,
        cost_usd: r.cost_usd(),
        hash: r.hash.clone(),
    }
}

fn cost(s: &StepRecord) -> Option<f64> {
    s.trace.usage.as_ref()?.cost.as_ref()?.usd
}

/// Step `any` (`b`'s when it has it, else `a`'s) in runs `a` and `b`.
fn step_diff(any: &StepRecord, a: Option<&StepRecord>, b: Option<&StepRecord>) -> StepDiff {
    let object = |s: Option<&StepRecord>| -> Map<String, Value> {
        match s.and_then(|s| s.trace.inputs.clone()) {
            Some(Value::Object(m)) => m,
            _ => Map::new(),
        }
    };
    let inputs = match (a, b) {
        (Some(_), Some(_)) => field_changes(&object(a), &object(b)),
        _ => Vec::new(),
    };
    let (out_a, out_b) = (
        a.and_then(|s| s.output.as_ref()),
        b.and_then(|s| s.output.as_ref()),
    );
    let output_changed = a.is_some() && b.is_some() && out_a != out_b;
    let (results, outputs) = match (out_a, out_b) {
        (Some(x), Some(y)) if output_changed => outputs_diff(x, y),
        _ => (None, Vec::new()),
    };
    let status_a = a.map(|s| s.status.clone());
    let status_b = b.map(|s| s.status.clone());
    let change = match (a, b) {
        (None, _) => "added",
        (_, None) => "removed",
        _ if status_a != status_b || !inputs.is_empty() || output_changed => "changed",
        _ => "same",
    };
    StepDiff {
        id: any.id.clone(),
        name: any.name.clone(),
        tool: any.tool.clone(),
        change: change.to_string(),
        status_a,
        status_b,
        inputs,
        output_changed,
        results,
        outputs,
        duration_a: a.and_then(|s| s.trace.duration_ms),
        duration_b: b.and_then(|s| s.trace.duration_ms),
        cost_a: a.and_then(cost),
        cost_b: b.and_then(cost),
    }
}

/// The top-level fields of `a` and `b` that differ, in `b`'s order then `a`'s.
fn field_changes(a: &Map<String, Value>, b: &Map<String, Value>) -> Vec<FieldChange> {
    let mut out: Vec<FieldChange> = b
        .iter()
        .filter(|(k, v)| a.get(*k) != Some(*v))
        .map(|(k, v)| FieldChange {
            field: k.clone(),
            a: a.get(k).cloned(),
            b: Some(v.clone()),
        })
        .collect();
    out.extend(
        a.iter()
            .filter(|(k, _)| !b.contains_key(*k))
            .map(|(k, v)| FieldChange {
                field: k.clone(),
                a: Some(v.clone()),
                b: None,
            }),
    );
    out
}

/// Two outputs compared: their result list, when they hold one, and every other field.
fn outputs_diff(a: &Value, b: &Value) -> (Option<ResultsDiff>, Vec<FieldChange>) {
    if let (Some(x), Some(y)) = (result_list(a), result_list(b)) {
        return (Some(results_diff("", x, y)), Vec::new());
    }
    let (Value::Object(ma), Value::Object(mb)) = (a, b) else {
        return (
            None,
            vec![FieldChange {
                field: String::new(),
                a: Some(a.clone()),
                b: Some(b.clone()),
            }],
        );
    };
    let mut results = None;
    let mut fields = Vec::new();
    for change in field_changes(ma, mb) {
        let lists = change
            .a
            .as_ref()
            .and_then(result_list)
            .zip(change.b.as_ref().and_then(result_list));
        match lists {
            Some((x, y)) if results.is_none() => {
                results = Some(results_diff(&change.field, x, y));
            }
            _ => fields.push(change),
        }
    }
    (results, fields)
}

/// `v` as a list of results: an array of objects with a text, source, id or score.
fn result_list(v: &Value) -> Option<&[Value]> {
    let items = v.as_array()?;
    let looks = |item: &Value| {
        ["_id", "id", "text", "content", "source", "score"]
            .iter()
            .any(|k| item.get(k).is_some())
    };
    (!items.is_empty() && items.iter().all(looks)).then_some(items.as_slice())
}

/// What identifies result `item` across runs, and its label.
fn identity(item: &Value) -> (String, String) {
    let text = |k: &str| item.get(k).and_then(Value::as_str);
    let body = text("text").or_else(|| text("content")).unwrap_or_default();
    let label = text("source")
        .or_else(|| text("title"))
        .map(str::to_string)
        .unwrap_or_else(|| body.chars().take(60).collect());
    let key = match item.get("_id").or_else(|| item.get("id")) {
        Some(Value::String(s)) => s.clone(),
        Some(other) if !other.is_null() => other.to_string(),
        _ => format!(
            "{label}\u{1f}{}",
            body.chars().take(200).collect::<String>()
        ),
    };
    (key, label)
}

fn results_diff(field: &str, a: &[Value], b: &[Value]) -> ResultsDiff {
    let score = |v: &Value| v.get("score").and_then(Value::as_f64);
    let index = |list: &[Value]| -> HashMap<String, (usize, Option<f64>, String)> {
        let mut out = HashMap::new();
        for (i, item) in list.iter().enumerate() {
            let (key, label) = identity(item);
            out.entry(key).or_insert((i + 1, score(item), label));
        }
        out
    };
    let (in_a, in_b) = (index(a), index(b));
    let mut diff = ResultsDiff {
        field: field.to_string(),
        ..ResultsDiff::default()
    };
    let mut seen = std::collections::HashSet::new();
    for item in b {
        let (key, label) = identity(item);
        if !seen.insert(key.clone()) {
            continue;
        }
        let (rank_b, score_b, _) = in_b[&key].clone();
        match in_a.get(&key) {
            None => diff.entered.push(ResultMove {
                key,
                label,
                rank_a: None,
                rank_b: Some(rank_b),
                score_a: None,
                score_b,
            }),
            Some((rank_a, score_a, _)) => {
                if *rank_a == rank_b && *score_a == score_b {
                    diff.unchanged += 1;
                } else {
                    diff.moved.push(ResultMove {
                        key,
                        label,
                        rank_a: Some(*rank_a),
                        rank_b: Some(rank_b),
                        score_a: *score_a,
                        score_b,
                    });
                }
            }
        }
    }
    let mut left: Vec<ResultMove> = in_a
        .into_iter()
        .filter(|(key, _)| !in_b.contains_key(key))
        .map(|(key, (rank_a, score_a, label))| ResultMove {
            key,
            label,
            rank_a: Some(rank_a),
            rank_b: None,
            score_a,
            score_b: None,
        })
        .collect();
    left.sort_by_key(|m| m.rank_a);
    diff.left = left;
    diff
}
