#!/usr/bin/env bash
# The reliability probe: every command the way a careless script or a
# demanding user drives it (faults in timing mode, configs from a bad editor,
# outputs that cannot be written, huge grids under a memory cap, two sweeps at
# once, kill -9 mid-sweep), each finding checked against what docs/cli.md,
# docs/config.md, docs/sweeps.md and docs/serving.md promise. One line per
# probe: "ok NAME" or "FAIL NAME: what happened"; exit status 1 if any failed.
#
#   scripts/probe-reliability.sh [--fast] [--npusim PATH]
#
# --fast leaves out the probes that run sweeps of real bundles (seconds each);
# ctest runs the fast ones (reliability_probe).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
npusim="$root/build/npusim"
fast=0
while [ $# -gt 0 ]; do
  case "$1" in
    --fast) fast=1 ;;
    --npusim) npusim=$2; shift ;;
    *) echo "usage: $0 [--fast] [--npusim PATH]" >&2; exit 2 ;;
  esac
  shift
done
npusim=$(cd "$(dirname "$npusim")" && pwd)/$(basename "$npusim")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 2
kernel="$root/tests/data/cli/triton_poi_fused_add_mul_0.py"
tiny="$root/tests/data/bundles/tiny"
failures=0

ok() { echo "ok $1"; }
fail() { echo "FAIL $1: $2"; failures=$((failures + 1)); }
# expect NAME STATUS PATTERN COMMAND...: the command exits with STATUS and its
# stderr matches the extended regular expression PATTERN ("": stderr is empty).
expect() {
  local name=$1 status=$2 pattern=$3 got
  shift 3
  "$@" >out.txt 2>err.txt
  got=$?
  if [ "$got" != "$status" ]; then
    fail "$name" "exit status $got, expected $status; stderr: $(head -c 300 err.txt)"
  elif [ -z "$pattern" ] && [ -s err.txt ]; then
    fail "$name" "stderr is not empty: $(head -c 300 err.txt)"
  elif [ -n "$pattern" ] && ! grep -Eq -- "$pattern" err.txt; then
    fail "$name" "stderr does not match '$pattern': $(head -c 300 err.txt)"
  else
    ok "$name"
  fi
}
# Nothing but the named files (no temporary, no half-written one) in DIR.
only_files() {
  local dir=$1 want=$2 got
  got=$(cd "$dir" && ls -A | sort | tr '\n' ' ')
  [ "$got" = "$want" ]
}

# -- silently wrong ----------------------------------------------------------
sed 's/tl.store(out_ptr0 + (x0), tmp4, xmask)/tl.store(out_ptr0 + (x0 + 5), tmp4)/' "$kernel" >store.py
sed 's/tl.load(in_ptr0 + (x0), xmask)/tl.load(in_ptr0 + (x0 + 100000000), xmask)/' "$kernel" >load.py
for mode in timing functional full; do
  expect "timing-bounds: out-of-bounds store, --mode $mode" 1 "outside buffer 'out_ptr0'.*element offset 1000," \
    "$npusim" kernel store.py --mode "$mode" --quiet
  expect "timing-bounds: out-of-bounds load, --mode $mode" 1 "outside buffer 'in_ptr0'.*element offset 100000000," \
    "$npusim" kernel load.py --mode "$mode" --quiet
done
printf 'name: x\n---\nlanes: 64\n' >two.yaml
expect "config: a second YAML document" 1 "two.yaml:2: a second YAML document" "$npusim" presets two.yaml
mkdir -p dir.yaml
expect "config: a directory" 1 "dir.yaml: is a directory, not a configuration file" "$npusim" presets ./dir.yaml
: >empty.yaml
expect "config: an empty file is the defaults" 0 "" "$npusim" presets empty.yaml
printf 'num_cores: 1\n\nlanes:\n\n\nvlen_bits: 256\n' >absent.yaml
expect "config: an absent value on its key's line" 1 "absent.yaml:3: key 'lanes': expected a single value" \
  "$npusim" presets absent.yaml
printf 'base: tpuv3-like\nname: caf\xe9\n' >latin1.yaml
expect "config: invalid UTF-8 before the run" 1 "latin1.yaml:2: invalid UTF-8" \
  "$npusim" run "$tiny" --mode timing --config latin1.yaml --report r.json --quiet
for i in $(seq 1 400000); do echo "k$i: $i"; done >big.yaml
expect "config: a 5 MB file is refused before parsing" 1 "big.yaml: the configuration file is [0-9]+ bytes, more than the limit" \
  "$npusim" presets big.yaml
