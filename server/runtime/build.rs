//! Embeds the files under `workflows/` (built-ins, examples, their tests) into the binary.

use std::fs;
use std::path::{Path, PathBuf};

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../workflows");
    println!("cargo:rerun-if-changed={}", root.display());
    let mut files = Vec::new();
    collect(&root, &root, &mut files);
    // A binary without its built-ins would list and run nothing of its own: fail the build
    // instead (a build cache shared with a removed checkout once produced exactly that).
    assert!(
        !files.is_empty(),
        "no workflow files found under {}",
        root.display()
    );
    files.sort();
    let mut code = String::from(
        "/// (path relative to workflows/, contents)\npub(crate) static FILES: &[(&str, &str)] = &[\n",
    );
    for (rel, abs) in &files {
        println!("cargo:rerun-if-changed={}", abs.display());
        code.push_str(&format!(
            "    ({rel:?}, include_str!({:?})),\n",
            abs.display().to_string()
        ));
    }
    code.push_str("];\n");
    let out =
        PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR")).join("embedded_workflows.rs");
    fs::write(out, code).expect("write embedded_workflows.rs");
}

fn collect(root: &Path, dir: &Path, out: &mut Vec<(String, PathBuf)>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            println!("cargo:rerun-if-changed={}", path.display());
            collect(root, &path, out);
        } else if path.extension().is_some_and(|e| e == "json") {
            let rel = path
                .strip_prefix(root)
                .expect("under root")
                .to_string_lossy()
                .replace('\\', "/");
            let abs = path.canonicalize().expect("canonical path");
            out.push((rel, abs));
        }
    }
}
