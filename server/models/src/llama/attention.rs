//! The KV cache and grouped-query attention over it: the work of a layer's attention cut into
//! tasks (a few tokens × one key/value head × a range of positions) that the pool's threads
//! share, each computed by the chosen [`Kernel`], then merged.

use super::config::Config;
use super::kernels::{Kernel, LANES, Partial, Span, Stored};
use half::f16;
use rayon::prelude::*;

/// Keys and values of the positions seen so far, one set per layer; each request brings its
/// own. In f16 with the SIMD kernels (about 23 KB per position for SmolLM2-135M: half the
/// memory, and half the bytes each new token reads), else in f32.
pub struct KvCache {
    pub(super) layers: Vec<LayerCache>,
    pub(super) len: usize,
}

impl KvCache {
    /// An empty cache with room for `positions` without reallocating (growing a cache of tens
    /// of megabytes by doubling would leave the old blocks behind in the allocator).
    pub(super) fn new(cfg: &Config, positions: usize, half: bool) -> KvCache {
        fn heads<E: Stored>(cfg: &Config, positions: usize) -> Vec<HeadCache<E>> {
            let hd = cfg.head_dim;
            let head = || HeadCache {
                keys: Vec::with_capacity(positions.next_multiple_of(LANES) * hd),
                values: Vec::with_capacity(positions * hd),
            };
            (0..cfg.kv_heads).map(|_| head()).collect()
        }
        let layer = || match half {
            true => LayerCache::Half(heads(cfg, positions)),
            false => LayerCache::Full(heads(cfg, positions)),
        };
        KvCache {
            layers: (0..cfg.layers).map(|_| layer()).collect(),
            len: 0,
        }
    }

    /// How many positions the cache holds.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether it holds no position yet.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// One layer's keys and values, per key/value head.
pub(super) enum LayerCache {
    Half(Vec<HeadCache<f16>>),
    Full(Vec<HeadCache<f32>>),
}

pub(super) struct HeadCache<E> {
    /// `[block][head_dim][LANES]`: position `p` is lane `p % 16` of block `p / 16`.
    keys: Vec<E>,
    /// `[position][head_dim]`.
    values: Vec<E>,
}

impl LayerCache {
    /// Add position `pos` (the next one): `k` and `v` hold `kv_heads × head_dim` values.
    pub(super) fn push(&mut self, pos: usize, k: &[f32], v: &[f32]) {
        match self {
            LayerCache::Half(heads) => push(heads, pos, k, v),
            LayerCache::Full(heads) => push(heads, pos, k, v),
        }
    }
}

fn push<E: Stored>(heads: &mut [HeadCache<E>], pos: usize, k: &[f32], v: &[f32]) {
    let hd = k.len() / heads.len();
    for ((head, k), v) in heads
        .iter_mut()
        .zip(k.chunks_exact(hd))
        .zip(v.chunks_exact(hd))
    {
        if pos.is_multiple_of(LANES) {
            head.keys.resize(head.keys.len() + hd * LANES, E::default());
        }
        let block = (pos / LANES) * hd * LANES;
        for (d, &k) in k.iter().enumerate() {
            head.keys[block + d * LANES + pos % LANES] = E::from_f32(k);
        }
        head.values.extend(v.iter().map(|&v| E::from_f32(v)));
    }
}

/// Tokens of a prompt taken by one task: with the query heads of a group, the rows that share
/// every key and value read.
const TILE: usize = 4;
/// Fewer positions than this are not worth splitting among threads when decoding.
const SPLIT_FROM: usize = 256;

/// One attention task: tokens `first..first + tokens` of the new ones, key/value head `kv`,
/// positions `start..end`.
struct Task {
    first: usize,
    tokens: usize,
    kv: usize,
    start: usize,
    end: usize,
}

/// The attention of the `t` new positions (after `past` cached ones, and already in `cache`)
/// into `out` (`[t][heads·head_dim]`). Token `i`'s query is `q[i·stride..][..heads·head_dim]`,
/// after the rotary embedding.
#[expect(
    clippy::too_many_arguments,
    reason = "one layer's attention, read at the call site"
)]
pub(super) fn attention(
    kernel: Kernel,
    cfg: &Config,
    cache: &LayerCache,
    q: &[f32],
    stride: usize,
    t: usize,
    past: usize,
    out: &mut [f32],
) {
    match cache {
        LayerCache::Half(heads) => attend_heads(kernel, cfg, heads, q, stride, t, past, out),
        LayerCache::Full(heads) => attend_heads(kernel, cfg, heads, q, stride, t, past, out),
    }
}

