//! The exp(x) both x86 kernels compute for softmax and SiLU, as constants they share.

/// The coefficients of exp(x) as both kernels compute it (softmax and SiLU): 2ⁿ·eʳ with
/// n = round(x/ln 2), r = x − n·ln 2 (ln 2 in two parts, so that n·`LN2_HI` is exact), and eʳ
/// by Cephes' degree-6 polynomial; relative error about 2e-7.
pub(super) const EXP_POLY: [f32; 6] = [
    1.987_569_1e-4,
    1.398_2e-3,
    8.333_452e-3,
    4.166_579_6e-2,
    0.166_666_65,
    0.5,
];
pub(super) const LN2_HI: f32 = 0.693_359_4;
pub(super) const LN2_LO: f32 = -2.121_944_4e-4;
