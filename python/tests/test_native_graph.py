"""npusim.run_graph (a bundle's steps on the caller's storages) and npusim.run_call
(one library call on arrays), against the committed mlp bundle, run_bundle, and
numpy's float64 results. Needs the extension; no torch."""

import json
import os

import numpy as np
import pytest

import npusim
from graph_arrays import generated_storages, view

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MLP = os.path.join(REPO, "examples", "mlp")


def test_run_graph_on_python_generated_inputs_matches_the_bundle():
    with open(os.path.join(MLP, "graph.json")) as f:
        graph = json.load(f)
    storages = generated_storages(graph)
    report = npusim.run_graph(graph, storages, kernels_dir=MLP, mode="full")
    output = graph["outputs"][0]
    ref = output["tensor"]
    got = view(storages, ref)
    expected = np.load(os.path.join(MLP, output["reference"]))
    np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-4)  # eager PyTorch on the GPU
    assert report["totals"]["cycles"] == npusim.run_bundle(MLP, mode="timing")["totals"]["cycles"]


def test_run_graph_storage_errors():
    with open(os.path.join(MLP, "graph.json")) as f:
        graph = json.load(f)
    storages = generated_storages(graph)
    with pytest.raises(npusim.InputError, match=r"declares 9 storages, got 8 arrays"):
        npusim.run_graph(graph, storages[:-1], kernels_dir=MLP)
    wrong = list(storages)
    wrong[0] = wrong[0].astype(np.float64)
    with pytest.raises(npusim.InputError, match=r"storages\[0\]: the graph declares 200704 elements of fp32"):
        npusim.run_graph(graph, wrong, kernels_dir=MLP)


def rand(*shape, seed=0):
    return np.random.default_rng(seed + len(shape)).uniform(-1, 1, shape).astype(np.float32)


@pytest.mark.parametrize("mode", ["functional", "full"])
def test_run_call_matmuls(mode):
    a, b, bias = rand(16, 32), rand(32, 8, seed=1), rand(8, seed=2)
    out = np.zeros((16, 8), np.float32)
    _, report = npusim.run_call("aten.mm", [a, b], out, mode=mode)
    np.testing.assert_allclose(out, a.astype(np.float64) @ b, rtol=0, atol=1e-5)
    assert report["steps"][0]["executed_on"] == "npu"
    assert ("timing" in report["steps"][0]) == (mode == "full")
    npusim.run_call("aten.addmm", [bias, a, b, 0.5, 2.0], out, mode=mode)  # beta * bias + alpha * a @ b
    np.testing.assert_allclose(out, 0.5 * bias.astype(np.float64) + 2.0 * (a.astype(np.float64) @ b), atol=1e-5)
    x, y = rand(3, 4, 5), rand(3, 5, 6, seed=4)
    batched = np.zeros((3, 4, 6), np.float32)
    npusim.run_call("aten.bmm", [x, y], batched, mode=mode)
    np.testing.assert_allclose(batched, np.einsum("bij,bjk->bik", x.astype(np.float64), y), atol=1e-5)


def test_run_call_convolution_against_direct_loops():
    x, w, bias = rand(1, 2, 5, 5), rand(3, 2, 3, 3, seed=1), rand(3, seed=2)
    out = np.zeros((1, 3, 5, 5), np.float32)
    npusim.run_call("aten.convolution", [x, w, bias, [1, 1], [1, 1], [1, 1], False, [0, 0], 1], out,
                    mode="functional", verify=True)
    padded = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (1, 1), (1, 1)))
    expected = np.empty((1, 3, 5, 5))
    for o in range(3):
        for i in range(5):
            for j in range(5):
                expected[0, o, i, j] = (padded[0, :, i:i + 3, j:j + 3] * w[o]).sum() + bias[o]
    np.testing.assert_allclose(out, expected, atol=1e-5)


def test_run_call_errors_name_the_call():
    a, b = rand(4, 4), rand(4, 4, seed=1)
    with pytest.raises(npusim.InputError, match=r"aten\.no_such_op \(step 0\)"):
        npusim.run_call("aten.no_such_op", [a, b], np.zeros((4, 4), np.float32))
    with pytest.raises(npusim.SimulationError, match=r"step 0 \(call aten\.mm\)"):
        npusim.run_call("aten.mm", [a, rand(5, 4, seed=2)], np.zeros((4, 4), np.float32))
