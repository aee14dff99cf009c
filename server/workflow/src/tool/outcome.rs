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
    pub fn add(&mut self, other: &Usage) {
        self.embed_tokens += other.embed_tokens;
        self.rerank_tokens += other.rerank_tokens;
        self.llm_input_tokens += other.llm_input_tokens;
        self.llm_output_tokens += other.llm_output_tokens;
        self.requests += other.requests;
    }
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
