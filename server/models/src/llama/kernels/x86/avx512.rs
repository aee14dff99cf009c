//! The kernels in AVX-512. Matrix products: sixteen rows in the sixteen 32-bit lanes of one
//! register, the int8 products by `vpdpbusd` (VNNI: unsigned weights × signed activation bytes,
//! four products summed into each i32 lane). Then attention's inner loops, the activations'
//! quantization and SwiGLU, sixteen f32 to a register.

use super::super::acts::{ActBlock, LIMIT};
use super::super::attend::{LANES, Stored};
use super::super::pack::{Q4Block, Q8Block, ROWS};
use super::exp::{EXP_POLY, LN2_HI, LN2_LO};
use std::arch::x86_64::*;

#[target_feature(enable = "avx512f")]
fn load512(bytes: &[u8; 64]) -> __m512i {
    // SAFETY: 64 readable bytes; the load needs no alignment.
    unsafe { _mm512_loadu_si512(bytes.as_ptr().cast()) }
}

/// Sixteen f16 (as bits) widened to f32.
#[target_feature(enable = "avx512f")]
fn widen(halves: &[u16; ROWS]) -> __m512 {
    // SAFETY: 32 readable bytes; the load needs no alignment.
    _mm512_cvtph_ps(unsafe { _mm256_loadu_si256(halves.as_ptr().cast()) })
}

#[target_feature(enable = "avx512f")]
fn store(v: __m512) -> [f32; ROWS] {
    let mut out = [0f32; ROWS];
    // SAFETY: `out` has room for the sixteen f32 written; the store needs no alignment.
    unsafe { _mm512_storeu_ps(out.as_mut_ptr(), v) };
    out
}

/// `255·hi + lo` of two i32 dot products, as `ActBlock::value` joins the bytes.
#[target_feature(enable = "avx512f")]
fn join(hi: __m512i, lo: __m512i) -> __m512i {
    _mm512_add_epi32(_mm512_sub_epi32(_mm512_slli_epi32::<8>(hi), hi), lo)
}

/// As `scalar::q4_tile`.
#[target_feature(enable = "avx512f,avx512bw,avx512vnni,fma,f16c")]
pub(super) fn q4_tile<const N: usize>(
    group: &[Q4Block],
    acts: [&[ActBlock]; N],
) -> [[f32; ROWS]; N] {
    let low = _mm512_set1_epi8(0x0F);
    let mut sums = [_mm512_setzero_ps(); N];
    // The offsets' term apart: two short dependency chains rather than one long one.
    let mut offsets = [_mm512_setzero_ps(); N];
    for (b, blk) in group.iter().enumerate() {
        let d = widen(&blk.d);
        let m = widen(&blk.m);
        // Columns 4c..4c + 4 (low nibbles) and 16 + 4c.. (high) of the sixteen rows.
        let mut w = [_mm512_setzero_si512(); 8];
        for c in 0..4 {
            let q = load512(&blk.q[c]);
            w[c] = _mm512_and_si512(q, low);
            w[4 + c] = _mm512_and_si512(_mm512_srli_epi16::<4>(q), low);
        }
        for n in 0..N {
            let a = &acts[n][b];
            let mut hi = [_mm512_setzero_si512(); 2];
            let mut lo = [_mm512_setzero_si512(); 2];
            for (c, w) in w.iter().enumerate() {
                hi[c % 2] = _mm512_dpbusd_epi32(hi[c % 2], *w, _mm512_set1_epi32(a.hi[c]));
                lo[c % 2] = _mm512_dpbusd_epi32(lo[c % 2], *w, _mm512_set1_epi32(a.lo[c]));
            }
            let dot = join(
                _mm512_add_epi32(hi[0], hi[1]),
                _mm512_add_epi32(lo[0], lo[1]),
            );
            let scale = _mm512_mul_ps(d, _mm512_set1_ps(a.d));
            sums[n] = _mm512_fmadd_ps(_mm512_cvtepi32_ps(dot), scale, sums[n]);
            offsets[n] = _mm512_fmadd_ps(m, _mm512_set1_ps(a.sum), offsets[n]);
        }
    }
    let mut out = [[0f32; ROWS]; N];
    for ((out, sums), offsets) in out.iter_mut().zip(sums).zip(offsets) {
        *out = store(_mm512_add_ps(sums, offsets));
    }
    out
}

