//! What the operators do to values: JavaScript-like coercions, equality, ordering, `+` and
//! arithmetic. `None` stands for `undefined` throughout.

use crate::limits::{Budget, Limit};
use serde_json::Value;
use std::cmp::Ordering;

/// `||`'s notion of a present value: anything but undefined, null, `""` and `false`. `0` is
/// present (the reference's rule, so `{{ n || 5 }}` keeps a real `0`).
pub(crate) fn present(v: Option<&Value>) -> bool {
    match v {
        None | Some(Value::Null | Value::Bool(false)) => false,
        Some(Value::String(s)) => !s.is_empty(),
        Some(_) => true,
    }
}

/// JavaScript `Number(v)`: undefined → NaN, null → 0, booleans → 0/1, strings parsed (trimmed,
/// `""` → 0, otherwise NaN unless the whole text is a number), arrays and objects → NaN.
pub(crate) fn to_number(v: Option<&Value>) -> f64 {
    match v {
        None => f64::NAN,
        Some(Value::Null) => 0.0,
        Some(Value::Bool(b)) => f64::from(u8::from(*b)),
        Some(Value::Number(n)) => n.as_f64().unwrap_or(f64::NAN),
        Some(Value::String(s)) => string_to_number(s),
        Some(Value::Array(_) | Value::Object(_)) => f64::NAN,
    }
}

/// JavaScript's string-to-number conversion: decimal (`" 12.5e3 "`, `".5"`, `"-3"`), `Infinity`,
/// and `0x`/`0o`/`0b` integers; empty or blank text is 0; anything else NaN.
pub(crate) fn string_to_number(s: &str) -> f64 {
    let t = s.trim();
    if t.is_empty() {
        return 0.0;
    }
    match t {
        "Infinity" | "+Infinity" => return f64::INFINITY,
        "-Infinity" => return f64::NEG_INFINITY,
        _ => {}
    }
    let radix = match t.get(..2) {
        Some("0x" | "0X") => 16,
        Some("0o" | "0O") => 8,
        Some("0b" | "0B") => 2,
        _ => 10,
    };
    if radix != 10 {
        let digits = &t[2..];
        if digits.is_empty() {
            return f64::NAN;
        }
        return digits
            .chars()
            .try_fold(0.0, |acc: f64, c| {
                c.to_digit(radix)
                    .map(|d| acc * f64::from(radix) + f64::from(d))
            })
            .unwrap_or(f64::NAN);
    }
    // Rust also reads "inf", "nan" and friends; JavaScript does not.
    if t.chars().any(|c| c.is_alphabetic() && c != 'e' && c != 'E') {
        return f64::NAN;
    }
    t.parse().unwrap_or(f64::NAN)
}

/// `===`: same type and value; numbers compare numerically (`1 === 1.0`), arrays and objects
/// deeply (not by identity, as there is none); `undefined === undefined`, `null !== undefined`.
pub(crate) fn strict_eq(a: Option<&Value>, b: Option<&Value>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(a), Some(b)) => deep_eq(a, b),
        _ => false,
    }
}

fn deep_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64()) {
            (Some(x), Some(y)) => x == y,
            _ => x.as_f64() == y.as_f64(),
        },
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| deep_eq(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| deep_eq(v, w)))
        }
        _ => a == b,
    }
}

/// `==`: `null == undefined`; either of them against anything else is false; values of one type
/// compare strictly; other mixes of numbers, strings and booleans compare as numbers
/// (`1 == "1"`, `true == 1`, `0 == ""`); an array or object against a different type is false
/// (JavaScript would convert it to a primitive first).
pub(crate) fn loose_eq(a: Option<&Value>, b: Option<&Value>) -> bool {
    use Value::{Array, Null, Object};
    match (a, b) {
        (None | Some(Null), None | Some(Null)) => true,
        (None | Some(Null), _) | (_, None | Some(Null)) => false,
        (Some(x), Some(y)) if std::mem::discriminant(x) == std::mem::discriminant(y) => {
            deep_eq(x, y)
        }
        (Some(Array(_) | Object(_)), _) | (_, Some(Array(_) | Object(_))) => false,
        _ => to_number(a) == to_number(b),
    }
}

/// `< > <= >=`: two strings compare by UTF-16 code units (as JavaScript); anything else as
/// numbers (`null` → 0, `true` → 1, undefined and non-numeric text → NaN), and NaN is never
/// ordered, so every comparison with it is false.
pub(crate) fn compare(a: Option<&Value>, b: Option<&Value>) -> Option<Ordering> {
    if let (Some(Value::String(x)), Some(Value::String(y))) = (a, b) {
        return Some(x.encode_utf16().cmp(y.encode_utf16()));
    }
    to_number(a).partial_cmp(&to_number(b))
}

/// Whether `+` concatenates: when either side is a string, an array or an object.
pub(crate) fn concatenates(a: Option<&Value>, b: Option<&Value>) -> bool {
    let textual = |v: Option<&Value>| {
        matches!(
            v,
            Some(Value::String(_) | Value::Array(_) | Value::Object(_))
        )
    };
    textual(a) || textual(b)
}

