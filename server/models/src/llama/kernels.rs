//! The arithmetic of the Llama forward pass that runs once per weight or per cached position:
//! products of quantized matrices with activations quantized to 16 bits and multiplied as two
//! int8 halves ([`Matrix::matmul`]), the SwiGLU between them ([`Kernel::swiglu`]), and attention
//! over the KV cache ([`Kernel::attend`]).
//!
//! Each comes in a portable version and x86-64 SIMD versions (AVX2+FMA; AVX-512 with VNNI),
//! chosen once per process from what the CPU reports ([`Kernel::detect`]): one binary runs on
//! any x86-64, compiles elsewhere, and uses what the machine has. The products split the rows
//! (one token) or the tokens (a prompt) among the threads of the rayon pool they run in.

mod acts;
mod attend;
mod pack;
mod scalar;
#[cfg(target_arch = "x86_64")]
#[expect(
    unsafe_code,
    reason = "SIMD intrinsics: unaligned loads and stores, and calls into \
    #[target_feature] functions once the CPU is known to have the feature"
)]
mod x86;

pub(crate) use acts::Acts;
pub(crate) use attend::{LANES, Partial, Span, Stored};
pub(crate) use pack::{COLS, Dense, QMatrix};

use acts::ActBlock;
use pack::{Packed, ROWS};
use rayon::prelude::*;
use std::sync::OnceLock;

/// The instruction set the kernels use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kernel {
    Scalar,
    #[cfg(target_arch = "x86_64")]
    Avx2(x86::Avx2),
    #[cfg(target_arch = "x86_64")]
    Avx512(x86::Avx512),
}

impl Kernel {
    /// The fastest kernel this CPU runs, decided once per process. `VAI_LLM_KERNEL` (`scalar`,
    /// `avx2`, `avx512vnni`) picks a slower one, to measure it.
    pub(crate) fn detect() -> Kernel {
        static CHOSEN: OnceLock<Kernel> = OnceLock::new();
        *CHOSEN.get_or_init(|| {
            let available = Kernel::available();
            let wanted = std::env::var("VAI_LLM_KERNEL").unwrap_or_default();
            available
                .iter()
                .copied()
                .find(|k| k.name() == wanted)
                .unwrap_or(available[available.len() - 1])
        })
    }

    /// Every kernel this CPU runs, slowest (the portable one) first.
    pub(crate) fn available() -> Vec<Kernel> {
        #[cfg_attr(
            not(target_arch = "x86_64"),
            expect(unused_mut, reason = "x86 adds some")
        )]
        let mut all = vec![Kernel::Scalar];
        #[cfg(target_arch = "x86_64")]
        {
            all.extend(x86::Avx2::detect().map(Kernel::Avx2));
            all.extend(x86::Avx512::detect().map(Kernel::Avx512));
        }
        all
    }

    pub(crate) fn name(self) -> &'static str {
        match self {
            Kernel::Scalar => "scalar",
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2(_) => "avx2",
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx512(_) => "avx512vnni",
        }
    }

    /// The attention of `span`'s query rows over its positions.
    pub(crate) fn attend<E: Stored>(self, span: &Span<'_, E>, out: &mut Partial) {
        match self {
            Kernel::Scalar => attend::attend(attend::Portable, span, out),
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2(k) => attend::attend(k, span, out),
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx512(k) => attend::attend(k, span, out),
        }
    }

    /// `x` (`[tokens][cols]`, `cols` a multiple of 32) quantized into `acts`, the tokens of a
    /// prompt split among the threads. (AVX2 machines quantize with the portable code.)
    pub(crate) fn quantize(self, x: &[f32], cols: usize, acts: &mut Acts) {
        let tokens = x.len() / cols;
        acts.reset(tokens, cols);
        let per_task = tokens.div_ceil(2 * rayon::current_num_threads()) * acts.per_token;
        let quantize = |(out, x): (&mut [ActBlock], &[f32])| match self {
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx512(k) => k.quantize(x, out),
            _ => {
                for (out, x) in out.iter_mut().zip(x.chunks_exact(COLS)) {
                    *out = ActBlock::quantize(x);
                }
            }
        };
        match tokens {
            1 => quantize((&mut acts.blocks, x)),
            _ => acts
                .blocks
                .par_chunks_mut(per_task)
                .zip(x.par_chunks(per_task * COLS))
                .for_each(quantize),
        }
    }

    /// SiLU(gate)·up of each row of `gate_up` (`[tokens][2·inner]`: the gate, then up), into
    /// `out` (`[tokens][inner]`).
    pub(crate) fn swiglu(self, gate_up: &[f32], inner: usize, out: &mut Vec<f32>) {
        let tokens = gate_up.len() / (2 * inner);
        out.clear();
        out.resize(tokens * inner, 0.0);
        let row = |(out, row): (&mut [f32], &[f32])| {
            let (gate, up) = row.split_at(inner);
            match self {
                Kernel::Scalar => scalar::swiglu(gate, up, out),
                #[cfg(target_arch = "x86_64")]
                Kernel::Avx2(k) => k.swiglu(gate, up, out),
                #[cfg(target_arch = "x86_64")]
                Kernel::Avx512(k) => k.swiglu(gate, up, out),
            }
        };
        out.par_chunks_mut(inner)
            .zip(gate_up.par_chunks(2 * inner))
            .for_each(row);
    }

    fn tile<const N: usize>(
        self,
        packed: &Packed,
        group: usize,
        blocks: usize,
        acts: [&[ActBlock]; N],
    ) -> [[f32; ROWS]; N] {
        let span = group * blocks..(group + 1) * blocks;
        match (self, packed) {
            (Kernel::Scalar, Packed::Q4(p)) => scalar::q4_tile(&p[span], acts),
            (Kernel::Scalar, Packed::Q8(p)) => scalar::q8_tile(&p[span], acts),
            #[cfg(target_arch = "x86_64")]
            (Kernel::Avx2(k), Packed::Q4(p)) => k.q4_tile(&p[span], acts),
            #[cfg(target_arch = "x86_64")]
            (Kernel::Avx2(k), Packed::Q8(p)) => k.q8_tile(&p[span], acts),
            #[cfg(target_arch = "x86_64")]
            (Kernel::Avx512(k), Packed::Q4(p)) => k.q4_tile(&p[span], acts),
            #[cfg(target_arch = "x86_64")]
            (Kernel::Avx512(k), Packed::Q8(p)) => k.q8_tile(&p[span], acts),
        }
    }
}

