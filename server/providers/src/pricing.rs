//! What model calls cost: one dated table of list prices ([`TABLE`]: Voyage AI, OpenAI,
//! Anthropic, with each price's source), local models at no cost, and the `.vai.json`
//! `pricing` overrides over both ([`Pricing`]). A model nobody priced is [`Quote::Unknown`] with
//! the reason, never free.

mod table;

pub use table::{ModelPrice, ModelUse, PRICED_AT, TABLE, Vendor};

use crate::TokenUsage;
use std::collections::BTreeMap;

/// `pricedAt` of a call a local model served.
pub const LOCAL: &str = "local";
/// `pricedAt` of a call priced by a `.vai.json` override.
pub const OVERRIDE: &str = ".vai.json";

/// Backends that run on this machine (the built-in models, Ollama): their calls cost nothing.
const LOCAL_BACKENDS: [&str; 2] = ["local", "ollama"];

/// Dollars per million tokens.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rate {
    pub input: f64,
    pub output: f64,
}

impl Rate {
    /// What `input` and `output` tokens cost at this rate, in dollars.
    pub fn usd(&self, input_tokens: u64, output_tokens: u64) -> f64 {
        (input_tokens as f64 * self.input + output_tokens as f64 * self.output) / 1_000_000.0
    }
}

/// What pricing says about one model.
#[derive(Debug, Clone, PartialEq)]
pub enum Quote {
    /// Its rate, and where the rate came from: [`PRICED_AT`] (the table), [`LOCAL`] or
    /// [`OVERRIDE`].
    Priced { rate: Rate, priced_at: &'static str },
    /// No price is known; `reason` says so and how to add one.
    Unknown { reason: String },
}

/// What one call cost, field for field the `cost` a step reports (`vai_workflow::Cost`), made
/// here so that tools and chat price calls alike.
#[derive(Debug, Clone, PartialEq)]
pub struct Charge {
    /// Dollars; `None` when the model has no price.
    pub usd: Option<f64>,
    pub input_per_mtok: Option<f64>,
    /// `None` for embedding and rerank calls, which have no output tokens.
    pub output_per_mtok: Option<f64>,
    /// [`PRICED_AT`], [`LOCAL`] or [`OVERRIDE`]; the table's date for an unpriced model.
    pub priced_at: &'static str,
    /// The model, when it has no price.
    pub unpriced: Option<String>,
    /// Why it has none, and how to add one.
    pub reason: Option<String>,
}

/// The price table with the project's overrides (`.vai.json` `pricing`), as tools price with.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Pricing {
    /// By lower-case model name.
    overrides: BTreeMap<String, Rate>,
}

impl Pricing {
    /// The table with `overrides` (model name → rate) over it.
    pub fn with_overrides(overrides: impl IntoIterator<Item = (String, Rate)>) -> Self {
        Pricing {
            overrides: overrides
                .into_iter()
                .map(|(model, rate)| (model.trim().to_ascii_lowercase(), rate))
                .collect(),
        }
    }

    /// The overrides, by lower-case model name.
    pub fn overrides(&self) -> &BTreeMap<String, Rate> {
        &self.overrides
    }

    /// The price of `model` as `backend` served it: an override, else nothing for a local
    /// backend, else the table's.
    pub fn quote(&self, backend: &str, model: &str) -> Quote {
        if let Some(rate) = self.overridden(model) {
            return Quote::Priced {
                rate,
                priced_at: OVERRIDE,
            };
        }
        if LOCAL_BACKENDS.contains(&backend) {
            return Quote::Priced {
                rate: Rate {
                    input: 0.0,
                    output: 0.0,
                },
                priced_at: LOCAL,
            };
        }
        self.quote_model(model)
    }