printf 'bundles: [%s]\nmode: timing\n\n\ngrid:\n  num_cores: [1]\n  lanes: [96]\n' "$tiny" >sweep.yaml
expect "sweep: a bad value named at its line" 1 "sweep.yaml:7: key 'lanes': '96' must be a power of two" \
  "$npusim" sweep sweep.yaml --out lines --quiet
scenario() { # scenario FILE PLACEMENT STREAM-LINES...
  local file=$1 placement=$2
  shift 2
  { printf 'machine: tpuv3-like\ntenants:\n  - name: t\n    bundle: %s\n    requests:\n' "$tiny"
    for line in "$@"; do printf '      %s\n' "$line"; done
    [ -n "$placement" ] && printf '%s\n' "$placement"; } >"$file"
}
scenario empty-placement.yaml "placement: []" "arrival: fixed" "times_us: [0]"
expect "serve: placement: []" 1 "empty-placement.yaml:8: placement: the list is empty" "$npusim" serve empty-placement.yaml
scenario count.yaml "" "arrival: poisson" "rate_per_s: 1000" "count: 100000000"
expect "serve: count: 100000000" 1 "count.yaml:8: key 'count': 100000000 is out of range" "$npusim" serve count.yaml
scenario rate.yaml "" "arrival: poisson" "rate_per_s: 1e-300" "count: 3"
expect "serve: rate_per_s: 1e-300" 1 "rate.yaml:7: key 'rate_per_s': at 1e-300 per second" "$npusim" serve rate.yaml
scenario times.yaml "" "arrival: fixed" "times_us: [1e300]"
expect "serve: times_us: [1e300]" 1 "times.yaml:7: key 'times_us': 1e\\+300 us is out of range" "$npusim" serve times.yaml
scenario think.yaml "" "arrival: closed_loop" "outstanding: 1" "count: 2" "think_us: 1e300"
expect "serve: think_us: 1e300" 1 "think.yaml:9: key 'think_us': 1e\\+300 us is out of range" "$npusim" serve think.yaml

# -- half-written or lost output ---------------------------------------------
expect "outputs: checked before the run" 1 "--report nodir/r.json: cannot write the file: nodir: No such file" \
  "$npusim" run "$tiny" --mode timing --report nodir/r.json --quiet
[ -s out.txt ] && fail "outputs: nothing runs before the check" "stdout: $(head -c 200 out.txt)" \
  || ok "outputs: nothing runs before the check"
expect "outputs: --trace ''" 1 "--trace: the path is empty" "$npusim" run "$tiny" --mode timing --trace "" --quiet
mkdir -p keep
"$npusim" run "$tiny" --mode timing --report keep/r.json --html keep/p.html --trace keep/t.json --quiet >/dev/null 2>&1
cp keep/p.html p.good
cp keep/t.json t.good
expect "outputs: ulimit -f, every failure reported" 1 "--html keep/p.html: cannot write the file: File too large" \
  bash -c "ulimit -f 8; exec \"\$0\" run \"\$1\" --mode timing --report keep/r.json --html keep/p.html --trace keep/t.json --quiet" \
  "$npusim" "$tiny"
grep -q -- "--trace keep/t.json: cannot write the file: File too large" err.txt \
  && ok "outputs: the trace's failure too" || fail "outputs: the trace's failure too" "$(cat err.txt)"
if cmp -s keep/p.html p.good && cmp -s keep/t.json t.good && only_files keep "p.html r.json t.json "; then
  ok "outputs: old files kept, no half-written or temporary file"
else
  fail "outputs: old files kept, no half-written or temporary file" "$(ls -A keep | tr '\n' ' ')"
fi
"$npusim" kernel "$kernel" --out npy >/dev/null 2>&1
cp npy/out_ptr0.npy out.good
expect "outputs: kernel .npy past ulimit -f" 1 "npy/out_ptr0.npy: cannot write the file: File too large" \
  bash -c "ulimit -f 1; exec \"\$0\" kernel \"\$1\" --out npy --seed 3" "$npusim" "$kernel"
cmp -s npy/out_ptr0.npy out.good && only_files npy "in_ptr0.npy in_ptr1.npy out_ptr0.npy " \
  && ok "outputs: kernel keeps the old .npy" || fail "outputs: kernel keeps the old .npy" "$(ls -A npy)"

# -- memory without bound ----------------------------------------------------
# A launch is timed as its instances run, in memory that does not grow with
# the grid: still running after 10 s under the cap (timeout's 124), no error.
expect "memory: --grid 100000000 --mode timing under ulimit -v 4 GB" 124 "" \
  bash -c "ulimit -v 4000000; exec timeout 10 \"\$0\" kernel \"\$1\" --grid 100000000 --mode timing --quiet" \
  "$npusim" "$kernel"
