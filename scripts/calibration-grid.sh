#!/usr/bin/env bash
# Regenerates docs/measurements/calibration-tpuv3.md: the TPUv3 calibration
# set's MAE (npusim validate validation/tpuv3) over a grid of the timing
# parameters that calibration may move, each on the tpuv3-like preset with
# that one pair of values overridden: the DMA engine's outstanding requests
# and the cross-lane unit's latency per butterfly stage.
set -euo pipefail
cd "$(dirname "$0")/.."
npusim=${NPUSIM:-build/npusim}
out=docs/measurements/calibration-tpuv3.md
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
load=$(cut -d' ' -f1 /proc/loadavg)
rows=()
for outstanding in 512 768 1024 2048; do
  for crossLane in 4 6 8; do
    config=$work/o${outstanding}x${crossLane}.yaml
    printf 'base: tpuv3-like\nname: grid\ndma_outstanding_requests: %s\ncross_lane_latency: %s\n' \
      "$outstanding" "$crossLane" >"$config"
    "$npusim" validate validation/tpuv3 --config "$config" --quiet --report "$work/r.json" >/dev/null
    rows+=("$(python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); print("| %s | %s | %.1f%% | %.1f%% |" % (sys.argv[2], sys.argv[3], r["mae_percent"], r["max_abs_error_percent"]))' "$work/r.json" "$outstanding" "$crossLane")")
  done
done
{
  echo "Each row: the tpuv3-like preset with that pair of values overridden."
  echo
  echo "| dma_outstanding_requests | cross_lane_latency | MAE | largest error |"
  echo "|---|---|---|---|"
  printf '%s\n' "${rows[@]}"
} | python3 scripts/write-measurement.py "$out" --title "Calibration grid: TPUv3 calibration set" \
  --script scripts/calibration-grid.sh --simulated tpuv3-like --load-before "$load" \
  --command "npusim validate validation/tpuv3 --config C (one per row)"
echo "$out"
