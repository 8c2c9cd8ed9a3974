"""The torch.compile backend's library calls (npusim.dynamo's dispatch mode) on eager
torch tensors: mm, addmm, bmm, convolution, the calls with several results and the
in-place ones run on npusim through run_call, other ops as they would, reported as
fallbacks. Needs torch (any version with TorchDispatchMode, Debian's 1.13 too)."""

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
        sine = torch.sin(mm)  # no library call of npusim's: runs as it would, reported
        torch.relu_(sine)  # in place, on npusim's host implementation
    report = npusim.last_report()
    assert [c["op"] for c in report["calls"]] == ["aten.mm", "aten.mm", "aten.addmm", "aten.convolution", "aten.relu",
                                                  "aten.relu_"]
    assert [c["steps"][0]["executed_on"] for c in report["calls"]] == ["npu"] * 4 + ["host"] * 2
    assert report["fallbacks"] == [{"op": "aten.sin.default", "count": 1,
                                    "reason": "not in npusim's library (docs/library-calls.md)"}]
    assert report["fallbacks_run"] == 1
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


def test_calls_with_several_results_and_in_place_run_on_npusim():
    """sort, topk, layer and batch norm (whose running statistics it updates in place),
    max pooling with indices and in-place add_ and index_put_ go through run_call; max
    with indices, which npusim's library lacks, runs on the host and is reported."""
    g = torch.Generator().manual_seed(2)
    x = torch.rand(4, 6, generator=g)
    x[1, 2] = x[1, 4]  # a tie: the stable sort keeps index order
    image = torch.rand(2, 3, 4, 4, generator=g)
    mean, var = torch.zeros(3), torch.ones(3)
    acc = torch.zeros(4, 6)
    with dynamo._active(dynamo._checked({"mode": "functional"})) as session, dynamo._library_mode(session):
        values, indices = torch.sort(x, dim=1, stable=True)
        top, top_at = torch.topk(x, 2, dim=1)
        ln = torch.nn.functional.layer_norm(x, (6,))
        # (the aten operator itself: which one F.batch_norm reaches depends on torch's version)
        bn = torch.ops.aten.native_batch_norm(image, None, None, mean, var, True, 0.5, 1e-5)[0]
        pooled, pooled_at = torch.nn.functional.max_pool2d(image, 2, return_indices=True)
        acc.add_(x, alpha=2.0)
        acc.index_put_((torch.tensor([0, 0]),), torch.ones(6), accumulate=True)
        largest, largest_at = torch.max(x, dim=1)
    report = npusim.last_report()
    ops = [c["op"] for c in report["calls"]]
    for op in ("aten.sort.stable", "aten.topk", "aten.native_layer_norm", "aten.native_batch_norm",
               "aten.max_pool2d_with_indices", "aten.add_.Tensor", "aten.index_put_"):
        assert op in ops, (op, ops)
    assert all(c["result"] != "error" for c in report["calls"])
    assert {f["op"] for f in report["fallbacks"]} == {"aten.max.dim"}, report["fallbacks"]
    # Expected values from numpy (stable argsort), and closed forms.
    xn = x.numpy().astype(np.float64)
    order = np.argsort(xn, axis=1, kind="stable")
    np.testing.assert_array_equal(indices.numpy(), order)
    np.testing.assert_array_equal(values.numpy(), np.take_along_axis(x.numpy(), order, axis=1))
    np.testing.assert_array_equal(top_at.numpy(), np.argsort(-xn, axis=1, kind="stable")[:, :2])
    np.testing.assert_array_equal(top.numpy(), np.sort(x.numpy(), axis=1)[:, ::-1][:, :2])
    centred = xn - xn.mean(axis=1, keepdims=True)
    np.testing.assert_allclose(ln.numpy(), centred / np.sqrt((centred ** 2).mean(axis=1, keepdims=True) + 1e-5),
                               atol=1e-5)
    im = image.numpy().astype(np.float64)
    batch_mean, batch_var = im.mean(axis=(0, 2, 3)), im.var(axis=(0, 2, 3))
    np.testing.assert_allclose(bn.numpy(), (im - batch_mean[None, :, None, None])
                               / np.sqrt(batch_var[None, :, None, None] + 1e-5), atol=1e-5)
    np.testing.assert_allclose(mean.numpy(), 0.5 * batch_mean, atol=1e-6)  # momentum 0.5 from 0
    np.testing.assert_allclose(var.numpy(), 0.5 + 0.5 * im.var(axis=(0, 2, 3), ddof=1), atol=1e-6)
    windows = im.reshape(2, 3, 2, 2, 2, 2).transpose(0, 1, 2, 4, 3, 5).reshape(2, 3, 2, 2, 4)
    np.testing.assert_array_equal(pooled.numpy(), windows.max(axis=-1).astype(np.float32))
    at = windows.argmax(axis=-1)  # window-local (row, column) -> h * W + w in the plane
    rows = 2 * np.arange(2)[:, None] + at // 2
    cols = 2 * np.arange(2)[None, :] + at % 2
    np.testing.assert_array_equal(pooled_at.numpy(), rows * 4 + cols)
    want = 2.0 * xn
    want[0] += 2.0
    np.testing.assert_allclose(acc.numpy(), want, atol=1e-6)
    np.testing.assert_array_equal(largest.numpy(), x.numpy().max(axis=1))
    np.testing.assert_array_equal(largest_at.numpy(), xn.argmax(axis=1))


