#!/usr/bin/env bash
# Rewrites rows of examples/cycles-tpuv3-like.tsv, the table of every example
# bundle's total simulated cycles that ctest holds the NPU runs to (within 2%,
# tests/cycles_check.cmake). With bundle names, only those rows are measured
# again; with none, every bundle under examples/. Each run is
# `npusim run examples/B --mode full` on the default preset, as ctest runs it.
set -euo pipefail
cd "$(dirname "$0")/.."
npusim=${NPUSIM:-build/npusim}
table=examples/cycles-tpuv3-like.tsv
bundles=("$@")
if [ ${#bundles[@]} -eq 0 ]; then
  for graph in examples/*/graph.json; do bundles+=("$(basename "$(dirname "$graph")")"); done
fi
report=$(mktemp)
trap 'rm -f "$report" "$report.table"' EXIT
[ -f "$table" ] || printf '# bundle  total simulated cycles, npusim run examples/BUNDLE --mode full (tpuv3-like)\n' >"$table"
for bundle in "${bundles[@]}"; do
  [ -f "examples/$bundle/graph.json" ] || { echo "no bundle examples/$bundle" >&2; exit 1; }
  "$npusim" run "examples/$bundle" --mode full --report "$report" >/dev/null
  cycles=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["totals"]["cycles"])' "$report")
  awk -v name="$bundle" -v cycles="$cycles" '
    $1 == name { print name " " cycles; done = 1; next }
    { print }
    END { if (!done) print name " " cycles }' "$table" >"$report.table"
  mv "$report.table" "$table"
  echo "$bundle $cycles"
done
