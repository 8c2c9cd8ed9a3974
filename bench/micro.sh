#!/usr/bin/env bash
# The micro-benchmarks of bench/, as Markdown: front-end parse + check time,
# reference-interpreter throughput, DRAM-model requests per CPU second and
# host-call costs. Each program's own output follows the command that printed it.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${NPUSIM_BUILD_DIR:-build}
section() { printf '\n## %s\n\n```\n$ %s\n' "$1" "$2"; }
if [ -x "$build/bench/frontend_bench" ]; then
  section "Front end: parse and check (lower to verified TileIR)" "build/bench/frontend_bench"
  "$build/bench/frontend_bench" --benchmark_format=console 2>/dev/null | grep -E '^(BM_|Benchmark|-)'
  kernel=examples/kernels/resnet18_conv_bn_relu_template.py
  printf '$ NPUSIM_BENCH_KERNEL=%s build/bench/frontend_bench\n' "$kernel"
  NPUSIM_BENCH_KERNEL=$kernel "$build/bench/frontend_bench" 2>/dev/null | grep -E '^BM_'
  printf '```\n'
  section "Reference interpreter" "build/bench/interpreter_bench"
  "$build/bench/interpreter_bench" 2>/dev/null | grep -E '^(BM_|Benchmark|-)'
  printf '```\n'
else
  printf '\nThe Google Benchmark programs were not built (Debian package libbenchmark-dev).\n'
fi
section "DRAM model: simulated requests per CPU second" "build/bench/dram_bench tpuv3-like 300000"
"$build/bench/dram_bench" tpuv3-like 300000
printf '```\n'
section "Host calls and the fixed cost of a step (best of 3)" "build/bench/host_steps 3"
"$build/bench/host_steps" 3
printf '```\n'
