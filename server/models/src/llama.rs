//! The small local LLM (SmolLM2, a Llama): the forward pass over GGUF weights, the tokenizer read
//! from the same file, and how the next token is chosen.

mod model;
mod sample;
mod tokenizer;

pub use model::{Config, KvCache, Llama};
pub use sample::Sampler;
pub use tokenizer::{ChatTokenizer, Utf8Stream};
