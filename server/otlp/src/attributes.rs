//! What a step's span says about its model calls: the OpenTelemetry GenAI semantic conventions
//! where they apply (`gen_ai.operation.name`, the provider, the model, the tokens), vai's own
//! `vai.*` keys for the rest (tokens by kind, requests, cost).

use opentelemetry::KeyValue;
use serde_json::Value;
use vai_workflow::Usage;

/// The GenAI operation a step of `tool` performed, judged by what it used: an agent's loop, a
/// model's answer, or embeddings. Other tools (retrieval, data steps) are not GenAI operations
/// even when they embed or rerank; their tokens are still reported under `vai.usage.*`.
fn operation(tool: &str, usage: &Usage) -> Option<&'static str> {
    let llm = usage.llm_input_tokens + usage.llm_output_tokens > 0;
    match tool {
        "agent" => Some("invoke_agent"),
        "generate" | "evaluator" | "router" if llm => Some("chat"),
        "embed" | "router" if usage.embed_tokens > 0 => Some("embeddings"),
        _ => None,
    }
}

/// Attributes of a step of `tool` that completed with `usage` on `backend`, its output `output`
/// (`model` is read from it). A `workflow` step's usage is its child run's, already on the
/// child's steps, so it is not repeated (a backend summing tokens over spans would count it
/// twice).
pub(crate) fn completed(
    tool: &str,
    usage: Option<&Usage>,
    backend: Option<&str>,
    output: Option<&Value>,
) -> Vec<KeyValue> {
    let mut attrs = Vec::new();
    if let Some(backend) = backend {
        attrs.push(KeyValue::new("vai.step.backend", backend.to_string()));
    }
    let usage = usage.filter(|_| tool != vai_workflow::control::WORKFLOW);
    let model = output
        .and_then(|o| o.get("model"))
        .and_then(Value::as_str)
        .filter(|m| !m.is_empty());
    let empty = Usage::default();
    let op = operation(tool, usage.unwrap_or(&empty));
    if let Some(op) = op {
        attrs.push(KeyValue::new("gen_ai.operation.name", op));
        // The first backend a model step names is its model's ("openai+voyage+mongodb" for an
        // agent that searched).
        if let Some(provider) = backend.and_then(|b| b.split('+').next()) {
            attrs.push(KeyValue::new("gen_ai.provider.name", provider.to_string()));
            // The older name of the same attribute, still what many backends read.
            attrs.push(KeyValue::new("gen_ai.system", provider.to_string()));
        }
        if let Some(model) = model {
            attrs.push(KeyValue::new("gen_ai.request.model", model.to_string()));
        }
    }
    if let Some(usage) = usage {
        if let Some(op) = op {
            let input = match op {
                "embeddings" => usage.embed_tokens,
                _ => usage.llm_input_tokens,
            };
            attrs.push(KeyValue::new("gen_ai.usage.input_tokens", count(input)));
            if op != "embeddings" {
                attrs.push(KeyValue::new(
                    "gen_ai.usage.output_tokens",
                    count(usage.llm_output_tokens),
                ));
            }
        }
        attrs.extend(usage_attributes("vai.usage", usage));
    }
    attrs
}

/// A run's totals, on its own span under `vai.run.*`, apart from the steps' `gen_ai.usage.*`
/// and `vai.cost.usd` so nothing is counted twice by a backend that sums them.
pub(crate) fn run_totals(usage: &Usage) -> Vec<KeyValue> {
    usage_attributes("vai.run.usage", usage)
        .into_iter()
        .map(|kv| match kv.key.as_str() {
            "vai.cost.usd" => KeyValue::new("vai.run.cost.usd", kv.value),
            "vai.cost.unpriced" => KeyValue::new("vai.run.cost.unpriced", kv.value),
            _ => kv,
        })
        .collect()
}

/// Tokens by kind and requests under `prefix` (none that are zero), and the cost.
fn usage_attributes(prefix: &str, usage: &Usage) -> Vec<KeyValue> {
    let mut attrs = Vec::new();
    for (name, n) in [
        ("llm_input_tokens", usage.llm_input_tokens),
        ("llm_output_tokens", usage.llm_output_tokens),
        ("embed_tokens", usage.embed_tokens),
        ("rerank_tokens", usage.rerank_tokens),
        ("requests", usage.requests),
    ] {
        if n > 0 {
            attrs.push(KeyValue::new(format!("{prefix}.{name}"), count(n)));
        }
    }
    if let Some(cost) = &usage.cost {
        if let Some(usd) = cost.usd {
            attrs.push(KeyValue::new("vai.cost.usd", usd));
        }
        if !cost.unpriced.is_empty() {
            attrs.push(KeyValue::new("vai.cost.unpriced", cost.unpriced.join(",")));
        }
    }
    attrs
}

