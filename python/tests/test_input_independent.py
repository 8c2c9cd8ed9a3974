"""npusim.input_independent: which steps of an inference bundle a deployment with frozen
weights computes once. Hand-made graphs whose classes are worked out by hand."""

import json
import os

import pytest

from npusim import input_independent as ii

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


def t(storage):
    return {"tensor": {"storage": storage, "offset": 0, "shape": [4], "stride": [1]}}


def launch(reads, writes):
    args = [t(s) for s in reads] + [t(s) for s in writes] + [{"value": 4}]
    return {"kind": "launch", "kernel": "k", "args": args,
            "writes": list(range(len(reads), len(reads) + len(writes)))}


def call(reads, outs):
    return {"kind": "call", "op": "aten.mm", "args": [t(s) for s in reads] + [None, [1, 1]],
            "out": [t(s) for s in outs]}


def graph(steps, train=False):
    # storage 0: a weight, 1: a norm's running_var (an "attribute " buffer), 2: the input x
    inputs = [{"name": "w", "tensor": t(0)["tensor"]}, {"name": "rv", "tensor": t(1)["tensor"]},
              {"name": "x", "tensor": t(2)["tensor"]}]
    roles = {"w": "weight", "rv": "attribute running_var", "x": "input"}
    return {"model": {"train": train, "inputs": roles}, "inputs": inputs, "steps": steps}


def test_weight_preparation_is_input_independent_and_its_consumers_are_not():
    steps = [
        launch([0, 1], [3]),  # 0: folds the norm into the weight -> storage 3: independent
        call([2, 3], [4]),    # 1: x @ prepared weight: reads x, per call
        launch([3], [5]),     # 2: reads only storage 3 (independent): independent
        launch([4, 5], [6]),  # 3: mixes 4 (per call) and 5: per call
    ]
    assert ii.classify(graph(steps)) == [True, False, True, False]


def test_a_reused_storage_takes_the_class_of_its_last_writer():
    steps = [
        launch([0], [3]),  # 0: independent, storage 3 holds model state
        launch([2], [3]),  # 1: reads x, overwrites storage 3: per call
        launch([3], [4]),  # 2: reads storage 3, now per call: per call
        launch([0], [3]),  # 3: writes a per-call storage: per call (not proven)
    ]
    assert ii.classify(graph(steps)) == [True, False, False, False]


def test_reading_an_unwritten_storage_is_per_call():
    # storage 7 is neither an input nor written before: its contents are not model state
    assert ii.classify(graph([launch([0, 7], [8])])) == [False]


def test_in_place_update_of_model_state_from_the_input_makes_it_per_call():
    steps = [launch([2], [0]),  # 0: writes the weight from x: per call
             launch([0], [3])]  # 1: reads the weight, now per call
    assert ii.classify(graph(steps)) == [False, False]


def test_training_and_unlabelled_bundles_are_refused():
    with pytest.raises(ii.NotClassifiable, match="training"):
        ii.classify(graph([], train=True))
    g = graph([])
    del g["model"]["inputs"]["rv"]
    with pytest.raises(ii.NotClassifiable, match="'rv' has no role"):
        ii.classify(g)


def test_summary_splits_the_report_by_class():
    steps = [launch([0], [3]), call([2, 3], [4])]
    report = {"steps": [
        {"index": 0, "timing": {"cycles": 100, "roofline_us": 0.05, "time_us": 0.1}},
        {"index": 1, "timing": {"cycles": 300, "roofline_us": 0.2, "time_us": 0.3}},
    ]}
    s = ii.summary(graph(steps), report)
    assert s["input_independent"] == {"steps": 1, "cycles": 100, "roofline_us": 0.05, "time_us": 0.1}
    assert s["per_call"] == {"steps": 1, "cycles": 300, "roofline_us": 0.2, "time_us": 0.3}


def test_resnet18_bundle_weight_layouts_are_independent_and_its_input_layout_is_not():
    with open(os.path.join(REPO, "examples", "resnet18", "graph.json")) as f:
        g = json.load(f)
    classes = ii.classify(g)
    for i, step in enumerate(g["steps"]):
        storages = set(ii._tensor_storages(step.get("args", [])))
        # every library convolution reads the image or an activation
        if step["kind"] == "call" and step["op"] == "aten.convolution":
            assert not classes[i], f"step {i}"
        # a launch reading only weight-role inputs' storages is independent
        weights = {inp["tensor"]["storage"] for inp in g["inputs"]
                   if g["model"]["inputs"][inp["name"]] == "weight"}
        if step["kind"] == "launch" and storages - set(_written(step)) <= weights:
            assert classes[i], f"step {i}"
    x = next(inp["tensor"]["storage"] for inp in g["inputs"] if inp["name"] == "x")
    first_reader = next(i for i, s in enumerate(g["steps"]) if x in ii._tensor_storages(s["args"]))
    assert not classes[first_reader]


def _written(step):
    return [step["args"][i]["tensor"]["storage"] for i in step.get("writes", [])]
