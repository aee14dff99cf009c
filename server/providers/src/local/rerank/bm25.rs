//! BM25 over a rerank's candidates: the lexical half of the fused score.

use std::collections::HashMap;

/// BM25 term-frequency saturation.
const K1: f64 = 1.2;
/// BM25 document-length normalisation.
const B: f64 = 0.75;

/// Lowercase alphanumeric words.
fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// BM25 of `query` against each document, with document frequencies over `documents`, divided
/// by the largest score (all zeros when no document shares a query word).
pub(super) fn bm25_normalised(query: &str, documents: &[String]) -> Vec<f64> {
    let docs: Vec<Vec<String>> = documents.iter().map(|d| words(d)).collect();
    let n = docs.len() as f64;
    let avg_len = (docs.iter().map(Vec::len).sum::<usize>() as f64 / n).max(1.0);
    let mut terms = words(query);
    terms.sort();
    terms.dedup();
    let frequencies: Vec<HashMap<&str, usize>> = docs
        .iter()
        .map(|d| {
            let mut tf = HashMap::new();
            for w in d {
                *tf.entry(w.as_str()).or_insert(0) += 1;
            }
            tf
        })
        .collect();
    let mut scores = vec![0.0f64; docs.len()];
    for term in &terms {
        let df = frequencies
            .iter()
            .filter(|tf| tf.contains_key(term.as_str()))
            .count() as f64;
        if df == 0.0 {
            continue;
        }
        // The "plus one" IDF (as in Lucene) stays positive even for words in every candidate.
        let idf = (1.0 + (n - df + 0.5) / (df + 0.5)).ln();
        for ((score, tf), doc) in scores.iter_mut().zip(&frequencies).zip(&docs) {
            let f = tf.get(term.as_str()).copied().unwrap_or(0) as f64;
            if f > 0.0 {
                let norm = K1 * (1.0 - B + B * doc.len() as f64 / avg_len);
                *score += idf * f * (K1 + 1.0) / (f + norm);
            }
        }
    }
    let best = scores.iter().copied().fold(0.0, f64::max);
    if best > 0.0 {
        scores.iter_mut().for_each(|s| *s /= best);
    }
    scores
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bm25_weighs_rarer_words_more_and_normalises_to_one() {
        let docs: Vec<String> = [
            "the cat sat on the mat",
            "the dog",
            "a cat and a dog",
            "the end",
            "nothing in common",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let s = bm25_normalised("the cat", &docs);
        assert_eq!(s[0], 1.0);
        assert_eq!(s[4], 0.0);
        assert!(s[2] > s[1], "cat is rarer than the: {s:?}");
        assert!(s.iter().all(|x| (0.0..=1.0).contains(x)));
        assert!(bm25_normalised("zebra", &docs).iter().all(|x| *x == 0.0));
    }
}
