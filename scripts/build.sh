#!/usr/bin/env bash
# Configures and builds npusim into build/ (Release, warnings as errors).
# NPUSIM_UNITY=ON compiles each target's sources in batches of eight (CMake's
# unity build): about half the time from scratch, which is what CI does; a
# build that recompiles one file at a time (ccache, editing) is faster without.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DNPUSIM_WERROR=ON \
  -DCMAKE_UNITY_BUILD="${NPUSIM_UNITY:-OFF}" >/dev/null
cmake --build build -j "$(nproc)"
