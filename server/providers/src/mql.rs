//! The MongoDB query subset the non-MongoDB stores understand (the local store and the test
//! fakes): filters and aggregation pipelines are parsed once into a typed [`Filter`] /
//! [`Pipeline`] — every unsupported operator or stage is refused at parse time, never skipped —
//! and then evaluated against JSON documents.
//!
//! Filters: field equality (`{"source": "a.md"}`), `$eq`, `$ne`, `$in`, `$nin`, `$gt`, `$gte`,
//! `$lt`, `$lte`, `$exists`, and `$and` / `$or` / `$nor`. Paths may be dotted
//! (`metadata.lang`), go through arrays of objects (`chunks.lang`) or index arrays
//! (`tags.0`). As in MongoDB, an array field matches a condition when the array itself or any
//! element does, and a missing field equals `null`.
//!
//! Stages: `$match`, `$limit`, `$skip`, `$sort`, `$project` (inclusion or exclusion, no computed
//! fields) and `$count`.

mod pipeline;

pub use pipeline::Pipeline;

use crate::Document;
use serde_json::{Map, Value};
use std::cmp::Ordering;

/// Why a filter or pipeline was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MqlError {
    /// An operator outside the supported subset (`$regex`, `$elemMatch`, …).
    #[error(
        "{0} is not supported (filters support field equality, $eq, $ne, $in, $nin, $gt, $gte, \
         $lt, $lte, $exists, $and, $or and $nor)"
    )]
    UnsupportedOperator(String),
    /// A supported operator with an argument of the wrong shape.
    #[error("{operator} {expected}")]
    BadArgument {
        operator: String,
        expected: &'static str,
    },
    /// A field condition object mixing operators and plain keys.
    #[error("the condition on \"{0}\" mixes $-operators and plain fields")]
    MixedCondition(String),
    /// A pipeline entry that is not `{"$stage": spec}`.
    #[error("stage {0} must be an object with exactly one $-operator")]
    MalformedStage(usize),
    /// A stage outside the supported subset (`$group`, `$lookup`, …).
    #[error(
        "stage {index} ({stage}) is not supported: this store supports only $match, $limit, \
         $skip, $sort, $project and $count"
    )]
    UnsupportedStage { index: usize, stage: String },
    /// A supported stage whose specification is invalid.
    #[error("stage {index} ({stage}): {message}")]
    InvalidStage {
        index: usize,
        stage: String,
        message: String,
    },
}

/// A parsed MongoDB filter: every top-level clause must hold.
#[derive(Debug, Clone, PartialEq)]
pub struct Filter(Vec<Clause>);

#[derive(Debug, Clone, PartialEq)]
enum Clause {
    And(Vec<Filter>),
    Or(Vec<Filter>),
    Nor(Vec<Filter>),
    Field { path: String, conds: Vec<Cond> },
}

#[derive(Debug, Clone, PartialEq)]
enum Cond {
    Eq(Value),
    Ne(Value),
    In(Vec<Value>),
    Nin(Vec<Value>),
    Cmp(CmpOp, Value),
    Exists(bool),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum CmpOp {
    Gt,
    Gte,
    Lt,
    Lte,
}

impl Filter {
    /// Parse a filter document, refusing anything outside the supported subset.
    pub fn parse(filter: &Map<String, Value>) -> Result<Self, MqlError> {
        let mut clauses = Vec::with_capacity(filter.len());
        for (key, cond) in filter {
            let clause = match key.as_str() {
                "$and" | "$or" | "$nor" => {
                    let parts = cond
                        .as_array()
                        .filter(|a| !a.is_empty())
                        .ok_or_else(|| bad(key, "expects a non-empty array of filters"))?;
                    let parts = parts
                        .iter()
                        .map(|p| {
                            p.as_object()
                                .ok_or_else(|| bad(key, "expects a non-empty array of filters"))
                                .and_then(Filter::parse)
                        })
                        .collect::<Result<Vec<_>, _>>()?;
                    match key.as_str() {
                        "$and" => Clause::And(parts),
                        "$or" => Clause::Or(parts),
                        _ => Clause::Nor(parts),
                    }
                }
                op if op.starts_with('$') => {
                    return Err(MqlError::UnsupportedOperator(op.to_string()));
                }
                path => Clause::Field {
                    path: path.to_string(),
                    conds: parse_conditions(path, cond)?,
                },
            };
            clauses.push(clause);
        }
        Ok(Filter(clauses))
    }