/// A count as OTLP's signed integer.
fn count(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use vai_workflow::Cost;

    fn get<'a>(attrs: &'a [KeyValue], key: &str) -> Option<&'a opentelemetry::Value> {
        attrs
            .iter()
            .find(|kv| kv.key.as_str() == key)
            .map(|kv| &kv.value)
    }

    fn llm_usage() -> Usage {
        Usage {
            llm_input_tokens: 120,
            llm_output_tokens: 30,
            requests: 1,
            cost: Some(Cost {
                usd: Some(0.0021),
                ..Cost::default()
            }),
            ..Usage::default()
        }
    }

    #[test]
    fn a_model_step_follows_the_genai_conventions() {
        let output = json!({"text": "hi", "model": "gpt-4o-mini"});
        let attrs = completed(
            "generate",
            Some(&llm_usage()),
            Some("openai"),
            Some(&output),
        );
        assert_eq!(get(&attrs, "gen_ai.operation.name"), Some(&"chat".into()));
        assert_eq!(get(&attrs, "gen_ai.provider.name"), Some(&"openai".into()));
        assert_eq!(get(&attrs, "gen_ai.system"), Some(&"openai".into()));
        assert_eq!(
            get(&attrs, "gen_ai.request.model"),
            Some(&"gpt-4o-mini".into())
        );
        assert_eq!(
            get(&attrs, "gen_ai.usage.input_tokens"),
            Some(&120i64.into())
        );
        assert_eq!(
            get(&attrs, "gen_ai.usage.output_tokens"),
            Some(&30i64.into())
        );
        assert_eq!(get(&attrs, "vai.cost.usd"), Some(&0.0021f64.into()));
        assert_eq!(get(&attrs, "vai.usage.requests"), Some(&1i64.into()));
    }

    #[test]
    fn an_agent_is_an_agent_invocation_named_by_its_models_backend() {
        let attrs = completed(
            "agent",
            Some(&llm_usage()),
            Some("anthropic+voyage+mongodb"),
            Some(&json!({"model": "claude-x", "toolCalls": []})),
        );
        assert_eq!(
            get(&attrs, "gen_ai.operation.name"),
            Some(&"invoke_agent".into())
        );
        assert_eq!(
            get(&attrs, "gen_ai.provider.name"),
            Some(&"anthropic".into())
        );
        assert_eq!(
            get(&attrs, "vai.step.backend"),
            Some(&"anthropic+voyage+mongodb".into())
        );
    }

    #[test]
    fn retrieval_reports_tokens_without_claiming_a_genai_operation() {
        let usage = Usage {
            embed_tokens: 8,
            rerank_tokens: 400,
            requests: 3,
            ..Usage::default()
        };
        let attrs = completed("query", Some(&usage), Some("voyage+mongodb"), None);
        assert_eq!(get(&attrs, "gen_ai.operation.name"), None);
        assert_eq!(get(&attrs, "gen_ai.usage.input_tokens"), None);
        assert_eq!(get(&attrs, "vai.usage.embed_tokens"), Some(&8i64.into()));
        assert_eq!(get(&attrs, "vai.usage.rerank_tokens"), Some(&400i64.into()));
        let embed = completed("embed", Some(&usage), Some("voyage"), None);
        assert_eq!(
            get(&embed, "gen_ai.operation.name"),
            Some(&"embeddings".into())
        );
        assert_eq!(get(&embed, "gen_ai.usage.input_tokens"), Some(&8i64.into()));
        assert_eq!(get(&embed, "gen_ai.usage.output_tokens"), None);
    }

    #[test]
    fn a_workflow_steps_usage_is_left_to_its_childs_steps() {
        let attrs = completed("workflow", Some(&llm_usage()), None, None);
        assert!(attrs.is_empty(), "{attrs:?}");
        let totals = run_totals(&llm_usage());
        assert_eq!(get(&totals, "vai.run.cost.usd"), Some(&0.0021f64.into()));
        assert_eq!(
            get(&totals, "vai.run.usage.llm_input_tokens"),
            Some(&120i64.into())
        );
        assert_eq!(get(&totals, "vai.cost.usd"), None);
    }
}