/// Append how an operand of a concatenating `+` reads, charging `budget`: undefined and null as
/// `""` (the reference's rule — interpolation, by contrast, prints null as "null"), everything
/// else as `value::to_text`.
pub(crate) fn push_concat_text(
    out: &mut String,
    v: Option<&Value>,
    budget: &Budget,
) -> Result<(), Limit> {
    match v {
        None | Some(Value::Null) => Ok(()),
        some => budget.push_text(out, some),
    }
}

/// `x.length` on a string: UTF-16 code units, as JavaScript counts them.
pub(crate) fn utf16_len(s: &str) -> usize {
    s.encode_utf16().count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn presence_counts_zero() {
        assert!(present(Some(&json!(0))));
        assert!(present(Some(&json!([]))));
        assert!(present(Some(&json!("0"))));
        for v in [json!(null), json!(false), json!("")] {
            assert!(!present(Some(&v)));
        }
        assert!(!present(None));
    }

    #[test]
    fn numbers_from_values() {
        assert!(to_number(None).is_nan());
        assert_eq!(to_number(Some(&json!(null))), 0.0);
        assert_eq!(to_number(Some(&json!(true))), 1.0);
        assert!(to_number(Some(&json!([1]))).is_nan());
        for (text, n) in [
            (" 12.5 ", 12.5),
            ("", 0.0),
            ("  ", 0.0),
            ("-3", -3.0),
            (".5", 0.5),
            ("1e3", 1000.0),
            ("0x1F", 31.0),
            ("0b101", 5.0),
            ("Infinity", f64::INFINITY),
        ] {
            assert_eq!(string_to_number(text), n, "{text:?}");
        }
        for text in ["abc", "1a", "inf", "nan", "1e", ".", "0x", "1 2"] {
            assert!(string_to_number(text).is_nan(), "{text:?}");
        }
    }

    #[test]
    fn strict_equality_is_deep_and_numeric() {
        assert!(strict_eq(Some(&json!(1)), Some(&json!(1.0))));
        assert!(strict_eq(
            Some(&json!([1, {"a": "b"}])),
            Some(&json!([1.0, {"a": "b"}]))
        ));
        assert!(!strict_eq(
            Some(&json!({"a": 1})),
            Some(&json!({"a": 1, "b": 2}))
        ));
        assert!(!strict_eq(Some(&json!(1)), Some(&json!("1"))));
        assert!(!strict_eq(Some(&json!(null)), None));
        assert!(strict_eq(None, None));
    }

    #[test]
    fn loose_equality_follows_javascript() {
        let eq = |a: Value, b: Value| loose_eq(Some(&a), Some(&b));
        assert!(loose_eq(Some(&json!(null)), None));
        assert!(!loose_eq(Some(&json!(0)), None));
        assert!(!eq(json!(null), json!(0)));
        assert!(!eq(json!(null), json!(false)));
        assert!(eq(json!(1), json!("1")));
        assert!(eq(json!(0), json!("")));
        assert!(eq(json!(0), json!(" 0 ")));
        assert!(eq(json!(true), json!(1)));
        assert!(eq(json!(true), json!("1")));
        assert!(!eq(json!(true), json!("true")));
        assert!(!eq(json!("a"), json!("b")));
        assert!(!eq(json!([1]), json!(1)));
        assert!(eq(json!([1]), json!([1])));
    }

    #[test]
    fn ordering() {
        let cmp = |a: Value, b: Value| compare(Some(&a), Some(&b));
        assert_eq!(cmp(json!("apple"), json!("banana")), Some(Ordering::Less));
        assert_eq!(cmp(json!("10"), json!("9")), Some(Ordering::Less));
        assert_eq!(cmp(json!("10"), json!(9)), Some(Ordering::Greater));
        assert_eq!(cmp(json!(null), json!(0)), Some(Ordering::Equal));
        assert_eq!(cmp(json!("x"), json!(1)), None);
        assert_eq!(compare(None, Some(&json!(1))), None);
        // By UTF-16 code units an astral character (a D83D surrogate first) sorts before U+FF5E,
        // unlike code-point order.
        assert_eq!(cmp(json!("😀"), json!("～")), Some(Ordering::Less));
    }

    #[test]
    fn concatenation_text() {
        let budget = crate::limits::Limits::DEFAULT.value_budget();
        let mut s = String::new();
        for v in [
            None,
            Some(json!(null)),
            Some(json!(1.0)),
            Some(json!("x")),
            Some(json!([1])),
        ] {
            push_concat_text(&mut s, v.as_ref(), &budget).unwrap();
        }
        assert_eq!(s, "1x[1]");
        assert!(concatenates(Some(&json!({})), Some(&json!(1))));
        assert!(!concatenates(Some(&json!(null)), Some(&json!(true))));
        assert_eq!(utf16_len("a😀é"), 4);
    }
}
