#!/usr/bin/env bash
# Accuracy of the support-router example's offline routing (embedding similarity) on labelled
# questions, tuning and held-out halves separately. Usage: bash scripts/eval-router.sh [vai-binary]
set -euo pipefail
cd "$(dirname "$0")/.."
vai="${1:-./target/release/vai}"
questions=server/tools/eval/router-questions.json
for half in tuning heldOut; do
  right=0; total=0
  while IFS=$'\t' read -r q want; do
    got=$("$vai" workflow run workflows/examples/support-router.json --input "question=$q" --json 2>/dev/null |
      node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).output.route))')
    total=$((total + 1))
    if [ "$got" = "$want" ]; then right=$((right + 1)); else echo "  $half miss: \"$q\" → $got (want $want)"; fi
  done < <(node -e "for (const x of require('./$questions').$half) console.log(x.q + '\t' + x.route)")
  echo "$half: $right/$total"
done
