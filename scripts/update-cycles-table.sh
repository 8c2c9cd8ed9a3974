#!/usr/bin/env bash
# Rewrites rows of a checked-in table of total simulated cycles that ctest holds
# the NPU runs to (within 2%, tests/cycles_check.cmake):
#   examples/cycles-tpuv3-like.tsv: every example bundle, `npusim run examples/B
#     --mode full` on the default preset (example_npu.*);
#   bench/experiments/tpuv3/cycles-tpuv3-like.tsv (with --experiments): the TPUv3
#     table's other workloads, `npusim run bench/experiments/tpuv3/B --mode timing`
#     (experiment_timing.*).
# With bundle names, only those rows are measured again; with none, every bundle
# of the directory.
#
#   scripts/update-cycles-table.sh [--experiments] [BUNDLE...]
set -euo pipefail
cd "$(dirname "$0")/.."
npusim=${NPUSIM:-build/npusim}
dir=examples
mode=full
if [ "${1:-}" = --experiments ]; then
  shift
  dir=bench/experiments/tpuv3
  mode=timing
fi
table=$dir/cycles-tpuv3-like.tsv
bundles=("$@")
if [ ${#bundles[@]} -eq 0 ]; then
  for graph in "$dir"/*/graph.json; do bundles+=("$(basename "$(dirname "$graph")")"); done
fi
report=$(mktemp)
trap 'rm -f "$report" "$report.table"' EXIT
[ -f "$table" ] ||
  printf '# bundle  total simulated cycles, npusim run %s/BUNDLE --mode %s (tpuv3-like)\n' "$dir" "$mode" >"$table"
for bundle in "${bundles[@]}"; do
  [ -f "$dir/$bundle/graph.json" ] || { echo "no bundle $dir/$bundle" >&2; exit 1; }
  "$npusim" run "$dir/$bundle" --mode "$mode" --report "$report" >/dev/null
  cycles=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["totals"]["cycles"])' "$report")
  awk -v name="$bundle" -v cycles="$cycles" '
    $1 == name { print name " " cycles; done = 1; next }
    { print }
    END { if (!done) print name " " cycles }' "$table" >"$report.table"
  mv "$report.table" "$table"
  echo "$bundle $cycles"
done
