//! [`Llama`]'s two paths against candle's forward pass on a small random model shaped like
//! SmolLM2 (head size 64, grouped-query attention, Q4_1 layers, Q8_0 tied embeddings with a
//! vocabulary that is not a multiple of sixteen).

use super::*;
use crate::llama::kernels::Kernel;
use crate::llama::model::Llama;
use candle_core::quantized::GgmlDType;
use candle_core::quantized::gguf_file::Value;
use std::io::Cursor;

const VOCAB: usize = 200;

/// A random model as GGUF bytes; `seed` varies the weights.
fn random_gguf(seed: u64) -> Vec<u8> {
    let (hidden, ff, layers) = (128usize, 256usize, 2usize);
    let mut state = seed | 1;
    let mut random = |n: usize, spread: f32| -> Vec<f32> {
        (0..n)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                ((state >> 40) as f32 / (1u64 << 23) as f32 - 1.0) * spread
            })
            .collect()
    };
    let dev = Device::Cpu;
    let mut tensor = |name: String, shape: (usize, usize), dtype: GgmlDType, spread: f32| {
        let values = Tensor::from_vec(random(shape.0 * shape.1, spread), shape, &dev).unwrap();
        (name, QTensor::quantize(&values, dtype).unwrap())
    };
    let mut tensors = vec![tensor(
        "token_embd.weight".into(),
        (VOCAB, hidden),
        GgmlDType::Q8_0,
        1.0,
    )];
    for i in 0..layers {
        for (what, shape) in [
            ("attn_q", (hidden, hidden)),
            ("attn_k", (hidden / 2, hidden)),
            ("attn_v", (hidden / 2, hidden)),
            ("attn_output", (hidden, hidden)),
            ("ffn_gate", (ff, hidden)),
            ("ffn_up", (ff, hidden)),
            ("ffn_down", (hidden, ff)),
        ] {
            tensors.push(tensor(
                format!("blk.{i}.{what}.weight"),
                shape,
                GgmlDType::Q4_1,
                0.2,
            ));
        }
    }
    let mut ones = |n: usize| {
        let values = Tensor::from_vec(random(n, 0.3), n, &dev).unwrap() + 1.0;
        QTensor::quantize(&values.unwrap(), GgmlDType::F32).unwrap()
    };
    tensors.push(("output_norm.weight".into(), ones(hidden)));
    for i in 0..layers {
        tensors.push((format!("blk.{i}.attn_norm.weight"), ones(hidden)));
        tensors.push((format!("blk.{i}.ffn_norm.weight"), ones(hidden)));
    }
    let metadata = [
        ("general.architecture", Value::String("llama".into())),
        ("llama.block_count", Value::U32(layers as u32)),
        ("llama.context_length", Value::U32(512)),
        ("llama.embedding_length", Value::U32(hidden as u32)),
        ("llama.attention.head_count", Value::U32(2)),
        ("llama.attention.head_count_kv", Value::U32(1)),
        ("llama.rope.freq_base", Value::F32(100_000.0)),
        ("llama.attention.layer_norm_rms_epsilon", Value::F32(1e-5)),
    ];
    let metadata: Vec<(&str, &Value)> = metadata.iter().map(|(k, v)| (*k, v)).collect();
    let tensors: Vec<(&str, &QTensor)> = tensors.iter().map(|(k, v)| (k.as_str(), v)).collect();
    let mut bytes = Cursor::new(Vec::new());
    gguf_file::write(&mut bytes, &metadata, &tensors).unwrap();
    bytes.into_inner()
}

/// The GGUF file and its content.
fn open(bytes: &[u8]) -> (gguf_file::Content, Cursor<&[u8]>) {
    let mut file = Cursor::new(bytes);
    (gguf_file::Content::read(&mut file).unwrap(), file)
}

fn prompt(n: usize) -> Vec<u32> {
    (0..n).map(|i| ((i * 7919 + 13) % VOCAB) as u32).collect()
}

fn max_diff(a: &[f32], b: &[f32]) -> f32 {
    assert_eq!(a.len(), b.len());
    a.iter()
        .zip(b)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f32::max)
}

/// Logits after a prompt fed in two chunks, then after each of two more tokens.
fn steps(mut forward: impl FnMut(&[u32]) -> Vec<f32>, ids: &[u32]) -> Vec<Vec<f32>> {
    let (a, b) = ids[..ids.len() - 2].split_at(ids.len() / 3);
    [a, b, &ids[ids.len() - 2..][..1], &ids[ids.len() - 1..]]
        .iter()
        .map(|chunk| forward(chunk))
        .collect()
}

#[test]
fn the_f32_path_is_candles_forward_pass() {
    let bytes = random_gguf(7);
    let (ct, mut file) = open(&bytes);
    let reference = Reference::load(&ct, &mut file).unwrap();
    let dense = Llama::load_reference(&ct, &mut file).unwrap();
    let ids = prompt(300);
    let mut cache = reference.new_cache();
    let want = steps(|ids| reference.forward(ids, &mut cache).unwrap(), &ids);
    let mut cache = dense.new_cache();
    let got = steps(|ids| dense.forward(ids, &mut cache).unwrap(), &ids);
    assert_eq!(got[0].len(), VOCAB);
    for (step, (got, want)) in got.iter().zip(&want).enumerate() {
        let diff = max_diff(got, want);
        assert!(diff < 1e-3, "step {step}: logits differ by {diff}");
    }
}

#[test]
fn the_quantized_path_stays_close_to_f32_with_every_kernel() {
    let bytes = random_gguf(11);
    let (ct, mut file) = open(&bytes);
    let dense = Llama::load_reference(&ct, &mut file).unwrap();
    let ids = prompt(300);
    let mut cache = dense.new_cache();
    let want = steps(|ids| dense.forward(ids, &mut cache).unwrap(), &ids);
    for kernel in Kernel::available() {
        let model = Llama::load(&ct, &mut file).unwrap().with_kernel(kernel);
        let mut cache = model.new_cache();
        let got = steps(|ids| model.forward(ids, &mut cache).unwrap(), &ids);
        for (step, (got, want)) in got.iter().zip(&want).enumerate() {
            // Activations rounded to 16 bits: about 2e-4 of the logits' RMS on this random model
            // (whose weights amplify noise; with 8-bit activations it was 3–5%).
            let error = rms(got, want) / rms(want, &vec![0.0; want.len()]);
            assert!(error < 1e-3, "{} step {step}: {error} off", kernel.name());
            assert_eq!(argmax(got), argmax(want), "{} step {step}", kernel.name());
        }
    }
}

fn rms(a: &[f32], b: &[f32]) -> f32 {
    (a.iter().zip(b).map(|(a, b)| (a - b) * (a - b)).sum::<f32>() / a.len() as f32).sqrt()
}

fn argmax(v: &[f32]) -> usize {
    (0..v.len()).max_by(|&a, &b| v[a].total_cmp(&v[b])).unwrap()
}

#[test]
fn the_mask_lets_each_position_see_the_past_and_itself() {
    let mask = causal_mask(2, 2, 1, &Device::Cpu).unwrap();
    let rows: Vec<Vec<f32>> = mask.to_vec2().unwrap();
    let inf = f32::NEG_INFINITY;
    assert_eq!(
        rows,
        vec![
            vec![0.0, 0.0, inf],
            vec![0.0, 0.0, 0.0],
            vec![0.0, 0.0, inf],
            vec![0.0, 0.0, 0.0]
        ]
    );
}
