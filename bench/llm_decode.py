#!/usr/bin/env python3
"""Decode steps of billion-parameter LLMs in timing mode: wall time, peak memory, and
the step's time against its closed form.

    NPUSIM=build/npusim bench/llm_decode.py [--config NAME] [DIR]

DIR (default bench/llm) holds one bundle per workload, captured on a GPU with
`python -m npusim.capture SPEC` (the SPEC is in each graph.json): a Llama-3-8B-
architecture decode step in bf16 (32 layers, hidden 4096, 32 heads, 8 KV heads,
intermediate 14336, vocabulary 128256) against a KV cache of `past` tokens. Timing mode
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
import resource
import subprocess
import tempfile
import time

BYTES = {"fp32": 4, "fp16": 2, "bf16": 2, "fp64": 8, "i64": 8, "i32": 4, "i16": 2, "i8": 1, "u8": 1, "i1": 1}


def input_bytes(graph):
    """The bytes of the storages the graph's inputs live in: what a decode step reads once."""
    storages = {i["tensor"]["storage"] for i in graph["inputs"]}
    return sum(graph["storages"][s]["elements"] * BYTES[graph["storages"][s]["dtype"]] for s in storages)


def run(npusim, bundle, config):
    """(report, wall seconds, peak RSS in KiB of the process) or (None, error lines)."""
    with tempfile.TemporaryDirectory() as scratch:
        report = os.path.join(scratch, "report.json")
        start = time.monotonic()
        done = subprocess.run([npusim, "run", bundle, "--mode", "timing", "--config", config,
                               "--report", report], capture_output=True, text=True)
        wall = time.monotonic() - start
        if done.returncode != 0:
            return None, (done.stderr or done.stdout).strip().splitlines()[-1:], 0
        with open(report) as f:
            return json.load(f), wall, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dir", nargs="?", default=os.path.join(here, "llm"))
    parser.add_argument("--config", default="tpuv4-like")
    options = parser.parse_args()
    npusim = os.environ.get("NPUSIM", os.path.join(here, "..", "build", "npusim"))
    print(f"Machine `{options.config}`, `npusim run BUNDLE --mode timing`, one process at a time. "
          "Closed form: the step's input bytes (weights, KV cache, token ids) over the DRAM's peak. "
          "Targets: 60 s of wall time, 2 GiB of peak RSS, 1.25x the closed form.")
    print()
    print("| workload | SPEC | input bytes | wall s | peak RSS MiB | cycles | simulated ms | "
          "closed form ms | simulated / closed form | compile ms | timing ms |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    failed = 0
    for name in sorted(os.listdir(options.dir)):
        bundle = os.path.join(options.dir, name)
        if not os.path.isfile(os.path.join(bundle, "graph.json")):
            continue
        with open(os.path.join(bundle, "graph.json")) as f:
            graph = json.load(f)
        spec = graph["model"].get("spec", "")
        report, wall, rss_kib = run(npusim, bundle, options.config)
        if report is None:
            failed += 1
            print(f"| {name} | `{spec}` | | failed: {' '.join(wall)} | | | | | | | |")
            continue
        totals = report["totals"]
        nbytes = input_bytes(graph)
        closed_ms = nbytes / report["machine_config"]["peak_dram_bytes_per_s"] * 1e3
        simulated_ms = totals["time_us"] / 1e3
        print(f"| {name} | `{spec}` | {nbytes:,} | {wall:.1f} | {rss_kib / 1024:.1f} | {totals['cycles']:,} | "
              f"{simulated_ms:.2f} | {closed_ms:.2f} | {simulated_ms / closed_ms:.2f}x | "
              f"{totals['npu_compile_ms']:,.0f} | {totals['timing_ms']:,.0f} |")
    print()
    print("`compile ms` is the time spent choosing kernels and tilings, most of it timing "
          "candidates on the DRAM model; `timing ms` the run's own timing.")
    raise SystemExit(1 if failed else 0)


if __name__ == "__main__":
    main()
