"""Instrumentation of a compiled graph's execution (needs torch with Inductor and Triton).

While a ``Recorder`` is in "record" mode, the execution of Inductor's compiled graph
(``CompiledFxGraph.__call__``) is recorded step by step:

* every Triton launch, by wrapping ``CachingAutotuner.run``: the kernel, its run-time
  arguments in ``def`` order (tensors as views on storages, scalars as values), the
  winning config's block sizes, the grid as the launcher computes it
  (``CachingAutotuner._interpret_args_grid``: the grid_type's expression, or for
  ``FixedGrid`` the trailing ``_grid_0.._grid_2`` arguments), the written arguments
  (``mutated_arg_names`` and ``out_ptr*``/``in_out_ptr*``) and their fingerprints;
* every aten operator the wrapper runs outside Triton (``extern_kernels.mm``,
  convolutions, fallbacks, ``zero_``, ``copy_`` ...), by a ``TorchDispatchMode`` entered
  only around the compiled graph (Dynamo skips frames while such a mode is active, so it
  must not be active around the ``torch.compile``d callable); allocation and view
  operators are not steps.

Storages are identified by ``untyped_storage().data_ptr()``; every storage seen is kept
alive until the recorder is dropped, so that an address never names two storages.
"""

import collections
import contextlib
import re

import torch
from torch.utils._python_dispatch import TorchDispatchMode

try:
    from torch.utils._python_dispatch import _disable_current_modes
except ImportError:  # older torch (only for running the unit tests elsewhere)

    @contextlib.contextmanager
    def _disable_current_modes():
        from torch.utils._python_dispatch import (_get_current_dispatch_mode_stack, _pop_mode,
                                                  _push_mode)

        modes = []
        while _get_current_dispatch_mode_stack():
            modes.append(_pop_mode())
        try:
            yield
        finally:
            for m in reversed(modes):
                _push_mode(m)

from .bundle import fingerprint as np_fingerprint

TORCH_TO_BUNDLE = {
    torch.float32: "fp32", torch.float16: "fp16", torch.bfloat16: "bf16", torch.float64: "fp64",
    torch.bool: "i1", torch.int8: "i8", torch.int16: "i16", torch.int32: "i32",
    torch.int64: "i64", torch.uint8: "u8",
}
BUNDLE_TO_TORCH = {v: k for k, v in TORCH_TO_BUNDLE.items()}

# Operators that only allocate, or only make views/metadata: not steps.
SKIP_OPS = {
    "aten.empty", "aten.empty_strided", "aten.empty_like", "aten.new_empty",
    "aten.new_empty_strided", "aten.as_strided", "aten.view", "aten._reshape_alias",
    "aten.alias", "aten.detach", "aten._unsafe_view", "aten.t", "aten.transpose",
    "aten.permute", "aten.expand", "aten.squeeze", "aten.unsqueeze", "aten.slice",
    "aten.select", "aten.reshape", "aten.unbind", "aten.split", "aten.split_with_sizes",
    "aten.narrow", "aten.diagonal", "aten.unfold", "aten.sym_size", "aten.sym_stride",
    "aten.sym_numel", "aten.sym_storage_offset", "aten.is_same_size", "aten.lift_fresh",
    "aten.record_stream", "aten.resize_", "aten.set_",
}

# Operators whose results come from a random generator: their steps carry the values.
RANDOM_OPS = {
    "aten.randint", "aten.randint_like", "aten.rand", "aten.rand_like", "aten.randn",
    "aten.randn_like", "aten.random_", "aten.uniform_", "aten.normal_", "aten.bernoulli",
    "aten.bernoulli_", "aten.randperm", "aten.exponential_", "aten.multinomial",
    "aten.native_dropout", "aten.normal", "aten.poisson", "aten.rrelu_with_noise",
}

