#!/usr/bin/env python3
"""ResNet's convolution layers, each as one library call, against the roofline.

    NPUSIM_BUILD_DIR=build bench/conv_layers.py [--config NAME] [--set stages|resnet50|all]

`stages`: the 3x3 layers of ResNet's four stages at batch 64, channels-last
(64 x 56 x 56, 128 x 28 x 28, 256 x 14 x 14, 512 x 7 x 7 channels x pixels; each
7.4 G multiply-accumulates). `resnet50`: every distinct convolution of
torchvision's ResNet-50 at batch 1, channels-last, with how often it occurs.
Each runs through `npusim.run_call` in timing mode (the runtime's timed choice of
kernel). The roofline is computed here: the larger of the multiply-accumulates at
the arrays' peak and the compulsory bytes (inputs read once, output written once)
at the DRAM's peak. Prints Markdown: per layer its cycles, the roofline, their
ratio, the DRAM bytes read over the input's and weights', then the totals.
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import npusim  # noqa: E402

# (batch, in channels, out channels, input size, kernel, stride, count)
STAGES = [(64, 64, 64, 56, 3, 1, 1), (64, 128, 128, 28, 3, 1, 1), (64, 256, 256, 14, 3, 1, 1),
          (64, 512, 512, 7, 3, 1, 1)]
RESNET50 = [
    (1, 3, 64, 224, 7, 2, 1),
    (1, 64, 64, 56, 1, 1, 1), (1, 64, 64, 56, 3, 1, 3), (1, 64, 256, 56, 1, 1, 4), (1, 256, 64, 56, 1, 1, 2),
    (1, 256, 128, 56, 1, 1, 1), (1, 128, 128, 56, 3, 2, 1), (1, 128, 512, 28, 1, 1, 4),
    (1, 256, 512, 56, 1, 2, 1), (1, 512, 128, 28, 1, 1, 3), (1, 128, 128, 28, 3, 1, 3),
    (1, 512, 256, 28, 1, 1, 1), (1, 256, 256, 28, 3, 2, 1), (1, 256, 1024, 14, 1, 1, 6),
    (1, 512, 1024, 28, 1, 2, 1), (1, 1024, 256, 14, 1, 1, 5), (1, 256, 256, 14, 3, 1, 5),
    (1, 1024, 512, 14, 1, 1, 1), (1, 512, 512, 14, 3, 2, 1), (1, 512, 2048, 7, 1, 1, 3),
    (1, 1024, 2048, 14, 1, 2, 1), (1, 2048, 512, 7, 1, 1, 2), (1, 512, 512, 7, 3, 1, 2),
]


def machine_peaks(config):
    """MACs per cycle and DRAM bytes per core cycle of a preset."""
    c = npusim.load_config(config)
    return c.systolic_arrays_per_core * c.lanes * c.lanes, c.peak_dram_gb_s * 1e3 / c.core_freq_mhz


def channels_last(n, c, h, w):
    """A zero [n, c, h, w] array over [n, h, w, c] memory."""
    return np.zeros((n, h, w, c), np.float32).transpose(0, 3, 1, 2)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--config", default="tpuv3-like")
    parser.add_argument("--set", choices=["stages", "resnet50", "all"], default="all")
    options = parser.parse_args()
    macs_per_cycle, bytes_per_cycle = machine_peaks(options.config)
    sets = {"stages": [("ResNet stages, 3x3, batch 64, channels-last", STAGES)],
            "resnet50": [("ResNet-50, batch 1, channels-last", RESNET50)]}
    chosen = sets["stages"] + sets["resnet50"] if options.set == "all" else sets[options.set]
    print(f"Machine `{options.config}`: {macs_per_cycle:,} multiply-accumulates and "
          f"{bytes_per_cycle:,.0f} DRAM bytes per cycle.")
    for title, layers in chosen:
        print()
        print(f"### {title}")
        print()
        print("| layer | count | cycles | roofline | cycles / roofline | read / (input + weights) |")
        print("|---|---|---|---|---|---|")
        total = total_roofline = 0.0
        for batch, cin, cout, size, kernel, stride, count in layers:
            pad = kernel // 2
            out = (size + 2 * pad - kernel) // stride + 1
            x, w = channels_last(batch, cin, size, size), channels_last(cout, cin, kernel, kernel)
            y = channels_last(batch, cout, out, out)
            args = [x, w, None, [stride, stride], [pad, pad], [1, 1], False, [0, 0], 1]
            _, report = npusim.run_call("aten.convolution", args, y, config=options.config, mode="timing")
            timing = report["steps"][0]["timing"]
            macs = batch * out * out * cout * cin * kernel * kernel
            roofline = max(macs / macs_per_cycle, 4 * (x.size + w.size + y.size) / bytes_per_cycle)
            cycles = timing["cycles"]
            total += cycles * count
            total_roofline += roofline * count
            name = f"{batch}x{cin}x{size}x{size} -> {cout}, {kernel}x{kernel} s{stride}"
            print(f"| {name} | {count} | {cycles:,} | {roofline:,.0f} | {cycles / roofline:.2f}x | "
                  f"{timing['dram_bytes_read'] / (4 * (x.size + w.size)):.2f}x |")
        print()
        print(f"All layers: {total:,.0f} cycles, {total / total_roofline:.2f}x their rooflines "
              f"({total_roofline:,.0f}).")


if __name__ == "__main__":
    main()