    /// Whether `doc` passes the filter.
    pub fn matches(&self, doc: &Document) -> bool {
        self.0.iter().all(|clause| match clause {
            Clause::And(parts) => parts.iter().all(|f| f.matches(doc)),
            Clause::Or(parts) => parts.iter().any(|f| f.matches(doc)),
            Clause::Nor(parts) => !parts.iter().any(|f| f.matches(doc)),
            Clause::Field { path, conds } => {
                let mut values = Vec::new();
                collect_path(doc, path, &mut values);
                conds.iter().all(|c| c.holds(&values))
            }
        })
    }
}

fn bad(operator: &str, expected: &'static str) -> MqlError {
    MqlError::BadArgument {
        operator: operator.to_string(),
        expected,
    }
}

fn parse_conditions(path: &str, cond: &Value) -> Result<Vec<Cond>, MqlError> {
    let ops = match cond {
        Value::Object(o) if o.keys().any(|k| k.starts_with('$')) => o,
        _ => return Ok(vec![Cond::Eq(cond.clone())]),
    };
    if !ops.keys().all(|k| k.starts_with('$')) {
        return Err(MqlError::MixedCondition(path.to_string()));
    }
    ops.iter()
        .map(|(op, arg)| {
            let list = || {
                arg.as_array()
                    .cloned()
                    .ok_or_else(|| bad(op, "expects an array"))
            };
            Ok(match op.as_str() {
                "$eq" => Cond::Eq(arg.clone()),
                "$ne" => Cond::Ne(arg.clone()),
                "$in" => Cond::In(list()?),
                "$nin" => Cond::Nin(list()?),
                "$gt" => Cond::Cmp(CmpOp::Gt, arg.clone()),
                "$gte" => Cond::Cmp(CmpOp::Gte, arg.clone()),
                "$lt" => Cond::Cmp(CmpOp::Lt, arg.clone()),
                "$lte" => Cond::Cmp(CmpOp::Lte, arg.clone()),
                "$exists" => Cond::Exists(match arg {
                    Value::Bool(b) => *b,
                    Value::Number(n) => n.as_f64() != Some(0.0),
                    _ => return Err(bad(op, "expects true or false")),
                }),
                other => return Err(MqlError::UnsupportedOperator(other.to_string())),
            })
        })
        .collect()
}

impl Cond {
    /// `values` are what the path resolved to (empty when the field is missing).
    fn holds(&self, values: &[&Value]) -> bool {
        match self {
            Cond::Eq(x) => equals(values, x),
            Cond::Ne(x) => !equals(values, x),
            Cond::In(options) => options.iter().any(|x| equals(values, x)),
            Cond::Nin(options) => !options.iter().any(|x| equals(values, x)),
            Cond::Cmp(op, x) => values.iter().any(|v| {
                let elements: &[Value] = match v {
                    Value::Array(items) => items,
                    single => std::slice::from_ref(*single),
                };
                elements
                    .iter()
                    .any(|e| comparable(e, x) && op.accepts(compare(Some(e), Some(x))))
            }),
            Cond::Exists(should) => values.is_empty() != *should,
        }
    }
}

impl CmpOp {
    fn accepts(self, o: Ordering) -> bool {
        match self {
            CmpOp::Gt => o.is_gt(),
            CmpOp::Gte => o.is_ge(),
            CmpOp::Lt => o.is_lt(),
            CmpOp::Lte => o.is_le(),
        }
    }
}

/// MongoDB equality: a missing field equals null, and an array matches when it equals the value
/// or has an element that does.
fn equals(values: &[&Value], expected: &Value) -> bool {
    if values.is_empty() {
        return expected.is_null();
    }
    values.iter().any(|v| match v {
        Value::Array(items) => same(v, expected) || items.iter().any(|i| same(i, expected)),
        v => same(v, expected),
    })
}

/// JSON equality with numbers compared by value (`1 == 1.0`), also inside arrays and objects.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|((ka, a), (kb, b))| ka == kb && same(a, b))
        }
        _ => a == b,
    }
}

/// Range operators only compare values of the same kind, as MongoDB's type bracketing does.
fn comparable(a: &Value, b: &Value) -> bool {
    matches!(
        (a, b),
        (Value::Number(_), Value::Number(_))
            | (Value::String(_), Value::String(_))
            | (Value::Bool(_), Value::Bool(_))
    )
}

/// A total order in the spirit of BSON's: missing/null < numbers < strings < objects < arrays <
/// booleans.
pub fn compare(a: Option<&Value>, b: Option<&Value>) -> Ordering {
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

/// Every value a dotted path reaches: through nested objects, into arrays by numeric index
/// (`tags.0`) and across arrays of objects (`chunks.lang` collects each element's `lang`).
fn collect_path<'a>(doc: &'a Document, path: &str, out: &mut Vec<&'a Value>) {
    let (head, rest) = match path.split_once('.') {
        Some((h, r)) => (h, Some(r)),
        None => (path, None),
    };
    if let Some(v) = doc.get(head) {
        collect_value(v, rest, out);
    }
}

