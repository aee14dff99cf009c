//! Attention of a few query rows (the query heads and tokens that share one key/value head) over
//! a range of cached positions: scores, a softmax, the weighted sum of values. The steps are
//! written once ([`attend`]); their inner loops ([`Lanes`]) once per instruction set: here in
//! plain Rust ([`Portable`]), in `x86/` with AVX2 and AVX-512 intrinsics.

/// Positions per key block: the cache stores keys `[block][head_dim][LANES]`, so sixteen
/// scores are sixteen lanes of one multiply-add per dimension.
pub(crate) const LANES: usize = 16;

/// How the KV cache stores a number: f16 (half the memory and the bytes read per token) or f32
/// (the portable kernel's, and the reference path's).
pub(crate) trait Stored: Copy + Default + Send + Sync + 'static {
    /// Whether it is an f16 (two bytes), else an f32 (four): how the SIMD kernels load it.
    #[cfg_attr(
        not(target_arch = "x86_64"),
        expect(dead_code, reason = "only the x86 kernels load it themselves")
    )]
    const HALF: bool;
    fn to_f32(self) -> f32;
    fn from_f32(v: f32) -> Self;
}

impl Stored for f32 {
    const HALF: bool = false;

    fn to_f32(self) -> f32 {
        self
    }

    fn from_f32(v: f32) -> Self {
        v
    }
}

impl Stored for half::f16 {
    const HALF: bool = true;

    fn to_f32(self) -> f32 {
        half::f16::to_f32(self)
    }

    /// Within f16's range, so that a large value cannot become an infinity.
    fn from_f32(v: f32) -> Self {
        half::f16::from_f32(v.clamp(-65_504.0, 65_504.0))
    }
}

/// What one attention task reads.
pub(crate) struct Span<'a, E> {
    /// Query rows, `rows × head_dim`, already scaled by 1/√head_dim.
    pub(crate) q: &'a [f32],
    /// Positions each row may see: its own and those before it.
    pub(crate) visible: &'a [usize],
    /// The head's keys, `[block][head_dim][LANES]`.
    pub(crate) keys: &'a [E],
    /// The head's values, `[position][head_dim]`.
    pub(crate) values: &'a [E],
    pub(crate) head_dim: usize,
    /// The positions this task looks at; `start` is a multiple of [`LANES`].
    pub(crate) start: usize,
    pub(crate) end: usize,
}

/// The attention of each row over one range of positions, before normalising, so that the
/// ranges of a row computed apart can be merged (as flash attention does).
#[derive(Debug, Default)]
pub(crate) struct Partial {
    /// The largest score seen (−∞ when none was).
    pub(crate) max: Vec<f32>,
    /// Σ exp(score − max).
    pub(crate) sum: Vec<f32>,
    /// Σ exp(score − max)·value, `rows × head_dim`.
    pub(crate) acc: Vec<f32>,
}

/// The inner loops of attention, one implementation per instruction set.
pub(crate) trait Lanes: Copy {
    /// `R` rows' scores over one key block (`head_dim × LANES`, see [`Span::keys`]); each row
    /// of `q` is `head_dim` long.
    fn scores<E: Stored, const R: usize>(self, q: [&[f32]; R], block: &[E]) -> [[f32; LANES]; R];
    /// Σⱼ `p[r][j]`·`values[j·head_dim..][..head_dim]` over the positions `j` of `p`'s rows,
    /// into `acc[r]` (`head_dim` long).
    fn weigh<E: Stored, const R: usize>(self, p: [&[f32]; R], values: &[E], acc: [&mut [f32]; R]);
    /// The largest of `s` (−∞ when empty).
    fn max(self, s: &[f32]) -> f32;
    /// `s` replaced by exp(s − max); returns their sum.
    fn exp_sum(self, s: &mut [f32], max: f32) -> f32;
}

