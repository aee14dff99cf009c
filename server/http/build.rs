//! Rebuild when the web app is rebuilt: its files are embedded in release builds.

fn main() {
    println!("cargo:rerun-if-changed=../../web/dist");
}