# Whether Dynamo runs frames while RecordingMode is active (TorchDispatchMode has the
# ignore_compile_internals hook that Dynamo consults): then eager code between compiled
# graphs can be recorded.
MODES_PASS_DYNAMO = hasattr(TorchDispatchMode, "ignore_compile_internals")

_TRITON_CALL = re.compile(
    r"async_compile\.triton\((['\"])(\w+)\1,\s*'''(.*?)''',\s*device_str=", re.S)


def extract_kernels(wrapper_text):
    """{name: source} for each async_compile.triton('NAME', '''SOURCE''', ...) in output code
    (the same extraction as python/tools/capture_kernel_corpus.py)."""
    import ast

    out = {}
    try:
        tree = ast.parse(wrapper_text)
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "triton" and isinstance(node.func.value, ast.Name)
                    and node.func.value.id == "async_compile" and len(node.args) >= 2
                    and all(isinstance(a, ast.Constant) and isinstance(a.value, str)
                            for a in node.args[:2])):
                out[node.args[0].value] = node.args[1].value
    except SyntaxError:
        for m in _TRITON_CALL.finditer(wrapper_text):
            out[m.group(2)] = m.group(3)
    return out


def tensor_fingerprint(t):
    x = t.detach()
    dtype = TORCH_TO_BUNDLE[x.dtype]
    if x.dtype == torch.bfloat16:
        x = x.float()
    return np_fingerprint(x.cpu().numpy(), dtype)


def flat_storage_view(t):
    """A 1-D tensor over the whole storage of t, in t's dtype."""
    n = t.untyped_storage().nbytes() // t.element_size()
    return torch.as_strided(t.detach(), (n,), (1,), 0)


class CaptureError(Exception):
    pass


class Storages:
    def __init__(self):
        self.entries = []  # {"id", "dtype", "elements"}
        self.by_key = {}
        self.keep = []
        self.conflicts = []

    @staticmethod
    def key(t):
        st = t.untyped_storage()
        ptr = st.data_ptr()
        if ptr == 0 or st.nbytes() == 0:
            return None
        return (t.device.type, t.device.index, ptr)

    def known(self, t):
        k = self.key(t)
        return k is not None and k in self.by_key

    def ref(self, t, where=""):
        if t.dtype not in TORCH_TO_BUNDLE:
            raise CaptureError(f"{where}: dtype {t.dtype} has no bundle spelling")
        dtype = TORCH_TO_BUNDLE[t.dtype]
        nbytes = t.untyped_storage().nbytes()
        elements = nbytes // t.element_size()
        k = self.key(t)
        e = self.by_key.get(k) if k is not None else None
        if e is None:
            e = {"id": len(self.entries), "dtype": dtype, "elements": elements}
            self.entries.append(e)
            if k is not None:
                self.by_key[k] = e
            self.keep.append(t.detach())
        else:
            if e["dtype"] != dtype:
                self.conflicts.append(f"{where}: storage {e['id']} is {e['dtype']} and also "
                                      f"viewed as {dtype}")
            if elements > e["elements"]:
                e["elements"] = elements
        return {"storage": e["id"], "offset": int(t.storage_offset()),
                "shape": [int(s) for s in t.shape], "stride": [int(s) for s in t.stride()]}