def test_modes_already_active_see_the_calls_npusim_runs():
    """npusim's mode goes beneath a mode already active (a capture's recorder): that mode
    sees aten.mm and its result, which npusim computed."""
    from torch.utils._python_dispatch import TorchDispatchMode

    seen = []

    class Observer(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            out = func(*args, **(kwargs or {}))
            # (no aten op of its own: npusim's mode beneath would run it)
            seen.append((str(func), out.detach().numpy().copy() if isinstance(out, torch.Tensor) else None))
            return out

    g = torch.Generator().manual_seed(3)
    a, b = torch.rand(8, 16, generator=g), torch.rand(16, 4, generator=g)
    with Observer():
        with dynamo._active(dynamo._checked({"mode": "functional"})) as session, dynamo._library_mode(session):
            torch.mm(a, b)
        after = torch.sin(a)  # the observer is active again, alone
    assert [c["op"] for c in npusim.last_report()["calls"]] == ["aten.mm"]
    names = [name for name, _ in seen]
    assert names == ["aten.mm.default", "aten.sin.default"], names
    np.testing.assert_allclose(seen[0][1], (a.double() @ b.double()).numpy(), atol=1e-5)
    np.testing.assert_array_equal(seen[1][1], after.numpy())


def test_a_call_npusim_refuses_runs_as_it_would_and_is_reported(monkeypatch):
    """A call npusim's loader refuses before any step runs (InputError: an argument form
    its library lacks) runs in torch instead, reported with npusim's message."""
    def refuse(op, *args, **kwargs):
        raise npusim.InputError(f"<graph>: error: {op}: argument 0 (self): a form npusim lacks\nmore")

    monkeypatch.setattr(npusim.api, "run_call", refuse)
    a, b = torch.ones(2, 3), torch.full((3, 4), 2.0)
    with pytest.warns(UserWarning, match="aten.mm.default runs off npusim"):
        with dynamo._active(dynamo._checked({"mode": "functional"})) as session, dynamo._library_mode(session):
            product = torch.mm(a, b)
    report = npusim.last_report()
    assert report["calls"] == [] and product.tolist() == [[6.0] * 4] * 2  # 3 * (1 * 2)
    assert report["fallbacks"] == [{"op": "aten.mm.default", "count": 1, "reason": "npusim's library refused it: "
                                    "<graph>: error: aten.mm: argument 0 (self): a form npusim lacks"}]


def test_a_call_npusim_fails_on_runs_as_it_would_with_a_warning():
    """A boolean index (npusim's index_put takes integer index tensors only) fails when
    npusim runs it: torch computes it, the report names the operator and npusim's
    message, and a warning says so."""
    x, mask = torch.zeros(3), torch.tensor([True, False, True])
    with pytest.warns(UserWarning, match="aten.index_put.default runs off npusim"):
        with dynamo._active(dynamo._checked({"mode": "functional"})) as session, dynamo._library_mode(session):
            put = torch.ops.aten.index_put(x, [mask], torch.tensor(5.0))
    assert put.tolist() == [5.0, 0.0, 5.0] and x.tolist() == [0.0, 0.0, 0.0]
    (fallback,) = npusim.last_report()["fallbacks"]
    assert fallback["op"] == "aten.index_put.default" and "only integer index tensors" in fallback["reason"]


def test_an_in_place_call_npusim_fails_on_runs_in_torch_on_its_own_input():
    """In place, a failed run may have written part of the tensor it also reads: the
    tensor is restored before torch runs the call."""
    target, mask = torch.arange(3.0), torch.tensor([True, False, True])
    with pytest.warns(UserWarning, match="aten.index_put_.default runs off npusim"):
        with dynamo._active(dynamo._checked({"mode": "functional"})) as session, dynamo._library_mode(session):
            target.index_put_((mask,), torch.tensor(1.0), accumulate=True)
    assert target.tolist() == [1.0, 1.0, 3.0]  # [0, 1, 2] + [1, 0, 1], added once
    assert [f["op"] for f in npusim.last_report()["fallbacks"]] == ["aten.index_put_.default"]
