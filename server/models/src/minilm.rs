//! The local sentence encoder (all-MiniLM-L6-v2): a BERT forward pass and mean pooling, and the
//! per-token vectors before pooling.

mod bert;
mod model;

pub use model::{BATCH_SIZE, Embedded, MiniLm, TokenVectors};

/// Weight files the encoder can read, preferred first.
pub const WEIGHT_FILES: [&str; 2] = ["model.safetensors", "pytorch_model.bin"];
