//! `/api/pricing`: the price table runs price model calls with (no secrets in it), so the
//! playground can show what a model costs.

use super::json::Json;
use crate::state::AppState;
use axum::extract::State;
use vai_contract::{ModelPriceView, PricingTable};
use vai_providers::Pricing;
use vai_providers::pricing::{LOCAL, OVERRIDE, PRICED_AT, TABLE, Vendor};

pub(super) async fn table(State(state): State<AppState>) -> Json<PricingTable> {
    Json(pricing_table(&state.inner().pricing))
}

/// The table's models at their prices — an override's where `.vai.json` sets one — then the
/// models only `.vai.json` prices. `vai models` shows the same.
pub fn pricing_table(pricing: &Pricing) -> PricingTable {
    let overrides = pricing.overrides();
    let mut models: Vec<ModelPriceView> = TABLE
        .iter()
        .map(|row| {
            let set = overrides.get(&row.model.to_ascii_lowercase());
            let (input, output, priced_at) = match (set, row.vendor) {
                (Some(rate), _) => (rate.input, rate.output, OVERRIDE),
                (None, Vendor::Local) => (row.input, row.output, LOCAL),
                (None, _) => (row.input, row.output, PRICED_AT),
            };
            ModelPriceView {
                model: row.model.into(),
                vendor: Some(row.vendor.as_str().into()),
                model_use: serde_json::to_value(row.model_use)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_string)),
                input_per_mtok: input,
                output_per_mtok: output,
                priced_at: priced_at.into(),
                source: row.source().map(str::to_string),
            }
        })
        .collect();
    let listed = |name: &str| TABLE.iter().any(|r| r.model.eq_ignore_ascii_case(name));
    models.extend(
        overrides
            .iter()
            .filter(|(name, _)| !listed(name))
            .map(|(name, rate)| ModelPriceView {
                model: name.clone(),
                vendor: None,
                model_use: None,
                input_per_mtok: rate.input,
                output_per_mtok: rate.output,
                priced_at: OVERRIDE.into(),
                source: None,
            }),
    );
    PricingTable {
        priced_at: PRICED_AT.into(),
        models,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use vai_providers::pricing::Rate;

    #[test]
    fn the_table_shows_overrides_where_set_and_the_project_s_own_models_last() {
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
        let table = pricing_table(&pricing);
        assert_eq!(table.priced_at, PRICED_AT);
        let model = |name: &str| table.models.iter().find(|m| m.model == name).unwrap();
        let large = model("voyage-4-large");
        assert_eq!(
            (large.input_per_mtok, large.model_use.as_deref()),
            (0.12, Some("embedding"))
        );
        assert_eq!(
            large.source.as_deref(),
            Some("https://docs.voyageai.com/docs/pricing")
        );
        assert_eq!(
            (
                model("gpt-4o").input_per_mtok,
                model("gpt-4o").priced_at.as_str()
            ),
            (1.0, OVERRIDE)
        );
        assert_eq!(model("all-minilm-l6-v2").priced_at, LOCAL);
        let last = table.models.last().unwrap();
        assert_eq!(
            (last.model.as_str(), last.vendor.as_ref()),
            ("house-llm", None)
        );
    }
}
