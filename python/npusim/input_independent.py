"""Steps of an inference bundle that do not depend on the model's inputs.

    PYTHONPATH=python python3 -m npusim.input_independent BUNDLE [REPORT.json]

Inductor without freezing recomputes, on every call, whatever it derives from the
parameters alone: convolution weights moved to channels-last, a weight matrix
transposed for a library GEMM. A deployment that freezes its weights (Inductor's
`freezing`, an ONNX runtime's constant folding, XLA) computes them once, ahead of
time. This module finds those steps by data flow over the bundle's storages, so that a
report can state the cycles of one inference both as captured and with its weights
prepared ahead of time.

Rules (conservative: a step that is not proven input-independent counts as per call):
- Only inference bundles (`model.train` false) whose `model.inputs` names each input's
  role. Inputs with role `input` or `target` vary per call; every other role (weights,
  biases, norm parameters, running statistics, position and mask buffers) is model state.
- Storages start as model state (the storage of a model-state input), per call (of a
  per-call input) or undefined (the rest).
- A step is input-independent when every storage it touches is model state or is
  undefined and only written by it; a step that reads an undefined storage, or touches a
  per-call one, is per call. A step's written storages take its class.
"""

import json
import os
import sys

PER_CALL_ROLES = ("input", "target")


class NotClassifiable(ValueError):
    """The bundle does not say enough to classify its steps."""


def _tensor_storages(value):
    """Storage ids of every tensor reference inside a launch or call argument."""
    if isinstance(value, dict):
        if "tensor" in value and isinstance(value["tensor"], dict):
            return [value["tensor"]["storage"]]
        found = []
        for v in value.values():
            found += _tensor_storages(v)
        return found
    if isinstance(value, list):
        found = []
        for v in value:
            found += _tensor_storages(v)
        return found
    return []


def _reads_and_writes(step):
    if step["kind"] == "launch":
        written = set(step.get("writes", []))
        reads, writes = [], []
        for i, a in enumerate(step["args"]):
            (writes if i in written else reads).extend(_tensor_storages(a))
        return reads, writes
    return _tensor_storages(step.get("args", [])), _tensor_storages(step.get("out", []))


def classify(graph):
    """A list with one bool per step of graph (a parsed graph.json): True for a step
    that does not depend on the model's per-call inputs. Raises NotClassifiable for a
    training bundle or one without input roles."""
    model = graph.get("model") or {}
    if model.get("train"):
        raise NotClassifiable("a training step updates its weights: every step is per call")
    roles = model.get("inputs")
    if not isinstance(roles, dict):
        raise NotClassifiable("model.inputs does not give the inputs' roles")
    state = {}  # storage -> "state" | "call"
    for inp in graph["inputs"]:
        if inp["name"] not in roles:
            raise NotClassifiable(f"input {inp['name']!r} has no role in model.inputs")
        role = roles[inp["name"]].removeprefix("attribute ")
        sid = inp["tensor"]["storage"]
        cls = "call" if role in PER_CALL_ROLES else "state"
        if state.get(sid, cls) != cls:
            cls = "call"  # a storage shared by model state and a per-call input
        state[sid] = cls
    result = []
    for step in graph["steps"]:
        reads, writes = _reads_and_writes(step)
        independent = all(state.get(s) == "state" for s in reads) and \
            all(state.get(s, "state") == "state" for s in writes)
        for s in writes:
            state[s] = "state" if independent else "call"
        result.append(independent)
    return result


def summary(graph, report):
    """Cycles and roofline of the report's timed steps, split into input-independent
    and per-call steps."""
    independent = classify(graph)
    totals = {"steps": 0, "cycles": 0, "roofline_us": 0.0, "time_us": 0.0}
    split = {True: dict(totals), False: dict(totals)}
    for s in report["steps"]:
        t = s.get("timing")
        if t is None:
            continue
        part = split[independent[s["index"]]]
        part["steps"] += 1
        part["cycles"] += t["cycles"]
        part["roofline_us"] += t["roofline_us"]
        part["time_us"] += t["time_us"]
    return {"input_independent": split[True], "per_call": split[False]}


def main(argv=None):
    args = sys.argv[1:] if argv is None else argv
    if not args or len(args) > 2:
        sys.exit(__doc__)
    with open(os.path.join(args[0], "graph.json")) as f:
        graph = json.load(f)
    try:
        independent = classify(graph)
    except NotClassifiable as e:
        sys.exit(f"{args[0]}: {e}")
    if len(args) == 1:
        for i, (step, ind) in enumerate(zip(graph["steps"], independent)):
            name = step.get("kernel") or step.get("op")
            print(f"{i}\t{'input-independent' if ind else 'per call'}\t{name}")
        return
    with open(args[1]) as f:
        report = json.load(f)
    s = summary(graph, report)
    print("| steps | count | cycles | time | roofline | time / roofline |")
    print("|---|---|---|---|---|---|")
    for key, label in (("per_call", "per call"), ("input_independent", "input-independent")):
        p = s[key]
        ratio = p["time_us"] / p["roofline_us"] if p["roofline_us"] > 0 else float("nan")
        print(f"| {label} | {p['steps']} | {p['cycles']:,} | {p['time_us']:,.1f} us | "
              f"{p['roofline_us']:,.1f} us | {ratio:.2f}x |")


if __name__ == "__main__":
    main()
