//! For tests (here, and other crates' with the `fakes` feature): a small in-memory database behind vai-providers' scripted MongoDB wire fake. It
//! evaluates the filters, updates and pipelines the store sends — the subset of the query and
//! aggregation languages they use, with `$$NOW` read from a clock the test moves — one command at
//! a time, as a server applies each `findAndModify` atomically. It lets the wire tests check
//! what the store's documents *do* (who wins a claim, when a lease lapses), not only what they
//! say; `live_tests` checks the same against a real server.

use mongodb::bson::{Bson, DateTime, Document, doc, oid::ObjectId};
use std::cmp::Ordering;
use std::collections::HashMap;
use std::sync::atomic::{AtomicI64, Ordering as Atomic};
use std::sync::{Arc, Mutex};
use vai_providers::mongo::fake_server::{FakeMongo, command_error, cursor};

/// A fault a test asks for: the next `count` commands named `command` fail with `reply`.
type Fault = (String, usize, Document);

#[derive(Default)]
struct Db {
    /// Documents by collection, in insertion order.
    collections: HashMap<String, Vec<Document>>,
    /// Unique indexes by collection: each a list of key paths.
    unique: HashMap<String, Vec<Vec<String>>>,
    faults: Vec<Fault>,
}

/// The fake server and the database behind it.
pub struct FakeDb {
    pub server: FakeMongo,
    db: Arc<Mutex<Db>>,
    now: Arc<AtomicI64>,
}

impl FakeDb {
    pub async fn start() -> FakeDb {
        let db = Arc::new(Mutex::new(Db::default()));
        let now = Arc::new(AtomicI64::new(1_700_000_000_000));
        let (inner, clock) = (db.clone(), now.clone());
        let server = FakeMongo::start(move |name, body| {
            let mut db = inner.lock().unwrap();
            let now = DateTime::from_millis(clock.load(Atomic::SeqCst));
            if let Some(at) = db.faults.iter().position(|f| f.0 == name) {
                let reply = db.faults[at].2.clone();
                db.faults[at].1 -= 1;
                if db.faults[at].1 == 0 {
                    db.faults.remove(at);
                }
                return reply;
            }
            db.command(name, body, now)
        })
        .await;
        FakeDb { server, db, now }
    }

    /// Move the server's clock on.
    pub fn advance(&self, ms: i64) {
        self.now.fetch_add(ms, Atomic::SeqCst);
    }

    /// The next `count` commands named `command` get `reply`.
    pub fn fail(&self, command: &str, count: usize, reply: Document) {
        self.db
            .lock()
            .unwrap()
            .faults
            .push((command.into(), count, reply));
    }

    /// The documents of collection `name`.
    pub fn documents(&self, name: &str) -> Vec<Document> {
        let db = self.db.lock().unwrap();
        db.collections.get(name).cloned().unwrap_or_default()
    }

    /// Change the documents of collection `name` (a test tampering with the data).
    pub fn edit(&self, name: &str, change: impl FnOnce(&mut Vec<Document>)) {
        let mut db = self.db.lock().unwrap();
        change(db.collections.entry(name.into()).or_default());
    }
}

fn duplicate_key(index: usize) -> Document {
    doc! {"index": index as i32, "code": 11000, "errmsg": "E11000 duplicate key error"}
}

