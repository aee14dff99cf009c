//! Every kernel this machine runs against the portable one, and the portable one against plain
//! f32 arithmetic, on random data.

use super::*;
use half::f16;

/// A small deterministic generator: uniform in [−1, 1).
struct Random(u64);

impl Random {
    fn next(&mut self) -> f32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 40) as f32 / (1u64 << 23) as f32 - 1.0
    }

    fn byte(&mut self) -> u8 {
        ((self.next() + 1.0) * 128.0) as u8
    }

    fn vec(&mut self, n: usize) -> Vec<f32> {
        (0..n).map(|_| self.next()).collect()
    }
}

/// Random GGUF Q4_1 rows (f16 d, f16 m, 16 bytes of nibbles per block).
fn q4_1_data(rnd: &mut Random, rows: usize, cols: usize) -> Vec<u8> {
    let mut raw = Vec::new();
    for _ in 0..rows * cols / 32 {
        raw.extend_from_slice(&f16::from_f32(0.01 + 0.02 * rnd.next().abs()).to_le_bytes());
        raw.extend_from_slice(&f16::from_f32(-0.15 + 0.05 * rnd.next()).to_le_bytes());
        raw.extend((0..16).map(|_| rnd.byte()));
    }
    raw
}

/// Random GGUF Q8_0 rows (f16 d, 32 int8 per block), −128 included.
fn q8_0_data(rnd: &mut Random, rows: usize, cols: usize) -> Vec<u8> {
    let mut raw = Vec::new();
    for _ in 0..rows * cols / 32 {
        raw.extend_from_slice(&f16::from_f32(0.002 + 0.004 * rnd.next().abs()).to_le_bytes());
        raw.extend((0..32).map(|_| rnd.byte()));
    }
    raw
}

fn matrices(rnd: &mut Random) -> Vec<(&'static str, QMatrix)> {
    // 40 rows: two full groups and a partial one; 96 columns: three blocks.
    let (rows, cols) = (40, 96);
    vec![
        (
            "q4",
            QMatrix::from_q4_1(&q4_1_data(rnd, rows, cols), rows, cols),
        ),
        (
            "q8",
            QMatrix::from_q8_0(&q8_0_data(rnd, rows, cols), rows, cols),
        ),
        (
            "f32→q8",
            QMatrix::from_f32(&rnd.vec(rows * cols), rows, cols),
        ),
    ]
}

fn product(kernel: Kernel, m: &QMatrix, x: &[f32]) -> Vec<f32> {
    let mut out = Vec::new();
    Matrix::Quantized(QMatrix {
        rows: m.rows,
        cols: m.cols,
        packed: match &m.packed {
            Packed::Q4(p) => Packed::Q4(p.clone()),
            Packed::Q8(p) => Packed::Q8(p.clone()),
        },
    })
    .matmul(kernel, x, &mut Acts::default(), &mut out);
    out
}

#[test]
fn the_portable_product_is_the_f32_product_within_the_activations_rounding() {
    let mut rnd = Random(0x2545_F491_4F6C_DD1D);
    for (name, m) in matrices(&mut rnd) {
        // 1 token (rows split among threads) and 7 (tokens split; tiles of 4 and 3).
        for tokens in [1, 7] {
            let x: Vec<f32> = rnd.vec(tokens * m.cols).iter().map(|v| 3.0 * v).collect();
            let got = product(Kernel::Scalar, &m, &x);
            let mut acts = Acts::default();
            Kernel::Scalar.quantize(&x, m.cols, &mut acts);
            let mut row = vec![0.0; m.cols];
            for r in 0..m.rows {
                m.row(r, &mut row);
                for t in 0..tokens {
                    let x = &x[t * m.cols..(t + 1) * m.cols];
                    let want: f32 = row.iter().zip(x).map(|(w, x)| w * x).sum();
                    // Each activation is off by at most half its block's step.
                    let bound: f32 = row
                        .iter()
                        .enumerate()
                        .map(|(k, w)| w.abs() * acts.token(t)[k / 32].d / 2.0)
                        .sum();
                    let got = got[t * m.rows + r];
                    assert!(
                        (got - want).abs() <= bound * 1.01 + 1e-4,
                        "{name}, token {t}, row {r}: {got} vs {want} (bound {bound})"
                    );
                }
            }
        }
    }
}

