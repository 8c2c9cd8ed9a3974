"""Recorder bookkeeping of several graphs (needs torch, not a GPU)."""

import pytest

pytest.importorskip("torch")

from npusim import recorder  # noqa: E402

SRC_A = "@triton.jit\ndef triton_poi_fused_add_0(in_ptr0, xnumel):\n    pass  # 'kernel_name': 'triton_poi_fused_add_0'\n"
SRC_B = "@triton.jit\ndef triton_poi_fused_add_0(in_ptr0, out_ptr0, xnumel):\n    pass\n"


def test_kernel_names_of_two_graphs():
    rec = recorder.Recorder()
    rec.graphs.append({"region": "forward"})
    assert rec.bundle_kernel_name("triton_poi_fused_add_0", SRC_A) == "triton_poi_fused_add_0"
    rec.graphs.append({"region": "backward"})
    # Same name, same source: one file.
    assert rec.bundle_kernel_name("triton_poi_fused_add_0", SRC_A) == "triton_poi_fused_add_0"
    rec.graphs.append({"region": "optimizer"})
    # Same name, another source: renamed after the graph's index, in the source too.
    assert rec.bundle_kernel_name("triton_poi_fused_add_0", SRC_B) == "triton_poi_fused_add_0_g2"
    renamed = rec.kernels["triton_poi_fused_add_0_g2"]
    assert "def triton_poi_fused_add_0_g2(in_ptr0, out_ptr0, xnumel):" in renamed
    assert rec.kernels["triton_poi_fused_add_0"] == SRC_A
    # The same launch again in that graph keeps the name.
    assert rec.bundle_kernel_name("triton_poi_fused_add_0", SRC_B) == "triton_poi_fused_add_0_g2"
    assert len(rec.kernels) == 2


def test_launch_npusim_ran_is_recorded_with_its_grid_and_fingerprints(monkeypatch):
    """With backend="npusim" (a capture without a GPU) Triton has no launcher: the step
    takes the grid and block sizes npusim chose, and its fingerprint is of what npusim
    wrote (out = in0 * 2 + in1, checked against numpy's)."""
    import os
    import types

    import numpy as np
    import torch

    from npusim import bundle, dynamo

    if not hasattr(torch.Tensor, "untyped_storage"):  # torch 1.x: its name then
        monkeypatch.setattr(torch.Tensor, "untyped_storage", lambda t: t.storage()._storage, raising=False)
    kernel = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                          "tests", "data", "cli", "triton_poi_fused_add_mul_0.py")
    signature = {"in_ptr0": "*fp32", "in_ptr1": "*fp32", "out_ptr0": "*fp32", "xnumel": "i32", "XBLOCK": "constexpr"}
    tuner = types.SimpleNamespace(
        filename=kernel, heuristic_type="HeuristicType.POINTWISE", launchers=[], mutated_arg_names=[],
        configs=[types.SimpleNamespace(kwargs={"XBLOCK": 8})],
        fn=types.SimpleNamespace(arg_names=list(signature), constexprs=[4], __name__="triton_poi_fused_add_mul_0"),
        triton_meta={"signature": signature, "device": types.SimpleNamespace(type="cpu"), "constants": {}},
        inductor_meta={"kernel_name": "triton_poi_fused_add_mul_0"})
    g = torch.Generator().manual_seed(4)
    a, b, out = torch.rand(1000, generator=g), torch.rand(1000, generator=g), torch.zeros(1000)
    rec = recorder.Recorder()
    rec.mode = "record"
    with dynamo._active(dynamo._checked({"mode": "reference"})) as session:
        rec.on_run(tuner, (a, b, out, 1000), {}, lambda at, *args, **kw: dynamo._run_on_npusim(at, args, session))
    assert rec.errors == []
    (step,) = rec.steps
    assert step["kernel"] == "triton_poi_fused_add_mul_0" and step["writes"] == [2]
    blocks = step["constexprs"]["XBLOCK"]
    assert step["grid"] == [-(-1000 // blocks), 1, 1] and "num_warps" not in step
    want = a.double().numpy() * 2 + b.double().numpy()
    (fp,) = step["fingerprints"]
    ok, why = bundle.match_fingerprint(fp, bundle.fingerprint(want.astype(np.float32), "fp32"))
    assert fp["arg"] == 2 and ok, why


def test_a_buffer_written_without_the_schema_saying_so_is_seen(monkeypatch):
    """An operator that writes a model buffer although its schema does not mark it
    written (as native_batch_norm writes its running statistics): the recorder compares
    the buffer's values around the call, warns, and counts its storage as written."""
    import torch

    if not hasattr(torch.Tensor, "untyped_storage"):  # torch 1.x: its name then
        monkeypatch.setattr(torch.Tensor, "untyped_storage", lambda t: t.storage()._storage, raising=False)
    lib = torch.library.Library("npusim_recorder_test", "DEF")
    lib.define("bump(Tensor x, Tensor y) -> Tensor")

    def bump(x, y):
        x.add_(1.0)  # the unmarked write
        return y * 2.0

    lib.impl("bump", bump, "CPU")
    buffer, weight, other = torch.zeros(3), torch.ones(3), torch.ones(3)
    roles = {buffer.data_ptr(): "running_mean", weight.data_ptr(): "weight"}
    rec = recorder.Recorder()
    rec.model_tensor = lambda t: {"role": roles[t.data_ptr()]} if t.data_ptr() in roles else None
    rec.mode = "record"
    with recorder.RecordingMode(rec):
        torch.ops.npusim_recorder_test.bump(buffer, weight)
        torch.ops.npusim_recorder_test.bump(other, weight)  # not a model tensor: not watched
    assert rec.errors == []
    assert buffer.tolist() == [1.0, 1.0, 1.0]
    assert rec.storages.ref(buffer)["storage"] in rec.written
    assert rec.storages.ref(other)["storage"] not in rec.written
    warned = [w for w in rec.warnings if "wrote its argument x although its schema does not mark it" in w]
    assert len(warned) == 1, rec.warnings
