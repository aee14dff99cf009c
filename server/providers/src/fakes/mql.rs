//! The MongoDB query subset [`super::MemoryStore`] understands: filters (equality, `$eq`, `$ne`,
//! `$in`, `$nin`, `$gt`, `$gte`, `$lt`, `$lte`, `$and`, `$or`) and the `$match`, `$limit`,
//! `$project` (inclusion) and `$sort` stages. Anything else is an error, never a silent no-op.

use crate::Document;
use serde_json::{Map, Value};
use std::cmp::Ordering;

pub(super) fn apply_stage(
    name: &str,
    spec: &Value,
    docs: Vec<Document>,
) -> Result<Vec<Document>, String> {
    match name {
        "$match" => {
            let filter = spec.as_object().ok_or("expects an object")?;
            let mut kept = Vec::new();
            for doc in docs {
                if matches(&doc, filter)? {
                    kept.push(doc);
                }
            }
            Ok(kept)
        }
        "$limit" => {
            let n = spec.as_u64().ok_or("expects a non-negative integer")?;
            Ok(docs.into_iter().take(n as usize).collect())
        }
        "$project" => project(spec.as_object().ok_or("expects an object")?, docs),
        "$sort" => sort(spec.as_object().ok_or("expects an object")?, docs),
        other => Err(format!(
            "the in-memory test store supports only $match, $limit, $project and $sort, not {other}"
        )),
    }
}

fn project(spec: &Map<String, Value>, docs: Vec<Document>) -> Result<Vec<Document>, String> {
    let mut keep_id = true;
    let mut fields = Vec::new();
    for (field, v) in spec {
        let include = match v {
            Value::Bool(b) => *b,
            Value::Number(n) if n.as_f64() == Some(1.0) => true,
            Value::Number(n) if n.as_f64() == Some(0.0) => false,
            _ => {
                return Err(format!(
                    "only inclusion projections are supported (\"{field}\")"
                ));
            }
        };
        match (field.as_str(), include) {
            ("_id", include) => keep_id = include,
            (_, true) => fields.push(field.as_str()),
            (_, false) => return Err(format!("only _id may be excluded (\"{field}\")")),
        }
    }
    Ok(docs
        .into_iter()
        .map(|doc| {
            let mut out = Map::new();
            if let Some(id) = doc.get("_id").filter(|_| keep_id) {
                out.insert("_id".into(), id.clone());
            }
            for field in &fields {
                if let Some(v) = lookup(&doc, field) {
                    insert_path(&mut out, field, v.clone());
                }
            }
            out
        })
        .collect())
}

fn sort(spec: &Map<String, Value>, mut docs: Vec<Document>) -> Result<Vec<Document>, String> {
    let mut keys = Vec::new();
    for (field, dir) in spec {
        match dir.as_i64() {
            Some(1) => keys.push((field.as_str(), false)),
            Some(-1) => keys.push((field.as_str(), true)),
            _ => return Err(format!("sort direction of \"{field}\" must be 1 or -1")),
        }
    }
    docs.sort_by(|a, b| {
        keys.iter()
            .map(|(field, desc)| {
                let o = compare(lookup(a, field), lookup(b, field));
                if *desc { o.reverse() } else { o }
            })
            .find(|o| o.is_ne())
            .unwrap_or(Ordering::Equal)
    });
    Ok(docs)
}

/// Whether `doc` passes a MongoDB-style filter (the subset documented on [`MemoryStore`]).
pub(super) fn matches(doc: &Document, filter: &Map<String, Value>) -> Result<bool, String> {
    for (key, cond) in filter {
        let ok = match key.as_str() {
            "$and" | "$or" => {
                let parts = cond
                    .as_array()
                    .ok_or_else(|| format!("{key} expects an array of filters"))?;
                let mut results = Vec::new();
                for part in parts {
                    let part = part
                        .as_object()
                        .ok_or_else(|| format!("{key} expects an array of filters"))?;
                    results.push(matches(doc, part)?);
                }
                if key == "$and" {
                    results.iter().all(|r| *r)
                } else {
                    results.iter().any(|r| *r)
                }
            }
            op if op.starts_with('$') => {
                return Err(format!("the in-memory test store does not support {op}"));
            }
            path => field_matches(lookup(doc, path), cond)?,
        };
        if !ok {
            return Ok(false);
        }
    }
    Ok(true)
}

