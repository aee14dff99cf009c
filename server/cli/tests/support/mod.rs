//! What the CLI's test binaries share.

use std::path::PathBuf;

/// The local embedding model fetched by `scripts/fetch-model.sh` (the test command runs it).
pub(crate) fn model_dir() -> PathBuf {
    let candidates = [
        std::env::var_os("VAI_MODEL_DIR").map(PathBuf::from),
        std::env::var_os("VAI_CACHE_DIR").map(|d| PathBuf::from(d).join("models/all-minilm-l6-v2")),
        std::env::var_os("XDG_CACHE_HOME")
            .map(|d| PathBuf::from(d).join("vai/models/all-minilm-l6-v2")),
        std::env::var_os("HOME")
            .map(|d| PathBuf::from(d).join(".cache/vai/models/all-minilm-l6-v2")),
    ];
    candidates
        .into_iter()
        .flatten()
        .find(|d| d.join("model.safetensors").is_file())
        .expect("the local embedding model is missing: run `bash scripts/fetch-model.sh` first")
}

/// The local LLM's directory, filled by `scripts/fetch-model.sh` like the embedding model.
// `allow`, not `expect`: the cli binary uses it and the mcp binary does not.
#[allow(dead_code, reason = "only the cli test binary runs the local LLM")]
pub(crate) fn llm_dir() -> PathBuf {
    let file = "SmolLM2-135M-Instruct.Q4_1.gguf";
    let candidates = [
        std::env::var_os("VAI_LOCAL_LLM_DIR").map(PathBuf::from),
        std::env::var_os("VAI_CACHE_DIR")
            .map(|d| PathBuf::from(d).join("models/smollm2-135m-instruct")),
        std::env::var_os("XDG_CACHE_HOME")
            .map(|d| PathBuf::from(d).join("vai/models/smollm2-135m-instruct")),
        std::env::var_os("HOME")
            .map(|d| PathBuf::from(d).join(".cache/vai/models/smollm2-135m-instruct")),
    ];
    candidates
        .into_iter()
        .flatten()
        .find(|d| d.join(file).is_file())
        .expect("the local LLM is missing: run `bash scripts/fetch-model.sh` first")
}