/// As `scalar::q8_tile`: the weights carry +128, taken back by starting each dot at −128·Σ.
#[target_feature(enable = "avx512f,avx512bw,avx512vnni,fma,f16c")]
pub(super) fn q8_tile<const N: usize>(
    group: &[Q8Block],
    acts: [&[ActBlock]; N],
) -> [[f32; ROWS]; N] {
    let mut sums = [_mm512_setzero_ps(); N];
    for (b, blk) in group.iter().enumerate() {
        let d = widen(&blk.d);
        let mut w = [_mm512_setzero_si512(); 8];
        for (w, q) in w.iter_mut().zip(&blk.q) {
            *w = load512(q);
        }
        for n in 0..N {
            let a = &acts[n][b];
            let mut hi = _mm512_set1_epi32(-128 * a.hi_sum);
            let mut lo = _mm512_set1_epi32(-128 * a.lo_sum);
            for (c, w) in w.iter().enumerate() {
                hi = _mm512_dpbusd_epi32(hi, *w, _mm512_set1_epi32(a.hi[c]));
                lo = _mm512_dpbusd_epi32(lo, *w, _mm512_set1_epi32(a.lo[c]));
            }
            let scale = _mm512_mul_ps(d, _mm512_set1_ps(a.d));
            sums[n] = _mm512_fmadd_ps(_mm512_cvtepi32_ps(join(hi, lo)), scale, sums[n]);
        }
    }
    let mut out = [[0f32; ROWS]; N];
    for (out, sums) in out.iter_mut().zip(sums) {
        *out = store(sums);
    }
    out
}

#[target_feature(enable = "avx512f")]
fn load_ps(v: &[f32]) -> __m512 {
    assert!(v.len() >= LANES);
    // SAFETY: 16 readable f32 (asserted); the load needs no alignment.
    unsafe { _mm512_loadu_ps(v.as_ptr()) }
}

/// Sixteen cached numbers (f16 or f32) as f32.
#[target_feature(enable = "avx512f")]
fn load_stored<E: Stored>(v: &[E]) -> __m512 {
    assert!(v.len() >= LANES);
    const { assert!(size_of::<E>() == if E::HALF { 2 } else { 4 }) };
    if E::HALF {
        // SAFETY: 16 readable f16, 32 bytes (asserted); the load needs no alignment.
        _mm512_cvtph_ps(unsafe { _mm256_loadu_si256(v.as_ptr().cast()) })
    } else {
        // SAFETY: 16 readable f32, 64 bytes (asserted); the load needs no alignment.
        unsafe { _mm512_loadu_ps(v.as_ptr().cast()) }
    }
}

/// As `attend::Portable::scores`.
#[target_feature(enable = "avx512f,fma")]
pub(super) fn scores<E: Stored, const R: usize>(q: [&[f32]; R], block: &[E]) -> [[f32; LANES]; R] {
    let mut s = [_mm512_setzero_ps(); R];
    for (d, k) in block.chunks_exact(LANES).enumerate() {
        let k = load_stored(k);
        for r in 0..R {
            s[r] = _mm512_fmadd_ps(_mm512_set1_ps(q[r][d]), k, s[r]);
        }
    }
    let mut out = [[0f32; LANES]; R];
    for (out, s) in out.iter_mut().zip(s) {
        *out = store(s);
    }
    out
}

/// As `attend::Portable::weigh`: 64 dimensions (four registers) of each row per pass over the
/// values, so a head of 64 reads each value once, in order.
#[target_feature(enable = "avx512f,fma")]
pub(super) fn weigh<E: Stored, const R: usize>(p: [&[f32]; R], values: &[E], acc: [&mut [f32]; R]) {
    let hd = acc[0].len();
    let mut acc = acc;
    for d in (0..hd).step_by(4 * LANES) {
        let width = (hd - d).min(4 * LANES) / LANES;
        let mut sums = [[_mm512_setzero_ps(); 4]; R];
        for (j, v) in values.chunks_exact(hd).enumerate() {
            let mut v4 = [_mm512_setzero_ps(); 4];
            for (c, v4) in v4.iter_mut().enumerate().take(width) {
                *v4 = load_stored(&v[d + c * LANES..]);
            }
            for r in 0..R {
                let p = _mm512_set1_ps(p[r][j]);
                for c in 0..width {
                    sums[r][c] = _mm512_fmadd_ps(p, v4[c], sums[r][c]);
                }
            }
        }
        for (acc, sums) in acc.iter_mut().zip(sums) {
            for (c, sums) in sums.iter().enumerate().take(width) {
                acc[d + c * LANES..][..LANES].copy_from_slice(&store(*sums));
            }
        }
    }
}

/// As `attend::Portable::max`.
#[target_feature(enable = "avx512f")]
pub(super) fn max(s: &[f32]) -> f32 {
    let (chunks, rest) = s.as_chunks::<LANES>();
    let mut m = _mm512_set1_ps(f32::NEG_INFINITY);
    for c in chunks {
        m = _mm512_max_ps(m, load_ps(c));
    }
    rest.iter().fold(_mm512_reduce_max_ps(m), |m, &v| m.max(v))
}

/// As `attend::Portable::exp_sum`, with the polynomial exp of `x86::EXP_POLY`.
#[target_feature(enable = "avx512f,fma")]
pub(super) fn exp_sum(s: &mut [f32], max: f32) -> f32 {
    let (chunks, rest) = s.as_chunks_mut::<LANES>();
    let max = _mm512_set1_ps(max);
    let mut sum = _mm512_setzero_ps();
    for c in chunks {
        let e = exp(_mm512_sub_ps(load_ps(c), max));
        sum = _mm512_add_ps(sum, e);
        *c = store(e);
    }
    // The last few through a padded copy: exp(−∞ − max) adds nothing.
    let mut tail = [f32::NEG_INFINITY; LANES];
    tail[..rest.len()].copy_from_slice(rest);
    let e = store(exp(_mm512_sub_ps(load_ps(&tail), max)));
    rest.copy_from_slice(&e[..rest.len()]);
    _mm512_reduce_add_ps(sum) + e[..rest.len()].iter().sum::<f32>()
}

