"""Tolerances of 16-bit floats (docs/bundle-format.md, "Tolerances of 16-bit floats"):
a chain of bf16 or fp16 steps matches its float64 computation under the rounding
allowance of its depth, not under the fixed tolerance alone; a wrong chain fails under
the allowance. No torch needed: the 16-bit rounding is done on float32 bit patterns."""

import math

import numpy as np
import pytest

from npusim import bundle


def round_bf16(x):
    """float32 -> nearest bf16 (ties to even), as float32."""
    b = np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)
    b = (b + 0x7FFF + ((b >> 16) & 1)) & 0xFFFF0000
    return b.astype(np.uint32).view(np.float32)


def round_fp16(x):
    return np.asarray(x, np.float32).astype(np.float16).astype(np.float32)


ROUND = {"bf16": round_bf16, "fp16": round_fp16}
DEPTH = 12
WIDTH = 64


def chain(rounding, wrong_step=None):
    """DEPTH steps x <- tanh(W_k x + b_k), each stored rounded (one rounding per step, as a
    kernel stores its result); float64 without `rounding`. `wrong_step` drops that step's
    bias (a wrong computation)."""
    rng = np.random.default_rng(5)
    x = rng.uniform(-1, 1, (8, WIDTH))
    ws = [rng.uniform(-1, 1, (WIDTH, WIDTH)) / math.sqrt(WIDTH) for _ in range(DEPTH)]
    bs = [rng.uniform(-0.5, 0.5, WIDTH) for _ in range(DEPTH)]
    if rounding:
        x = rounding(x)
    for k in range(DEPTH):
        if rounding:
            w, b = rounding(ws[k]), rounding(bs[k])
            y = x.astype(np.float32) @ w.astype(np.float32)  # fp32 accumulation
            y = y + (0 if k == wrong_step else b)
            x = rounding(np.tanh(y))
        else:
            x = np.tanh(x @ ws[k] + (0 if k == wrong_step else bs[k]))
    return x


@pytest.mark.parametrize("dtype", ["bf16", "fp16"])
def test_a_correct_16_bit_chain_matches_under_its_rounding_allowance(dtype):
    want = bundle.fingerprint(chain(None), "fp32")
    got = bundle.fingerprint(chain(ROUND[dtype]), "fp32")
    r = bundle.rounding_tolerance(dtype, DEPTH)
    ok, why = bundle.match_fingerprint(got, want, rounding=r)
    assert ok, why
    # The fixed tolerance (1e-4) alone judges bf16/fp16 rounding as a divergence.
    assert not bundle.match_fingerprint(got, want)[0]


@pytest.mark.parametrize("dtype", ["bf16", "fp16"])
def test_a_wrong_16_bit_chain_fails_under_its_rounding_allowance(dtype):
    want = bundle.fingerprint(chain(None), "fp32")
    got = bundle.fingerprint(chain(ROUND[dtype], wrong_step=DEPTH - 1), "fp32")
    ok, _ = bundle.match_fingerprint(got, want, rounding=bundle.rounding_tolerance(dtype, DEPTH))
    assert not ok


def test_the_allowance_follows_the_formula():
    # 2 (exp(6 sqrt(d) u + d u^2 / (1 - u)) - 1), u = 2^-8 (bf16), 2^-11 (fp16).
    for dtype, u in (("bf16", 2.0 ** -8), ("fp16", 2.0 ** -11)):
        for d in (1, 4, 30):
            want = 2 * (math.exp(6 * math.sqrt(d) * u + d * u * u / (1 - u)) - 1)
            assert bundle.rounding_tolerance(dtype, d) == pytest.approx(want, rel=1e-12)
    assert bundle.rounding_tolerance("fp32", 30) == 0.0
    assert bundle.rounding_tolerance("bf16", 0) == 0.0
    # Deeper is wider; bf16 wider than fp16.
    assert bundle.rounding_tolerance("bf16", 30) > bundle.rounding_tolerance("bf16", 4)
    assert bundle.rounding_tolerance("bf16", 4) > bundle.rounding_tolerance("fp16", 4)


def test_depths_follow_the_longest_chain_of_steps():
    t = lambda s: {"tensor": {"storage": s, "offset": 0, "shape": [1], "stride": [1]}}  # noqa: E731
    steps = [
        {"kind": "launch", "args": [t(0), t(1)], "writes": [1]},            # 1 <- f(0): depth 1
        {"kind": "call", "op": "aten.mm", "args": [t(1), t(0)], "out": [t(2)]},  # 2 <- g(1, 0): 2
        {"kind": "launch", "args": [t(0), t(3)], "writes": [1]},            # 3 <- h(0): 1
        {"kind": "launch", "args": [t(2), t(3), t(4)], "writes": [2]},      # 4 <- k(2, 3): 3
    ]
    depth, per_step = bundle.storage_depths(steps)
    assert per_step == [1, 2, 1, 3]
    assert (depth[0], depth[1], depth[2], depth[3], depth[4]) == (0, 1, 2, 1, 3)
