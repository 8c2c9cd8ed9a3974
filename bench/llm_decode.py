#!/usr/bin/env python3
"""Decode steps of billion-parameter LLMs in timing mode: wall time, peak memory, and
the step's time against its closed form.

    NPUSIM=build/npusim bench/llm_decode.py [--config NAME] [DIR]

DIR (default bench/llm) holds one bundle per workload, captured on a GPU with
`python -m npusim.capture SPEC` or, with sizes that are symbols, `python -m
npusim.dynamic_shapes SPEC OUT --sizes ...` (the SPEC is in each graph.json): a Llama-3-8B-
architecture decode step in bf16 (32 layers, hidden 4096, 32 heads, 8 KV heads,
intermediate 14336, vocabulary 128256) against a KV cache of `past` tokens. DIR/sizes.json
names the sizes a dynamic bundle runs at (`npusim run --set NAME=VALUE`), by the bundle's
directory name; a bundle it does not name runs at its captured sizes. Timing mode
holds no weights and no cache (docs/timing.md, "How a run stays fast"), so the peak
memory is the program's, not the model's 16 GB.

The closed form of a memory-bound decode step is its inputs' bytes (the weights, the
cache and the token ids, each read once) over the DRAM's peak bandwidth; the issue's
target for it is 1.25x, and for the run 60 s of wall time and 2 GiB of peak RSS on the
2-core machine. Prints Markdown.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import npusim  # noqa: E402

BYTES = {"fp32": 4, "fp16": 2, "bf16": 2, "fp64": 8, "i64": 8, "i32": 4, "i16": 2, "i8": 1, "u8": 1, "i1": 1}


def input_bytes(graph):
    """The bytes of the storages the graph's inputs live in (a graph with its sizes bound,
    npusim.bind_sizes): what a decode step reads once."""
    storages = {i["tensor"]["storage"] for i in graph["inputs"]}
    return sum(graph["storages"][s]["elements"] * BYTES[graph["storages"][s]["dtype"]] for s in storages)


def run(binary, bundle, config, sizes):
    """(report, wall seconds, peak RSS in KiB of this process) or (None, error lines, 0)."""
    with tempfile.TemporaryDirectory() as scratch:
        report = os.path.join(scratch, "report.json")
        given = [a for n, v in sizes.items() for a in ("--set", f"{n}={v}")]
        with open(os.path.join(scratch, "log"), "w+") as log:
            start = time.monotonic()
            child = subprocess.Popen([binary, "run", bundle, "--mode", "timing", "--config", config,
                                      "--report", report] + given, stdout=log, stderr=subprocess.STDOUT)
            # wait4, not RUSAGE_CHILDREN: the peak of this run, not of every run so far.
            _, status, usage = os.wait4(child.pid, 0)
            wall = time.monotonic() - start
            child.returncode = os.waitstatus_to_exitcode(status)
            if child.returncode != 0:
                log.seek(0)
                return None, log.read().strip().splitlines()[-1:], 0
        with open(report) as f:
            return json.load(f), wall, usage.ru_maxrss


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dir", nargs="?", default=os.path.join(here, "llm"))
    parser.add_argument("--config", default="tpuv4-like")
    options = parser.parse_args()
    binary = os.environ.get("NPUSIM", os.path.join(here, "..", "build", "npusim"))
    print(f"Machine `{options.config}`, `npusim run BUNDLE --mode timing`, one process at a time. "
          "Closed form: the step's input bytes (weights, KV cache, token ids) over the DRAM's peak. "
          "Targets: 60 s of wall time, 2 GiB of peak RSS, 1.25x the closed form.")
    print()
    print("| workload | SPEC | run at | input bytes | wall s | peak RSS MiB | cycles | simulated ms | "
          "closed form ms | simulated / closed form | compile ms | timing ms |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    failed = 0
    sizes_path = os.path.join(options.dir, "sizes.json")
    run_sizes = {}
    if os.path.isfile(sizes_path):
        with open(sizes_path) as f:
            run_sizes = json.load(f)
        for name in run_sizes:
            if not os.path.isfile(os.path.join(options.dir, name, "graph.json")):
                raise SystemExit(f"{sizes_path}: '{name}' is no bundle of {options.dir}")
    for name in sorted(os.listdir(options.dir)):
        bundle = os.path.join(options.dir, name)
        if not os.path.isfile(os.path.join(bundle, "graph.json")):
            continue
        with open(os.path.join(bundle, "graph.json")) as f:
            graph = json.load(f)
        spec = graph["model"].get("spec", "")
        given = run_sizes.get(name, {})
        sizes = {s["name"]: given.get(s["name"], s["value"]) for s in graph.get("symbols", [])}
        at = ", ".join(f"{n}={v}" for n, v in sizes.items()) or "captured"
        report, wall, rss_kib = run(binary, bundle, options.config, given)
        if report is None:
            failed += 1
            print(f"| {name} | `{spec}` | {at} | | failed: {' '.join(wall)} | | | | | | | |")
            continue
        totals = report["totals"]
        nbytes = input_bytes(npusim.bind_sizes(graph, given or None))
        closed_ms = nbytes / report["machine_config"]["peak_dram_bytes_per_s"] * 1e3
        simulated_ms = totals["time_us"] / 1e3
        print(f"| {name} | `{spec}` | {at} | {nbytes:,} | {wall:.1f} | {rss_kib / 1024:.1f} | {totals['cycles']:,} | "
              f"{simulated_ms:.2f} | {closed_ms:.2f} | {simulated_ms / closed_ms:.2f}x | "
              f"{totals['npu_compile_ms']:,.0f} | {totals['timing_ms']:,.0f} |")
    print()
    print("`compile ms` is the time spent choosing kernels and tilings, most of it timing "
          "candidates on the DRAM model; `timing ms` the run's own timing.")
    raise SystemExit(1 if failed else 0)


if __name__ == "__main__":
    main()
