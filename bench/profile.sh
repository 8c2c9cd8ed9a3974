#!/usr/bin/env bash
# Where the wall time of one bundle run goes.
#
#   bench/profile.sh BUNDLE [npusim run options...]     (default: --mode full)
#
# Samples `npusim run examples/BUNDLE` with Linux perf (Debian's linux-perf;
# call stacks unwound through DWARF, so a Release build without frame pointers
# will do) and attributes every sample twice:
#   1. per simulator: the innermost stack frame inside an npusim namespace
#      decides (triton/ir: front end, compiler, functional, timing,
#      reference: reference check, runtime, ...), so time spent in libstdc++
#      or malloc counts for the module that called it;
#   2. per timing component, over the samples of (1) that fell in timing: the
#      innermost frame naming a timing class decides (event queue, DMA, DRAM
#      controller, NoC, units). Simulator::timeLaunch's own samples count as
#      the event queue, whose loop is inlined there.
# When perf cannot record here, it falls back to valgrind's callgrind
# (about 50x slower) and groups self cost by the same rules.
# NPUSIM (default build/npusim), PROFILE_HZ (default 200) and PROFILE_DIR
# (default a temporary directory, kept for `perf report -i`) can be set.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 1 ]; then
  echo "usage: bench/profile.sh BUNDLE [npusim run options...]" >&2
  exit 2
fi
bundle=$1
shift
options=("$@")
[ ${#options[@]} -eq 0 ] && options=(--mode full)
npusim=${NPUSIM:-build/npusim}
hz=${PROFILE_HZ:-200}
dir=${PROFILE_DIR:-$(mktemp -d)}
mkdir -p "$dir"
command=("$npusim" run "examples/$bundle" "${options[@]}")
echo "profile of: ${command[*]}   (data in $dir)"

classify=$(
  cat <<'PY'
import re, sys
from collections import Counter

SIMULATORS = {
    "triton": "front end", "ir": "front end", "compiler": "compiler", "npu": "compiler",
    "functional": "functional", "timing": "timing", "reference": "reference check",
    "runtime": "runtime (steps, buffers)", "library": "NPU library plans", "config": "config",
    "core": "core (tensors, numerics)",
}
# Checked in order within one frame; the innermost matching frame wins.
COMPONENTS = [
    # EventQueue::run is inlined into Simulator::timeLaunch: its own samples are the loop.
    ("event queue", re.compile(r"EventQueue|Simulator::timeLaunch")),
    ("DMA (memory interface)", re.compile(r"MemoryInterface")),
    ("NoC", re.compile(r"CrossbarNoc|Noc\b")),
    ("DRAM controller", re.compile(r"Dram|dram")),
    ("units (cores, dependencies, unit costs)", re.compile(r"CoreModel|DependencyTracker|UnitModel|unitCost|"
                                                            r"InstructionCatalog|instruction|Core\b")),
    ("statistics, traces, launch setup", re.compile(r"Simulator|ChromeTrace|trace|roofline")),
]
namespace = re.compile(r"npusim::(\w+)::")

def frames_of(stack):
    for line in stack:
        sym = line.split(None, 1)[1] if " " in line.strip() else ""
        yield re.sub(r"\+0x[0-9a-f]+ \(.*\)$|\s*\(.*\)$", "", sym)

sim, comp, total = Counter(), Counter(), 0
def account(stack, weight):
    global total
    total += weight
    frames = list(frames_of(stack))
    owner = None
    for f in frames:
        m = namespace.search(f)
        if m:
            owner = m.group(1)
            break
    sim[SIMULATORS.get(owner, owner or "other (startup, kernel, libraries)")] += weight
    if owner != "timing":
        return
    for f in frames:
        if "npusim::timing::" not in f:
            continue
        for name, pattern in COMPONENTS:
            if pattern.search(f.split("npusim::timing::", 1)[1]):
                comp[name] += weight
                return
    comp["other timing"] += weight

mode = sys.argv[1]
if mode == "perf":  # perf script output: a header line, then one frame per line, blank line between samples
    stack = []
    for line in sys.stdin:
        if not line.strip():
            if stack:
                account(stack, 1)
            stack = []
        elif line[0] in " \t":
            stack.append(line.strip())
    if stack:
        account(stack, 1)
else:  # callgrind_annotate: "cost  file:function" lines, self cost only
    for line in sys.stdin:
        m = re.match(r"\s*([\d,]+)\s+\(.*?\)\s+(.*)$", line) or re.match(r"\s*([\d,]+)\s+(\S.*)$", line)
        if m and ":" in m.group(2):
            account(["0 " + m.group(2).split(":", 1)[1]], int(m.group(1).replace(",", "")))

def table(title, counts, of):
    print(f"\n| {title} | share | samples |\n|---|---|---|")
    for name, n in counts.most_common():
        print(f"| {name} | {100.0 * n / of:.1f}% | {n} |")
table("simulator (share of all samples)", sim, total)
timing = sim["timing"]
if timing:
    table("timing component (share of timing)", comp, timing)
PY
)

start=$(date +%s.%N)
if perf record -F "$hz" --call-graph dwarf,16384 -o "$dir/perf.data" -- "${command[@]}" >"$dir/run.log" 2>"$dir/perf.log"; then
  end=$(date +%s.%N)
  echo "wall (under perf): $(echo "$end - $start" | bc) s"
  grep -iE "cycles|verified|total" "$dir/run.log" | tail -5 || true
  perf script -i "$dir/perf.data" --no-inline -F ip,sym 2>/dev/null | python3 -c "$classify" perf
else
  echo "perf could not record ($(tail -1 "$dir/perf.log")); using callgrind" >&2
  valgrind --tool=callgrind --callgrind-out-file="$dir/callgrind.out" "${command[@]}" >"$dir/run.log" 2>"$dir/valgrind.log"
  callgrind_annotate --threshold=100 "$dir/callgrind.out" | python3 -c "$classify" callgrind
fi
