#!/usr/bin/env bash
# Install what vai needs (scripts/setup.sh: Chromium, npm packages, the local model, the web
# app), build the release binary, and run the main job: the local web playground on the
# built-in multi-collection-search, which runs on the offline default (local embeddings, local
# store, the sample knowledge base). Extra arguments go to `vai playground` (--port, --host,
# --no-open). Idempotent: a second run reuses every cache and build.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh

echo "==> building vai (release)"
cargo build --release --locked -p vai

echo "==> vai workflow list"
./target/release/vai workflow list

echo
echo "==> main job: the playground on multi-collection-search (Ctrl-C stops it)"
exec ./target/release/vai playground multi-collection-search "$@"
