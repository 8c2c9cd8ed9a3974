"""Every torch-2.x-dependent check of the Python entry, in one run (python/README.md).

    OUT=/tmp/out python3 python/tests/gpu/run_torch_checks.py     # from the repository root

Builds npusim and its extension (build-gpu/, -DNPUSIM_PYTHON=ON, this Python), installs
the package with `pip install --no-build-isolation` into a scratch target (for the
entry points), logs the versions (pip show pybind11 numpy torch triton, torch's pybind11
ABI) and what `import npusim` loads, then runs python/tests and each check in its own
`python -X faulthandler` process, several at a time, once with the GPU visible and once
with CUDA_VISIBLE_DEVICES="". A check that dies of a signal runs once more under
`cuda-gdb -batch -ex run -ex bt`. Writes $OUT/torch_checks.log (every command and its
output), $OUT/torch_checks.json (one line per check: name, device, passed, rc, seconds,
max difference from eager, cycles, the crash's signal, the error's line) and
$OUT/summary.txt; the whole run stays within BUDGET_S.
"""

import concurrent.futures
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
OUT = os.environ.get("OUT") or os.path.join(REPO, "out", "torch-checks")
BUILD = os.path.join(REPO, "build-gpu")
SITE = os.path.join(OUT, "site")  # the pip-installed package
TOLERANCE = 1e-3  # fp32 kernels against eager, relative to the output's scale


# ---- the checks: each runs in its own process, prints one JSON line ------------------

def _compare(torch, eager, compiled):
    flat_e = [t for t in _tensors(eager)]
    flat_c = [t for t in _tensors(compiled)]
    assert len(flat_e) == len(flat_c), f"{len(flat_e)} eager outputs, {len(flat_c)} compiled"
    worst = 0.0
    for e, c in zip(flat_e, flat_c):
        e, c = e.detach().double().cpu(), c.detach().double().cpu()
        scale = max(1.0, e.abs().max().item())
        worst = max(worst, (e - c).abs().max().item() / scale)
    return worst


def _tensors(value):
    import torch

    if isinstance(value, torch.Tensor):
        yield value
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _tensors(v)
    elif isinstance(value, dict):
        for v in value.values():
            yield from _tensors(v)
    elif hasattr(value, "to_tuple"):
        yield from _tensors(value.to_tuple())


def _device(torch):
    return "cuda" if torch.cuda.is_available() else "cpu"


def _model(name, torch):
    torch.manual_seed(0)
    if name == "mlp":
        model = torch.nn.Sequential(torch.nn.Linear(784, 256), torch.nn.ReLU(), torch.nn.Linear(256, 10))
        return model, (torch.randn(16, 784),)
    if name == "resnet18":
        import torchvision

        return torchvision.models.resnet18(), (torch.randn(1, 3, 224, 224),)
    if name == "gpt2":
        import transformers

        config = transformers.GPT2Config(n_layer=2, n_embd=768, n_head=12, vocab_size=50257, n_positions=64)
        return transformers.GPT2LMHeadModel(config), (torch.randint(0, 50257, (1, 32)),)
    raise ValueError(name)


def check_forward(name):
    import torch

    import npusim

    dev = _device(torch)
    model, inputs = _model(name, torch)
    model = model.to(dev).eval()
    inputs = tuple(i.to(dev) for i in inputs)
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    with torch.no_grad():
        eager = model(*inputs)
        compiled = torch.compile(model, backend="npusim", options={"mode": "full"})(*inputs)
    report = npusim.last_report()
    return {"max_diff": _compare(torch, eager, compiled), "cycles": report["cycles"],
            "kernels_run": report["kernels_run"], "calls_run": report["calls_run"],
            "calls_on_host": sum(c["steps"][0].get("executed_on") == "host" for c in report["calls"]), "device": dev,
            "calls_by_op": _ops(report)["calls_on_npusim"], "fallbacks": report.get("fallbacks")}


