//! The in-memory side of exact search: one collection's vectors at one size, unit length and
//! contiguous, with their documents, and the top-k scan split across cores.

use crate::Document;
use crate::mql::Filter;
use std::cmp::Ordering;
use std::collections::{BinaryHeap, HashMap};
use std::hash::{DefaultHasher, Hash, Hasher};
use std::ops::Range;
use std::thread;

/// Below this many vectors per thread, spawning threads costs more than it saves.
const MIN_VECTORS_PER_THREAD: usize = 4096;

/// The documents of a collection whose embeddings have `dims` components, in `seq` order.
#[derive(Debug)]
pub(super) struct VectorCache {
    pub(super) dims: usize,
    /// The highest `seq` read so far, including documents without a usable vector.
    pub(super) max_seq: i64,
    pub(super) seqs: Vec<i64>,
    /// `seqs.len() * dims` components; each vector scaled to unit length (zero stays zero), so
    /// a dot product with a unit query is the cosine.
    vectors: Vec<f32>,
    /// The stored documents without their embedding field (what filters and projections read).
    pub(super) docs: Vec<Document>,
    /// Position of the first document with a given `text` (by hash; compared on lookup).
    by_text: HashMap<u64, usize>,
}

/// A scored position in the cache. Ordered worst-first, so a `BinaryHeap` keeps the worst of
/// the current top k on top; ties go to the earlier document, like a stable sort.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Hit {
    pub(super) score: f32,
    pub(super) pos: usize,
}

impl Eq for Hit {}

impl Ord for Hit {
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .score
            .total_cmp(&self.score)
            .then(self.pos.cmp(&other.pos))
    }
}

impl PartialOrd for Hit {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl VectorCache {
    pub(super) fn new(dims: usize) -> Self {
        VectorCache {
            dims,
            max_seq: 0,
            seqs: Vec::new(),
            vectors: Vec::new(),
            docs: Vec::new(),
            by_text: HashMap::new(),
        }
    }

    /// Add the row `seq`. A document without an embedding blob of exactly `dims` f32s is not
    /// searchable at this size (as Atlas skips vectors that do not fit its index).
    pub(super) fn push(&mut self, seq: i64, doc: Document, embedding: Option<&[u8]>) {
        self.max_seq = self.max_seq.max(seq);
        let Some(blob) = embedding.filter(|b| b.len() == self.dims * 4) else {
            return;
        };
        let start = self.vectors.len();
        self.vectors.extend(
            blob.chunks_exact(4)
                .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])),
        );
        normalise(&mut self.vectors[start..]);
        if let Some(text) = doc.get("text").and_then(|t| t.as_str()) {
            self.by_text.entry(hash_of(text)).or_insert(self.docs.len());
        }
        self.seqs.push(seq);
        self.docs.push(doc);
    }

    /// The stored (unit) vector of a document whose `text` is exactly `text`.
    pub(super) fn vector_of_text(&self, text: &str) -> Option<&[f32]> {
        let &pos = self.by_text.get(&hash_of(text))?;
        let same = self.docs[pos].get("text").and_then(|t| t.as_str()) == Some(text);
        same.then(|| &self.vectors[pos * self.dims..(pos + 1) * self.dims])
    }

    /// The best `k` positions for the unit vector `query` among documents passing `filter`,
    /// best first. Exact: every candidate is scored.
    pub(super) fn top_k(&self, query: &[f32], k: usize, filter: Option<&Filter>) -> Vec<Hit> {
        let n = self.seqs.len();
        let k = k.min(n);
        if k == 0 {
            return Vec::new();
        }
        let cores = thread::available_parallelism().map_or(1, |c| c.get());
        let threads = cores.min(n / MIN_VECTORS_PER_THREAD).max(1);
        let per_thread = n.div_ceil(threads);
        let ranges: Vec<Range<usize>> = (0..threads)
            .map(|t| t * per_thread..((t + 1) * per_thread).min(n))
            .collect();
        let mut hits: Vec<Hit> = if threads == 1 {
            self.scan(query, k, filter, 0..n)
        } else {
            thread::scope(|s| {
                let spawned: Vec<_> = ranges[1..]
                    .iter()
                    .map(|r| {
                        let r = r.clone();
                        s.spawn(move || self.scan(query, k, filter, r))
                    })
                    .collect();
                let mut all = self.scan(query, k, filter, ranges[0].clone());
                for handle in spawned {
                    all.extend(
                        handle
                            .join()
                            .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
                    );
                }
                all
            })
        };
        hits.sort_unstable();
        hits.truncate(k);
        hits
    }

    fn scan(
        &self,
        query: &[f32],
        k: usize,
        filter: Option<&Filter>,
        range: Range<usize>,
    ) -> Vec<Hit> {
        let d = self.dims;
        let mut heap: BinaryHeap<Hit> = BinaryHeap::with_capacity(k + 1);
        let vectors = self.vectors[range.start * d..range.end * d].chunks_exact(d);
        for (pos, vector) in range.zip(vectors) {
            if filter.is_some_and(|f| !f.matches(&self.docs[pos])) {
                continue;
            }
            let hit = Hit {
                score: dot(query, vector),
                pos,
            };
            if heap.len() < k {
                heap.push(hit);
            } else if let Some(mut worst) = heap.peek_mut()
                && hit < *worst
            {
                *worst = hit;
            }
        }
        heap.into_vec()
    }
}