impl Db {
    fn command(&mut self, name: &str, body: &Document, now: DateTime) -> Document {
        let coll = body.get_str(name).unwrap_or_default().to_string();
        match name {
            "createIndexes" => {
                for index in body.get_array("indexes").unwrap() {
                    let index = index.as_document().unwrap();
                    if index.get_bool("unique").unwrap_or(false) {
                        let keys = index.get_document("key").unwrap().keys().cloned().collect();
                        self.unique.entry(coll.clone()).or_default().push(keys);
                    }
                }
                doc! {"ok": 1}
            }
            "insert" => {
                let mut n = 0;
                for document in body.get_array("documents").unwrap() {
                    let mut document = document.as_document().unwrap().clone();
                    if !document.contains_key("_id") {
                        document.insert("_id", ObjectId::new());
                    }
                    if self.violates(&coll, &document, None) {
                        return doc! {"n": n, "writeErrors": [duplicate_key(n as usize)], "ok": 1};
                    }
                    self.collections
                        .entry(coll.clone())
                        .or_default()
                        .push(document);
                    n += 1;
                }
                doc! {"n": n, "ok": 1}
            }
            "update" => {
                let update = body.get_array("updates").unwrap()[0]
                    .as_document()
                    .unwrap()
                    .clone();
                let (q, u) = (update.get_document("q").unwrap(), update.get("u").unwrap());
                let upsert = update.get_bool("upsert").unwrap_or(false);
                match self.modify(&coll, q, u, upsert, now) {
                    Err(()) => {
                        doc! {"n": 0, "nModified": 0, "writeErrors": [duplicate_key(0)], "ok": 1}
                    }
                    Ok((Some(_), true)) => {
                        doc! {"n": 1, "nModified": 0, "upserted": [{"index": 0, "_id": q.get("_id").cloned().unwrap_or(Bson::Null)}], "ok": 1}
                    }
                    Ok((Some(_), false)) => doc! {"n": 1, "nModified": 1, "ok": 1},
                    Ok((None, _)) => doc! {"n": 0, "nModified": 0, "ok": 1},
                }
            }
            "findAndModify" => {
                let q = body.get_document("query").unwrap();
                let upsert = body.get_bool("upsert").unwrap_or(false);
                match self.modify(&coll, q, body.get("update").unwrap(), upsert, now) {
                    Err(()) => command_error(11000, "DuplicateKey", "E11000 duplicate key error"),
                    Ok((found, upserted)) => doc! {
                        "lastErrorObject": {"n": i32::from(found.is_some()), "updatedExisting": found.is_some() && !upserted},
                        "value": found.map_or(Bson::Null, Bson::Document),
                        "ok": 1,
                    },
                }
            }
            "find" => {
                let filter = body.get_document("filter").cloned().unwrap_or_default();
                let mut found: Vec<Document> = self
                    .all(&coll)
                    .into_iter()
                    .filter(|d| matches(d, &filter, now))
                    .collect();
                if let Ok(order) = body.get_document("sort") {
                    sort(&mut found, order);
                }
                if let Some(limit) = number(body.get("limit")).filter(|l| *l != 0) {
                    found.truncate(limit.unsigned_abs() as usize);
                }
                if let Ok(projection) = body.get_document("projection") {
                    found = found.iter().map(|d| project(d, projection, now)).collect();
                }
                cursor(found)
            }
            "aggregate" => {
                let mut rows = self.all(&coll);
                for stage in body.get_array("pipeline").unwrap() {
                    let stage = stage.as_document().unwrap();
                    let (op, arg) = stage.iter().next().unwrap();
                    match op.as_str() {
                        "$match" => {
                            let f = arg.as_document().unwrap();
                            rows.retain(|d| matches(d, f, now));
                        }
                        "$sort" => sort(&mut rows, arg.as_document().unwrap()),
                        "$limit" => rows.truncate(number(Some(arg)).unwrap() as usize),
                        "$project" => {
                            let p = arg.as_document().unwrap();
                            rows = rows.iter().map(|d| project(d, p, now)).collect();
                        }
                        other => panic!("the fake database has no {other}"),
                    }
                }
                cursor(rows)
            }
            "delete" => {
                let q = body.get_array("deletes").unwrap()[0]
                    .as_document()
                    .unwrap()
                    .get_document("q")
                    .unwrap()
                    .clone();
                let documents = self.collections.entry(coll).or_default();
                let before = documents.len();
                documents.retain(|d| !matches(d, &q, now));
                doc! {"n": (before - documents.len()) as i32, "ok": 1}
            }
            other => panic!("the fake database has no command {other}: {body}"),
        }
    }

