#!/usr/bin/env bash
# Run every test: Rust unit and integration tests, then each built-in workflow's test cases
# through the real `vai workflow test` command.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v cargo >/dev/null; then
  echo "error: cargo (Rust) is required; install it with rustup" >&2
  exit 2
fi

echo "==> local embedding model (for the local-backend tests)"
bash scripts/fetch-model.sh

echo "==> cargo test"
cargo test --locked --workspace

# `cargo test` built the binary its integration tests drive; use that one (building it again
# without the test features would recompile the providers for nothing).
vai=./target/debug/vai
[ -x "$vai" ] || cargo build --locked -p vai

echo "==> vai workflow validate (built-ins and examples)"
mapfile -t files < <(ls workflows/*.json workflows/examples/*.json | grep -v 'workflow.schema.json$')
"$vai" workflow validate "${files[@]}"

echo "==> vai workflow test (every built-in)"
failed=0
for wf in workflows/*.json; do
  case "$wf" in *workflow.schema.json) continue ;; esac
  echo "--- $wf"
  "$vai" workflow test "$wf" || failed=1
done
for wf in workflows/examples/*.json; do
  if compgen -G "workflows/examples/tests/$(basename "$wf" .json).*.test.json" >/dev/null; then
    echo "--- $wf"
    "$vai" workflow test "$wf" || failed=1
  fi
done
exit $failed
