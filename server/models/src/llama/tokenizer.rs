//! Text ↔ tokens for the local LLM, built from the GGUF's own metadata (`tokenizer.ggml.*`, a
//! GPT-2 style byte-level BPE), and the ChatML prompt SmolLM2 was trained on.
//!
//! Special tokens (`<|im_start|>`, `<|im_end|>`, …) are never produced from text: the prompt
//! builder inserts them by id, so a user who types `<|im_end|>` cannot end their own turn.

use candle_core::quantized::gguf_file;
use std::collections::HashMap;
use tokenizers::models::bpe::BPE;
use tokenizers::pre_tokenizers::byte_level::ByteLevel;
use tokenizers::pre_tokenizers::digits::Digits;
use tokenizers::pre_tokenizers::sequence::Sequence;
use tokenizers::{Model, Tokenizer};

/// The tokenizer and the ids of the chat template's special tokens.
pub struct ChatTokenizer {
    inner: Tokenizer,
    /// Every token's bytes (special tokens: none), for incremental decoding.
    bytes: Vec<Vec<u8>>,
    pub im_start: u32,
    pub im_end: u32,
    pub eos: u32,
    /// What the GGUF's chat template says when a conversation has no system message.
    pub default_system: Option<String>,
}

impl ChatTokenizer {
    pub fn from_gguf(ct: &gguf_file::Content) -> Result<Self, String> {
        let get = |key: &str| {
            ct.metadata
                .get(key)
                .ok_or_else(|| format!("the GGUF has no {key}"))
        };
        let strings = |key: &str| -> Result<Vec<String>, String> {
            get(key)?
                .to_vec()
                .map_err(|e| format!("{key}: {e}"))?
                .iter()
                .map(|v| v.to_string().cloned().map_err(|e| format!("{key}: {e}")))
                .collect()
        };
        let kind = get("tokenizer.ggml.model")?
            .to_string()
            .map_err(|e| e.to_string())?;
        if kind != "gpt2" {
            return Err(format!(
                "the GGUF's tokenizer is \"{kind}\"; only gpt2 (byte-level BPE) is supported"
            ));
        }
        let tokens = strings("tokenizer.ggml.tokens")?;
        let merges = strings("tokenizer.ggml.merges")?
            .into_iter()
            .map(|m| match m.split_once(' ') {
                Some((a, b)) => Ok((a.to_string(), b.to_string())),
                None => Err(format!("tokenizer.ggml.merges: malformed entry {m:?}")),
            })
            .collect::<Result<Vec<_>, _>>()?;
        // Token types 3 (control) and up are special: never matched from text.
        let types: Vec<u32> = match ct.metadata.get("tokenizer.ggml.token_type") {
            Some(v) => v
                .to_vec()
                .map_err(|e| e.to_string())?
                .iter()
                .map(|t| t.to_i32().map(|t| t as u32).unwrap_or(1))
                .collect(),
            None => vec![1; tokens.len()],
        };
        let is_special = |id: usize| types.get(id).is_some_and(|&t| t >= 3);

        let vocab: tokenizers::models::bpe::Vocab = tokens
            .iter()
            .enumerate()
            .map(|(i, t)| (t.clone(), i as u32))
            .collect();
        let bpe = BPE::builder()
            .vocab_and_merges(vocab, merges)
            .build()
            .map_err(|e| format!("cannot build the tokenizer: {e}"))?;
        let mut inner = Tokenizer::new(bpe);
        // SmolLM2's pre-tokenizer ("smollm"): every digit alone, then GPT-2's byte-level split.
        inner.with_pre_tokenizer(Some(Sequence::new(vec![
            Digits::new(true).into(),
            ByteLevel::new(false, true, true).into(),
        ])));

        let unicode_to_byte = byte_decoder();
        let bytes = tokens
            .iter()
            .enumerate()
            .map(|(id, token)| match is_special(id) {
                true => Vec::new(),
                false => token
                    .chars()
                    .map(|c| unicode_to_byte.get(&c).copied().unwrap_or(b'?'))
                    .collect(),
            })
            .collect();

        let id_of = |token: &str| {
            inner
                .get_model()
                .token_to_id(token)
                .ok_or_else(|| format!("the GGUF's vocabulary has no {token}"))
        };
        let im_start = id_of("<|im_start|>")?;
        let im_end = id_of("<|im_end|>")?;
        let eos = match get("tokenizer.ggml.eos_token_id") {
            Ok(v) => v.to_u32().map_err(|e| e.to_string())?,
            Err(_) => im_end,
        };
        let template = get("tokenizer.chat_template")
            .and_then(|v| v.to_string().map_err(|e| e.to_string()))
            .map_err(|_| "the GGUF has no chat template".to_string())?;
        if !template.contains("<|im_start|>") {
            return Err("the GGUF's chat template is not ChatML (<|im_start|>…)".into());
        }
        Ok(ChatTokenizer {
            bytes,
            im_start,
            im_end,
            eos,
            default_system: default_system(template),
            inner,
        })
    }

