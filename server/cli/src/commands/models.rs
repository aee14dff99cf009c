//! `vai models`: what each model's calls cost — the price table in dollars per million tokens,
//! its date and sources, with `.vai.json`'s `pricing` over it.

use crate::config::Config;
use crate::exit::EXIT_OK;
use clap::Args;
use vai_contract::{ModelPriceView, PricingTable};
use vai_providers::pricing::LOCAL;

/// How to print the table.
#[derive(Debug, Args)]
pub(super) struct ModelsArgs {
    /// Print the table as JSON: `{pricedAt, models: [{model, vendor, use, inputPerMTok,
    /// outputPerMTok, pricedAt, source}]}`, as the playground's `GET /api/pricing`.
    #[arg(long)]
    json: bool,
}

pub(super) fn run(args: ModelsArgs) -> anyhow::Result<u8> {
    let cfg = Config::load(&std::env::current_dir()?, &[])?;
    let table = vai_http::pricing_table(&cfg.project.pricing);
    if args.json {
        println!("{}", serde_json::to_string_pretty(&table)?);
    } else {
        print!("{}", text(&table));
    }
    Ok(EXIT_OK)
}

/// The table for a terminal, grouped by vendor, each group under its pricing page.
fn text(table: &PricingTable) -> String {
    let mut out = format!(
        "Model prices in US dollars per million tokens, as the vendors' pricing pages listed them \
         on {}.\nPrices change: check the source. Runs price every model call with these; set \
         your own in .vai.json under \"pricing\".\n",
        table.priced_at
    );
    let width = table
        .models
        .iter()
        .map(|m| m.model.len())
        .max()
        .unwrap_or(0);
    let mut group: Option<Option<&str>> = None;
    for model in &table.models {
        let vendor = model.vendor.as_deref();
        if group != Some(vendor) {
            group = Some(vendor);
            out.push('\n');
            out.push_str(&match (vendor, model.source.as_deref()) {
                (Some(v), Some(source)) => format!("{v} · {source}\n"),
                (Some(v), None) => format!("{v} · runs on this machine, no bill\n"),
                (None, _) => ".vai.json · your own prices\n".to_string(),
            });
        }
        out.push_str(&format!(
            "  {:<width$}  {:<9}  {}\n",
            model.model,
            model.model_use.as_deref().unwrap_or(""),
            price(model)
        ));
    }
    out
}

/// `$0.12`, `$2.5 in · $10 out`, `free`; `(.vai.json)` when the project sets it.
fn price(model: &ModelPriceView) -> String {
    if model.priced_at == LOCAL {
        return "free".to_string();
    }
    let figure = if model.model_use.as_deref() == Some("llm") || model.output_per_mtok > 0.0 {
        format!(
            "${} in · ${} out",
            model.input_per_mtok, model.output_per_mtok
        )
    } else {
        format!("${}", model.input_per_mtok)
    };
    match model.priced_at.as_str() {
        ".vai.json" if model.vendor.is_some() => format!("{figure} (.vai.json)"),
        _ => figure,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use vai_providers::Pricing;
    use vai_providers::pricing::{PRICED_AT, Rate};

    #[test]
    fn the_table_is_grouped_by_vendor_with_its_date_and_overrides_marked() {
        let pricing = Pricing::with_overrides([
            (
                "gpt-4o".to_string(),
                Rate {
                    input: 1.0,
                    output: 4.0,
                },
            ),
            (
                "house-llm".to_string(),
                Rate {
                    input: 0.5,
                    output: 1.0,
                },
            ),
        ]);
        let shown = text(&vai_http::pricing_table(&pricing));
        assert!(
            shown.contains(&format!("listed them on {PRICED_AT}")),
            "{shown}"
        );
        assert!(shown.contains("\nvoyage · https://docs.voyageai.com/docs/pricing\n"));
        let line = |model: &str| {
            shown
                .lines()
                .find(|l| l.trim_start().starts_with(&format!("{model} ")))
                .unwrap_or_else(|| panic!("{model} in {shown}"))
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        };
        assert_eq!(line("voyage-4-large"), "voyage-4-large embedding $0.12");
        assert_eq!(
            line("claude-haiku-4-5"),
            "claude-haiku-4-5 llm $1 in · $5 out"
        );
        assert_eq!(line("gpt-4o"), "gpt-4o llm $1 in · $4 out (.vai.json)");
        assert_eq!(line("all-minilm-l6-v2"), "all-minilm-l6-v2 embedding free");
        assert!(shown.contains("\n.vai.json · your own prices\n"), "{shown}");
        assert_eq!(line("house-llm"), "house-llm $0.5 in · $1 out");
    }
}
