//! What a step's provider calls used, what they cost and which backends served them
//! ([`Served`]), and the `usage` and `cost` fields a model step (`generate`, `evaluator`,
//! `router`, `agent`) puts in its own output ([`Served::model_output`]).

use serde_json::Value;
use vai_providers::TokenUsage;
use vai_providers::pricing::Pricing;
use vai_workflow::{Cost, ToolOutput, Usage};

/// A step's provider calls so far: tokens, requests and cost (each call priced as it is
/// recorded, by the model that served it), and the backends that served them.
#[derive(Debug)]
pub(crate) struct Served<'p> {
    pricing: &'p Pricing,
    usage: Usage,
    backends: Vec<String>,
}

impl<'p> Served<'p> {
    /// No calls yet; calls are priced with `pricing` (the providers').
    pub(crate) fn new(pricing: &'p Pricing) -> Self {
        Served {
            pricing,
            usage: Usage::default(),
            backends: Vec::new(),
        }
    }

    /// An embedding call of `model` on `backend`.
    pub(crate) fn embed(&mut self, backend: &str, model: &str, usage: TokenUsage) {
        self.usage.embed_tokens += usage.input_tokens;
        self.priced(backend, model, usage, false);
    }

    /// A rerank call of `model` on `backend`.
    pub(crate) fn rerank(&mut self, backend: &str, model: &str, usage: TokenUsage) {
        self.usage.rerank_tokens += usage.input_tokens;
        self.priced(backend, model, usage, false);
    }

    /// An LLM call of `model` on `backend`.
    pub(crate) fn llm(&mut self, backend: &str, model: &str, usage: TokenUsage) {
        self.usage.llm_input_tokens += usage.input_tokens;
        self.usage.llm_output_tokens += usage.output_tokens;
        self.priced(backend, model, usage, true);
    }

    /// A vector-store call (no tokens, no model).
    pub(crate) fn store(&mut self, backend: &str) {
        self.call(backend);
    }

    fn priced(&mut self, backend: &str, model: &str, usage: TokenUsage, llm: bool) {
        let cost = call_cost(self.pricing, backend, model, usage, llm);
        match &mut self.usage.cost {
            Some(total) => total.add(&cost),
            none => *none = Some(cost),
        }
        self.call(backend);
    }

    fn call(&mut self, backend: &str) {
        self.usage.requests += 1;
        if !self.backends.iter().any(|b| b == backend) {
            self.backends.push(backend.to_string());
        }
    }

    /// The step's output with usage and the backends joined by "+" ("voyage+mongodb").
    pub(crate) fn output(self, output: Value) -> ToolOutput {
        ToolOutput {
            output,
            usage: Some(self.usage),
            backend: (!self.backends.is_empty()).then(|| self.backends.join("+")),
            size: None,
        }
    }

    /// [`Served::output`] for a model step: `output` (an object) also carries the step's
    /// `usage` and `cost` (see [`usage_fields`]), so later steps and templates can read them.
    pub(crate) fn model_output(self, mut output: Value) -> ToolOutput {
        if let Value::Object(fields) = &mut output {
            let (usage, cost) = usage_fields(&self.usage);
            fields.insert("usage".into(), usage);
            fields.insert("cost".into(), cost);
        }
        self.output(output)
    }
}

/// The `usage` and `cost` entries of a model step's `outputs` (its spec).
pub(crate) const USAGE_OUTPUTS: [(&str, &str); 2] = [
    (
        "usage",
        "the step's model calls: {llmInputTokens, llmOutputTokens, requests}",
    ),
    (
        "cost",
        "what they cost at the price table's rates: {usd, inputPerMTok, outputPerMTok, pricedAt}; usd is null, with unpriced and reason, for a model with no known price",
    ),
];

