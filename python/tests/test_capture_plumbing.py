"""capture() end to end with a stand-in for torch.compile that runs the model eagerly
inside the recorder's graph hook (so every aten op is a library call), on the CPU: the
generator fill, the eager reference, input mapping and regeneration check, outputs,
bundle writing, validation and replay. Needs torch, not a GPU or Inductor."""

import json
import os
import subprocess
import sys

import pytest

torch = pytest.importorskip("torch")

PYDIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

SCRIPT = r'''
import json, sys, torch
if not hasattr(torch.Tensor, "untyped_storage"):  # very old torch
    def _us(self):
        s = self.storage()
        return s._untyped() if hasattr(s, "_untyped") else s._storage
    torch.Tensor.untyped_storage = _us
from npusim import capture, recorder, bundle, replay


class FakeGraph:
    pass


def fake_compile(fn):
    def call(*args, **kwargs):
        rec = recorder.CURRENT
        if rec is None:
            return fn(*args, **kwargs)
        ins = []
        if isinstance(fn, torch.nn.Module) and not isinstance(fn, torch.fx.GraphModule):
            ins += list(fn.parameters()) + list(fn.buffers())
        ins += [a for a in args if isinstance(a, torch.Tensor)]
        ins += [v for v in kwargs.values() if isinstance(v, torch.Tensor)]
        return rec.on_graph_call(FakeGraph(), ins, lambda g, i: fn(*args, **kwargs))
    return call


def fake_aot_compile(fn):
    """Like AOTAutograd: the loss function's forward and its backward are two graph calls
    (an autograd.Function whose backward is a second graph), other callables one."""
    if getattr(fn, "__name__", "") != "forward_loss":
        return fake_compile(fn)
    model = next(c.cell_contents for c in fn.__closure__
                 if isinstance(c.cell_contents, torch.nn.Module))
    params = list(model.parameters())
    if hasattr(torch, "func"):
        functional_call = torch.func.functional_call
    else:
        from torch.nn.utils.stateless import functional_call

    class Step(torch.autograd.Function):
        @staticmethod
        def forward(ctx, *flat):
            args = flat[len(params):]
            rec = recorder.CURRENT

            def run(g, i):
                with torch.enable_grad():
                    leaves = [p.detach().requires_grad_(True) for p in params]
                    state = dict(zip([n for n, _ in model.named_parameters()], leaves))
                    logits = functional_call(model, state, args[:1])
                    loss = torch.nn.functional.cross_entropy(logits, args[1])
                ctx.saved = (loss, leaves)
                return loss.detach()
            return rec.on_graph_call(FakeGraph(), list(flat), run) if rec else run(None, None)

        @staticmethod
        def backward(ctx, grad):
            loss, leaves = ctx.saved
            rec = recorder.CURRENT
            run = lambda g, i: torch.autograd.grad(loss, leaves, grad)
            grads = rec.on_graph_call(FakeGraph(), [grad], run) if rec else run(None, None)
            return tuple(grads) + (None,) * 2

    return lambda *args: Step.apply(*params, *args)


def fake_break_compile(model):
    """Like Dynamo at a graph break: the first layer of an nn.Sequential is one graph, its
    second layer runs eagerly, the rest is a second graph."""
    def graph(mods, x):
        rec = recorder.CURRENT
        run = lambda g, i: mods(x)
        ins = list(mods.parameters()) + [x]
        return rec.on_graph_call(FakeGraph(), ins, run) if rec else run(None, None)

    def call(x):
        return graph(model[2:], model[1](graph(model[:1], x)))
    return call


out, spec, train = sys.argv[1], sys.argv[2], sys.argv[3] not in ("0", "break", "eager")
if sys.argv[3] in ("break", "eager"):
    # "eager": like Dynamo when it compiles no graph of the frame (runs it all eagerly)
    compile_fn = fake_break_compile if sys.argv[3] == "break" else (lambda fn: fn)
    s = capture.capture(spec, out, seed=3, compile_fn=compile_fn, log=lambda m: None)
    print(json.dumps({"summary": s, "replay": replay.replay(out, device="cpu")}))
    sys.exit(0)
if sys.argv[3] == "aot-sgd":
    fake_compile_train, sys.argv[3] = fake_aot_compile, "sgd"
else:
    fake_compile_train = fake_compile
opts = dict(optimizer=sys.argv[3], trace="compile") if sys.argv[3] in ("sgd", "adamw") else \
    dict(trace="make_fx")
s = capture.capture(spec, out, train=train, seed=3, compile_fn=fake_compile_train,
                    log=lambda m: None, **opts)
r = replay.replay(out, device="cpu")
print(json.dumps({"summary": s, "replay": r}))
'''


