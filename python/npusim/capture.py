"""Capture a PyTorch model compiled by TorchInductor into an npusim bundle.

    PYTHONPATH=python python3 -m npusim.capture SPEC OUT_DIR [--templates [--config CFG]]
        [--train [--optimizer sgd|adamw] [--trace compile|make_fx]] [--seed N] [--no-self-replay]

SPEC is a built-in model with optional overrides (``resnet18``, ``mlp,dims=784-512-10``,
see ``npusim.models``) or ``module.path:factory``. The model is compiled with
``torch.compile(dynamic=False)`` (Inductor, CUDA) and the bundle is written per
docs/bundle-format.md. Without a visible GPU the graph runs through
``backend="npusim"`` in its reference mode and the fingerprints are npusim's
(``npusim.capture_cpu``; the bundle's ``fingerprint_source`` is ``npusim-reference``).

How: every parameter, buffer and input is set from the bundle generator; the compiled
function runs once (compilation, autotuning), the inputs are set again, eager PyTorch
computes the reference outputs on a deep copy, and the compiled function runs a second
time under ``npusim.recorder`` (Triton launches and aten library calls, with
fingerprints after every step). Finally the graph inputs the compiled graph received are
checked against the generator, and the bundle is validated.

``--train`` captures one training step as people write it (``npusim.training``): the
model and its loss under ``torch.compile``, ``loss.backward()``, and the optimizer's step
(``--optimizer``: SGD with momentum 0.9, or AdamW; lr 0.01) under ``torch.compile`` too.
The bundle holds AOTAutograd's forward graph, its backward graph and the optimizer's
graph in the order they ran, with the eager aten calls between them (the loss gradient,
gradient accumulation) as library calls. The outputs are the loss, the updated parameters
and the updated float buffers (BatchNorm's running statistics), each in its own storage
(a graph input the step updates in place). ``--trace make_fx`` is the older way: the
step (forward, ``torch.autograd.grad``, SGD without momentum) traced with ``make_fx`` and
compiled as one graph; it fails on models whose Python depends on data.

Captures are made deterministic (``torch.use_deterministic_algorithms``, cuDNN
deterministic, a fixed cuBLAS workspace) and full fp32 (``npusim.precision``: every TF32
switch, legacy and per backend, off; a probe of matmul, convolutions and an LSTM against
float64 fails the capture when the device still rounds), and every capture replays its own bundle on
the capturing device (``npusim.replay``) and fails when a step's fingerprints or an
output do not reproduce, or when a library call's fp32 results differ from the call
computed again in float64 on the CPU (``--no-self-replay`` skips that).

``--templates`` sets Inductor's max_autotune with Triton GEMM/convolution templates
(two candidate configurations per shape). With ``--config CFG`` (an NPU preset,
``configs/*.yaml``, see ``npusim.npuconfig``) the candidates are only block sizes chosen
for that NPU: BLOCK_N = lanes (at least 16, for ``tl.dot`` on the GPU), BLOCK_M and
BLOCK_K such that the fp32 A, B and C tiles fit its scratchpad. Without ``--config``
Inductor chooses its own block sizes.
"""

import argparse
import copy
import datetime
import json
import os
import re
import shutil
import sys
import time
import traceback

from . import break_reasons, capture_cpu, hidden_writes
from .torch_env import setup_env

# The capturing device: NPUSIM_DEVICE, else CUDA where torch sees a GPU, else the CPU
# (``on_device``), where the model runs through backend="npusim" (``capture_cpu.npusim_compile``).
DEV = os.environ.get("NPUSIM_DEVICE", "cuda")


def _set_cfg(path, value, log):
    import torch._inductor.config as cfg

    *outer, name = path.split(".")
    obj = cfg
    for o in outer:
        obj = getattr(obj, o, None)
    if obj is not None and hasattr(obj, name):
        setattr(obj, name, value)
        return True
    log(f"  inductor config {path} does not exist in this torch; skipped")
    return False


def _deterministic(torch, log):
    """Deterministic kernels where PyTorch has them (Inductor then also avoids atomic
    accumulation); an operator without one only warns, and the self-replay judges."""
    try:
        torch.use_deterministic_algorithms(True, warn_only=True)
        torch.backends.cudnn.deterministic = True
        torch.backends.cudnn.benchmark = False
    except Exception as e:  # noqa: BLE001
        log(f"  could not make the capture deterministic: {e!r}")


def flatten_outputs(out, prefix=None):
    import torch

    if isinstance(out, torch.Tensor):
        return [(prefix or "output_0", out)]
    res = []
    if isinstance(out, dict):
        for k, v in out.items():
            res += flatten_outputs(v, str(k) if prefix is None else f"{prefix}.{k}")
    elif isinstance(out, (list, tuple)):
        for i, v in enumerate(out):
            res += flatten_outputs(v, f"output_{i}" if prefix is None else f"{prefix}.{i}")
    return res


def _param_name(source, index):
    from .bundle import kernel_params

    try:
        return kernel_params(source)[1][index]  # the last @triton.jit function: the kernel
    except Exception:  # noqa: BLE001
        return ""