#[expect(
    clippy::too_many_arguments,
    reason = "as `attention`, the cache's heads unwrapped"
)]
fn attend_heads<E: Stored>(
    kernel: Kernel,
    cfg: &Config,
    cache: &[HeadCache<E>],
    q: &[f32],
    stride: usize,
    t: usize,
    past: usize,
    out: &mut [f32],
) {
    let (hd, rep) = (cfg.head_dim, cfg.heads / cfg.kv_heads);
    let scale = 1.0 / (hd as f32).sqrt();
    // A prompt: tokens split into tiles. One token: the positions split among the threads,
    // or a thread would read the whole cache alone.
    let parts = match t == 1 && past + 1 >= SPLIT_FROM {
        true => rayon::current_num_threads(),
        false => 1,
    };
    let mut tasks = Vec::new();
    for first in (0..t).step_by(TILE) {
        let tokens = TILE.min(t - first);
        let end = past + first + tokens;
        let per_part = end.div_ceil(parts).next_multiple_of(LANES);
        for kv in 0..cfg.kv_heads {
            for start in (0..end).step_by(per_part) {
                let end = (start + per_part).min(end);
                tasks.push(Task {
                    first,
                    tokens,
                    kv,
                    start,
                    end,
                });
            }
        }
    }
    let partials: Vec<Partial> = tasks
        .par_iter()
        .map(|task| {
            let mut rows = Vec::with_capacity(task.tokens * rep * hd);
            let mut visible = Vec::with_capacity(task.tokens * rep);
            for i in task.first..task.first + task.tokens {
                let heads = &q[i * stride + task.kv * rep * hd..][..rep * hd];
                rows.extend(heads.iter().map(|v| v * scale));
                visible.extend(std::iter::repeat_n(past + i + 1, rep));
            }
            let head = &cache[task.kv];
            let span = Span {
                q: &rows,
                visible: &visible,
                keys: &head.keys,
                values: &head.values,
                head_dim: hd,
                start: task.start,
                end: task.end,
            };
            let mut partial = Partial::default();
            kernel.attend(&span, &mut partial);
            partial
        })
        .collect();

    // Merge the parts of each (token, head), then normalise.
    let heads = cfg.heads;
    let mut max = vec![f32::NEG_INFINITY; t * heads];
    let mut sum = vec![0f32; t * heads];
    out[..t * heads * hd].fill(0.0);
    for (task, partial) in tasks.iter().zip(&partials) {
        for (r, acc) in partial.acc.chunks_exact(hd).enumerate() {
            let (i, h) = (task.first + r / rep, task.kv * rep + r % rep);
            let at = i * heads + h;
            let top = max[at].max(partial.max[r]);
            if top == f32::NEG_INFINITY {
                continue;
            }
            let (old, new) = ((max[at] - top).exp(), (partial.max[r] - top).exp());
            max[at] = top;
            sum[at] = sum[at] * old + partial.sum[r] * new;
            for (o, a) in out[at * hd..(at + 1) * hd].iter_mut().zip(acc) {
                *o = *o * old + a * new;
            }
        }
    }
    for (o, s) in out.chunks_exact_mut(hd).zip(&sum) {
        o.iter_mut().for_each(|o| *o /= s);
    }
}
