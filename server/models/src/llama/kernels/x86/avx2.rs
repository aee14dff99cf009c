//! The kernels in AVX2. Matrix products: sixteen rows as two halves of eight 32-bit lanes, the
//! int8 products by `vpmaddubsw` (unsigned weights × signed activation bytes, pairs summed to
//! i16) and `vpmaddwd` (to i32). Then attention's inner loops and SwiGLU, sixteen f32 as two
//! registers; activations are quantized by the portable code.

use super::super::acts::ActBlock;
use super::super::attend::{LANES, Stored};
use super::super::pack::{Q4Block, Q8Block, ROWS};
use super::exp::{EXP_POLY, LN2_HI, LN2_LO};
use std::arch::x86_64::*;

#[target_feature(enable = "avx2")]
fn load256(bytes: &[u8]) -> __m256i {
    assert!(bytes.len() >= 32);
    // SAFETY: 32 readable bytes (asserted); the load needs no alignment.
    unsafe { _mm256_loadu_si256(bytes.as_ptr().cast()) }
}

/// Eight f16 (as bits) widened to f32.
#[target_feature(enable = "avx2,f16c")]
fn widen(halves: &[u16]) -> __m256 {
    assert!(halves.len() >= 8);
    // SAFETY: 16 readable bytes (asserted); the load needs no alignment.
    _mm256_cvtph_ps(unsafe { _mm_loadu_si128(halves.as_ptr().cast()) })
}

#[target_feature(enable = "avx2")]
fn store(v: [__m256; 2]) -> [f32; ROWS] {
    let mut out = [0f32; ROWS];
    // SAFETY: `out` has room for the sixteen f32 written; the store needs no alignment.
    unsafe {
        _mm256_storeu_ps(out.as_mut_ptr(), v[0]);
        _mm256_storeu_ps(out.as_mut_ptr().add(8), v[1]);
    }
    out
}

/// `255·hi + lo` of two i32 dot products, as `ActBlock::value` joins the bytes.
#[target_feature(enable = "avx2")]
fn join(hi: __m256i, lo: __m256i) -> __m256i {
    _mm256_add_epi32(_mm256_sub_epi32(_mm256_slli_epi32::<8>(hi), hi), lo)
}

/// As `scalar::q4_tile`. A token's eight `vpmaddubsw` per half block and activation byte are
/// summed in i16 before widening: each lane is at most 8 · 2 · 15 · 127 = 30,480, under i16's
/// 32,767.
#[target_feature(enable = "avx2,fma,f16c")]
pub(super) fn q4_tile<const N: usize>(
    group: &[Q4Block],
    acts: [&[ActBlock]; N],
) -> [[f32; ROWS]; N] {
    let low = _mm256_set1_epi8(0x0F);
    let ones = _mm256_set1_epi16(1);
    // Rows 0..8, then 8..16.
    let mut sums = [[_mm256_setzero_ps(); N]; 2];
    for (b, blk) in group.iter().enumerate() {
        let a: [&ActBlock; N] = std::array::from_fn(|n| &acts[n][b]);
        for (h, sums) in sums.iter_mut().enumerate() {
            let d = widen(&blk.d[8 * h..]);
            let m = widen(&blk.m[8 * h..]);
            let mut hi = [_mm256_setzero_si256(); N];
            let mut lo = [_mm256_setzero_si256(); N];
            for c in 0..4 {
                let q = load256(&blk.q[c][32 * h..]);
                let w_lo = _mm256_and_si256(q, low);
                let w_hi = _mm256_and_si256(_mm256_srli_epi16::<4>(q), low);
                for n in 0..N {
                    let pair = |bytes: &[i32; 8]| {
                        _mm256_add_epi16(
                            _mm256_maddubs_epi16(w_lo, _mm256_set1_epi32(bytes[c])),
                            _mm256_maddubs_epi16(w_hi, _mm256_set1_epi32(bytes[4 + c])),
                        )
                    };
                    hi[n] = _mm256_add_epi16(hi[n], pair(&a[n].hi));
                    lo[n] = _mm256_add_epi16(lo[n], pair(&a[n].lo));
                }
            }
            for n in 0..N {
                let dot = join(
                    _mm256_madd_epi16(hi[n], ones),
                    _mm256_madd_epi16(lo[n], ones),
                );
                let scale = _mm256_mul_ps(d, _mm256_set1_ps(a[n].d));
                sums[n] = _mm256_fmadd_ps(_mm256_cvtepi32_ps(dot), scale, sums[n]);
                sums[n] = _mm256_fmadd_ps(m, _mm256_set1_ps(a[n].sum), sums[n]);
            }
        }
    }
    let mut out = [[0f32; ROWS]; N];
    for (n, out) in out.iter_mut().enumerate() {
        *out = store([sums[0][n], sums[1][n]]);
    }
    out
}