    fn all(&self, coll: &str) -> Vec<Document> {
        self.collections.get(coll).cloned().unwrap_or_default()
    }

    /// Whether `document` (replacing the one at `replacing`) breaks `_id` or a unique index.
    fn violates(&self, coll: &str, document: &Document, replacing: Option<usize>) -> bool {
        let mut keys = vec![vec!["_id".to_string()]];
        keys.extend(self.unique.get(coll).cloned().unwrap_or_default());
        let others = self.collections.get(coll).into_iter().flatten();
        others
            .enumerate()
            .filter(|(i, _)| Some(*i) != replacing)
            .any(|(_, other)| {
                keys.iter()
                    .any(|k| k.iter().all(|p| get(other, p) == get(document, p)))
            })
    }

    /// Update the first document of `coll` matching `q` with `u` (an update document or a
    /// pipeline), inserting one when none does and `upsert`: the document after, and whether
    /// it was inserted; `Err` on a duplicate key.
    fn modify(
        &mut self,
        coll: &str,
        q: &Document,
        u: &Bson,
        upsert: bool,
        now: DateTime,
    ) -> Result<(Option<Document>, bool), ()> {
        let documents = self.collections.entry(coll.into()).or_default();
        let at = documents.iter().position(|d| matches(d, q, now));
        let (before, inserted) = match at {
            Some(i) => (documents[i].clone(), false),
            None if upsert => {
                let mut seed = Document::new();
                for (k, v) in q {
                    if !k.starts_with('$')
                        && !matches!(v, Bson::Document(d) if d.keys().any(|k| k.starts_with('$')))
                    {
                        seed.insert(k.clone(), v.clone());
                    }
                }
                (seed, true)
            }
            None => return Ok((None, false)),
        };
        let after = apply(&before, u, now);
        if self.violates(coll, &after, at) {
            return Err(());
        }
        let documents = self.collections.entry(coll.into()).or_default();
        match at {
            Some(i) => documents[i] = after.clone(),
            None => documents.push(after.clone()),
        }
        Ok((Some(after), inserted))
    }
}

fn number(value: Option<&Bson>) -> Option<i64> {
    match value? {
        Bson::Int32(n) => Some(i64::from(*n)),
        Bson::Int64(n) => Some(*n),
        Bson::Double(n) => Some(*n as i64),
        _ => None,
    }
}

/// The value at dotted `path`; `None` when missing.
fn get(document: &Document, path: &str) -> Option<Bson> {
    let mut value = Bson::Document(document.clone());
    for part in path.split('.') {
        value = match value {
            Bson::Document(d) => d.get(part)?.clone(),
            _ => return None,
        };
    }
    Some(value)
}

fn set(document: &mut Document, path: &str, value: Bson) {
    match path.split_once('.') {
        None => {
            document.insert(path, value);
        }
        Some((head, rest)) => {
            if !matches!(document.get(head), Some(Bson::Document(_))) {
                document.insert(head, Document::new());
            }
            if let Some(Bson::Document(inner)) = document.get_mut(head) {
                set(inner, rest, value);
            }
        }
    }
}

/// BSON's order across types (null < numbers < strings < documents < booleans < dates), and
/// within the types the store uses.
fn compare(a: &Bson, b: &Bson) -> Ordering {
    fn rank(v: &Bson) -> u8 {
        match v {
            Bson::Null => 0,
            Bson::Int32(_) | Bson::Int64(_) | Bson::Double(_) => 1,
            Bson::String(_) => 2,
            Bson::Document(_) => 3,
            Bson::Array(_) => 4,
            Bson::Boolean(_) => 5,
            Bson::DateTime(_) => 6,
            _ => 7,
        }
    }
    match (a, b) {
        (Bson::String(x), Bson::String(y)) => x.cmp(y),
        (Bson::Boolean(x), Bson::Boolean(y)) => x.cmp(y),
        (Bson::DateTime(x), Bson::DateTime(y)) => x.cmp(y),
        _ if rank(a) == 1 && rank(b) == 1 => {
            let f = |v: &Bson| match v {
                Bson::Double(d) => *d,
                other => number(Some(other)).unwrap_or_default() as f64,
            };
            f(a).partial_cmp(&f(b)).unwrap_or(Ordering::Equal)
        }
        _ => rank(a).cmp(&rank(b)),
    }
}

