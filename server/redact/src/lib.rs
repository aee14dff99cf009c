//! Keeping keys out of what vai shows and keeps: error messages, run events, chat history.
//!
//! A service that echoes a key rarely echoes it whole: it shows a prefix (`sk-ant-api03-abc…`),
//! lower-cases it, or sends it back base64-encoded inside an `Authorization: Basic` header. So a
//! [`Secret`] masks every run of at least [`MIN_RUN`] characters that appears anywhere in the key
//! — or in its base64 forms — compared without regard to case. The providers [`register`] the
//! keys they are given, and [`mask`] applies every registered key, so each place that turns an
//! error into text for people needs one call.

use serde_json::Value;
use std::borrow::Cow;
use std::collections::HashSet;
use std::sync::RwLock;

/// What a masked run becomes.
pub const REDACTED: &str = "<redacted>";

/// The shortest run of a key's characters that is masked. Shorter runs say little about a key,
/// and masking them would eat ordinary words.
pub const MIN_RUN: usize = 8;

/// One key and the forms it may be echoed in, lower-cased.
#[derive(Clone)]
pub struct Secret {
    forms: Vec<Vec<u8>>,
    /// Every `MIN_RUN`-byte window of every form: where a masked run may start.
    starts: HashSet<Vec<u8>>,
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secret(…)")
    }
}

impl Secret {
    /// `None` for a key too short to mask by runs, or one that is not ASCII (keys are).
    pub fn new(key: &str) -> Option<Secret> {
        let key = key.trim();
        if key.len() < MIN_RUN || !key.is_ascii() {
            return None;
        }
        let mut forms = vec![key.as_bytes().to_ascii_lowercase()];
        for alphabet in [STANDARD, URL_SAFE] {
            // Base64 of the key alone, and after one or two other bytes (`user:key`), which
            // shifts its three-byte groups; the first characters of a shifted form depend on
            // what came before, so they are left out.
            for shift in 0..3 {
                let mut bytes = vec![b'x'; shift];
                bytes.extend_from_slice(key.as_bytes());
                let encoded = base64(&bytes, alphabet);
                let skip = if shift == 0 { 0 } else { 3 };
                forms.push(encoded.as_bytes()[skip..].to_ascii_lowercase());
            }
        }
        let starts = forms
            .iter()
            .flat_map(|f| f.windows(MIN_RUN).map(<[u8]>::to_vec))
            .collect();
        Some(Secret { forms, starts })
    }

    /// `text` with every run of this key's characters masked.
    pub fn mask<'a>(&self, text: &'a str) -> Cow<'a, str> {
        let lower = text.as_bytes().to_ascii_lowercase();
        let mut out = String::new();
        let (mut copied, mut i) = (0, 0);
        while i + MIN_RUN <= lower.len() {
            if !self.starts.contains(&lower[i..i + MIN_RUN]) {
                i += 1;
                continue;
            }
            let mut end = i + MIN_RUN;
            while end < lower.len() && self.forms.iter().any(|f| holds(f, &lower[i..=end])) {
                end += 1;
            }
            // The run is ASCII (it matched the key's bytes), so `i` and `end` are char
            // boundaries.
            out.push_str(&text[copied..i]);
            out.push_str(REDACTED);
            copied = end;
            i = end;
        }
        if copied == 0 {
            return Cow::Borrowed(text);
        }
        out.push_str(&text[copied..]);
        Cow::Owned(out)
    }
}

fn holds(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

static REGISTERED: RwLock<Vec<Secret>> = RwLock::new(Vec::new());

/// Mask `key` in everything [`mask`] sees from now on, in this process.
pub fn register(key: &str) {
    let Some(secret) = Secret::new(key) else {
        return;
    };
    let mut all = REGISTERED.write().unwrap_or_else(|e| e.into_inner());
    if !all.iter().any(|s| s.forms[0] == secret.forms[0]) {
        all.push(secret);
    }
}

/// `text` with every registered key masked.
pub fn mask(text: &str) -> Cow<'_, str> {
    let all = REGISTERED.read().unwrap_or_else(|e| e.into_inner());
    let mut text = Cow::Borrowed(text);
    for secret in all.iter() {
        if let Cow::Owned(masked) = secret.mask(&text) {
            text = Cow::Owned(masked);
        }
    }
    text
}