def _arg_refs(v):
    if isinstance(v, dict) and set(v) == {"tensor"}:
        return [v]
    if isinstance(v, list):
        return [r for x in v for r in _arg_refs(x)]
    return []


def _file_name(name):
    return re.sub(r"[^A-Za-z0-9_.-]", "_", name)


class Known:
    """Parameters, buffers, tensor attributes and user inputs, each with its generator init."""

    def __init__(self):
        self.entries = []
        self.by_key = {}
        self.streams = 0

    @staticmethod
    def key(t):
        return (t.device.type, t.device.index, t.untyped_storage().data_ptr())

    def add(self, name, t, init, role):
        if t.device.type != DEV or t.untyped_storage().nbytes() == 0:
            return
        k = self.key(t)
        if k in self.by_key:
            return
        init = dict(init)
        if init["kind"] in ("uniform", "randint"):
            init["stream"] = self.streams
            self.streams += 1
        e = {"name": name, "tensor": t, "init": init, "role": role}
        self.entries.append(e)
        self.by_key[k] = e

    def lookup(self, t):
        return self.by_key.get(self.key(t))


def _fill(entries, seed):
    import torch

    from . import generator_torch
    from .recorder import TORCH_TO_BUNDLE, flat_storage_view

    for e in entries:
        t = e["tensor"]
        generator_torch.fill(torch, flat_storage_view(t), e["init"], TORCH_TO_BUNDLE[t.dtype], seed)


_REGEN_WHOLE = 1 << 22  # elements: a larger storage is checked in windows
_REGEN_WINDOWS, _REGEN_WINDOW = 16, 1 << 16


