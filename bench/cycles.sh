#!/usr/bin/env bash
# Simulated cycles of every bundle under examples/ (or of the bundles named)
# against their rooflines, as Markdown: one row per bundle, then ResNet-18's
# steps (bench/roofline.py over `npusim run examples/B --mode timing --report`,
# which gives full mode's cycles step by step; ctest's example_timing.* holds
# it to that). The same totals are the checked-in table
# examples/cycles-tpuv3-like.tsv that ctest holds full mode to.
set -euo pipefail
cd "$(dirname "$0")/.."
npusim=${NPUSIM:-build/npusim}
config=${NPUSIM_CONFIG:-tpuv3-like}
bundles=("$@")
if [ ${#bundles[@]} -eq 0 ]; then
  for graph in examples/*/graph.json; do bundles+=("$(basename "$(dirname "$graph")")"); done
fi
reports=$(mktemp -d)
trap 'rm -rf "$reports"' EXIT
for bundle in "${bundles[@]}"; do
  "$npusim" run "examples/$bundle" --mode timing --config "$config" --quiet --report "$reports/$bundle.json" >/dev/null
done
echo "Each bundle's simulated time against the sum of its steps' rooflines. A step's"
echo "roofline is the larger of its compute at the units' peak and its compulsory DRAM"
echo "bytes at peak bandwidth: each input element it needs read once, each output element"
echo "written once, whatever its program moves (docs/cli.md, \"--top\"), so the ratio says"
echo "how well each program uses the machine."
echo
python3 bench/roofline.py $(for b in "${bundles[@]}"; do echo "$reports/$b.json"; done)
if [ -f "$reports/resnet18.json" ]; then
  echo
  echo "## ResNet-18, step by step"
  echo
  python3 bench/roofline.py --steps "$reports/resnet18.json"
fi
