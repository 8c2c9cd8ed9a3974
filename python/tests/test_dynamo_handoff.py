"""The torch.compile backend's hand-off of one Inductor launch to npusim
(npusim.dynamo), with a stand-in for Inductor's CachingAutotuner: what the launch hook
receives on the GPU machine (python/tests/gpu/run_torch_checks.py runs the real one).
Needs the extension; no torch."""

import os
import types

import numpy as np
import pytest

import npusim
from npusim import dynamo

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KERNEL = os.path.join(REPO, "tests", "data", "cli", "triton_poi_fused_add_mul_0.py")  # out = in0 * 2 + in1, 1000


def autotuner(kind="HeuristicType.POINTWISE", xblock=1024):
    signature = {"in_ptr0": "*fp32", "in_ptr1": "*fp32", "out_ptr0": "*fp32", "xnumel": "i32", "XBLOCK": "constexpr"}
    return types.SimpleNamespace(
        filename=KERNEL, heuristic_type=kind, launchers=[],
        configs=[types.SimpleNamespace(kwargs={"XBLOCK": xblock})],
        triton_meta={"signature": signature, "device": types.SimpleNamespace(type="cpu")},
        inductor_meta={"kernel_name": "triton_poi_fused_add_mul_0"})


def launch(tuner, options):
    rng = np.random.default_rng(3)
    a, b = rng.uniform(-1, 1, 1000).astype(np.float32), rng.uniform(-1, 1, 1000).astype(np.float32)
    out = np.zeros(1000, np.float32)
    session = dynamo._Session(dynamo._checked(options))
    dynamo._run_on_npusim(tuner, (a, b, out, 1000), session)
    return a, b, out, session


@pytest.mark.parametrize("verify", [False, True])
def test_launch_runs_on_npusim_in_place(verify):
    a, b, out, session = launch(autotuner(), {"mode": "full", "verify": verify})
    np.testing.assert_array_equal(out, a * np.float32(2) + b)  # 2x is exact, one fp32 add
    report = session.report()
    assert report["kernels_run"] == 1 and report["cycles"] == session.launches[0]["cycles"] > 0
    assert ("reference_check" in session.launches[0]) == verify


def test_template_keeps_inductors_block_sizes():
    _, _, _, session = launch(autotuner("HeuristicType.TEMPLATE", xblock=128), {"mode": "functional"})
    launched = session.launches[0]
    assert launched["constexprs"] == {"XBLOCK": 128}
    assert launched["grid"] == (8, 1, 1)  # ceil(1000 / 128)


def test_compiled_graph_call_leaves_the_report():
    with dynamo._active(dynamo._checked({"mode": "timing"})) as session:
        rng = np.random.default_rng(3)
        args = (rng.uniform(-1, 1, 1000).astype(np.float32), np.zeros(1000, np.float32),
                np.zeros(1000, np.float32), 1000)
        dynamo._run_on_npusim(autotuner(), args, session)
        dynamo._run_on_npusim(autotuner(), args, session)
    report = npusim.last_report()
    assert report["kernels_run"] == 2 and report["mode"] == "timing"
    assert report["cycles"] == 2 * report["launches"][0]["cycles"]


def test_options_are_checked():
    with pytest.raises(ValueError, match="unknown option"):
        dynamo._checked({"modes": "full"})
    with pytest.raises(ValueError, match="mode expects"):
        dynamo._checked({"mode": "fast"})
    with pytest.raises(ValueError, match="verify needs values"):
        dynamo._checked({"mode": "timing", "verify": True})
    with pytest.raises(npusim.InputError, match="unknown preset 'tpuv9'"):
        dynamo._checked({"config": "tpuv9"})
    assert dynamo._checked(None) == {"config": "tpuv3-like", "mode": "full", "verify": False}


def test_too_few_arguments_name_the_kernel():
    session = dynamo._Session(dynamo._checked({}))
    with pytest.raises(npusim.InputError, match="triton_poi_fused_add_mul_0: Inductor passed 2 arguments for 4"):
        dynamo._run_on_npusim(autotuner(), (np.zeros(4, np.float32), np.zeros(4, np.float32)), session)


def test_verify_reports_a_divergent_buffer(monkeypatch):
    real = npusim.api.run_kernel

    def reference_off_by_one(kernel, **kwargs):
        result = real(kernel, **kwargs)
        if kwargs.get("mode") == "reference":
            kwargs["args"]["out_ptr0"][7] += 1.0  # the reference now disagrees at one element
        return result

    monkeypatch.setattr(npusim.api, "run_kernel", reference_off_by_one)
    with pytest.raises(npusim.VerificationError, match=r"buffer out_ptr0 differs .*max error 1\)"):
        launch(autotuner(), {"mode": "functional", "verify": True})


