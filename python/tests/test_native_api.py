"""The extension's Python API against the command line (build/npusim) on the committed
bundles and kernels, and its error paths. Needs the extension built
(-DNPUSIM_PYTHON=ON) and the npusim executable of the same build folder."""

import importlib
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import npusim
from npusim import _native_loader

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CLI = os.path.join(_native_loader.build_dir(), "npusim")
KERNEL = os.path.join(REPO, "tests", "data", "cli", "triton_poi_fused_add_mul_0.py")  # out = in0 * 2 + in1, 1000
MLP = os.path.join(REPO, "examples", "mlp")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "data"))
jit_kernels = importlib.import_module("jit_kernels")

try:
    import torch

    ARRAY_KINDS = ["numpy", "torch"]
except ImportError:  # CI's Debian has no torch: the numpy cases still run
    torch = None
    ARRAY_KINDS = ["numpy"]

# Fields that measure the host (wall time, memory), not the simulation.
HOST_FIELDS = {"wall_ms", "launch_ms", "call_ms", "lower_ms", "npu_compile_ms", "timing_ms", "reference_check_ms",
               "peak_rss_kib", "bundle"}


def cli(*args, cwd=None):
    return subprocess.run([CLI, *args], capture_output=True, text=True, cwd=cwd)


def without_host_fields(value):
    if isinstance(value, dict):
        return {k: without_host_fields(v) for k, v in value.items() if k not in HOST_FIELDS}
    if isinstance(value, list):
        return [without_host_fields(v) for v in value]
    return value


def inputs(n=1000, seed=1):
    rng = np.random.default_rng(seed)
    return rng.uniform(-1, 1, n).astype(np.float32), rng.uniform(-1, 1, n).astype(np.float32)


def test_presets_are_the_command_lines():
    listed = [line.split()[0] for line in cli("presets").stdout.splitlines()]
    assert npusim.presets() == listed
    assert {"tpuv3-like", "tpuv4-like", "edge-8lane"} <= set(listed)


def test_load_config_reads_the_preset_file():
    with open(os.path.join(REPO, "configs", "tpuv3-like.yaml")) as f:
        lanes = [int(line.split(":")[1].split("#")[0]) for line in f if line.startswith("lanes:")]
    config = npusim.load_config("tpuv3-like")
    assert [config.lanes] == lanes
    assert config.name == "tpuv3-like"
    assert config.to_yaml() == cli("presets", "tpuv3-like").stdout


def test_load_config_takes_yaml_text():
    config = npusim.load_config("base: tpuv3-like\nlanes: 8\n")
    assert config.lanes == 8
    assert config.cores == npusim.load_config("tpuv3-like").cores


