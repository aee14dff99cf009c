//! The Llama forward pass, as SmolLM2 needs it: RMSNorm, rotary position embeddings
//! (interleaved, as GGUF stores q/k), grouped-query attention over a per-request KV cache, a
//! SiLU-gated MLP and an output head tied to the embeddings when the file has no
//! `output.weight`.
//!
//! The matrices stay quantized in memory (Q4_1 and Q8_0 as in the file, re-laid out for the
//! kernels: about 97 MB for SmolLM2-135M, where f32 took 540 MB) and multiply activations
//! quantized to 16 bits, on the SIMD kernels the CPU has (chosen at run time, `kernels`) and a
//! pool of one thread per core; q/k/v and gate/up are each one stacked matrix, one product.
//! [`Llama::load_reference`] keeps instead every matrix in f32 and multiplies in plain f32: the
//! slow path the quantized one is checked against.

use super::attention::{KvCache, attention};
use super::config::Config;
use super::kernels::{Acts, COLS, Dense, Kernel, LANES, Matrix, QMatrix};
use candle_core::quantized::{GgmlDType, gguf_file};
use candle_core::{Device, Error};
use std::io::{Read, Seek, SeekFrom};
use std::sync::Arc;

type Result<T> = candle_core::Result<T>;

struct Layer {
    attn_norm: Vec<f32>,
    /// q, k and v stacked: one product per layer.
    qkv: Matrix,
    o: Matrix,
    ffn_norm: Vec<f32>,
    /// gate and up stacked.
    gate_up: Matrix,
    down: Matrix,
}

/// The weights, shared read-only by every request; each request brings its own [`KvCache`].
pub struct Llama {
    config: Config,
    kernel: Kernel,
    pool: rayon::ThreadPool,
    embed: Arc<Matrix>,
    layers: Vec<Layer>,
    norm: Vec<f32>,
    output: Arc<Matrix>,
    /// Rotary frequency of each pair of a head's dimensions.
    inv_freq: Vec<f32>,
}

/// How the matrices are held.
#[derive(Clone, Copy, PartialEq)]
enum Weights {
    Quantized,
    Dense,
}

impl Llama {
    /// The model in `ct`, read from `reader`, its matrices kept quantized.
    pub fn load<R: Read + Seek>(ct: &gguf_file::Content, reader: &mut R) -> Result<Self> {
        Self::load_as(ct, reader, Weights::Quantized)
    }

    /// The model with every matrix dequantized to f32 (about 540 MB for SmolLM2-135M) and
    /// multiplied in plain f32, attention by the portable kernel: the reference the quantized
    /// path is checked against. Several times slower.
    pub fn load_reference<R: Read + Seek>(ct: &gguf_file::Content, reader: &mut R) -> Result<Self> {
        Self::load_as(ct, reader, Weights::Dense)
    }