    /// The price of `model` whoever serves it (for estimates, made before any call): an
    /// override, else the table's (local models at no cost).
    pub fn quote_model(&self, model: &str) -> Quote {
        if let Some(rate) = self.overridden(model) {
            return Quote::Priced {
                rate,
                priced_at: OVERRIDE,
            };
        }
        match find(model) {
            Some(row) => Quote::Priced {
                rate: Rate {
                    input: row.input,
                    output: row.output,
                },
                priced_at: if row.vendor == Vendor::Local {
                    LOCAL
                } else {
                    PRICED_AT
                },
            },
            None => Quote::Unknown {
                reason: unknown_reason(model),
            },
        }
    }

    /// What a call of `model` on `backend` that used `usage` cost. An LLM call (`llm`) has
    /// an output rate; an embedding or rerank call only an input rate.
    pub fn charge(&self, backend: &str, model: &str, usage: TokenUsage, llm: bool) -> Charge {
        match self.quote(backend, model) {
            Quote::Priced { rate, priced_at } => Charge {
                usd: Some(rate.usd(usage.input_tokens, usage.output_tokens)),
                input_per_mtok: Some(rate.input),
                output_per_mtok: llm.then_some(rate.output),
                priced_at,
                unpriced: None,
                reason: None,
            },
            Quote::Unknown { reason } => Charge {
                usd: None,
                input_per_mtok: None,
                output_per_mtok: None,
                priced_at: PRICED_AT,
                unpriced: Some(model.to_string()),
                reason: Some(reason),
            },
        }
    }

    fn overridden(&self, model: &str) -> Option<Rate> {
        names(model).find_map(|name| self.overrides.get(&name).copied())
    }
}

/// Why `model` has no price, and how to give it one.
fn unknown_reason(model: &str) -> String {
    format!(
        "no price is known for \"{model}\" (vai's price table is of {PRICED_AT}); to count it, \
         add \"pricing\": {{\"{model}\": {{\"input\": <dollars per million input tokens>, \
         \"output\": <dollars per million output tokens>}}}} to .vai.json."
    )
}

/// The table's row for `model`: by its exact name (any case), else by the name without a
/// snapshot date or alias suffix (`claude-sonnet-4-5-20250929`, `gpt-4o-2024-08-06`,
/// `claude-3-5-haiku-latest`, `claude-opus-4-0`). Never by prefix: `gpt-4o-mini` is not
/// `gpt-4o`, nor `claude-sonnet-4-5` `claude-sonnet-4`.
pub fn find(model: &str) -> Option<&'static ModelPrice> {
    names(model).find_map(|name| {
        TABLE
            .iter()
            .find(|row| row.model.eq_ignore_ascii_case(&name))
    })
}

/// The names `model` is looked up by, most exact first, lower-cased.
fn names(model: &str) -> impl Iterator<Item = String> {
    let exact = model.trim().to_ascii_lowercase();
    let exact = exact
        .strip_prefix("voyageai/")
        .map(str::to_string)
        .unwrap_or(exact);
    let base = base_name(&exact).map(str::to_string);
    [Some(exact), base].into_iter().flatten()
}

/// `model` without its snapshot suffix: a date (`-20250929`, `-2024-08-06`), `-latest`, or
/// Anthropic's `-0` alias of a family's first release; `None` when it has none.
fn base_name(model: &str) -> Option<&str> {
    let digits = |s: &str, n: usize| s.len() == n && s.bytes().all(|b| b.is_ascii_digit());
    if let Some(rest) = model.strip_suffix("-latest") {
        return Some(rest);
    }
    if let Some((rest, date)) = model.rsplit_once('-')
        && digits(date, 8)
    {
        return Some(rest);
    }
    if let [day, month, year, rest] = model.rsplitn(4, '-').collect::<Vec<_>>()[..]
        && digits(year, 4)
        && digits(month, 2)
        && digits(day, 2)
    {
        return Some(rest);
    }
    model
        .strip_suffix("-0")
        .filter(|rest| rest.ends_with(|c: char| c.is_ascii_digit()))
}

#[cfg(test)]
mod tests;
