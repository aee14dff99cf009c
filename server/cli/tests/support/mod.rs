//! What the CLI's test binaries share.

pub(crate) mod collector;

use std::path::{Path, PathBuf};
use std::process::Command;

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

/// `vai` with nothing configured, in `home`: no keys, no user config, a fresh data directory,
/// the fetched embedding model, and the local LLM looked up in `llm_dir` (a missing directory:
/// none).
pub(crate) fn offline_command(home: &Path, llm_dir: &Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_vai"));
    cmd.current_dir(home)
        .env("NO_COLOR", "1")
        .env("HOME", home)
        .env("VAI_DATA_DIR", home.join("data"))
        .env("VAI_CONFIG_PATH", home.join("no-config.json"))
        .env("VAI_MODEL_DIR", model_dir())
        .env("VAI_LOCAL_LLM_DIR", llm_dir);
    for var in [
        "VOYAGE_API_KEY",
        "VOYAGE_API_BASE",
        "MONGODB_URI",
        "VAI_LLM_PROVIDER",
        "VAI_LLM_API_KEY",
        "VAI_LLM_MODEL",
        "VAI_LLM_BASE_URL",
        "VAI_DEFAULT_DB",
        "VAI_DEFAULT_COLLECTION",
        "VAI_MCP_READ_ONLY",
        "XDG_DATA_HOME",
    ] {
        cmd.env_remove(var);
    }
    cmd
}
