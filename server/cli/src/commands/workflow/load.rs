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
    let compiled = vai_workflow::compile(&value, registry, mode);
    Ok((located, compiled))
}

/// Print diagnostics under a heading naming the file.
pub(super) fn print_diagnostics(display: &str, compiled: &Compiled) {
    for d in &compiled.diagnostics {
        let level = match d.severity {
            vai_workflow::Severity::Error => "error",
            vai_workflow::Severity::Warning => "warning",
            vai_workflow::Severity::Info => "info",
        };
        eprintln!("{level}: {display}: {d}");
    }
}
