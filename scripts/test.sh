#!/usr/bin/env bash
# Run every test: the hygiene gates (rustfmt, clippy with warnings denied, eslint, Prettier, the
# TypeScript checks, no import cycle between a crate's files), Rust unit and integration tests,
# each built-in workflow's test cases through the real `vai workflow test` command, the web app's
# unit tests (vitest), and the Playwright specs against `vai playground` in Debian's Chromium.
#
# One Rust build serves everything: the debug build the Rust tests make (its local models
# optimised, see Cargo.toml) is the binary the workflow tests and the Playwright specs drive, so
# the workspace is compiled twice (tests, clippy), not three times; the test build runs beside
# the single-threaded hygiene checks, and vitest and Playwright use a worker per core. Every
# phase runs even when an earlier one failed (unless it cannot: the specs need the build); the
# exit status is non-zero when anything failed, and a summary names what and how long each
# phase took.
set -uo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh || exit $?

failed=()
timings=()
phase() {
  local name=$1
  shift
  echo
  echo "==> $name"
  local start=$SECONDS status=0
  "$@" || status=$?
  timings+=("$(printf '%5ss  %s' $((SECONDS - start)) "$name")")
  if [[ $status -ne 0 ]]; then
    failed+=("$name")
    return 1
  fi
}

# cargo-nextest runs the test binaries side by side; plain `cargo test` where it is missing.
if cargo nextest --version >/dev/null 2>&1; then
  rust_tests=(cargo nextest run --locked --workspace)
else
  echo "(cargo-nextest is not installed: cargo test instead)"
  rust_tests=(cargo test --locked --workspace)
fi

# The Rust test build takes minutes on both cores, while the hygiene checks below use one: the
# build starts first, in the background, and its output is shown when the Rust tests begin.
build_log=$(mktemp)
build_start=$SECONDS
"${rust_tests[@]}" --no-run >"$build_log" 2>&1 &
build_pid=$!
trap 'kill $(jobs -p) 2>/dev/null' EXIT

# Hygiene first: the quick checks, so a formatting slip is reported within seconds.
phase "cargo fmt --check" cargo fmt --all --check
phase "Prettier --check (web, e2e)" npm run format:check
phase "eslint (web)" npm run lint -w web
phase "tsc (web, e2e)" npm run typecheck -w web -w e2e

phase "import cycles (scripts/import-cycles.mjs)" node scripts/import-cycles.mjs

rust_build() {
  local status=0
  wait "$build_pid" || status=$?
  cat "$build_log"
  rm -f "$build_log"
  return $status
}
build_waited=$SECONDS
phase "Rust test build (waited for; it started $((build_waited - build_start))s before)" rust_build &&
  phase "Rust tests (${rust_tests[*]:0:2})" "${rust_tests[@]}" --no-fail-fast
phase "cargo clippy -D warnings" cargo clippy --locked --workspace --all-targets -- -D warnings

# The Rust tests built the binary their integration tests drive; use that one (building it
# again without the test features would recompile the providers for nothing).
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

if [[ -x "$vai" ]]; then
  # The list reporter on the console; the HTML report goes to e2e/playwright-report and is never
  # opened. Traces and screenshots of failures land in e2e/test-results. The debug binary serves
  # the web app from web/dist, which setup.sh built.
  # A failed or flaky spec is named again in the summary at the end, where a CI log's tail
  # shows it.
  playwright_log=$(mktemp)
  playwright() { env VAI_BIN="$PWD/target/debug/vai" npm test -w e2e 2>&1 | tee "$playwright_log"; }
  phase "Playwright (e2e/specs)" playwright
else
  failed+=("Playwright (skipped: no vai binary)")
fi

echo
echo "time per phase:"
printf '%s\n' "${timings[@]}"
echo
if [[ -n ${playwright_log:-} ]]; then
  # The list reporter marks a failed attempt with ✘; a spec that passed on its retry is "flaky".
  specs=$(sed 's/\x1b\[[0-9;]*m//g' "$playwright_log" | grep -E '^ +(✘|[0-9]+ (failed|flaky))|^ +\[chromium\]|^ +specs/' | awk '!seen[$0]++')
  if [[ -n $specs ]]; then
    echo "Playwright specs that failed an attempt:"
    echo "$specs"
    echo
  fi
  rm -f "$playwright_log"
fi
if [[ ${#failed[@]} -eq 0 ]]; then
  echo "all tests passed"
  exit 0
fi
echo "FAILED:"
printf '  - %s\n' "${failed[@]}"
exit 1