# An MLP with dropout: in training its mask is random, so the bundle must carry it.
DROPOUT_MODEL = """
import torch.nn as nn
import torch.nn.functional as F
from npusim.models import Built, InputSpec


def build():
    model = nn.Sequential(nn.Linear(12, 16), nn.ReLU(), nn.Dropout(0.5), nn.Linear(16, 3))
    inputs = [InputSpec("x", (4, 12), "fp32", {"kind": "uniform", "low": -1.0, "high": 1.0}),
              InputSpec("labels", (4,), "i64", {"kind": "randint", "low": 0, "high": 3}, target=True)]
    return Built(model, inputs, loss=lambda out, y: F.cross_entropy(out, y))
"""


@pytest.mark.parametrize("spec,train", [("mlp,dims=12-8-3,batch=4", "0"),
                                        ("mlp,dims=12-8-3,batch=4", "make_fx"),
                                        ("mlp,dims=12-8-3,batch=4", "adamw"),
                                        ("cnn,batch=2,image=6,channels=2,classes=3", "sgd"),
                                        ("moe,vocab=40,dim=16,heads=2,ffn=8,seq=6", "0"),
                                        ("dropout_model:build", "sgd"),
                                        ("mlp,dims=12-8-3,batch=4", "aot-sgd"),
                                        ("mlp,dims=12-8-3,batch=4", "break")],
                         ids=["mlp", "mlp-train-make_fx", "mlp-train-adamw", "cnn-train-sgd", "moe",
                              "dropout-train", "mlp-train-two-graphs", "mlp-graph-break"])