# On two cores a kernel whose even instances do all the work leaves core 0
# lagging: it holds at most its cap (docs/timing.md, "Memory of a launch"),
# and the instructions core 1 starts late are counted, not hidden.
sed 's/xoffset = tl.program_id(0) \* XBLOCK/xoffset = (tl.program_id(0) % 2) * XBLOCK/' "$kernel" >skew.py
printf 'base: tpuv3-like\nnum_cores: 2\n' >two-cores.yaml
expect "memory: a lagging core's late instructions are reported" 0 "skew.py: note: [1-9][0-9]* instructions started later" \
  "$npusim" kernel skew.py --grid 4000 --mode timing --config two-cores.yaml --quiet
grep -Eq " late_instructions=[1-9][0-9]* " out.txt && ok "memory: late instructions on the summary line" \
  || fail "memory: late instructions on the summary line" "$(cat out.txt)"
printf 'base: tpuv3-like\nspad_kib_per_lane: 131072\n' >spad.yaml
expect "memory: spad_kib_per_lane: 131072" 1 "key 'spad_kib_per_lane': 131072 KiB per lane" \
  bash -c "ulimit -v 4000000; exec \"\$0\" kernel \"\$1\" --mode functional --config spad.yaml" "$npusim" "$kernel"
scenario many.yaml "" "arrival: poisson" "rate_per_s: 100000" "count: 1000000"
expect "memory: serve 1000000 requests under ulimit -v 1.5 GB" 1 "many.yaml:8: key 'count': 1000000 requests" \
  bash -c "ulimit -v 1500000; exec \"\$0\" serve many.yaml --quiet" "$npusim"

# -- progress on a terminal --------------------------------------------------
if command -v script >/dev/null; then
  script -qec "'$npusim' kernel '$kernel' --grid 20000 --mode timing" /dev/null >tty.txt 2>&1
  grep -q "timing the launch" tty.txt && ok "progress: kernel on a terminal" || fail "progress: kernel on a terminal" "no line"
  script -qec "'$npusim' serve '$root/examples/serving/mlp-tiny.yaml'" /dev/null >tty.txt 2>&1
  grep -q "mlp: step" tty.txt && ok "progress: serve on a terminal" || fail "progress: serve on a terminal" "no line"
fi

# -- concurrency and signals (real bundles: seconds each) -----------------------
if [ "$fast" = 0 ]; then
  printf 'bundles: [%s]\nmode: timing\ngrid:\n  core_freq_mhz: [900, 910, 920, 930, 940, 950]\n' \
    "$root/examples/bert" >bert.yaml
  # Processes whose command line names the study folder ("stud[y]": not grep's own).
  running() { grep -l -- "$work/stud[y]" /proc/[0-9]*/cmdline 2>/dev/null | wc -l; }
  "$npusim" sweep bert.yaml --out "$work/study" --jobs 1 --quiet >first.txt 2>&1 &
  first=$!
  for _ in $(seq 100); do [ -d study/tasks ] && [ "$(running)" -gt 1 ] && break; sleep 0.1; done
  expect "sweep: a second sweep into one --out" 1 "another npusim sweep \\(process $first\\)" \
    "$npusim" sweep bert.yaml --out "$work/study" --quiet
  kill -TERM "$first"
  wait "$first"
  status=$?
  sleep 0.2
  if [ "$status" = 143 ] && [ "$(running)" = 0 ] && grep -q ",pending," study/results.csv; then
    ok "sweep: SIGTERM forwarded, no orphan, results.csv written"
  else
    fail "sweep: SIGTERM forwarded, no orphan, results.csv written" "status $status, $(running) left"
  fi
  "$npusim" sweep bert.yaml --out "$work/study" --jobs 1 --quiet >/dev/null 2>&1 &
  first=$!
  for _ in $(seq 100); do [ "$(running)" -gt 1 ] && break; sleep 0.1; done
  kill -KILL "$first"
  wait "$first" 2>/dev/null
  for _ in $(seq 50); do [ "$(running)" = 0 ] && break; sleep 0.1; done
  [ "$(running)" = 0 ] && ok "sweep: kill -9 leaves no orphan" || fail "sweep: kill -9 leaves no orphan" "$(running) left"
  expect "sweep: resumed after kill -9" 0 "" "$npusim" sweep bert.yaml --out "$work/study" --quiet
  [ "$(grep -c ',ok,' study/results.csv)" = 6 ] && ok "sweep: every task ok after the resume" \
    || fail "sweep: every task ok after the resume" "$(cut -d, -f5 study/results.csv | tr '\n' ' ')"
fi

echo "$failures probes failed"
[ "$failures" = 0 ]
