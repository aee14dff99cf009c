//! JSON value helpers shared by the evaluator and the tools: JS-like truthiness, text
//! interpolation and number normalisation.

use serde_json::{Number, Value};

/// JavaScript truthiness: `false`, `0`, `""` and `null` are falsy; arrays and objects are truthy.
pub fn truthy(value: &Value) -> bool {
    match value {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0 && !f.is_nan()),
        Value::String(s) => !s.is_empty(),
        Value::Array(_) | Value::Object(_) => true,
    }
}

/// Truthiness where `None` stands for `undefined`.
pub fn truthy_opt(value: Option<&Value>) -> bool {
    value.is_some_and(truthy)
}

/// How a value reads when interpolated into text: undefined → "", null → "null", strings as they
/// are, numbers as JavaScript prints them, arrays and objects as compact JSON.
pub fn to_text(value: Option<&Value>) -> String {
    match value {
        None => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(Value::Number(n)) => number_text(n),
        Some(v) => v.to_string(),
    }
}

/// A JSON number printed as JavaScript would: `3` not `3.0`.
pub fn number_text(n: &Number) -> String {
    if let Some(f) = n.as_f64().filter(|_| n.is_f64())
        && f.fract() == 0.0
        && f.abs() < 1e15
    {
        return format!("{}", f as i64);
    }
    n.to_string()
}

/// An `f64` as a JSON number, integral values as integers; NaN and infinities have no JSON form
/// and yield `None` (undefined).
pub fn number(f: f64) -> Option<Value> {
    if !f.is_finite() {
        return None;
    }
    if f.fract() == 0.0 && f.abs() < 9.007_199_254_740_992e15 {
        return Some(Value::Number(Number::from(f as i64)));
    }
    Number::from_f64(f).map(Value::Number)
}

/// A short one-line description of a value, from its shape alone, for progress lines, run
/// events and chat's tool-call timeline ("12 results, top score 0.91", "a vector of 384
/// dimensions").
pub fn summarise(value: &Value) -> String {
    let plural = |n: u64, one: &str| format!("{n} {one}{}", if n == 1 { "" } else { "s" });
    if let Some(obj) = value.as_object() {
        let results = obj.get("results").and_then(Value::as_array);
        let count = obj.get("resultCount").and_then(Value::as_u64);
        if let Some(n) = count.or(results.map(|r| r.len() as u64)) {
            let top = results
                .and_then(|r| r.first())
                .and_then(|r| r.get("score").or_else(|| r.get("relevance_score")))
                .and_then(Value::as_f64);
            return match (n, top) {
                (0, _) => "no results".to_string(),
                (1, Some(s)) => format!("1 result, score {s:.2}"),
                (n, Some(s)) => format!("{n} results, top score {s:.2}"),
                (n, None) => plural(n, "result"),
            };
        }
        if let Some(s) = obj.get("similarity").and_then(Value::as_f64) {
            return format!("similarity: {s:.4}");
        }
        if let Some(v) = obj.get("embedding").and_then(Value::as_array) {
            return format!("a vector of {} dimensions", v.len());
        }
        for list in ["collections", "models"] {
            if let Some(items) = obj.get(list).and_then(Value::as_array) {
                return plural(items.len() as u64, &list[..list.len() - 1]);
            }
        }
        if let Some(n) = obj.get("chunks").and_then(Value::as_u64) {
            return format!("{} added", plural(n, "chunk"));
        }
        if let Some(t) = obj.get("text").and_then(Value::as_str) {
            return truncate_chars(&t.replace('\n', " "), 100);
        }
        if let Some(n) = obj.get("totalChunks").and_then(Value::as_u64) {
            return format!("{n} chunks");
        }
        if let Some(n) = obj.get("count").and_then(Value::as_u64) {
            return format!("{n} items");
        }
        if let Some(b) = obj.get("branchTaken").and_then(Value::as_str) {
            return format!("branch: {b}");
        }
        if let Some(route) = obj.get("route").and_then(Value::as_str) {
            return match obj.get("method").and_then(Value::as_str) {
                Some(method) => format!("route: {route} ({method})"),
                None => format!("route: {route}"),
            };
        }
        if let Some(scores) = obj.get("scores").and_then(Value::as_object) {
            let each: Vec<String> = scores.iter().map(|(k, v)| format!("{k} {v}")).collect();
            return truncate_chars(&format!("scores: {}", each.join(", ")), 100);
        }
        let keys: Vec<&str> = obj.keys().take(6).map(String::as_str).collect();
        return truncate_chars(&format!("{{{}}}", keys.join(", ")), 100);
    }
    match value {
        Value::Array(a) => format!("{} item{}", a.len(), if a.len() == 1 { "" } else { "s" }),
        other => truncate_chars(&to_text(Some(other)).replace('\n', " "), 100),
    }
}