class Recorder:
    def __init__(self):
        self.mode = None  # None, "warmup", "record"
        self.suspended = 0
        self.storages = Storages()
        self.steps = []
        self.kernel_sources = {}  # name -> source from the output code
        self.kernels = {}  # name -> source of launched kernels
        self.graph_calls = 0
        self.warm_graph_calls = 0
        self.graph_inputs = None
        self.input_snapshots = None
        self.wrapper_sources = []
        # Several graphs (training: forward, backward, optimizer): one record per call.
        self.allow_graphs = 1  # more calls than this are an error
        self.region = None  # label of the graph calls now ("forward", "backward", ...)
        self.graphs = []  # {"region", "first_step", "steps", "source", "launches": {name: n}}
        self.written = set()  # storage ids some recorded step wrote
        # Inputs of graph calls that no recorded step wrote before: (graph index, position,
        # tensor, snapshot of its storage when the graph received it).
        self.fresh_inputs = []
        self._snapped = set()
        self._graph_kernels = {}  # kernel name -> source, of the graph call running now
        self.renamed = {}  # (graph index, Inductor's kernel name) -> bundle kernel name
        self.device = None  # eager (gap) calls on another device type are not recorded
        # lookup(tensor) -> entry or None: the model's generated tensors. A library call
        # that reads one no step wrote before makes it a bundle input (when a graph does
        # not pass it: a stand-in for torch.compile, eager code between graphs).
        self.model_tensor = None
        self.skipped = collections.Counter()
        self.warnings = []
        self.errors = []

    @contextlib.contextmanager
    def suspend(self):
        self.suspended += 1
        try:
            with _disable_current_modes():
                yield
        finally:
            self.suspended -= 1

    # ---- the compiled graph --------------------------------------------------------

    def on_graph_call(self, graph, inputs, orig):
        if self.mode != "record" or self.suspended:
            if self.mode == "warmup":
                self.warm_graph_calls += 1
            return orig(graph, inputs)
        self.graph_calls += 1
        if self.graph_calls > self.allow_graphs:
            self.errors.append("the step ran more than one compiled graph (graph breaks?): "
                               "eager code between graphs is not recorded")
        src = getattr(graph, "source_code", None) or ""
        if src:
            self.wrapper_sources.append(src)
        self._graph_kernels = extract_kernels(src) if src else {}
        for name, ksrc in self._graph_kernels.items():
            self.kernel_sources.setdefault(name, ksrc)
        ins = list(inputs)
        with self.suspend():
            if torch.cuda.is_available():
                torch.cuda.synchronize()
            snaps = []
            for n, t in enumerate(ins):
                if isinstance(t, torch.Tensor):
                    ref = self.storages.ref(t, f"graph {self.graph_calls - 1} input {n}")
                    sid = ref["storage"]
                    if sid not in self.written and sid not in self._snapped:
                        self._snapped.add(sid)
                        snap = flat_storage_view(t).clone()
                        self.fresh_inputs.append((self.graph_calls - 1, n, t, snap))
                        snaps.append(snap)
                    else:
                        snaps.append(None)
                else:
                    snaps.append(t)
            if self.graph_calls == 1:
                self.graph_inputs = ins
                self.input_snapshots = snaps
        self.graphs.append({"region": self.region, "first_step": len(self.steps), "steps": 0,
                            "source": src, "launches": collections.Counter()})
        try:
            # The eager recording mode of a training step (if any) is popped: every op of
            # the graph is seen once, by the graph's own mode.
            with _disable_current_modes(), RecordingMode(self):
                return orig(graph, inputs)
        finally:
            g = self.graphs[-1]
            g["steps"] = len(self.steps) - g["first_step"]
            self._graph_kernels = {}

    @contextlib.contextmanager
    def eager_region(self, region):
        """Records the aten calls of eager code (a training step's autograd and glue between
        compiled graphs) as library calls; compiled callables run inside it must be entered
        through compiled_region."""
        prev = self.region
        self.region = region
        try:
            with RecordingMode(self, eager=True):
                yield
        finally:
            self.region = prev

    @contextlib.contextmanager
    def compiled_region(self, region, between_graphs=False):
        """Runs a torch.compile'd callable; the graph calls record themselves. With
        between_graphs (MODES_PASS_DYNAMO), the eager recording mode stays active, so the
        eager code Dynamo runs between graphs (graph breaks) is recorded as library calls;
        otherwise no dispatch mode may be active while Dynamo runs its frame (it would
        fall back to eager)."""
        prev = self.region
        self.region = region
        try:
            if between_graphs:
                yield
            else:
                with _disable_current_modes():
                    yield
        finally:
            self.region = prev

    # ---- Triton launches -----------------------------------------------------------

    def on_run(self, autotuner, args, kwargs, orig):
        if self.mode != "record" or self.suspended:
            return orig(autotuner, *args, **kwargs)
        ret = orig(autotuner, *args, **kwargs)
        with self.suspend():
            try:
                self.record_launch(autotuner, args)
            except Exception as e:  # noqa: BLE001
                name = autotuner.inductor_meta.get("kernel_name", "?")
                self.errors.append(f"launch of {name}: {type(e).__name__}: {e}")
        return ret

    def kernel_source(self, name, autotuner):
        if name in self._graph_kernels:
            return self._graph_kernels[name]
        if name in self.kernel_sources:
            return self.kernel_sources[name]
        fn = getattr(autotuner, "filename", None)
        if fn:
            with open(fn, encoding="utf-8") as f:
                self.warnings.append(f"{name}: source read from {fn} (not in the output code)")
                return f.read()
        raise CaptureError(f"no source for kernel {name}")

    def record_launch(self, at, args):
        meta = at.inductor_meta
        name = meta.get("kernel_name") or at.fn.__name__
        arg_names = list(at.fn.arg_names)
        cidx = set(at.fn.constexprs)
        params = [n for i, n in enumerate(arg_names) if i not in cidx]
        extra = list(meta.get("extra_launcher_args", ()))
        nargs = len(args) - len(extra)
        if nargs != len(params):
            raise CaptureError(f"{len(args)} run arguments ({len(extra)} extra) for the "
                               f"{len(params)} run-time parameters {params}")
        if at.launchers:
            cfg = at.launchers[0].config
            grid, blocks = self._launched_grid(at, args, cfg, params + extra, name), cfg.kwargs
        else:  # run by npusim (backend="npusim"; Triton compiled nothing)
            cfg = None
            grid, blocks = _npusim_launch(name, at)
        grid = [int(g) for g in grid] + [1] * (3 - len(grid))
        constexprs = {k: (int(v) if not isinstance(v, bool) else v)
                      for k, v in blocks.items() if k in arg_names}
        ignored = sorted(k for k in blocks if k not in arg_names)
        if ignored:
            self.warnings.append(f"{name}: config kwargs {ignored} are not parameters")
        mutated = set(at.mutated_arg_names or ())
        sig = at.triton_meta.get("signature", {})
        jargs, writes = [], []
        for i, (pname, a) in enumerate(zip(params, args[:nargs])):
            if isinstance(a, torch.Tensor):
                jargs.append({"tensor": self.storages.ref(a, f"{name}.{pname}")})
                want = sig.get(pname)
                have = "*" + TORCH_TO_BUNDLE[a.dtype]
                if isinstance(want, str) and want.startswith("*") and want != have:
                    self.warnings.append(f"{name}.{pname}: signature {want}, tensor {have}")
                if pname in mutated or pname.startswith(("out_ptr", "in_out_ptr")):
                    writes.append(i)
            elif isinstance(a, bool):
                jargs.append({"value": int(a)})
            elif isinstance(a, int):
                jargs.append({"value": int(a)})
            elif isinstance(a, float):
                jargs.append({"value": float(a)})
            else:
                try:
                    jargs.append({"value": int(a)})
                except Exception:  # noqa: BLE001
                    raise CaptureError(f"argument {pname} of type {type(a).__name__}")
        for m in mutated:
            if m not in params:
                self.warnings.append(f"{name}: mutated arg {m} is not a run-time parameter")
        fps = []
        for i in writes:
            fps.append({"arg": i, **tensor_fingerprint(args[i])})
        src = self.kernel_source(name, at)
        if self.graphs:
            self.graphs[-1]["launches"][name] += 1
        bname = self.bundle_kernel_name(name, src)
        self.written.update(jargs[i]["tensor"]["storage"] for i in writes)
        step = {"kind": "launch", "kernel": bname, "grid": grid, "constexprs": constexprs,
                "args": jargs, "writes": writes, "fingerprints": fps}
        # The GPU launch configuration: a reduction's order across threads depends on it,
        # so a replay that reproduces the values must launch with it.
        for key in ("num_warps", "num_stages") if cfg is not None else ():
            v = getattr(cfg, key, None)
            if isinstance(v, int):
                step[key] = int(v)
        self.steps.append(step)

    def _launched_grid(self, at, args, cfg, names, name):
        """The grid Triton's launcher computes for the winning config."""
        try:
            return at._interpret_args_grid(tuple(args), cfg)[1]
        except Exception as e:  # noqa: BLE001
            from torch._inductor.runtime.triton_heuristics import GridExpr

            self.warnings.append(f"{name}: _interpret_args_grid failed ({e!r}); GridExpr used")
            return GridExpr.from_meta(at.inductor_meta, cfg).eval_slow(dict(zip(names, args)))

    def bundle_kernel_name(self, name, src):
        """The kernel's name in the bundle: Inductor's, unless another graph of the step
        launched a different kernel of that name; then NAME_gK (K: this graph's index),
        renamed in the source too, since a kernel file's @triton.jit function has the
        file's name."""
        g = len(self.graphs) - 1
        key = (g, name)
        if key in self.renamed:
            return self.renamed[key]
        bname = name
        if name in self.kernels and self.kernels[name] != src:
            bname = f"{name}_g{g}"
            src = re.sub(r"\b" + re.escape(name) + r"\b", bname, src)
            if bname in self.kernels and self.kernels[bname] != src:
                raise CaptureError(f"kernel {name} launched with two different sources in graph {g}")
            self.warnings.append(f"graph {g}: kernel {name} is {bname} in the bundle (another "
                                 "graph has a different kernel of that name)")
        self.kernels[bname] = src
        self.renamed[key] = bname
        return bname

    # ---- aten calls ----------------------------------------------------------------

    def note_reads(self, func, args, kwargs):
        """Before a library call runs: snapshots the model tensors it reads that no recorded
        step wrote and no graph received yet."""
        if self.model_tensor is None:
            return
        schema = func._schema
        for i, a in enumerate(schema.arguments):
            if a.kwarg_only and a.alias_info is not None and a.alias_info.is_write:
                continue  # out=: written, not read (an in-place self is read)
            v = args[i] if not a.kwarg_only and i < len(args) else kwargs.get(a.name)
            for t in _tensors(v):
                key = Storages.key(t)
                if key is None or self.model_tensor(t) is None:
                    continue
                e = self.storages.by_key.get(key)
                if e is not None and (e["id"] in self.written or e["id"] in self._snapped):
                    continue
                sid = self.storages.ref(t, f"{func} {a.name}")["storage"]
                self._snapped.add(sid)
                self.fresh_inputs.append((None, f"argument {a.name} of step {len(self.steps)} "
                                          f"({func})", t, flat_storage_view(t).clone()))

    def watch_unmarked(self, func, args, kwargs):
        """Before a call: copies of the model's float buffers (not its parameters or
        inputs) it takes as arguments its schema does not mark written, to see afterwards
        whether it wrote them anyway (an operator HIDDEN_WRITES does not know yet)."""
        if self.model_tensor is None or f"{func.namespace}.{func.overloadpacket.__name__}" in SKIP_OPS:
            return []
        watched = []
        for i, a in enumerate(func._schema.arguments):
            if a.alias_info is not None and a.alias_info.is_write:
                continue
            for t in _tensors(argument_value(a, i, args, kwargs)):
                if not t.is_floating_point() or Storages.key(t) is None:
                    continue
                entry = self.model_tensor(t)
                if entry is not None and entry["role"].removeprefix("attribute ") not in _NOT_BUFFERS:
                    watched.append((a.name, t, t.detach().clone()))
        return watched

    def on_aten(self, func, args, kwargs, out, eager=False, watched=()):
        qual = f"{func.namespace}.{func.overloadpacket.__name__}"
        if eager and self.device is not None:
            devs = {t.device.type for t in _tensors(list(args) + list(kwargs.values())) + _tensors(out)}
            if devs and devs != {self.device}:
                self.skipped[qual] = self.skipped.get(qual, 0) + 1
                if self.device in devs:
                    self.errors.append(f"eager {func} mixes devices {sorted(devs)}: not recorded")
                return
        schema = func._schema
        op = qual if _same_args_as_default(func) else f"{qual}.{func._overloadname}"
        written_args = [a for a in schema.arguments
                        if a.alias_info is not None and a.alias_info.is_write]
        is_view = (any(r.alias_info is not None for r in schema.returns) and not written_args)
        if qual in SKIP_OPS or is_view or func.namespace == "profiler":
            self.skipped[qual] = self.skipped.get(qual, 0) + 1
            return
        jargs, outs = [], []
        for i, a in enumerate(schema.arguments):
            v = argument_value(a, i, args, kwargs)
            if a.alias_info is not None and a.alias_info.is_write:
                _add_unique(outs, _tensors(v))
                if a.kwarg_only:  # out= arguments are not inputs of the operator
                    continue
            jargs.append(self.encode(v, f"{qual}.{a.name}"))
        # Results that are not the written arguments themselves are written too.
        _add_unique(outs, _tensors(out))
        # Arguments written without the schema saying so are no outputs of the call (the
        # operator writes them itself, as npusim's library does), but written all the same.
        hidden = hidden_writes(qual, args, kwargs, schema)
        for name, t, before in watched:
            now = t.detach()
            same = now.shape == before.shape and bool(((now == before) | (now.isnan() & before.isnan())).all())
            if not same and not any(t is h for h in hidden):
                self.warnings.append(f"{qual} wrote its argument {name} although its schema does not mark it "
                                     "written (seen by comparing values; add it to recorder.HIDDEN_WRITES)")
                hidden.append(t)
        unmarked = [self.storages.ref(t, f"{qual} (written in place)")["storage"] for t in hidden]
        # Results whose values PyTorch leaves unspecified get no fingerprint: the philox
        # seed and offset of the attention kernels (uninitialised when dropout_p = 0).
        res_list = list(out) if isinstance(out, (tuple, list)) else [out]
        unspecified = {_view_key(r) for r, ret in zip(res_list, schema.returns)
                       if isinstance(r, torch.Tensor) and ret.name.startswith(("philox_", "debug_"))}
        if not outs:
            self.skipped[qual] = self.skipped.get(qual, 0) + 1
            self.warnings.append(f"{qual}: writes no tensor; not recorded")
            return
        jout = [{"tensor": self.storages.ref(t, f"{qual} out")} for t in outs]
        fps = [{"out": k, **tensor_fingerprint(t)} for k, t in enumerate(outs)
               if _view_key(t) not in unspecified]
        step = {"kind": "call", "op": op, "args": jargs, "out": jout, "fingerprints": fps}
        if qual in RANDOM_OPS:
            # What the generator drew (Inductor's seeds for tl.rand): replay writes these.
            step["values"] = [{"out": k, "data": _logical_values(t)} for k, t in enumerate(outs)]
        self.written.update(o["tensor"]["storage"] for o in jout)
        self.written.update(unmarked)
        self.steps.append(step)

    def encode(self, v, where):
        if isinstance(v, torch.Tensor):
            return {"tensor": self.storages.ref(v, where)}
        if v is None or isinstance(v, (bool, int, float, str)):
            return v
        if isinstance(v, (list, tuple, torch.Size)):
            return [self.encode(x, where) for x in v]
        if isinstance(v, torch.dtype):
            return TORCH_TO_BUNDLE.get(v, str(v))
        if isinstance(v, (torch.device, torch.layout, torch.memory_format)):
            return str(v)
        if isinstance(v, torch.SymInt):
            return int(v)
        if isinstance(v, torch.SymFloat):
            return float(v)
        raise CaptureError(f"{where}: cannot write an argument of type {type(v).__name__}")


