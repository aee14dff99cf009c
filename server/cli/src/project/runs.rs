//! `runs` in `.vai.json`: where the run journal is kept — the data directory (`"store":
//! "file"`, the default) or a MongoDB database the team shares (`"store": "mongodb"`, with an
//! optional `"database"`, `vai` by default, and `"uri"`). The connection string normally comes
//! from the MongoDB setting vai already has (`MONGODB_URI`, `vai config set mongodb-uri`);
//! `runs.uri` may name another server, but never with a password, since this file is committed.
//!
//! `keep`, `maxAge` and `maxMb` bound the history either store keeps (finished runs beyond the
//! newest `keep`, older than `maxAge`, or past `maxMb` together are pruned when a run starts).

use serde_json::Value;
use std::time::Duration;
use vai_workflow::journal::Retention;

/// The database runs go to when `runs.database` is not given.
pub(crate) const DEFAULT_DATABASE: &str = "vai";

/// Where runs are kept.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) enum RunsConfig {
    /// `runs/` in the data directory.
    #[default]
    File,
    /// `<database>.runs` and `<database>.run_lines` on `uri` (else the MongoDB setting).
    Mongo {
        uri: Option<String>,
        database: String,
    },
}

/// `runs` as written: where runs are kept and how much history is kept; every problem names its
/// field.
pub(crate) fn parse(value: &Value) -> Result<(RunsConfig, Retention), String> {
    let Value::Object(fields) = value else {
        return Err("runs must be an object such as {\"store\": \"mongodb\"}".into());
    };
    for key in fields.keys() {
        if !matches!(
            key.as_str(),
            "store" | "uri" | "database" | "keep" | "maxAge" | "maxMb"
        ) {
            return Err(format!(
                "runs.{key} is not a setting of runs (known: store, uri, database, keep, maxAge, \
                 maxMb)"
            ));
        }
    }
    Ok((store(fields)?, retention(fields)?))
}

/// `keep`, `maxAge` and `maxMb`, each defaulting to [`Retention::default`]'s.
fn retention(fields: &serde_json::Map<String, Value>) -> Result<Retention, String> {
    let defaults = Retention::default();
    let whole = |key: &str| -> Result<Option<u64>, String> {
        match fields.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => match v.as_u64().filter(|n| *n >= 1) {
                Some(n) => Ok(Some(n)),
                None => Err(format!(
                    "runs.{key} must be a whole number of at least 1 (got {v})"
                )),
            },
        }
    };
    let max_age = match fields.get("maxAge") {
        None | Some(Value::Null) => defaults.max_age,
        Some(Value::String(text)) => parse_age(text).map_err(|e| format!("runs.maxAge: {e}"))?,
        Some(v) => {
            return Err(format!(
                "runs.maxAge must be a duration such as \"30d\" (got {v})"
            ));
        }
    };
    Ok(Retention {
        keep: whole("keep")?.map_or(defaults.keep, |n| usize::try_from(n).unwrap_or(usize::MAX)),
        max_age,
        max_bytes: whole("maxMb")?.map_or(defaults.max_bytes, |mb| mb.saturating_mul(1024 * 1024)),
    })
}

/// `30m`, `2h`, `7d`, `2w`, `90s` as a duration.
pub(crate) fn parse_age(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let split = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let (n, unit) = text.split_at(split);
    let n: u64 = n
        .parse()
        .map_err(|_| format!("\"{text}\" is not a duration like 30m, 2h or 7d"))?;
    let secs = match unit {
        "s" => 1,
        "m" => 60,
        "h" => 3600,
        "d" => 86_400,
        "w" => 7 * 86_400,
        _ => return Err(format!("\"{text}\" is not a duration like 30m, 2h or 7d")),
    };
    Ok(Duration::from_secs(n.saturating_mul(secs)))
}

/// `store`, with `uri` and `database` for MongoDB.
fn store(fields: &serde_json::Map<String, Value>) -> Result<RunsConfig, String> {
    let text = |key: &str| -> Result<Option<&str>, String> {
        match fields.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.as_str())),
            Some(_) => Err(format!("runs.{key} must be a string")),
        }
    };
    let store = text("store")?.unwrap_or("file");
    let (uri, database) = (text("uri")?, text("database")?);
    match store {
        "file" => {
            if let Some(key) = [("uri", uri), ("database", database)]
                .iter()
                .find_map(|(k, v)| v.map(|_| *k))
            {
                return Err(format!(
                    "runs.{key} applies only with runs.store \"mongodb\" (runs.store is \"file\")"
                ));
            }
            Ok(RunsConfig::File)
        }
        "mongodb" => {
            if let Some(uri) = uri {
                check_uri(uri)?;
            }
            let database = database.unwrap_or(DEFAULT_DATABASE);
            check_database(database)?;
            Ok(RunsConfig::Mongo {
                uri: uri.map(str::to_string),
                database: database.to_string(),
            })
        }
        other => Err(format!(
            "runs.store is \"{other}\": use \"file\" (the data directory) or \"mongodb\""
        )),
    }
}

