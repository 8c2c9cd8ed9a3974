"""The Python API of npusim's runtime (docs/python.md): bundles and Triton kernels on
the simulated NPU, numpy arrays or torch tensors in and out."""

import atexit
import os
import shutil
import tempfile

from . import _native_loader
from .triton_source import kernel_source

_last = {"report": None, "trace": None, "parts": []}


def _native():
    return _native_loader.load()


def _fspath(path):
    return os.fspath(path)


def _remove(paths):
    for path in paths:
        if path and os.path.exists(path):
            os.remove(path)


def _keep(report, trace_file, parts=()):
    """Remembers the run for last_report() and trace(); the previous traces are removed.
    ``parts``: a run made of several simulations (a compiled graph's launches and
    calls), as ``(trace file, simulated time in us)`` in order."""
    _remove([p for p, _ in _last["parts"]] + ([_last["trace"]] if _last["trace"] != trace_file else []))
    _last["report"] = report
    _last["trace"] = trace_file
    _last["parts"] = list(parts)


def _take_trace():
    """The last run's trace file, handed to the caller (no longer removed by the next run)."""
    path, _last["trace"] = _last["trace"], None
    return path


@atexit.register
def _remove_traces():
    _remove([_last["trace"]] + [p for p, _ in _last["parts"]])


def _trace_file(mode):
    """A scratch Perfetto trace of the run, for trace(path): only where the run has cycles."""
    if mode not in ("full", "timing") or os.environ.get("NPUSIM_KEEP_TRACE", "1") == "0":
        return None
    handle, path = tempfile.mkstemp(prefix="npusim-trace-", suffix=".json")
    os.close(handle)
    return path


def run_bundle(path, config="tpuv3-like", mode="full", verify=False, *, mapping=None,
               mapping_strategy="search", threads=0, sizes=None):
    """Runs a bundle as ``npusim run`` does; returns the ``--report`` document as a dict.

    ``sizes`` binds a bundle's dynamic sizes as ``npusim run --set`` does
    (``{"batch": 8}``; docs/bundle-format.md, "Dynamic sizes"); None: the captured ones.

    A step that fails raises ``npusim.SimulationError``, a divergence (with ``verify``)
    ``npusim.VerificationError``; both carry the report as ``.report``. A malformed
    bundle or config raises ``npusim.InputError`` naming the file and field.
    """
    return _kept(mode, lambda trace_file: _native().run_bundle(
        _fspath(path), config=config, mode=mode, verify=verify, trace=trace_file,
        mapping=None if mapping is None else _fspath(mapping), mapping_strategy=mapping_strategy, threads=threads,
        sizes=sizes))


def _kept(mode, run):
    """``run(trace_file)``'s report, remembered with its trace, also when it raises
    (the exception's ``.report``)."""
    trace_file = _trace_file(mode)
    try:
        report = run(trace_file)
    except Exception as error:
        _keep(getattr(error, "report", None), trace_file)
        raise
    _keep(report, trace_file)
    return report


def last_report():
    """The report of the last run_bundle, run_kernel or torch.compile(backend="npusim") run."""
    return _last["report"]


def trace(path):
    """Writes the Perfetto (Chrome JSON) trace of the last run with cycles to ``path``:
    one simulation's trace, or a compiled graph's launches and calls one after another
    on one time line (each shifted by the simulated time of those before it)."""
    if _last["parts"]:
        _merge_traces(_last["parts"], _fspath(path))
        return _fspath(path)
    if not _last["trace"] or not os.path.exists(_last["trace"]):
        raise _native().InputError("no trace to write: the last run had no cycles (use mode=\"full\" or \"timing\")")
    shutil.copyfile(_last["trace"], _fspath(path))
    return _fspath(path)


def _merge_traces(parts, path):
    import json

    merged, seen, offset = None, set(), 0.0
    for part, time_us in parts:
        with open(part) as f:
            doc = json.load(f)
        events = doc.pop("traceEvents")
        if merged is None:
            merged = dict(doc, traceEvents=[])
        for event in events:
            if event.get("ph") == "M":
                key = json.dumps(event, sort_keys=True)
                if key in seen:
                    continue
                seen.add(key)
            elif "ts" in event:
                event["ts"] = event["ts"] + offset
            merged["traceEvents"].append(event)
        offset += time_us
    with open(path, "w") as f:
        json.dump(merged, f)


