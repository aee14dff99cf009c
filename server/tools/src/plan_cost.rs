//! What a planned step's calls would about cost — the `≈` of `vai workflow run --dry-run` and
//! the playground's Plan dialog: the price table's rates (with `.vai.json`'s overrides) at a
//! fixed number of tokens per call, for the models the step would use.

use crate::served::call_cost;
use serde_json::{Map, Value};
use std::sync::Arc;
use vai_providers::local::embed::LocalEmbedder;
use vai_providers::pricing::PRICED_AT;
use vai_providers::{Providers, TokenUsage};
use vai_workflow::{ApiCalls, CallPricer, Cost, has_template};

/// Tokens assumed for one embedding call: a document's worth (a query is nearer 50).
pub const EMBED_TOKENS: u64 = 500;
/// Tokens assumed for one rerank call: ten passages of 500 tokens, each with a 50-token query.
pub const RERANK_TOKENS: u64 = 5_500;
/// Tokens assumed for one LLM call: a prompt with retrieved context, and a paragraph back.
pub const LLM_INPUT_TOKENS: u64 = 2_000;
pub const LLM_OUTPUT_TOKENS: u64 = 500;

/// Who would serve each kind of call: a backend name (`voyage`, `local`, `ollama`, …), and
/// for the LLM its model too. Unknown backends are priced by model name alone.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Serving {
    pub embed: Option<String>,
    /// The model the embedding backend serves whatever a step asks for (the local one).
    pub embed_model: Option<String>,
    pub rerank: Option<String>,
    /// `(backend, the model a step that names none gets)`.
    pub llm: Option<(String, String)>,
}

impl Serving {
    /// The providers' own backends.
    pub fn of(providers: &Providers) -> Self {
        let embed = providers.embedder.as_ref().map(|e| e.name().to_string());
        Serving {
            embed_model: (embed.as_deref() == Some(LocalEmbedder::NAME))
                .then(|| LocalEmbedder::MODEL.to_string()),
            embed,
            rerank: providers.reranker.as_ref().map(|r| r.name().to_string()),
            llm: providers
                .llm
                .as_ref()
                .map(|l| (l.name().to_string(), l.default_model().to_string())),
        }
    }
}

/// Prices a step's expected calls with the providers' pricing and settings.
pub struct PlanPricer {
    providers: Arc<Providers>,
    serving: Serving,
}

impl PlanPricer {
    /// Priced as `serving` would serve the calls (see [`Serving::of`] for the providers' own).
    pub fn new(providers: Arc<Providers>, serving: Serving) -> Self {
        PlanPricer { providers, serving }
    }
}

impl CallPricer for PlanPricer {
    fn price(
        &self,
        _tool: &str,
        inputs: &Map<String, Value>,
        defaults: &Map<String, Value>,
        calls: ApiCalls,
    ) -> Option<Cost> {
        let settings = &self.providers.settings;
        let pricing = &self.providers.pricing;
        let defaults = Value::Object(defaults.clone());
        // A literal name only: a template's value is known at run time.
        let literal = |key: &str| {
            inputs
                .get(key)
                .filter(|v| !has_template(v))
                .and_then(Value::as_str)
        };
        let mut total: Option<Cost> = None;
        let mut add = |cost: Cost| match &mut total {
            Some(t) => t.add(&cost),
            none => *none = Some(cost),
        };
        let times = |n: u32, tokens: u64| tokens * u64::from(n);
        if calls.embed > 0 {
            // A step that asks an LLM names the LLM with `model`.
            let asked = if calls.llm == 0 {
                literal("model")
            } else {
                None
            };
            let model = match &self.serving.embed_model {
                Some(served) => served.clone(),
                None => settings.embedding_model(asked, &defaults),
            };
            let backend = self.serving.embed.as_deref().unwrap_or_default();
            let tokens = TokenUsage::input(times(calls.embed, EMBED_TOKENS));
            add(call_cost(pricing, backend, &model, tokens, false));
        }
        if calls.rerank > 0 {
            let model = settings.rerank_model(literal("rerankModel"), &defaults);
            let backend = self.serving.rerank.as_deref().unwrap_or_default();
            let tokens = TokenUsage::input(times(calls.rerank, RERANK_TOKENS));
            add(call_cost(pricing, backend, &model, tokens, false));
        }
        if calls.llm > 0 {
            let tokens = TokenUsage {
                input_tokens: times(calls.llm, LLM_INPUT_TOKENS),
                output_tokens: times(calls.llm, LLM_OUTPUT_TOKENS),
            };
            let (backend, default) = match &self.serving.llm {
                Some((backend, model)) => (backend.as_str(), Some(model.as_str())),
                None => ("", None),
            };
            add(match literal("model").or(default) {
                Some(model) => call_cost(pricing, backend, model, tokens, true),
                None => Cost {
                    usd: None,
                    priced_at: PRICED_AT.to_string(),
                    reason: Some(
                        "no LLM is configured and the step names no model, so its price is \
                         unknown."
                            .into(),
                    ),
                    ..Cost::default()
                },
            });
        }
        total
    }

