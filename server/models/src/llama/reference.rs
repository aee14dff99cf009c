//! The forward pass as it was before the quantized kernels: candle's f32 operations over the
//! matrices dequantized at load. Kept for tests only, to check [`Llama`] (both its paths)
//! against an implementation written independently of it, on a small random model.

use super::config::Config;
use candle_core::quantized::{QMatMul, QTensor, gguf_file};
use candle_core::{DType, Device, Module, Tensor};
use std::io::{Read, Seek};
use std::sync::Arc;

type Result<T> = candle_core::Result<T>;

struct Layer {
    attn_norm: Tensor,
    q: QMatMul,
    k: QMatMul,
    v: QMatMul,
    o: QMatMul,
    ffn_norm: Tensor,
    gate: QMatMul,
    up: QMatMul,
    down: QMatMul,
}

/// The model as candle runs it, matrices dequantized to f32.
pub(super) struct Reference {
    config: Config,
    embed: QMatMul,
    layers: Vec<Layer>,
    norm: Tensor,
    output: QMatMul,
    /// Rotary tables, `[context_length, head_dim / 2]`.
    cos: Tensor,
    sin: Tensor,
    device: Device,
}

/// Keys and values of the positions seen so far, one pair per layer.
pub(super) struct Cache {
    layers: Vec<Option<(Tensor, Tensor)>>,
    len: usize,
}

impl Reference {
    pub(super) fn load<R: Read + Seek>(ct: &gguf_file::Content, reader: &mut R) -> Result<Self> {
        let device = Device::Cpu;
        let config = Config::from_gguf(ct)?;
        let embed = Arc::new(ct.tensor(reader, "token_embd.weight", &device)?);
        let output = match ct.tensor_infos.contains_key("output.weight") {
            true => dense_from(ct, reader, "output.weight", &device)?,
            // Tied embeddings: the output head is the embedding matrix.
            false => embed.dequantize(&device)?,
        };
        let norm = dense_from(ct, reader, "output_norm.weight", &device)?;
        let mut layers = Vec::with_capacity(config.layers);
        for i in 0..config.layers {
            let mut w =
                |what: &str| dense_from(ct, reader, &format!("blk.{i}.{what}.weight"), &device);
            let layer = Layer {
                q: QMatMul::Tensor(w("attn_q")?),
                k: QMatMul::Tensor(w("attn_k")?),
                v: QMatMul::Tensor(w("attn_v")?),
                o: QMatMul::Tensor(w("attn_output")?),
                gate: QMatMul::Tensor(w("ffn_gate")?),
                up: QMatMul::Tensor(w("ffn_up")?),
                down: QMatMul::Tensor(w("ffn_down")?),
                attn_norm: w("attn_norm")?,
                ffn_norm: w("ffn_norm")?,
            };
            layers.push(layer);
        }
        let (cos, sin) = rotary_tables(&config, &device)?;
        Ok(Reference {
            embed: QMatMul::from_arc(embed)?,
            output: QMatMul::Tensor(output),
            config,
            layers,
            norm,
            cos,
            sin,
            device,
        })
    }

    pub(super) fn new_cache(&self) -> Cache {
        Cache {
            layers: (0..self.config.layers).map(|_| None).collect(),
            len: 0,
        }
    }

