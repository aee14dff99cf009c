//! `vai workflow fmt`.

use crate::exit::{EXIT_FAILED, EXIT_INVALID, EXIT_OK};
use clap::Args;
use std::path::{Path, PathBuf};

/// Rewrite workflow files in the stable form the playground saves and exports.
///
/// Pretty JSON with a two-space indent; the top-level keys in the order people write them
/// ($schema, name, description, version, inputs, defaults, steps, output, then the rest, ui
/// last); everything else as it was. Exits 1 with --check when a file would change, 2 when one
/// cannot be read, is not JSON, or is not a workflow (a JSON Schema, an object with neither "name" nor "steps").
#[derive(Debug, Args)]
pub(crate) struct FmtArgs {
    /// Workflow files.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Write nothing: print the files that would change, and exit 1 if there are any.
    #[arg(long)]
    pub check: bool,
}

pub(super) fn run(args: FmtArgs) -> anyhow::Result<u8> {
    let mut invalid = false;
    let mut changed = 0;
    for path in &args.files {
        let formatted = match formatted(path) {
            Ok(f) => f,
            Err(message) => {
                eprintln!("error: {message}");
                invalid = true;
                continue;
            }
        };
        let Some(text) = formatted else {
            continue;
        };
        changed += 1;
        if args.check {
            println!("{}", path.display());
        } else if let Err(e) = vai_workflow::fsutil::replace_file(path, text.as_bytes()) {
            eprintln!("error: cannot write {}: {e}", path.display());
            invalid = true;
        } else {
            eprintln!("formatted {}", path.display());
        }
    }
    Ok(if invalid {
        EXIT_INVALID
    } else if args.check && changed > 0 {
        EXIT_FAILED
    } else {
        EXIT_OK
    })
}

/// The file's stable form when it differs from what is there; the error names the file (and
/// the line and column of a JSON syntax error).
fn formatted(path: &Path) -> Result<Option<String>, String> {
    let shown = path.display();
    let text = vai_workflow::load::read_text(path).map_err(|e| e.to_string())?;
    let value = vai_workflow::load::parse_json(&text).map_err(|d| match (d.line, d.column) {
        (Some(line), Some(column)) => format!("{shown}:{line}:{column}: {}", d.message),
        _ => format!("{shown}: {}", d.message),
    })?;
    if let Some(what) = vai_workflow::load::not_a_workflow(&value) {
        return Err(format!(
            "{shown} is not a workflow file ({what}); vai workflow fmt formats workflows only"
        ));
    }
    let stable = vai_workflow::format::format(&value);
    Ok((stable != text).then_some(stable))
}
