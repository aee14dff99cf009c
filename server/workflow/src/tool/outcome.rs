//! What a tool call ends with: its output and the usage it reports, or why it failed.

use crate::limits::{Limit, LimitError};
use serde::Serialize;
use serde_json::Value;
use std::time::Duration;

/// What a tool returns: its output (stored in the run context) and bookkeeping for events.
#[derive(Debug, Clone, Default)]
pub struct ToolOutput {
    pub output: Value,
    pub usage: Option<Usage>,
    /// Which backend served the call ("voyage", "mongodb", "local", "anthropic", …).
    pub backend: Option<String>,
    /// The output's JSON size, when the tool built all of it within its call's budget
    /// ([`ToolCall::built`]); otherwise the engine measures the output itself.
    pub size: Option<u64>,
}

impl ToolOutput {
    pub fn new(output: Value) -> Self {
        Self {
            output,
            usage: None,
            backend: None,
            size: None,
        }
    }
}

/// Token and request counts a tool reports for cost display. Never stored in the context.
#[derive(Debug, Clone, Default, PartialEq, Serialize, serde::Deserialize, schemars::JsonSchema)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Usage {
    #[serde(skip_serializing_if = "is_zero")]
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(optional, type = "number"))]
    pub embed_tokens: u64,
    #[serde(skip_serializing_if = "is_zero")]
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(optional, type = "number"))]
    pub rerank_tokens: u64,
    #[serde(skip_serializing_if = "is_zero")]
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(optional, type = "number"))]
    pub llm_input_tokens: u64,
    #[serde(skip_serializing_if = "is_zero")]
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(optional, type = "number"))]
    pub llm_output_tokens: u64,
    #[serde(skip_serializing_if = "is_zero")]
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(optional, type = "number"))]
    pub requests: u64,
    /// What the tokens cost at the pricing table's rates (see [`Cost`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub cost: Option<Cost>,
}

/// What a step's (or a run's) model calls cost, from the pricing table (or `.vai.json`'s
/// `pricing`). A model with no known price is never counted as free: `usd` is `null` when
/// nothing was priced, and `unpriced` names the models left out.
#[derive(Debug, Clone, Default, PartialEq, Serialize, serde::Deserialize, schemars::JsonSchema)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Cost {
    /// US dollars; `null` when no model of the call had a known price.
    pub usd: Option<f64>,
    /// Dollars per million input (or embedding / rerank) tokens, when one rate applied.
    #[serde(
        rename = "inputPerMTok",
        skip_serializing_if = "Option::is_none",
        default
    )]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub input_per_mtok: Option<f64>,
    /// Dollars per million output tokens, when one rate applied.
    #[serde(
        rename = "outputPerMTok",
        skip_serializing_if = "Option::is_none",
        default
    )]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub output_per_mtok: Option<f64>,
    /// The date of the prices used (`2026-11-01`), or `".vai.json"` for an override.
    pub priced_at: String,
    /// Models with no known price, left out of `usd`.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<Vec<String>>", optional))]
    pub unpriced: Vec<String>,
    /// Why `usd` is `null` or partial, in words.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub reason: Option<String>,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl Usage {
    /// Add `other`'s tokens, requests and cost (see [`Cost::add`]).
    pub fn add(&mut self, other: &Usage) {
        self.embed_tokens += other.embed_tokens;
        self.rerank_tokens += other.rerank_tokens;
        self.llm_input_tokens += other.llm_input_tokens;
        self.llm_output_tokens += other.llm_output_tokens;
        self.requests += other.requests;
        match (&mut self.cost, &other.cost) {
            (Some(cost), Some(more)) => cost.add(more),
            (cost @ None, Some(more)) => *cost = Some(more.clone()),
            (_, None) => {}
        }
    }
}

impl Cost {
    /// Add `other`: the dollars of what either priced (`null` only when neither priced
    /// anything), both lists of unpriced models (each once), a rate only when both had the
    /// same one, and where the prices came from and why some are missing, each said once.
    pub fn add(&mut self, other: &Cost) {
        self.usd = match (self.usd, other.usd) {
            (Some(a), Some(b)) => Some(a + b),
            (a, b) => a.or(b),
        };
        let same = |a: Option<f64>, b: Option<f64>| a.zip(b).filter(|(a, b)| a == b).map(|p| p.0);
        self.input_per_mtok = same(self.input_per_mtok, other.input_per_mtok);
        self.output_per_mtok = same(self.output_per_mtok, other.output_per_mtok);
        self.priced_at = join_distinct(&self.priced_at, &other.priced_at);
        for model in &other.unpriced {
            if !self.unpriced.contains(model) {
                self.unpriced.push(model.clone());
            }
        }
        self.reason = match (self.reason.take(), &other.reason) {
            (Some(a), Some(b)) if a.contains(b.as_str()) => Some(a),
            (Some(a), Some(b)) => Some(format!("{a} {b}")),
            (a, b) => a.or_else(|| b.clone()),
        };
    }
}