def test_trace_of_a_compiled_graph_call_puts_its_launches_one_after_another(tmp_path):
    import json

    rng = np.random.default_rng(3)
    args = (rng.uniform(-1, 1, 1000).astype(np.float32), np.zeros(1000, np.float32), np.zeros(1000, np.float32), 1000)
    _, single = npusim.run_kernel(KERNEL, args=dict(zip(["in_ptr0", "in_ptr1", "out_ptr0", "xnumel"], args)),
                                  mode="timing")
    with open(npusim.trace(tmp_path / "one.json")) as f:
        one = json.load(f)["traceEvents"]
    with dynamo._active(dynamo._checked({"mode": "timing"})) as session:
        dynamo._run_on_npusim(autotuner(), args, session)
        dynamo._run_on_npusim(autotuner(), args, session)
    with open(npusim.trace(tmp_path / "two.json")) as f:
        two = json.load(f)["traceEvents"]
    timed = [e for e in one if e.get("ph") != "M"]
    assert len(two) == len(one) + len(timed)  # the metadata once, the events twice
    shifted = [e for e in two if e.get("ph") != "M"][len(timed):]
    offset = single["timing"]["time_us"]
    assert [e.get("ts") for e in shifted] == [e["ts"] + offset if "ts" in e else None for e in timed]


FOREACH = os.path.join(REPO, "tests", "data", "inductor_kernels", "op_foreach", "triton_for_fused_0.py")


def test_combo_kernel_grid_is_inductors():
    """A foreach kernel (SequentialComboKernelGrid): four sub-kernels of 16, 256, 64 and
    1000 elements, XBLOCK 1024 from the combo metadata's default config, so the grid is
    1 + 1 + 1 + 1 blocks; sub-kernel i writes in[2i] + in[2i+1] and in[2i] * 0.5."""
    import ast
    import re

    with open(FOREACH) as f:
        text = f.read()
    inductor_meta = ast.literal_eval(re.search(r"inductor_meta=(\{.*\}),\n\)", text).group(1))
    sizes = [16, 256, 64, 1000]
    names = [f"in_ptr{i}" for i in range(8)] + [f"out_ptr{i}" for i in range(8)]
    tuner = types.SimpleNamespace(
        filename=FOREACH, heuristic_type="HeuristicType.TEMPLATE", launchers=[],
        configs=[types.SimpleNamespace(kwargs={})],
        triton_meta={"signature": {n: "*fp32" for n in names}, "device": None, "device_type": "cpu"},
        inductor_meta=inductor_meta)
    assert dynamo._on_cpu(tuner)
    rng = np.random.default_rng(5)
    inputs = [rng.uniform(-1, 1, sizes[i // 2]).astype(np.float32) for i in range(8)]
    outputs = [np.zeros(sizes[i // 2], np.float32) for i in range(8)]
    session = dynamo._Session(dynamo._checked({"mode": "functional"}))
    dynamo._run_on_npusim(tuner, tuple(inputs + outputs), session)
    assert session.launches[0]["grid"] == (4, 1, 1)
    for i in range(4):
        np.testing.assert_array_equal(outputs[2 * i], inputs[2 * i] + inputs[2 * i + 1])
        np.testing.assert_array_equal(outputs[2 * i + 1], inputs[2 * i] * np.float32(0.5))


def test_combo_grid_rules():
    """Inductor's two combo rules on numels from the metadata and from the launch:
    Sequential: ceil(100/64) + 7 (no x dim) + ceil(300/64) = 2 + 7 + 5 = 14;
    RoundRobin: max(7, ceil(max(100, 300)/64) = 5) * 3 = 21; y: ceil(40/16) = 3."""
    combo = {"num_kernels": 3, "min_blocks": None, "default_config": None, "no_x_dim_0": False, "xnumel_0": 100,
             "no_x_dim_1": True, "xnumel_1": 7, "no_x_dim_2": False, "xnumel_2": None, "ynumel_2": None}
    tuner = types.SimpleNamespace(inductor_meta={"grid_type": "SequentialComboKernelGrid", "combo_grid_meta": combo})
    launch_args = {"xnumel_2": 300, "ynumel_2": 40}
    assert dynamo._combo_grid(tuner, launch_args, {"XBLOCK": 64, "YBLOCK": 16}) == (14, 3, 1)
    tuner.inductor_meta["grid_type"] = "RoundRobinComboKernelGrid"
    assert dynamo._combo_grid(tuner, launch_args, {"XBLOCK": 64, "YBLOCK": 16}) == (21, 3, 1)
    with pytest.raises(npusim.InputError, match="needs YBLOCK"):
        dynamo._combo_grid(tuner, launch_args, {"XBLOCK": 64})


def test_import_npusim_loads_no_extension():
    """Capture, replay and batch import the package (and Triton imports its "cpu"
    backend from it): none of them may load the C++ extension."""
    import subprocess
    import sys

    code = ("import sys, npusim, npusim.bundle, npusim.triton_source; "
            "print('npusim._native' in sys.modules); npusim.presets(); print('npusim._native' in sys.modules)")
    env = dict(os.environ, PYTHONPATH=os.path.join(REPO, "python"))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert out.stdout.split() == ["False", "True"]
