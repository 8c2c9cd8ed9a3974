#!/usr/bin/env bash
# The whole test suite: the Release build with warnings as errors, the same
# tests under AddressSanitizer + UndefinedBehaviorSanitizer, and short runs of
# the fuzzers (front end, bundle loader, config loader). Set
# NPUSIM_FUZZ_SECONDS to fuzz longer (default 30 each).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
jobs=$(nproc)

echo "== Release build, warnings as errors =="
scripts/build.sh
ctest --test-dir build --output-on-failure -j "$jobs"
echo "screenshots of the HTML pages (headless Chromium): build/report-pages/*.png"

echo "== Python package and API (python/tests, against build/) =="
# Debian's interpreter, where install-deps.sh put numpy and pytest (a python3
# earlier on PATH, a pyenv one say, has neither); NPUSIM_TEST_PYTHON overrides.
NPUSIM_BUILD_DIR=build "${NPUSIM_TEST_PYTHON:-/usr/bin/python3}" -m pytest -q python/tests

echo "== AddressSanitizer + UndefinedBehaviorSanitizer =="
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNPUSIM_WERROR=ON \
  -DNPUSIM_SANITIZE=ON -DNPUSIM_BENCH=OFF >/dev/null
cmake --build build-asan -j "$jobs"
# The large bundles take many minutes each under the sanitizers and exercise no
# code the small ones do not: on the reference interpreter the MobileNetV2
# template bundle (107 interpreted convolution templates), on the NPU the CNNs and
# the 768-wide transformers. The Release stage above runs them all; the small
# bundles (MLPs, ViT, MoE) run on the NPU under the sanitizers too. The browser
# check of the HTML pages runs once, above: the pages are the same.
large='resnet18|mobilenet_v2|gpt2|bert|llama'
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build-asan --output-on-failure -j "$jobs" \
  -E "example_bundle[.]mobilenet_v2-templates|example_(npu|timing)(_edge)?[.]($large)|report_browser"


echo "== Fuzzing (libFuzzer): parser, parse + lower + verify, bundle loader, config loader =="
CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DNPUSIM_FUZZ=ON -DNPUSIM_TESTS=OFF \
  -DNPUSIM_BENCH=OFF >/dev/null
cmake --build build-fuzz --target parse_fuzzer check_fuzzer bundle_fuzzer config_fuzzer -j "$jobs"
# fuzz NAME SEED_FILES...: a scratch corpus seeded with the files, so that the
# checked-in seeds stay as they are.
fuzz() {
  local fuzzer=$1 corpus
  shift
  corpus=$(mktemp -d)
  cp "$@" "$corpus"/
  build-fuzz/fuzz/$fuzzer -max_total_time="${NPUSIM_FUZZ_SECONDS:-30}" -timeout=10 -rss_limit_mb=4096 \
    "$corpus" 2>&1 | tail -n 2
  rm -rf "$corpus"
}
fuzz parse_fuzzer fuzz/corpus/* tests/data/kernels/*.py
fuzz check_fuzzer fuzz/corpus/* tests/data/kernels/*.py
fuzz bundle_fuzzer tests/data/bundles/tiny/graph.json
fuzz config_fuzzer configs/*.yaml configs/dram/*.yaml
echo "== all test stages passed =="