def _regenerates(snap, init, dtype, seed):
    """Whether the storage `snap` holds what numpy's generator makes of `init`: every
    element of a small storage; of a large one (a billion-parameter model's weights,
    filled by the torch generator on the device) 16 windows of 65,536 elements evenly
    spread from its first element to its last, so the device's fill is checked against
    the host's definition on every capture."""
    import numpy as np
    import torch

    from . import generator

    n = snap.numel()
    if n <= _REGEN_WHOLE:
        windows = [(0, n)]
    else:
        last = n - _REGEN_WINDOW
        windows = [(k * last // (_REGEN_WINDOWS - 1), _REGEN_WINDOW) for k in range(_REGEN_WINDOWS)]
    for start, count in windows:
        want = np.ascontiguousarray(generator.generate(init, dtype, count, seed, start=start)).view(np.uint8)
        window = snap.reshape(-1)[start:start + count]
        if window.dtype == torch.bfloat16:
            window = window.view(torch.int16)
        if not np.array_equal(np.ascontiguousarray(window.detach().cpu().numpy()).view(np.uint8), want):
            return False
    return True


def _storage_bytes(t):
    import numpy as np
    import torch

    from .recorder import flat_storage_view

    x = flat_storage_view(t) if t.dim() != 1 or t.storage_offset() else t
    if x.dtype == torch.bfloat16:
        x = x.view(torch.int16)
    return np.ascontiguousarray(x.detach().cpu().numpy()).view(np.uint8)


def _sync(torch):
    if DEV == "cuda":
        torch.cuda.synchronize()


def _functional_call(torch, mod, state, args, kwargs):
    if hasattr(torch, "func") and hasattr(torch.func, "functional_call"):
        return torch.func.functional_call(mod, state, args, kwargs)
    from torch.nn.utils import stateless

    return stateless.functional_call(mod, state, args, kwargs)


def require_inductor(torch):
    """A capture compiles the model with TorchInductor, whose kernels are Triton's:
    torch 2.5 or later with Triton installed. Fails naming what is missing."""
    from .recorder import CaptureError

    missing = []
    m = re.match(r"(\d+)\.(\d+)", torch.__version__)
    if not m or (int(m.group(1)), int(m.group(2))) < (2, 5):
        missing.append(f"torch {torch.__version__} is older than 2.5")
    try:
        import triton  # noqa: F401
    except ImportError:
        missing.append("the triton module is not installed")
    if missing:
        raise CaptureError("a capture compiles the model with TorchInductor and Triton (torch >= 2.5): "
                           + "; ".join(missing) + " (docs/python.md)")


def capture(spec, out_dir, templates=False, train=False, seed=0, debug_dir=None, log=print,
            compile_fn=None, npu_config=None, optimizer="sgd", trace="compile", self_replay=True,
            size_inputs=False):
    """Captures SPEC into the bundle directory out_dir; returns bundle.summary(out_dir).
    compile_fn replaces torch.compile(fn, dynamic=False) (tests of the plumbing only).
    npu_config: path of an NPU preset whose block sizes the templates use (needs templates).
    train: one training step (trace "compile": torch.compile + backward + the optimizer
    step, optimizer "sgd" or "adamw"; trace "make_fx": the older single traced graph).
    self_replay: replay the bundle on the capturing device and fail if it differs.
    size_inputs: integer graph inputs are allowed (the sizes of a graph compiled with dynamic
    shapes, npusim.dynamic_shapes); they are no bundle inputs, and model.size_inputs lists them."""
    if trace not in ("compile", "make_fx"):
        raise ValueError(f"trace {trace!r}: compile or make_fx")
    t_start = time.time()
    npu_json = None
    if npu_config is not None:
        from . import npuconfig

        if not templates:
            raise ValueError("--config chooses template block sizes: it needs --templates")
        npu_blocks = npuconfig.template_blocks(npuconfig.load(npu_config))
        npu_json = npuconfig.provenance(npu_config, npu_blocks)
    import numpy as np
    import torch

    if compile_fn is None:
        require_inductor(torch)
    # A stand-in for torch.compile (tests of the plumbing) runs autograd eagerly: no
    # backward graph then.
    want_backward_graph = compile_fn is None
    # The eager code between the graphs of a graph break is recorded when Dynamo runs
    # frames under the recording mode (torch with ignore_compile_internals), or when a
    # stand-in for torch.compile (no Dynamo) makes the graph calls.
    from . import recorder as _recorder

    # NPUSIM_RECORD_BETWEEN_GRAPHS=0 turns it off (then a graph break fails the capture).
    between_graphs = (compile_fn is not None or _recorder.MODES_PASS_DYNAMO) and \
        os.environ.get("NPUSIM_RECORD_BETWEEN_GRAPHS", "1") != "0"
    on_npusim = compile_fn is None and on_device(torch) == "cpu"
    if on_npusim:
        compile_fn = capture_cpu.npusim_compile(torch, log)
    if compile_fn is None:
        def compile_fn(fn):
            return torch.compile(fn, dynamic=False)

    from . import bundle, models, precision, recorder, training
    from .recorder import TORCH_TO_BUNDLE, BUNDLE_TO_TORCH, CaptureError

    timings = {}
    fp32_state = precision.set_full_fp32(torch, log)
    _deterministic(torch, log)
    # TF32 behind a switch that reads back as off (a setting inherited from elsewhere)
    # gives fingerprints the GPU's own replay reproduces: only wider arithmetic tells.
    reduced = precision.reduced_precision_settings(fp32_state) + precision.probe(torch, DEV)
    if reduced:
        raise CaptureError("the device does not compute in full fp32:\n  " + "\n  ".join(reduced))
    torch.manual_seed(0)  # after the probe, which draws its LSTM's initial weights
    compiled_train = bool(train) and trace == "compile"
    if DEV == "cuda":
        _set_cfg("fx_graph_cache", False, log)
        _set_cfg("triton.cudagraphs", False, log)
    if templates:
        _set_cfg("max_autotune", True, log)
        _set_cfg("max_autotune_gemm_backends", "TRITON", log)
        _set_cfg("max_autotune_conv_backends", "TRITON", log)
        _set_cfg("benchmark_epilogue_fusion", False, log)
        _set_cfg("test_configs.max_mm_configs", 2, log)
        if npu_json is not None:
            npu_json["patched"] = npuconfig.restrict_inductor_templates(npu_blocks, log)
            log(f"  NPU template blocks: BLOCK_N {npu_json['block_n']}, (BLOCK_M, BLOCK_K) in "
                f"{[(c['block_m'], c['block_k']) for c in npu_json['candidates']]}")

    built = models.build(spec)
    model = built.model.to(DEV)
    if built.channels_last:
        model = model.to(memory_format=torch.channels_last)
    model.train(bool(train))
    hf_config = getattr(model, "config", None)

    known = Known()
    for mname, m in model.named_modules():
        for pname, p in m.named_parameters(recurse=False):
            qual = f"{mname}.{pname}" if mname else pname
            init, role = models.param_init(qual, m, p)
            known.add(qual, p, init, role)
        for bname, b in m.named_buffers(recurse=False):
            qual = f"{mname}.{bname}" if mname else bname
            init, role = models.buffer_init(qual, b, hf_config)
            known.add(qual, b, init, role)
    for mname, m in model.named_modules():
        for k, v in list(vars(m).items()):
            if isinstance(v, torch.Tensor) and not isinstance(v, torch.nn.Parameter):
                qual = f"{mname}.{k}" if mname else k
                init, role = models.buffer_init(qual, v, hf_config)
                known.add(qual, v, init, "attribute " + role)
    user = []  # (spec, tensor)
    for s in built.inputs:
        if s.target and not train:
            continue
        t = torch.empty(tuple(s.shape), dtype=BUNDLE_TO_TORCH[s.dtype], device=DEV)
        if built.channels_last and t.dim() == 4:
            t = t.to(memory_format=torch.channels_last)
        known.add(s.name, t, s.init, "target" if s.target else "input")
        user.append((s, t))
    _fill(known.entries, seed)
    log(f"  {len(known.entries)} tensors initialised from the generator (seed {seed})")

    ins = [t for s, t in user if not s.target]
    targets = [t for s, t in user if s.target]
    in_specs = [s for s, _ in user if not s.target]

    def split_call_args(tensors):
        pos = [t for s, t in zip(in_specs, tensors) if not s.kwarg]
        kw = {s.name: t for s, t in zip(in_specs, tensors) if s.kwarg}
        kw.update(built.static_kwargs)
        return pos, kw

    params = list(model.named_parameters())

    def default_loss(out):
        ts = [t for _, t in flatten_outputs(out) if t.is_floating_point()]
        return sum(t.float().pow(2).mean() for t in ts)

    def make_step(mod):
        pn = [n for n, _ in mod.named_parameters()]
        bn = [n for n, _ in mod.named_buffers()]
        n_in = len(ins)

        def step(*flat):
            ps = flat[:len(pn)]
            bs = flat[len(pn):len(pn) + len(bn)]
            rest = flat[len(pn) + len(bn):]
            leaves = [p.detach().requires_grad_(True) for p in ps]
            state = dict(zip(pn, leaves))
            state.update(zip(bn, bs))
            pos, kw = split_call_args(list(rest[:n_in]))
            out = _functional_call(torch, mod, state, tuple(pos), kw)
            loss = built.loss(out, *rest[n_in:]) if built.loss else default_loss(out)
            grads = torch.autograd.grad(loss, leaves)
            with torch.no_grad():
                for p, g in zip(ps, grads):
                    p.sub_(g * built.lr)
            return loss.detach()

        flat = ([p.detach() for _, p in mod.named_parameters()]
                + [b for _, b in mod.named_buffers()])
        return step, flat

    def loss_of_output(out, *tgts):
        return built.loss(out, *tgts) if built.loss else default_loss(out)

    opt_spec = training.OptimizerSpec(name=optimizer, lr=built.lr) if compiled_train else None
    params_by_id = {id(p): n for n, p in params}
    float_buffers = [(n, b) for n, b in model.named_buffers() if b.is_floating_point()]

    t0 = time.time()
    if compiled_train:
        opt = training.make_optimizer(torch, opt_spec, model.parameters())
        tstep = training.CompiledStep(torch, model, loss_of_output, split_call_args, ins, targets,
                                      opt, compile_fn,
                                      between_graphs=between_graphs and want_backward_graph)

        def run_compiled(rec=None):
            return tstep.run(rec)
    elif train:
        from torch.fx.experimental.proxy_tensor import make_fx

        step, flat_params = make_step(model)
        flat = flat_params + ins + targets
        gm = make_fx(step)(*[t.clone() for t in flat])
        compiled = compile_fn(gm)

        def run_compiled(rec=None):
            return compiled(*flat)
    else:
        compiled = compile_fn(model)
        pos, kw = split_call_args(ins)

        def run_compiled(rec=None):
            with torch.no_grad():
                if rec is None or not record_between[0]:
                    return compiled(*pos, **kw)
                with rec.eager_region("forward"):
                    return compiled(*pos, **kw)

    if DEV == "cuda" or on_npusim:
        recorder.install()
    rec = recorder.Recorder()
    rec.device = DEV
    rec.model_tensor = known.lookup
    # Whether the recorded run keeps the recording mode active between graphs: only for a
    # model Dynamo splits (decided after the warm-up), so that others run as before.
    record_between = [False]
    if compiled_train or between_graphs:
        rec.allow_graphs = 1 << 30
    recorder.CURRENT = rec
    try:
        rec.mode = "warmup"
        run_compiled()
        if compiled_train:  # the optimizer's state exists now: compile its steady state too
            run_compiled()
        _sync(torch)
        warm_graphs = rec.warm_graph_calls  # graphs per call (inference: one warm-up call)
        graph_breaks = break_reasons.graph_break_reasons(torch)
        # Eager code between graphs is recorded (the recording mode active around the
        # compiled callable; a training step's forward) only for a model Dynamo split.
        if compiled_train:
            tstep.between_graphs = tstep.between_graphs and bool(graph_breaks)
        elif between_graphs and (graph_breaks or warm_graphs != 1):
            # (no graph at all: Dynamo ran the whole frame eagerly, so every aten call of
            # the step is recorded as a library call)
            # A second warm-up under the mode (recording nothing), so that whatever Dynamo
            # compiles or guards under it happens before recording.
            record_between[0] = True
            before = rec.warm_graph_calls
            run_compiled(rec)
            _sync(torch)
            # Under the mode Dynamo may compile what it ran eagerly before: the recorded
            # run is held to this run's graph count.
            warm_graphs = rec.warm_graph_calls - before
        rec.mode = None
        timings["compile_and_first_run_s"] = round(time.time() - t0, 1)
        if (DEV == "cuda" or on_npusim) and (rec.warm_graph_calls == 0 or compiled_train):
            n = recorder.wrap_graph_instances()
            if rec.warm_graph_calls == 0:
                log(f"  CompiledFxGraph.__call__ was not used; wrapped current_callable of {n} graphs")
        log(f"  compiled and ran in {timings['compile_and_first_run_s']} s "
            f"({rec.warm_graph_calls} compiled graph call(s))")
        if compiled_train:
            for name, t, init, role in training.state_inits(torch, opt, params_by_id):
                known.add(name, t, init, role)

        # The same generated values again (the warm-up of --train updated the parameters).
        _fill(known.entries, seed)
        _sync(torch)

        # Eager reference on a deep copy.
        t0 = time.time()
        ref_model = copy.deepcopy(model)
        ref_ins = [t.clone() for t in ins]
        ref_targets = [t.clone() for t in targets]
        if compiled_train:
            state_e = []
            loss_e = training.eager_step(torch, ref_model, loss_of_output, split_call_args, ref_ins,
                                         ref_targets, opt_spec, warnings=rec.warnings, state=state_e)
            ref_named = ([("loss", loss_e)]
                         + [(f"updated.{n}", t) for n, t in ref_model.named_parameters()]
                         + [(f"updated.{n}", t) for n, t in ref_model.named_buffers()
                            if t.is_floating_point()] + state_e)
        elif train:
            step_e, flat_e = make_step(ref_model)
            loss_e = step_e(*(flat_e + ref_ins + ref_targets))
            ref_named = [("loss", loss_e)] + [
                (f"updated.{n}", t) for (n, _), t in zip(params, flat_e[:len(params)])]
        else:
            p_e, kw_e = split_call_args(ref_ins)
            with torch.no_grad():
                ref_named = flatten_outputs(ref_model(*p_e, **kw_e))
        _sync(torch)
        ref_values = [(n, t.detach().clone()) for n, t in ref_named]
        del ref_model, ref_named
        timings["eager_reference_s"] = round(time.time() - t0, 1)

        # The recorded run.
        t0 = time.time()
        buffers_before = [(n, b.detach().clone()) for n, b in float_buffers]
        rec.mode = "record"
        out = run_compiled(rec)
        _sync(torch)
        rec.mode = None
        timings["recorded_run_s"] = round(time.time() - t0, 1)
    finally:
        rec.mode = None
        recorder.CURRENT = None

    problems = list(rec.errors) + list(rec.storages.conflicts)
    if compiled_train:
        state = training.state_outputs(torch, opt, params_by_id)
        named = ([("loss", out.detach())] + [(f"updated.{n}", t) for n, t in params]
                 + [(f"updated.{n}", b) for n, b in float_buffers] + state)
        # A buffer no recorded step updates (a mutation applied outside the graphs), a
        # parameter the optimizer skipped (no gradient) and its state are no outputs.
        stale = {f"updated.{n}" for n, b in float_buffers + params
                 if not rec.storages.known(b) or rec.storages.ref(b)["storage"] not in rec.written}
        stale |= {n for n, t in state
                  if not rec.storages.known(t) or rec.storages.ref(t)["storage"] not in rec.written}
        for n in sorted(stale):
            rec.warnings.append(f"{n}: no recorded step writes it; not an output")
        problems += hidden_writes.unrecorded_updates(buffers_before, dict(float_buffers), stale)
        named = [x for x in named if x[0] not in stale]
        ref_values = [x for x in ref_values if x[0] not in stale]
    elif train:
        named = [("loss", out)] + [(f"updated.{n}", t) for (n, _), t in zip(params, flat[:len(params)])]
    else:
        named = flatten_outputs(out)

    # A step that draws random numbers (dropout: Inductor's seeds from aten.randint, masks
    # from tl.rand in kernels) cannot be reproduced by eager PyTorch, whose generator runs
    # differently: the reference values are then the compiled run's own.
    random_steps = [n for n, st in enumerate(rec.steps) if "values" in st]
    reference_from = "eager"
    if random_steps:
        reference_from = "compiled"
        rec.warnings.append(f"steps {random_steps[:8]} draw random numbers: the outputs' reference "
                            "values are the compiled run's")
        ref_values = [(n, t.detach().clone()) for n, t in named]

    # Completeness: each graph's straight-line wrapper launches each kernel as NAME.run(.
    for gi, g in enumerate(rec.graphs):
        src = g["source"]
        names = set(recorder.extract_kernels(src)) if src else set()
        counts = {k: len(re.findall(r"\b" + re.escape(k) + r"\.run\(", src)) for k in names}
        if not any(counts.values()):
            if names or g["launches"]:
                rec.warnings.append(f"graph {gi}: no NAME.run( in the output code: launch counts "
                                    "not checked")
            continue
        for kname, n_src in counts.items():
            if n_src != g["launches"].get(kname, 0):
                problems.append(f"graph {gi} ({g['region']}): kernel {kname}: "
                                f"{g['launches'].get(kname, 0)} launches recorded, {n_src} in the "
                                "output code")
    if compiled_train:
        regions = [g["region"] for g in rec.graphs]
        for want in ("forward", "backward", "optimizer"):
            if want not in regions and (want != "backward" or want_backward_graph):
                problems.append(f"no compiled {want} graph ran in the recorded step (graph calls: "
                                f"{regions})")
    elif warm_graphs > 1 and not between_graphs:
        problems.append(f"the model is {warm_graphs} compiled graphs (graph breaks: "
                        f"{'; '.join(graph_breaks) or 'reasons not reported'}), and the eager "
                        "code between them cannot be recorded: "
                        + ("NPUSIM_RECORD_BETWEEN_GRAPHS=0"
                           if os.environ.get("NPUSIM_RECORD_BETWEEN_GRAPHS") == "0" else
                           "this torch runs no dispatch mode through Dynamo (TorchDispatchMode "
                           "has no ignore_compile_internals)"))
    elif warm_graphs == 0 and not record_between[0]:
        problems.append("Dynamo compiled no graph of the model (" + break_reasons.no_graph_reasons(torch, model)
                        + "), and the eager step cannot be recorded as library calls: "
                        + ("NPUSIM_RECORD_BETWEEN_GRAPHS=0"
                           if os.environ.get("NPUSIM_RECORD_BETWEEN_GRAPHS") == "0" else
                           "this torch runs no dispatch mode through Dynamo"))
    elif warm_graphs == 0 and rec.graph_calls == 0:
        rec.warnings.append("Dynamo compiled no graph of the model (" + break_reasons.no_graph_reasons(torch, model)
                            + "): every aten call of the step is a library call")
    elif rec.graph_calls != max(1, warm_graphs):
        problems.append(f"{rec.graph_calls} compiled graph calls in the recorded step, "
                        f"{warm_graphs} in the warm-up run (graph breaks: "
                        f"{'; '.join(graph_breaks) or 'none reported'})")
    if on_npusim:
        problems += capture_cpu.npusim_capture_problems(rec)
    if [n for n, _ in named] != [n for n, _ in ref_values]:
        problems.append(f"compiled outputs {[n for n, _ in named]} != eager {[n for n, _ in ref_values]}")

    # Graph inputs: those no earlier recorded step wrote must be generated tensors.
    inputs_json = []
    regen_checked = 0
    size_input_values = []
    for n, t in enumerate(rec.graph_inputs or []):
        if size_inputs and isinstance(t, int) and not isinstance(t, bool):
            size_input_values.append([n, int(t)])
        elif not isinstance(t, torch.Tensor):
            problems.append(f"graph input {n} is not a tensor: {t!r}")
    for gi, n, t, snap in rec.fresh_inputs:
        if gi is None:
            where = n
        elif gi == 0:
            where = f"graph input {n}"
        else:
            where = f"input {n} of graph {gi} ({rec.graphs[gi]['region']})"
        e = known.lookup(t)
        if e is None:
            problems.append(f"{where} (shape {tuple(t.shape)}, {t.dtype}) is no parameter, buffer, "
                            "attribute, optimizer state or input of the model, and no earlier "
                            "recorded step wrote it")
            continue
        if e["tensor"].dtype != t.dtype:
            problems.append(f"{where} views {e['name']} as {t.dtype}")
            continue
        inputs_json.append({"name": e["name"], "tensor": rec.storages.ref(t, where),
                            "init": e["init"]})
        if not _regenerates(snap, e["init"], TORCH_TO_BUNDLE[t.dtype], seed):
            problems.append(f"{where} ({e['name']}) is not what its init regenerates")
        regen_checked += 1

    # Outputs.
    outputs_json = []
    checks = {}
    ref_files = {}
    depths, _ = bundle.storage_depths(rec.steps)  # 16-bit outputs: their rounding's allowance
    for (name, t), (_, r) in zip(named, ref_values):
        if not isinstance(t, torch.Tensor):
            continue
        if not rec.storages.known(t):
            problems.append(f"output {name} is on a storage no recorded step wrote")
            continue
        dtype = TORCH_TO_BUNDLE[t.dtype]
        o = {"name": name, "tensor": rec.storages.ref(t, f"output {name}")}
        rv = r.float() if r.dtype == torch.bfloat16 else r
        arr = np.array(rv.cpu().numpy(), order="C")  # keeps 0-d arrays 0-d
        if t.numel() <= bundle.REFERENCE_MAX_ELEMENTS:
            fname = f"reference/{_file_name(name)}.npy"
            ref_files[fname] = arr
            o["reference"] = fname
        o["fingerprint"] = bundle.fingerprint(arr, dtype)
        outputs_json.append(o)
        got_fp = recorder.tensor_fingerprint(t)
        ok, why = bundle.match_fingerprint(
            got_fp, o["fingerprint"],
            rounding=bundle.rounding_tolerance(dtype, depths[o["tensor"]["storage"]]))
        a = t.detach().double()
        b = r.detach().double().to(a.device)
        checks[name] = {"max_abs_diff": float((a - b).abs().max()) if a.numel() else 0.0,
                        "max_abs_ref": float(b.abs().max()) if b.numel() else 0.0,
                        "fingerprint_match": ok}
        if not ok:
            rec.warnings.append(f"compiled output {name} vs eager: {why}")

    # Written storages of the outputs that are graph inputs (--train): must be written by a step.
    input_sids = {i["tensor"]["storage"] for i in inputs_json}
    written = set(rec.written)  # also the arguments operators write unmarked (recorder.HIDDEN_WRITES)
    for s in rec.steps:
        if s["kind"] == "launch":
            written.update(s["args"][w]["tensor"]["storage"] for w in s["writes"])
        else:
            written.update(o["tensor"]["storage"] for o in s["out"])
    for o in outputs_json:
        sid = o["tensor"]["storage"]
        if sid in input_sids and sid not in written and o["name"].startswith("updated."):
            problems.append(f"output {o['name']}: its storage is a graph input no step writes")
    # Every storage a step reads must be an input or written by an earlier step (a graph
    # constant, for example, would not be).
    have = set(input_sids)
    for n, s in enumerate(rec.steps):
        if s["kind"] == "launch":
            # Read: the arguments not written, and the written in_out_ptr* arguments.
            reads = [a["tensor"]["storage"] for m, a in enumerate(s["args"])
                     if "tensor" in a and (m not in s["writes"] or _param_name(
                         rec.kernels[s["kernel"]], m).startswith("in_out_ptr"))]
            outs = [s["args"][w]["tensor"]["storage"] for w in s["writes"]]
        else:
            outs = [o["tensor"]["storage"] for o in s["out"]]
            reads = [r["tensor"]["storage"] for r in _arg_refs(s["args"])
                     if r["tensor"]["storage"] not in outs]
        for sid in reads:
            if sid not in have:
                rec.warnings.append(f"step {n} ({s.get('kernel') or s.get('op')}) may read storage "
                                    f"{sid}, which is no input and no earlier step wrote (an "
                                    "in_out_ptr the kernel writes before reading is harmless)")
                have.add(sid)
        have.update(outs)

    try:
        import triton

        triton_version = triton.__version__
    except Exception:  # noqa: BLE001
        triton_version = None
    timings["total_s"] = round(time.time() - t_start, 1)
    model_json = {
        "spec": spec, "train": bool(train), "templates": bool(templates),
        "torch": torch.__version__, "triton": triton_version,
        "device": torch.cuda.get_device_name(0) if DEV == "cuda" else DEV,
        "captured": datetime.date.today().isoformat(),
        "config": built.config,
        "inputs": {e["name"]: e["role"] for e in known.entries},
        "compiled_vs_eager": checks,
        "regenerated_inputs_checked": regen_checked,
        "reference_values": reference_from,
        "timings": timings,
        "fp32_precision": fp32_state,
    }
    if train:
        model_json["trace"] = trace
        model_json["optimizer"] = (opt_spec.describe() if compiled_train
                                   else {"name": "sgd", "lr": built.lr, "momentum": 0.0})
    if graph_breaks:
        model_json["graph_breaks"] = graph_breaks
    if size_input_values:
        model_json["size_inputs"] = size_input_values
    if len(rec.graphs) > 1:
        model_json["graphs"] = [{"region": g["region"], "first_step": g["first_step"],
                                 "steps": g["steps"]} for g in rec.graphs]
    if npu_json is not None:
        model_json["npu_config"] = npu_json
    if on_npusim:
        model_json["fingerprints"] = ("npusim's reference interpreter and host library "
                                      "(backend=\"npusim\", mode reference)")
    graph = {"format": "npusim-bundle", "version": 1, "model": model_json, "seed": int(seed),
             "storages": rec.storages.entries, "inputs": inputs_json, "steps": rec.steps,
             "outputs": outputs_json}
    if on_npusim:
        graph["fingerprint_source"] = "npusim-reference"

    # Debug record (not part of the bundle).
    if debug_dir:
        os.makedirs(debug_dir, exist_ok=True)
        for i, src in enumerate(rec.wrapper_sources):
            with open(os.path.join(debug_dir, f"output_code_{i}.py"), "w") as f:
                f.write(src)
        with open(os.path.join(debug_dir, "capture.json"), "w") as f:
            json.dump(bundle.sanitize({"problems": problems, "warnings": rec.warnings,
                                       "skipped_ops": dict(rec.skipped), "timings": timings,
                                       "checks": checks}), f, indent=1)

    # Write the bundle.
    os.makedirs(out_dir, exist_ok=True)
    for sub in ("kernels", "reference"):
        shutil.rmtree(os.path.join(out_dir, sub), ignore_errors=True)
    if os.path.exists(os.path.join(out_dir, "graph.json")):
        os.remove(os.path.join(out_dir, "graph.json"))
    os.makedirs(os.path.join(out_dir, "kernels"))
    for name, src in sorted(rec.kernels.items()):
        with open(os.path.join(out_dir, "kernels", name + ".py"), "w", encoding="utf-8", newline="") as f:
            f.write(src)
    if ref_files:
        os.makedirs(os.path.join(out_dir, "reference"))
        for fname, arr in ref_files.items():
            np.save(os.path.join(out_dir, fname), arr, allow_pickle=False)
    bundle.write_graph(os.path.join(out_dir, "graph.json"), graph)

    for w in rec.warnings[:50]:
        log(f"  warning: {w}")
    if problems:
        raise CaptureError("capture problems:\n  " + "\n  ".join(problems))
    errs = bundle.validate(out_dir)
    if errs:
        raise CaptureError("the bundle does not validate:\n  " + "\n  ".join(errs[:40]))
    if self_replay and on_npusim:
        capture_cpu.replay_on_npusim(out_dir, log)
    elif self_replay:
        self_replay_on_device(out_dir, log)
    return bundle.summary(out_dir)


def self_replay_on_device(out_dir, log, device=None):
    """Replays the bundle on the capturing device (npusim.replay: an Adam-family step's updates
    that rounding decides are judged by Adam's bound, docs/bundle-format.md "Optimizer steps")
    and raises CaptureError when a step's fingerprints or an output do not reproduce, or when a
    library call's fp32 results differ from the call computed again in float64 on the CPU."""
    from . import replay
    from .recorder import CaptureError

    device = device or DEV
    t0 = time.time()
    r = replay.replay(out_dir, log=log, device=device, check_wide=True)
    bad = r["fingerprint_mismatches"] + r["output_mismatches"] + r["wide_mismatches"]
    log(f"  self-replay on {device}: {r['steps']} steps, {len(bad)} mismatches "
        f"({len(r['wide_mismatches'])} of library calls against float64) ({time.time() - t0:.1f} s)")
    b = r.get("optimizer_bound")
    if b:
        rule = "AdamW" if b["optimizer"] == "adamw" else "Adam"
        log(f"  self-replay: {b['elements_within_rounding']} elements of {b['parameters_within_rounding']} "
            f"parameters judged by the {rule} bound: gradient within rounding of zero; "
            f"{b['eps_regime_elements']} within Adam's eps-regime allowance" + "".join(
                f"; {p['name']}: {p['within_rounding']}" for p in b["parameters"] if p["within_rounding"]))
    if bad:
        raise CaptureError("the bundle's own replay does not reproduce the capture, or its "
                           "library calls not in full fp32:\n  " + "\n  ".join(bad[:40]))
    return r


def on_device(torch):
    """The capturing device: NPUSIM_DEVICE where set, else "cuda" where torch sees a GPU,
    else "cpu" (sets DEV)."""
    global DEV
    if "NPUSIM_DEVICE" not in os.environ:
        DEV = "cuda" if torch.cuda.is_available() else "cpu"
    return DEV


def main(argv=None):
    ap = argparse.ArgumentParser(
        prog="python3 -m npusim.capture",
        description="Capture a PyTorch model compiled by TorchInductor into an npusim bundle.")
    ap.add_argument("spec", help="built-in model [,key=value...] or module.path:factory")
    ap.add_argument("out_dir")
    ap.add_argument("--templates", action="store_true",
                    help="max_autotune with Triton GEMM/convolution templates")
    ap.add_argument("--config", metavar="CFG",
                    help="with --templates: an NPU preset (configs/*.yaml); the GEMM and "
                         "convolution templates get block sizes for it (N on the lanes). "
                         "Default: Inductor's own choices")
    ap.add_argument("--train", action="store_true",
                    help="one training step: torch.compile'd forward and loss, backward, "
                         "compiled optimizer step")
    ap.add_argument("--optimizer", choices=("sgd", "adamw"), default="sgd",
                    help="with --train: SGD (momentum 0.9) or AdamW, lr 0.01")
    ap.add_argument("--trace", choices=("compile", "make_fx"), default="compile",
                    help="with --train: torch.compile as users write it (default), or the older "
                         "make_fx trace of the whole step")
    ap.add_argument("--no-self-replay", dest="self_replay", action="store_false",
                    help="do not replay the bundle on the capturing device afterwards")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--debug-dir", help="also write the output code and a capture record here")
    args = ap.parse_args(argv)
    if args.config and not args.templates:
        ap.error("--config needs --templates")
    setup_env()
    t0 = time.time()
    print(f"capture {args.spec} -> {args.out_dir} (templates={args.templates}, "
          f"train={args.train}, optimizer={args.optimizer}, trace={args.trace}, seed={args.seed}, "
          f"config={args.config})", flush=True)
    try:
        s = capture(args.spec, args.out_dir, templates=args.templates, train=args.train,
                    seed=args.seed, debug_dir=args.debug_dir, npu_config=args.config,
                    optimizer=args.optimizer, trace=args.trace, self_replay=args.self_replay,
                    log=lambda m: print(m, flush=True))
    except ImportError as e:  # a Python without torch or numpy: nothing to capture with
        print(f"error: a capture needs torch (>= 2.5, with Triton) and numpy in this Python "
              f"({sys.executable}): {e} (docs/python.md)", file=sys.stderr, flush=True)
        return 1
    except Exception as e:  # noqa: BLE001
        from .recorder import CaptureError

        if isinstance(e, CaptureError):  # a message that names the problem: no traceback
            print(f"error: {e}", file=sys.stderr, flush=True)
        else:
            traceback.print_exc()
        return 1
    print(json.dumps(s), flush=True)
    print(f"ok in {time.time() - t0:.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