def check_train():
    import torch

    import npusim

    dev = _device(torch)
    model, (x,) = _model("mlp", torch)
    model = model.to(dev)
    x = x.to(dev)
    target = torch.randint(0, 10, (16,), device=dev)
    reference = __import__("copy").deepcopy(model)

    def step(m, opt):
        opt.zero_grad()
        loss = torch.nn.functional.cross_entropy(m(x), target)
        loss.backward()
        opt.step()
        return loss

    eager_loss = step(reference, torch.optim.SGD(reference.parameters(), lr=0.01))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    compiled_step = torch.compile(lambda: step(model, opt), backend="npusim", options={"mode": "functional"})
    loss = compiled_step()
    diffs = [_compare(torch, p.detach(), q.detach()) for p, q in zip(reference.parameters(), model.parameters())]
    return {"max_diff": max(diffs + [_compare(torch, eager_loss, loss)]), "cycles": 0, "device": dev,
            "kernels_run": npusim.last_report()["kernels_run"]}


def check_verify_option():
    import torch

    import npusim

    dev = _device(torch)
    model, (x,) = _model("mlp", torch)
    model = model.to(dev).eval()
    with torch.no_grad():
        out = torch.compile(model, backend="npusim", options={"mode": "full", "verify": True})(x.to(dev))
        eager = model(x.to(dev))
    launches = npusim.last_report()["launches"]
    assert all(r.get("reference_check") == "matches the reference" for r in launches), launches
    return {"max_diff": _compare(torch, eager, out), "cycles": npusim.last_report()["cycles"], "device": dev}


def check_entry_point():
    """backend="npusim" without importing npusim: the torch_dynamo_backends entry point."""
    from importlib.metadata import entry_points

    import torch

    found = [ep.value for ep in entry_points(group="torch_dynamo_backends") if ep.name == "npusim"]
    assert found == ["npusim.dynamo:npusim_backend"], found
    from torch._dynamo import list_backends

    assert "npusim" in list_backends(exclude_tags=()), list_backends(exclude_tags=())
    f = torch.compile(lambda a: (a * 2).sin(), backend="npusim")
    a = torch.randn(1000, device=_device(torch))
    return {"max_diff": (f(a) - (a * 2).sin()).abs().max().item(), "cycles": 0, "device": _device(torch)}


def _ops(report):
    """What ran where: the library calls npusim ran (op -> count) and the fallbacks."""
    ran = {}
    for call in report["calls"]:
        ran[call["op"]] = ran.get(call["op"], 0) + 1
    return {"calls_on_npusim": ran, "fallbacks": report.get("fallbacks", "MISSING: no 'fallbacks' key"),
            "kernels_run": report["kernels_run"]}


