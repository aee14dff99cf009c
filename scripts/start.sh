#!/usr/bin/env bash
# Install what vai needs, build it, and run the main job.
# Idempotent: a second run reuses the build and skips what is already installed.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v cargo >/dev/null; then
  echo "error: cargo (Rust) is required; install it with rustup" >&2
  exit 2
fi

echo "==> building vai (release)"
cargo build --release --locked -p vai

echo "==> vai workflow list"
./target/release/vai workflow list

echo
echo "==> main job: the plan of a built-in workflow (the playground arrives in a later issue)"
./target/release/vai workflow run multi-collection-search --dry-run --input query="rate limiting" "$@"