def _npusim_launch(name, at):
    """(grid, block sizes) of the launch npusim just ran for the kernel ``name`` (the
    last run_kernel report): with backend="npusim", Triton has no launcher, npusim
    chooses the block sizes and the grid follows from them. The block sizes are those
    of the function's ``tl.constexpr`` parameters that Triton did not specialise into
    constants (as a GPU launch's config names them)."""
    from . import api

    report = api.last_report() or {}
    if report.get("kernel") != name or "grid" not in report:
        raise CaptureError(f"kernel {name} has no Triton launcher and npusim's last launch was "
                           f"{report.get('kernel')!r}: was it launched outside backend=\"npusim\"?")
    declared = {at.fn.arg_names[i] for i in at.fn.constexprs}
    constants = set((at.triton_meta.get("constants") or {}))
    blocks = {k: v for k, v in report.get("constexprs", {}).items() if k in declared and k not in constants}
    return list(report["grid"]), blocks


# Operators that write arguments their schema does not mark as written: (argument
# positions, the position of the bool argument that turns the writes on). Batch norm
# in training updates its running statistics in place (torch's eager batch_norm calls
# native_batch_norm, whose schema has plain "Tensor? running_mean").
HIDDEN_WRITES = {
    "aten.native_batch_norm": ((3, 4), 5),
    "aten.cudnn_batch_norm": ((3, 4), 5),
    "aten.miopen_batch_norm": ((3, 4), 5),
}