def check_library_calls():
    """Calls with several results (sort, topk, max with indices, attention with its
    log-sum-exp, batch norm in training with its running statistics) and in-place
    updates of graph inputs under torch.compile(backend="npusim"), each part compiled on
    its own (one failing part does not hide the others): results, running statistics
    and the mutated input match eager; every aten call the dispatch mode saw either ran
    on npusim (report "calls") or is reported as a fallback ("fallbacks": op, reason,
    count). Prints per part what ran where."""
    import copy
    import traceback

    import torch

    import npusim
    from npusim import torch_calls

    dev = _device(torch)
    torch.manual_seed(0)
    x = torch.randn(4, 64, device=dev)
    q = torch.randn(1, 2, 16, 8, device=dev)
    seen = []
    original = torch_calls.library_call

    def counted(func, args, kwargs):
        seen.append(str(func))
        return original(func, args, kwargs)

    torch_calls.library_call = counted

    wide = torch.randn(4, 3000, device=dev)  # rows too long for Inductor's Triton sort: aten.sort

    def sort_topk_max(x):
        values, indices = torch.sort(wide, dim=1, stable=True)
        top, top_at = torch.topk(x, 5, dim=1)
        largest, largest_at = torch.max(x, dim=1)
        return values, indices, top, top_at, largest, largest_at

    def attention(q):
        return torch.nn.functional.scaled_dot_product_attention(q, q * 0.5, q + 1.0)

    bn = torch.nn.BatchNorm1d(64).to(dev).train()
    bn_eager = copy.deepcopy(bn)

    def in_place(buf, x):
        buf.add_(x)
        buf.mul_(2.0)
        return buf.sum()

    parts = {}

    def part(name, run):
        seen.clear()
        try:
            diffs = run()
            report = npusim.last_report()
            accounted = len(report["calls"]) + report.get("fallbacks_run", 0)
            entry = {"max_diff": max(diffs.values()), "diffs": diffs, **_ops(report), "cycles": report["cycles"]}
            if accounted != len(seen):
                entry["error"] = f"{len(seen)} aten calls seen, {accounted} in the report: {seen}"
        except Exception as e:  # noqa: BLE001 - each part's failure is a result
            traceback.print_exc()
            entry = {"error": f"{type(e).__name__}: {e}"[:1500], "max_diff": 1.0}
        print(f"part {name}: {json.dumps(entry)}", flush=True)
        parts[name] = entry

    compiled = torch.compile(sort_topk_max, backend="npusim", options={"mode": "full"})
    part("sort_topk_max", lambda: {"results": _compare(torch, sort_topk_max(x), compiled(x))})
    compiled = torch.compile(attention, backend="npusim", options={"mode": "full"})
    part("attention", lambda: {"results": _compare(torch, attention(q), compiled(q))})

    def batch_norm():
        eager = bn_eager(x)
        out = torch.compile(bn, backend="npusim", options={"mode": "full"})(x)
        return {"results": _compare(torch, eager, out),
                "running_mean": _compare(torch, bn_eager.running_mean, bn.running_mean),
                "running_var": _compare(torch, bn_eager.running_var, bn.running_var)}

    part("batch_norm_train", batch_norm)

    def mutated_input():
        buf_eager, buf = torch.ones(4, 64, device=dev), torch.ones(4, 64, device=dev)
        total_eager = in_place(buf_eager, x)
        total = torch.compile(in_place, backend="npusim", options={"mode": "full"})(buf, x)
        return {"input": _compare(torch, buf_eager, buf), "sum": _compare(torch, total_eager, total)}

    part("in_place", mutated_input)
    failed = {k: v["error"] for k, v in parts.items() if "error" in v}
    if failed:
        raise AssertionError(f"parts failed: {json.dumps(failed)}")
    return {"max_diff": max(v["max_diff"] for v in parts.values()), "parts": parts, "device": dev,
            "cycles": sum(v.get("cycles", 0) for v in parts.values())}


def _outcome(action):
    """What `action()` gives, or the first line of the error it raises (a fact to log)."""
    try:
        return {"ok": repr(action())[:200]}
    except Exception as e:  # noqa: BLE001 - every failure is a fact this probe records
        return {"error": f"{type(e).__name__}: {(str(e).splitlines() or [''])[0][:300]}"}


