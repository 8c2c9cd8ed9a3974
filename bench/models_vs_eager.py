#!/usr/bin/env python3
"""Whole models at real scale against eager PyTorch on this CPU.

For every bundle under bench/models/ (captured as the README of that folder
says): the wall time of `npusim run B --mode full` and `--mode functional`
(no --verify, the median of three runs each, from process start to exit), eager
PyTorch on the same model (bench/eager_cpu.py: three warm-up runs, the median of
nine, two threads), and their ratios. Prints a Markdown table.

    bench/models_vs_eager.py [BUNDLE_DIR...]
"""
import json
import os
import pathlib
import statistics
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

import eager_cpu  # noqa: E402

RUNS = 3


def wall_seconds(npusim, bundle, mode, config):
    times, summary = [], ""
    for _ in range(RUNS):
        start = time.perf_counter()
        done = subprocess.run([npusim, "run", str(bundle), "--mode", mode, "--config", config],
                              capture_output=True, text=True)
        times.append(time.perf_counter() - start)
        if done.returncode != 0:
            raise SystemExit(f"{bundle}: npusim run --mode {mode} failed:\n{done.stderr}{done.stdout}")
        summary = done.stdout
    return statistics.median(times), summary


def field(summary, prefix, key):
    for line in summary.splitlines():
        if line.startswith(prefix):
            for word in line.split():
                if word.startswith(key + "="):
                    return word.split("=", 1)[1]
    return "?"


def main():
    npusim = os.environ.get("NPUSIM", str(ROOT / "build" / "npusim"))
    config = os.environ.get("NPUSIM_CONFIG", "tpuv3-like")
    bundles = [pathlib.Path(b) for b in sys.argv[1:]] or sorted(p.parent for p in ROOT.glob("bench/models/*/graph.json"))
    print("| bundle | model | cycles | eager CPU | full | full / eager | functional | functional / eager | npu compile (full) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for bundle in bundles:
        graph = bundle / "graph.json"
        model = json.loads(graph.read_text())["model"]
        spec = model["spec"] + "".join(f",{k}={v}" for k, v in (model.get("config") or {}).items()
                                       if f"{k}=" not in model["spec"])
        eager_ms, _ = eager_cpu.time_bundle(graph)
        full, summary = wall_seconds(npusim, bundle, "full", config)
        functional, _ = wall_seconds(npusim, bundle, "functional", config)
        eager = "n/a" if eager_ms is None else f"{eager_ms:.1f} ms"
        ratio = (lambda s: "n/a" if eager_ms is None else f"{s * 1000.0 / eager_ms:.1f}x")
        cycles = field(summary, "npu:", "cycles")
        compile_ms = field(summary, "npu:", "compile_ms")
        print(f"| {bundle.name} | `{spec}` | {int(cycles):,} | {eager} | {full:.2f} s | {ratio(full)} | "
              f"{functional:.2f} s | {ratio(functional)} | {float(compile_ms) / 1000.0:.2f} s |", flush=True)


if __name__ == "__main__":
    main()