/// As `scalar::q8_tile`. `vpmaddubsw` wants one unsigned operand: the weight's magnitude, with
/// its sign moved onto the activation byte (`vpsignb`, exact as the bytes are within ±127); a
/// pair is at most 2 · 128 · 127 = 32,512.
#[target_feature(enable = "avx2,fma,f16c")]
pub(super) fn q8_tile<const N: usize>(
    group: &[Q8Block],
    acts: [&[ActBlock]; N],
) -> [[f32; ROWS]; N] {
    let flip = _mm256_set1_epi8(-128);
    let ones = _mm256_set1_epi16(1);
    // Rows 0..8, then 8..16.
    let mut sums = [[_mm256_setzero_ps(); N]; 2];
    for (b, blk) in group.iter().enumerate() {
        let a: [&ActBlock; N] = std::array::from_fn(|n| &acts[n][b]);
        for (h, sums) in sums.iter_mut().enumerate() {
            let d = widen(&blk.d[8 * h..]);
            let mut hi = [_mm256_setzero_si256(); N];
            let mut lo = [_mm256_setzero_si256(); N];
            for c in 0..8 {
                let w = _mm256_xor_si256(load256(&blk.q[c][32 * h..]), flip);
                let magnitude = _mm256_abs_epi8(w);
                for n in 0..N {
                    let dot = |bytes: &[i32; 8]| {
                        let signed = _mm256_sign_epi8(_mm256_set1_epi32(bytes[c]), w);
                        _mm256_madd_epi16(_mm256_maddubs_epi16(magnitude, signed), ones)
                    };
                    hi[n] = _mm256_add_epi32(hi[n], dot(&a[n].hi));
                    lo[n] = _mm256_add_epi32(lo[n], dot(&a[n].lo));
                }
            }
            for n in 0..N {
                let scale = _mm256_mul_ps(d, _mm256_set1_ps(a[n].d));
                let dot = _mm256_cvtepi32_ps(join(hi[n], lo[n]));
                sums[n] = _mm256_fmadd_ps(dot, scale, sums[n]);
            }
        }
    }
    let mut out = [[0f32; ROWS]; N];
    for (n, out) in out.iter_mut().enumerate() {
        *out = store([sums[0][n], sums[1][n]]);
    }
    out
}

/// Sixteen f32 as two registers.
#[target_feature(enable = "avx2")]
fn load_ps(v: &[f32]) -> [__m256; 2] {
    assert!(v.len() >= LANES);
    // SAFETY: 16 readable f32 (asserted); the loads need no alignment.
    unsafe {
        [
            _mm256_loadu_ps(v.as_ptr()),
            _mm256_loadu_ps(v.as_ptr().add(8)),
        ]
    }
}

#[target_feature(enable = "avx2,fma")]
fn fmadd(a: __m256, b: [__m256; 2], c: [__m256; 2]) -> [__m256; 2] {
    [
        _mm256_fmadd_ps(a, b[0], c[0]),
        _mm256_fmadd_ps(a, b[1], c[1]),
    ]
}

/// Sixteen cached numbers (f16 or f32) as f32, in two registers.
#[target_feature(enable = "avx2,f16c")]
fn load_stored<E: Stored>(v: &[E]) -> [__m256; 2] {
    assert!(v.len() >= LANES);
    const { assert!(size_of::<E>() == if E::HALF { 2 } else { 4 }) };
    if E::HALF {
        // SAFETY: 16 readable f16, 32 bytes (asserted); the loads need no alignment.
        let (a, b) = unsafe {
            let p: *const __m128i = v.as_ptr().cast();
            (_mm_loadu_si128(p), _mm_loadu_si128(p.add(1)))
        };
        [_mm256_cvtph_ps(a), _mm256_cvtph_ps(b)]
    } else {
        // SAFETY: 16 readable f32, 64 bytes (asserted); the loads need no alignment.
        unsafe {
            let p: *const f32 = v.as_ptr().cast();
            [_mm256_loadu_ps(p), _mm256_loadu_ps(p.add(8))]
        }
    }
}

/// As `attend::Portable::scores`.
#[target_feature(enable = "avx2,fma,f16c")]
pub(super) fn scores<E: Stored, const R: usize>(q: [&[f32]; R], block: &[E]) -> [[f32; LANES]; R] {
    let mut s = [[_mm256_setzero_ps(); 2]; R];
    for (d, k) in block.chunks_exact(LANES).enumerate() {
        let k = load_stored(k);
        for r in 0..R {
            s[r] = fmadd(_mm256_set1_ps(q[r][d]), k, s[r]);
        }
    }
    let mut out = [[0f32; LANES]; R];
    for (out, s) in out.iter_mut().zip(s) {
        *out = store(s);
    }
    out
}