/// The attention of `span`'s rows over its positions, into `out`. The head size is a multiple
/// of [`LANES`].
pub(crate) fn attend<L: Lanes, E: Stored>(lanes: L, span: &Span<'_, E>, out: &mut Partial) {
    let hd = span.head_dim;
    let rows = span.visible.len();
    let n = span.end - span.start;
    let mut scores = vec![0f32; rows * n];
    // Rows four at a time: each key or value read serves four rows, and four independent sums
    // keep the multiply-add units busy.
    for first in (0..rows).step_by(4) {
        match rows - first {
            1 => scores_of::<L, E, 1>(lanes, span, first, &mut scores),
            2 => scores_of::<L, E, 2>(lanes, span, first, &mut scores),
            3 => scores_of::<L, E, 3>(lanes, span, first, &mut scores),
            _ => scores_of::<L, E, 4>(lanes, span, first, &mut scores),
        }
    }

    out.max.clear();
    out.sum.clear();
    out.acc.clear();
    out.acc.resize(rows * hd, 0.0);
    let mut seen = Vec::with_capacity(rows);
    for (r, scores) in scores.chunks_exact_mut(n).enumerate() {
        let visible = span.visible[r].clamp(span.start, span.end) - span.start;
        let (visible_scores, hidden) = scores.split_at_mut(visible);
        hidden.fill(0.0);
        let max = lanes.max(visible_scores);
        out.max.push(max);
        out.sum.push(lanes.exp_sum(visible_scores, max));
        seen.push(visible);
    }

    for first in (0..rows).step_by(4) {
        match rows - first {
            1 => weigh::<L, E, 1>(lanes, span, &scores, first, &seen, &mut out.acc),
            2 => weigh::<L, E, 2>(lanes, span, &scores, first, &seen, &mut out.acc),
            3 => weigh::<L, E, 3>(lanes, span, &scores, first, &seen, &mut out.acc),
            _ => weigh::<L, E, 4>(lanes, span, &scores, first, &seen, &mut out.acc),
        }
    }
}

/// The scores of rows `first..first + R` over the span's positions, into `scores` (`rows × n`).
fn scores_of<L: Lanes, E: Stored, const R: usize>(
    lanes: L,
    span: &Span<'_, E>,
    first: usize,
    scores: &mut [f32],
) {
    let (hd, n) = (span.head_dim, span.end - span.start);
    let q: [&[f32]; R] = std::array::from_fn(|r| &span.q[(first + r) * hd..][..hd]);
    for b in span.start / LANES..span.end.div_ceil(LANES) {
        let s = lanes.scores(q, &span.keys[b * hd * LANES..][..hd * LANES]);
        let at = b * LANES - span.start;
        let width = LANES.min(n - at);
        for (r, s) in s.iter().enumerate() {
            scores[(first + r) * n + at..][..width].copy_from_slice(&s[..width]);
        }
    }
}

/// Σⱼ pⱼ·valueⱼ for rows `first..first + R`, into `acc` (`rows × head_dim`).
fn weigh<L: Lanes, E: Stored, const R: usize>(
    lanes: L,
    span: &Span<'_, E>,
    scores: &[f32],
    first: usize,
    seen: &[usize],
    acc: &mut [f32],
) {
    let (hd, n) = (span.head_dim, span.end - span.start);
    // Past a row's own positions its weights are zero.
    let positions = seen[first..first + R].iter().copied().max().unwrap_or(0);
    let p: [&[f32]; R] = std::array::from_fn(|r| &scores[(first + r) * n..][..positions]);
    let values = &span.values[span.start * hd..][..positions * hd];
    let mut rows = acc[first * hd..].chunks_exact_mut(hd);
    let acc: [&mut [f32]; R] = std::array::from_fn(|_| rows.next().expect("R rows"));
    lanes.weigh(p, values, acc);
}

/// The inner loops in plain Rust: correct everywhere, and the reference the SIMD ones are
/// tested against.
#[derive(Clone, Copy)]
pub(crate) struct Portable;

impl Lanes for Portable {
    fn scores<E: Stored, const R: usize>(self, q: [&[f32]; R], block: &[E]) -> [[f32; LANES]; R] {
        let mut s = [[0f32; LANES]; R];
        for (d, k) in block.chunks_exact(LANES).enumerate() {
            for r in 0..R {
                for l in 0..LANES {
                    s[r][l] += q[r][d] * k[l].to_f32();
                }
            }
        }
        s
    }

    fn weigh<E: Stored, const R: usize>(self, p: [&[f32]; R], values: &[E], acc: [&mut [f32]; R]) {
        let hd = acc[0].len();
        for (r, acc) in acc.into_iter().enumerate() {
            acc.fill(0.0);
            for (p, v) in p[r].iter().zip(values.chunks_exact(hd)) {
                for (a, v) in acc.iter_mut().zip(v) {
                    *a += p * v.to_f32();
                }
            }
        }
    }

    fn max(self, s: &[f32]) -> f32 {
        s.iter().copied().fold(f32::NEG_INFINITY, f32::max)
    }

    fn exp_sum(self, s: &mut [f32], max: f32) -> f32 {
        s.iter_mut()
            .map(|v| {
                *v = (*v - max).exp();
                *v
            })
            .sum()
    }
}