fn collect_value<'a>(value: &'a Value, rest: Option<&str>, out: &mut Vec<&'a Value>) {
    let Some(rest) = rest else {
        out.push(value);
        return;
    };
    match value {
        Value::Object(o) => collect_path(o, rest, out),
        Value::Array(items) => {
            let (head, tail) = match rest.split_once('.') {
                Some((h, t)) => (h, Some(t)),
                None => (rest, None),
            };
            if let Ok(i) = head.parse::<usize>() {
                if let Some(item) = items.get(i) {
                    collect_value(item, tail, out);
                }
            } else {
                for item in items {
                    if let Value::Object(o) = item {
                        collect_path(o, rest, out);
                    }
                }
            }
        }
        _ => {}
    }
}

/// The value at a dotted path through nested objects (what `$sort` and `$project` read).
pub fn lookup<'a>(doc: &'a Document, path: &str) -> Option<&'a Value> {
    let mut parts = path.split('.');
    let mut current = doc.get(parts.next()?)?;
    for part in parts {
        current = current.as_object()?.get(part)?;
    }
    Some(current)
}

/// Set `value` at a dotted path, creating intermediate objects.
pub fn insert_path(out: &mut Document, path: &str, value: Value) {
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

/// `_id` plus the listed fields a document has (dotted paths keep their nesting), in the
/// document's own field order for top-level fields. What vector search returns per hit.
pub fn project_fields(doc: &Document, fields: &[String]) -> Document {
    let mut out: Document = doc
        .iter()
        .filter(|(k, _)| *k == "_id" || fields.contains(k))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    for field in fields.iter().filter(|f| f.contains('.')) {
        if let Some(v) = lookup(doc, field) {
            insert_path(&mut out, field, v.clone());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn doc(v: Value) -> Document {
        v.as_object().unwrap().clone()
    }

    fn passes(filter: Value, d: &Value) -> bool {
        Filter::parse(filter.as_object().unwrap())
            .unwrap()
            .matches(&doc(d.clone()))
    }

    #[test]
    fn filters_follow_mongodb_equality_and_range_rules() {
        let d = json!({
            "source": "a.md", "n": 3, "tags": ["red", "blue"], "scores": [1, 9],
            "metadata": {"lang": "en", "year": 2024},
            "chunks": [{"lang": "en"}, {"lang": "fr"}]
        });
        assert!(passes(json!({"source": "a.md", "n": 3.0}), &d));
        assert!(passes(json!({"metadata.lang": "en"}), &d));
        assert!(passes(json!({"tags": "blue", "tags.0": "red"}), &d));
        assert!(passes(json!({"tags": ["red", "blue"]}), &d));
        assert!(passes(json!({"chunks.lang": "fr"}), &d));
        assert!(passes(
            json!({"missing": null, "source": {"$ne": null}}),
            &d
        ));
        assert!(passes(json!({"n": {"$gt": 2, "$lte": 3}}), &d));
        assert!(passes(json!({"scores": {"$gt": 5}}), &d), "any element");
        assert!(!passes(json!({"n": {"$gt": "2"}}), &d), "no cross-type");
        assert!(passes(json!({"tags": {"$in": ["green", "red"]}}), &d));
        assert!(!passes(json!({"tags": {"$nin": ["red"]}}), &d));
        assert!(passes(json!({"metadata.year": {"$exists": true}}), &d));
        assert!(passes(json!({"metadata.month": {"$exists": false}}), &d));
        assert!(passes(
            json!({"$or": [{"n": 1}, {"$and": [{"n": 3}, {"source": "a.md"}]}]}),
            &d
        ));
        assert!(!passes(json!({"$nor": [{"n": 3}]}), &d));
        assert!(passes(
            json!({"metadata": {"lang": "en", "year": 2024}}),
            &d
        ));
    }

    #[test]
    fn unsupported_filters_are_refused_when_parsed() {
        let err = |f: Value| {
            Filter::parse(f.as_object().unwrap())
                .unwrap_err()
                .to_string()
        };
        assert!(err(json!({"text": {"$regex": "a"}})).starts_with("$regex is not supported"));
        assert!(err(json!({"$where": "1"})).starts_with("$where is not supported"));
        assert_eq!(
            err(json!({"$or": {}})),
            "$or expects a non-empty array of filters"
        );
        assert_eq!(err(json!({"n": {"$in": 3}})), "$in expects an array");
        assert!(err(json!({"n": {"$gt": 1, "x": 2}})).contains("mixes"));
    }

    #[test]
    fn projected_fields_keep_id_and_document_order() {
        let d = doc(
            json!({"_id": "x", "text": "t", "source": "s", "metadata": {"lang": "en", "n": 1}, "embedding": [1]}),
        );
        let out = project_fields(
            &d,
            &["source".into(), "text".into(), "metadata.lang".into()],
        );
        assert_eq!(
            Value::Object(out),
            json!({"_id": "x", "text": "t", "source": "s", "metadata": {"lang": "en"}})
        );
    }
}
