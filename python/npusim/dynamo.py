"""``torch.compile(model, backend="npusim", options={...})`` (docs/python.md).

The graph is compiled by TorchInductor; every Triton kernel it launches runs on npusim
instead (``npusim.run_kernel`` on the kernel file Inductor wrote, block sizes chosen for
the NPU as ``npusim run`` chooses them), its results written back into the tensors, and
so does every library call npusim implements (mm, addmm, bmm, convolution, attention,
sort, topk, batch norm, in-place copy_ ...: ``npusim.run_call``, through a dispatch mode
while the graph runs; npusim.torch_calls).
Forward and backward graphs (AOT autograd) and compiled optimizer steps go the same way,
because the hook sits on Inductor's inner compilation. Options:

  config   an NPU preset, YAML file or text, or a Config (default "tpuv3-like")
  mode     "full" (default), "functional", "timing" or "reference"
  verify   also run every launch on npusim's reference interpreter and compare every
           buffer it writes (rtol = atol = 1e-4); a mismatch raises VerificationError

``npusim.last_report()`` then gives every launch and library call of the last
compiled-graph call, with its cycles, the total, and every aten call that ran off
npusim ("fallbacks": operator, reason, count).
"""

import contextlib
import threading
import warnings

from . import api

_OPTIONS = {"config", "mode", "verify"}
_state = threading.local()
_installed = False


def _session():
    return getattr(_state, "session", None)


class _Session:
    def __init__(self, options):
        self.options = options
        self.launches = []  # run_kernel reports
        self.calls = []  # run_call reports, with the operator's name
        self.traces = []  # (trace file, simulated us) of each, in order, for npusim.trace()
        self.fallbacks = {}  # (op, reason) -> calls that ran off npusim, on the tensors' device

    def add_fallback(self, func, reason):
        key = (str(func), reason)
        self.fallbacks[key] = self.fallbacks.get(key, 0) + 1

    def add_trace(self, time_us):
        path = api._take_trace()
        if path:
            self.traces.append((path, time_us))

    def report(self):
        cycles = sum(r.get("cycles", 0) for r in self.launches) + sum(r["totals"]["cycles"] for r in self.calls)
        return {"backend": "npusim", "mode": self.options["mode"], "config": str(self.options["config"]),
                "launches": self.launches, "kernels_run": len(self.launches), "calls": self.calls,
                "calls_run": len(self.calls), "cycles": cycles,
                "fallbacks": [{"op": op, "reason": reason, "count": count}
                              for (op, reason), count in self.fallbacks.items()],
                "fallbacks_run": sum(self.fallbacks.values())}


@contextlib.contextmanager
def _active(options):
    previous = _session()
    session = _Session(options)
    _state.session = session
    try:
        yield session
    finally:
        _state.session = previous
        api._keep(session.report(), None, session.traces)


def _launch_names(autotuner):
    signature = autotuner.triton_meta["signature"]
    return [name for name, kind in signature.items() if kind != "constexpr"]


def _pinned_constexprs(autotuner):
    """Block sizes npusim must keep: a template's and a combo kernel's (the grid follows
    from them). For pointwise and reduction kernels npusim chooses its own, as for a
    bundle."""
    kind = str(getattr(autotuner, "heuristic_type", "")).lower()
    if "template" not in kind and not _is_combo(autotuner):
        return {}
    launchers = getattr(autotuner, "launchers", None) or []
    config = launchers[0].config if launchers else autotuner.configs[0]
    return dict(config.kwargs)


def _is_combo(autotuner):
    return "combo_grid_meta" in (getattr(autotuner, "inductor_meta", None) or {})


