//! The rules of the file format that the builder checks as the engine does: what a step id may
//! be and which words it may not be, the bounds and defaults of the step settings, and the names
//! of the canvas's two fixed nodes and of its edges. The compiler reads its bounds from here and
//! `web/src/api/rules.ts` is generated from here (vai-contract), so the two cannot drift.

/// The pattern a step id (and a workflow input's name) matches, as a JavaScript regular
/// expression's source: what [`is_valid_id`] accepts.
pub const STEP_ID_PATTERN: &str = "^[A-Za-z_][A-Za-z0-9_]*$";

/// Names a step id may not take: they are scope roots or literals.
pub const RESERVED_IDS: &[&str] = &[
    "inputs",
    "defaults",
    "item",
    "index",
    "true",
    "false",
    "null",
    "undefined",
    "output",
    "input",
    "step",
    "steps",
    "_loopIndex",
];

/// Whether `id` is a valid step id: ASCII letters, digits and `_`, not starting with a digit.
pub fn is_valid_id(id: &str) -> bool {
    let mut chars = id.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The canvas node of the workflow's inputs (also its key in `ui.positions`).
pub const INPUTS_NODE: &str = "__inputs";
/// The canvas node of the workflow's output (also its key in `ui.positions`).
pub const OUTPUT_NODE: &str = "__output";

/// The id of the canvas edge that carries `field` of `target` from `source`.
pub fn edge_id(source: &str, target: &str, field: &str) -> String {
    format!("{source}->{target}:{field}")
}

/// A number a step setting takes: its key, its bounds (both included) and the engine's default
/// when the setting is left out.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NumberRule {
    pub key: &'static str,
    pub integer: bool,
    pub minimum: f64,
    pub maximum: f64,
    pub default: Option<f64>,
}

impl NumberRule {
    /// Whether `n` is a value of this setting.
    pub fn admits(&self, n: f64) -> bool {
        n >= self.minimum && n <= self.maximum && (!self.integer || n.fract() == 0.0)
    }
}

/// How many `forEach` iterations run at once.
pub const FOR_EACH_CONCURRENCY: NumberRule = NumberRule {
    key: "forEachConcurrency",
    integer: true,
    minimum: 1.0,
    maximum: 16.0,
    default: Some(4.0),
};

/// Time limit of one attempt, in milliseconds (at most an hour; none when left out).
pub const TIMEOUT_MS: NumberRule = NumberRule {
    key: "timeoutMs",
    integer: true,
    minimum: 1.0,
    maximum: 3_600_000.0,
    default: None,
};

/// `retry.maxAttempts`: attempts in all, the first included.
pub const RETRY_MAX_ATTEMPTS: NumberRule = NumberRule {
    key: "maxAttempts",
    integer: true,
    minimum: 1.0,
    maximum: 10.0,
    default: Some(3.0),
};

/// `retry.initialDelayMs`: the delay before the second attempt.
pub const RETRY_INITIAL_DELAY_MS: NumberRule = NumberRule {
    key: "initialDelayMs",
    integer: true,
    minimum: 0.0,
    maximum: 600_000.0,
    default: Some(500.0),
};

/// `retry.backoffRate`: the factor applied to the delay after each attempt.
pub const RETRY_BACKOFF_RATE: NumberRule = NumberRule {
    key: "backoffRate",
    integer: false,
    minimum: 1.0,
    maximum: 10.0,
    default: Some(2.0),
};

/// `retry.maxDelayMs`: the upper bound of one delay.
pub const RETRY_MAX_DELAY_MS: NumberRule = NumberRule {
    key: "maxDelayMs",
    integer: true,
    minimum: 0.0,
    maximum: 3_600_000.0,
    default: Some(30_000.0),
};

/// The keys of a step's `retry` object, in the order a form shows them.
pub const RETRY: [NumberRule; 4] = [
    RETRY_MAX_ATTEMPTS,
    RETRY_INITIAL_DELAY_MS,
    RETRY_BACKOFF_RATE,
    RETRY_MAX_DELAY_MS,
];

/// The default of a setting that has one, as the integer the engine keeps.
pub(crate) const fn default_int(rule: NumberRule) -> u64 {
    match rule.default {
        Some(n) => n as u64,
        None => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every string of up to three characters from an alphabet with each kind of character the
    /// rule tells apart: the generated pattern and `is_valid_id` agree on all of them.
    #[test]
    fn the_pattern_accepts_exactly_the_valid_ids() {
        let pattern = regex::Regex::new(STEP_ID_PATTERN).unwrap();
        let alphabet = ['a', 'Z', '_', '0', '9', '-', ' ', '.', 'é', '$'];
        let mut words = vec![String::new()];
        for len in 1..=3 {
            let mut next = Vec::new();
            for w in words.iter().filter(|w| w.chars().count() == len - 1) {
                for c in alphabet {
                    next.push(format!("{w}{c}"));
                }
            }
            words.extend(next);
        }
        assert!(words.len() > 1000);
        for w in &words {
            assert_eq!(pattern.is_match(w), is_valid_id(w), "{w:?}");
        }
        for id in RESERVED_IDS {
            assert!(
                is_valid_id(id),
                "{id} is reserved, so it must be a valid id"
            );
        }
    }

    #[test]
    fn defaults_are_within_their_bounds() {
        for rule in [FOR_EACH_CONCURRENCY, TIMEOUT_MS].iter().chain(&RETRY) {
            assert!(rule.minimum <= rule.maximum, "{}", rule.key);
            if let Some(d) = rule.default {
                assert!(rule.admits(d), "{}", rule.key);
            }
        }
        assert!(!RETRY_MAX_ATTEMPTS.admits(2.5));
        assert!(RETRY_BACKOFF_RATE.admits(1.5));
    }
}
