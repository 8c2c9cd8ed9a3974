#!/usr/bin/env bash
# Installs the Debian packages npusim builds and tests with; does nothing when
# they are all present (safe to run again). python3-distributed runs
# `npusim sweep --dask`; chromium (headless) checks the HTML pages in a browser;
# python3-torch (1.13, CPU, eager) is the yardstick the Python tests compare
# the NPU's values with (the LLM's greedy tokens, the library calls).
set -euo pipefail
packages=(g++ cmake ninja-build ccache libgtest-dev libgmock-dev libbenchmark-dev clang libclang-rt-14-dev nlohmann-json3-dev libyaml-cpp-dev zlib1g-dev
  python3-dev pybind11-dev python3-numpy python3-pytest python3-torch
  python3-distributed chromium)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
fi