    fn load_as<R: Read + Seek>(
        ct: &gguf_file::Content,
        reader: &mut R,
        weights: Weights,
    ) -> Result<Self> {
        let config = Config::from_gguf(ct)?;
        let mut read = |names: &[&str]| matrix(ct, reader, names, weights);
        let embed = Arc::new(read(&["token_embd.weight"])?);
        let output = match ct.tensor_infos.contains_key("output.weight") {
            true => Arc::new(read(&["output.weight"])?),
            // Tied embeddings: the output head is the embedding matrix.
            false => Arc::clone(&embed),
        };
        let mut layers = Vec::with_capacity(config.layers);
        for i in 0..config.layers {
            let name = |what: &str| format!("blk.{i}.{what}.weight");
            let mut read = |what: &[&str]| {
                let names: Vec<String> = what.iter().map(|w| name(w)).collect();
                let names: Vec<&str> = names.iter().map(String::as_str).collect();
                matrix(ct, reader, &names, weights)
            };
            layers.push(Layer {
                qkv: read(&["attn_q", "attn_k", "attn_v"])?,
                o: read(&["attn_output"])?,
                gate_up: read(&["ffn_gate", "ffn_up"])?,
                down: read(&["ffn_down"])?,
                attn_norm: vector(ct, reader, &name("attn_norm"))?,
                ffn_norm: vector(ct, reader, &name("ffn_norm"))?,
            });
        }
        let hidden = config.hidden();
        let shapes_fit = embed.cols() == hidden
            && layers.iter().all(|l| {
                l.qkv.rows() == hidden + 2 * config.kv_width()
                    && l.o.cols() == hidden
                    && l.down.rows() == hidden
                    && l.down.cols() * 2 == l.gate_up.rows()
            });
        if !shapes_fit {
            candle_core::bail!("the GGUF's matrices do not fit its llama.* metadata");
        }
        if !config.head_dim.is_multiple_of(LANES) {
            candle_core::bail!("heads of {} are not a multiple of {LANES}", config.head_dim);
        }
        let half = config.head_dim / 2;
        let inv_freq = (0..half)
            .map(|i| {
                1.0 / config
                    .rope_base
                    .powf(2.0 * i as f32 / config.head_dim as f32)
            })
            .collect();
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("vai-llm-{i}"))
            .build()
            .map_err(|e| Error::Msg(format!("cannot start the LLM's threads: {e}")))?;
        Ok(Llama {
            kernel: match weights {
                Weights::Quantized => Kernel::detect(),
                Weights::Dense => Kernel::Scalar,
            },
            pool,
            norm: vector(ct, reader, "output_norm.weight")?,
            config,
            embed,
            layers,
            output,
            inv_freq,
        })
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The kernels in use: `avx512vnni`, `avx2` or `scalar`.
    pub fn kernel(&self) -> &'static str {
        self.kernel.name()
    }

    /// The same model on another kernel (tests compare them).
    #[cfg(test)]
    pub(super) fn with_kernel(mut self, kernel: Kernel) -> Self {
        self.kernel = kernel;
        self
    }

    /// A cache for one request.
    pub fn new_cache(&self) -> KvCache {
        self.new_cache_for(0)
    }

    /// A cache for one request of at most `positions` positions (prompt and answer; capped at
    /// the model's context), its memory reserved at once.
    pub fn new_cache_for(&self, positions: usize) -> KvCache {
        let positions = positions.min(self.config.context_length);
        // f16 where the SIMD kernels widen it in one instruction; the portable kernel (and the
        // reference) keeps f32 rather than convert each number in software.
        let half = self.kernel != Kernel::Scalar;
        KvCache::new(&self.config, positions, half)
    }

    /// Run `ids` (the positions after those in `cache`) through the network, extend the cache,
    /// and return the logits for the token after the last one.
    pub fn forward(&self, ids: &[u32], cache: &mut KvCache) -> Result<Vec<f32>> {
        let cfg = &self.config;
        if ids.is_empty() {
            candle_core::bail!("nothing to run");
        }
        if cache.len + ids.len() > cfg.context_length {
            candle_core::bail!(
                "{} positions exceed the model's context of {}",
                cache.len + ids.len(),
                cfg.context_length
            );
        }
        if let Some(id) = ids.iter().find(|&&id| id as usize >= self.embed.rows()) {
            candle_core::bail!("token {id} is outside the vocabulary");
        }
        Ok(self.pool.install(|| self.run(ids, cache)))
    }

    fn run(&self, ids: &[u32], cache: &mut KvCache) -> Vec<f32> {
        let cfg = &self.config;
        let (t, past, k) = (ids.len(), cache.len, self.kernel);
        let (hidden, kv, hd) = (cfg.hidden(), cfg.kv_width(), cfg.head_dim);
        let mut x = vec![0f32; t * hidden];
        for (x, &id) in x.chunks_exact_mut(hidden).zip(ids) {
            self.embed.row(id as usize, x);
        }
        let rope = self.rope(past, t);
        let (mut h, mut qkv, mut att, mut ff, mut gated) = (
            Vec::new(),
            Vec::new(),
            vec![0f32; t * hidden],
            Vec::new(),
            Vec::new(),
        );
        let mut acts = Acts::default();

        for (layer, lc) in self.layers.iter().zip(cache.layers.iter_mut()) {
            rms_norm(&x, &layer.attn_norm, cfg.rms_eps, &mut h);
            layer.qkv.matmul(k, &h, &mut acts, &mut qkv);
            let width = hidden + 2 * kv;
            for (i, row) in qkv.chunks_exact_mut(width).enumerate() {
                // q and k heads are consecutive: one rotation covers both.
                for head in row[..hidden + kv].chunks_exact_mut(hd) {
                    rotate(head, &rope[i]);
                }
                lc.push(past + i, &row[hidden..hidden + kv], &row[hidden + kv..]);
            }
            attention(k, cfg, lc, &qkv, width, t, past, &mut att);
            layer.o.matmul(k, &att, &mut acts, &mut h);
            x.iter_mut().zip(&h).for_each(|(x, h)| *x += h);

            rms_norm(&x, &layer.ffn_norm, cfg.rms_eps, &mut h);
            layer.gate_up.matmul(k, &h, &mut acts, &mut ff);
            k.swiglu(&ff, layer.gate_up.rows() / 2, &mut gated);
            layer.down.matmul(k, &gated, &mut acts, &mut h);
            x.iter_mut().zip(&h).for_each(|(x, h)| *x += h);
        }
        cache.len += t;

        rms_norm(&x[(t - 1) * hidden..], &self.norm, cfg.rms_eps, &mut h);
        let mut logits = Vec::new();
        self.output.matmul(k, &h, &mut acts, &mut logits);
        logits
    }

    /// cos and sin of positions `past..past + t` times each rotary frequency.
    fn rope(&self, past: usize, t: usize) -> Vec<Vec<(f32, f32)>> {
        (past..past + t)
            .map(|p| {
                let p = p as f32;
                self.inv_freq
                    .iter()
                    .map(|f| ((p * f).cos(), (p * f).sin()))
                    .collect()
            })
            .collect()
    }
}

