//! Tokens and cost in words, as progress lines, the line a run ends with and chat turns show
//! them: `812→96 tok · $0.0021`, `12 tok · $0` (a local model), `$? (gpt-9 unpriced)`.

use vai_workflow::{Cost, EstimateCost, RunStatus, Usage};

/// The tokens and cost of `usage`, `·`-separated; `None` when it has neither.
pub(crate) fn usage(usage: &Usage) -> Option<String> {
    let mut parts = Vec::new();
    let read = usage.embed_tokens + usage.rerank_tokens;
    if read > 0 {
        parts.push(format!("{read} tok"));
    }
    if usage.llm_input_tokens + usage.llm_output_tokens > 0 {
        parts.push(format!(
            "{}→{} tok",
            usage.llm_input_tokens, usage.llm_output_tokens
        ));
    }
    parts.extend(usage.cost.as_ref().map(cost));
    (!parts.is_empty()).then(|| parts.join(" · "))
}

/// A cost in dollars (`$0` for a model that ran here), with the models that have no price,
/// which are never shown as free.
pub(crate) fn cost(cost: &Cost) -> String {
    let unpriced = if cost.unpriced.is_empty() {
        String::new()
    } else {
        format!(" ({} unpriced)", cost.unpriced.join(", "))
    };
    match cost.usd {
        None => format!("$?{unpriced}"),
        Some(usd) if !unpriced.is_empty() => format!("{} + ?{unpriced}", dollars(usd)),
        Some(usd) => dollars(usd),
    }
}

/// Dollars to a precision that shows a single call: `$0.0021`, `$1.23`, `<$0.0001`.
pub(crate) fn dollars(usd: f64) -> String {
    if usd == 0.0 {
        "$0".to_string()
    } else if usd < 0.0001 {
        "<$0.0001".to_string()
    } else if usd < 1.0 {
        format!("${usd:.4}")
    } else {
        format!("${usd:.2}")
    }
}

/// The line a run ends with on stderr: `done in 1234ms · 812→96 tok · $0.0021`, `cancelled
/// after …`; after a failed run's error, what it used before failing (`used …`) if anything.
pub(crate) fn finished(status: RunStatus, duration_ms: u64, used: &Usage) -> Option<String> {
    let spent = usage(used);
    let with_spent = |line: String| match &spent {
        Some(spent) => format!("{line} · {spent}"),
        None => line,
    };
    match status {
        RunStatus::Completed => Some(with_spent(format!("done in {duration_ms}ms"))),
        RunStatus::Cancelled => Some(with_spent(format!("cancelled after {duration_ms}ms"))),
        RunStatus::Failed => spent.map(|s| format!("used {s}")),
        RunStatus::Waiting => None,
    }
}

/// The dry run's cost lines: the cost per run and per item, with what they assume and why a
/// price is missing.
pub(crate) fn estimate(estimate: &EstimateCost) -> Vec<String> {
    let mut lines = vec!["Estimated cost:".to_string()];
    let mut reasons: Vec<&str> = Vec::new();
    for (label, cost) in [
        ("per run", &estimate.fixed),
        ("per item", &estimate.per_item),
    ] {
        let Some(cost) = cost else { continue };
        let shown = self::cost(cost);
        let shown = if label == "per item" {
            format!("≈ {shown} per forEach/loop item")
        } else {
            format!("≈ {shown}")
        };
        lines.push(format!("  {label:<16} {shown}"));
        reasons.extend(cost.reason.as_deref().filter(|r| !reasons.contains(r)));
    }
    if lines.len() == 1 {
        lines.push("  no step calls a model".to_string());
    }
    lines.extend(reasons.iter().map(|r| format!("  ! {r}")));
    lines.push(format!("  ({})", estimate.assumptions));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn priced(usd: Option<f64>, priced_at: &str, unpriced: &[&str]) -> Cost {
        Cost {
            usd,
            priced_at: priced_at.into(),
            unpriced: unpriced.iter().map(|m| m.to_string()).collect(),
            ..Cost::default()
        }
    }

    #[test]
    fn tokens_and_cost_read_as_one_short_phrase() {
        let answer = Usage {
            llm_input_tokens: 812,
            llm_output_tokens: 96,
            requests: 1,
            cost: Some(priced(Some(0.0021), "2026-11-28", &[])),
            ..Usage::default()
        };
        assert_eq!(usage(&answer).unwrap(), "812→96 tok · $0.0021");
        let local = Usage {
            embed_tokens: 12,
            cost: Some(priced(Some(0.0), "local", &[])),
            ..Usage::default()
        };
        assert_eq!(usage(&local).unwrap(), "12 tok · $0");
        assert_eq!(usage(&Usage::default()), None);
    }

    #[test]
    fn unpriced_models_are_never_shown_as_free() {
        assert_eq!(
            cost(&priced(None, "2026-11-28", &["gpt-9"])),
            "$? (gpt-9 unpriced)"
        );
        assert_eq!(
            cost(&priced(Some(0.5), "2026-11-28", &["gpt-9", "x"])),
            "$0.5000 + ? (gpt-9, x unpriced)"
        );
        assert_eq!(dollars(12.345), "$12.35");
        assert_eq!(dollars(0.00001), "<$0.0001");
    }

    #[test]
    fn a_dry_run_shows_the_cost_per_run_and_per_item_and_why_one_is_missing() {
        let lines = estimate(&EstimateCost {
            fixed: Some(priced(Some(0.000335), "2026-11-28", &[])),
            per_item: Some(Cost {
                reason: Some("no price is known for \"gpt-9\".".into()),
                ..priced(None, "2026-11-28", &["gpt-9"])
            }),
            assumptions: "assuming 500 tokens a call".into(),
        });
        assert_eq!(
            lines,
            [
                "Estimated cost:",
                "  per run          ≈ $0.0003",
                "  per item         ≈ $? (gpt-9 unpriced) per forEach/loop item",
                "  ! no price is known for \"gpt-9\".",
                "  (assuming 500 tokens a call)",
            ]
        );
    }

    #[test]
    fn a_run_ends_with_what_it_spent() {
        let used = Usage {
            llm_input_tokens: 10,
            llm_output_tokens: 2,
            cost: Some(priced(Some(1.5), "2026-11-28", &[])),
            ..Usage::default()
        };
        assert_eq!(
            finished(RunStatus::Completed, 40, &used).unwrap(),
            "done in 40ms · 10→2 tok · $1.50"
        );
        assert_eq!(
            finished(RunStatus::Completed, 40, &Usage::default()).unwrap(),
            "done in 40ms"
        );
        assert_eq!(
            finished(RunStatus::Failed, 40, &used).unwrap(),
            "used 10→2 tok · $1.50"
        );
        assert_eq!(finished(RunStatus::Failed, 40, &Usage::default()), None);
    }
}
