"""The torch.compile backend's library calls (npusim.dynamo's dispatch mode) on eager
torch tensors: mm, addmm, bmm and convolution run on npusim through run_call, other ops
as they would. Needs torch (any version with TorchDispatchMode, Debian's 1.13 too)."""

import numpy as np
import pytest

import npusim
from npusim import dynamo

torch = pytest.importorskip("torch")


def test_library_calls_run_on_npusim():
    g = torch.Generator().manual_seed(0)
    a, b, bias = torch.rand(16, 32, generator=g), torch.rand(32, 8, generator=g), torch.rand(8, generator=g)
    x, w = torch.rand(1, 2, 6, 6, generator=g), torch.rand(3, 2, 3, 3, generator=g)
    with dynamo._active(dynamo._checked({"mode": "full", "verify": True})) as session, dynamo._library_mode(session):
        mm = torch.mm(a, b)
        out = torch.empty(16, 8)
        torch.mm(a, b, out=out)
        addmm = torch.addmm(bias, a, b, beta=0.5, alpha=2.0)
        conv = torch.nn.functional.conv2d(x, w, padding=1)
        relu = torch.relu(mm)  # npusim's host implementation (not on the NPU)
        sine = torch.sin(mm)  # no library call of npusim's: runs as it would
        torch.relu_(sine)  # in place: left to the host
    report = npusim.last_report()
    assert [c["op"] for c in report["calls"]] == ["aten.mm", "aten.mm", "aten.addmm", "aten.convolution", "aten.relu"]
    assert [c["steps"][0]["executed_on"] for c in report["calls"]] == ["npu"] * 4 + ["host"]
    assert all(c["result"] == "verified" for c in report["calls"])
    assert report["cycles"] == sum(c["totals"]["cycles"] for c in report["calls"]) > 0
    a64, b64 = a.double(), b.double()
    np.testing.assert_allclose(mm.numpy(), (a64 @ b64).numpy(), atol=1e-5)
    np.testing.assert_allclose(out.numpy(), (a64 @ b64).numpy(), atol=1e-5)
    np.testing.assert_allclose(addmm.numpy(), (0.5 * bias.double() + 2.0 * a64 @ b64).numpy(), atol=1e-5)
    np.testing.assert_allclose(conv.numpy(), torch.nn.functional.conv2d(x.double(), w.double(), padding=1).numpy(),
                               atol=1e-5)
    np.testing.assert_array_equal(relu.numpy(), np.maximum(mm.numpy(), 0))
    np.testing.assert_allclose(sine.numpy(), np.maximum(np.sin(mm.numpy()), 0), rtol=1e-6)


def test_convolution_result_has_the_devices_layout():
    """A channels-last weight gives a channels-last convolution result on the CPU, as
    eager torch computes it and as Inductor's code asserts (torch 2.x's meta device
    alone gives a contiguous one where only the weight is channels-last on CUDA)."""
    g = torch.Generator().manual_seed(1)
    x = torch.rand(1, 4, 6, 6, generator=g)
    w = torch.rand(8, 4, 3, 3, generator=g).to(memory_format=torch.channels_last)
    eager = torch.nn.functional.conv2d(x, w, padding=1)
    with dynamo._active(dynamo._checked({"mode": "functional"})) as session, dynamo._library_mode(session):
        out = torch.nn.functional.conv2d(x, w, padding=1)
    assert npusim.last_report()["calls_run"] == 1
    assert out.stride() == eager.stride() == (288, 1, 48, 8)  # NHWC of 8 x 6 x 6
    torch.testing.assert_close(out, eager, rtol=1e-4, atol=1e-4)


def test_staged_span_is_written_back_to_the_device_tensor():
    """A CUDA tensor's span runs on a host copy; the write-back puts the copy's new
    values into the device tensor (a CPU tensor stands in for it here)."""
    device_span = torch.zeros(6)
    host, write_back = npusim.api._staged(device_span)
    host += torch.arange(6.0)  # what the launch wrote
    assert device_span.sum().item() == 0.0  # a copy, not a view
    write_back()
    assert device_span.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]
