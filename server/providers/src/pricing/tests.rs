use super::*;

fn rate(input: f64, output: f64) -> Rate {
    Rate { input, output }
}

fn priced(rate: Rate, priced_at: &'static str) -> Quote {
    Quote::Priced { rate, priced_at }
}

#[test]
fn the_table_has_unique_names_sources_and_sane_prices() {
    let mut names: Vec<String> = TABLE.iter().map(|r| r.model.to_lowercase()).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), TABLE.len(), "a model is listed twice");
    for row in TABLE {
        assert!(row.input >= 0.0 && row.output >= 0.0, "{}", row.model);
        assert_eq!(row.vendor == Vendor::Local, row.source().is_none());
        assert_eq!(
            row.vendor == Vendor::Local,
            row.input == 0.0,
            "only local models are free: {}",
            row.model
        );
        if row.model_use != ModelUse::Llm {
            assert_eq!(row.output, 0.0, "{} has no output tokens", row.model);
        }
    }
}

#[test]
fn exact_names_are_found_in_any_case() {
    let p = Pricing::default();
    assert_eq!(
        p.quote("voyage", "voyage-4-large"),
        priced(rate(0.12, 0.0), PRICED_AT)
    );
    assert_eq!(
        p.quote("openai", "GPT-4o-mini"),
        priced(rate(0.15, 0.60), PRICED_AT)
    );
    assert_eq!(
        p.quote("voyage", "voyageai/rerank-2.5"),
        priced(rate(0.05, 0.0), PRICED_AT)
    );
}

#[test]
fn dated_snapshots_and_aliases_take_their_family_s_price() {
    for (model, family) in [
        ("claude-sonnet-4-5-20250929", "claude-sonnet-4-5"),
        ("claude-sonnet-4-20250514", "claude-sonnet-4"),
        ("claude-3-5-haiku-latest", "claude-3-5-haiku"),
        ("claude-opus-4-0", "claude-opus-4"),
        ("gpt-4o-2024-08-06", "gpt-4o"),
        ("gpt-4o-mini-2024-07-18", "gpt-4o-mini"),
        ("gpt-5-2025-08-07", "gpt-5"),
    ] {
        assert_eq!(find(model).map(|r| r.model), Some(family), "{model}");
    }
    // A snapshot with a price of its own keeps it.
    assert_eq!(find("gpt-4o-2024-05-13").unwrap().input, 5.0);
}

#[test]
fn names_are_never_matched_by_prefix() {
    for model in [
        "gpt-4o-mini-tts",
        "gpt-4",
        "claude-sonnet",
        "claude-sonnet-4-7",
        "voyage-4-large-x",
        "ft:gpt-4o-mini:acme",
        "gpt-4o-2024",
        "llama3.1",
    ] {
        assert!(find(model).is_none(), "{model} matched {:?}", find(model));
    }
    assert_eq!(
        find("claude-sonnet-4-5").unwrap().model,
        "claude-sonnet-4-5"
    );
    assert_eq!(find("gpt-4.1-mini").unwrap().output, 1.60);
}

#[test]
fn an_unknown_model_has_no_price_and_says_how_to_add_one() {
    let Quote::Unknown { reason } = Pricing::default().quote("openai", "gpt-9") else {
        panic!("gpt-9 has no price");
    };
    assert!(
        reason.starts_with("no price is known for \"gpt-9\""),
        "{reason}"
    );
    assert!(
        reason.contains("\"pricing\": {\"gpt-9\": {\"input\":") && reason.contains(".vai.json"),
        "{reason}"
    );
}

#[test]
fn local_models_and_backends_cost_nothing() {
    let p = Pricing::default();
    let free = priced(rate(0.0, 0.0), LOCAL);
    assert_eq!(p.quote("local", "all-minilm-l6-v2"), free);
    assert_eq!(p.quote("local", "SmolLM2-135M-Instruct"), free);
    // Ollama runs here whatever the model is called, even a hosted model's name.
    assert_eq!(p.quote("ollama", "llama3.1"), free);
    assert_eq!(p.quote_model("voyage-4-nano"), free);
    assert_eq!(p.quote_model("smollm2-135m-instruct"), free);
}

