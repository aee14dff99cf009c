//! JSON ⇄ BSON for documents crossing the `VectorStore` boundary.
//!
//! Inbound JSON is read as MongoDB Extended JSON (so `{"$date": …}` or `{"$oid": …}` in a filter
//! or pipeline mean what they mean in the shell). Outbound BSON is rendered as plain JSON the
//! tools can use directly: an ObjectId as its hex string and a date as an RFC 3339 string; other
//! non-JSON types keep their relaxed Extended JSON form.

use mongodb::bson::{Bson, DateTime, Document};
use serde_json::{Map, Value};

/// Top-level field that ingest fills with an RFC 3339 timestamp; stored as a BSON date so it
/// sorts, filters and expires (TTL) like the reference's `new Date()`.
const CREATED_AT: &str = "createdAt";

/// A JSON object as a BSON document, reading Extended JSON.
pub(crate) fn json_to_document(object: Map<String, Value>) -> Result<Document, String> {
    Document::try_from(object).map_err(|e| format!("not valid MongoDB Extended JSON: {e}"))
}

/// A document to insert: Extended JSON, with an RFC 3339 `createdAt` string stored as a date.
pub(crate) fn stored_document(object: Map<String, Value>) -> Result<Document, String> {
    let mut doc = json_to_document(object)?;
    let date = match doc.get(CREATED_AT) {
        Some(Bson::String(text)) => DateTime::parse_rfc3339_str(text).ok(),
        _ => None,
    };
    if let Some(date) = date {
        doc.insert(CREATED_AT, date);
    }
    Ok(doc)
}

/// A BSON value as plain JSON (see the module comment).
pub(crate) fn bson_to_json(value: Bson) -> Value {
    match value {
        Bson::ObjectId(oid) => Value::String(oid.to_hex()),
        Bson::DateTime(date) => match date.try_to_rfc3339_string() {
            Ok(text) => Value::String(text),
            Err(_) => Bson::DateTime(date).into_relaxed_extjson(),
        },
        Bson::Document(doc) => Value::Object(document_to_json(doc)),
        Bson::Array(items) => Value::Array(items.into_iter().map(bson_to_json).collect()),
        other => other.into_relaxed_extjson(),
    }
}

/// A BSON document as a JSON object, fields in stored order.
pub(crate) fn document_to_json(doc: Document) -> Map<String, Value> {
    doc.into_iter().map(|(k, v)| (k, bson_to_json(v))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use mongodb::bson::{doc, oid::ObjectId};
    use serde_json::json;

    fn object(v: Value) -> Map<String, Value> {
        v.as_object().unwrap().clone()
    }

    #[test]
    fn stored_documents_keep_numbers_and_store_created_at_as_a_date() {
        let doc = stored_document(object(json!({
            "text": "a",
            "embedding": [0.5, 1.0, -2.25],
            "metadata": {"chunkIndex": 3, "big": 5_000_000_000_i64},
            "createdAt": "2025-01-02T03:04:05.678Z"
        })))
        .unwrap();
        assert_eq!(
            doc.get_array("embedding").unwrap(),
            &vec![Bson::Double(0.5), Bson::Double(1.0), Bson::Double(-2.25)]
        );
        let meta = doc.get_document("metadata").unwrap();
        assert_eq!(meta.get("chunkIndex"), Some(&Bson::Int32(3)));
        assert_eq!(meta.get("big"), Some(&Bson::Int64(5_000_000_000)));
        let date = doc.get_datetime("createdAt").unwrap();
        assert_eq!(date.timestamp_millis(), 1_735_787_045_678);

        let not_a_date = stored_document(object(json!({"createdAt": "yesterday"}))).unwrap();
        assert_eq!(not_a_date.get_str("createdAt").unwrap(), "yesterday");
    }

    #[test]
    fn output_renders_ids_and_dates_as_strings() {
        let oid = ObjectId::parse_str("65a1b2c3d4e5f60718293a4b").unwrap();
        let date = DateTime::from_millis(1_735_787_045_678);
        let json = document_to_json(doc! {
            "_id": oid,
            "createdAt": date,
            "n": 5_i64,
            "score": 0.75,
            "metadata": {"tags": ["a", "b"], "seen": [date]},
        });
        assert_eq!(
            Value::Object(json),
            json!({
                "_id": "65a1b2c3d4e5f60718293a4b",
                "createdAt": "2025-01-02T03:04:05.678Z",
                "n": 5,
                "score": 0.75,
                "metadata": {"tags": ["a", "b"], "seen": ["2025-01-02T03:04:05.678Z"]}
            })
        );
    }

    #[test]
    fn extended_json_is_understood_and_bad_extended_json_is_refused() {
        let filter = json_to_document(object(json!({
            "createdAt": {"$gte": {"$date": "2025-01-01T00:00:00Z"}},
            "_id": {"$oid": "65a1b2c3d4e5f60718293a4b"}
        })))
        .unwrap();
        assert!(matches!(
            filter.get_document("createdAt").unwrap().get("$gte"),
            Some(Bson::DateTime(_))
        ));
        assert!(matches!(filter.get("_id"), Some(Bson::ObjectId(_))));
        let err = json_to_document(object(json!({"_id": {"$oid": "nope"}}))).unwrap_err();
        assert!(err.starts_with("not valid MongoDB Extended JSON"), "{err}");
    }
}
