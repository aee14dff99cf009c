//! A JSON value a run keeps for the routes (a step's inputs or output, the run's output). While
//! the run goes it is the engine's own `Arc`, never copied; when the run ends it is serialised
//! once, the value is dropped, and every later GET hands out the same bytes. Sizes are measured
//! with a counting writer, not by serialising to a buffer.

use bytes::Bytes;
use serde_json::Value;
use std::io;
use std::sync::Arc;

/// One kept value. Cloning is cheap (an `Arc` or a `Bytes` handle).
#[derive(Debug, Clone)]
pub enum Kept {
    /// Shared with the engine: `root`, or its `field` (a step's context entry holds its output
    /// under `output`).
    Live {
        root: Arc<Value>,
        field: Option<&'static str>,
    },
    /// Serialised once, when the run ended.
    Json(Bytes),
}

static NULL: Value = Value::Null;

impl Kept {
    pub fn value(root: Arc<Value>) -> Self {
        Kept::Live { root, field: None }
    }

    pub fn field(root: Arc<Value>, field: &'static str) -> Self {
        Kept::Live {
            root,
            field: Some(field),
        }
    }

    fn live(&self) -> Option<&Value> {
        match self {
            Kept::Live { root, field: None } => Some(root),
            Kept::Live {
                root,
                field: Some(f),
            } => Some(root.get(*f).unwrap_or(&NULL)),
            Kept::Json(_) => None,
        }
    }

    /// The value as JSON text: the shared bytes once the run has ended, serialised now before.
    pub fn json(&self) -> Bytes {
        match (self, self.live()) {
            (Kept::Json(bytes), _) => bytes.clone(),
            (_, Some(value)) => Bytes::from(to_json(value)),
            (_, None) => Bytes::from_static(b"null"),
        }
    }

    /// The value itself (a copy), for replaying it into another run.
    pub fn to_value(&self) -> Value {
        match (self, self.live()) {
            (Kept::Json(bytes), _) => serde_json::from_slice(bytes).unwrap_or(Value::Null),
            (_, Some(value)) => value.clone(),
            (_, None) => Value::Null,
        }
    }

    /// The serialised form, dropping this handle on the engine's value.
    pub fn frozen(&self) -> Kept {
        Kept::Json(self.json())
    }

    /// Bytes of its JSON text.
    pub fn json_len(&self) -> usize {
        match (self, self.live()) {
            (Kept::Json(bytes), _) => bytes.len(),
            (_, Some(value)) => json_len(value),
            (_, None) => 4,
        }
    }
}

fn to_json(value: &Value) -> Vec<u8> {
    // A `Value` always serialises: its keys are strings and its numbers finite.
    serde_json::to_vec(value).unwrap_or_else(|_| b"null".to_vec())
}

/// Bytes of `value` as compact JSON, counted without building the text.
pub fn json_len(value: &Value) -> usize {
    let mut counter = Counter(0);
    match serde_json::to_writer(&mut counter, value) {
        Ok(()) => counter.0,
        Err(_) => usize::MAX,
    }
}

/// An `io::Write` that only counts.
struct Counter(usize);

impl io::Write for Counter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0 = self.0.saturating_add(buf.len());
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_counted_length_is_the_serialised_length() {
        for v in [
            json!(null),
            json!({"a": [1, 2.5, "é\"\n"], "b": {"c": true}}),
            json!("x".repeat(100_000)),
        ] {
            assert_eq!(json_len(&v), serde_json::to_vec(&v).unwrap().len());
        }
    }

    #[test]
    fn a_step_entry_is_kept_by_its_output_field_without_a_copy() {
        let entry = Arc::new(json!({"output": {"text": "hi"}}));
        let kept = Kept::field(entry.clone(), "output");
        // The engine's value, shared: no second copy exists.
        assert_eq!(Arc::strong_count(&entry), 2);
        assert_eq!(&kept.json()[..], br#"{"text":"hi"}"#);
        assert_eq!(kept.json_len(), 13);
        assert_eq!(kept.to_value(), json!({"text": "hi"}));
    }

    #[test]
    fn a_frozen_value_hands_out_the_same_bytes_every_time() {
        let root = Arc::new(json!({"big": "x".repeat(1 << 20)}));
        let frozen = Kept::value(root.clone()).frozen();
        // The frozen form no longer holds the engine's value.
        assert_eq!(Arc::strong_count(&root), 1);
        let (a, b) = (frozen.json(), frozen.clone().json());
        assert_eq!(
            a.as_ptr(),
            b.as_ptr(),
            "one shared copy, not one per request"
        );
        assert_eq!(frozen.json_len(), (1 << 20) + 10);
        assert_eq!(frozen.to_value(), *root);
    }
}
