//! Choosing the next token from the logits: a light repetition penalty, then greedy at
//! temperature 0, else temperature and nucleus (top-p) sampling.

/// Logits of tokens among the last this many generated are divided by [`REPEAT_PENALTY`].
const REPEAT_WINDOW: usize = 64;
/// A small model loops without it; 1.1 is the usual llama.cpp value.
const REPEAT_PENALTY: f32 = 1.1;

pub struct Sampler {
    temperature: f64,
    top_p: f64,
    rng: XorShift,
}

impl Sampler {
    pub fn new(temperature: f64, top_p: f64) -> Self {
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0x9E37_79B9_7F4A_7C15, |d| d.as_nanos() as u64);
        Sampler {
            temperature,
            top_p: top_p.clamp(0.0, 1.0),
            rng: XorShift(seed | 1),
        }
    }

    /// The next token after `recent` (the answer so far); `logits` is changed in place.
    pub fn next(&mut self, logits: &mut [f32], recent: &[u32]) -> u32 {
        let window = &recent[recent.len().saturating_sub(REPEAT_WINDOW)..];
        for &id in window {
            if let Some(l) = logits.get_mut(id as usize) {
                *l = if *l > 0.0 {
                    *l / REPEAT_PENALTY
                } else {
                    *l * REPEAT_PENALTY
                };
            }
        }
        if self.temperature <= 1e-6 {
            return argmax(logits);
        }
        let t = self.temperature as f32;
        let max = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let mut probs: Vec<(u32, f32)> = logits
            .iter()
            .enumerate()
            .map(|(i, &l)| (i as u32, ((l - max) / t).exp()))
            .collect();
        probs.sort_unstable_by(|a, b| b.1.total_cmp(&a.1));
        let total: f32 = probs.iter().map(|p| p.1).sum();
        let mut kept = 0;
        let mut mass = 0.0;
        for p in &probs {
            mass += p.1 / total;
            kept += 1;
            if f64::from(mass) >= self.top_p {
                break;
            }
        }
        let probs = &probs[..kept];
        let mut pick = self.rng.unit() * probs.iter().map(|p| p.1).sum::<f32>();
        for &(id, p) in probs {
            if pick < p {
                return id;
            }
            pick -= p;
        }
        probs[kept - 1].0
    }
}

fn argmax(logits: &[f32]) -> u32 {
    logits
        .iter()
        .enumerate()
        .max_by(|a, b| a.1.total_cmp(b.1))
        .map_or(0, |(i, _)| i as u32)
}

/// A small fast generator; sampling needs no cryptographic quality.
struct XorShift(u64);

impl XorShift {
    /// Uniform in `[0, 1)`.
    fn unit(&mut self) -> f32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 40) as f32 / (1u64 << 24) as f32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temperature_zero_is_greedy_and_repeats_are_penalised() {
        let mut s = Sampler::new(0.0, 0.9);
        assert_eq!(s.next(&mut [0.1, 2.0, 1.95], &[]), 1);
        assert_eq!(s.next(&mut [0.1, 2.0, 1.95], &[1]), 2);
    }

    #[test]
    fn top_p_keeps_only_the_likely_tokens() {
        let mut s = Sampler::new(1.0, 0.5);
        for _ in 0..100 {
            assert_eq!(s.next(&mut [10.0, 0.0, 0.0, 0.0], &[]), 0);
        }
    }
}
