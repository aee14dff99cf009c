#!/usr/bin/env bash
# Run every test: the hygiene gates (rustfmt, clippy with warnings denied, eslint, Prettier, the
# TypeScript checks), Rust unit and integration tests, each built-in workflow's test cases through
# the real `vai workflow test` command, the web app's unit tests (vitest), and the Playwright
# specs against the release `vai playground` in Debian's Chromium. Every phase runs even when an
# earlier one failed (unless it cannot: the specs need the release build); the exit status is
# non-zero when anything failed, and a summary names what.
set -uo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh || exit $?

failed=()
phase() {
  local name=$1
  shift
  echo
  echo "==> $name"
  if ! "$@"; then
    failed+=("$name")
    return 1
  fi
}

# Hygiene first: the quick checks, so a formatting slip is reported within seconds.
phase "cargo fmt --check" cargo fmt --all --check
phase "Prettier --check (web, e2e)" npm run format:check
phase "eslint (web)" npm run lint -w web
phase "tsc (web, e2e)" npm run typecheck -w web -w e2e

phase "cargo test" cargo test --locked --workspace
phase "cargo clippy -D warnings" cargo clippy --locked --workspace --all-targets -- -D warnings

# `cargo test` built the binary its integration tests drive; use that one (building it again
# without the test features would recompile the providers for nothing).
vai=./target/debug/vai
[[ -x "$vai" ]] || phase "cargo build (debug)" cargo build --locked -p vai

validate_all() {
  local files
  mapfile -t files < <(ls workflows/*.json workflows/examples/*.json | grep -v 'workflow.schema.json$')
  "$vai" workflow validate "${files[@]}" e2e/fixtures/*.vai-workflow.json e2e/fixtures/dropped.json
}
phase "vai workflow validate (built-ins, examples, e2e fixtures)" validate_all

test_all() {
  local wf status=0
  for wf in workflows/*.json; do
    case "$wf" in *workflow.schema.json) continue ;; esac
    echo "--- $wf"
    "$vai" workflow test "$wf" || status=1
  done
  for wf in workflows/examples/*.json; do
    if compgen -G "workflows/examples/tests/$(basename "$wf" .json).*.test.json" >/dev/null; then
      echo "--- $wf"
      "$vai" workflow test "$wf" || status=1
    fi
  done
  return $status
}
phase "vai workflow test (every built-in)" test_all

phase "web unit tests (vitest)" npm test -w web

if phase "cargo build --release" cargo build --release --locked -p vai; then
  # The list reporter on the console; the HTML report goes to e2e/playwright-report and is never
  # opened. Traces and screenshots of failures land in e2e/test-results.
  phase "Playwright (e2e/specs)" npm test -w e2e
else
  failed+=("Playwright (skipped: no release build)")
fi

echo
if [[ ${#failed[@]} -eq 0 ]]; then
  echo "all tests passed"
  exit 0
fi
echo "FAILED:"
printf '  - %s\n' "${failed[@]}"
exit 1
