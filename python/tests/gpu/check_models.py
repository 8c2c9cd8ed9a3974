"""Captures the models of the suite that still need the GPU and runs each bundle on
npusim (python/README.md, "Capturing the rest of the suite").

    cd python && PYTHONPATH=$PWD OUT=/tmp/models python3 tests/gpu/check_models.py

Captures, with `python -m npusim.batch --suite --only ...` (each capture sets full fp32
on every backend, probes that the GPU computes in it, and replays its own bundle on the
GPU), MobileNetV2 (width 0.25) training with BatchNorm and dropout at batch 4, 64x64,
and the bidirectional LSTM tagger (Dynamo compiles none of it: every aten call a
library call), into $OUT/bundles. The other suite models are committed under
examples/. Builds nothing: when ../build-gpu/npusim exists, runs every captured bundle
with `--mode full --verify` (tpuv3-like) and `--mode functional --verify --config
edge-8lane`. Logs every command and its output to $OUT/models.log (with each capture's
fp32 precision line), one JSON line per bundle to $OUT/models.json, and stays within
BUDGET_S seconds in all.
"""

import concurrent.futures
import json
import os
import re
import subprocess
import sys
import time

BUDGET_S = 400
CAPTURE_S = 250  # npusim.batch's deadline; the runs get the rest
PYDIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REPO = os.path.dirname(PYDIR)
NPUSIM = os.path.join(REPO, "build-gpu", "npusim")
JOBS = ["mobilenet_v2-train", "lstm_tagger"]
RUNS = [("full", ["--mode", "full", "--verify"]),
        ("functional-edge-8lane", ["--mode", "functional", "--verify", "--config", "edge-8lane"])]


def main():
    t_begin = time.time()
    out = os.environ.get("OUT") or os.path.join(REPO, "out", "models")
    bundles, work = os.path.join(out, "bundles"), os.path.join(out, "work")
    os.makedirs(bundles, exist_ok=True)
    os.makedirs(work, exist_ok=True)
    logf = open(os.path.join(out, "models.log"), "w", encoding="utf-8")

    def log(text):
        logf.write(text.rstrip("\n") + "\n")
        logf.flush()
        print(text.rstrip("\n"), flush=True)

    def left():
        return BUDGET_S - (time.time() - t_begin)

    env = dict(os.environ, PYTHONPATH=PYDIR + os.pathsep + os.environ.get("PYTHONPATH", ""),
               PYTHONUNBUFFERED="1")
    cmd = [sys.executable, "-m", "npusim.batch", "--suite", "--only", ",".join(JOBS),
           "--out", bundles, "--work", work, "--jobs", str(len(JOBS)),
           "--deadline", str(CAPTURE_S)]
    log("$ " + " ".join(cmd))
    try:
        p = subprocess.run(cmd, cwd=PYDIR, env=env, capture_output=True, text=True,
                           timeout=CAPTURE_S + 60)
        log(p.stdout + p.stderr)
        log(f"batch exit {p.returncode} after {time.time() - t_begin:.0f} s")
    except subprocess.TimeoutExpired as e:
        log(f"batch did not finish within {CAPTURE_S + 60} s: {e}")
    summary = {}
    try:
        with open(os.path.join(bundles, "summary.json")) as f:
            summary = json.load(f)
    except (OSError, ValueError) as e:
        log(f"no summary.json: {e}")
    for name in JOBS:
        r = summary.get(name, {})
        log(f"== capture {name}: {r.get('status', 'no result')} "
            f"self_replay={r.get('self_replay')} launches={r.get('launches')} "
            f"calls={r.get('calls')} ops={r.get('ops')} bytes={r.get('bytes')}")
        try:
            with open(os.path.join(work, name, "log.txt"), errors="replace") as f:
                text = f.read()
            # what the capture set and read back (early in a long log)
            log("\n".join(ln for ln in text.splitlines() if "fp32 precision" in ln
                           or "full fp32" in ln))
            log(text[-6000:])
        except OSError:
            pass
        try:  # graph breaks, compiled-vs-eager differences, warnings
            with open(os.path.join(work, name, "capture.json")) as f:
                rec = json.load(f)
            log(json.dumps({k: rec.get(k) for k in ("problems", "warnings", "skipped_ops")})[:6000])
        except (OSError, ValueError):
            pass

    results = {name: {"capture": summary.get(name, {}).get("status", "no result")} for name in JOBS}
    have = [n for n in JOBS if os.path.exists(os.path.join(bundles, n, "graph.json"))]
    if not os.path.exists(NPUSIM):
        log(f"{NPUSIM} does not exist: bundles not run")
    else:
        def run(name, label, flags):
            budget = max(1, int(left()) - 5)
            c = [NPUSIM, "run", os.path.join(bundles, name)] + flags
            t0 = time.time()
            try:
                q = subprocess.run(c, cwd=REPO, capture_output=True, text=True, timeout=budget)
                return name, label, c, q.returncode, q.stdout + q.stderr, time.time() - t0
            except subprocess.TimeoutExpired:
                return name, label, c, None, f"timed out after {budget} s", time.time() - t0

        with concurrent.futures.ThreadPoolExecutor(max_workers=8) as pool:
            futs = [pool.submit(run, n, label, flags) for n in have for label, flags in RUNS]
            for fut in concurrent.futures.as_completed(futs):
                name, label, c, rc, text, secs = fut.result()
                log(f"== run {name} {label}: rc={rc} ({secs:.1f} s)\n$ {' '.join(c)}\n{text[-4000:]}")
                lines = text.strip().splitlines()
                cycles = re.search(r"\bcycles=(\d+)", text)
                results[name][label] = {
                    "rc": rc, "seconds": round(secs, 1),
                    "cycles": int(cycles.group(1)) if cycles else None,
                    "result": [ln for ln in lines if "verification:" in ln or "error" in ln][-3:]
                    or lines[-1:]}
    with open(os.path.join(out, "models.json"), "w") as f:
        for name, r in results.items():
            f.write(json.dumps({"bundle": name, **r}) + "\n")
    log(f"done in {time.time() - t_begin:.0f} s")
    for name, r in results.items():
        log(f"{name:20s} capture={r['capture']} " + " ".join(
            f"{k}={v['rc']}" for k, v in r.items() if k != "capture"))
    logf.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
