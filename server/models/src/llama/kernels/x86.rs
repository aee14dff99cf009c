//! The x86-64 SIMD kernels and the proof that the CPU runs them: an [`Avx2`] or [`Avx512`]
//! value exists only once `detect` has seen its instructions at run time, so its safe methods may
//! call the `#[target_feature]` functions behind them. Nothing else here is `pub`.

mod avx2;
mod avx512;
mod exp;

use super::acts::ActBlock;
use super::attend::{LANES, Lanes, Stored};
use super::pack::{Q4Block, Q8Block, ROWS};

/// AVX2 with FMA and F16C (x86-64-v3): 256-bit integer and float kernels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Avx2(());

impl Avx2 {
    pub(crate) fn detect() -> Option<Avx2> {
        let has = is_x86_feature_detected!("avx2")
            && is_x86_feature_detected!("fma")
            && is_x86_feature_detected!("f16c");
        has.then_some(Avx2(()))
    }

    pub(crate) fn q4_tile<const N: usize>(
        self,
        group: &[Q4Block],
        acts: [&[ActBlock]; N],
    ) -> [[f32; ROWS]; N] {
        // SAFETY: `self` proves the CPU has AVX2, FMA and F16C (see `detect`).
        unsafe { avx2::q4_tile(group, acts) }
    }

    pub(crate) fn q8_tile<const N: usize>(
        self,
        group: &[Q8Block],
        acts: [&[ActBlock]; N],
    ) -> [[f32; ROWS]; N] {
        // SAFETY: as in `q4_tile`.
        unsafe { avx2::q8_tile(group, acts) }
    }

    pub(crate) fn swiglu(self, gate: &[f32], up: &[f32], out: &mut [f32]) {
        // SAFETY: as in `q4_tile`.
        unsafe { avx2::swiglu(gate, up, out) }
    }
}

impl Lanes for Avx2 {
    fn scores<E: Stored, const R: usize>(self, q: [&[f32]; R], block: &[E]) -> [[f32; LANES]; R] {
        // SAFETY: `self` proves the CPU has the features (see `detect`).
        unsafe { avx2::scores(q, block) }
    }

    fn weigh<E: Stored, const R: usize>(self, p: [&[f32]; R], values: &[E], acc: [&mut [f32]; R]) {
        // SAFETY: as in `scores`.
        unsafe { avx2::weigh(p, values, acc) }
    }

    fn max(self, s: &[f32]) -> f32 {
        // SAFETY: as in `scores`.
        unsafe { avx2::max(s) }
    }

    fn exp_sum(self, s: &mut [f32], max: f32) -> f32 {
        // SAFETY: as in `scores`.
        unsafe { avx2::exp_sum(s, max) }
    }
}

/// AVX-512 F, BW and VNNI, with FMA and F16C: 512-bit kernels whose int8 products are one
/// `vpdpbusd` each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Avx512(());

impl Avx512 {
    pub(crate) fn detect() -> Option<Avx512> {
        let has = is_x86_feature_detected!("avx512f")
            && is_x86_feature_detected!("avx512bw")
            && is_x86_feature_detected!("avx512vnni")
            && is_x86_feature_detected!("fma")
            && is_x86_feature_detected!("f16c");
        has.then_some(Avx512(()))
    }

    pub(crate) fn q4_tile<const N: usize>(
        self,
        group: &[Q4Block],
        acts: [&[ActBlock]; N],
    ) -> [[f32; ROWS]; N] {
        // SAFETY: `self` proves the CPU has AVX-512 F/BW/VNNI, FMA and F16C (see `detect`).
        unsafe { avx512::q4_tile(group, acts) }
    }

    pub(crate) fn q8_tile<const N: usize>(
        self,
        group: &[Q8Block],
        acts: [&[ActBlock]; N],
    ) -> [[f32; ROWS]; N] {
        // SAFETY: as in `q4_tile`.
        unsafe { avx512::q8_tile(group, acts) }
    }

    pub(crate) fn quantize(self, x: &[f32], out: &mut [ActBlock]) {
        // SAFETY: as in `q4_tile`.
        unsafe { avx512::quantize(x, out) }
    }

    pub(crate) fn swiglu(self, gate: &[f32], up: &[f32], out: &mut [f32]) {
        // SAFETY: as in `q4_tile`.
        unsafe { avx512::swiglu(gate, up, out) }
    }
}

impl Lanes for Avx512 {
    fn scores<E: Stored, const R: usize>(self, q: [&[f32]; R], block: &[E]) -> [[f32; LANES]; R] {
        // SAFETY: `self` proves the CPU has the features (see `detect`).
        unsafe { avx512::scores(q, block) }
    }

    fn weigh<E: Stored, const R: usize>(self, p: [&[f32]; R], values: &[E], acc: [&mut [f32]; R]) {
        // SAFETY: as in `scores`.
        unsafe { avx512::weigh(p, values, acc) }
    }

    fn max(self, s: &[f32]) -> f32 {
        // SAFETY: as in `scores`.
        unsafe { avx512::max(s) }
    }

    fn exp_sum(self, s: &mut [f32], max: f32) -> f32 {
        // SAFETY: as in `scores`.
        unsafe { avx512::exp_sum(s, max) }
    }
}
