"""npusim.generator_torch against the numpy generator (itself checked against the
definition's fixed vectors): every kind and dtype, bit for bit, at offsets where the
hashes have their top bit set and across its chunks. Needs torch (any version; the CPU)."""

import numpy as np
import pytest

from npusim import generator, generator_torch

CASES = [
    ({"kind": "uniform", "low": -1.0, "high": 1.0, "stream": 3}, "fp32"),
    ({"kind": "uniform", "low": -0.125, "high": 0.125, "stream": 0}, "bf16"),
    ({"kind": "uniform", "low": 0.5, "high": 1.5, "stream": 9}, "fp64"),
    ({"kind": "uniform", "low": -1e-38, "high": 1e-38, "stream": 2}, "bf16"),  # subnormal results
    ({"kind": "uniform", "low": -3.0, "high": 3.0, "stream": 4}, "fp16"),  # numpy's chunks
    ({"kind": "randint", "low": 0, "high": 128256, "stream": 21}, "i64"),
    ({"kind": "randint", "low": -100, "high": 100, "stream": 5}, "i32"),
    ({"kind": "randint", "low": 0, "high": 2, "stream": 6}, "i1"),
    ({"kind": "randint", "low": 0, "high": 3, "stream": 7}, "fp32"),
    ({"kind": "randint", "low": -(1 << 62), "high": 1 << 62, "stream": 8}, "i64"),  # numpy's chunks
    ({"kind": "constant", "value": 1.0}, "bf16"),
    ({"kind": "constant", "value": 0.1}, "fp32"),
    ({"kind": "constant", "value": 7}, "i64"),
]


@pytest.mark.parametrize("init,dtype", CASES)
@pytest.mark.parametrize("seed", [0, 42])
def test_fill_equals_numpy_bit_for_bit(init, dtype, seed):
    torch = pytest.importorskip("torch")
    from npusim.recorder import BUNDLE_TO_TORCH

    count = 5000
    flat = torch.empty(count, dtype=BUNDLE_TO_TORCH[dtype])
    generator_torch.fill(torch, flat, init, dtype, seed)
    want = generator.generate(init, dtype, count, seed)
    got = flat.view(torch.int16).numpy() if dtype == "bf16" else flat.numpy()
    np.testing.assert_array_equal(got.view(np.uint8), np.ascontiguousarray(want).view(np.uint8))


def test_chunks_and_far_offsets(monkeypatch):
    torch = pytest.importorskip("torch")
    monkeypatch.setattr(generator_torch, "_CHUNK", 1000)
    init = {"kind": "uniform", "low": -1.0, "high": 1.0, "stream": 11}
    flat = torch.empty(4321, dtype=torch.bfloat16)
    generator_torch.fill(torch, flat, init, "bf16", 5)
    want = generator.generate(init, "bf16", 4321, 5)
    np.testing.assert_array_equal(flat.view(torch.int16).numpy().view(np.uint16), want)
    # Hashes of indices near 2^40 (half with the top bit set) in one chunk.
    z = generator_torch.hashes(torch, 3, 1, 1 << 40, 2000, "cpu").numpy().view(np.uint64)
    np.testing.assert_array_equal(z, generator.hashes(3, 1, 1 << 40, 2000))
    assert (z >> np.uint64(63)).any() and not (z >> np.uint64(63)).all()


def test_the_capture_checks_a_large_storage_in_windows_from_its_first_element_to_its_last():
    torch = pytest.importorskip("torch")
    from npusim import capture

    init = {"kind": "uniform", "low": -1.0, "high": 1.0, "stream": 2}
    n = (1 << 22) + 12345  # above the size checked whole
    flat = torch.empty(n, dtype=torch.bfloat16)
    generator_torch.fill(torch, flat, init, "bf16", 0)
    assert capture._regenerates(flat, init, "bf16", 0)
    assert not capture._regenerates(flat, init, "bf16", 1)  # another seed's values
    for index in (0, n - 1):  # the windows reach both ends
        wrong = flat.clone()
        wrong[index] = 7.0
        assert not capture._regenerates(wrong, init, "bf16", 0)
    small = torch.empty(1000, dtype=torch.float32)
    generator_torch.fill(torch, small, init, "fp32", 0)
    small[500] = 7.0  # a small storage is checked whole
    assert not capture._regenerates(small, init, "fp32", 0)