def test_capture_plumbing(tmp_path, spec, train):
    import json

    out = str(tmp_path / "b")
    env = dict(os.environ, PYTHONPATH=PYDIR, NPUSIM_DEVICE="cpu", NPUSIM_KEEP_CACHE="1")
    if spec.startswith("dropout_model"):
        (tmp_path / "dropout_model.py").write_text(DROPOUT_MODEL)
        env["PYTHONPATH"] = PYDIR + os.pathsep + str(tmp_path)
    p = subprocess.run([sys.executable, "-c", SCRIPT, out, spec, train], env=env,
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    res = json.loads(p.stdout.strip().splitlines()[-1])
    assert res["replay"]["fingerprint_mismatches"] == [], res
    assert res["replay"]["output_mismatches"] == [], res
    s = res["summary"]
    assert s["calls"] > 0 and s["launches"] == 0
    from npusim import bundle

    g = bundle.load_graph(out)
    assert g["seed"] == 3
    assert g["model"]["regenerated_inputs_checked"] == len(g["inputs"])
    if train not in ("0", "break"):
        assert g["outputs"][0]["name"] == "loss"
        assert any(o["name"] == "updated.0.weight" for o in g["outputs"])
    if spec.startswith("dropout_model"):
        # The dropout step carries the mask it drew; the reference is the run's own.
        drops = [st for st in g["steps"] if st["kind"] == "call" and "values" in st]
        # (aten.native_dropout, or its bernoulli_ where torch decomposes it)
        assert drops and all(st["op"] in ("aten.native_dropout", "aten.bernoulli_.float")
                             for st in drops)
        assert g["model"]["reference_values"] == "compiled"
        mask = drops[0]["values"][-1]["data"]  # the keep mask, 0 or 1 per element
        assert set(mask) == {0, 1} and len(mask) == 64
        return
    if train == "break":
        # Two graphs with the eager ReLU between them as a library call.
        graphs = g["model"]["graphs"]
        assert len(graphs) == 2
        between = g["steps"][graphs[0]["first_step"] + graphs[0]["steps"]:graphs[1]["first_step"]]
        assert [st["op"] for st in between] == ["aten.relu"]
        assert res["replay"]["steps"] == len(g["steps"])
        return
    if train == "aot-sgd":
        # Forward graph, autograd's gradient of the loss (an eager call), the backward
        # graph, the optimizer; the backward reads the seed gradient the eager call wrote.
        graphs = g["model"]["graphs"]
        assert [x["region"] for x in graphs] == ["forward", "backward", "optimizer"]
        between = g["steps"][graphs[0]["first_step"] + graphs[0]["steps"]:graphs[1]["first_step"]]
        assert [st["op"] for st in between] == ["aten.ones_like"]
        return
    if train in ("sgd", "adamw"):
        assert g["model"]["optimizer"]["name"] == train
        assert [x["region"] for x in g["model"]["graphs"]] == ["forward", "optimizer"]
        names = {i["name"] for i in g["inputs"]}
        # The optimizer's state is generated (zeros): AdamW's moments and step counts,
        # SGD's momentum buffers.
        want = {"exp_avg", "exp_avg_sq", "step"} if train == "adamw" else {"momentum_buffer"}
        assert {n.rsplit(".", 1)[1] for n in names if n.startswith("optimizer.")} == want
        # ... and its state after the step is an output of the state's storage, with eager
        # PyTorch's values (an Adam step's first moment: another computation of it to measure
        # its rounding against).
        storage_of = {i["name"]: i["tensor"]["storage"] for i in g["inputs"]}
        state_outputs = {o["name"]: o["tensor"]["storage"] for o in g["outputs"]
                         if o["name"].startswith("updated.optimizer.")}
        assert state_outputs == {f"updated.{n}": storage_of[n] for n in names if n.startswith("optimizer.")}
        if train == "adamw":
            assert all(p["measured"] for p in res["replay"]["optimizer_bound"]["parameters"]), res
        # BatchNorm's running statistics are outputs when training: eager batch norm calls
        # native_batch_norm, whose schema does not mark them written (recorder.HIDDEN_WRITES).
        if spec.startswith("cnn"):
            stats = {o["name"] for o in g["outputs"]} & {"updated.1.running_mean", "updated.1.running_var"}
            assert stats == {"updated.1.running_mean", "updated.1.running_var"}, g["outputs"]
        # The optimizer moved every parameter and its state: each output is an input's storage.
        for o in g["outputs"][1:]:
            assert o["tensor"]["storage"] in {i["tensor"]["storage"] for i in g["inputs"]}


def test_graph_break_without_eager_recording_names_the_breaks(tmp_path):
    """With the recording between graphs turned off, a model of two graphs fails the
    capture with an error that says so."""
    env = dict(os.environ, PYTHONPATH=PYDIR, NPUSIM_DEVICE="cpu", NPUSIM_KEEP_CACHE="1",
               NPUSIM_RECORD_BETWEEN_GRAPHS="0")
    p = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path / "b"), "mlp,dims=12-8-3,batch=4",
                        "break"], env=env, capture_output=True, text=True, timeout=300)
    assert p.returncode != 0
    assert "the model is 2 compiled graphs (graph breaks:" in p.stderr, p.stderr[-2000:]
    assert "cannot be recorded: NPUSIM_RECORD_BETWEEN_GRAPHS=0" in p.stderr


def test_step_without_compiled_graph_is_recorded_as_library_calls(tmp_path):
    """A model Dynamo compiles nothing of (the whole frame eager) is captured with every
    aten call of the step as a library call, and its bundle replays."""
    env = dict(os.environ, PYTHONPATH=PYDIR, NPUSIM_DEVICE="cpu", NPUSIM_KEEP_CACHE="1")
    p = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path / "b"), "mlp,dims=12-8-3,batch=4",
                        "eager"], env=env, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr[-3000:]
    r = json.loads(p.stdout.strip().splitlines()[-1])
    assert r["summary"]["launches"] == 0
    # Linear, ReLU, Linear: two addmm (or mm + add) calls and the relu at least
    assert r["summary"]["calls"] >= 3
    assert not r["replay"]["fingerprint_mismatches"] and not r["replay"]["output_mismatches"]
    with open(tmp_path / "b" / "graph.json") as f:
        g = json.load(f)
    assert all(s["kind"] == "call" for s in g["steps"])
    assert [i["name"] for i in g["inputs"]].count("x") == 1


