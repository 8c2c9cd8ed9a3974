#!/usr/bin/python3
"""Writes tests/data/bundles/tiny: a three-step bundle (a pointwise Triton kernel,
an aten.addmm call with a transposed operand, a grouped, strided, padded and
dilated aten.convolution into a channels-last output), with reference outputs
and fingerprints computed here in plain Python (float64 sums, one rounding to
float32), independently of npusim.

Run from anywhere with /usr/bin/python3 (no packages needed):
    /usr/bin/python3 tests/data/bundles/make_tiny.py
"""
import json
import math
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "tiny")
MASK = (1 << 64) - 1
SEED = 7


def splitmix64(z):
    z = (z + 0x9E3779B97F4A7C15) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def h(seed, stream, i):
    return splitmix64((splitmix64((splitmix64(seed) + stream) & MASK) + i) & MASK)


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def uniform(n, low, high, stream):
    return [f32(low + (high - low) * ((h(SEED, stream, i) >> 11) * 2.0 ** -53)) for i in range(n)]


def at(storage, offset, stride, index):
    return storage[offset + sum(i * s for i, s in zip(index, stride))]


def logical(storage, offset, shape, stride):
    """The view's elements in row-major order."""
    out = []

    def rec(axis, base):
        if axis == len(shape):
            out.append(storage[base])
            return
        for i in range(shape[axis]):
            rec(axis + 1, base + i * stride[axis])

    rec(0, offset)
    return out


def fingerprint(values, key=None, index=None):
    n = len(values)
    finite = [v for v in values if math.isfinite(v)]
    idx = []
    for k in range(64 if n else 0):
        i = round(k * (n - 1) / 63)
        if not idx or idx[-1] != i:
            idx.append(i)
    fp = {}
    if key is not None:
        fp[key] = index
    fp.update({"elements": n, "sum": sum(finite), "abs_sum": sum(abs(v) for v in finite),
               "nan": sum(1 for v in values if math.isnan(v)), "inf": sum(1 for v in values if math.isinf(v)),
               "samples": [[i, values[i]] for i in idx]})
    return fp


