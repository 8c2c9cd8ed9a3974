#!/usr/bin/env bash
# The whole test suite: the Release build with warnings as errors, the same
# tests under AddressSanitizer + UndefinedBehaviorSanitizer, and short runs of
# the front-end fuzzers. Set NPUSIM_FUZZ_SECONDS to fuzz longer (default 30).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
jobs=$(nproc)

echo "== Release build, warnings as errors =="
scripts/build.sh
ctest --test-dir build --output-on-failure -j "$jobs"

echo "== AddressSanitizer + UndefinedBehaviorSanitizer =="
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNPUSIM_WERROR=ON \
  -DNPUSIM_SANITIZE=ON -DNPUSIM_BENCH=OFF >/dev/null
cmake --build build-asan -j "$jobs"
# The large bundles take many minutes each under the sanitizers and exercise no
# code the small ones do not: on the reference interpreter the MobileNetV2
# template bundle (107 interpreted convolution templates), on the NPU the CNNs and
# the 768-wide transformers. The Release stage above runs them all; the small
# bundles (MLPs, ViT, MoE) run on the NPU under the sanitizers too.
large='resnet18|mobilenet_v2|gpt2|bert|llama'
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build-asan --output-on-failure -j "$jobs" \
  -E "example_bundle[.]mobilenet_v2-templates|example_(npu|timing)(_edge)?[.]($large)"


echo "== Front-end fuzzing (libFuzzer): parser, then parse + lower + verify =="
CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DNPUSIM_FUZZ=ON -DNPUSIM_TESTS=OFF \
  -DNPUSIM_BENCH=OFF >/dev/null
cmake --build build-fuzz --target parse_fuzzer check_fuzzer -j "$jobs"
for fuzzer in parse_fuzzer check_fuzzer; do
  corpus=$(mktemp -d)
  cp fuzz/corpus/* tests/data/kernels/*.py "$corpus"/
  build-fuzz/fuzz/$fuzzer -max_total_time="${NPUSIM_FUZZ_SECONDS:-30}" -timeout=10 -rss_limit_mb=4096 \
    "$corpus" 2>&1 | tail -n 2
  rm -rf "$corpus"
done
echo "== all test stages passed =="
