//! The shape of the network, read from the GGUF metadata: what the forward pass, the attention
//! and the KV cache are sized by.

use candle_core::Error;
use candle_core::quantized::gguf_file;

type Result<T> = candle_core::Result<T>;

/// The shape of the network, from the GGUF metadata.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    pub layers: usize,
    pub heads: usize,
    pub kv_heads: usize,
    pub head_dim: usize,
    pub rms_eps: f32,
    pub rope_base: f32,
    /// Longest sequence the model was trained on.
    pub context_length: usize,
}

impl Config {
    pub(super) fn from_gguf(ct: &gguf_file::Content) -> Result<Self> {
        let get = |key: &str| {
            ct.metadata
                .get(key)
                .ok_or_else(|| Error::Msg(format!("GGUF metadata has no {key}")))
        };
        let arch = get("general.architecture")?.to_string()?;
        if arch != "llama" {
            candle_core::bail!("the GGUF holds a \"{arch}\" model; only llama is supported");
        }
        let u = |key: &str| get(key).and_then(|v| v.to_u32()).map(|v| v as usize);
        let heads = u("llama.attention.head_count")?;
        let embedding = u("llama.embedding_length")?;
        Ok(Config {
            layers: u("llama.block_count")?,
            heads,
            kv_heads: u("llama.attention.head_count_kv").unwrap_or(heads),
            head_dim: embedding / heads,
            rms_eps: get("llama.attention.layer_norm_rms_epsilon")?.to_f32()?,
            rope_base: get("llama.rope.freq_base")
                .and_then(|v| v.to_f32())
                .unwrap_or(10_000.0),
            context_length: u("llama.context_length").unwrap_or(2048),
        })
    }

    pub(super) fn hidden(&self) -> usize {
        self.heads * self.head_dim
    }

    pub(super) fn kv_width(&self) -> usize {
        self.kv_heads * self.head_dim
    }
}