    fn assumptions(&self) -> String {
        format!(
            "at the price table of {PRICED_AT} with .vai.json's \"pricing\", assuming \
             {EMBED_TOKENS} tokens an embedding call, {RERANK_TOKENS} a rerank call, and \
             {LLM_INPUT_TOKENS} in and {LLM_OUTPUT_TOKENS} out an LLM call"
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use vai_providers::Settings;
    use vai_providers::pricing::Rate;

    fn pricer(serving: Serving) -> PlanPricer {
        let providers = Providers::none(Settings::default()).with_pricing(
            vai_providers::Pricing::with_overrides([(
                "house-llm".to_string(),
                Rate {
                    input: 1.0,
                    output: 2.0,
                },
            )]),
        );
        PlanPricer::new(Arc::new(providers), serving)
    }

    fn calls(embed: u32, rerank: u32, llm: u32) -> ApiCalls {
        ApiCalls {
            embed,
            rerank,
            llm,
            ..ApiCalls::NONE
        }
    }

    fn usd(cost: Option<Cost>) -> Option<f64> {
        cost.expect("a cost").usd
    }

    fn object(v: Value) -> Map<String, Value> {
        v.as_object().unwrap().clone()
    }

    #[test]
    fn retrieval_is_priced_at_the_models_the_step_would_use() {
        let p = pricer(Serving {
            embed: Some("voyage".into()),
            rerank: Some("voyage".into()),
            ..Serving::default()
        });
        let none = Map::new();
        // voyage-4-large and rerank-2.5 by default: 500 × $0.12 + 5,500 × $0.05, per million.
        let cost = p.price("query", &none, &none, calls(1, 1, 0));
        assert!((usd(cost).unwrap() - 0.000335).abs() < 1e-12);
        // The workflow's default model, then the step's literal one.
        let defaults = object(json!({"model": "voyage-4-lite"}));
        let cost = p.price("embed", &none, &defaults, calls(1, 0, 0)).unwrap();
        assert_eq!(cost.input_per_mtok, Some(0.02));
        let inputs = object(json!({"model": "voyage-code-3"}));
        let cost = p
            .price("embed", &inputs, &defaults, calls(1, 0, 0))
            .unwrap();
        assert_eq!(cost.input_per_mtok, Some(0.18));
        let templated = object(json!({"model": "{{ inputs.model }}"}));
        let cost = p
            .price("embed", &templated, &defaults, calls(1, 0, 0))
            .unwrap();
        assert_eq!(cost.input_per_mtok, Some(0.02), "a template is not a name");
        assert_eq!(p.price("merge", &none, &none, ApiCalls::NONE), None);
        // The local model embeds whatever a step names.
        let local = pricer(Serving {
            embed: Some("local".into()),
            embed_model: Some("all-minilm-l6-v2".into()),
            ..Serving::default()
        });
        let cost = local
            .price("embed", &inputs, &defaults, calls(1, 0, 0))
            .unwrap();
        assert_eq!((cost.usd, cost.priced_at.as_str()), (Some(0.0), "local"));
    }

    #[test]
    fn an_llm_call_is_priced_at_the_step_s_or_the_configured_model() {
        let none = Map::new();
        let local = pricer(Serving {
            llm: Some(("local".into(), "SmolLM2-135M-Instruct".into())),
            ..Serving::default()
        });
        assert_eq!(
            usd(local.price("generate", &none, &none, calls(0, 0, 1))),
            Some(0.0)
        );
        let p = pricer(Serving {
            llm: Some(("openai".into(), "gpt-4o-mini".into())),
            ..Serving::default()
        });
        // 2,000 × $0.15 + 500 × $0.60, per million.
        let cost = p.price("generate", &none, &none, calls(0, 0, 2));
        assert!((usd(cost).unwrap() - 2.0 * 0.0006).abs() < 1e-12);
        let inputs = object(json!({"model": "house-llm"}));
        let cost = p.price("generate", &inputs, &none, calls(0, 0, 1)).unwrap();
        assert_eq!(cost.priced_at, ".vai.json");
        // Nothing configured and no model named: unknown, never free.
        let cost = pricer(Serving::default())
            .price("generate", &none, &none, calls(0, 0, 1))
            .unwrap();
        assert_eq!(cost.usd, None);
        assert!(cost.reason.unwrap().contains("no LLM is configured"));
    }
}