class _Array:
    """One pointer argument. As in Triton, a pointer addresses memory from the array's
    first element on: npusim gets the span from it to the last element the strides
    reach, as one C-contiguous numpy array sharing the caller's memory (a view, no copy)
    where the memory is on the CPU and writable. A CUDA tensor's span is staged through
    a CPU copy, a read-only array's through a writable copy (then the result)."""

    def __init__(self, value):
        import numpy as np

        self.value = value
        self.write_back = None
        torch = _torch_if_tensor(value)
        if torch is None:
            array = np.asarray(value)
            if any(stride < 0 for stride in array.strides):
                raise _native().InputError("a pointer argument's array has a negative stride; pass a copy")
            flat = np.lib.stride_tricks.as_strided(array, shape=(_span(array.shape, array.strides, array.itemsize),),
                                                   strides=(array.itemsize,), writeable=array.flags.writeable)
            if not flat.flags.writeable:
                flat = flat.copy()
                self.value = flat
            self.array = flat
            return
        tensor = value.detach()
        flat = tensor.as_strided((_span(tensor.shape, tensor.stride(), 1),), (1,))
        if flat.device.type != "cpu":
            flat, self.write_back = _staged(flat)
        if flat.dtype == torch.bfloat16:
            self.array = flat.view(torch.int16).numpy().view(np.uint16)
        else:
            self.array = flat.numpy()


def _staged(device_span):
    """A host copy of a device tensor's span, and the function that writes the copy back."""
    host = device_span.to("cpu", copy=True)
    return host, lambda: device_span.copy_(host)


