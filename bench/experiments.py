#!/usr/bin/env python3
"""The other twelve workloads of the TPUv3 table, in timing mode, against their rooflines.

    NPUSIM=build/npusim bench/experiments.py [--config NAME] [DIR]

DIR (default bench/experiments/tpuv3) holds one bundle per workload, captured on a GPU
with `python -m npusim.batch` from the SPEC in its graph.json, in the forms a validation
experiment writes them (docs/validation.md, "The other workloads"): 3x3 convolutions at
batch 64 channels-last at ResNet's four stage shapes, attention over 12 to 32 heads of
512 x 64 returning its probabilities, transformer encoder blocks of width 768 to 2048 at
sequence 512, ResNet-18 and -50 at batch 1 channels-last. Their silicon cycles are not
in the repository, so this reports npusim's cycles and the roofline only: the sum over
steps of the larger of the multiply-accumulates at the arrays' peak and the compulsory
bytes at the DRAM's peak. Prints Markdown.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile


def run(npusim, bundle, config):
    with tempfile.TemporaryDirectory() as scratch:
        report = os.path.join(scratch, "report.json")
        done = subprocess.run([npusim, "run", bundle, "--mode", "timing", "--config", config,
                               "--report", report], capture_output=True, text=True)
        if done.returncode != 0:
            return None, (done.stderr or done.stdout).strip().splitlines()[-1:]
        with open(report) as f:
            return json.load(f), []


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dir", nargs="?", default=os.path.join(here, "experiments", "tpuv3"))
    parser.add_argument("--config", default="tpuv3-like")
    options = parser.parse_args()
    npusim = os.environ.get("NPUSIM", os.path.join(here, "..", "build", "npusim"))
    print(f"Machine `{options.config}`, `npusim run BUNDLE --mode timing`. The roofline is each "
          "step's (its multiply-accumulates at the arrays' peak or its compulsory bytes at the "
          "DRAM's peak, whichever is larger), summed.")
    print()
    print("| workload | SPEC | steps | host calls | cycles | roofline | cycles / roofline |")
    print("|---|---|---|---|---|---|---|")
    failed = 0
    for name in sorted(os.listdir(options.dir)):
        bundle = os.path.join(options.dir, name)
        if not os.path.isfile(os.path.join(bundle, "graph.json")):
            continue
        with open(os.path.join(bundle, "graph.json")) as f:
            spec = json.load(f)["model"].get("spec", "")
        report, error = run(npusim, bundle, options.config)
        if report is None:
            failed += 1
            print(f"| {name} | `{spec}` | | | failed: {' '.join(error)} | | |")
            continue
        mhz = report["totals"]["cycles"] / report["totals"]["time_us"] if report["totals"]["time_us"] else 0
        roofline = sum(s.get("timing", {}).get("roofline_us", 0) for s in report["steps"]) * mhz
        host = sum(1 for s in report["steps"] if s.get("executed_on") == "host")
        cycles = report["totals"]["cycles"]
        ratio = f"{cycles / roofline:.2f}x" if roofline else "-"
        print(f"| {name} | `{spec}` | {len(report['steps'])} | {host} | {cycles:,} | {roofline:,.0f} | {ratio} |")
    if failed:
        print(f"\n{failed} workload(s) failed to run.")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