#[test]
fn overrides_win_and_say_so() {
    let p = Pricing::with_overrides([
        ("GPT-4o".to_string(), rate(1.0, 4.0)),
        ("my-model".to_string(), rate(0.3, 0.0)),
    ]);
    assert_eq!(
        p.quote("openai", "gpt-4o"),
        priced(rate(1.0, 4.0), OVERRIDE)
    );
    assert_eq!(
        p.quote("openai", "gpt-4o-2024-08-06"),
        priced(rate(1.0, 4.0), OVERRIDE)
    );
    assert_eq!(
        p.quote("fake", "My-Model"),
        priced(rate(0.3, 0.0), OVERRIDE)
    );
    assert_eq!(
        p.quote("ollama", "my-model"),
        priced(rate(0.3, 0.0), OVERRIDE),
        "a price set for a local model is the one asked for"
    );
    assert_eq!(
        p.quote("openai", "gpt-4o-mini"),
        priced(rate(0.15, 0.60), PRICED_AT)
    );
}

#[test]
fn a_rate_prices_tokens_per_million() {
    let r = rate(3.0, 15.0);
    assert!((r.usd(1_000_000, 0) - 3.0).abs() < 1e-12);
    assert!((r.usd(812, 96) - 0.003876).abs() < 1e-12);
}

#[test]
fn a_charge_prices_a_call_or_names_the_model_it_cannot() {
    let p = Pricing::default();
    let usage = TokenUsage {
        input_tokens: 2_000_000,
        output_tokens: 1_000_000,
    };
    let charge = p.charge("anthropic", "claude-haiku-4-5", usage, true);
    assert_eq!(
        (charge.usd, charge.input_per_mtok, charge.output_per_mtok),
        (Some(7.0), Some(1.0), Some(5.0))
    );
    let charge = p.charge(
        "voyage",
        "voyage-4-lite",
        TokenUsage::input(1_000_000),
        false,
    );
    assert_eq!((charge.usd, charge.output_per_mtok), (Some(0.02), None));
    let charge = p.charge("openai", "gpt-9", usage, true);
    assert_eq!((charge.usd, charge.priced_at), (None, PRICED_AT));
    assert_eq!(charge.unpriced.as_deref(), Some("gpt-9"));
    assert!(charge.reason.unwrap().contains("gpt-9"));
}

/// The table as docs/configuration.md shows it.
fn table_markdown() -> String {
    let mut out = format!(
        "Dollars per million tokens, as of {PRICED_AT}. Sources: [Voyage AI]({}), [OpenAI]({}), \
         [Anthropic]({}).\n\n| model | vendor | use | input | output |\n|---|---|---|---|---|\n",
        Vendor::Voyage.source().unwrap_or_default(),
        Vendor::OpenAi.source().unwrap_or_default(),
        Vendor::Anthropic.source().unwrap_or_default(),
    );
    for row in TABLE {
        let use_ = match row.model_use {
            ModelUse::Embedding => "embedding",
            ModelUse::Rerank => "rerank",
            ModelUse::Llm => "llm",
        };
        let (input, output) = match (row.vendor, row.model_use) {
            (Vendor::Local, _) => ("free".to_string(), "free".to_string()),
            (_, ModelUse::Llm) => (format!("${}", row.input), format!("${}", row.output)),
            _ => (format!("${}", row.input), "—".to_string()),
        };
        out.push_str(&format!(
            "| `{}` | {} | {use_} | {input} | {output} |\n",
            row.model,
            row.vendor.as_str()
        ));
    }
    out
}

/// docs/configuration.md lists the table exactly, between its markers; regenerate with
/// `VAI_UPDATE_GENERATED=1 cargo test -p vai-providers pricing`.
#[test]
fn the_configuration_doc_lists_every_model_of_the_table() {
    const START: &str =
        "<!-- pricing table: generated by `cargo test -p vai-providers pricing`; do not edit -->\n";
    const END: &str = "<!-- end of the pricing table -->";
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/configuration.md");
    let mut doc = std::fs::read_to_string(&path).unwrap_or_default();
    let (Some(start), Some(end)) = (doc.find(START), doc.find(END)) else {
        panic!("{} has no pricing table markers", path.display());
    };
    let generated = format!(
        "{}{START}{}{}",
        &doc[..start],
        table_markdown(),
        &doc[end..]
    );
    if std::env::var_os("VAI_UPDATE_GENERATED").is_some() {
        std::fs::write(&path, &generated).unwrap();
        doc.clone_from(&generated);
    }
    assert!(
        doc == generated,
        "{}'s pricing table is out of date: run VAI_UPDATE_GENERATED=1 cargo test -p vai-providers pricing",
        path.display()
    );
}