def _ceildiv(a, b):
    return -(-int(a) // int(b))


def _combo_grid(autotuner, launch_args, consts):
    """The grid of a combo kernel (horizontal fusion) as Inductor's ComboKernelGrid
    computes it (torch/_inductor/runtime/triton_heuristics.py): Sequential gives x the
    sum of the sub-kernels' block counts, RoundRobin the largest times their number; a
    sub-kernel without an x dimension counts its numel; y and z cover the largest y and
    z numels. A numel the metadata leaves None is the launch argument xnumel_I."""
    meta = autotuner.inductor_meta
    combo = meta["combo_grid_meta"]
    blocks = {**(combo.get("default_config") or {}), **consts}
    kernel_name = meta.get("kernel_name", "?")

    def numel(axis, index):
        value = combo.get(f"{axis}numel_{index}") or launch_args.get(f"{axis}numel_{index}")
        if value is None:
            raise api._native().InputError(f"{kernel_name}: combo kernel without {axis}numel_{index}")
        return int(value)

    def block(name):
        if name not in blocks:
            raise api._native().InputError(f"{kernel_name}: combo kernel grid needs {name}, not in {blocks}")
        return blocks[name]

    count = int(combo["num_kernels"])
    flat = [bool(combo.get(f"no_x_dim_{i}")) for i in range(count)]
    xnumels = [numel("x", i) for i in range(count)]
    grid_type = meta.get("grid_type", "")
    if grid_type == "SequentialComboKernelGrid":
        x = sum(n if no_x else _ceildiv(n, block("XBLOCK")) for n, no_x in zip(xnumels, flat))
    elif grid_type == "RoundRobinComboKernelGrid":
        parts = [n for n, no_x in zip(xnumels, flat) if no_x]
        tiled = [n for n, no_x in zip(xnumels, flat) if not no_x]
        if tiled:
            parts.append(_ceildiv(max(tiled), block("XBLOCK")))
        x = max(parts) * count
    else:
        raise api._native().InputError(f"{kernel_name}: combo kernel with grid type {grid_type!r}; npusim knows "
                                       "SequentialComboKernelGrid and RoundRobinComboKernelGrid")
    if combo.get("min_blocks"):
        x = max(x, int(combo["min_blocks"]))
    grid = [x, 1, 1]
    for position, axis in ((1, "y"), (2, "z")):
        present = [i for i in range(count) if f"{axis}numel_{i}" in combo]
        if present:
            grid[position] = _ceildiv(max(numel(axis, i) for i in present), block(axis.upper() + "BLOCK"))
    return tuple(grid)


def _copy(value):
    """A launch argument's own copy, for the reference run (tensors and arrays)."""
    if hasattr(value, "clone"):
        return value.clone()
    if hasattr(value, "copy") and hasattr(value, "__array_interface__"):
        return value.copy()
    return value


def _max_difference(value, expected):
    """The largest |value - expected| over a tensor or array, or None when it is within
    rtol = atol = 1e-4 everywhere (NaN where both are NaN)."""
    import numpy as np

    def host(x):
        x = x.detach().cpu() if hasattr(x, "detach") else x
        return np.asarray(x.float() if hasattr(x, "float") and str(x.dtype) == "torch.bfloat16" else x,
                          dtype=np.float64)

    got, want = host(value), host(expected)
    if np.allclose(got, want, rtol=1e-4, atol=1e-4, equal_nan=True):
        return None
    return float(np.nanmax(np.abs(got - want)))


def _run_on_npusim(autotuner, args, session):
    """One Inductor launch on npusim: the kernel file, the launch's arguments by
    parameter name, the block sizes to keep; with verify, the same launch on npusim's
    reference interpreter first, on copies, and every buffer compared."""
    names = _launch_names(autotuner)
    kernel_name = autotuner.inductor_meta.get("kernel_name", "?")
    if len(args) < len(names):
        raise api._native().InputError(f"{kernel_name}: Inductor passed {len(args)} arguments for {len(names)} "
                                       "parameters")
    launch_args = dict(zip(names, args))
    consts = _pinned_constexprs(autotuner)
    grid = _combo_grid(autotuner, launch_args, consts) if _is_combo(autotuner) else None
    options = session.options
    expected = None
    if options["verify"]:
        expected = {n: _copy(v) for n, v in launch_args.items()}
        api.run_kernel(autotuner.filename, grid=grid, args=expected, consts=consts, mode="reference")
    _, report = api.run_kernel(autotuner.filename, grid=grid, args=launch_args, consts=consts,
                               config=options["config"], mode=options["mode"])
    if expected is not None:
        for name, value in launch_args.items():
            if expected[name] is value:
                continue  # a scalar
            difference = _max_difference(value, expected[name])
            if difference is not None:
                raise api._native().VerificationError(
                    f"{kernel_name}: buffer {name} differs from the reference interpreter (max error {difference:g})")
        report["reference_check"] = "matches the reference"
    session.launches.append(report)
    session.add_trace(report.get("timing", {}).get("time_us", 0.0))


def _library_mode(session):
    """A dispatch mode that runs the library calls of a compiled graph (Inductor's
    extern_kernels.mm, addmm, bmm, convolution, its aten fallbacks, in-place operators)
    on npusim (run_call, npusim.torch_calls); every other call runs as it would and is
    counted in the session's fallbacks, with the reason. It is entered beneath the modes
    already active, so that they see each call with its results."""
    from torch.utils._python_dispatch import TorchDispatchMode

    from . import torch_calls

    class LibraryCalls(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            kwargs = kwargs or {}
            if not torch_calls.is_computation(func):
                return func(*args, **kwargs)
            call = torch_calls.library_call(func, args, kwargs)
            if isinstance(call, str):
                session.add_fallback(func, call)
                return func(*args, **kwargs)
            options = session.options
            verify = options["verify"] and options["mode"] != "timing"
            native = api._native()
            before = [t.clone() for t in call.updated]  # what a failed run may have changed
            try:
                _, report = api.run_call(call.name, call.values, call.writes, config=options["config"],
                                         mode=options["mode"], verify=verify)
            except (native.InputError, native.SimulationError) as error:
                # Refused (an argument form npusim's library lacks, found when the call
                # is loaded or when it runs): the call runs as it would on the tensors it
                # read, reported with npusim's message and warned about once per operator.
                for tensor, old in zip(call.updated, before):
                    tensor.copy_(old)
                reason = f"npusim's library refused it: {str(error).splitlines()[0]}"
                if not any(op == str(func) for op, _ in session.fallbacks):
                    warnings.warn(f"backend 'npusim': {func} runs off npusim: {reason}", stacklevel=2)
                session.add_fallback(func, reason)
                return func(*args, **kwargs)
            except native.Error as error:
                raise type(error)(f"{call.name} (from {func}): {error}") from error
            report["op"] = call.name
            session.calls.append(report)
            session.add_trace(report["totals"]["time_us"])
            return call.result

    return torch_calls.beneath_current_modes(LibraryCalls())


def _on_cpu(autotuner):
    """Whether the kernel is for CPU tensors: triton_meta's "device" (DeviceProperties)
    names it, or, where Inductor leaves that None (torch 2.11 for CPU kernels), its
    "device_type"."""
    meta = autotuner.triton_meta
    kind = getattr(meta.get("device"), "type", None) or meta.get("device_type")
    return kind == "cpu"


def install_launch_hook():
    """Routes CachingAutotuner.run to npusim while a npusim-compiled graph runs, and
    skips Triton's own compilation of kernels for CPU tensors (npusim compiles them from
    the kernel file; Triton has no CPU code generator here, only npusim's driver)."""
    global _installed
    if _installed:
        return
    from . import triton_cpu

    triton_cpu.register()  # a checkout on PYTHONPATH has no entry point for Triton to find
    from torch._inductor.runtime.triton_heuristics import CachingAutotuner

    original_run = CachingAutotuner.run
    original_precompile = CachingAutotuner.precompile

    def run(self, *args, **kwargs):
        session = _session()
        if session is None:
            return original_run(self, *args, **kwargs)
        return _run_on_npusim(self, args, session)

    def precompile(self, *args, **kwargs):
        if _on_cpu(self):
            return None
        return original_precompile(self, *args, **kwargs)

    CachingAutotuner.run = run
    CachingAutotuner.precompile = precompile
    _installed = True


def _checked(options):
    options = dict(options or {})
    unknown = set(options) - _OPTIONS
    if unknown:
        raise ValueError(f"backend 'npusim': unknown option(s) {sorted(unknown)}; it takes {sorted(_OPTIONS)}")
    checked = {"config": options.get("config", "tpuv3-like"), "mode": options.get("mode", "full"),
               "verify": bool(options.get("verify", False))}
    if checked["mode"] not in ("full", "functional", "timing", "reference"):
        raise ValueError(f"backend 'npusim': mode expects full, timing, functional or reference, got "
                         f"{checked['mode']!r}")
    if checked["verify"] and checked["mode"] == "timing":
        raise ValueError("backend 'npusim': verify needs values: use mode 'full' or 'functional'")
    api.load_config(checked["config"]) if isinstance(checked["config"], str) else None
    return checked


def npusim_backend(gm, example_inputs, options=None, mode=None):
    """The torch dynamo backend registered as "npusim" (entry point torch_dynamo_backends)."""
    del mode  # torch.compile's mode= is Inductor's; npusim's mode is options["mode"]
    checked = _checked(options)
    from torch._inductor.compile_fx import compile_fx, compile_fx_inner

    install_launch_hook()

    def inner_compile(*args, **kwargs):
        compiled = compile_fx_inner(*args, **kwargs)
        call = compiled.current_callable

        def on_npusim(inputs):
            with _active(checked) as session, _library_mode(session):
                return call(inputs)

        compiled.current_callable = on_npusim
        return compiled

    # Triton kernels for CPU tensors too (npusim's Triton "cpu" driver makes Inductor
    # take them), compiled in this process, where the hooks are.
    # No compiled graph from Inductor's FX graph cache or AOT autograd's cache: a graph
    # from there does not come through inner_compile, and would run off npusim.
    patches = {"cpu_backend": "triton", "compile_threads": 1, "fx_graph_cache": False,
               "fx_graph_remote_cache": False}
    import torch._functorch.config as functorch_config

    caches = {name: False for name in ("enable_autograd_cache", "enable_remote_autograd_cache")
              if hasattr(functorch_config, name)}
    with functorch_config.patch(caches):
        return compile_fx(gm, example_inputs, inner_compile=inner_compile, config_patches=patches)
