#!/usr/bin/env bash
# Regenerates docs/measurements/validation-SUITE.md and its plot
# docs/images/validation-SUITE.png from `npusim validate validation/SUITE`
# (default suite: tpuv3), with the commit, the host and the command
# (scripts/write-measurement.py).
set -euo pipefail
cd "$(dirname "$0")/.."
npusim=${NPUSIM:-build/npusim}
suite=${1:-tpuv3}
out=docs/measurements/validation-$suite.md
png=docs/images/validation-$suite.png
report=$(mktemp)
trap 'rm -f "$report"' EXIT
load=$(cut -d' ' -f1 /proc/loadavg)
"$npusim" validate "validation/$suite" --quiet --report "$report" --png "$png" >/dev/null
title=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["suite"]["title"])' "$report")
machine=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["machine"])' "$report")
python3 - "$report" "$out" "$png" <<'PY' |
import json, os, sys

report, out, png = sys.argv[1:4]
r = json.load(open(report))
lines = [
    f"Silicon cycles: {r['suite']['source']}.",
    "",
    "| workload | silicon cycles | npusim cycles | error |",
    "|---|---|---|---|",
]
for w in r["workloads"]:
    if w["ran"]:
        lines.append(f"| {w['name']} | {w['silicon_cycles']:,} | {w['cycles']:,} | {w['error_percent']:+.1f}% |")
    else:
        lines.append(f"| {w['name']} | {w['silicon_cycles']:,} | failed: {w['failure']} | |")
lines += [
    "",
    f"MAE **{r['mae_percent']:.1f}%** over {r['ran']} of {len(r['workloads'])} workloads; largest error "
    f"{r['max_abs_error_percent']:.1f}%; the suite's limit is {r['suite']['max_mae_percent']:g}%.",
    "",
    f"![errors]({os.path.relpath(png, os.path.dirname(out))})",
]
print("\n".join(lines))
PY
  python3 scripts/write-measurement.py "$out" --title "Silicon validation: $title" \
    --script scripts/update-validation.sh --simulated "$machine" --load-before "$load" \
    --command "npusim validate validation/$suite --report R.json --png $png"
