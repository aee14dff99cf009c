//! The workflow a command names, located (a file, a built-in or an example) and compiled, and
//! its diagnostics printed under the file's name.

use crate::exit::EXIT_INVALID;
use vai_runtime::builtin::{self, Located};
use vai_workflow::{Compiled, Mode, Registry};

/// Locate and compile a workflow; on failure print what is wrong (naming the file) and return
/// the exit code.
pub(super) fn load(arg: &str, registry: &Registry, mode: Mode) -> Result<(Located, Compiled), u8> {
    let located = match builtin::locate(arg) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("error: {e}");
            return Err(EXIT_INVALID);
        }
    };
    let value = match vai_workflow::load::parse_json(&located.text) {
        Ok(v) => v,
        Err(d) => {
            eprintln!("error: {}: {d}", located.display);
            return Err(EXIT_INVALID);
        }
    };
    let compiled = compile_located(&located, &value, registry, mode);
    Ok((located, compiled))
}

/// Compile `value`, found as `located`: its `workflow` steps find their children beside the
/// file (or among the built-ins).
pub(crate) fn compile_located(
    located: &Located,
    value: &serde_json::Value,
    registry: &Registry,
    mode: Mode,
) -> Compiled {
    let (dir, label) = match &located.path {
        Some(path) => (
            Some(
                path.parent()
                    .filter(|p| !p.as_os_str().is_empty())
                    .unwrap_or(std::path::Path::new("."))
                    .to_path_buf(),
            ),
            path.file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
        ),
        None => (None, located.name.clone()),
    };
    match builtin::library(dir.as_deref()) {
        Ok(library) => vai_workflow::compile_with(value, registry, mode, &library, &label),
        Err(_) => vai_workflow::compile(value, registry, mode),
    }
}

/// Print diagnostics under a heading naming the file.
pub(crate) fn print_diagnostics(display: &str, compiled: &Compiled) {
    for d in &compiled.diagnostics {
        let level = match d.severity {
            vai_workflow::Severity::Error => "error",
            vai_workflow::Severity::Warning => "warning",
            vai_workflow::Severity::Info => "info",
        };
        eprintln!("{level}: {display}: {d}");
    }
}