def write_npy(path, values, shape):
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%s), }" % (
        ", ".join(str(s) for s in shape) + ("," if len(shape) == 1 else ""))
    pad = 64 - (10 + len(header) + 1) % 64
    header = header + " " * (pad % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1"))
        f.write(b"".join(struct.pack("<f", v) for v in values))


def ref(storage, offset, shape, stride):
    return {"storage": storage, "offset": offset, "shape": shape, "stride": stride}


def main():
    # Storages (all fp32).
    sizes = [1000, 40, 1000, 640, 16, 400, 108, 6, 300]
    a = uniform(1000, -1.0, 1.0, 0)          # s0: x [25, 40]
    b = uniform(40, -0.5, 0.5, 1)            # s1: bias of the pointwise add [40]
    w = uniform(640, -0.25, 0.25, 2)         # s3: linear weight [16, 40]
    bias = uniform(16, -0.1, 0.1, 3)         # s4: linear bias [16]
    cw = uniform(108, -0.5, 0.5, 4)          # s6: conv weight [6, 2, 3, 3]
    cb = uniform(6, -0.2, 0.2, 5)            # s7: conv bias [6]

    # Step 0: relu(x + bias[x % 40]) in fp32 (triton_poi_fused_add_relu_0, xnumel = 1000).
    s2 = [max(0.0, f32(a[i] + b[i % 40])) for i in range(1000)]

    # Step 1: addmm(bias, s2 [25, 40], w^T [40, 16] (stride [1, 40]), beta=0.5, alpha=2.0) -> s5 [25, 16].
    beta, alpha = 0.5, 2.0
    s5 = [0.0] * 400
    for i in range(25):
        for j in range(16):
            acc = 0.0
            for k in range(40):
                acc += s2[i * 40 + k] * at(w, 0, [1, 40], [k, j])
            s5[i * 16 + j] = f32(beta * bias[j] + alpha * acc)

    # Step 2: convolution of s5 seen as [1, 4, 10, 10] with cw [6, 2, 3, 3], groups 2,
    # stride [2, 1], padding [1, 2], dilation [1, 2] -> [1, 6, 5, 10] channels-last in s8.
    C, H, W, O, G, KH, KW = 4, 10, 10, 6, 2, 3, 3
    sh, sw, ph, pw, dh, dw = 2, 1, 1, 2, 1, 2
    OH = (H + 2 * ph - dh * (KH - 1) - 1) // sh + 1
    OW = (W + 2 * pw - dw * (KW - 1) - 1) // sw + 1
    assert (OH, OW) == (5, 10)
    s8 = [float("nan")] * 300
    out_stride = [300, 1, 60, 6]  # channels-last [N, C, H, W]
    cg, og = C // G, O // G
    for o in range(O):
        g = o // og
        for y in range(OH):
            for x in range(OW):
                acc = cb[o]
                for c in range(cg):
                    for ky in range(KH):
                        for kx in range(KW):
                            iy, ix = y * sh - ph + ky * dh, x * sw - pw + kx * dw
                            if 0 <= iy < H and 0 <= ix < W:
                                acc += s5[((g * cg + c) * H + iy) * W + ix] * cw[((o * cg + c) * KH + ky) * KW + kx]
                s8[o * out_stride[1] + y * out_stride[2] + x * out_stride[3]] = f32(acc)

    out0 = logical(s8, 0, [1, 6, 5, 10], out_stride)
    out1 = s2
    graph = {
        "format": "npusim-bundle",
        "version": 1,
        "model": {"spec": "tiny: relu(x + b) -> addmm -> grouped conv", "written_by": "tests/data/bundles/make_tiny.py"},
        "seed": SEED,
        "storages": [{"id": i, "dtype": "fp32", "elements": n} for i, n in enumerate(sizes)],
        "inputs": [
            {"name": "x", "tensor": ref(0, 0, [25, 40], [40, 1]), "init": {"kind": "uniform", "low": -1.0, "high": 1.0, "stream": 0}},
            {"name": "b", "tensor": ref(1, 0, [40], [1]), "init": {"kind": "uniform", "low": -0.5, "high": 0.5, "stream": 1}},
            {"name": "linear_weight", "tensor": ref(3, 0, [16, 40], [40, 1]), "init": {"kind": "uniform", "low": -0.25, "high": 0.25, "stream": 2}},
            {"name": "linear_bias", "tensor": ref(4, 0, [16], [1]), "init": {"kind": "uniform", "low": -0.1, "high": 0.1, "stream": 3}},
            {"name": "conv_weight", "tensor": ref(6, 0, [6, 2, 3, 3], [18, 9, 3, 1]), "init": {"kind": "uniform", "low": -0.5, "high": 0.5, "stream": 4}},
            {"name": "conv_bias", "tensor": ref(7, 0, [6], [1]), "init": {"kind": "uniform", "low": -0.2, "high": 0.2, "stream": 5}},
        ],
        "steps": [
            {"kind": "launch", "kernel": "triton_poi_fused_add_relu_0", "grid": [8, 1, 1], "constexprs": {"XBLOCK": 128},
             "args": [{"tensor": ref(0, 0, [25, 40], [40, 1])}, {"tensor": ref(1, 0, [40], [1])},
                      {"tensor": ref(2, 0, [25, 40], [40, 1])}, {"value": 1000}],
             "writes": [2],
             "fingerprints": [fingerprint(s2, "arg", 2)]},
            {"kind": "call", "op": "aten.addmm",
             "args": [{"tensor": ref(4, 0, [16], [1])}, {"tensor": ref(2, 0, [25, 40], [40, 1])},
                      {"tensor": ref(3, 0, [40, 16], [1, 40])}, beta, alpha],
             "out": [{"tensor": ref(5, 0, [25, 16], [16, 1])}],
             "fingerprints": [fingerprint(s5, "out", 0)]},
            {"kind": "call", "op": "aten.convolution",
             "args": [{"tensor": ref(5, 0, [1, 4, 10, 10], [400, 100, 10, 1])}, {"tensor": ref(6, 0, [6, 2, 3, 3], [18, 9, 3, 1])},
                      {"tensor": ref(7, 0, [6], [1])}, [sh, sw], [ph, pw], [dh, dw], False, [0, 0], G],
             "out": [{"tensor": ref(8, 0, [1, 6, 5, 10], out_stride)}],
             "fingerprints": [fingerprint(out0, "out", 0)]},
        ],
        "outputs": [
            {"name": "output_0", "tensor": ref(8, 0, [1, 6, 5, 10], out_stride), "reference": "reference/output_0.npy",
             "fingerprint": fingerprint(out0)},
            {"name": "output_1", "tensor": ref(2, 0, [25, 40], [40, 1]), "reference": "reference/output_1.npy",
             "fingerprint": fingerprint(out1)},
        ],
    }
    os.makedirs(os.path.join(OUT, "reference"), exist_ok=True)
    with open(os.path.join(OUT, "graph.json"), "w") as f:
        json.dump(graph, f, indent=1)
        f.write("\n")
    write_npy(os.path.join(OUT, "reference", "output_0.npy"), out0, [1, 6, 5, 10])
    write_npy(os.path.join(OUT, "reference", "output_1.npy"), out1, [25, 40])


if __name__ == "__main__":
    main()