def hidden_writes(qual, args, kwargs, schema):
    """The tensors an operator of HIDDEN_WRITES writes although its schema does not say so."""
    if qual not in HIDDEN_WRITES:
        return []
    positions, switch = HIDDEN_WRITES[qual]

    def arg(i):
        return argument_value(schema.arguments[i], i, args, kwargs)

    if not arg(switch):
        return []
    return [t for i in positions for t in _tensors(arg(i))]


_MISSING = object()
# Roles of the model's tensors (npusim.models) that are no buffers.
_NOT_BUFFERS = {"weight", "bias", "norm weight", "norm bias", "parameter", "input", "target"}


def argument_value(argument, position, args, kwargs, missing=None):
    """The value an aten call passes for the schema argument at ``position``: given
    positionally, by keyword, or its default; ``missing`` where none is."""
    if not argument.kwarg_only and position < len(args):
        return args[position]
    if argument.name in kwargs:
        return kwargs[argument.name]
    if argument.has_default_value():
        return argument.default_value
    return missing


def _inputs_signature(schema):
    return [(a.name, str(a.type), a.kwarg_only) for a in schema.arguments
            if not (a.kwarg_only and a.alias_info is not None and a.alias_info.is_write)]


def _same_args_as_default(func):
    """Whether the overload that ran takes the arguments of the operator's .default overload
    (true of .default itself and of the .out variants): then the bundle names the operator
    without overload, else as aten.NAME.OVERLOAD."""
    if func._overloadname == "default":
        return True
    default = getattr(func.overloadpacket, "default", None)
    if default is None:
        return False
    return _inputs_signature(default._schema) == _inputs_signature(func._schema)


