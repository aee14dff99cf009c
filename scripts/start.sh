#!/usr/bin/env bash
# Install what vai needs, build it, and run the main job: a built-in workflow on the offline
# default (local embeddings, local store, the sample knowledge base). Idempotent: a second run
# reuses the model cache and the build.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v cargo >/dev/null; then
  echo "error: cargo (Rust) is required; install it with rustup" >&2
  exit 2
fi

echo "==> local embedding model"
bash scripts/fetch-model.sh

echo "==> building vai (release)"
cargo build --release --locked -p vai

echo "==> vai workflow list"
./target/release/vai workflow list

echo
echo "==> main job: multi-collection-search on the offline default (the playground arrives in a later issue)"
./target/release/vai workflow run multi-collection-search --input query="how does authentication work" "$@"