#[test]
fn every_simd_product_matches_the_portable_one() {
    let mut rnd = Random(0x9E37_79B9_7F4A_7C15);
    let kernels = Kernel::available();
    println!(
        "kernels on this machine: {:?}",
        kernels.iter().map(|k| k.name()).collect::<Vec<_>>()
    );
    for (name, m) in matrices(&mut rnd) {
        for tokens in [1, 2, 3, 4, 9] {
            let x = rnd.vec(tokens * m.cols);
            let want = product(Kernel::Scalar, &m, &x);
            for &kernel in &kernels[1..] {
                let got = product(kernel, &m, &x);
                for (i, (g, w)) in got.iter().zip(&want).enumerate() {
                    assert!(
                        (g - w).abs() <= 1e-5 * (1.0 + w.abs()),
                        "{} {name}, {tokens} tokens, output {i}: {g} vs {w}",
                        kernel.name()
                    );
                }
            }
        }
    }
}

/// Softmax attention in the plainest f32, one row at a time.
fn naive_attention(q: &[f32], keys: &[Vec<f32>], values: &[Vec<f32>], seen: usize) -> Vec<f32> {
    let scores: Vec<f32> = keys[..seen]
        .iter()
        .map(|k| k.iter().zip(q).map(|(k, q)| k * q).sum())
        .collect();
    let max = scores.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let weights: Vec<f32> = scores.iter().map(|s| (s - max).exp()).collect();
    let total: f32 = weights.iter().sum();
    let mut out = vec![0.0; q.len()];
    for (w, v) in weights.iter().zip(values) {
        for (o, v) in out.iter_mut().zip(v) {
            *o += w / total * v;
        }
    }
    out
}

#[test]
fn every_attention_kernel_matches_plain_softmax_attention() {
    let mut rnd = Random(0xD1B5_4A32_D192_ED03);
    for head_dim in [16, 64] {
        let positions: usize = 75;
        // Values an f16 holds exactly, so both caches hold the same numbers.
        let mut exact = |n| -> Vec<f32> {
            rnd.vec(n)
                .iter()
                .map(|v| f16::from_f32(*v).to_f32())
                .collect()
        };
        let keys: Vec<Vec<f32>> = (0..positions).map(|_| exact(head_dim)).collect();
        let values: Vec<Vec<f32>> = (0..positions).map(|_| exact(head_dim)).collect();
        let rows = 6;
        let q: Vec<f32> = rnd.vec(rows * head_dim).iter().map(|v| 2.0 * v).collect();
        let visible: Vec<usize> = (0..rows).map(|r| positions - 2 * r).collect();
        let want: Vec<Vec<f32>> = (0..rows)
            .map(|r| naive_attention(&q[r * head_dim..][..head_dim], &keys, &values, visible[r]))
            .collect();
        for kernel in Kernel::available() {
            let f32s = attend_in_parts::<f32>(kernel, &q, &visible, &keys, &values, head_dim);
            let f16s = attend_in_parts::<f16>(kernel, &q, &visible, &keys, &values, head_dim);
            for (cache, got) in [("f32", f32s), ("f16", f16s)] {
                for (cut, got) in got.iter().enumerate() {
                    for (r, (got, want)) in got.iter().zip(&want).enumerate() {
                        for (d, (g, w)) in got.iter().zip(want).enumerate() {
                            assert!(
                                (g - w).abs() < 1e-5,
                                "{} {cache} head_dim {head_dim} cut {cut} row {r} dim {d}: {g} \
                                 vs {w}",
                                kernel.name()
                            );
                        }
                    }
                }
            }
        }
    }
}