def _logical_values(t):
    """The values of a view in row-major order, as JSON numbers (bool as 0/1)."""
    x = t.detach()
    if x.dtype == torch.bool:
        x = x.to(torch.uint8)
    if x.dtype in (torch.bfloat16, torch.float16):
        x = x.float()
    return x.cpu().reshape(-1).tolist()


def _view_key(t):
    return (t.untyped_storage().data_ptr(), t.storage_offset(), tuple(t.shape), tuple(t.stride()),
            t.dtype)


def _add_unique(outs, tensors):
    keys = {_view_key(t) for t in outs}
    for t in tensors:
        k = _view_key(t)
        if k not in keys:
            keys.add(k)
            outs.append(t)


def _tensors(v):
    if isinstance(v, torch.Tensor):
        return [v]
    if isinstance(v, (list, tuple)):
        out = []
        for x in v:
            out.extend(_tensors(x))
        return out
    return []


class RecordingMode(TorchDispatchMode):
    def __init__(self, rec, eager=False):
        super().__init__()
        self.rec = rec
        self.eager = eager

    @classmethod
    def ignore_compile_internals(cls):
        """Dynamo runs (and compiles) frames while this mode is active (torch that knows
        the hook; older torch skips frames under any mode): the eager code between the
        graphs of a graph break is then recorded."""
        return True

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        rec = self.rec
        if rec.mode == "record" and not rec.suspended:
            with rec.suspend():
                try:
                    rec.note_reads(func, args, kwargs)
                except Exception as e:  # noqa: BLE001
                    rec.errors.append(f"{func}: {type(e).__name__}: {e}")
        watched = []
        if rec.mode == "record" and not rec.suspended:
            with rec.suspend():
                watched = rec.watch_unmarked(func, args, kwargs)
        out = func(*args, **kwargs)
        if rec.mode == "record" and not rec.suspended:
            with rec.suspend():
                try:
                    rec.on_aten(func, args, kwargs, out, eager=self.eager, watched=watched)
                except Exception as e:  # noqa: BLE001
                    rec.errors.append(f"{func}: {type(e).__name__}: {e}")
        return out