def check_privateuse1_probe():
    """What torch offers a Python-only PrivateUse1 `npu` device (docs/python.md, "A PrivateUse1
    device"). Asserts the Python registration works; records what an `npu` tensor, eager ops
    and Inductor do without a C++ extension."""
    import torch
    from torch.utils import backend_registration

    setup = getattr(backend_registration, "_setup_privateuseone_for_python_backend", None)
    assert setup is not None, "torch.utils.backend_registration has no _setup_privateuseone_for_python_backend"
    setup("npu")
    assert torch.device("npu").type == "npu", torch.device("npu")
    assert torch._C._get_privateuse1_backend_name() == "npu", torch._C._get_privateuse1_backend_name()
    facts = {"torch": torch.__version__}
    empty = torch._C._acc.create_empty_tensor((2, 3), torch.float32)
    facts["create_empty_tensor"] = {"device": str(empty.device), "shape": list(empty.shape),
                                    "storage_nbytes": _outcome(lambda: empty.untyped_storage().nbytes()),
                                    "data_ptr": _outcome(empty.data_ptr)}
    facts["host_to_npu_copy"] = _outcome(lambda: torch.ones(2, 3).to("npu"))
    facts["empty_on_npu"] = _outcome(lambda: torch.empty(2, 3, device="npu"))
    facts["add_on_npu"] = _outcome(lambda: empty + empty)
    from torch._inductor.codegen import common as codegen_common

    facts["inductor_scheduling_for_npu"] = _outcome(lambda: codegen_common.get_scheduling_for_device("npu"))
    facts["inductor_wrapper_codegen_for_npu"] = _outcome(lambda: codegen_common.get_wrapper_codegen_for_device("npu"))
    from torch._dynamo import device_interface

    facts["dynamo_device_interface_for_npu"] = _outcome(lambda: device_interface.get_interface_for_device("npu"))
    facts["compile_on_npu"] = _outcome(lambda: torch.compile(lambda a: a * 2, backend="npusim")(empty))
    return {"max_diff": 0.0, "cycles": 0, "facts": facts}


CHECKS = {
    "forward_mlp": lambda: check_forward("mlp"),
    "forward_resnet18": lambda: check_forward("resnet18"),
    "forward_gpt2": lambda: check_forward("gpt2"),
    "train_mlp": check_train,
    "verify_option": check_verify_option,
    "entry_point": check_entry_point,
    "library_calls": check_library_calls,
    "privateuse1_probe": check_privateuse1_probe,
}


def child(name):
    start = time.time()
    result = CHECKS[name]()
    result["seconds"] = round(time.time() - start, 2)
    print("RESULT " + json.dumps(result))


# ---- the driver ------------------------------------------------------------------------
# One run on the GPU machine answers every question within BUDGET_S: the checks run
# several at a time, every Python under -X faulthandler (its traceback names the Python
# frame of a crash), and a check that dies of a signal runs once more under cuda-gdb,
# whose backtrace names the C++ frame.

BUDGET_S = 470  # the whole run, the build included
CHECK_TIMEOUT_S = 320  # python/tests took 283 s beside the other checks
DEBUG_TIMEOUT_S = 170
WORKERS = 5
T0 = time.time()
_log_lock = threading.Lock()


def _left():
    return BUDGET_S - (time.time() - T0)


def _text(value):
    return value.decode(errors="replace") if isinstance(value, bytes) else (value or "")


def sh(log, command, env=None, timeout=600):
    """Runs `command` (stdout and stderr in one stream, in order) and writes the command
    and its output to the log in one piece. Returns (rc, output)."""
    timeout = max(5.0, min(timeout, _left()))
    start = time.time()
    try:
        done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
                              cwd=REPO, timeout=timeout)
        output, rc = done.stdout, done.returncode
    except subprocess.TimeoutExpired as e:
        output, rc = _text(e.stdout) + f"\ntimed out after {timeout:.0f} s", 124
    shown = output if len(output) <= 40000 else output[:8000] + "\n[...]\n" + output[-30000:]
    with _log_lock:
        log.write(f"\n$ {shlex.join(command)}\n{shown}\n[rc={rc}, {time.time() - start:.1f} s, "
                  f"at {time.time() - T0:.0f} s]\n")
        log.flush()
    return rc, output


def _crashed(rc):
    return rc < 0 or rc in (128 + signal.SIGSEGV, 128 + signal.SIGABRT, 128 + signal.SIGBUS)


def _error_line(output):
    """The line that says what went wrong: the fatal error, the exception or the last line."""
    lines = [x for x in output.strip().splitlines() if x.strip()]
    for pattern in ("Fatal Python error", "free(): ", "double free"):
        hits = [x for x in lines if pattern in x]
        if hits:
            return hits[-1][-300:]
    errors = [x for x in lines if re.search(r"(Error|error:|Exception|assert)", x)]
    return (errors or lines or ["?"])[-1][-300:]


def _python(*args):
    return [sys.executable, "-X", "faulthandler", *args]


