#!/usr/bin/env bash
# Runs every bundle under examples/ in each mode and prints two Markdown tables.
#
# 1. Values: wall time of `npusim run --mode reference` and `--mode functional`
#    (no --verify, so neither pays for the other), their ratio, eager PyTorch on
#    this CPU for the same model where Debian's torch can build it
#    (bench/eager_cpu.py), and the peak resident memory of the functional run.
# 2. Cycles on the default preset: simulated cycles and time from `--mode full`,
#    wall time of `--mode full` and `--mode timing`, and simulated cycles per wall
#    second of the timing run.
# One run each; wall times come from /usr/bin/time.
set -euo pipefail
cd "$(dirname "$0")/.."
npusim=${NPUSIM:-build/npusim}
config=${NPUSIM_CONFIG:-tpuv3-like}
bundles=("$@")
if [ ${#bundles[@]} -eq 0 ]; then
  for graph in examples/*/graph.json; do bundles+=("$(basename "$(dirname "$graph")")"); done
fi

declare -A eager
if [ -z "${NPUSIM_NO_EAGER:-}" ]; then
  while IFS= read -r line; do
    name=$(sed -n 's/.*"bundle": "\([^"]*\)".*/\1/p' <<<"$line")
    ms=$(sed -n 's/.*"eager_cpu_ms": \([0-9.]*\).*/\1/p' <<<"$line")
    eager[$name]=${ms:-}
  done < <(/usr/bin/python3 bench/eager_cpu.py "${bundles[@]}" 2>/dev/null || true)
fi

# run MODE BUNDLE -> "seconds kib" on stdout, the summary in $log
run() {
  local mode=$1 bundle=$2
  /usr/bin/time -f "%e %M" -o "$log.time" "$npusim" run "examples/$bundle" --mode "$mode" --config "$config" \
    >"$log" 2>&1 || echo "FAILED" >>"$log"
  cat "$log.time"
}

log=$(mktemp)
values="| bundle | launches | calls | reference | functional | functional / reference | eager CPU | functional / eager | peak memory (functional) |
|---|---|---|---|---|---|---|---|---|"
cycles="| bundle | simulated cycles | simulated time | full wall | timing wall | steps with values in timing | cycles per wall second (timing) |
|---|---|---|---|---|---|---|"
for bundle in "${bundles[@]}"; do
  read -r refS _ < <(run reference "$bundle")
  summary=$(grep -m1 "^bundle " "$log" || true)
  launches=$(sed -n 's/.*(\([0-9]*\) launches.*/\1/p' <<<"$summary")
  calls=$(sed -n 's/.* \([0-9]*\) calls).*/\1/p' <<<"$summary")
  read -r funS funKiB < <(run functional "$bundle")
  funOk=$(grep -q FAILED "$log" && echo " (failed)" || true)
  read -r fullS _ < <(run full "$bundle")
  npu=$(grep -m1 "^npu: " "$log" || true)
  simCycles=$(sed -n 's/.* cycles=\([0-9]*\).*/\1/p' <<<"$npu")
  simUs=$(sed -n 's/.* time_us=\([0-9.]*\).*/\1/p' <<<"$npu")
  read -r timS _ < <(run timing "$bundle")
  npu=$(grep -m1 "^npu: " "$log" || true)
  withValues=$(sed -n 's/.* steps_with_values=\([0-9]*\).*/\1/p' <<<"$npu")
  e=${eager[$bundle]:-}
  if [ -n "$e" ]; then
    eagerCol=$(printf '%.1f ms' "$e")
    ratioEager=$(awk -v f="$funS" -v e="$e" 'BEGIN { printf "%.0fx", f * 1000 / e }')
  else
    eagerCol="n/a"
    ratioEager="n/a"
  fi
  values+=$'\n'$(printf '| %s | %s | %s | %.2f s | %.2f s%s | %.2fx | %s | %s | %d MiB |' "$bundle" "$launches" "$calls" \
    "$refS" "$funS" "$funOk" "$(awk -v a="$funS" -v b="$refS" 'BEGIN { print (b > 0 ? a / b : 0) }')" "$eagerCol" \
    "$ratioEager" "$((funKiB / 1024))")
  cycles+=$'\n'$(printf '| %s | %s | %.1f us | %.2f s | %.2f s | %s of %s | %s |' "$bundle" "${simCycles:-?}" "${simUs:-0}" \
    "$fullS" "$timS" "${withValues:-?}" "$((launches + calls))" \
    "$(awk -v c="${simCycles:-0}" -v s="$timS" 'BEGIN { printf "%.2e", (s > 0 ? c / s : 0) }')")
done
rm -f "$log" "$log.time"
echo "$values"
echo
echo "$cycles"