/// Rotate each pair of a head's dimensions (interleaved: `2i` with `2i + 1`).
fn rotate(head: &mut [f32], angles: &[(f32, f32)]) {
    for (pair, &(cos, sin)) in head.chunks_exact_mut(2).zip(angles) {
        let (a, b) = (pair[0], pair[1]);
        pair[0] = a * cos - b * sin;
        pair[1] = a * sin + b * cos;
    }
}

/// RMSNorm of each row of `x` (rows as long as `weight`), into `out`.
fn rms_norm(x: &[f32], weight: &[f32], eps: f32, out: &mut Vec<f32>) {
    out.clear();
    for row in x.chunks_exact(weight.len()) {
        let mean = row.iter().map(|v| v * v).sum::<f32>() / row.len() as f32;
        let rms = (mean + eps).sqrt();
        out.extend(row.iter().zip(weight).map(|(v, w)| v / rms * w));
    }
}

/// The matrices `names` (same width) stacked by rows, as `weights` asks.
fn matrix<R: Read + Seek>(
    ct: &gguf_file::Content,
    reader: &mut R,
    names: &[&str],
    weights: Weights,
) -> Result<Matrix> {
    let mut infos = Vec::with_capacity(names.len());
    for name in names {
        let info = ct
            .tensor_infos
            .get(*name)
            .ok_or_else(|| Error::Msg(format!("the GGUF has no tensor {name}")))?;
        infos.push((name, info, info.shape.dims2()?));
    }
    let cols = infos[0].2.1;
    if infos.iter().any(|(_, _, (_, c))| *c != cols) {
        candle_core::bail!("{names:?} differ in width");
    }
    let rows = infos.iter().map(|(_, _, (r, _))| r).sum();
    let dtype = infos[0].1.ggml_dtype;
    let same = infos.iter().all(|(_, i, _)| i.ggml_dtype == dtype);
    if weights == Weights::Quantized && same && matches!(dtype, GgmlDType::Q4_1 | GgmlDType::Q8_0) {
        // As in the file, only re-laid out.
        let mut raw = Vec::new();
        for (_, info, (r, c)) in &infos {
            let bytes = r * c / dtype.block_size() * dtype.type_size();
            let at = raw.len();
            raw.resize(at + bytes, 0);
            reader.seek(SeekFrom::Start(ct.tensor_data_offset + info.offset))?;
            reader.read_exact(&mut raw[at..])?;
        }
        let m = match dtype {
            GgmlDType::Q4_1 => QMatrix::from_q4_1(&raw, rows, cols),
            _ => QMatrix::from_q8_0(&raw, rows, cols),
        };
        return Ok(Matrix::Quantized(m));
    }
    let mut values = Vec::with_capacity(rows * cols);
    for name in names {
        values.extend(vector(ct, reader, name)?);
    }
    Ok(match weights {
        // Any other type becomes Q8_0, which the kernels multiply.
        Weights::Quantized if cols % COLS == 0 => {
            Matrix::Quantized(QMatrix::from_f32(&values, rows, cols))
        }
        _ => Matrix::Dense(Dense { rows, cols, values }),
    })
}

/// Tensor `name` dequantized to f32, flattened.
fn vector<R: Read + Seek>(ct: &gguf_file::Content, reader: &mut R, name: &str) -> Result<Vec<f32>> {
    ct.tensor(reader, name, &Device::Cpu)?
        .dequantize(&Device::Cpu)?
        .flatten_all()?
        .to_vec1()
}