/// A weight matrix: quantized, or plain f32 for the reference path.
pub(crate) enum Matrix {
    Quantized(QMatrix),
    Dense(Dense),
}

impl Matrix {
    pub(crate) fn rows(&self) -> usize {
        match self {
            Matrix::Quantized(m) => m.rows,
            Matrix::Dense(m) => m.rows,
        }
    }

    pub(crate) fn cols(&self) -> usize {
        match self {
            Matrix::Quantized(m) => m.cols,
            Matrix::Dense(m) => m.cols,
        }
    }

    /// Row `r` in f32 (an embedding lookup).
    pub(crate) fn row(&self, r: usize, out: &mut [f32]) {
        match self {
            Matrix::Quantized(m) => m.row(r, out),
            Matrix::Dense(m) => out.copy_from_slice(&m.values[r * m.cols..(r + 1) * m.cols]),
        }
    }

    /// `out[t][r]` = row `r` · `x[t]` for each token `t` of `x` (`[tokens][cols]`); `acts` is
    /// scratch space for `x` quantized.
    pub(crate) fn matmul(&self, kernel: Kernel, x: &[f32], acts: &mut Acts, out: &mut Vec<f32>) {
        let tokens = x.len() / self.cols();
        out.clear();
        out.resize(tokens * self.rows(), 0.0);
        match self {
            Matrix::Dense(m) => m.matmul(x, out),
            Matrix::Quantized(m) => {
                kernel.quantize(x, m.cols, acts);
                quantized_matmul(kernel, m, acts, out);
            }
        }
    }
}

/// Tokens a kernel call takes at once: each weight loaded serves this many dot products.
const TILE: usize = 4;

/// `out[t][r]` for the quantized matrix `m` and the quantized tokens `acts`. One token (decoding)
/// splits the rows among the threads; more (a prompt) split the tokens, each thread streaming
/// every weight once per four of its tokens.
fn quantized_matmul(kernel: Kernel, m: &QMatrix, acts: &Acts, out: &mut [f32]) {
    let (tokens, rows) = (acts.tokens(), m.rows);
    let threads = rayon::current_num_threads();
    if tokens == 1 {
        // Several pieces per thread, so a thread slowed by the machine's other work is helped.
        let groups = m.groups().div_ceil(4 * threads).max(1);
        out.par_chunks_mut(groups * ROWS)
            .enumerate()
            .for_each(|(i, out)| {
                let first = i * groups;
                run(
                    kernel,
                    m,
                    first..(first + groups).min(m.groups()),
                    acts,
                    0..1,
                    out,
                    rows,
                );
            });
    } else {
        let per_task = tokens.div_ceil(2 * threads).next_multiple_of(TILE);
        out.par_chunks_mut(per_task * rows)
            .enumerate()
            .for_each(|(i, out)| {
                let first = i * per_task;
                let tokens = first..(first + per_task).min(tokens);
                run(kernel, m, 0..m.groups(), acts, tokens, out, rows);
            });
    }
}

/// Groups `groups` of `m` times tokens `tokens` into `out`: token `t`, row `16g + r` at
/// `out[(t − first token)·stride + 16(g − first group) + r]`.
fn run(
    kernel: Kernel,
    m: &QMatrix,
    groups: std::ops::Range<usize>,
    acts: &Acts,
    tokens: std::ops::Range<usize>,
    out: &mut [f32],
    stride: usize,
) {
    let blocks = m.blocks();
    for (gi, g) in groups.clone().enumerate() {
        let lanes = ROWS.min(m.rows - g * ROWS);
        let mut put = |t: usize, values: &[f32; ROWS]| {
            let at = (t - tokens.start) * stride + gi * ROWS;
            out[at..at + lanes].copy_from_slice(&values[..lanes]);
        };
        let mut t = tokens.start;
        while t < tokens.end {
            let a = |n: usize| acts.token(t + n);
            match tokens.end - t {
                1 => put(t, &kernel.tile(&m.packed, g, blocks, [a(0)])[0]),
                2 => {
                    let out = kernel.tile(&m.packed, g, blocks, [a(0), a(1)]);
                    out.iter().enumerate().for_each(|(n, o)| put(t + n, o));
                }
                3 => {
                    let out = kernel.tile(&m.packed, g, blocks, [a(0), a(1), a(2)]);
                    out.iter().enumerate().for_each(|(n, o)| put(t + n, o));
                }
                _ => {
                    let out = kernel.tile(&m.packed, g, blocks, [a(0), a(1), a(2), a(3)]);
                    out.iter().enumerate().for_each(|(n, o)| put(t + n, o));
                }
            }
            t += TILE.min(tokens.end - t);
        }
    }
}

#[cfg(test)]
mod tests;
