//! The all-MiniLM-L6-v2 network itself: loading its weights and tokenizer from a directory, and
//! turning a batch of texts into mean-pooled, L2-normalised vectors on the CPU — or into the
//! per-token vectors that pooling averages. Blocking code: callers run it on tokio's blocking
//! threads.

use super::WEIGHT_FILES;
use super::bert::{Bert, Config};
use candle_core::{DType, Device, Tensor};
use candle_nn::VarBuilder;
use std::collections::HashMap;
use std::path::Path;
use tokenizers::{PaddingParams, PaddingStrategy, Tokenizer, TruncationParams};

/// Texts run through the network together. Small, so the attention activations of 256-token
/// inputs stay small (a first run that seeds the sample knowledge base peaks at ~220 MB; at 32
/// it reached 770 MB), at no cost in speed on a few cores.
pub const BATCH_SIZE: usize = 4;
/// Longer inputs are cut to this many tokens (the model was trained on at most 256 word pieces).
const MAX_TOKENS: usize = 256;

/// A loaded model, ready to embed. Read-only once built, so one copy serves concurrent calls.
pub struct MiniLm {
    bert: Bert,
    tokenizer: Tokenizer,
    dimensions: usize,
}

/// Vectors in the order of the texts, and how many tokens the model read.
pub struct Embedded {
    pub vectors: Vec<Vec<f32>>,
    pub tokens: u64,
}

/// One text as the encoder sees it: its word pieces and the last hidden state at each, the
/// vectors [`MiniLm::embed`] averages into the text's vector.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TokenVectors {
    /// The word pieces, special ones included (`[CLS]`, `web`, `##hook`, …, `[SEP]`).
    pub tokens: Vec<String>,
    /// One vector per word piece, in the same order, as the network left it (not normalised):
    /// their mean, scaled to unit length, is the text's [`MiniLm::embed`] vector.
    pub vectors: Vec<Vec<f32>>,
}

impl MiniLm {
    /// Load config.json, tokenizer.json and the weights (model.safetensors, else
    /// pytorch_model.bin; tensor names with or without a `bert.` prefix) from `dir`.
    pub fn load(dir: &Path) -> Result<Self, String> {
        let config_path = dir.join("config.json");
        let config: Config = fs_read(&config_path)
            .and_then(|bytes| serde_json::from_slice(&bytes).map_err(|e| e.to_string()))
            .map_err(|e| format!("cannot read {}: {e}", config_path.display()))?;

        let tokenizer_path = dir.join("tokenizer.json");
        let mut tokenizer = Tokenizer::from_file(&tokenizer_path)
            .map_err(|e| format!("cannot read {}: {e}", tokenizer_path.display()))?;
        // The packaged tokenizer pads everything to 128 tokens; pad each batch only as far as its
        // longest text instead, and cut at the model's real limit.
        let padding = PaddingParams {
            strategy: PaddingStrategy::BatchLongest,
            pad_to_multiple_of: None,
            ..tokenizer.get_padding().cloned().unwrap_or_default()
        };
        tokenizer.with_padding(Some(padding));
        tokenizer
            .with_truncation(Some(TruncationParams {
                max_length: MAX_TOKENS,
                ..TruncationParams::default()
            }))
            .map_err(|e| format!("cannot set truncation: {e}"))?;

        let tensors = read_weights(dir)?;
        let device = Device::Cpu;
        let vb = VarBuilder::from_tensors(tensors, DType::F32, &device);
        let bert = Bert::load(vb, &config).map_err(|e| {
            format!(
                "{} does not hold a BERT model like all-MiniLM-L6-v2: {e}",
                dir.display()
            )
        })?;
        Ok(MiniLm {
            bert,
            tokenizer,
            dimensions: config.hidden_size,
        })
    }

    /// The length of every vector (the hidden size).
    pub fn dimensions(&self) -> usize {
        self.dimensions
    }

    /// Embed `texts`, [`BATCH_SIZE`] at a time. Texts of similar length are batched together so
    /// little time goes into padding; the vectors come back in the order of `texts`.
    pub fn embed(&self, texts: &[String]) -> Result<Embedded, String> {
        let mut order: Vec<usize> = (0..texts.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(texts[i].len()));

        let mut vectors = vec![Vec::new(); texts.len()];
        let mut tokens = 0;
        for chunk in order.chunks(BATCH_SIZE) {
            let batch: Vec<&str> = chunk.iter().map(|&i| texts[i].as_str()).collect();
            let (pooled, batch_tokens) = self.embed_batch(batch).map_err(|e| e.to_string())?;
            tokens += batch_tokens;
            for (&i, mut v) in chunk.iter().zip(pooled) {
                normalize(&mut v);
                vectors[i] = v;
            }
        }
        Ok(Embedded { vectors, tokens })
    }

    /// Each text's word pieces and their vectors before pooling (late interaction compares
    /// these one by one), cut at the same 256 tokens, [`BATCH_SIZE`] texts at a time.
    pub fn embed_tokens(&self, texts: &[String]) -> Result<Vec<TokenVectors>, String> {
        let mut order: Vec<usize> = (0..texts.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(texts[i].len()));

        let mut out = vec![TokenVectors::default(); texts.len()];
        for chunk in order.chunks(BATCH_SIZE) {
            let batch: Vec<&str> = chunk.iter().map(|&i| texts[i].as_str()).collect();
            let encoded = self.encode_batch(batch).map_err(|e| e.to_string())?;
            let width = encoded.mask.len() / chunk.len();
            let dims = encoded.hidden.len() / encoded.mask.len().max(1);
            for (row, (&i, e)) in chunk.iter().zip(&encoded.encodings).enumerate() {
                let real = (0..width).filter(|&p| encoded.mask[row * width + p] != 0);
                let slot = &mut out[i];
                for p in real {
                    let at = (row * width + p) * dims;
                    // The fast encoder leaves the token strings empty; the vocabulary has them.
                    let id = e.get_ids()[p];
                    slot.tokens
                        .push(self.tokenizer.id_to_token(id).unwrap_or_default());
                    slot.vectors.push(encoded.hidden[at..at + dims].to_vec());
                }
            }
        }
        Ok(out)
    }