def test_step_without_compiled_graph_and_no_eager_recording_says_why(tmp_path):
    env = dict(os.environ, PYTHONPATH=PYDIR, NPUSIM_DEVICE="cpu", NPUSIM_KEEP_CACHE="1",
               NPUSIM_RECORD_BETWEEN_GRAPHS="0")
    p = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path / "b"), "mlp,dims=12-8-3,batch=4",
                        "eager"], env=env, capture_output=True, text=True, timeout=300)
    assert p.returncode != 0
    assert "Dynamo compiled no graph of the model (" in p.stderr, p.stderr[-2000:]
    assert "cannot be recorded as library calls: NPUSIM_RECORD_BETWEEN_GRAPHS=0" in p.stderr


def test_adamw_names_gradients_within_rounding_of_zero():
    """AdamW's first step turns a gradient of rounding size into a step of about lr: the
    reference step names the parameters that have such gradient elements."""
    from npusim import training

    model = torch.nn.Linear(3, 2)
    x = torch.ones(4, 3)
    warnings = []

    def loss_of_output(out):
        # The bias of output 1 gets a gradient of 1e-12 against 1 elsewhere.
        return out[:, 0].sum() + 1e-12 * out[:, 1].sum() / 4

    training.eager_step(torch, model, loss_of_output, lambda ins: (ins, {}), [x], [],
                        training.OptimizerSpec(name="adamw"), warnings=warnings)
    assert len(warnings) == 2 and "of weight" in warnings[0] and "of bias" in warnings[1], warnings
    assert warnings[1].startswith("AdamW: 1 of 2 gradient elements of bias")
    warnings.clear()
    training.eager_step(torch, torch.nn.Linear(3, 2), lambda out: out.sum(), lambda ins: (ins, {}),
                        [x], [], training.OptimizerSpec(name="adamw"), warnings=warnings)
    assert warnings == []


def test_a_capture_names_what_torch_lacks_for_inductor():
    # require_inductor reads only torch.__version__ (and imports triton): a stand-in
    # with an old version fails naming it, whatever torch this machine has.
    sys.path.insert(0, PYDIR)
    from types import SimpleNamespace

    from npusim.capture import require_inductor
    from npusim.recorder import CaptureError

    with pytest.raises(CaptureError, match=r"torch 1\.13\.0 is older than 2\.5"):
        require_inductor(SimpleNamespace(__version__="1.13.0"))
    try:
        import triton  # noqa: F401
        has_triton = True
    except ImportError:
        has_triton = False
    if has_triton:
        require_inductor(SimpleNamespace(__version__="2.11.0+cu128"))  # nothing missing
    else:
        with pytest.raises(CaptureError, match="the triton module is not installed") as caught:
            require_inductor(SimpleNamespace(__version__="2.11.0+cu128"))
        assert "older than" not in str(caught.value)


def test_the_capture_command_reports_a_missing_inductor_without_a_traceback(tmp_path):
    if tuple(int(p) for p in torch.__version__.split(".")[:2]) >= (2, 5):
        pytest.skip("this torch has Inductor: the capture would run")
    env = dict(os.environ, PYTHONPATH=PYDIR)
    r = subprocess.run([sys.executable, "-m", "npusim.capture", "mlp", str(tmp_path / "b")],
                       capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 1
    assert "error: a capture compiles the model with TorchInductor and Triton" in r.stderr
    assert "Traceback" not in r.stderr


def test_the_capture_command_names_a_missing_torch_without_a_traceback(tmp_path):
    # A Python without torch, as a user's default interpreter may be: torch is
    # made unimportable in the child (sys.modules[name] = None).
    env = dict(os.environ, PYTHONPATH=PYDIR)
    code = ("import sys; sys.modules['torch'] = None; from npusim import capture; "
            f"sys.exit(capture.main(['mlp', {str(tmp_path / 'b')!r}]))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 1
    assert "error: a capture needs torch (>= 2.5, with Triton) and numpy in this Python" in r.stderr
    assert "Traceback" not in r.stderr
