//! The compute of vai's local models, with no I/O beyond reading the files it is handed:
//! [`minilm`], the sentence encoder behind local embeddings, and [`llama`], the small local LLM's
//! forward pass, tokenizer and sampler. It is its own crate so that debug builds (the tests, the
//! browser specs) optimise it like the numeric crates it uses (the workspace's
//! `[profile.dev.package.vai-models]`): unoptimised, a local answer takes several times longer.

pub mod llama;
pub mod minilm;