    /// Mean-pooled (not yet normalised) vectors of one batch, and its token count.
    fn embed_batch(&self, batch: Vec<&str>) -> Result<(Vec<Vec<f32>>, u64), BoxError> {
        let rows = batch.len();
        let Encoded { hidden, mask, .. } = self.encode_batch(batch)?;
        let tokens = mask.iter().map(|&m| u64::from(m)).sum();
        Ok((mean_pool(&hidden, &mask, rows), tokens))
    }

    /// One batch through the tokenizer and the network, padded to its longest text.
    fn encode_batch(&self, batch: Vec<&str>) -> Result<Encoded, BoxError> {
        let rows = batch.len();
        let encodings = self.tokenizer.encode_batch_fast(batch, true)?;
        let width = encodings.first().map_or(0, |e| e.len());
        let mut ids = Vec::with_capacity(rows * width);
        let mut mask = Vec::with_capacity(rows * width);
        for e in &encodings {
            ids.extend_from_slice(e.get_ids());
            mask.extend_from_slice(e.get_attention_mask());
        }
        let hidden = self
            .bert
            .forward(ids, &mask, (rows, width))?
            .flatten_all()?
            .to_vec1::<f32>()?;
        Ok(Encoded {
            encodings,
            hidden,
            mask,
        })
    }
}

/// A batch after the network: its encodings, the last hidden state `(rows, width, dims)`
/// flattened, and the attention mask `(rows, width)` (1 for real tokens, 0 for padding).
struct Encoded {
    encodings: Vec<tokenizers::Encoding>,
    hidden: Vec<f32>,
    mask: Vec<u32>,
}

/// The mean of each row's token vectors over its real tokens (mask 1); padding weighs nothing.
/// `hidden` is `(rows, width, dims)` flattened, `mask` `(rows, width)`.
fn mean_pool(hidden: &[f32], mask: &[u32], rows: usize) -> Vec<Vec<f32>> {
    let width = mask.len() / rows.max(1);
    let dims = hidden.len() / mask.len().max(1);
    (0..rows)
        .map(|r| {
            let mut sum = vec![0f32; dims];
            let mut count = 0u32;
            for p in (r * width..(r + 1) * width).filter(|&p| mask[p] != 0) {
                count += 1;
                for (s, v) in sum.iter_mut().zip(&hidden[p * dims..(p + 1) * dims]) {
                    *s += v;
                }
            }
            let n = count.max(1) as f32;
            sum.iter_mut().for_each(|s| *s /= n);
            sum
        })
        .collect()
}

type BoxError = Box<dyn std::error::Error + Send + Sync>;

fn fs_read(path: &Path) -> Result<Vec<u8>, String> {
    std::fs::read(path).map_err(|e| e.to_string())
}

/// Every tensor of the first weight file present, named without a `bert.` prefix (checkpoints
/// saved from `BertModel` have none, those saved from task heads have one).
fn read_weights(dir: &Path) -> Result<HashMap<String, Tensor>, String> {
    let path = WEIGHT_FILES
        .iter()
        .map(|w| dir.join(w))
        .find(|p| p.is_file())
        .ok_or_else(|| format!("{} has no model.safetensors", dir.display()))?;
    // Read into memory rather than mmap: mapping a file is `unsafe`, which this workspace forbids,
    // and the file is small (~90 MB) and dropped once the model holds its tensors.
    let tensors: Vec<(String, Tensor)> = if path.extension().is_some_and(|e| e == "safetensors") {
        candle_core::safetensors::load(&path, &Device::Cpu).map(|m| m.into_iter().collect())
    } else {
        candle_core::pickle::read_all(&path)
    }
    .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    Ok(tensors
        .into_iter()
        .map(|(name, t)| match name.strip_prefix("bert.") {
            Some(rest) => (rest.to_string(), t),
            None => (name, t),
        })
        .collect())
}

/// Scale `v` to unit length (left as is when all zeros).
fn normalize(v: &mut [f32]) {
    let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    if norm > 0.0 {
        v.iter_mut().for_each(|x| *x /= norm);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mean_pool_averages_real_tokens_and_ignores_padding() {
        // Two rows of width 3 with 2-dimensional token vectors; row 1 has one padding position.
        let hidden = [
            1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 10.0, 20.0, 30.0, 40.0, 99.0, 99.0,
        ];
        let mask = [1, 1, 1, 1, 1, 0];
        assert_eq!(
            mean_pool(&hidden, &mask, 2),
            vec![vec![3.0, 4.0], vec![20.0, 30.0]]
        );
    }

    #[test]
    fn normalize_gives_unit_length_and_leaves_zero_alone() {
        let mut v = vec![3.0, 4.0];
        normalize(&mut v);
        assert_eq!(v, vec![0.6, 0.8]);
        let mut z = vec![0.0; 3];
        normalize(&mut z);
        assert_eq!(z, vec![0.0; 3]);
    }
}
