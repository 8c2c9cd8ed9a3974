"""Records what Triton's sorts return on a GPU, as a fixture for npusim's sorting
networks (core/sort_network.h): tl.sort, and Inductor's
triton_helpers.sort_with_index with stable=False and stable=True, ascending and
descending, with and without padding (rnumel), for row lengths 2 to 256, on
seeded keys with many ties, -0.0/+0.0 pairs and NaNs.

Run on a machine with a CUDA GPU, torch (with Inductor) and Triton, from the
repository root:

    python3 tests/gpu/record_sort.py            # writes tests/data/gpu_sort/

It writes tests/data/gpu_sort/manifest.json and one .npy per input and output.
tests/gpu/sort_network_test.cpp replays every case through `npusim kernel`
(reference interpreter and NPU) and compares bit for bit; it is built by the
line `npusim_test_suite(gpu DEPS npusim_core)` in tests/CMakeLists.txt.
"""

import json
import os
import re
import sys

import numpy as np
import torch
from torch._inductor.codecache import PyCodeCache

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
OUT = os.path.join(ROOT, "tests", "data", "gpu_sort")
KERNELS = os.path.join(HERE, "sort_kernels")
ROWS = 4


def load_kernel(name):
    """The kernel file npusim reads, without the parameter type strings npusim's
    front end takes in place of Inductor's triton_meta (Triton infers them)."""
    with open(os.path.join(KERNELS, name + ".py"), encoding="utf-8") as f:
        source = re.sub(r'(\w+): "\*?\w+"', r"\1", f.read())
    return getattr(PyCodeCache.load(source), name)


def keys_with_ties(rng, n):
    """Keys from {-1, 0, 1, 2}, -0.0 for some zeros, a NaN or two per row."""
    k = rng.integers(-1, 3, size=(ROWS, n)).astype(np.float32)
    zeros = (k == 0) & (rng.random((ROWS, n)) < 0.5)
    k[zeros] = -0.0
    if n >= 4:
        for r in range(ROWS):
            for c in rng.choice(n, size=max(1, n // 16), replace=False):
                k[r, c] = np.nan
    return k


def main():
    os.makedirs(OUT, exist_ok=True)
    with_index = load_kernel("npusim_sort_with_index")
    tl_sort = load_kernel("npusim_tl_sort")
    rng = np.random.default_rng(12)
    cases = []
    for n in (2, 4, 8, 16, 64, 256):
        for seed in range(2):
            keys = keys_with_ties(rng, n)
            tag = f"n{n}_s{seed}"
            np.save(os.path.join(OUT, f"{tag}_keys.npy"), keys.reshape(-1))
            dev = torch.from_numpy(keys.reshape(-1)).cuda()
            for descending in (0, 1):
                values = torch.empty_like(dev)
                tl_sort[(1, 1, 1)](dev, values, ROWS=ROWS, N=n, DESCENDING=descending)
                name = f"{tag}_tl_sort_d{descending}"
                np.save(os.path.join(OUT, name + "_values.npy"), values.cpu().numpy())
                cases.append({"name": name, "kernel": "npusim_tl_sort", "keys": f"{tag}_keys.npy",
                              "constexprs": {"ROWS": ROWS, "N": n, "DESCENDING": descending},
                              "outputs": {"values_ptr": name + "_values.npy"}})
                for stable in (0, 1):
                    for rnumel in sorted({n, max(1, n - n // 4)}):
                        values = torch.empty_like(dev)
                        indices = torch.empty(dev.numel(), dtype=torch.int64, device="cuda")
                        with_index[(1, 1, 1)](dev, values, indices, ROWS=ROWS, N=n, RNUMEL=rnumel,
                                              STABLE=stable, DESCENDING=descending)
                        name = f"{tag}_with_index_s{stable}_d{descending}_r{rnumel}"
                        np.save(os.path.join(OUT, name + "_values.npy"), values.cpu().numpy())
                        np.save(os.path.join(OUT, name + "_indices.npy"), indices.cpu().numpy())
                        cases.append({"name": name, "kernel": "npusim_sort_with_index", "keys": f"{tag}_keys.npy",
                                      "constexprs": {"ROWS": ROWS, "N": n, "RNUMEL": rnumel, "STABLE": stable,
                                                     "DESCENDING": descending},
                                      "outputs": {"values_ptr": name + "_values.npy",
                                                  "indices_ptr": name + "_indices.npy"}})
    torch.cuda.synchronize()
    manifest = {"device": torch.cuda.get_device_name(), "torch": torch.__version__,
                "triton": __import__("triton").__version__, "cases": cases}
    with open(os.path.join(OUT, "manifest.json"), "w", encoding="utf-8") as f:
        json.dump(manifest, f, indent=1)
    print(f"{len(cases)} cases -> {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
