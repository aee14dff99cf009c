//! The portable matrix kernels: plain Rust over the packed layout, correct on every machine and
//! the yardstick the SIMD versions are tested against. Each block's weights are unpacked once
//! to 16-bit integers for the tokens of a tile, leaving the compiler plain 32-value dot
//! products to vectorise with whatever the target has (SSE2, NEON).

use super::acts::ActBlock;
use super::pack::{COLS, Q4Block, Q8Block, ROWS, f32_of};

/// Sixteen rows of a Q4 group times `N` tokens' activations: `[token][row]`.
pub(super) fn q4_tile<const N: usize>(
    group: &[Q4Block],
    acts: [&[ActBlock]; N],
) -> [[f32; ROWS]; N] {
    let mut out = [[0f32; ROWS]; N];
    for (b, blk) in group.iter().enumerate() {
        // The block's weights, unpacked once for the N tokens.
        let mut w = [[0i16; COLS]; ROWS];
        for (c, chunk) in blk.q.iter().enumerate() {
            for (r, w) in w.iter_mut().enumerate() {
                for i in 0..4 {
                    let byte = chunk[4 * r + i];
                    w[4 * c + i] = i16::from(byte & 0x0F);
                    w[16 + 4 * c + i] = i16::from(byte >> 4);
                }
            }
        }
        let d = blk.d.map(f32_of);
        let m = blk.m.map(f32_of);
        for (n, out) in out.iter_mut().enumerate() {
            let a = &acts[n][b];
            let values = a.values();
            for (r, out) in out.iter_mut().enumerate() {
                *out += d[r] * a.d * dot(&w[r], &values) as f32 + m[r] * a.sum;
            }
        }
    }
    out
}

/// Sixteen rows of a Q8 group times `N` tokens' activations: `[token][row]`.
pub(super) fn q8_tile<const N: usize>(
    group: &[Q8Block],
    acts: [&[ActBlock]; N],
) -> [[f32; ROWS]; N] {
    let mut out = [[0f32; ROWS]; N];
    for (b, blk) in group.iter().enumerate() {
        let mut w = [[0i16; COLS]; ROWS];
        for (c, chunk) in blk.q.iter().enumerate() {
            for (r, w) in w.iter_mut().enumerate() {
                for i in 0..4 {
                    w[4 * c + i] = i16::from(chunk[4 * r + i]) - 128;
                }
            }
        }
        let d = blk.d.map(f32_of);
        for (n, out) in out.iter_mut().enumerate() {
            let a = &acts[n][b];
            let values = a.values();
            for (r, out) in out.iter_mut().enumerate() {
                *out += d[r] * a.d * dot(&w[r], &values) as f32;
            }
        }
    }
    out
}

fn dot(w: &[i16; COLS], a: &[i16; COLS]) -> i32 {
    w.iter()
        .zip(a)
        .map(|(&w, &a)| i32::from(w) * i32::from(a))
        .sum()
}

/// SiLU(gate)·up, elementwise, as candle's `silu` computes it.
pub(super) fn swiglu(gate: &[f32], up: &[f32], out: &mut [f32]) {
    for ((o, g), u) in out.iter_mut().zip(gate).zip(up) {
        *o = g / (1.0 + (-g).exp()) * u;
    }
}
