//! Aggregation pipelines over JSON documents: parsed once into typed stages, then run lazily.

use super::{Filter, MqlError, compare, insert_path, lookup};
use crate::Document;
use serde_json::{Map, Value};
use std::cmp::Ordering;

/// A parsed aggregation pipeline.
#[derive(Debug, Clone, PartialEq)]
pub struct Pipeline(Vec<Stage>);

#[derive(Debug, Clone, PartialEq)]
enum Stage {
    Match(Filter),
    Limit(usize),
    Skip(usize),
    Sort(Vec<(String, bool)>),
    Project(Projection),
    Count(String),
}

#[derive(Debug, Clone, PartialEq)]
enum Projection {
    /// Keep `_id` (unless excluded) and these paths.
    Include { keep_id: bool, fields: Vec<String> },
    /// Drop these paths.
    Exclude(Vec<String>),
}

impl Pipeline {
    /// Parse every stage, refusing unsupported stages by index and name.
    pub fn parse(stages: &[Value]) -> Result<Self, MqlError> {
        let mut parsed = Vec::with_capacity(stages.len());
        for (index, stage) in stages.iter().enumerate() {
            let (name, spec) = match stage.as_object() {
                Some(o) if o.len() == 1 => o.iter().next().expect("one key"),
                _ => return Err(MqlError::MalformedStage(index)),
            };
            let invalid = |message: String| MqlError::InvalidStage {
                index,
                stage: name.clone(),
                message,
            };
            let count = |what: &str, min: u64| {
                spec.as_u64()
                    .or_else(|| {
                        spec.as_f64()
                            .filter(|f| f.fract() == 0.0 && *f >= 0.0)
                            .map(|f| f as u64)
                    })
                    .filter(|n| *n >= min)
                    .map(|n| n as usize)
                    .ok_or_else(|| invalid(format!("expects a {what} integer")))
            };
            parsed.push(match name.as_str() {
                "$match" => {
                    let filter = spec
                        .as_object()
                        .ok_or_else(|| invalid("expects an object".into()))?;
                    Stage::Match(Filter::parse(filter).map_err(|e| invalid(e.to_string()))?)
                }
                "$limit" => Stage::Limit(count("positive", 1)?),
                "$skip" => Stage::Skip(count("non-negative", 0)?),
                "$sort" => Stage::Sort(parse_sort(spec).map_err(invalid)?),
                "$project" => Stage::Project(parse_projection(spec).map_err(invalid)?),
                "$count" => match spec.as_str() {
                    Some(f) if !f.is_empty() && !f.starts_with('$') && !f.contains('.') => {
                        Stage::Count(f.to_string())
                    }
                    _ => {
                        return Err(invalid(
                            "expects a field name (non-empty, no leading $, no dots)".into(),
                        ));
                    }
                },
                other => {
                    return Err(MqlError::UnsupportedStage {
                        index,
                        stage: other.to_string(),
                    });
                }
            });
        }
        Ok(Pipeline(parsed))
    }

    /// Run the pipeline over documents in their natural order. Documents are pulled lazily, so
    /// a leading `$match` / `$limit` stops reading the input early.
    pub fn run(&self, docs: impl IntoIterator<Item = Document>) -> Vec<Document> {
        let mut iter: Box<dyn Iterator<Item = Document> + '_> = Box::new(docs.into_iter());
        for stage in &self.0 {
            iter = match stage {
                Stage::Match(f) => Box::new(iter.filter(move |d| f.matches(d))),
                Stage::Limit(n) => Box::new(iter.take(*n)),
                Stage::Skip(n) => Box::new(iter.skip(*n)),
                Stage::Project(p) => Box::new(iter.map(move |d| p.apply(d))),
                Stage::Sort(keys) => {
                    let mut docs: Vec<Document> = iter.collect();
                    sort(keys, &mut docs);
                    Box::new(docs.into_iter())
                }
                Stage::Count(field) => {
                    let n = iter.count();
                    let mut out = Map::new();
                    out.insert(field.clone(), Value::from(n));
                    // Like MongoDB, counting nothing yields no document at all.
                    Box::new((n > 0).then_some(out).into_iter())
                }
            };
        }
        iter.collect()
    }
}

fn parse_sort(spec: &Value) -> Result<Vec<(String, bool)>, String> {
    let spec = spec
        .as_object()
        .filter(|o| !o.is_empty())
        .ok_or("expects a non-empty object")?;
    spec.iter()
        .map(|(field, dir)| match dir.as_f64() {
            Some(1.0) => Ok((field.clone(), false)),
            Some(-1.0) => Ok((field.clone(), true)),
            _ => Err(format!("sort direction of \"{field}\" must be 1 or -1")),
        })
        .collect()
}

fn sort(keys: &[(String, bool)], docs: &mut [Document]) {
    // Stable: documents with equal keys keep their order.
    docs.sort_by(|a, b| {
        keys.iter()
            .map(|(field, desc)| {
                let o = compare(lookup(a, field), lookup(b, field));
                if *desc { o.reverse() } else { o }
            })
            .find(|o| o.is_ne())
            .unwrap_or(Ordering::Equal)
    });
}

