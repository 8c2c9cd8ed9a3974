#!/usr/bin/env bash
# Regenerates the files of docs/measurements/ (each with its commit, host, load
# and command; scripts/write-measurement.py). With names, only those; with none,
# all of them:
#   bundles          bench/bundles.sh: wall time and memory of every bundle in each mode
#   cycles           bench/cycles.sh: every bundle's cycles against its roofline, ResNet-18 by step
#   microbenchmarks  bench/micro.sh: front end, interpreter, DRAM model, host calls
#   dram-bandwidth   the DRAM model's bandwidth on the workloads of tests/timing/dram_bandwidth_test.cpp
#   validation       scripts/update-validation.sh: the silicon validation (npusim validate)
#   energy           bench/energy.sh: energy and power of every bundle, the NPUWattch anchor, a sweep
#   mapping-property bench/mapping_property.py: random compute-bound GEMMs and convolutions against the roofline
#   conv-layers      bench/conv_layers.py: ResNet's convolution layers (stages at batch 64, ResNet-50 at batch 1)
#   experiments      bench/experiments.py: the TPUv3 table's other twelve workloads against their rooflines
#   llm-decode       bench/llm_decode.py: Llama-3-8B decode steps in timing mode (wall, memory, closed form)
#   models           bench/models_vs_eager.py: whole models at real scale (bench/models/) against eager PyTorch
# NPUSIM (default build/npusim) and NPUSIM_BUILD_DIR (default build) name the build.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${NPUSIM_BUILD_DIR:-build}
export NPUSIM=${NPUSIM:-$build/npusim} NPUSIM_BUILD_DIR=$build
out=docs/measurements
names=("$@")
[ ${#names[@]} -eq 0 ] && names=(bundles cycles microbenchmarks dram-bandwidth validation energy mapping-property conv-layers experiments
  llm-decode models)

# write FILE TITLE COMMAND [write-measurement options]: stdin is the body of
# docs/measurements/FILE.md, the measurement $name
write() {
  local file=$1 title=$2 command=$3
  shift 3
  python3 scripts/write-measurement.py "$out/$file.md" --title "$title" \
    --script "scripts/update-measurements.sh $name" --command "$command" --load-before "$load" "$@"
}

for name in "${names[@]}"; do
  load=$(cut -d' ' -f1 /proc/loadavg)
  case $name in
  bundles)
    {
      echo "One run of each bundle in each mode, without \`--verify\` (so no mode pays for another);"
      echo "wall times and peak memory from \`/usr/bin/time\`, eager PyTorch on this CPU from"
      echo "\`bench/eager_cpu.py\` where Debian's torch can build the model. On a loaded host the"
      echo "wall times rise with the load printed above."
      echo
      bench/bundles.sh
    } | write bundles "Wall time of every bundle" "bench/bundles.sh" --simulated tpuv3-like
    ;;
  cycles)
    bench/cycles.sh | write cycles-tpuv3-like "Simulated cycles of every bundle against the roofline" \
      "bench/cycles.sh" --simulated tpuv3-like
    ;;
  microbenchmarks)
    bench/micro.sh | write microbenchmarks "Micro-benchmarks" "bench/micro.sh"
    ;;
  dram-bandwidth)
    {
      echo "One core, no limit on outstanding requests (but where the test says), 64-byte reads;"
      echo "each line as the test prints it: the DRAM timing set, the share of its peak, the"
      echo "row-hit rate, the refreshes and the simulated time. The tests assert the bounds"
      echo "(docs/dram.md); the numbers here are what this build measured."
      echo
      echo "| test | measured |"
      echo "|---|---|"
      "$build/tests/timing_tests" --gtest_filter='DramBandwidth.*' --gtest_color=no | awk '
        /^\[ RUN      \]/ { test = $4; sub(/^DramBandwidth\./, "", test); next }
        /^  [^ ]/ { sub(/^  /, ""); print "| " test " | " $0 " |" }'
    } | write dram-bandwidth "DRAM bandwidth of the timing model" \
      "build/tests/timing_tests --gtest_filter='DramBandwidth.*'"
    ;;
  validation)
    scripts/update-validation.sh
    ;;
  mapping-property)
    /usr/bin/python3 bench/mapping_property.py |
      write mapping-property-tpuv3-like "Compute-bound GEMMs and convolutions against the compulsory-bytes roofline" \
        "bench/mapping_property.py" --simulated tpuv3-like
    ;;
  conv-layers)
    /usr/bin/python3 bench/conv_layers.py |
      write conv-layers-tpuv3-like "ResNet's convolution layers against the roofline" \
        "bench/conv_layers.py" --simulated tpuv3-like
    ;;
  experiments)
    /usr/bin/python3 bench/experiments.py |
      write experiments-tpuv3-like "The TPUv3 table's other workloads against their rooflines" \
        "bench/experiments.py" --simulated tpuv3-like
    ;;
  llm-decode)
    /usr/bin/python3 bench/llm_decode.py |
      write llm-decode-tpuv4-like "Decode steps of billion-parameter LLMs in timing mode" \
        "bench/llm_decode.py" --simulated tpuv4-like
    ;;
  models)
    {
      echo "Machine \`tpuv3-like\`. Each bundle's wall time in full and functional mode (no \`--verify\`),"
      echo "the median of three runs from process start to exit, against eager PyTorch on this CPU"
      echo "(three warm-up runs, the median of nine, two threads; transformers' models rebuilt with"
      echo "torch.nn in \`bench/eager_models.py\`). On a loaded host the wall times rise with the load."
      echo
      /usr/bin/python3 bench/models_vs_eager.py
    } | write models-vs-eager "Whole models at real scale against eager PyTorch" "bench/models_vs_eager.py" \
      --simulated tpuv3-like
    ;;
  energy)
    bench/energy.sh | write energy-tpuv3-like "Energy and power of every bundle" "bench/energy.sh" \
      --simulated "tpuv3-like (energy: 7nm)"
    ;;
  *)
    echo "update-measurements.sh: unknown measurement '$name' (bundles, cycles, microbenchmarks, dram-bandwidth, validation, energy, mapping-property, conv-layers, experiments, llm-decode, models)" >&2
    exit 2
    ;;
  esac
done