# --------------------------------------------------------------------------------------
# Hooks
# --------------------------------------------------------------------------------------

CURRENT = None  # the active Recorder
_INSTALLED = False


def wrap_graph_instances():
    """Second way in, should CompiledFxGraph.__call__ not be how the graph is run: wraps
    the current_callable of every live CompiledFxGraph. Returns how many were wrapped."""
    import gc

    from torch._inductor.output_code import CompiledFxGraph

    n = 0
    for obj in gc.get_objects():
        # type(), not isinstance(): the heap holds dead weak proxies, on which any attribute
        # access (isinstance reads __class__) raises ReferenceError.
        if not issubclass(type(obj), CompiledFxGraph):
            continue
        inner = getattr(obj, "current_callable", None)
        if inner is not None and not getattr(obj, "_npusim_wrapped", False):

            def wrapped(inputs, _inner=inner, _graph=obj):
                rec = CURRENT
                if rec is None or getattr(rec, "_in_class_hook", False):
                    return _inner(inputs)
                return rec.on_graph_call(_graph, inputs, lambda g, i: _inner(i))

            obj.current_callable = wrapped
            obj._npusim_wrapped = True
            n += 1
    return n


def install():
    """Wraps CompiledFxGraph.__call__ and CachingAutotuner.run (once per process)."""
    global _INSTALLED
    if _INSTALLED:
        return
    from torch._inductor.output_code import CompiledFxGraph
    from torch._inductor.runtime.triton_heuristics import CachingAutotuner

    orig_call = CompiledFxGraph.__call__
    orig_run = CachingAutotuner.run

    def graph_call(self, inputs):
        rec = CURRENT
        if rec is None:
            return orig_call(self, inputs)
        rec._in_class_hook = True
        try:
            return rec.on_graph_call(self, inputs, orig_call)
        finally:
            rec._in_class_hook = False

    def run(self, *args, **kwargs):
        rec = CURRENT
        if rec is None:
            return orig_run(self, *args, **kwargs)
        return rec.on_run(self, args, kwargs, orig_run)

    CompiledFxGraph.__call__ = graph_call
    CachingAutotuner.run = run
    _INSTALLED = True
