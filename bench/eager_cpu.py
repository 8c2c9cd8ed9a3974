#!/usr/bin/env python3
"""Wall time of each bundle's model in eager PyTorch on this machine's CPU.

For every examples/*/graph.json whose model this Python's torch can build
(Debian's python3-torch; models that need torchvision or transformers are
reported as not runnable), builds the model from the spec and config the bundle
records, runs it three times to warm up (oneDNN builds its kernels during the
first runs: one warm-up leaves ResNet-18 several times slower than it settles
at), then reports the median of nine runs of the step the bundle captured: a forward pass under no_grad, or forward + backward +
an SGD update for training bundles. Prints one JSON object per line:
{"bundle": NAME, "eager_cpu_ms": MS} or {"bundle": NAME, "eager_cpu_ms": null, "why": ...}.
"""
import json
import pathlib
import statistics
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "python"))
sys.path.insert(0, str(ROOT / "bench"))

import eager_models  # noqa: E402

WARMUP_RUNS = 3
TIMED_RUNS = 9


def make_input(torch, spec):
    dtypes = {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16,
              "i64": torch.int64, "i32": torch.int32}
    init = spec.init
    gen = torch.Generator().manual_seed(0)
    if init["kind"] == "uniform":
        t = torch.rand(spec.shape, generator=gen) * (init["high"] - init["low"]) + init["low"]
        return t.to(dtypes[spec.dtype])
    return torch.randint(init["low"], init["high"], spec.shape, generator=gen, dtype=dtypes[spec.dtype])


def time_bundle(graph):
    import torch
    from npusim import models

    model_info = json.loads(graph.read_text())["model"]
    spec = model_info["spec"].split(",")[0]
    config = model_info.get("config") or {}
    if config:
        spec += "," + ",".join(f"{k}={v}" for k, v in config.items())
    note = None
    try:
        built = models.build(spec)
    except ImportError as e:
        name = spec.split(",")[0]
        if e.name == "transformers" and name in eager_models.LANGUAGE:
            # The same architecture written with torch.nn alone (bench/eager_models.py).
            built = models.Built(eager_models.LANGUAGE[name](config),
                                 [models.InputSpec("input_ids", (config.get("batch", 1), config.get("seq", 32)),
                                                   "i64", {"kind": "randint", "low": 0,
                                                           "high": config.get("vocab", 50257)})])
            note = "transformers' architecture rebuilt with torch.nn (bench/eager_models.py)"
            return time_step(torch, built, model_info), note
        if e.name != "torchvision" or name not in eager_models.VISION:
            return None, f"this Python cannot build the model ({e.name} is not installed)"
        # The same architecture written with torch.nn alone (bench/eager_models.py).
        built = models.Built(eager_models.VISION[name](config.get("num_classes", 1000)),
                             [models.InputSpec("x", (config.get("batch", 1), 3, config.get("image", 224),
                                                     config.get("image", 224)), "fp32", {"kind": "uniform", "low": -1.0, "high": 1.0})])
        note = "torchvision's architecture rebuilt with torch.nn (bench/eager_models.py)"
    return time_step(torch, built, model_info), note


def time_step(torch, built, model_info):
    """Median wall time (ms) of the bundle's step on the built model."""
    model = built.model.float()
    model.train(bool(model_info.get("train")))
    train = bool(model_info.get("train"))
    args, kwargs, targets = [], dict(built.static_kwargs), []
    for s in built.inputs:
        x = make_input(torch, s)
        if s.target:
            targets.append(x)
        elif s.kwarg:
            kwargs[s.name] = x
        else:
            args.append(x)
    optimizer = torch.optim.SGD(model.parameters(), lr=built.lr) if train else None

    def step():
        if train:
            optimizer.zero_grad()
            loss = built.loss(model(*args, **kwargs), *targets)
            loss.backward()
            optimizer.step()
        else:
            with torch.no_grad():
                model(*args, **kwargs)

    torch.set_num_threads(2)
    for _ in range(WARMUP_RUNS):
        step()
    times = []
    for _ in range(TIMED_RUNS):
        start = time.perf_counter()
        step()
        times.append((time.perf_counter() - start) * 1000.0)
    return statistics.median(times)


def main():
    names = sys.argv[1:]
    for graph in sorted(ROOT.glob("examples/*/graph.json")):
        name = graph.parent.name
        if names and name not in names:
            continue
        try:
            ms, why = time_bundle(graph)
        except Exception as e:  # a model this torch version cannot run
            ms, why = None, f"{type(e).__name__}: {e}"
        row = {"bundle": name, "eager_cpu_ms": None if ms is None else round(ms, 3)}
        if why:
            row["why" if ms is None else "note"] = why
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