def _debug(log, command, env):
    """The crashing command once more under cuda-gdb (it debugs host code): a C++ backtrace."""
    gdb = shutil.which("cuda-gdb")
    if gdb is None or _left() < 60:
        with _log_lock:
            log.write(f"\n(no debugger rerun of {shlex.join(command)}: "
                      f"{'no cuda-gdb' if gdb is None else 'out of time'})\n")
        return
    sh(log, [gdb, "-batch", "-nx", "-ex", "set pagination off", "-ex", "set print thread-events off",
             "-ex", "run", "-ex", "bt", "--args", *command], env=env,
       timeout=DEBUG_TIMEOUT_S)


def _fields(output, marker):
    """key=value words of the last output line holding `marker`."""
    lines = [x for x in output.splitlines() if marker in x]
    return dict(w.split("=", 1) for w in lines[-1].split() if "=" in w) if lines else {}


def _jobs(env_base):
    """(name, gpu_visible, command, env, parse): the quick and telling ones first."""
    source_env = dict(env_base, PYTHONPATH=os.path.join(REPO, "python"))
    jobs = [("pytest", True, _python("-m", "pytest", "-q", "-p", "no:cacheprovider", "python/tests"),
             source_env, lambda out, rc: {"summary": (out.strip().splitlines() or ["?"])[-1]})]
    # The BatchNorm training capture with the eager stand-in (running statistics as outputs).
    jobs.append(("plumbing_cnn_train", True, _python("-m", "pytest", "-q", "-p", "no:cacheprovider",
                                                     "python/tests/test_capture_plumbing.py", "-k", "cnn-train-sgd"),
                 source_env, lambda out, rc: {"summary": (out.strip().splitlines() or ["?"])[-1],
                                              "max_diff": 0.0 if rc == 0 else 1.0}))
    # Captures without a GPU (backend="npusim", fingerprints from npusim's reference), then
    # `npusim run --mode full --verify` on the bundle.
    for name, extra in (("capture_cpu_and_verify", []), ("capture_cpu_train", ["--train"])):
        env = dict(env_base, PYTHONPATH=os.path.join(REPO, "python"), CUDA_VISIBLE_DEVICES="")
        bundle = os.path.join(OUT, name)
        command = _python("-m", "npusim.capture", "mlp", bundle, *extra, "--debug-dir", bundle + "-debug")
        jobs.append((name, False, command, env, _capture_verifier(bundle, "full", "npusim-reference")))
    order = ["triton_kernel", "capture_and_verify", "library_calls", "forward_mlp", "train_mlp", "entry_point",
             "verify_option", "privateuse1_probe", "forward_resnet18", "forward_gpt2", "example_resnet18", "example_gpt2"]
    for name in order:
        for visible in (True, False):
            if name == "capture_and_verify" and not visible:
                continue  # capture_cpu_and_verify
            env = dict(env_base)
            if not visible:
                env["CUDA_VISIBLE_DEVICES"] = ""
            if name == "triton_kernel":
                command = _python(os.path.join(REPO, "examples", "python", "triton_kernel.py"))
                parse = _parse_example
            elif name.startswith("example_"):
                command = _python(os.path.join(REPO, "examples", "python", "torch_compile.py"), "--model",
                                  name.split("_", 1)[1])
                parse = _parse_example
            elif name == "capture_and_verify":
                # the capture tool as it was used before the package existed: from the checkout
                env = dict(env, PYTHONPATH=os.path.join(REPO, "python"))
                bundle = os.path.join(OUT, "capture-mlp-gpu")
                command = _python("-m", "npusim.capture", "mlp", bundle)
                parse = _capture_verifier(bundle, "full", "device")
            else:
                command = _python(os.path.abspath(__file__), "--check", name)
                parse = _parse_child
            jobs.append((name, visible, command, env, parse))
    return jobs


def _parse_child(output, rc):
    lines = [x for x in output.splitlines() if x.startswith("RESULT ")]
    return json.loads(lines[-1][7:]) if lines else {}