/// Every string in `value` (keys of objects included) with the registered keys masked; true
/// when anything changed.
pub fn mask_value(value: &mut Value) -> bool {
    match value {
        Value::String(s) => match mask(s) {
            Cow::Owned(masked) => {
                *s = masked;
                true
            }
            Cow::Borrowed(_) => false,
        },
        Value::Array(items) => {
            let mut changed = false;
            for item in items {
                changed |= mask_value(item);
            }
            changed
        }
        Value::Object(fields) => {
            let renamed: Vec<(String, String)> = fields
                .keys()
                .filter_map(|k| match mask(k) {
                    Cow::Owned(m) => Some((k.clone(), m)),
                    Cow::Borrowed(_) => None,
                })
                .collect();
            let mut changed = !renamed.is_empty();
            for (old, new) in renamed {
                if let Some(v) = fields.remove(&old) {
                    fields.insert(new, v);
                }
            }
            for field in fields.values_mut() {
                changed |= mask_value(field);
            }
            changed
        }
        _ => false,
    }
}

const STANDARD: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const URL_SAFE: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// `bytes` in base64 without padding.
fn base64(bytes: &[u8], alphabet: &[u8; 64]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for i in 0..=chunk.len() {
            out.push(alphabet[(n >> (18 - 6 * i) & 63) as usize] as char);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &str = "pa-Xk29fLqZ8vR3mN7tB1cW5yH0jD4sG6aE";

    fn masked(text: &str) -> String {
        Secret::new(KEY).unwrap().mask(text).into_owned()
    }

    #[test]
    fn base64_matches_the_standard_vectors() {
        for (plain, encoded) in [
            ("", ""),
            ("f", "Zg"),
            ("fo", "Zm8"),
            ("foo", "Zm9v"),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64(plain.as_bytes(), STANDARD), encoded);
        }
        assert_eq!(base64(&[0xfb, 0xff], URL_SAFE), "-_8");
    }

    #[test]
    fn the_key_its_prefix_its_lower_case_and_its_base64_are_masked() {
        assert_eq!(masked(&format!("bad key {KEY}.")), "bad key <redacted>.");
        assert_eq!(
            masked("Incorrect API key provided: pa-Xk29fLqZ8v**********6aE"),
            "Incorrect API key provided: <redacted>**********6aE"
        );
        assert_eq!(
            masked(&format!("key={}", KEY.to_ascii_lowercase())),
            "key=<redacted>"
        );
        let basic = base64(format!("user:{KEY}").as_bytes(), STANDARD);
        let shown = masked(&format!("Authorization: Basic {basic}"));
        assert!(!shown.contains(&basic[8..20]), "{shown}");
        let plain = base64(KEY.as_bytes(), URL_SAFE);
        assert_eq!(masked(&format!("[{plain}]")), "[<redacted>]");
    }

    #[test]
    fn ordinary_text_and_short_runs_are_left_alone() {
        let text = "Voyage AI rejected the request (401): check VOYAGE_API_KEY — é, ü, 日本";
        assert!(matches!(
            Secret::new(KEY).unwrap().mask(text),
            Cow::Borrowed(_)
        ));
        // Seven characters of the key are not enough to mask.
        assert_eq!(masked("id pa-Xk29 here"), "id pa-Xk29 here");
        assert!(Secret::new("short").is_none());
        assert!(Secret::new("ключ-ключ-ключ").is_none());
    }

    #[test]
    fn registered_keys_are_masked_in_json_values_too() {
        register("sk-test-REGISTERED-0123456789abcdef");
        let mut value = serde_json::json!({
            "error": "401: sk-test-REGISTERED-01234… is not valid",
            "list": ["fine", "SK-TEST-registered-0123456789ABCDEF"],
            "sk-test-REGISTERED-0123": 1
        });
        assert!(mask_value(&mut value));
        assert_eq!(
            value,
            serde_json::json!({
                "error": "401: <redacted>… is not valid",
                "list": ["fine", "<redacted>"],
                "<redacted>": 1
            })
        );
        assert!(!mask_value(&mut value));
    }
}
