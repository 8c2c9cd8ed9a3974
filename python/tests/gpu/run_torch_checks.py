"""Every torch-2.x-dependent check of the Python entry, in one run (python/README.md).

    OUT=/tmp/out python3 python/tests/gpu/run_torch_checks.py     # from the repository root

Builds npusim and its extension (build-gpu/, -DNPUSIM_PYTHON=ON, this Python), installs
the package with `pip install --no-build-isolation` into a scratch target (for the
entry point), then runs each check in a subprocess, once with the GPU visible and once
with CUDA_VISIBLE_DEVICES="", and writes $OUT/torch_checks.log (every command and its
output) and $OUT/torch_checks.json (one line per check: name, device, passed, seconds,
max difference from eager, cycles, the error's last line).
"""

import json
import os
import shutil
import subprocess
import sys
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
            "calls_on_host": sum(c["steps"][0].get("executed_on") == "host" for c in report["calls"]), "device": dev}


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


def check_triton_kernel():
    """examples/python/triton_kernel.py: a @triton.jit kernel through npusim.run_kernel."""
    out = subprocess.run([sys.executable, os.path.join(REPO, "examples", "python", "triton_kernel.py")],
                         capture_output=True, text=True, check=True).stdout
    print(out, file=sys.stderr)
    fields = dict(w.split("=", 1) for w in out.split() if "=" in w)
    return {"max_diff": float(fields["max_diff"]), "cycles": int(fields["cycles"]), "device": "npusim"}


def check_example(model):
    """examples/python/torch_compile.py --model MODEL, as a user runs it."""
    out = subprocess.run([sys.executable, os.path.join(REPO, "examples", "python", "torch_compile.py"), "--model",
                          model], capture_output=True, text=True, check=True).stdout
    print(out, file=sys.stderr)
    fields = dict(w.split("=", 1) for w in out.split() if "=" in w)
    return {"max_diff": float(fields["max_diff"]), "cycles": int(fields["cycles"]), "device": fields["device"]}


def check_capture_and_verify():
    """A capture made here, then `npusim run --verify` on it."""
    bundle = os.path.join(OUT, f"capture-mlp-{os.environ.get('CUDA_VISIBLE_DEVICES', 'gpu') or 'cpu'}")
    env = dict(os.environ, PYTHONPATH=os.path.join(REPO, "python"))
    import torch

    if not torch.cuda.is_available():
        env["NPUSIM_DEVICE"] = "cpu"
    subprocess.run([sys.executable, "-m", "npusim.capture", "mlp", bundle], env=env, check=True)
    run = subprocess.run([os.path.join(BUILD, "npusim"), "run", bundle, "--verify"], capture_output=True, text=True)
    print(run.stdout + run.stderr, file=sys.stderr)
    assert run.returncode == 0, run.stderr
    cycles = [w for w in run.stdout.split() if w.startswith("cycles=")]
    return {"max_diff": 0.0, "cycles": int(cycles[0].split("=")[1]) if cycles else 0, "device": "capture"}


CHECKS = {
    "forward_mlp": lambda: check_forward("mlp"),
    "forward_resnet18": lambda: check_forward("resnet18"),
    "forward_gpt2": lambda: check_forward("gpt2"),
    "train_mlp": check_train,
    "verify_option": check_verify_option,
    "entry_point": check_entry_point,
    "triton_kernel": check_triton_kernel,
    "example_resnet18": lambda: check_example("resnet18"),
    "example_gpt2": lambda: check_example("gpt2"),
    "capture_and_verify": check_capture_and_verify,
}


def child(name):
    start = time.time()
    result = CHECKS[name]()
    result["seconds"] = round(time.time() - start, 2)
    print("RESULT " + json.dumps(result))


# ---- the driver ------------------------------------------------------------------------

def sh(log, command, env=None, timeout=1800):
    log.write(f"\n$ {' '.join(command)}\n")
    log.flush()
    start = time.time()
    try:
        done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=REPO, timeout=timeout)
        output, rc = done.stdout + done.stderr, done.returncode
    except subprocess.TimeoutExpired as e:
        output, rc = f"{e.stdout or ''}{e.stderr or ''}\ntimed out after {timeout} s", 124
    log.write(output[-20000:] + f"\n[rc={rc}, {time.time() - start:.1f} s]\n")
    log.flush()
    return rc, output


def main():
    os.makedirs(OUT, exist_ok=True)
    results = []
    with open(os.path.join(OUT, "torch_checks.log"), "w") as log:
        sh(log, [sys.executable, "-c", "import torch, triton; print(torch.__version__, triton.__version__, "
                 "torch.cuda.is_available())"])
        jobs = str(os.cpu_count() or 4)
        sh(log, ["sh", "-c", "command -v cmake g++ ninja; ls /usr/include/yaml-cpp/yaml.h "
                 "/usr/include/nlohmann/json.hpp /usr/include/pybind11/pybind11.h"])
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
        rc, _ = sh(log, ["cmake", "--build", BUILD, "--target", "npusim", "npusim_python", "-j", jobs])
        if rc != 0:
            return 1
        sh(log, [sys.executable, "-m", "pip", "install", "--no-build-isolation", "--no-deps", "--target", SITE,
                 os.path.join(REPO, "python")], env=dict(os.environ, NPUSIM_PIP_BUILD_DIR=BUILD))
        env_base = dict(os.environ, NPUSIM_BUILD_DIR=BUILD, PYTHONPATH=SITE)
        sh(log, [sys.executable, "-m", "pytest", "-q", "python/tests"],
           env=dict(env_base, PYTHONPATH=os.path.join(REPO, "python")))
        for visible in (None, ""):
            env = dict(env_base)
            if visible is not None:
                env["CUDA_VISIBLE_DEVICES"] = visible
            for name in CHECKS:
                rc, output = sh(log, [sys.executable, os.path.abspath(__file__), "--check", name], env=env, timeout=900)
                line = [x for x in output.splitlines() if x.startswith("RESULT ")]
                result = json.loads(line[-1][7:]) if line else {}
                result.update(name=name, gpu_visible=visible is None,
                              passed=rc == 0 and result.get("max_diff", 1.0) <= TOLERANCE,
                              error="" if rc == 0 else (output.strip().splitlines() or ["?"])[-1][-300:])
                results.append(result)
                log.write("SUMMARY " + json.dumps(result) + "\n")
    with open(os.path.join(OUT, "torch_checks.json"), "w") as f:
        for r in results:
            f.write(json.dumps(r) + "\n")
    for r in results:
        print(f"{'PASS' if r['passed'] else 'FAIL'} {r['name']:<20} gpu_visible={r['gpu_visible']!s:<5} "
              f"max_diff={r.get('max_diff', '-')} cycles={r.get('cycles', '-')} {r['error']}")
    return 0 if all(r["passed"] for r in results) else 1


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--check":
        child(sys.argv[2])
    else:
        sys.exit(main())
