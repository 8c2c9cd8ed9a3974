#!/usr/bin/env bash
# Runs every bundle under examples/ with `npusim run --mode reference --verify`
# and prints a Markdown table: launches, distinct kernels, library calls, wall
# time and peak memory (resident set, from /usr/bin/time).
set -euo pipefail
cd "$(dirname "$0")/.."
npusim=${NPUSIM:-build/npusim}
echo "| bundle | launches | kernels | library calls | wall time | peak memory | verified |"
echo "|---|---|---|---|---|---|---|"
for graph in examples/*/graph.json; do
  bundle=$(dirname "$graph")
  log=$(mktemp)
  if /usr/bin/time -f "%e %M" -o "$log.time" "$npusim" run "$bundle" --mode reference --verify >"$log" 2>&1; then
    verified=yes
  else
    verified=NO
  fi
  summary=$(grep -m1 "^bundle " "$log" || true)
  launches=$(sed -n 's/.*(\([0-9]*\) launches.*/\1/p' <<<"$summary")
  calls=$(sed -n 's/.* \([0-9]*\) calls).*/\1/p' <<<"$summary")
  kernels=$(sed -n 's/.*), \([0-9]*\) kernels.*/\1/p' <<<"$summary")
  read -r seconds kib <"$log.time"
  printf '| %s | %s | %s | %s | %.2f s | %d MiB | %s |\n' "$(basename "$bundle")" "$launches" "$kernels" "$calls" \
    "$seconds" "$((kib / 1024))" "$verified"
  rm -f "$log" "$log.time"
done