/// Each row's attention over every position, computed whole and in two parts merged, from a
/// cache of `E`.
fn attend_in_parts<E: Stored>(
    kernel: Kernel,
    q: &[f32],
    visible: &[usize],
    keys: &[Vec<f32>],
    values: &[Vec<f32>],
    head_dim: usize,
) -> Vec<Vec<Vec<f32>>> {
    let positions = keys.len();
    // The cache's layout: keys in blocks of 16 positions, dimension-major.
    let mut key_blocks = vec![E::default(); positions.div_ceil(LANES) * LANES * head_dim];
    for (p, k) in keys.iter().enumerate() {
        for (d, &k) in k.iter().enumerate() {
            key_blocks[(p / LANES) * head_dim * LANES + d * LANES + p % LANES] = E::from_f32(k);
        }
    }
    let flat_values: Vec<E> = values.concat().into_iter().map(E::from_f32).collect();
    let mut results = Vec::new();
    for cut in [positions, 32] {
        let mut parts = Vec::new();
        for (start, end) in [(0, cut), (cut, positions)] {
            if start == end {
                continue;
            }
            let span = Span {
                q,
                visible,
                keys: &key_blocks,
                values: &flat_values,
                head_dim,
                start,
                end,
            };
            let mut part = Partial::default();
            kernel.attend(&span, &mut part);
            parts.push(part);
        }
        let rows = (0..visible.len())
            .map(|r| {
                let max = parts
                    .iter()
                    .map(|p| p.max[r])
                    .fold(f32::NEG_INFINITY, f32::max);
                let scale = |p: &Partial| (p.max[r] - max).exp();
                let total: f32 = parts.iter().map(|p| p.sum[r] * scale(p)).sum();
                (0..head_dim)
                    .map(|d| {
                        let sum: f32 = parts
                            .iter()
                            .map(|p| p.acc[r * head_dim + d] * scale(p))
                            .sum();
                        sum / total
                    })
                    .collect()
            })
            .collect();
        results.push(rows);
    }
    results
}

#[test]
fn every_simd_quantization_and_swiglu_matches_the_portable_one() {
    let mut rnd = Random(0xA076_1D64_78BD_642F);
    let (tokens, cols) = (7, 96);
    let mut x: Vec<f32> = rnd.vec(tokens * cols).iter().map(|v| 5.0 * v).collect();
    x[32..64].fill(0.0); // a block of zeros: scale 0
    let mut want = Acts::default();
    Kernel::Scalar.quantize(&x, cols, &mut want);
    let (inner, rows) = (40, 3); // 40: two SIMD chunks of 16 and a tail
    let gate_up: Vec<f32> = rnd.vec(rows * 2 * inner).iter().map(|v| 12.0 * v).collect();
    let mut want_gated = Vec::new();
    Kernel::Scalar.swiglu(&gate_up, inner, &mut want_gated);
    for &kernel in &Kernel::available()[1..] {
        let mut got = Acts::default();
        kernel.quantize(&x, cols, &mut got);
        for (i, (g, w)) in got.blocks.iter().zip(&want.blocks).enumerate() {
            let exact = (g.hi, g.lo, g.hi_sum, g.lo_sum, g.d);
            assert_eq!(
                exact,
                (w.hi, w.lo, w.hi_sum, w.lo_sum, w.d),
                "{} block {i}",
                kernel.name()
            );
            assert!(
                (g.sum - w.sum).abs() <= 1e-5 * (1.0 + w.sum.abs()),
                "{} block {i}",
                kernel.name()
            );
        }
        let mut gated = Vec::new();
        kernel.swiglu(&gate_up, inner, &mut gated);
        for (i, (g, w)) in gated.iter().zip(&want_gated).enumerate() {
            assert!(
                (g - w).abs() <= 1e-5 * (1.0 + w.abs()),
                "{} swiglu {i}: {g} vs {w}",
                kernel.name()
            );
        }
    }
}
