//! Constrained decoding: while the local model writes an answer that must follow a schema
//! (`responseFormat`), only tokens whose text keeps the answer valid may be chosen. The others'
//! logits are set to −∞ before the sampler sees them, so a 135M model still writes JSON the
//! schema allows, every time.

use crate::structured::Checker;

/// Tokens kept for the sampler (the valid ones with the highest logits).
const KEEP: usize = 8;
/// Tokens tried in logit order before the whole vocabulary is searched.
const FIRST_LOOK: usize = 512;

/// Each token's text, when it is whole UTF-8 (a token holding part of a character is never
/// chosen under a schema).
pub(super) fn token_texts(count: usize, bytes: impl Fn(u32) -> Vec<u8>) -> Vec<Option<String>> {
    (0..count as u32)
        .map(|id| String::from_utf8(bytes(id)).ok().filter(|t| !t.is_empty()))
        .collect()
}

/// Leave in `logits` only the best tokens that keep `checker` valid (and `end`, when the answer
/// may end here); false when none can.
pub(super) fn constrain(
    logits: &mut [f32],
    checker: &Checker<'_>,
    texts: &[Option<String>],
    end: u32,
) -> bool {
    let fits = |id: usize| {
        texts.get(id).and_then(Option::as_ref).is_some_and(|text| {
            let mut trial = checker.clone();
            trial.feed_str(text)
        })
    };
    let mut order: Vec<usize> = (0..logits.len()).collect();
    let look = FIRST_LOOK.min(order.len());
    if look < order.len() {
        order.select_nth_unstable_by(look, |&a, &b| logits[b].total_cmp(&logits[a]));
    }
    order[..look].sort_unstable_by(|&a, &b| logits[b].total_cmp(&logits[a]));
    let mut kept: Vec<usize> = order[..look]
        .iter()
        .copied()
        .filter(|&id| fits(id))
        .take(KEEP)
        .collect();
    if kept.is_empty() {
        // Nothing the model likes fits: the best of everything that does.
        let mut rest: Vec<usize> = order[look..]
            .iter()
            .copied()
            .filter(|&id| fits(id))
            .collect();
        rest.sort_unstable_by(|&a, &b| logits[b].total_cmp(&logits[a]));
        rest.truncate(KEEP);
        kept = rest;
    }
    if checker.can_end() {
        kept.push(end as usize);
    }
    if kept.is_empty() {
        return false;
    }
    let mut masked = vec![f32::NEG_INFINITY; logits.len()];
    for id in kept {
        if let Some(l) = logits.get(id) {
            masked[id] = *l;
        }
    }
    logits.copy_from_slice(&masked);
    true
}