fn parse_projection(spec: &Value) -> Result<Projection, String> {
    let spec = spec
        .as_object()
        .filter(|o| !o.is_empty())
        .ok_or("expects a non-empty object")?;
    let mut keep_id = true;
    let (mut included, mut excluded) = (Vec::new(), Vec::new());
    for (field, v) in spec {
        let include = match v {
            Value::Bool(b) => *b,
            Value::Number(n) => n.as_f64() != Some(0.0),
            _ => {
                return Err(format!(
                    "\"{field}\": only 1/true (include) and 0/false (exclude) are supported, not \
                     computed fields"
                ));
            }
        };
        match (field.as_str(), include) {
            ("_id", include) => keep_id = include,
            (_, true) => included.push(field.clone()),
            (_, false) => excluded.push(field.clone()),
        }
    }
    match (included.is_empty(), excluded.is_empty()) {
        (_, true) if !included.is_empty() || keep_id => Ok(Projection::Include {
            keep_id,
            fields: included,
        }),
        (true, _) => {
            if !keep_id {
                excluded.insert(0, "_id".into());
            }
            Ok(Projection::Exclude(excluded))
        }
        _ => Err(format!(
            "cannot mix inclusion and exclusion (\"{}\" and \"{}\"); only _id may be excluded \
             from an inclusion projection",
            included[0], excluded[0]
        )),
    }
}

impl Projection {
    fn apply(&self, mut doc: Document) -> Document {
        match self {
            Projection::Include { keep_id, fields } => {
                let mut out = Map::new();
                if let Some(id) = doc.get("_id").filter(|_| *keep_id) {
                    out.insert("_id".into(), id.clone());
                }
                for field in fields {
                    if let Some(v) = lookup(&doc, field) {
                        insert_path(&mut out, field, v.clone());
                    }
                }
                out
            }
            Projection::Exclude(fields) => {
                for field in fields {
                    remove_path(&mut doc, field);
                }
                doc
            }
        }
    }
}

fn remove_path(doc: &mut Document, path: &str) {
    match path.split_once('.') {
        None => {
            doc.shift_remove(path);
        }
        Some((head, rest)) => {
            if let Some(Value::Object(child)) = doc.get_mut(head) {
                remove_path(child, rest);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn doc(v: Value) -> Document {
        v.as_object().unwrap().clone()
    }

    #[test]
    fn pipelines_match_sort_skip_limit_project_and_count() {
        let docs = vec![
            doc(json!({"_id": "1", "n": 2, "t": "b", "embedding": [1.0], "m": {"a": 1, "b": 2}})),
            doc(json!({"_id": "2", "n": 5, "t": "a", "embedding": [2.0], "m": {"a": 3, "b": 4}})),
            doc(json!({"_id": "3", "n": 1, "t": "c", "embedding": [3.0]})),
        ];
        let run = |stages: Value| {
            Pipeline::parse(stages.as_array().unwrap())
                .unwrap()
                .run(docs.clone())
        };
        assert_eq!(
            run(
                json!([{"$sort": {"n": -1}}, {"$skip": 1}, {"$limit": 1}, {"$project": {"_id": 0, "t": 1, "m.b": 1}}])
            ),
            vec![doc(json!({"t": "b", "m": {"b": 2}}))]
        );
        assert_eq!(
            run(json!([{"$match": {"n": {"$gte": 2}}}, {"$project": {"embedding": 0, "m.a": 0}}])),
            vec![
                doc(json!({"_id": "1", "n": 2, "t": "b", "m": {"b": 2}})),
                doc(json!({"_id": "2", "n": 5, "t": "a", "m": {"b": 4}}))
            ]
        );
        assert_eq!(
            run(json!([{"$match": {"n": {"$lt": 3}}}, {"$count": "total"}])),
            vec![doc(json!({"total": 2}))]
        );
        assert!(run(json!([{"$match": {"n": 9}}, {"$count": "total"}])).is_empty());
    }

    #[test]
    fn pipelines_refuse_what_they_do_not_implement_naming_the_stage() {
        let err = |stages: Value| {
            Pipeline::parse(stages.as_array().unwrap())
                .unwrap_err()
                .to_string()
        };
        assert!(
            err(json!([{"$match": {}}, {"$group": {"_id": "$source"}}]))
                .starts_with("stage 1 ($group) is not supported")
        );
        assert!(err(json!([{"$match": {}, "$limit": 1}])).contains("exactly one"));
        assert!(err(json!([{"$limit": 0}])).contains("positive integer"));
        assert!(err(json!([{"$project": {"a": 1, "b": 0}}])).contains("only _id may be excluded"));
        assert!(err(json!([{"$project": {"a": "$b"}}])).contains("computed"));
        assert!(err(json!([{"$sort": {"a": 2}}])).contains("must be 1 or -1"));
        assert!(
            err(json!([{"$match": {"a": {"$regex": "x"}}}]))
                .starts_with("stage 0 ($match): $regex is not supported")
        );
    }
}