fn equal(a: Option<&Bson>, b: &Bson) -> bool {
    match (a, b) {
        (None | Some(Bson::Null), Bson::Null) => true,
        (Some(a), b) => a == b || same_number(a, b),
        (None, _) => false,
    }
}

fn same_number(a: &Bson, b: &Bson) -> bool {
    matches!((number(Some(a)), number(Some(b))), (Some(x), Some(y)) if x == y)
}

/// Whether `document` matches query `filter`.
fn matches(document: &Document, filter: &Document, now: DateTime) -> bool {
    filter.iter().all(|(key, cond)| match key.as_str() {
        "$or" => cond
            .as_array()
            .unwrap()
            .iter()
            .any(|f| matches(document, f.as_document().unwrap(), now)),
        "$and" => cond
            .as_array()
            .unwrap()
            .iter()
            .all(|f| matches(document, f.as_document().unwrap(), now)),
        "$expr" => eval(document, cond, now) == Some(Bson::Boolean(true)),
        path => {
            let value = get(document, path);
            match cond {
                Bson::Document(ops)
                    if ops.keys().all(|k| k.starts_with('$')) && !ops.is_empty() =>
                {
                    ops.iter().all(|(op, arg)| match op.as_str() {
                        "$exists" => value.is_some() == arg.as_bool().unwrap(),
                        "$eq" => equal(value.as_ref(), arg),
                        "$ne" => !equal(value.as_ref(), arg),
                        "$in" => arg
                            .as_array()
                            .unwrap()
                            .iter()
                            .any(|a| equal(value.as_ref(), a)),
                        "$gte" | "$gt" | "$lt" | "$lte" => value.as_ref().is_some_and(|v| {
                            let order = compare(v, arg);
                            match op.as_str() {
                                "$gte" => order != Ordering::Less,
                                "$gt" => order == Ordering::Greater,
                                "$lt" => order == Ordering::Less,
                                _ => order != Ordering::Greater,
                            }
                        }),
                        other => panic!("the fake database has no query operator {other}"),
                    })
                }
                other => equal(value.as_ref(), other),
            }
        }
    })
}

/// An aggregation expression's value in `document`; `None` for a missing field.
fn eval(document: &Document, expr: &Bson, now: DateTime) -> Option<Bson> {
    match expr {
        Bson::String(s) if s == "$$NOW" => Some(Bson::DateTime(now)),
        Bson::String(s) if s.starts_with("$$") => panic!("the fake database has no {s}"),
        Bson::String(s) if s.starts_with('$') => get(document, &s[1..]),
        Bson::Document(d) if d.keys().next().is_some_and(|k| k.starts_with('$')) => {
            let (op, arg) = d.iter().next().unwrap();
            if op == "$literal" {
                return Some(arg.clone());
            }
            let args: Vec<Bson> = arg
                .as_array()
                .unwrap()
                .iter()
                .map(|a| eval(document, a, now).unwrap_or(Bson::Null))
                .collect();
            let order = || compare(&args[0], &args[1]);
            Some(match op.as_str() {
                "$add" => match (&args[0], &args[1]) {
                    (Bson::DateTime(t), n) | (n, Bson::DateTime(t)) => Bson::DateTime(
                        DateTime::from_millis(t.timestamp_millis() + number(Some(n)).unwrap()),
                    ),
                    (a, b) => Bson::Int64(number(Some(a)).unwrap() + number(Some(b)).unwrap()),
                },
                "$lt" => Bson::Boolean(order() == Ordering::Less),
                "$gt" => Bson::Boolean(order() == Ordering::Greater),
                "$eq" => Bson::Boolean(order() == Ordering::Equal),
                other => panic!("the fake database has no expression operator {other}"),
            })
        }
        Bson::Document(d) => {
            let mut out = Document::new();
            for (k, v) in d {
                if let Some(v) = eval(document, v, now) {
                    out.insert(k.clone(), v);
                }
            }
            Some(Bson::Document(out))
        }
        other => Some(other.clone()),
    }
}