/// The list `a` (", "-separated) with the items of `b` it does not have yet.
fn join_distinct(a: &str, b: &str) -> String {
    let mut parts: Vec<&str> = a.split(", ").filter(|p| !p.is_empty()).collect();
    for part in b.split(", ") {
        if !part.is_empty() && !parts.contains(&part) {
            parts.push(part);
        }
    }
    parts.join(", ")
}

/// Why a tool failed.
#[derive(Debug, Clone, thiserror::Error)]
pub enum ToolError {
    /// An input is missing or has the wrong shape; never retried.
    #[error("{tool}: input \"{field}\" {message}")]
    InvalidInput {
        tool: &'static str,
        field: String,
        message: String,
    },
    /// A provider, service or setting is not configured; the message says how to configure it.
    #[error("{0}")]
    NotConfigured(String),
    /// A transient failure (rate limit, 5xx, network, timeout): `retry` may try again.
    #[error("{message}")]
    Transient {
        message: String,
        retry_after: Option<Duration>,
    },
    /// A value the tool was building ran into a limit (`LIMIT_EXCEEDED`); never retried.
    #[error("{0}")]
    Limit(#[from] LimitError),
    /// Any other failure.
    #[error("{0}")]
    Failed(String),
}

impl ToolError {
    pub fn invalid(
        tool: &'static str,
        field: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        ToolError::InvalidInput {
            tool,
            field: field.into(),
            message: message.into(),
        }
    }

    pub fn required(tool: &'static str, field: impl Into<String>) -> Self {
        Self::invalid(tool, field, "is required")
    }

    /// A limit hit while making the value of `field`.
    pub fn limit(field: impl Into<String>, limit: Limit) -> Self {
        ToolError::Limit(LimitError::new(field, limit))
    }

    pub fn is_transient(&self) -> bool {
        matches!(self, ToolError::Transient { .. })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn priced(usd: f64, input: f64, output: Option<f64>, at: &str) -> Cost {
        Cost {
            usd: Some(usd),
            input_per_mtok: Some(input),
            output_per_mtok: output,
            priced_at: at.into(),
            ..Cost::default()
        }
    }

    fn unpriced(model: &str) -> Cost {
        Cost {
            usd: None,
            priced_at: "2026-11-28".into(),
            unpriced: vec![model.into()],
            reason: Some(format!("no price is known for \"{model}\".")),
            ..Cost::default()
        }
    }

    fn usage(tokens: u64, cost: Option<Cost>) -> Usage {
        Usage {
            llm_input_tokens: tokens,
            requests: 1,
            cost,
            ..Usage::default()
        }
    }

    #[test]
    fn priced_parts_sum_and_keep_a_rate_they_share() {
        let mut a = priced(0.25, 3.0, Some(15.0), "2026-11-28");
        a.add(&priced(0.5, 3.0, Some(15.0), "2026-11-28"));
        assert_eq!(a, priced(0.75, 3.0, Some(15.0), "2026-11-28"));
        a.add(&priced(0.125, 0.12, None, "2026-11-28"));
        assert_eq!(a.usd, Some(0.875));
        assert_eq!((a.input_per_mtok, a.output_per_mtok), (None, None));
        a.add(&priced(0.0, 0.0, Some(0.0), "local"));
        assert_eq!(a.priced_at, "2026-11-28, local");
        a.add(&priced(0.0, 0.0, Some(0.0), "local"));
        assert_eq!(a.priced_at, "2026-11-28, local", "each source once");
    }

    #[test]
    fn unpriced_models_are_listed_once_and_never_counted_as_free() {
        let mut a = unpriced("gpt-9");
        a.add(&unpriced("gpt-9"));
        assert_eq!(a.usd, None, "nothing was priced");
        assert_eq!(a.unpriced, ["gpt-9"]);
        assert_eq!(
            a.reason.as_deref(),
            Some("no price is known for \"gpt-9\".")
        );
        a.add(&priced(0.5, 3.0, Some(15.0), "2026-11-28"));
        assert_eq!(a.usd, Some(0.5), "the priced part is counted");
        assert_eq!(a.input_per_mtok, None, "one side had no rate");
        a.add(&unpriced("claude-9"));
        assert_eq!(a.unpriced, ["gpt-9", "claude-9"]);
        assert_eq!(
            a.reason.as_deref(),
            Some("no price is known for \"gpt-9\". no price is known for \"claude-9\".")
        );
        assert_eq!(a.priced_at, "2026-11-28");
    }

    #[test]
    fn usage_adds_cost_when_either_side_has_one() {
        let mut total = Usage::default();
        total.add(&usage(10, None));
        assert_eq!(total.cost, None, "no model call priced yet");
        total.add(&usage(20, Some(priced(0.5, 3.0, Some(15.0), "2026-11-28"))));
        total.add(&usage(5, None));
        total.add(&usage(30, Some(unpriced("gpt-9"))));
        assert_eq!(total.llm_input_tokens, 65);
        assert_eq!(total.requests, 4);
        let cost = total.cost.unwrap();
        assert_eq!(
            (cost.usd, cost.unpriced),
            (Some(0.5), vec!["gpt-9".to_string()])
        );
    }
}
