"""npusim.precision: the fp32 switches a capture sets and the probe that catches a device
rounding its inputs to TF32 (10 mantissa bits) anyway."""

import pytest

torch = pytest.importorskip("torch")

from npusim import precision  # noqa: E402


def _round_to_tf32(t):
    # Round to nearest on 10 stored mantissa bits, as TF32 tensor cores read fp32:
    # add half of the 13 dropped bits' unit, then clear them.
    bits = t.float().contiguous().view(torch.int32)
    bits = (bits + (1 << 12)) & ~((1 << 13) - 1)
    return bits.view(torch.float32)


def test_full_fp32_reads_back_as_full_fp32():
    state = precision.set_full_fp32(torch, lambda line: None)
    assert state["float32_matmul_precision"] == "highest"
    assert precision.reduced_precision_settings(state) == []


def test_reduced_settings_are_named():
    bad = precision.reduced_precision_settings({
        "cudnn.conv.fp32_precision": "tf32", "cudnn.allow_tf32": True,
        "cuda.matmul.fp32_precision": "ieee", "fp32_precision": "none",
        "float32_matmul_precision": "high"})
    assert bad == ["torch.backends.cudnn.conv.fp32_precision=tf32",
                   "torch.backends.cudnn.allow_tf32=True", "float32_matmul_precision=high"]


def test_probe_passes_full_fp32_on_the_cpu():
    assert precision.probe(torch, "cpu") == []


def test_probe_catches_inputs_rounded_to_tf32():
    # 1 + 2^-12 rounds to 1: the matmul gives 64 for 64 * (1 + 2^-12), 2.4e-4 off.
    assert _round_to_tf32(torch.tensor([1.0 + 2.0 ** -12])).item() == 1.0
    problems = precision.probe(torch, "cpu", to_device=_round_to_tf32)
    names = [p.split(" on cpu")[0] for p in problems]
    assert "matmul" in names
    assert "1x1 convolution (channels-last) weight gradient" in names
    assert "3x3 convolution (channels-last) input gradient" in names
    assert "LSTM" in names
    assert len(problems) == 11  # every probe: the matmul, 3 convolutions x (forward, two gradients), the LSTM


def test_replay_wide_check_catches_a_tf32_convolution_gradient():
    """A weight gradient computed from inputs rounded to TF32 (as the GPU of the
    MobileNetV2 capture seemed to) differs from float64 on the CPU; the exact one does
    not."""
    from npusim import recorder, replay

    g = torch.Generator().manual_seed(0)
    gy = torch.rand(4, 8, 6, 6, generator=g) - 0.5
    x = torch.rand(4, 48, 6, 6, generator=g) - 0.5
    w = torch.rand(8, 48, 1, 1, generator=g) - 0.5
    ov = torch.ops.aten.convolution_backward.default
    args = [gy, x, w, [8], [1, 1], [0, 0], [1, 1], False, [0, 0], 1, [True, True, True]]

    def fingerprints(res):
        return [(i, recorder.tensor_fingerprint(r)) for i, r in enumerate(res)]

    exact = ov(*args)
    assert replay.wide_mismatches(torch, "aten.convolution_backward", ov, args, {},
                                  fingerprints(exact)) == []
    rounded = ov(_round_to_tf32(gy), _round_to_tf32(x), _round_to_tf32(w), *args[3:])
    bad = replay.wide_mismatches(torch, "aten.convolution_backward", ov, args, {},
                                 fingerprints(rounded))
    assert any(b.startswith("aten.convolution_backward result 1:") for b in bad), bad
