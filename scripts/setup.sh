#!/usr/bin/env bash
# Install and build what `npm start` and `npm test` need, skipping whatever is already done:
#   1. Chromium from Debian (/usr/bin/chromium) for the Playwright specs — never a browser
#      downloaded by Playwright;
#   2. the npm workspaces (web, e2e) with `npm ci`, re-run only when package-lock.json changed;
#   3. the local embedding model and the small local LLM (scripts/fetch-model.sh);
#   4. the web app (web/dist), rebuilt only when its sources changed. It must exist before any
#      cargo build: the vai binary embeds it.
set -euo pipefail
cd "$(dirname "$0")/.."

export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1

need() {
  if ! command -v "$1" >/dev/null; then
    echo "error: $1 is required ($2)" >&2
    exit 2
  fi
}
need cargo "install Rust with rustup"
need node "install Node.js 20 or later"
need npm "it comes with Node.js"

# sha256 of the named files' contents (and names), one line.
fingerprint() {
  sha256sum "$@" | sha256sum | cut -d' ' -f1
}

echo "==> Chromium (for the Playwright specs)"
chromium="${VAI_CHROMIUM:-/usr/bin/chromium}"
if [[ -x "$chromium" ]]; then
  echo "$("$chromium" --version 2>/dev/null || echo "$chromium") already installed"
else
  if [[ -n "${VAI_CHROMIUM:-}" ]]; then
    echo "error: VAI_CHROMIUM=$VAI_CHROMIUM is not an executable" >&2
    exit 2
  fi
  if [[ $(id -u) -eq 0 ]]; then
    sudo=()
  elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    sudo=(sudo)
  else
    echo "error: /usr/bin/chromium is missing and installing it needs root: run" >&2
    echo "  sudo apt-get update && sudo apt-get install -y chromium" >&2
    echo "(or set VAI_CHROMIUM to a Chromium executable)" >&2
    exit 2
  fi
  if ! command -v apt-get >/dev/null; then
    echo "error: /usr/bin/chromium is missing and there is no apt-get to install it;" >&2
    echo "install Chromium and set VAI_CHROMIUM to its executable" >&2
    exit 2
  fi
  "${sudo[@]}" apt-get update
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y chromium
  "$chromium" --version
fi

echo "==> npm packages (web, e2e)"
npm_stamp=node_modules/.vai-npm-ci.sha256
want="$(fingerprint package.json package-lock.json web/package.json e2e/package.json)-$(node --version)"
if [[ -f node_modules/.package-lock.json && -f "$npm_stamp" && "$(cat "$npm_stamp")" == "$want" ]]; then
  echo "node_modules is up to date with package-lock.json"
else
  npm ci
  echo "$want" >"$npm_stamp"
fi

echo "==> local models (embeddings, LLM)"
bash scripts/fetch-model.sh

echo "==> web app (web/dist, embedded into the vai binary)"
web_stamp=node_modules/.vai-web-build.sha256
mapfile -d '' web_sources < <(find web -path web/node_modules -prune -o -path web/dist -prune \
  -o -type f -print0 | sort -z)
want="$(fingerprint "${web_sources[@]}" package-lock.json)"
if [[ -f web/dist/index.html && -f "$web_stamp" && "$(cat "$web_stamp")" == "$want" ]]; then
  echo "web/dist is up to date with the web sources"
else
  npm run build -w web
  echo "$want" >"$web_stamp"
fi