/// As `attend::Portable::weigh`: sixteen dimensions of each row per pass over the values.
#[target_feature(enable = "avx2,fma,f16c")]
pub(super) fn weigh<E: Stored, const R: usize>(p: [&[f32]; R], values: &[E], acc: [&mut [f32]; R]) {
    let hd = acc[0].len();
    let mut acc = acc;
    for d in (0..hd).step_by(LANES) {
        let mut sums = [[_mm256_setzero_ps(); 2]; R];
        for (j, v) in values.chunks_exact(hd).enumerate() {
            let v = load_stored(&v[d..]);
            for r in 0..R {
                sums[r] = fmadd(_mm256_set1_ps(p[r][j]), v, sums[r]);
            }
        }
        for (acc, sums) in acc.iter_mut().zip(sums) {
            acc[d..d + LANES].copy_from_slice(&store(sums));
        }
    }
}

/// As `attend::Portable::max`.
#[target_feature(enable = "avx2")]
pub(super) fn max(s: &[f32]) -> f32 {
    let (chunks, rest) = s.as_chunks::<LANES>();
    let mut m = [_mm256_set1_ps(f32::NEG_INFINITY); 2];
    for c in chunks {
        let v = load_ps(c);
        m = [_mm256_max_ps(m[0], v[0]), _mm256_max_ps(m[1], v[1])];
    }
    store(m)
        .iter()
        .chain(rest)
        .fold(f32::NEG_INFINITY, |m, &v| m.max(v))
}

/// As `attend::Portable::exp_sum`, with the polynomial exp of `x86::EXP_POLY`.
#[target_feature(enable = "avx2,fma")]
pub(super) fn exp_sum(s: &mut [f32], max: f32) -> f32 {
    let (chunks, rest) = s.as_chunks_mut::<LANES>();
    let max = _mm256_set1_ps(max);
    let mut sum = [_mm256_setzero_ps(); 2];
    for c in chunks {
        let v = load_ps(c);
        let e = [exp(_mm256_sub_ps(v[0], max)), exp(_mm256_sub_ps(v[1], max))];
        sum = [_mm256_add_ps(sum[0], e[0]), _mm256_add_ps(sum[1], e[1])];
        *c = store(e);
    }
    // The last few through a padded copy: exp(−∞ − max) adds nothing.
    let mut tail = [f32::NEG_INFINITY; LANES];
    tail[..rest.len()].copy_from_slice(rest);
    let v = load_ps(&tail);
    let e = store([exp(_mm256_sub_ps(v[0], max)), exp(_mm256_sub_ps(v[1], max))]);
    rest.copy_from_slice(&e[..rest.len()]);
    store(sum).iter().sum::<f32>() + e[..rest.len()].iter().sum::<f32>()
}

#[target_feature(enable = "avx2,fma")]
fn exp(x: __m256) -> __m256 {
    // Rounds to an integer by adding 1.5·2²³: the sum's low mantissa bits are n.
    const ROUND: f32 = 12_582_912.0;
    // Within what 2ⁿ can hold (the AVX-512 version scales by `vscalefps` and needs no upper
    // bound).
    let x = _mm256_min_ps(
        _mm256_max_ps(x, _mm256_set1_ps(-87.0)),
        _mm256_set1_ps(88.0),
    );
    let log2e = _mm256_set1_ps(std::f32::consts::LOG2_E);
    let t = _mm256_fmadd_ps(x, log2e, _mm256_set1_ps(ROUND));
    let n = _mm256_sub_ps(t, _mm256_set1_ps(ROUND));
    let r = _mm256_fmadd_ps(n, _mm256_set1_ps(-LN2_HI), x);
    let r = _mm256_fmadd_ps(n, _mm256_set1_ps(-LN2_LO), r);
    let mut p = _mm256_set1_ps(EXP_POLY[0]);
    for c in &EXP_POLY[1..] {
        p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(*c));
    }
    let e = _mm256_fmadd_ps(
        p,
        _mm256_mul_ps(r, r),
        _mm256_add_ps(r, _mm256_set1_ps(1.0)),
    );
    let n = _mm256_sub_epi32(
        _mm256_castps_si256(t),
        _mm256_set1_epi32(ROUND.to_bits() as i32),
    );
    let scale = _mm256_slli_epi32::<23>(_mm256_add_epi32(n, _mm256_set1_epi32(127)));
    _mm256_mul_ps(e, _mm256_castsi256_ps(scale))
}

/// As `scalar::swiglu`.
#[target_feature(enable = "avx2,fma")]
pub(super) fn swiglu(gate: &[f32], up: &[f32], out: &mut [f32]) {
    let (chunks, _) = out.as_chunks_mut::<LANES>();
    let one = _mm256_set1_ps(1.0);
    for (i, out) in chunks.iter_mut().enumerate() {
        let g = load_ps(&gate[i * LANES..]);
        let u = load_ps(&up[i * LANES..]);
        let mut r = [_mm256_setzero_ps(); 2];
        for h in 0..2 {
            let e = exp(_mm256_sub_ps(_mm256_setzero_ps(), g[h]));
            r[h] = _mm256_mul_ps(_mm256_div_ps(g[h], _mm256_add_ps(one, e)), u[h]);
        }
        *out = store(r);
    }
    let done = chunks.len() * LANES;
    super::super::scalar::swiglu(&gate[done..], &up[done..], &mut out[done..]);
}
