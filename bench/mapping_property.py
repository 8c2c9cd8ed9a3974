#!/usr/bin/env python3
"""Compute-bound GEMMs and convolutions against the compulsory-bytes roofline.

    NPUSIM_BUILD_DIR=build bench/mapping_property.py [--count N] [--seed S] [--config NAME]

Draws random shapes (seeded): GEMMs `a @ b` of any M, N, K, and convolutions at
batch 1 to 64, contiguous or channels-last, 1x1 and 3x3, stride 1 and 2, and
runs each as one library call (`npusim.run_call`, timing mode). The roofline is
computed here, not taken from the report: the larger of the true
multiply-accumulates at the arrays' peak (`systolic_arrays_per_core * lanes^2`
per cycle, no padding counted) and the compulsory bytes (inputs read once,
output written once; of a 1x1 kernel with a stride, the input
pixels it reads) at the DRAM's peak. A shape is compute-bound when its
multiply-accumulates take longer than its compulsory bytes. Prints Markdown:
per shape its cycles, the roofline, their ratio and the arrays' busy share
(true multiply-accumulates over cycles times the peak), then how many
compute-bound shapes stay within 1.5x of the roofline (docs/validation.md,
"Mapping property").
"""
import argparse
import math
import os
import random
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import npusim  # noqa: E402


def machine_peaks(config):
    """MACs per cycle and DRAM bytes per core cycle of a preset."""
    c = npusim.load_config(config)
    return c.systolic_arrays_per_core * c.lanes * c.lanes, c.peak_dram_gb_s * 1e3 / c.core_freq_mhz


def gemm(rng):
    m, n, k = (int(round(2 ** rng.uniform(9, 12))) for _ in range(3))
    a = np.zeros((m, k), np.float32)
    b = np.zeros((k, n), np.float32)
    out = np.zeros((m, n), np.float32)
    return (f"GEMM {m}x{k}x{n}", "aten.mm", [a, b], out, m * n * k, 4 * (m * k + k * n + m * n))


def conv(rng):
    batch = rng.choice([1, 2, 4, 8, 16, 32, 64])
    cin, cout = rng.choice([32, 64, 128, 256, 512]), rng.choice([32, 64, 128, 256, 512])
    size = rng.choice([7, 14, 28, 56])
    kernel, stride = rng.choice([1, 3]), rng.choice([1, 1, 2])
    last = rng.random() < 0.5
    pad = kernel // 2
    out_size = (size + 2 * pad - kernel) // stride + 1

    def tensor(n, c, h, w):
        if last:  # channels-last: [n, c, h, w] viewed over [n, h, w, c] memory
            return np.zeros((n, h, w, c), np.float32).transpose(0, 3, 1, 2)
        return np.zeros((n, c, h, w), np.float32)

    x = tensor(batch, cin, size, size)
    w = tensor(cout, cin, kernel, kernel)
    y = tensor(batch, cout, out_size, out_size)
    macs = batch * out_size * out_size * cout * cin * kernel * kernel
    # A 1x1 kernel of stride s reads only every s-th pixel of each row and column.
    touched = x.size if kernel > 1 or stride == 1 else batch * cin * out_size * out_size
    compulsory = 4 * (touched + w.size + y.size)
    name = (f"conv {batch}x{cin}x{size}x{size} -> {cout}, {kernel}x{kernel} s{stride}, "
            f"{'channels-last' if last else 'contiguous'}")
    args = [x, w, None, [stride, stride], [pad, pad], [1, 1], False, [0, 0], 1]
    return name, "aten.convolution", args, y, macs, compulsory


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=24, help="shapes of each kind (default 24)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--config", default="tpuv3-like")
    parser.add_argument("--max-macs", type=float, default=8e9, help="skip larger shapes (run time)")
    options = parser.parse_args()
    rng = random.Random(options.seed)
    macs_per_cycle, bytes_per_cycle = machine_peaks(options.config)
    print(f"Machine `{options.config}`: {macs_per_cycle:,} multiply-accumulates and "
          f"{bytes_per_cycle:,.0f} DRAM bytes per cycle; seed {options.seed}.")
    print()
    print("| shape | bound | cycles | roofline | cycles / roofline | arrays busy | traffic / compulsory |")
    print("|---|---|---|---|---|---|---|")
    ratios = []
    drawn = 0
    while drawn < 2 * options.count:
        kind = gemm if drawn < options.count else conv
        name, op, args, out, macs, compulsory = kind(rng)
        if macs > options.max_macs:
            continue
        drawn += 1
        compute, memory = macs / macs_per_cycle, compulsory / bytes_per_cycle
        _, report = npusim.run_call(op, args, out, config=options.config, mode="timing")
        step = report["steps"][0]
        if step.get("executed_on") != "npu":
            print(f"| {name} | | not on the NPU: {step.get('executed_on')} | | | | |")
            continue
        timing = step["timing"]
        cycles = timing["cycles"]
        roofline = max(compute, memory)
        bound = "compute" if compute >= memory else "memory"
        traffic = (timing["dram_bytes_read"] + timing["dram_bytes_written"]) / compulsory
        if bound == "compute":
            ratios.append(cycles / roofline)
        print(f"| {name} | {bound} | {cycles:,} | {roofline:,.0f} | {cycles / roofline:.2f}x | "
              f"{100 * compute / cycles:.0f}% | {traffic:.2f}x |")
    print()
    if ratios:
        within = sum(r <= 1.5 for r in ratios)
        ratios.sort()
        print(f"Compute-bound shapes: {len(ratios)}; within 1.5x of the roofline: {within} "
              f"({100 * within / len(ratios):.0f}%); median {ratios[len(ratios) // 2]:.2f}x, "
              f"worst {ratios[-1]:.2f}x.")


if __name__ == "__main__":
    main()