def test_bad_config_raises_the_command_lines_message(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("base: tpuv3-like\nlanes: -3\n")
    expected = cli("presets", str(bad)).stderr.strip().removeprefix("npusim presets: error: ")
    with pytest.raises(npusim.InputError) as caught:
        npusim.load_config(str(bad))
    assert str(caught.value) == "load_config: error: " + expected
    assert "bad.yaml:2" in str(caught.value)  # the line of the key
    with pytest.raises(npusim.InputError, match="no-such-preset"):
        npusim.run_bundle(MLP, config="no-such-preset")


def test_run_bundle_report_is_the_command_lines(tmp_path):
    report_file = tmp_path / "report.json"
    assert cli("run", MLP, "--report", str(report_file)).returncode == 0
    with open(report_file) as f:
        expected = json.load(f)
    report = npusim.run_bundle(MLP)
    assert without_host_fields(report) == without_host_fields(expected)
    assert report["totals"]["cycles"] > 0
    assert npusim.last_report() is report


def test_run_bundle_verifies(tmp_path):
    report = npusim.run_bundle(MLP, mode="functional", verify=True)
    assert report["result"] == "verified"
    assert all(o["result"] == "verified" for o in report["outputs"])


def test_bundle_says_where_its_fingerprints_come_from(tmp_path):
    """A capture without a GPU marks its fingerprints as npusim's reference's: the bundle
    validates, runs and verifies, the report and the command line say so; another value
    is rejected by the validator and the loader, naming the field."""
    import shutil

    from npusim import bundle

    assert npusim.run_bundle(MLP, mode="reference", verify=True)["fingerprint_source"] == "device"
    copy = tmp_path / "mlp"
    shutil.copytree(MLP, copy)
    graph = json.loads((copy / "graph.json").read_text())
    graph["fingerprint_source"] = "npusim-reference"
    (copy / "graph.json").write_text(json.dumps(graph))
    assert bundle.validate(str(copy)) == []
    report = npusim.run_bundle(copy, mode="reference", verify=True)
    assert (report["result"], report["fingerprint_source"]) == ("verified", "npusim-reference")
    assert "fingerprints (from npusim's reference) compared" in cli("run", str(copy), "--verify").stdout
    graph["fingerprint_source"] = "gpu"
    (copy / "graph.json").write_text(json.dumps(graph))
    assert any("fingerprint_source" in e for e in bundle.validate(str(copy)))
    with pytest.raises(npusim.InputError, match=r"graph.json: fingerprint_source: expected \"device\" or"):
        npusim.run_bundle(copy)


def test_run_bundle_trace_after_the_run(tmp_path):
    npusim.run_bundle(MLP, mode="timing")
    path = npusim.trace(tmp_path / "trace.json")
    with open(path) as f:
        events = json.load(f)
    events = events["traceEvents"] if isinstance(events, dict) else events
    assert len(events) > 0


def test_run_bundle_errors_match_the_command_line(tmp_path):
    missing = str(tmp_path / "no-bundle")
    expected = cli("run", missing).stderr.strip()
    with pytest.raises(npusim.InputError) as caught:
        npusim.run_bundle(missing)
    assert str(caught.value) == expected
    with pytest.raises(npusim.InputError, match="mode expects"):
        npusim.run_bundle(MLP, mode="fast")
    with pytest.raises(npusim.InputError, match="verify needs values"):
        npusim.run_bundle(MLP, mode="timing", verify=True)


def test_run_bundle_malformed_graph_names_the_field(tmp_path):
    bundle = tmp_path / "b"
    bundle.mkdir()
    (bundle / "graph.json").write_text('{"format": "npusim-bundle", "version": 99}')
    expected = cli("run", str(bundle)).stderr.strip()
    with pytest.raises(npusim.InputError) as caught:
        npusim.run_bundle(bundle)
    assert str(caught.value) == expected
    assert "graph.json" in str(caught.value)


def as_kind(array, kind):
    return torch.from_numpy(array.copy()) if kind == "torch" else array.copy()


@pytest.mark.parametrize("kind", ARRAY_KINDS)
@pytest.mark.parametrize("mode", ["reference", "functional", "full"])
def test_run_kernel_computes_in_place(kind, mode):
    a, b = inputs()
    out = as_kind(np.zeros(1000, np.float32), kind)
    args = {"in_ptr0": as_kind(a, kind), "in_ptr1": as_kind(b, kind), "out_ptr0": out, "xnumel": 1000}
    outputs, report = npusim.run_kernel(KERNEL, args=args, mode=mode)
    assert outputs["out_ptr0"] is out  # the caller's array, written in place
    # x * 2 is exact in fp32; one rounded fp32 add, as numpy does it.
    np.testing.assert_array_equal(np.asarray(out), a * np.float32(2) + b)
    assert report["kernel"] == "triton_poi_fused_add_mul_0"
    assert report["programs"] == report["grid"][0]
    assert ("cycles" in report) == (mode == "full")


def test_run_kernel_matches_the_command_line(tmp_path):
    a, b = inputs()
    np.save(tmp_path / "a.npy", a)
    np.save(tmp_path / "b.npy", b)
    run = cli("kernel", KERNEL, "--mode", "full", "--arg", f"in_ptr0={tmp_path / 'a.npy'}", "--arg",
              f"in_ptr1={tmp_path / 'b.npy'}", "--arg", "xnumel=1000", "--out", str(tmp_path / "out"))
    assert run.returncode == 0, run.stderr
    fields = dict(f.split("=", 1) for f in run.stdout.split() if "=" in f)
    out = np.zeros(1000, np.float32)
    _, report = npusim.run_kernel(KERNEL, args={"in_ptr0": a, "in_ptr1": b, "out_ptr0": out, "xnumel": 1000})
    np.testing.assert_array_equal(out, np.load(tmp_path / "out" / "out_ptr0.npy"))
    assert report["cycles"] == int(fields["cycles"])
    assert f"({report['grid'][0]}, 1, 1)" in run.stdout
    assert report["constexprs"] == {"XBLOCK": int(fields["constexprs"].strip("()").split("=")[1])}


def test_run_kernel_timing_config(tmp_path):
    a, b = inputs()
    args = {"in_ptr0": a, "in_ptr1": b, "out_ptr0": np.zeros(1000, np.float32), "xnumel": 1000}
    outputs, report = npusim.run_kernel(KERNEL, args=args, mode="timing", config="edge-8lane")
    assert outputs == {}
    assert report["machine"] == "edge-8lane" and report["cycles"] > 0


@pytest.mark.parametrize("kind", ARRAY_KINDS)
def test_run_kernel_pointer_addresses_memory_from_the_first_element(kind):
    a, b = inputs()
    wide = as_kind(np.zeros((1000, 2), np.float32), kind)
    # As in Triton, a strided view passes the address of its first element: the
    # kernel's out_ptr0 + x (x < 1000) is the first 1000 elements of wide's memory.
    npusim.run_kernel(KERNEL, args={"in_ptr0": a, "in_ptr1": b, "out_ptr0": wide[:, 0], "xnumel": 1000},
                      mode="functional")
    memory = np.asarray(wide).reshape(-1)
    np.testing.assert_array_equal(memory[:1000], a * np.float32(2) + b)
    assert not memory[1000:].any()


def test_run_kernel_read_only_array_gives_a_new_result():
    a, b = inputs()
    out = np.zeros(1000, np.float32)
    out.flags.writeable = False
    outputs, _ = npusim.run_kernel(KERNEL, args={"in_ptr0": a, "in_ptr1": b, "out_ptr0": out, "xnumel": 1000},
                                   mode="functional")
    assert not out.any()
    np.testing.assert_array_equal(outputs["out_ptr0"], a * np.float32(2) + b)


def test_run_kernel_wrong_dtype_names_the_argument():
    a, b = inputs()
    with pytest.raises(npusim.InputError) as caught:
        npusim.run_kernel(KERNEL, args={"in_ptr0": a.astype(np.float64), "in_ptr1": b,
                                        "out_ptr0": np.zeros(1000, np.float32), "xnumel": 1000})
    assert "in_ptr0" in str(caught.value) and "*fp32" in str(caught.value) and "<f8" in str(caught.value)


def test_run_kernel_argument_errors():
    a, b = inputs()
    out = np.zeros(1000, np.float32)
    with pytest.raises(npusim.InputError, match="missing argument in_ptr1 of 'triton_poi_fused_add_mul_0'"):
        npusim.run_kernel(KERNEL, args={"in_ptr0": a, "out_ptr0": out, "xnumel": 1000})
    with pytest.raises(npusim.InputError, match="has no parameter 'bogus'"):
        npusim.run_kernel(KERNEL, args={"in_ptr0": a, "in_ptr1": b, "out_ptr0": out, "xnumel": 1000, "bogus": 1})
    with pytest.raises(npusim.InputError, match="xnumel is a scalar"):
        npusim.run_kernel(KERNEL, args={"in_ptr0": a, "in_ptr1": b, "out_ptr0": out, "xnumel": out})
    with pytest.raises(npusim.InputError, match="does not fit"):
        npusim.run_kernel(KERNEL, args={"in_ptr0": a, "in_ptr1": b, "out_ptr0": out, "xnumel": 2**40})
    with pytest.raises(npusim.InputError, match="not a constexpr parameter"):
        npusim.run_kernel(KERNEL, args={"in_ptr0": a, "in_ptr1": b, "out_ptr0": out, "xnumel": 1000},
                          consts={"YBLOCK": 4})


def test_run_kernel_too_small_buffer_is_a_located_fault():
    a, b = inputs()
    with pytest.raises(npusim.SimulationError) as caught:
        npusim.run_kernel(KERNEL, args={"in_ptr0": a[:10].copy(), "in_ptr1": b, "out_ptr0": np.zeros(1000, np.float32),
                                        "xnumel": 1000}, mode="reference")
    assert "in_ptr0" in str(caught.value) and "triton_poi_fused_add_mul_0" in str(caught.value)


def test_compile_error_is_the_command_lines(tmp_path):
    path = os.path.join(REPO, "tests", "data", "cli", "syntax_error.py")
    expected = cli("check-kernel", path).stderr.strip()
    with pytest.raises(npusim.CompileError) as caught:
        npusim.run_kernel(path, args={})
    assert str(caught.value) == expected
    with pytest.raises(npusim.InputError, match="cannot read"):
        npusim.run_kernel(str(tmp_path / "missing.py"), args={})


def test_jit_function_typed_from_its_arguments():
    x, y = inputs(300)
    out = np.zeros(300, np.float32)
    outputs, report = npusim.run_kernel(jit_kernels.scaled_add, grid=lambda meta: (300 + meta["BLOCK"] - 1) // meta["BLOCK"],
                                        args={"x_ptr": x, "y_ptr": y, "out_ptr": out, "n": 300, "alpha": 0.5},
                                        consts={"BLOCK": 128}, mode="full")
    assert report["grid"] == (3, 1, 1) and report["programs"] == 3
    # x * 0.5 is exact in fp32; one rounded add.
    np.testing.assert_array_equal(out, x * np.float32(0.5) + y)


def test_jit_function_error_points_into_its_file():
    with pytest.raises(npusim.CompileError) as caught:
        npusim.run_kernel(jit_kernels.broken, grid=1, args={"x_ptr": np.zeros(16, np.float32), "n": 16},
                          consts={"BLOCK": 16}, mode="reference")
    with open(jit_kernels.__file__) as f:
        line = next(i for i, text in enumerate(f, 1) if "no_such_function" in text)
    assert str(caught.value).startswith(f"{jit_kernels.__file__}:{line}:")


def test_run_bundle_reports_energy_per_token_of_a_language_model_only():
    # examples/mistral: input_ids [1, 32] drawn from [0, 512), logits [1, 32, 512]:
    # 1 x 32 = 32 tokens; energy per token is the run's energy over them.
    energy = npusim.run_bundle(os.path.join(REPO, "examples", "mistral"), mode="timing")["energy"]
    assert energy["tokens"] == 32
    assert energy["total_nj"] > 0
    assert energy["energy_per_token_uj"] == pytest.approx(energy["total_nj"] / 1000 / 32, abs=1e-6)
    # examples/mlp has no token ids: no per-token field, not a zero.
    energy = npusim.run_bundle(MLP, mode="timing")["energy"]
    assert energy["total_nj"] > 0
    assert not {"tokens", "energy_per_token_uj", "energy_per_token_absent"} & energy.keys()