#[target_feature(enable = "avx512f,fma")]
fn exp(x: __m512) -> __m512 {
    let x = _mm512_max_ps(x, _mm512_set1_ps(-87.0));
    // Round to nearest, exceptions suppressed.
    let n =
        _mm512_roundscale_ps::<0x08>(_mm512_mul_ps(x, _mm512_set1_ps(std::f32::consts::LOG2_E)));
    let r = _mm512_fmadd_ps(n, _mm512_set1_ps(-LN2_HI), x);
    let r = _mm512_fmadd_ps(n, _mm512_set1_ps(-LN2_LO), r);
    let mut p = _mm512_set1_ps(EXP_POLY[0]);
    for c in &EXP_POLY[1..] {
        p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(*c));
    }
    let e = _mm512_fmadd_ps(
        p,
        _mm512_mul_ps(r, r),
        _mm512_add_ps(r, _mm512_set1_ps(1.0)),
    );
    _mm512_scalef_ps(e, n)
}

/// As `ActBlock::quantize`, for each block of 32 of `x` into `out` (the sum in another order).
#[target_feature(enable = "avx512f")]
pub(super) fn quantize(x: &[f32], out: &mut [ActBlock]) {
    let sign = _mm512_set1_epi32(i32::MIN);
    let half = _mm512_set1_epi32(0.5f32.to_bits() as i32);
    let limit = _mm512_set1_epi32(LIMIT);
    for (x, out) in x.chunks_exact(2 * LANES).zip(out) {
        let v = [load_ps(x), load_ps(&x[LANES..])];
        let amax = _mm512_reduce_max_ps(_mm512_max_ps(_mm512_abs_ps(v[0]), _mm512_abs_ps(v[1])));
        let d = amax / LIMIT as f32;
        let id = if d > 0.0 { 1.0 / d } else { 0.0 };
        let mut block = ActBlock {
            d,
            sum: _mm512_reduce_add_ps(_mm512_add_ps(v[0], v[1])),
            ..ActBlock::default()
        };
        for (h, v) in v.into_iter().enumerate() {
            let scaled = _mm512_mul_ps(v, _mm512_set1_ps(id));
            // Half away from zero: ±0.5 by the sign of the value, then truncate.
            let bits = _mm512_and_si512(_mm512_castps_si512(scaled), sign);
            let rounding = _mm512_castsi512_ps(_mm512_or_si512(bits, half));
            let q = _mm512_cvttps_epi32(_mm512_add_ps(scaled, rounding));
            let q = _mm512_max_epi32(
                _mm512_min_epi32(q, limit),
                _mm512_sub_epi32(_mm512_setzero_si512(), limit),
            );
            // hi = ⌊(q + 127) / 255⌋, exact in f32; lo = q − 255·hi.
            let shifted = _mm512_cvtepi32_ps(_mm512_add_epi32(q, _mm512_set1_epi32(127)));
            let hi = _mm512_div_ps(shifted, _mm512_set1_ps(255.0));
            let hi = _mm512_cvttps_epi32(_mm512_roundscale_ps::<0x09>(hi));
            let lo = _mm512_sub_epi32(q, _mm512_sub_epi32(_mm512_slli_epi32::<8>(hi), hi));
            block.hi_sum += _mm512_reduce_add_epi32(hi);
            block.lo_sum += _mm512_reduce_add_epi32(lo);
            block.hi[4 * h..4 * h + 4].copy_from_slice(&bytes(hi));
            block.lo[4 * h..4 * h + 4].copy_from_slice(&bytes(lo));
        }
        *out = block;
    }
}

/// Sixteen i32 narrowed to bytes, four to an i32.
#[target_feature(enable = "avx512f")]
fn bytes(v: __m512i) -> [i32; 4] {
    let mut out = [0i32; 4];
    // SAFETY: `out` has room for the 16 bytes written; the store needs no alignment.
    unsafe { _mm_storeu_si128(out.as_mut_ptr().cast(), _mm512_cvtepi32_epi8(v)) };
    out
}

/// As `scalar::swiglu`.
#[target_feature(enable = "avx512f,fma")]
pub(super) fn swiglu(gate: &[f32], up: &[f32], out: &mut [f32]) {
    let (chunks, _) = out.as_chunks_mut::<LANES>();
    let one = _mm512_set1_ps(1.0);
    for (i, out) in chunks.iter_mut().enumerate() {
        let g = load_ps(&gate[i * LANES..]);
        let u = load_ps(&up[i * LANES..]);
        let e = exp(_mm512_sub_ps(_mm512_setzero_ps(), g));
        *out = store(_mm512_mul_ps(_mm512_div_ps(g, _mm512_add_ps(one, e)), u));
    }
    let done = chunks.len() * LANES;
    super::super::scalar::swiglu(&gate[done..], &up[done..], &mut out[done..]);
}