/// A model step's `usage` and `cost` output values: the tokens and requests as [`Usage`]
/// writes them (`llmInputTokens`, `llmOutputTokens`, `requests`, …) and its [`Cost`]
/// (`usd`, `inputPerMTok`, `outputPerMTok`, `pricedAt`, and `unpriced`/`reason` when a model
/// has no price); `cost` is `null` when no model was called.
pub(crate) fn usage_fields(usage: &Usage) -> (Value, Value) {
    let tokens = Usage {
        cost: None,
        ..usage.clone()
    };
    let json = |v: Result<Value, serde_json::Error>| v.unwrap_or(Value::Null);
    (
        json(serde_json::to_value(tokens)),
        json(serde_json::to_value(&usage.cost)),
    )
}

/// What one call of `model` on `backend` cost, as a step's [`Cost`] (see
/// [`Pricing::charge`]).
pub(crate) fn call_cost(
    pricing: &Pricing,
    backend: &str,
    model: &str,
    usage: TokenUsage,
    llm: bool,
) -> Cost {
    let charge = pricing.charge(backend, model, usage, llm);
    Cost {
        usd: charge.usd,
        input_per_mtok: charge.input_per_mtok,
        output_per_mtok: charge.output_per_mtok,
        priced_at: charge.priced_at.to_string(),
        unpriced: charge.unpriced.into_iter().collect(),
        reason: charge.reason,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use vai_providers::pricing::{PRICED_AT, Rate};

    fn tokens(input: u64, output: u64) -> TokenUsage {
        TokenUsage {
            input_tokens: input,
            output_tokens: output,
        }
    }

    #[test]
    fn each_call_is_priced_by_its_model_and_the_step_sums_them() {
        let pricing = Pricing::default();
        let mut served = Served::new(&pricing);
        served.embed("voyage", "voyage-4-large", TokenUsage::input(1_000_000));
        served.store("mongodb");
        served.rerank("voyage", "rerank-2.5", TokenUsage::input(2_000_000));
        let out = served.output(json!({}));
        let usage = out.usage.unwrap();
        assert_eq!(
            (usage.embed_tokens, usage.rerank_tokens),
            (1_000_000, 2_000_000)
        );
        assert_eq!(usage.requests, 3);
        let cost = usage.cost.unwrap();
        assert!((cost.usd.unwrap() - 0.22).abs() < 1e-12, "{cost:?}");
        assert_eq!(cost.input_per_mtok, None, "two rates");
        assert_eq!(cost.priced_at, PRICED_AT);
        assert_eq!(out.backend.as_deref(), Some("voyage+mongodb"));
    }

    #[test]
    fn a_model_step_carries_usage_and_cost_in_its_output() {
        let pricing = Pricing::with_overrides([(
            "house-model".to_string(),
            Rate {
                input: 1.0,
                output: 2.0,
            },
        )]);
        let mut served = Served::new(&pricing);
        served.llm("openai", "house-model", tokens(500_000, 250_000));
        let out = served.model_output(json!({"text": "hi"}));
        assert_eq!(
            out.output,
            json!({
                "text": "hi",
                "usage": {"llmInputTokens": 500_000, "llmOutputTokens": 250_000, "requests": 1},
                "cost": {"usd": 1.0, "inputPerMTok": 1.0, "outputPerMTok": 2.0, "pricedAt": ".vai.json"}
            })
        );
        assert_eq!(out.usage.unwrap().cost.unwrap().usd, Some(1.0));
    }

    #[test]
    fn an_unpriced_model_is_null_with_its_reason_and_a_local_one_is_free() {
        let pricing = Pricing::default();
        let cost = call_cost(&pricing, "openai", "gpt-9", tokens(10, 5), true);
        assert_eq!(
            (cost.usd, cost.unpriced.clone()),
            (None, vec!["gpt-9".into()])
        );
        assert!(cost.reason.unwrap().contains("\"pricing\""));
        let cost = call_cost(
            &pricing,
            "local",
            "SmolLM2-135M-Instruct",
            tokens(10, 5),
            true,
        );
        assert_eq!((cost.usd, cost.priced_at.as_str()), (Some(0.0), "local"));
        let (usage, cost) = usage_fields(&Usage::default());
        assert_eq!((usage, cost), (json!({}), Value::Null));
    }
}
