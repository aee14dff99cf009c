//! The stable text form of a workflow file: what the playground saves and exports and what
//! `vai workflow fmt` writes, so hand-written and built files diff cleanly.
//!
//! Pretty JSON with a two-space indent and a trailing newline. The top-level keys come in the
//! order a person writes them — `$schema`, `name`, `description`, `version`, `inputs`,
//! `defaults`, `steps`, `output` — then every other key in its existing order, and the builder's
//! `ui` last. Nested objects keep their key order, and nothing else changes: unknown keys,
//! `branding` and `formatters` survive as written. It works on JSON values, not on the typed
//! model, so even an invalid workflow formats without losing anything.

use serde_json::{Map, Value};

/// The top-level keys that lead, in this order.
const LEADING_KEYS: [&str; 8] = [
    "$schema",
    "name",
    "description",
    "version",
    "inputs",
    "defaults",
    "steps",
    "output",
];

/// The key that always comes last: layout is the least interesting part to read.
const TRAILING_KEY: &str = "ui";

/// `definition` in the stable text form.
pub fn format(definition: &Value) -> String {
    let mut text = match definition {
        Value::Object(top) => pretty(&Value::Object(ordered(top))),
        other => pretty(other),
    };
    text.push('\n');
    text
}

/// Whether `text` is already in the stable form of the JSON it holds.
pub fn is_formatted(text: &str, definition: &Value) -> bool {
    text == format(definition)
}

fn ordered(top: &Map<String, Value>) -> Map<String, Value> {
    let mut out = Map::with_capacity(top.len());
    for key in LEADING_KEYS {
        if let Some(v) = top.get(key) {
            out.insert(key.to_string(), v.clone());
        }
    }
    for (k, v) in top {
        if !LEADING_KEYS.contains(&k.as_str()) && k != TRAILING_KEY {
            out.insert(k.clone(), v.clone());
        }
    }
    if let Some(v) = top.get(TRAILING_KEY) {
        out.insert(TRAILING_KEY.to_string(), v.clone());
    }
    out
}

fn pretty(value: &Value) -> String {
    // Serialising a `Value` to a string cannot fail: its keys are strings and it has no
    // non-finite numbers.
    serde_json::to_string_pretty(value).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn top_level_keys_in_writing_order_ui_last_nested_order_kept() {
        let value: Value = serde_json::from_str(
            r#"{"ui": {"positions": {}}, "steps": [{"tool": "t", "id": "a"}], "branding": {"z": 1, "a": 2},
                "x-custom": true, "name": "n", "$schema": "s", "output": "{{ a.output }}", "formatters": {}}"#,
        )
        .unwrap();
        assert_eq!(
            format(&value),
            r#"{
  "$schema": "s",
  "name": "n",
  "steps": [
    {
      "tool": "t",
      "id": "a"
    }
  ],
  "output": "{{ a.output }}",
  "branding": {
    "z": 1,
    "a": 2
  },
  "x-custom": true,
  "formatters": {},
  "ui": {
    "positions": {}
  }
}
"#
        );
    }

    #[test]
    fn formatting_is_stable_and_keeps_every_value() {
        let value =
            json!({"name": "é \u{1F600} \"q\"", "steps": [], "n": 1.5, "big": 12345678901234_u64});
        let once = format(&value);
        let reread: Value = serde_json::from_str(&once).unwrap();
        assert_eq!(reread, value);
        assert_eq!(format(&reread), once);
        assert!(is_formatted(&once, &reread));
        assert!(
            once.contains("é 😀"),
            "non-ASCII text is written as is: {once}"
        );
    }

    /// The shipped workflows and the e2e fixtures are committed in this form, so a file the
    /// playground saves or `vai workflow fmt` rewrites diffs only where it changed.
    #[test]
    fn committed_workflows_are_in_the_stable_form() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let mut checked = 0;
        for dir in ["workflows", "workflows/examples", "e2e/fixtures"] {
            for entry in std::fs::read_dir(root.join(dir)).unwrap().flatten() {
                let path = entry.path();
                let name = path.file_name().unwrap().to_string_lossy().into_owned();
                // Not workflows: the generated schema and configuration such as `.vai.json`.
                if !name.ends_with(".json")
                    || name == "workflow.schema.json"
                    || name.starts_with('.')
                {
                    continue;
                }
                let text = std::fs::read_to_string(&path).unwrap();
                let value: Value = serde_json::from_str(&text).unwrap();
                assert!(
                    is_formatted(&text, &value),
                    "{dir}/{name} is not in the stable form: run `vai workflow fmt {dir}/{name}`"
                );
                checked += 1;
            }
        }
        assert!(checked >= 15, "only {checked} files");
    }

    #[test]
    fn non_objects_format_too() {
        assert_eq!(format(&json!([1])), "[\n  1\n]\n");
        assert_eq!(format(&json!("x")), "\"x\"\n");
    }
}