fn field_matches(value: Option<&Value>, cond: &Value) -> Result<bool, String> {
    let ops = match cond {
        Value::Object(o) if !o.is_empty() && o.keys().all(|k| k.starts_with('$')) => o,
        _ => return Ok(equals(value, cond)),
    };
    for (op, arg) in ops {
        let ok = match op.as_str() {
            "$eq" => equals(value, arg),
            "$ne" => !equals(value, arg),
            "$in" | "$nin" => {
                let options = arg
                    .as_array()
                    .ok_or_else(|| format!("{op} expects an array"))?;
                let found = options.iter().any(|o| equals(value, o));
                found == (op == "$in")
            }
            "$gt" | "$gte" | "$lt" | "$lte" => value.is_some_and(|v| {
                comparable(v, arg)
                    && match (op.as_str(), compare(Some(v), Some(arg))) {
                        ("$gt", o) => o.is_gt(),
                        ("$gte", o) => o.is_ge(),
                        ("$lt", o) => o.is_lt(),
                        (_, o) => o.is_le(),
                    }
            }),
            other => return Err(format!("the in-memory test store does not support {other}")),
        };
        if !ok {
            return Ok(false);
        }
    }
    Ok(true)
}

/// MongoDB equality: a missing field equals null, and an array field matches when it equals the
/// value or has an element that does.
fn equals(value: Option<&Value>, expected: &Value) -> bool {
    match value {
        None => expected.is_null(),
        Some(Value::Array(items)) if !expected.is_array() => {
            items.iter().any(|v| same(v, expected))
        }
        Some(v) => same(v, expected),
    }
}

/// JSON equality with numbers compared by value (`1 == 1.0`).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        _ => a == b,
    }
}

fn comparable(a: &Value, b: &Value) -> bool {
    matches!(
        (a, b),
        (Value::Number(_), Value::Number(_)) | (Value::String(_), Value::String(_))
    )
}

/// A total order in the spirit of BSON's: missing/null < numbers < strings < objects < arrays <
/// booleans.
fn compare(a: Option<&Value>, b: Option<&Value>) -> Ordering {
    fn rank(v: Option<&Value>) -> u8 {
        match v {
            None | Some(Value::Null) => 0,
            Some(Value::Number(_)) => 1,
            Some(Value::String(_)) => 2,
            Some(Value::Object(_)) => 3,
            Some(Value::Array(_)) => 4,
            Some(Value::Bool(_)) => 5,
        }
    }
    match (a, b) {
        (Some(Value::Number(x)), Some(Value::Number(y))) => x
            .as_f64()
            .unwrap_or(f64::NAN)
            .total_cmp(&y.as_f64().unwrap_or(f64::NAN)),
        (Some(Value::String(x)), Some(Value::String(y))) => x.cmp(y),
        (Some(Value::Bool(x)), Some(Value::Bool(y))) => x.cmp(y),
        _ => rank(a)
            .cmp(&rank(b))
            .then_with(|| a.map(Value::to_string).cmp(&b.map(Value::to_string))),
    }
}

/// The value at a dotted path through nested objects.
fn lookup<'a>(doc: &'a Document, path: &str) -> Option<&'a Value> {
    let mut parts = path.split('.');
    let mut current = doc.get(parts.next()?)?;
    for part in parts {
        current = current.as_object()?.get(part)?;
    }
    Some(current)
}

fn insert_path(out: &mut Document, path: &str, value: Value) {
    match path.split_once('.') {
        None => {
            out.insert(path.to_string(), value);
        }
        Some((head, rest)) => {
            let child = out
                .entry(head.to_string())
                .or_insert_with(|| Value::Object(Map::new()));
            if let Value::Object(child) = child {
                insert_path(child, rest, value);
            }
        }
    }
}
