#!/usr/bin/env python3
"""Cycles against the roofline, from `npusim run --report` files.

    bench/roofline.py R1.json [R2.json ...]          one row per report
    bench/roofline.py --steps R.json                 one row per timed step

The model's roofline is the sum of its steps' bounds (`roofline_us`: the larger
of its multiply-accumulates at the arrays' peak and its DRAM bytes at the peak
bandwidth); the ratio is simulated time over that sum. Prints Markdown.
"""
import json
import sys


def load(path):
    with open(path) as f:
        return json.load(f)


def bundle_rows(paths):
    print("| bundle | cycles | simulated time | roofline | time / roofline |")
    print("|---|---|---|---|---|")
    for path in paths:
        r = load(path)
        roof = sum(s["timing"]["roofline_us"] for s in r["steps"] if "timing" in s)
        t = r["totals"]
        name = r["bundle"].rstrip("/").split("/")[-1]
        ratio = t["time_us"] / roof if roof > 0 else float("nan")
        print(f"| {name} | {t['cycles']:,} | {t['time_us']:,.1f} us | {roof:,.1f} us | {ratio:.1f}x |")


def step_rows(path):
    r = load(path)
    print("| step | kind | name | cycles | roofline | time / roofline | bound |")
    print("|---|---|---|---|---|---|---|")
    for s in r["steps"]:
        if "timing" not in s:
            continue
        t = s["timing"]
        print(f"| {s['index']} | {s['kind']} | {s['name']} | {t['cycles']:,} | {t['roofline_us']:.2f} us | "
              f"{t['time_over_roofline']:.2f}x | {t.get('bound', '')} |")


def main():
    args = sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    if args[0] == "--steps":
        for path in args[1:]:
            step_rows(path)
    else:
        bundle_rows(args)


if __name__ == "__main__":
    main()
