//! The small local LLM (SmolLM2, a Llama): the forward pass over GGUF weights kept quantized, the
//! SIMD kernels it runs on, the tokenizer read from the same file, and how the next token is
//! chosen.

mod attention;
mod config;
mod kernels;
mod model;
#[cfg(test)]
mod reference;
mod sample;
mod tokenizer;

pub use attention::KvCache;
pub use config::Config;
pub use model::Llama;
pub use sample::Sampler;
pub use tokenizer::{ChatTokenizer, Utf8Stream};