/// `document` after update `u`: an update pipeline (`$set`), or operators (`$set`, `$unset`).
fn apply(document: &Document, u: &Bson, now: DateTime) -> Document {
    let mut out = document.clone();
    let stages: Vec<Document> = match u {
        Bson::Array(stages) => stages
            .iter()
            .map(|s| s.as_document().unwrap().clone())
            .collect(),
        Bson::Document(d) => vec![d.clone()],
        other => panic!("not an update: {other}"),
    };
    let pipeline = matches!(u, Bson::Array(_));
    for stage in stages {
        for (op, fields) in &stage {
            let fields = fields.as_document().unwrap();
            match op.as_str() {
                "$set" => {
                    for (path, value) in fields {
                        let value = if pipeline {
                            eval(&out, value, now).unwrap_or(Bson::Null)
                        } else {
                            value.clone()
                        };
                        set(&mut out, path, value);
                    }
                }
                other => panic!("the fake database has no update stage {other}"),
            }
        }
    }
    out
}

/// `$project`: `_id` and the fields given 1, and the computed ones (a missing value is left out).
fn project(document: &Document, projection: &Document, now: DateTime) -> Document {
    let mut out = Document::new();
    if let Some(id) = document.get("_id") {
        out.insert("_id", id.clone());
    }
    for (field, spec) in projection {
        let value = match spec {
            Bson::Int32(1) | Bson::Int64(1) | Bson::Boolean(true) => get(document, field),
            Bson::Int32(0) | Bson::Int64(0) | Bson::Boolean(false) => {
                out.remove(field);
                continue;
            }
            expr => eval(document, expr, now),
        };
        if let Some(value) = value {
            out.insert(field.clone(), value);
        }
    }
    out
}

fn sort(documents: &mut [Document], order: &Document) {
    documents.sort_by(|a, b| {
        for (path, direction) in order {
            let (x, y) = (
                get(a, path).unwrap_or(Bson::Null),
                get(b, path).unwrap_or(Bson::Null),
            );
            let o = compare(&x, &y);
            if o != Ordering::Equal {
                return if number(Some(direction)) == Some(-1) {
                    o.reverse()
                } else {
                    o
                };
            }
        }
        Ordering::Equal
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The emulation itself, on the documents the store sends: a lease is claimable while free,
    /// lapsed or one's own, and `$$NOW` is the test's clock.
    #[test]
    fn the_fake_evaluates_the_lease_filter_by_its_clock() {
        let now = DateTime::from_millis(1_000);
        let filter = crate::documents::claim_filter("r1", "me");
        let with = |lease: Bson| doc! {"_id": "r1", "lease": lease};
        assert!(matches(&with(Bson::Null), &filter, now));
        assert!(matches(&doc! {"_id": "r1"}, &filter, now));
        let held = |owner: &str, at: i64| {
            with(Bson::Document(
                doc! {"owner": owner, "expiresAt": DateTime::from_millis(at)},
            ))
        };
        assert!(matches(&held("me", 5_000), &filter, now));
        assert!(!matches(&held("you", 5_000), &filter, now));
        assert!(matches(&held("you", 999), &filter, now));
        assert!(!matches(
            &held("you", 999),
            &crate::documents::claim_filter("r2", "me"),
            now
        ));
        let updated = apply(
            &held("you", 999),
            &Bson::Array(
                crate::documents::lease_update("me", std::time::Duration::from_secs(2))
                    .into_iter()
                    .map(Bson::Document)
                    .collect(),
            ),
            now,
        );
        assert_eq!(
            updated,
            held("me", 3_000),
            "the owner is a literal, the expiry the server's now plus the lease"
        );
    }
}
