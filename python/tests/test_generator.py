"""The bundle input generator: fixed vectors (shared with the C++ side), numpy = scalar."""

import json
import math
import os
import struct
from fractions import Fraction

import pytest

from npusim import generator as g

HERE = os.path.dirname(os.path.abspath(__file__))
VECTORS = os.path.join(HERE, "generator_vectors.json")


def load():
    with open(VECTORS) as f:
        return json.load(f)


def test_splitmix64_reference_value():
    # The first output of the reference splitmix64 with state 0.
    assert g.splitmix64(0) == 0xE220A8397B1DCDAF


def test_vectors_file_is_current():
    v = load()
    fresh = json.loads(json.dumps(g.vectors()))
    assert v == fresh, "regenerate with: python3 -m npusim.generator --vectors tests/generator_vectors.json"


def test_vectors_hashes():
    v = load()
    for e in v["splitmix64"]:
        assert g.splitmix64(int(e["z"], 16)) == int(e["out"], 16)
    for e in v["h"]:
        assert g.h(e["seed"], e["stream"], e["index"]) == int(e["h"], 16)
        arr = g.hashes(e["seed"], e["stream"], e["index"], 1)
        assert int(arr[0]) == int(e["h"], 16)


def test_vectors_uniform_numpy():
    v = load()
    for e in v["uniform"]:
        init = g.uniform(e["low"], e["high"], e["stream"])
        arr = g.generate(init, e["dtype"], 1, e["seed"], start=e["index"])
        width = {"fp64": "<u8", "fp32": "<u4", "fp16": "<u2", "bf16": "<u2"}[e["dtype"]]
        assert int(arr.view(width)[0]) == int(e["bits"], 16), e
        assert g.float_bits(g.value(init, e["dtype"], e["seed"], e["index"]), e["dtype"]) == int(e["bits"], 16)


def test_vectors_randint_numpy():
    v = load()
    for e in v["randint"]:
        init = g.randint(e["low"], e["high"], e["stream"])
        arr = g.generate(init, e["dtype"], 1, e["seed"], start=e["index"])
        assert int(arr[0]) == e["value"], e
        assert e["low"] <= e["value"] < e["high"]


def _exact_round(x, mant_bits, min_exp):
    """Reference rounding of a double to a binary format with `mant_bits` stored bits and
    minimum normal exponent min_exp, nearest even, with exact rationals."""
    if x == 0:
        return x
    f = Fraction(abs(x))
    e = math.floor(math.log2(abs(x)))
    while Fraction(2) ** e > f:
        e -= 1
    while Fraction(2) ** (e + 1) <= f:
        e += 1
    e = max(e, min_exp)
    ulp = Fraction(2) ** (e - mant_bits)
    q = f / ulp
    n = math.floor(q)
    rem = q - n
    if rem > Fraction(1, 2) or (rem == Fraction(1, 2) and n % 2 == 1):
        n += 1
    return math.copysign(float(n * ulp), x)


@pytest.mark.parametrize("dtype,mant,min_exp", [("fp32", 23, -126), ("fp16", 10, -14), ("bf16", 7, -126)])
def test_rounding_matches_exact(dtype, mant, min_exp):
    import numpy as np

    cases = [1.0 + 2.0 ** -8 + 2.0 ** -30, 1.0 + 2.0 ** -8, 1.0 + 3 * 2.0 ** -8, -2.5e-5, 3.0e-6,
             1e-4, 0.1, -0.7, 1.0 - 2.0 ** -40, 5.960464477539063e-08, 2.0 ** -127 * 1.5]
    rng = np.random.default_rng(0)
    cases += [float(x) for x in rng.uniform(-2, 2, 300)]
    cases += [float(x) for x in rng.uniform(-1e-4, 1e-4, 300)]
    for x in cases:
        want = _exact_round(x, mant, min_exp)
        assert g.round_to(x, dtype) == want, (dtype, x)
    arr = np.array(cases, dtype=np.float64)
    init_vals = g._cast_float(arr, dtype)
    for x, got in zip(cases, init_vals):
        want = _exact_round(x, mant, min_exp)
        if dtype == "bf16":
            assert int(got) == g.bits_bf16(want), (x, hex(int(got)))
        else:
            assert float(got) == want, (dtype, x)


def test_numpy_equals_scalar_on_ranges():
    for dtype, low, high in g.UNIFORM_CASES:
        init = g.uniform(low, high, 5)
        arr = g.generate(init, dtype, 2000, 7, start=123, chunk=700)
        for k in range(0, 2000, 13):
            v = g.value(init, dtype, 7, 123 + k)
            if dtype == "bf16":
                assert int(arr[k]) == g.bits_bf16(v)
            else:
                assert float(arr[k]) == v
            assert low <= v <= high
    for dtype, low, high in g.RANDINT_CASES:
        init = g.randint(low, high, 9)
        arr = g.generate(init, dtype, 500, 3)
        assert all(int(arr[k]) == g.value(init, dtype, 3, k) for k in range(500))


def test_constant_and_bool():
    import numpy as np

    assert list(g.generate(g.constant(0), "i64", 3, 0)) == [0, 0, 0]
    assert g.generate(g.constant(1.5), "fp32", 2, 0).tolist() == [1.5, 1.5]
    b = g.generate(g.randint(0, 2, 4), "i1", 1000, 0)
    assert b.dtype == np.bool_ and 300 < int(b.sum()) < 700


def test_streams_differ():
    a = g.generate(g.uniform(-1, 1, 0), "fp32", 16, 0)
    b = g.generate(g.uniform(-1, 1, 1), "fp32", 16, 0)
    c = g.generate(g.uniform(-1, 1, 0), "fp32", 16, 1)
    assert (a != b).all() and (a != c).all()


def test_fp32_struct_is_round_to_nearest_even():
    # 1 + 2^-24 is halfway between 1 and 1 + 2^-23: ties to even (1.0).
    assert struct.unpack("<f", struct.pack("<f", 1.0 + 2.0 ** -24))[0] == 1.0
    assert g.round_to(1.0 + 3 * 2.0 ** -24, "fp32") == 1.0 + 2.0 ** -22