    /// The tokens of plain text (special-token names in it are ordinary characters).
    pub fn encode(&self, text: &str) -> Result<Vec<u32>, String> {
        self.inner
            .encode(text, false)
            .map(|e| e.get_ids().to_vec())
            .map_err(|e| format!("cannot tokenize: {e}"))
    }

    /// How many tokens the vocabulary has.
    pub fn vocab_len(&self) -> usize {
        self.bytes.len()
    }

    /// The bytes a token stands for (nothing for special tokens).
    pub fn token_bytes(&self, id: u32) -> &[u8] {
        self.bytes.get(id as usize).map_or(&[], Vec::as_slice)
    }

    /// Decode whole: the text of `ids`.
    pub fn decode(&self, ids: &[u32]) -> String {
        let bytes: Vec<u8> = ids
            .iter()
            .flat_map(|&id| self.token_bytes(id))
            .copied()
            .collect();
        String::from_utf8_lossy(&bytes).into_owned()
    }

    /// `<|im_start|>{role}\n{text}<|im_end|>\n`, tokenized.
    pub fn turn(&self, role: &str, text: &[u32]) -> Result<Vec<u32>, String> {
        let mut ids = vec![self.im_start];
        ids.extend(self.encode(&format!("{role}\n"))?);
        ids.extend_from_slice(text);
        ids.push(self.im_end);
        ids.extend(self.encode("\n")?);
        Ok(ids)
    }

    /// `<|im_start|>assistant\n`: where the model's answer begins.
    pub fn answer_prefix(&self) -> Result<Vec<u32>, String> {
        let mut ids = vec![self.im_start];
        ids.extend(self.encode("assistant\n")?);
        Ok(ids)
    }
}

/// Turns token bytes into text as they arrive, holding back a character split across tokens.
#[derive(Default)]
pub struct Utf8Stream {
    pending: Vec<u8>,
}

impl Utf8Stream {
    /// Add bytes; returns the text now complete (possibly empty).
    pub fn push(&mut self, bytes: &[u8]) -> String {
        self.pending.extend_from_slice(bytes);
        let valid = match std::str::from_utf8(&self.pending) {
            Ok(_) => self.pending.len(),
            // An invalid sequence (not just an unfinished one) is replaced, not held forever.
            Err(e) if e.error_len().is_some() => {
                let text = String::from_utf8_lossy(&self.pending).into_owned();
                self.pending.clear();
                return text;
            }
            Err(e) => e.valid_up_to(),
        };
        let rest = self.pending.split_off(valid);
        String::from_utf8(std::mem::replace(&mut self.pending, rest)).expect("checked above")
    }

    /// Whatever is left at the end (a cut-off character becomes U+FFFD).
    pub fn finish(&mut self) -> String {
        let text = String::from_utf8_lossy(&self.pending).into_owned();
        self.pending.clear();
        text
    }
}

/// GPT-2's byte-level alphabet, reversed: the printable character each byte is written as.
fn byte_decoder() -> HashMap<char, u8> {
    let printable = |b: u8| matches!(b, b'!'..=b'~' | 0xA1..=0xAC | 0xAE..=0xFF);
    let mut next = 256u32;
    (0..=255u8)
        .map(|b| {
            let c = match printable(b) {
                true => char::from(b),
                false => {
                    let c = char::from_u32(next).expect("below the surrogates");
                    next += 1;
                    c
                }
            };
            (c, b)
        })
        .collect()
}

/// The system message the template inserts when there is none: the literal between
/// `<|im_start|>system\n` and `<|im_end|>` in the template's source, if it has one.
fn default_system(template: &str) -> Option<String> {
    let start = template
        .find("<|im_start|>system\\n")
        .map(|i| (i, 20))
        .or_else(|| {
            template
                .find("<|im_start|>system\n")
                .map(|i| (i, "<|im_start|>system\n".len()))
        })?;
    let body = &template[start.0 + start.1..];
    let end = body.find("<|im_end|>")?;
    Some(body[..end].to_string()).filter(|s| !s.is_empty() && !s.contains("{{"))
}
