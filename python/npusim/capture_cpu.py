"""The capture without a GPU (docs/python.md): torch.compile through backend="npusim",
npusim's reference makes the fingerprints, npusim replays the bundle."""

import time


def npusim_compile(torch, log):
    """torch.compile through backend="npusim" in its reference mode: the capture without a
    GPU. Inductor writes Triton kernels for the CPU tensors (npusim's Triton "cpu"
    backend), npusim's reference interpreter runs them and its host library the library
    calls, so the fingerprints are npusim's (the bundle's fingerprint_source says so)."""
    import triton.backends
    from torch.utils._triton import has_triton

    from . import dynamo, triton_cpu

    registered = triton_cpu.register()
    dynamo.install_launch_hook()  # beneath the recorder's, which then records npusim's launches
    log("  no GPU: compiling with backend=\"npusim\" (mode reference); fingerprints from npusim's reference; "
        f"Triton backends {sorted(triton.backends.backends)} (cpu registered here: {registered}), "
        f"torch has_triton() {has_triton()}")

    def compile_fn(fn):  # the backend itself, not its name: no installed entry point needed
        return torch.compile(fn, dynamic=False, backend=dynamo.npusim_backend, options={"mode": "reference"})

    return compile_fn


def replay_on_npusim(out_dir, log):
    """The self-replay of a capture without a GPU: npusim runs the bundle in its functional
    mode (the NPU compiler's code, not the reference that made the fingerprints) and
    verifies every fingerprint and output (the outputs' references are eager PyTorch's)."""
    from . import api
    from .recorder import CaptureError

    t0 = time.time()
    try:
        report = api.run_bundle(out_dir, mode="functional", verify=True)
    except Exception as e:  # noqa: BLE001 - every failure of the run names its step
        raise CaptureError(f"npusim run {out_dir} --mode functional --verify fails: {type(e).__name__}: {e}")
    totals = report["totals"]
    log(f"  self-replay on npusim (functional, verify): {totals['steps_run']} steps, "
        f"{totals['fingerprints_compared']} fingerprints compared, {report['result']} ({time.time() - t0:.1f} s)")


def npusim_capture_problems(rec):
    """What a capture through backend="npusim" can get wrong: Inductor wrote C++ kernels
    for the CPU (its Triton "cpu" backend was not found), or its Triton kernels' launches
    were not recorded."""
    sources = "\n".join(rec.wrapper_sources)
    launches = sum(st["kind"] == "launch" for st in rec.steps)
    if launches:
        return []
    if "async_compile.cpp" in sources or "cpp_fused" in sources:
        return ["Inductor wrote C++ kernels (cpp_fused_*), not Triton: Triton has no \"cpu\" backend here "
                "(npusim.triton_cpu.register) or Inductor's cpu_backend is not \"triton\""]
    if "async_compile.triton" in sources:
        return [f"no launch recorded ({rec.graph_calls} graph calls, {len(rec.steps)} steps) although the "
                "output code has Triton kernels: their launches did not go through the recorder's "
                "CachingAutotuner.run hook"]
    return []
