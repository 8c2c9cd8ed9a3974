#!/usr/bin/env bash
# Writes the NPU program of every corpus kernel (tests/data/inductor_kernels,
# tests/data/kernels, examples/kernels, examples/*/kernels, as tests/compiler
# compiles them) on tpuv3-like and edge-8lane into OUTDIR, one file per kernel
# and machine:
# `npusim compile FILE --config CFG --dump` and its exit status. Two folders
# from two builds compare with `diff -r`: a change that must not alter
# programs leaves no difference.
#
#   scripts/dump-corpus-programs.sh /tmp/before   # on the base build
#   scripts/dump-corpus-programs.sh /tmp/after    # on the changed build
#   diff -r /tmp/before /tmp/after
set -euo pipefail
out=${1:?usage: scripts/dump-corpus-programs.sh OUTDIR}
npusim=${NPUSIM:-./build/npusim}
mkdir -p "$out"
{ find tests/data/inductor_kernels tests/data/kernels -name '*.py'; ls examples/*/kernels/*.py examples/kernels/*.py 2>/dev/null; } | sort -u >"$out/files.txt"
for cfg in tpuv3-like edge-8lane; do
  mkdir -p "$out/$cfg"
  while read -r f; do
    name=$(echo "$f" | tr / _)
    status=0
    "$npusim" compile "$f" --config "$cfg" --dump >"$out/$cfg/$name.txt" 2>&1 || status=$?
    echo "rc=$status" >>"$out/$cfg/$name.txt"
  done <"$out/files.txt"
done