def _parse_example(output, rc):
    fields = _fields(output, "max_diff=")
    result = {k: fields[k] for k in ("device", "kernel") if k in fields}
    if "max_diff" in fields:
        result["max_diff"] = float(fields["max_diff"])
    if "cycles" in fields:
        result["cycles"] = int(fields["cycles"])
    return result


def _capture_verifier(bundle, mode, fingerprint_source):
    """After the capture: what the bundle holds (launches, calls, fingerprint_source, the
    capture's own warnings), then `npusim run BUNDLE --mode MODE --verify` on it. Every
    failure says which of the two failed and why (the tails of their outputs)."""
    def parse(output, rc):
        tail = "\n".join(output.strip().splitlines()[-25:])
        if rc != 0:
            return {"failed": f"the capture exited {rc}: {_error_line(output)}", "capture_tail": tail}
        with open(os.path.join(bundle, "graph.json")) as f:
            graph = json.load(f)
        steps = graph["steps"]
        result = {"launches": sum(st["kind"] == "launch" for st in steps),
                  "calls": sorted({st["op"] for st in steps if st["kind"] == "call"}),
                  "fingerprint_source": graph.get("fingerprint_source", "device (absent)"),
                  "capture_warnings": [x.strip() for x in output.splitlines() if "warning:" in x][:20]}
        command = [os.path.join(BUILD, "npusim"), "run", bundle, "--mode", mode, "--verify"]
        run = subprocess.run(command, capture_output=True, text=True, timeout=150)
        cycles = [w for w in run.stdout.split() if w.startswith("cycles=")]
        result.update(verify_command=shlex.join(command), verify_rc=run.returncode,
                      verify_output=(run.stdout + run.stderr)[-1500:],
                      cycles=int(cycles[0].split("=")[1].replace(",", "")) if cycles else 0)
        problems = []
        if run.returncode != 0:
            problems.append(f"`{shlex.join(command)}` exited {run.returncode}")
        if result["fingerprint_source"] != fingerprint_source and not (
                fingerprint_source == "device" and "fingerprint_source" not in graph):
            problems.append(f"fingerprint_source {result['fingerprint_source']!r}, want {fingerprint_source!r}")
        if result["launches"] == 0:
            problems.append("no launch recorded")
        result["failed"] = "; ".join(problems)
        result["max_diff"] = 1.0 if problems else 0.0
        return result

    return parse


def _run_job(log, job):
    name, visible, command, env, parse = job
    if _left() < 25:
        return {"name": name, "gpu_visible": visible, "passed": False, "error": "not run: out of time"}
    start = time.time()
    rc, output = sh(log, command, env=env, timeout=CHECK_TIMEOUT_S)
    try:
        result = parse(output, rc)
    except Exception as e:  # noqa: BLE001 - a parse failure is a result too
        result = {"parse_error": repr(e)}
    result.update(name=name, gpu_visible=visible, rc=rc, seconds=round(time.time() - start, 1))
    result["passed"] = rc == 0 and result.get("max_diff", 0.0 if name == "pytest" else 1.0) <= TOLERANCE
    result["error"] = "" if result["passed"] else (result.get("failed") or _error_line(output))
    if _crashed(rc):
        result["crash"] = f"signal {-rc if rc < 0 else rc - 128}"
        _debug(log, command, env)
    with _log_lock:
        log.write("SUMMARY " + json.dumps(result) + "\n")
    return result


