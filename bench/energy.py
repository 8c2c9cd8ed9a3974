#!/usr/bin/env python3
"""Energy and power from `npusim run --report` files and a sweep's results.csv,
as Markdown (docs/energy.md).

    bench/energy.py anchor GEMM.json LAYERNORM.json   the NPUWattch comparison
    bench/energy.py bundles R1.json [R2.json ...]     one row per report
    bench/energy.py steps R.json                      one row per timed step
    bench/energy.py tokens R1.json [R2.json ...]      energy per token of the language models
    bench/energy.py sweep results.csv                 time against energy per machine
"""
import csv
import json
import sys

PARTS = ["systolic", "vector", "cross-lane", "scalar", "scratchpad", "dma", "noc", "dram", "core"]


def load(path):
    with open(path) as f:
        return json.load(f)


def name_of(report):
    return report["bundle"].rstrip("/").split("/")[-1]


def part_uj(energy, part):
    p = energy["parts"][part]
    return (p["dynamic_nj"] + p["static_nj"]) / 1e3


def shares(energy):
    total = energy["total_nj"] / 1e3
    ranked = sorted(PARTS, key=lambda p: -part_uj(energy, p))
    return ", ".join(f"{p} {100 * part_uj(energy, p) / total:.1f}%" for p in ranked[:3]) if total > 0 else "-"


def anchor(gemm_path, layernorm_path):
    gemm = load(gemm_path)
    e = gemm["energy"]
    time_us = gemm["totals"]["time_us"]
    macs = sum(s["timing"]["macs"] for s in gemm["steps"] if "timing" in s)
    mj = e["total_nj"] / 1e6
    print(f"GEMM 1024^3 fp32 (`{name_of(gemm)}`) on `{gemm['machine']}`, table `{e['table']}`:")
    print()
    print("| | npusim | NPUWattch (published) |")
    print("|---|---|---|")
    print(f"| energy | {mj:.3f} mJ | 6.13 mJ |")
    print(f"| average power | {e['average_w']:.1f} W | about 111 W |")
    print(f"| simulated time | {time_us:.2f} us | 55.2 us (6.13 mJ / 111 W) |")
    print(f"| energy per FLOP | {e['total_nj'] * 1e3 / (2 * macs):.3f} pJ | 2.86 pJ |")
    print()
    print("| part | dynamic (uJ) | static (uJ) | share |")
    print("|---|---|---|---|")
    for p in PARTS:
        d, s = e["parts"][p]["dynamic_nj"] / 1e3, e["parts"][p]["static_nj"] / 1e3
        print(f"| {p} | {d:,.3f} | {s:,.3f} | {100 * (d + s) / (e['total_nj'] / 1e3):.1f}% |")
    ln = load(layernorm_path)
    le = ln["energy"]
    print()
    print(f"Memory-bound check, `{name_of(ln)}`: {le['total_nj'] / 1e3:,.3f} uJ in "
          f"{ln['totals']['time_us']:.2f} us ({le['average_w']:.1f} W); largest parts: {shares(le)}.")


def bundles(paths):
    print("| bundle | simulated time | energy | average power | peak step power | largest parts |")
    print("|---|---|---|---|---|---|")
    for path in paths:
        r = load(path)
        e = r["energy"]
        print(f"| {name_of(r)} | {r['totals']['time_us']:,.1f} us | {e['total_nj'] / 1e3:,.1f} uJ | "
              f"{e['average_w']:.1f} W | {e['peak_step_w']:.1f} W | {shares(e)} |")


def tokens(paths):
    print("| bundle | tokens | energy | energy per token |")
    print("|---|---|---|---|")
    absent = {}  # reason -> bundles with input_ids that are not language models
    for path in paths:
        r = load(path)
        e = r["energy"]
        if "energy_per_token_uj" in e:
            print(f"| {name_of(r)} | {e['tokens']} | {e['total_nj'] / 1e3:,.1f} uJ | "
                  f"{e['energy_per_token_uj']:,.3f} uJ |")
        elif "energy_per_token_absent" in e:
            absent.setdefault(e["energy_per_token_absent"], []).append(f"`{name_of(r)}`")
    for reason, names in absent.items():
        print()
        print(f"No energy per token, {reason}: {', '.join(names)}.")


def steps(path):
    r = load(path)
    print("| step | name | time | energy | power | largest parts |")
    print("|---|---|---|---|---|---|")
    for s in r["steps"]:
        if "timing" not in s:
            continue
        e = s["timing"]["energy"]
        print(f"| {s['index']} | {s['name']} | {s['timing']['time_us']:,.2f} us | {e['total_nj'] / 1e3:,.2f} uJ | "
              f"{e['average_w']:.1f} W | {shares(e)} |")


def sweep(path):
    with open(path) as f:
        rows = [r for r in csv.DictReader(f) if r["status"] == "ok"]
    keys = [k for k in rows[0].keys() if k not in ("task", "model", "bundle")][: list(rows[0].keys()).index("status") - 3]
    print("| " + " | ".join(["model"] + keys) + " | simulated time | energy | average power | GFLOP/s per W |")
    print("|" + "---|" * (len(keys) + 5))
    for r in sorted(rows, key=lambda r: float(r["time_us"])):
        print("| " + " | ".join([r["model"]] + [r[k] for k in keys]) +
              f" | {float(r['time_us']):,.1f} us | {float(r['energy_uj']):,.1f} uJ | "
              f"{float(r['average_w']):.1f} W | {float(r['gflop_s_per_w']):.1f} |")
    fastest = min(rows, key=lambda r: float(r["time_us"]))
    frugal = min(rows, key=lambda r: float(r["energy_uj"]))
    describe = lambda r: ", ".join(f"{k}={r[k]}" for k in keys)
    print()
    if fastest is frugal:
        print(f"The fastest machine ({describe(fastest)}) is also the most efficient.")
    else:
        print(f"The fastest machine ({describe(fastest)}: {float(fastest['time_us']):,.1f} us, "
              f"{float(fastest['energy_uj']):,.1f} uJ) is not the most efficient one ({describe(frugal)}: "
              f"{float(frugal['time_us']):,.1f} us, {float(frugal['energy_uj']):,.1f} uJ).")


def main():
    what, paths = sys.argv[1], sys.argv[2:]
    {"anchor": lambda: anchor(*paths), "bundles": lambda: bundles(paths), "steps": lambda: steps(paths[0]),
     "tokens": lambda: tokens(paths),
     "sweep": lambda: sweep(paths[0])}[what]()


if __name__ == "__main__":
    main()