/// Scale to unit length in place (accumulating in f64); the zero vector stays zero.
fn hash_of(text: &str) -> u64 {
    let mut h = DefaultHasher::new();
    text.hash(&mut h);
    h.finish()
}

pub(super) fn normalise(v: &mut [f32]) {
    let norm = v.iter().map(|x| f64::from(*x).powi(2)).sum::<f64>().sqrt();
    if norm > 0.0 {
        v.iter_mut()
            .for_each(|x| *x = (f64::from(*x) / norm) as f32);
    }
}

/// Dot product with eight independent accumulators, a shape LLVM turns into SIMD lanes (f32
/// addition is not associative, so a single running sum would stay scalar).
#[inline]
pub(super) fn dot(a: &[f32], b: &[f32]) -> f32 {
    let (ca, cb) = (a.chunks_exact(8), b.chunks_exact(8));
    let tail: f32 = ca
        .remainder()
        .iter()
        .zip(cb.remainder())
        .map(|(x, y)| x * y)
        .sum();
    let mut acc = [0.0f32; 8];
    for (x, y) in ca.zip(cb) {
        let x: &[f32; 8] = x.try_into().expect("chunks of 8");
        let y: &[f32; 8] = y.try_into().expect("chunks of 8");
        for ((s, x), y) in acc.iter_mut().zip(x).zip(y) {
            *s += x * y;
        }
    }
    acc.iter().sum::<f32>() + tail
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Map, json};

    fn blob(v: &[f32]) -> Vec<u8> {
        v.iter().flat_map(|x| x.to_le_bytes()).collect()
    }

    #[test]
    fn dot_matches_a_plain_sum_for_every_length() {
        for len in [0, 1, 7, 8, 9, 16, 37, 384] {
            let a: Vec<f32> = (0..len).map(|i| (i as f32 * 0.37).sin()).collect();
            let b: Vec<f32> = (0..len).map(|i| (i as f32 * 0.11).cos()).collect();
            let plain: f64 = a.iter().zip(&b).map(|(x, y)| f64::from(x * y)).sum();
            assert!((f64::from(dot(&a, &b)) - plain).abs() < 1e-4, "len {len}");
        }
    }

    #[test]
    fn top_k_keeps_the_best_and_breaks_ties_by_position() {
        let mut c = VectorCache::new(2);
        for (seq, v) in [[1.0, 0.0], [0.0, 2.0], [3.0, 0.0], [1.0, 1.0]]
            .iter()
            .enumerate()
        {
            let mut doc = Map::new();
            doc.insert("i".into(), json!(seq));
            c.push(seq as i64 + 1, doc, Some(&blob(v)));
        }
        c.push(9, Map::new(), Some(&blob(&[1.0, 0.0, 0.0])));
        assert_eq!((c.seqs.len(), c.max_seq), (4, 9));
        let positions = |hits: Vec<Hit>| hits.iter().map(|h| h.pos).collect::<Vec<_>>();
        assert_eq!(positions(c.top_k(&[1.0, 0.0], 3, None)), [0, 2, 3]);
        let odd = Filter::parse(json!({"i": {"$in": [1, 3]}}).as_object().unwrap()).unwrap();
        assert_eq!(positions(c.top_k(&[1.0, 0.0], 5, Some(&odd))), [3, 1]);
        assert!(c.top_k(&[1.0, 0.0], 0, None).is_empty());
    }
}
