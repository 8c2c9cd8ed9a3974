#!/usr/bin/env bash
# Energy and power (docs/energy.md), as Markdown: the 1024^3 GEMM of the TPUv3
# calibration set against NPUWattch's published figure, every bundle under
# examples/ (or those named) on tpuv3-like, ResNet-18 step by step, and the
# sweep examples/sweeps/energy-study.yaml (time against energy). The machine's
# energy table is its `energy` key: tpuv3-like names none, so the default 7nm.
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
for anchor in gemm-1024 layernorm-2048; do
  "$npusim" run "validation/tpuv3/$anchor" --mode timing --config "$config" --quiet \
    --report "$reports/$anchor.json" >/dev/null
done
for bundle in "${bundles[@]}"; do
  "$npusim" run "examples/$bundle" --mode timing --config "$config" --quiet --report "$reports/$bundle.json" >/dev/null
done
echo "## The sanity anchor"
echo
python3 bench/energy.py anchor "$reports/gemm-1024.json" "$reports/layernorm-2048.json"
echo
echo "## Every bundle"
echo
echo "Timing mode on \`$config\`; one bundle is one inference (or one training step), so its"
echo "energy is the energy per inference. Peak step power is the highest average power of"
echo "one step. The largest parts are shares of the bundle's energy."
echo
python3 bench/energy.py bundles $(for b in "${bundles[@]}"; do echo "$reports/$b.json"; done)
echo
echo "## Energy per token"
echo
echo "The language models among them (docs/energy.md, \"Energy per token\"): \`input_ids\` [B, S]"
echo "and logits [B, S, V]; every committed one is a prefill, so its tokens are the B x S it"
echo "processes, and energy per token is its energy over them."
echo
python3 bench/energy.py tokens $(for b in "${bundles[@]}"; do echo "$reports/$b.json"; done)
if [ -f "$reports/resnet18.json" ]; then
  echo
  echo "## ResNet-18, step by step"
  echo
  python3 bench/energy.py steps "$reports/resnet18.json"
fi
echo
echo "## Faster is not always more efficient"
echo
echo "\`npusim sweep examples/sweeps/energy-study.yaml\`: ResNet-18 on tpuv3-like with more"
echo "cores and more arrays per core. Rows by simulated time."
echo
"$npusim" sweep examples/sweeps/energy-study.yaml --out "$reports/sweep" --quiet >/dev/null
python3 bench/energy.py sweep "$reports/sweep/results.csv"