/// A `mongodb://` or `mongodb+srv://` string without a password.
fn check_uri(uri: &str) -> Result<(), String> {
    let Some(rest) = uri
        .strip_prefix("mongodb://")
        .or_else(|| uri.strip_prefix("mongodb+srv://"))
    else {
        return Err("runs.uri must be a mongodb:// or mongodb+srv:// connection string".into());
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    if let Some((userinfo, _)) = authority.rsplit_once('@')
        && userinfo.contains(':')
    {
        return Err(
            "runs.uri holds a password, and .vai.json is meant to be committed: leave runs.uri \
             out and set the connection string with `vai config set mongodb-uri …` or \
             MONGODB_URI"
                .into(),
        );
    }
    Ok(())
}

/// A name MongoDB accepts for a database.
fn check_database(name: &str) -> Result<(), String> {
    let bad = name.is_empty()
        || name.len() > 63
        || name.chars().any(|c| {
            matches!(
                c,
                '/' | '\\' | '.' | ' ' | '"' | '$' | '*' | '<' | '>' | ':' | '|' | '?'
            ) || c.is_control()
        });
    if bad {
        return Err(format!(
            "runs.database \"{name}\" is not a MongoDB database name (at most 63 characters, \
             none of / \\ . \" $ * < > : | ? or spaces)"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_file_store_is_the_default_and_mongodb_takes_a_database_and_a_uri() {
        let store = |runs: Value| parse(&runs).map(|(store, _)| store);
        assert_eq!(store(json!({})), Ok(RunsConfig::File));
        assert_eq!(store(json!({"store": "file"})), Ok(RunsConfig::File));
        assert_eq!(
            store(json!({"store": "mongodb"})),
            Ok(RunsConfig::Mongo {
                uri: None,
                database: "vai".into()
            })
        );
        assert_eq!(
            store(
                json!({"store": "mongodb", "database": "team_runs", "uri": "mongodb+srv://ann@c0.example.net/?retryWrites=true"})
            ),
            Ok(RunsConfig::Mongo {
                uri: Some("mongodb+srv://ann@c0.example.net/?retryWrites=true".into()),
                database: "team_runs".into()
            })
        );
    }

    #[test]
    fn every_mistake_names_its_field() {
        for (runs, says) in [
            (json!("mongodb"), "runs must be an object"),
            (
                json!({"store": "mongo"}),
                "runs.store is \"mongo\": use \"file\"",
            ),
            (json!({"store": 1}), "runs.store must be a string"),
            (
                json!({"stor": "mongodb"}),
                "runs.stor is not a setting of runs",
            ),
            (
                json!({"uri": "mongodb://h"}),
                "runs.uri applies only with runs.store \"mongodb\"",
            ),
            (
                json!({"store": "mongodb", "uri": "https://h"}),
                "runs.uri must be a mongodb://",
            ),
            (
                json!({"store": "mongodb", "database": "a.b"}),
                "runs.database \"a.b\" is not a MongoDB database name",
            ),
            (
                json!({"store": "mongodb", "database": ""}),
                "runs.database \"\" is not",
            ),
            (
                json!({"keep": 0}),
                "runs.keep must be a whole number of at least 1",
            ),
            (json!({"maxMb": 1.5}), "runs.maxMb must be a whole number"),
            (json!({"maxAge": 30}), "runs.maxAge must be a duration"),
            (
                json!({"maxAge": "30 days"}),
                "runs.maxAge: \"30 days\" is not a duration",
            ),
        ] {
            let err = parse(&runs).unwrap_err();
            assert!(err.starts_with(says), "{runs}: {err}");
        }
    }

    #[test]
    fn history_limits_default_to_the_stores_and_each_may_be_set() {
        assert_eq!(parse(&json!({})).unwrap().1, Retention::default());
        let (store, retention) =
            parse(&json!({"store": "mongodb", "keep": 50, "maxAge": "7d", "maxMb": 64})).unwrap();
        assert!(matches!(store, RunsConfig::Mongo { .. }));
        assert_eq!(
            retention,
            Retention {
                keep: 50,
                max_age: Duration::from_secs(7 * 86_400),
                max_bytes: 64 * 1024 * 1024,
            }
        );
        let only_keep = parse(&json!({"keep": 10})).unwrap().1;
        assert_eq!(
            (only_keep.keep, only_keep.max_age),
            (10, Retention::default().max_age)
        );
    }

    #[test]
    fn a_password_in_the_committed_file_is_refused_without_repeating_it() {
        let err = parse(&json!({"store": "mongodb", "uri": "mongodb://ann:hunter22@h:27017/x"}))
            .unwrap_err();
        assert!(err.starts_with("runs.uri holds a password"), "{err}");
        assert!(!err.contains("hunter22"), "{err}");
    }
}