def _span(shape, strides, unit):
    """Elements from the first element to the last one the strides reach."""
    if any(n == 0 for n in shape):
        return 0
    return 1 + sum((n - 1) * (stride // unit) for n, stride in zip(shape, strides))


def _torch_if_tensor(value):
    module = type(value).__module__
    if module.startswith("torch"):
        import torch

        if isinstance(value, torch.Tensor):
            return torch
    return None


def _is_array(value):
    return hasattr(value, "__array_interface__") or _torch_if_tensor(value) is not None


def run_kernel(kernel, grid=None, args=None, consts=None, config="tpuv3-like", mode="full"):
    """One launch of one Triton kernel on npusim.

    ``kernel``: a kernel file's path, its source text, or a ``@triton.jit`` function
    (its parameters typed from ``args`` and ``consts``). ``grid``: an int, a tuple of up
    to three, a callable of the constexprs (as Triton's launcher takes), or None for
    Inductor's rule. ``args``: every run-time parameter by name, numpy arrays or torch
    tensors for pointers (of exactly the signature's dtype) and numbers for scalars.
    ``consts``: constexpr values. Returns ``(outputs, report)``: ``outputs`` maps each
    pointer argument to the caller's own array or tensor, written in place as a Triton
    launch writes (in ``mode="timing"``, which computes no values, it is empty);
    A pointer addresses the memory from the array's first element on, as in Triton:
    strides are the kernel's business, not npusim's.
    ``report`` gives the grid, block sizes, programs and, in the timing and full modes,
    cycles and the step's timing.
    """
    args = dict(args or {})
    consts = dict(consts or {})
    source, file_name = kernel_source(kernel, args, consts)
    staged = {name: _Array(v) for name, v in args.items() if _is_array(v)}
    native_args = {name: (staged[name].array if name in staged else v) for name, v in args.items()}
    if callable(grid):
        grid = grid(dict(consts))
    trace_file = _trace_file(mode)
    try:
        outputs, report = _native().run_kernel(source, file_name, grid=grid, args=native_args, consts=consts,
                                               config=config, mode=mode, trace=trace_file)
    except Exception:
        _keep(None, trace_file)
        raise
    result = {}
    for name in outputs:
        if staged[name].write_back:
            staged[name].write_back()
        result[name] = staged[name].value
    _keep(report, trace_file)
    return result, report


def run_graph(graph, storages, kernels_dir=None, config="tpuv3-like", mode="full", verify=False, *,
              sizes=None):
    """Runs the steps of a graph (a bundle's graph.json as a dict or text,
    docs/bundle-format.md) on the caller's storages, one C-contiguous 1-D array per
    declared storage, in place: no input is generated. ``kernels_dir`` holds the
    launches' kernels/NAME.py. ``sizes`` binds a graph's dynamic sizes as run_bundle's
    does; ``bind_sizes(graph, sizes)`` gives the storages' lengths and the views at that
    binding. Returns the report (as run_bundle's)."""
    import json

    text = graph if isinstance(graph, str) else json.dumps(graph)
    return _kept(mode, lambda trace_file: _native().run_graph(
        text, list(storages), kernels_dir=kernels_dir, config=config, mode=mode, verify=verify, trace=trace_file,
        sizes=sizes))


def bind_sizes(graph, sizes=None):
    """A graph (a bundle's graph.json as a dict or text) as it runs with its dynamic
    sizes bound as ``run_bundle(sizes=...)`` binds them (docs/bundle-format.md, "Dynamic
    sizes"): a dict in which every ``{"sym": EXPR}`` is its value, so the storages'
    lengths and the inputs' and outputs' views at that binding can be read; run it with
    ``run_graph(graph, storages, sizes=sizes)``. Away from the captured sizes its
    outputs carry no reference values. A value outside a symbol's range or failing a
    checked guard raises ``npusim.InputError``; ``None``: the captured sizes."""
    import json

    text = graph if isinstance(graph, str) else json.dumps(graph)
    return json.loads(_native().bind_sizes(text, sizes))


def _call_value(value, storages, staged):
    """A call argument in the bundle's spelling; arrays become storages (the span
    from their first element, as a launch's pointer)."""
    from .triton_source import triton_type

    if _is_array(value):
        key = id(value)
        if key not in staged:
            staged[key] = (len(storages), _Array(value))
            storages.append((staged[key][1].array, triton_type(value)[1:]))
        index, array = staged[key]
        shape = list(value.shape)
        if _torch_if_tensor(value) is not None:
            stride = list(value.stride())
        else:
            stride = [s // value.itemsize for s in value.strides]
        return {"tensor": {"storage": index, "offset": 0, "shape": shape, "stride": stride}}
    if isinstance(value, (list, tuple)):
        return [_call_value(v, storages, staged) for v in value]
    if isinstance(value, float) and value != value:
        return "nan"
    if isinstance(value, float) and value in (float("inf"), float("-inf")):
        return "inf" if value > 0 else "-inf"
    return value


def run_call(op, args, out, config="tpuv3-like", mode="full", verify=False):
    """One library call (``aten.mm``, ``aten.addmm``, ``aten.bmm``, ``aten.convolution``,
    attention, ...; docs/library-calls.md) on npusim: ``args`` positional in the
    operator's schema order, arrays or tensors for tensors; ``out`` the array (or list
    of arrays) it writes, in place. Returns ``(out, report)``."""
    storages, staged = [], {}
    outs = out if isinstance(out, (list, tuple)) else [out]
    step = {"kind": "call", "op": op, "args": _call_value(list(args), storages, staged),
            "out": [_call_value(o, storages, staged) for o in outs]}
    declared = [{"id": i, "dtype": dtype, "elements": int(a.size)} for i, (a, dtype) in enumerate(storages)]
    graph = {"format": "npusim-bundle", "version": 1, "model": {"op": op}, "seed": 0, "storages": declared,
             "inputs": [], "steps": [step], "outputs": []}
    report = run_graph(graph, [a for a, _ in storages], config=config, mode=mode, verify=verify)
    for _, array in staged.values():
        if array.write_back:
            array.write_back()
    return out, report


def presets():
    """The names of the NPU presets built into npusim (``npusim presets``)."""
    return _native().presets()


def load_config(path_or_yaml):
    """A preset name, a YAML file or YAML text -> ``npusim.Config``."""
    return _native().load_config(_fspath(path_or_yaml) if not isinstance(path_or_yaml, str) else path_or_yaml)


__all__ = ["run_bundle", "run_kernel", "run_graph", "bind_sizes", "run_call", "presets", "load_config", "last_report", "trace"]
