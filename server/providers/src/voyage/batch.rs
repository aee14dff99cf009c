//! How large inputs are split into Voyage AI requests: the per-request limits of each model, a
//! conservative token estimate, and the order-preserving split itself.

use std::ops::Range;

/// Most texts one `/embeddings` request may carry.
pub const MAX_EMBED_INPUTS: usize = 1_000;

/// Most documents one `/rerank` request may carry.
pub const MAX_RERANK_DOCUMENTS: usize = 1_000;

/// Total tokens one `/embeddings` request may carry for `model`, as Voyage AI documents them.
/// Models not listed get the smallest limit, which is safe for all of them.
pub fn embed_token_limit(model: &str) -> u64 {
    match model.to_ascii_lowercase().as_str() {
        "voyage-4-lite" | "voyage-3.5-lite" | "voyage-3-lite" => 1_000_000,
        "voyage-4" | "voyage-3.5" | "voyage-3" | "voyage-2" => 320_000,
        // voyage-4-large, voyage-3-large, voyage-code-3, voyage-finance-2, voyage-law-2, …
        _ => 120_000,
    }
}

/// Total tokens one `/rerank` request may carry for `model`, counted as Voyage AI does: query
/// tokens × documents + the documents' tokens. Models not listed get the smallest limit.
pub fn rerank_token_limit(model: &str) -> u64 {
    match model.to_ascii_lowercase().as_str() {
        "rerank-2.5" | "rerank-2.5-lite" | "rerank-2" | "rerank-2-lite" => 600_000,
        "rerank-lite-1" => 300_000,
        _ => 100_000,
    }
}

/// Tokens `text` may count for, estimated without Voyage's tokenizer (not available here): one per
/// started group of 3 bytes. Voyage's tokenizers average about 4–5 bytes per token on English
/// prose, so this over-counts and planned batches stay under the limits; text that tokenizes
/// worse (hex, base64) is caught by halving a batch the service rejects.
pub fn estimate_tokens(text: &str) -> u64 {
    (text.len() as u64).div_ceil(3).max(1)
}

/// Splits items, in order, into contiguous batches of at most `max_count` items whose costs sum
/// to at most `budget`. Filling each batch greedily gives the fewest batches any order-preserving
/// split can have under these limits. An item costing more than `budget` goes alone (the service
/// truncates it or says why not).
pub fn plan(
    costs: impl IntoIterator<Item = u64>,
    max_count: usize,
    budget: u64,
) -> Vec<Range<usize>> {
    let mut batches = Vec::new();
    let (mut start, mut len, mut used) = (0, 0, 0u64);
    for cost in costs {
        if len > 0 && (len == max_count || used.saturating_add(cost) > budget) {
            batches.push(start..start + len);
            (start, len, used) = (start + len, 0, 0);
        }
        len += 1;
        used = used.saturating_add(cost);
    }
    if len > 0 {
        batches.push(start..start + len);
    }
    batches
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_follow_the_model_family() {
        assert_eq!(embed_token_limit("voyage-4-lite"), 1_000_000);
        assert_eq!(embed_token_limit("voyage-3.5-lite"), 1_000_000);
        assert_eq!(embed_token_limit("Voyage-4"), 320_000);
        assert_eq!(embed_token_limit("voyage-3.5"), 320_000);
        assert_eq!(embed_token_limit("voyage-4-large"), 120_000);
        assert_eq!(embed_token_limit("voyage-3-large"), 120_000);
        assert_eq!(embed_token_limit("voyage-code-3"), 120_000);
        assert_eq!(embed_token_limit("voyage-9-unknown"), 120_000);
        assert_eq!(rerank_token_limit("rerank-2.5"), 600_000);
        assert_eq!(rerank_token_limit("rerank-1"), 100_000);
    }

    #[test]
    fn tokens_are_estimated_from_bytes_rounding_up() {
        assert_eq!(estimate_tokens(""), 1);
        assert_eq!(estimate_tokens("abc"), 1);
        assert_eq!(estimate_tokens("abcd"), 2);
        assert_eq!(estimate_tokens(&"x".repeat(512)), 171);
        assert_eq!(estimate_tokens("é"), 1, "bytes, not chars");
    }

    #[test]
    fn plan_splits_by_count_and_by_budget_in_order() {
        assert_eq!(plan([1; 5], 2, 100), [0..2, 2..4, 4..5]);
        assert_eq!(plan([40, 40, 40, 10, 90], 10, 100), [0..2, 2..4, 4..5]);
        assert_eq!(
            plan([500, 1, 1], 10, 100),
            [0..1, 1..3],
            "oversized item alone"
        );
        assert_eq!(plan([1, 500, 1], 10, 100), [0..1, 1..2, 2..3]);
        assert!(plan(Vec::<u64>::new(), 10, 100).is_empty());
    }

    #[test]
    fn every_planned_batch_is_full_and_within_limits() {
        // Varied sizes: each batch respects both limits, and none could have taken the next item.
        let costs: Vec<u64> = (0..5_000u64).map(|i| (i * 7919) % 997 + 1).collect();
        let batches = plan(costs.iter().copied(), 300, 50_000);
        let mut next = 0;
        for b in &batches {
            assert_eq!(b.start, next, "contiguous and in order");
            next = b.end;
            let sum: u64 = costs[b.clone()].iter().sum();
            assert!(b.len() <= 300 && sum <= 50_000);
            if let Some(&following) = costs.get(b.end) {
                assert!(
                    b.len() == 300 || sum + following > 50_000,
                    "batch {b:?} not full"
                );
            }
        }
        assert_eq!(next, costs.len());
    }
}