    /// Run `ids` (the positions after those in `cache`) through the network, extend the cache,
    /// and return the logits for the token after the last one.
    pub(super) fn forward(&self, ids: &[u32], cache: &mut Cache) -> Result<Vec<f32>> {
        let cfg = &self.config;
        let (t, pos) = (ids.len(), cache.len);
        if t == 0 {
            candle_core::bail!("nothing to run");
        }
        if pos + t > cfg.context_length {
            candle_core::bail!(
                "{} positions exceed the model's context of {}",
                pos + t,
                cfg.context_length
            );
        }
        let rep = cfg.heads / cfg.kv_heads;
        let ids = Tensor::new(ids, &self.device)?.unsqueeze(0)?;
        let mut x = self.embed.embedding(&ids)?.to_dtype(DType::F32)?;
        let cos = self.cos.narrow(0, pos, t)?;
        let sin = self.sin.narrow(0, pos, t)?;
        let mask = (t > 1)
            .then(|| causal_mask(rep, t, pos, &self.device))
            .transpose()?;
        let scale = 1.0 / (cfg.head_dim as f64).sqrt();

        for (layer, kv) in self.layers.iter().zip(cache.layers.iter_mut()) {
            let h = candle_nn::ops::rms_norm(&x, &layer.attn_norm, cfg.rms_eps)?;
            let heads = |w: &QMatMul, n: usize| -> Result<Tensor> {
                w.forward(&h)?
                    .reshape((1, t, n, cfg.head_dim))?
                    .transpose(1, 2)?
                    .contiguous()
            };
            let q = candle_nn::rotary_emb::rope_i(&heads(&layer.q, cfg.heads)?, &cos, &sin)?;
            let k = candle_nn::rotary_emb::rope_i(&heads(&layer.k, cfg.kv_heads)?, &cos, &sin)?;
            let v = heads(&layer.v, cfg.kv_heads)?;
            let (k, v) = match kv.take() {
                Some((past_k, past_v)) => (
                    Tensor::cat(&[&past_k, &k], 2)?,
                    Tensor::cat(&[&past_v, &v], 2)?,
                ),
                None => (k, v),
            };
            *kv = Some((k.clone(), v.clone()));

            // Grouped-query attention without copying keys: the `rep` query heads that share a
            // key/value head are stacked along the sequence axis.
            let q = q.reshape((1, cfg.kv_heads, rep * t, cfg.head_dim))?;
            let mut att = (q.matmul(&k.t()?)? * scale)?;
            if let Some(mask) = &mask {
                att = att.broadcast_add(mask)?;
            }
            let att = candle_nn::ops::softmax_last_dim(&att)?;
            let y = att
                .matmul(&v)?
                .reshape((1, cfg.heads, t, cfg.head_dim))?
                .transpose(1, 2)?
                .reshape((1, t, cfg.heads * cfg.head_dim))?;
            x = (x + layer.o.forward(&y)?)?;

            let h = candle_nn::ops::rms_norm(&x, &layer.ffn_norm, cfg.rms_eps)?;
            let gated =
                (candle_nn::ops::silu(&layer.gate.forward(&h)?)? * layer.up.forward(&h)?)?;
            x = (x + layer.down.forward(&gated)?)?;
        }
        cache.len += t;

        let last = x.narrow(1, t - 1, 1)?.contiguous()?;
        let last = candle_nn::ops::rms_norm(&last, &self.norm, cfg.rms_eps)?;
        self.output
            .forward(&last)?
            .flatten_all()?
            .to_dtype(DType::F32)?
            .to_vec1()
    }
}

fn dense_from<R: Read + Seek>(
    ct: &gguf_file::Content,
    reader: &mut R,
    name: &str,
    device: &Device,
) -> Result<Tensor> {
    let q: QTensor = ct.tensor(reader, name, device)?;
    q.dequantize(device)
}

/// cos and sin of every position times every rotary frequency, `[context, head_dim / 2]`.
fn rotary_tables(cfg: &Config, device: &Device) -> Result<(Tensor, Tensor)> {
    let half = cfg.head_dim / 2;
    let freqs: Vec<f32> = (0..half)
        .map(|i| 1.0 / cfg.rope_base.powf(2.0 * i as f32 / cfg.head_dim as f32))
        .collect();
    let freqs = Tensor::from_vec(freqs, (1, half), device)?;
    let positions = Tensor::arange(0u32, cfg.context_length as u32, device)?
        .to_dtype(DType::F32)?
        .reshape((cfg.context_length, 1))?;
    let angles = positions.matmul(&freqs)?;
    Ok((angles.cos()?, angles.sin()?))
}

/// Additive mask for `t` new positions after `past` cached ones, with the `rep` query heads of a
/// group stacked: row `g * t + i` may see keys `0..=past + i`.
fn causal_mask(rep: usize, t: usize, past: usize, device: &Device) -> Result<Tensor> {
    let keys = past + t;
    let mask: Vec<f32> = (0..rep * t)
        .flat_map(|row| {
            let i = row % t;
            (0..keys).map(move |j| if j > past + i { f32::NEG_INFINITY } else { 0.0 })
        })
        .collect();
    Tensor::from_vec(mask, (rep * t, keys), device)
}

mod tests;
