#!/usr/bin/env bash
# The whole test suite: the Release build with warnings as errors, the same
# tests under AddressSanitizer + UndefinedBehaviorSanitizer, and short runs of
# the fuzzers (front end, bundle loader, config loader). Set
# NPUSIM_FUZZ_SECONDS to fuzz longer (default 30 each). Every stage's start
# and length are printed, and a summary at the end (or where a stage fails).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)

stage_names=()
stage_starts=()
# stage NAME: closes the previous stage and opens NAME.
stage() {
  stage_names+=("$1")
  stage_starts+=("$SECONDS")
  echo "== $1 == ($(date -u +%H:%M:%S) UTC, ${SECONDS} s in)"
}
summary() {
  local status=$? i end
  echo "== stage times (s) =="
  for i in "${!stage_names[@]}"; do
    end=${stage_starts[$((i + 1))]:-$SECONDS}
    printf '%6d  %s\n' $((end - stage_starts[i])) "${stage_names[$i]}"
  done
  printf '%6d  total\n' "$SECONDS"
  [ "$status" -eq 0 ] || echo "== failed in: ${stage_names[-1]} =="
  # the Python tests, where a later stage failed while they ran
  [ -z "${python_pid:-}" ] || kill "$python_pid" 2>/dev/null || true
}
trap summary EXIT

stage "Debian packages"
scripts/install-deps.sh

# Both builds compile from scratch, so both are unity builds (scripts/build.sh):
# every source file then also compiles beside the others of its batch, which
# keeps file-local names distinct. The fuzzers' build compiles file by file.
stage "Release build, warnings as errors"
NPUSIM_UNITY=ON scripts/build.sh
stage "Release ctest"
ctest --test-dir build --output-on-failure -j "$jobs"
echo "screenshots of the HTML pages (headless Chromium): build/report-pages/*.png"

# The Python tests use build/ only and are mostly one process at a time: they
# run while the sanitizer build below compiles into build-asan/, and their
# output is shown (and their status checked) once that build is done.
stage "Python package and API (python/tests, against build/), in the background"
# Debian's interpreter, where install-deps.sh put numpy and pytest (a python3
# earlier on PATH, a pyenv one say, has neither); NPUSIM_TEST_PYTHON overrides.
python_log=$(mktemp)
NPUSIM_BUILD_DIR=build "${NPUSIM_TEST_PYTHON:-/usr/bin/python3}" -m pytest -q python/tests \
  >"$python_log" 2>&1 &
python_pid=$!
python_started=$SECONDS

stage "AddressSanitizer + UndefinedBehaviorSanitizer build"
# -O1 -g1: the sanitizers' usual optimisation level, and line tables for their
# stack traces; it compiles in about half the time of RelWithDebInfo's -O2 -g.
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNPUSIM_WERROR=ON \
  -DNPUSIM_SANITIZE=ON -DNPUSIM_BENCH=OFF "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" \
  -DCMAKE_UNITY_BUILD=ON >/dev/null
cmake --build build-asan -j "$jobs"

stage "Python tests (waiting for them)"
python_status=0
wait "$python_pid" || python_status=$?
python_pid=
cat "$python_log"
rm -f "$python_log"
echo "python/tests: exit status $python_status, $((SECONDS - python_started)) s since they started"
[ "$python_status" -eq 0 ]

stage "AddressSanitizer + UndefinedBehaviorSanitizer ctest"
# The large bundles take many minutes each under the sanitizers and exercise no
# code the small ones do not: on the reference interpreter the MobileNetV2
# template bundle (107 interpreted convolution templates), on the NPU the CNNs and
# the 768-wide transformers. The Release stage above runs them all; the small
# bundles (MLPs, ViT, MoE) run on the NPU under the sanitizers too; the TPUv3
# experiments (batch-64 convolutions, ResNets, encoders) only above, and so do
# the validation suite's large workloads and its MAE check (the 256-row ones
# run the same kernels under the sanitizers), and the eight-lane corpus
# compile (the default machine's runs every kernel through the same passes).
# The browser check of the HTML pages runs once, above: the pages are the same.
large='resnet18|mobilenet_v2|gpt2|bert|llama'
validation_large='gemm-(1024|2048)|layernorm-(2048|8192)|softmax-(2048|8192)'
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build-asan --output-on-failure -j "$jobs" \
  -E "example_bundle[.]mobilenet_v2-templates|example_(npu|timing)(_edge)?[.]($large)|experiment_timing|report_browser|^validation[.]|validation_bundle[.]tpuv3[.]($validation_large)$|Corpus[.]CompilesForEightLaneMachine"

stage "libFuzzer build: parser, parse + lower + verify, bundle loader, config loader"
CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DNPUSIM_FUZZ=ON -DNPUSIM_TESTS=OFF \
  -DNPUSIM_BENCH=OFF >/dev/null
cmake --build build-fuzz --target parse_fuzzer check_fuzzer bundle_fuzzer config_fuzzer -j "$jobs"

stage "Fuzzing, $jobs fuzzers at a time, ${NPUSIM_FUZZ_SECONDS:-30} s each"
# fuzz NAME OUT SEED_FILES...: one fuzzer (one process) on a scratch corpus
# seeded with the files, so that the checked-in seeds stay as they are; its
# output goes to OUT.log, its exit status to OUT.status.
fuzz() {
  local fuzzer=$1 out=$2 corpus status=0
  shift 2
  corpus=$(mktemp -d)
  cp "$@" "$corpus"/
  "build-fuzz/fuzz/$fuzzer" -max_total_time="${NPUSIM_FUZZ_SECONDS:-30}" -timeout=10 -rss_limit_mb=4096 \
    "$corpus" >"$out.log" 2>&1 || status=$?
  rm -rf "$corpus"
  echo "$status" >"$out.status"
}
fuzz_dir=$(mktemp -d)
fuzz_names=()
# start NAME SEED_FILES...: runs the fuzzer in the background once fewer than
# $jobs are running.
start() {
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
    wait -n || true # each fuzzer's status is in its .status file
  done
  fuzz "$1" "$fuzz_dir/$1" "${@:2}" &
  fuzz_names+=("$1")
}
start parse_fuzzer fuzz/corpus/*.py tests/data/kernels/*.py
start check_fuzzer fuzz/corpus/*.py tests/data/kernels/*.py
start bundle_fuzzer tests/data/bundles/tiny/graph.json fuzz/corpus/bundle/*.json
start config_fuzzer configs/*.yaml configs/dram/*.yaml fuzz/corpus/config/*.yaml
wait
fuzz_failed=0
for name in "${fuzz_names[@]}"; do
  status=$(cat "$fuzz_dir/$name.status" 2>/dev/null || echo "none")
  echo "-- $name (exit status $status)"
  if [ "$status" = 0 ]; then
    tail -n 2 "$fuzz_dir/$name.log"
  else
    tail -n 60 "$fuzz_dir/$name.log" || true
    fuzz_failed=1
  fi
done
rm -rf "$fuzz_dir"
[ "$fuzz_failed" -eq 0 ]
stage "done"
echo "== all test stages passed =="
