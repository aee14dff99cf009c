//! Activations quantized per block of 32 to 16-bit integers, each held as two signed bytes
//! (value = 255·hi + lo), so a product with quantized weights runs on int8 dot-product
//! instructions — two per weight instead of llama.cpp's one with 8-bit activations, and about
//! as exact as f32: rounding an activation to 1/32,512 of its block's largest moves a logit by
//! thousandths, where 8 bits move it by tenths and flip near-tied greedy choices. Base 255
//! keeps both bytes within ±127, which AVX2's sign trick (`vpsignb`) needs.

use super::pack::COLS;

/// The largest value, 255·127 + 127.
pub(crate) const LIMIT: i32 = 32_512;

/// 32 activations: value ≈ d·(255·hi + lo), hi and lo in −127..=127.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C)]
pub(crate) struct ActBlock {
    /// The high bytes, four to a little-endian `i32`: the form the kernels broadcast.
    pub(crate) hi: [i32; 8],
    /// The low bytes, likewise.
    pub(crate) lo: [i32; 8],
    pub(crate) d: f32,
    /// Σx of the block, unquantized: it multiplies a Q4_1 block's offset.
    pub(crate) sum: f32,
    /// Σhi and Σlo: the Q8 kernels that add 128 to the weights take 128·Σ back.
    pub(crate) hi_sum: i32,
    pub(crate) lo_sum: i32,
}

impl ActBlock {
    /// Quantized value `i` (0..32): 255·hi + lo.
    pub(crate) fn value(&self, i: usize) -> i32 {
        let byte = |v: &[i32; 8]| i32::from(v[i / 4].to_le_bytes()[i % 4] as i8);
        255 * byte(&self.hi) + byte(&self.lo)
    }

    /// The 32 quantized values (within ±32,512, an i16).
    pub(crate) fn values(&self) -> [i16; COLS] {
        std::array::from_fn(|i| self.value(i) as i16)
    }

    /// The 32 values of `x` quantized: the portable version, which the SIMD ones reproduce.
    pub(crate) fn quantize(x: &[f32]) -> ActBlock {
        let x = &x[..COLS];
        let amax = x.iter().fold(0f32, |m, v| m.max(v.abs()));
        let d = amax / LIMIT as f32;
        let id = if d > 0.0 { 1.0 / d } else { 0.0 };
        let mut block = ActBlock {
            d,
            sum: x.iter().sum(),
            ..ActBlock::default()
        };
        for (c, x) in x.chunks_exact(4).enumerate() {
            let mut hi = [0u8; 4];
            let mut lo = [0u8; 4];
            for i in 0..4 {
                let (h, l) = split(x[i] * id);
                block.hi_sum += h;
                block.lo_sum += l;
                hi[i] = h as i8 as u8;
                lo[i] = l as i8 as u8;
            }
            block.hi[c] = i32::from_le_bytes(hi);
            block.lo[c] = i32::from_le_bytes(lo);
        }
        block
    }
}

/// `scaled` rounded (half away from zero, as `roundf`) to v in ±LIMIT, as (hi, lo) with
/// v = 255·hi + lo.
pub(crate) fn split(scaled: f32) -> (i32, i32) {
    let v = ((scaled + 0.5f32.copysign(scaled)) as i32).clamp(-LIMIT, LIMIT);
    let hi = (v + 127).div_euclid(255);
    (hi, v - 255 * hi)
}

/// The activations of some tokens, each `blocks` blocks long, token after token.
#[derive(Default)]
pub(crate) struct Acts {
    pub(crate) blocks: Vec<ActBlock>,
    pub(crate) per_token: usize,
}

impl Acts {
    /// Room for `tokens` rows of `cols` values (a multiple of 32), replacing what was held;
    /// the caller fills [`Acts::blocks`].
    pub(crate) fn reset(&mut self, tokens: usize, cols: usize) {
        self.per_token = cols / COLS;
        self.blocks.clear();
        self.blocks
            .resize(tokens * self.per_token, ActBlock::default());
    }

    pub(crate) fn tokens(&self) -> usize {
        self.blocks.len() / self.per_token.max(1)
    }

    /// The blocks of token `t`.
    pub(crate) fn token(&self, t: usize) -> &[ActBlock] {
        &self.blocks[t * self.per_token..(t + 1) * self.per_token]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn activations_quantize_within_half_a_step_in_two_signed_bytes() {
        let x: Vec<f32> = (0..64).map(|i| ((i * 37) % 29) as f32 - 14.3).collect();
        for x in x.chunks(32) {
            let blk = &ActBlock::quantize(x);
            let amax = x.iter().fold(0f32, |m, v| m.max(v.abs()));
            assert!((blk.d - amax / LIMIT as f32).abs() < 1e-9);
            for (i, v) in x.iter().enumerate() {
                assert!((blk.d * blk.value(i) as f32 - v).abs() <= blk.d / 2.0 + 1e-6);
            }
            let bytes = |v: &[i32; 8]| -> Vec<i32> {
                v.iter()
                    .flat_map(|w| w.to_le_bytes().map(|b| i32::from(b as i8)))
                    .collect()
            };
            assert!(
                bytes(&blk.hi)
                    .iter()
                    .chain(&bytes(&blk.lo))
                    .all(|b| b.abs() <= 127)
            );
            assert_eq!(blk.hi_sum, bytes(&blk.hi).iter().sum::<i32>());
            assert_eq!(blk.lo_sum, bytes(&blk.lo).iter().sum::<i32>());
            assert!((blk.sum - x.iter().sum::<f32>()).abs() < 1e-4);
        }
    }
}