/// `s` cut to its first `max` characters (chars, not bytes), with `…` appended when cut; the
/// result of a cut is `max + 1` characters long. The one "cut to N characters" helper: messages
/// that quote what a client sent, summaries and progress lines all cut text through it.
pub fn truncate_chars(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        None => s.to_string(),
        Some((at, _)) => format!("{}…", &s[..at]),
    }
}

/// The JSON kind of a value, for messages.
pub fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn truthiness_follows_javascript() {
        for v in [json!(null), json!(false), json!(0), json!(0.0), json!("")] {
            assert!(!truthy(&v), "{v} should be falsy");
        }
        for v in [
            json!(true),
            json!(1),
            json!(-0.5),
            json!("0"),
            json!([]),
            json!({}),
        ] {
            assert!(truthy(&v), "{v} should be truthy");
        }
        assert!(!truthy_opt(None));
    }

    #[test]
    fn interpolation_rules() {
        assert_eq!(to_text(None), "");
        assert_eq!(to_text(Some(&json!(null))), "null");
        assert_eq!(to_text(Some(&json!(3.0))), "3");
        assert_eq!(to_text(Some(&json!(2.5))), "2.5");
        assert_eq!(to_text(Some(&json!([1, "a"]))), "[1,\"a\"]");
        assert_eq!(to_text(Some(&json!({"a": 1}))), "{\"a\":1}");
    }

    #[test]
    fn numbers_normalise() {
        assert_eq!(number(5.0), Some(json!(5)));
        assert_eq!(number(0.25), Some(json!(0.25)));
        assert_eq!(number(f64::NAN), None);
        assert_eq!(number(f64::INFINITY), None);
    }

    #[test]
    fn summaries() {
        assert_eq!(
            summarise(&json!({"results": [], "resultCount": 1})),
            "1 result"
        );
        assert_eq!(summarise(&json!({"similarity": 0.5})), "similarity: 0.5000");
        let hits = json!({"results": [{"score": 0.912}, {"score": 0.5}]});
        assert_eq!(summarise(&hits), "2 results, top score 0.91");
        assert_eq!(summarise(&json!({"results": []})), "no results");
        assert_eq!(
            summarise(&json!({"embedding": [0.1, 0.2, 0.3], "model": "m"})),
            "a vector of 3 dimensions"
        );
        assert_eq!(summarise(&json!({"collections": [{}]})), "1 collection");
        assert_eq!(
            summarise(&json!({"chunks": 3, "source": "a.md"})),
            "3 chunks added"
        );
        let routed = json!({"route": "billing", "reason": "…", "method": "similarity"});
        assert_eq!(summarise(&routed), "route: billing (similarity)");
        let scored = json!({"scores": {"grounding": 4, "relevance": 5}, "reasoning": "…"});
        assert_eq!(summarise(&scored), "scores: grounding 4, relevance 5");
        assert_eq!(truncate_chars("abcdef", 3), "abc…");
    }
}
