//! Reading an authoring call's arguments.

use serde_json::{Map, Value};

/// A string argument.
pub(crate) fn string<'a>(args: &'a Map<String, Value>, name: &str) -> Option<&'a str> {
    args.get(name).and_then(Value::as_str)
}