PROBE = """
import sys
import npusim
print("after import npusim: npusim._native loaded:", "npusim._native" in sys.modules)
import torch, triton, numpy
print("torch", torch.__version__, "triton", triton.__version__, "numpy", numpy.__version__,
      "cuda", torch.cuda.is_available())
print("torch's pybind11:", getattr(torch._C, "_PYBIND11_COMPILER_TYPE", "?"),
      getattr(torch._C, "_PYBIND11_STDLIB", "?"), getattr(torch._C, "_PYBIND11_BUILD_ABI", "?"))
try:
    import pybind11
    print("pip pybind11", pybind11.__version__)
except ImportError:
    print("no pip pybind11")
import triton.backends
print("triton backends:", sorted(triton.backends.backends))
print("after triton's backends: npusim._native loaded:", "npusim._native" in sys.modules)
print("presets:", npusim.presets())
print("after presets(): npusim._native loaded:", "npusim._native" in sys.modules)
print("native loaded from", sys.modules["npusim._native"].__file__)
"""


def main():
    os.makedirs(OUT, exist_ok=True)
    results = []
    with open(os.path.join(OUT, "torch_checks.log"), "w") as log:
        sh(log, [sys.executable, "-m", "pip", "show", "pybind11", "numpy", "torch", "triton"])
        sh(log, ["sh", "-c", "command -v cmake g++ ninja cuda-gdb; g++ --version | head -1; "
                 "cuda-gdb --version | head -2; ls /usr/include/yaml-cpp/yaml.h /usr/include/nlohmann/json.hpp"])
        configure = ["cmake", "-S", REPO, "-B", BUILD, "-DCMAKE_BUILD_TYPE=Release", "-DNPUSIM_PYTHON=ON",
                     "-DNPUSIM_TESTS=OFF", "-DNPUSIM_BENCH=OFF", f"-DPython_EXECUTABLE={sys.executable}"]
        if shutil.which("ninja"):
            configure += ["-G", "Ninja"]
        try:  # pip's pybind11, where Debian's pybind11-dev is missing
            import pybind11

            configure.append(f"-Dpybind11_DIR={pybind11.get_cmake_dir()}")
        except ImportError:
            pass
        sh(log, configure)
        rc, _ = sh(log, ["cmake", "--build", BUILD, "--target", "npusim", "npusim_python", "-j",
                         str(os.cpu_count() or 4)])
        if rc != 0:
            return 1
        sh(log, ["sh", "-c", f"ldd {BUILD}/python/npusim/_native*.so; echo exported symbols: "
                 f"$(nm -D --defined-only {BUILD}/python/npusim/_native*.so | wc -l)"])
        sh(log, [sys.executable, "-m", "pip", "install", "--no-build-isolation", "--no-deps", "--target", SITE,
                 os.path.join(REPO, "python")], env=dict(os.environ, NPUSIM_PIP_BUILD_DIR=BUILD))
        # One compile thread: no worker processes, so a crash is in the process the
        # debugger runs; PYTHONFAULTHANDLER for the processes the checks start.
        env_base = dict(os.environ, NPUSIM_BUILD_DIR=BUILD, PYTHONPATH=SITE, PYTHONFAULTHANDLER="1",
                        TORCHINDUCTOR_COMPILE_THREADS="1")
        rc, _ = sh(log, _python("-c", PROBE), env=env_base, timeout=120)
        if _crashed(rc):
            _debug(log, _python("-c", PROBE), env_base)
        with concurrent.futures.ThreadPoolExecutor(WORKERS) as pool:
            results = list(pool.map(lambda job: _run_job(log, job), _jobs(env_base)))
        log.write(f"\n[total {time.time() - T0:.0f} s]\n")
    with open(os.path.join(OUT, "torch_checks.json"), "w") as f:
        for r in results:
            f.write(json.dumps(r) + "\n")
    lines = [f"{'PASS' if r['passed'] else 'FAIL'} {r['name']:<20} gpu_visible={r['gpu_visible']!s:<5} "
             f"rc={r.get('rc', '-')} {r.get('seconds', '-')}s max_diff={r.get('max_diff', '-')} "
             f"cycles={r.get('cycles', '-')} {r.get('crash', '')} {r['error']}" for r in results]
    lines.append(f"total {time.time() - T0:.0f} s")
    with open(os.path.join(OUT, "summary.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0 if all(r["passed"] for r in results) else 1


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--check":
        child(sys.argv[2])
    else:
        sys.exit(main())
