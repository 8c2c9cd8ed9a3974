"""The process environment a capture or a replay sets before torch is imported
(capture.py and replay.py both call ``setup_env``; neither imports the other)."""

import os
import tempfile


def setup_env():
    """Fresh Inductor/Triton caches (so that every kernel is compiled and written), no FX
    graph or AOT autograd cache. Must run before torch is imported."""
    if os.environ.get("NPUSIM_KEEP_CACHE") == "1":
        return
    cache = tempfile.mkdtemp(prefix="npusim_inductor_")
    os.environ["TORCHINDUCTOR_CACHE_DIR"] = cache
    os.environ["TRITON_CACHE_DIR"] = os.path.join(cache, "triton")
    os.environ["TORCHINDUCTOR_FX_GRAPH_CACHE"] = "0"
    os.environ["TORCHINDUCTOR_AUTOGRAD_CACHE"] = "0"
    os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")  # deterministic cuBLAS
