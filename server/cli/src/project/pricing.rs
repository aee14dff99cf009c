//! `pricing` in `.vai.json`: dollars per million tokens for models the price table lacks or
//! prices differently for this project (a negotiated rate), checked field by field.

use serde_json::Value;
use vai_providers::pricing::{Pricing, Rate};

/// The price table with the overrides of `pricing` (the value as written), or what is wrong
/// with it, naming the field (`pricing."gpt-4o".input`).
pub(crate) fn parse(value: &Value) -> Result<Pricing, String> {
    let Value::Object(models) = value else {
        return Err(
            "pricing must be an object of model names, e.g. {\"gpt-4o\": {\"input\": 2.5, \
             \"output\": 10}}"
                .into(),
        );
    };
    let mut rates = Vec::with_capacity(models.len());
    for (model, price) in models {
        let field = format!("pricing.\"{model}\"");
        if model.trim().is_empty() {
            return Err("pricing has an empty model name".into());
        }
        let Value::Object(price) = price else {
            return Err(format!(
                "{field} must be an object such as {{\"input\": 0.1, \"output\": 0.4}} (dollars \
                 per million tokens)"
            ));
        };
        if let Some(key) = price.keys().find(|k| *k != "input" && *k != "output") {
            return Err(format!(
                "{field} has an unknown field \"{key}\" (known: input, output)"
            ));
        }
        let input = match price.get("input") {
            Some(v) => dollars(&format!("{field}.input"), v)?,
            None => return Err(format!("{field}.input is required")),
        };
        // Embedding and rerank models have no output tokens.
        let output = match price.get("output") {
            Some(v) => dollars(&format!("{field}.output"), v)?,
            None => 0.0,
        };
        rates.push((model.clone(), Rate { input, output }));
    }
    Ok(Pricing::with_overrides(rates))
}

/// A price: a finite number of dollars, at least 0.
fn dollars(field: &str, value: &Value) -> Result<f64, String> {
    match value.as_f64() {
        Some(n) if n.is_finite() && n >= 0.0 => Ok(n),
        Some(n) => Err(format!(
            "{field} is {n}; a price is a number of dollars per million tokens, at least 0"
        )),
        None => Err(format!(
            "{field} must be a number of dollars per million tokens, not {value}"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use vai_providers::pricing::{OVERRIDE, Quote};

    #[test]
    fn overrides_are_read_per_million_tokens() {
        let pricing =
            parse(&json!({"gpt-4o": {"input": 2, "output": 8.5}, "my-embedder": {"input": 0.1}}))
                .unwrap();
        assert_eq!(
            pricing.quote("openai", "gpt-4o"),
            Quote::Priced {
                rate: Rate {
                    input: 2.0,
                    output: 8.5
                },
                priced_at: OVERRIDE
            }
        );
        assert_eq!(pricing.overrides()["my-embedder"].output, 0.0);
    }

    #[test]
    fn bad_prices_name_their_field() {
        for (pricing, expected) in [
            (json!([]), "pricing must be an object"),
            (
                json!({"gpt-4o": 2.5}),
                "pricing.\"gpt-4o\" must be an object",
            ),
            (
                json!({"gpt-4o": {}}),
                "pricing.\"gpt-4o\".input is required",
            ),
            (
                json!({"gpt-4o": {"input": -1}}),
                "pricing.\"gpt-4o\".input is -1; a price is a number of dollars per million tokens, at least 0",
            ),
            (
                json!({"gpt-4o": {"input": 1, "output": "cheap"}}),
                "pricing.\"gpt-4o\".output must be a number of dollars per million tokens, not \"cheap\"",
            ),
            (
                json!({"gpt-4o": {"input": 1, "cached": 0.5}}),
                "pricing.\"gpt-4o\" has an unknown field \"cached\"",
            ),
            (
                json!({" ": {"input": 1}}),
                "pricing has an empty model name",
            ),
        ] {
            let error = parse(&pricing).unwrap_err();
            assert!(error.starts_with(expected), "{pricing}: {error}");
        }
    }
}
