#!/usr/bin/env python3
"""Capture the Triton kernels that TorchInductor writes, as a front-end test corpus.

For each configuration (a small model or a small function) a separate Python
process runs ``torch.compile`` on CUDA with Inductor, with its own fresh
``TORCHINDUCTOR_CACHE_DIR`` and the FX graph / AOT autograd caches disabled.
After the process ends, the parent walks that cache directory for the output
code modules Inductor generated (the wrappers), and takes out every kernel that
they define as ``async_compile.triton('NAME', '''SOURCE''', device_str=...)``.
SOURCE is saved unchanged as ``<config>/<NAME>.py``: it is the exact string that
Inductor hands to Triton.

Usage (needs torch >= 2.5 with CUDA and Triton; torchvision and transformers for
the model configurations):

    python3 python/tools/capture_kernel_corpus.py --out tests/data/inductor_kernels

Re-assemble the corpus from a previous run's work directory (no torch needed):

    python3 python/tools/capture_kernel_corpus.py --assemble-only --work DIR --out DIR

Each configuration is independent: one that fails (missing module, API change,
compile error) is reported, the kernels it had already produced are kept, and
the others go on. Identical kernel sources are kept once, in the first
configuration (in the order of CONFIGS) that produced them.
"""

import argparse
import ast
import collections
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback

DEV = "cuda"
KINDS = ("triton_poi_", "triton_red_", "triton_per_", "triton_tem_", "triton_for_")

# --------------------------------------------------------------------------------------
# Configurations (run in the worker process; torch is imported there only)
# --------------------------------------------------------------------------------------


def _set_cfg(name, value):
    import torch._inductor.config as cfg

    *outer, name = name.split(".")
    for o in outer:
        cfg = getattr(cfg, o, None)
    if cfg is not None and hasattr(cfg, name):
        setattr(cfg, name, value)
        print(f"  inductor config {name} = {value!r}")
    else:
        print(f"  inductor config {name} does not exist in this torch; skipped")


def _autotune():
    _set_cfg("max_autotune", True)
    _set_cfg("max_autotune_gemm_backends", "TRITON")
    _set_cfg("max_autotune_conv_backends", "TRITON")
    # Epilogue-fusion benchmarking renders extra benchmark-only kernels and takes time.
    _set_cfg("benchmark_epilogue_fusion", False)


def _compile(fn):
    import torch

    return torch.compile(fn, dynamic=False)


def _vision(name, shape):
    import torch
    import torchvision

    m = getattr(torchvision.models, name)(weights=None).eval().to(DEV)
    x = torch.randn(*shape, device=DEV)
    with torch.no_grad():
        _compile(m)(x)


def _hf(cls_name, cfg_name, cfg_kwargs, make_inputs):
    import torch
    import transformers

    cfg = getattr(transformers, cfg_name)(**cfg_kwargs)
    cls = getattr(transformers, cls_name)
    try:
        m = cls._from_config(cfg, attn_implementation="eager")
    except Exception as e:  # older/newer API: fall back to the default attention
        print(f"  _from_config(attn_implementation='eager') failed ({e!r})")
        try:
            cfg._attn_implementation = "eager"
        except Exception as e2:
            print(f"  setting config._attn_implementation failed ({e2!r})")
        m = cls(cfg)
    print(f"  attention implementation: {getattr(m.config, '_attn_implementation', None)}")
    m = m.eval().to(DEV)
    with torch.no_grad():
        _compile(m)(**make_inputs(cfg))


def _ids(cfg, seq=32, mask=False, token_types=False):
    import torch

    d = {"input_ids": torch.randint(0, cfg.vocab_size, (1, seq), device=DEV)}
    if mask:
        am = torch.ones(1, seq, dtype=torch.long, device=DEV)
        am[:, -4:] = 0
        d["attention_mask"] = am
    if token_types:
        d["token_type_ids"] = torch.zeros(1, seq, dtype=torch.long, device=DEV)
    d["use_cache"] = False
    return d


def cfg_resnet18():
    _vision("resnet18", (1, 3, 224, 224))


def cfg_mobilenet_v2():
    _vision("mobilenet_v2", (1, 3, 224, 224))


def cfg_vit_small():
    import torch
    from torchvision.models.vision_transformer import VisionTransformer

    m = VisionTransformer(image_size=32, patch_size=8, num_layers=2, num_heads=2,
                          hidden_dim=64, mlp_dim=128, num_classes=10).eval().to(DEV)
    with torch.no_grad():
        _compile(m)(torch.randn(1, 3, 32, 32, device=DEV))


def cfg_gpt2():
    _hf("GPT2LMHeadModel", "GPT2Config",
        dict(n_layer=2, n_embd=768, n_head=12, n_positions=64), _ids)


def cfg_bert():
    def inputs(cfg):
        d = _ids(cfg, mask=True, token_types=True)
        d.pop("use_cache")
        return d

    _hf("BertModel", "BertConfig",
        dict(num_hidden_layers=2, hidden_size=768, num_attention_heads=12,
             intermediate_size=3072), inputs)


def cfg_llama():
    _hf("LlamaForCausalLM", "LlamaConfig",
        dict(hidden_size=256, num_hidden_layers=2, num_attention_heads=8,
             num_key_value_heads=2, intermediate_size=512, max_position_embeddings=128),
        _ids)


def cfg_mlp_train():
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    model = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 128), nn.GELU(),
                          nn.LayerNorm(128), nn.Linear(128, 10)).to(DEV)
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    x = torch.randn(32, 64, device=DEV)
    y = torch.randint(0, 10, (32,), device=DEV)

    def step(x, y):
        opt.zero_grad(set_to_none=True)
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        return loss

    try:
        cstep = _compile(step)
        for _ in range(3):  # step 1 creates the momentum buffers, later steps use them
            cstep(x, y)
        print("  compiled forward + backward + SGD step in one function")
    except Exception as e:
        print(f"  whole-step compile failed ({e!r}); compiling fwd+bwd, stepping eagerly")
        cmodel = _compile(model)
        for _ in range(2):
            opt.zero_grad(set_to_none=True)
            F.cross_entropy(cmodel(x), y).backward()
            opt.step()


def cfg_resnet18_autotune():
    _autotune()
    # Full convolution autotuning takes over ten minutes here (12 to 17 candidates for each
    # of 11 convolution shapes): keep the first two candidates of each.
    _set_cfg("test_configs.max_mm_configs", 2)
    _vision("resnet18", (1, 3, 224, 224))


def cfg_gpt2_autotune():
    _autotune()
    cfg_gpt2()


# ---- small functions -----------------------------------------------------------------


def _r(*shape, dtype=None, grad=False):
    import torch

    t = torch.randn(*shape, device=DEV, dtype=dtype)
    return t.requires_grad_() if grad else t


def op_argmax_argmin():
    f = _compile(lambda a, b: (a.argmax(dim=1), a.argmin(dim=0), b.argmax(dim=-1),
                               b.min(dim=1), a.max(dim=1)))
    f(_r(64, 100), _r(4, 20000))


def op_cumsum():
    import torch

    f = _compile(lambda a, b: (torch.cumsum(a, 1), torch.cumprod(b, 0),
                               torch.logcumsumexp(a, 1), torch.cumsum(b.int(), 1)))
    f(_r(16, 256), _r(32, 8))


def op_sort_topk():
    import torch

    f = _compile(lambda a: (torch.sort(a, dim=-1), torch.topk(a, 5, dim=-1),
                            torch.sort(a, dim=0, descending=True, stable=True),
                            torch.argsort(a, dim=-1)))
    f(_r(8, 64))


def op_embedding():
    import torch
    import torch.nn.functional as F

    f = _compile(lambda i, j, w: (F.embedding(i, w), F.embedding(j, w) * 2.0 + 1.0))
    f(torch.randint(0, 1000, (4, 16), device=DEV),
      torch.randint(0, 1000, (8,), device=DEV, dtype=torch.int32), _r(1000, 64))


def op_gather_index():
    import torch

    f = _compile(lambda a, i, k, j: (torch.gather(a, 1, i), a[k], torch.index_select(a, 1, j),
                                     a[:, k] + 1))
    f(_r(32, 64), torch.randint(0, 64, (32, 8), device=DEV),
      torch.randint(-32, 32, (16,), device=DEV), torch.randint(0, 64, (16,), device=DEV))


def op_scatter_add():
    import torch

    def fn(base, idx, src, idx1, src1):
        return (base.scatter_add(0, idx, src),
                torch.zeros(100, 16, device=DEV).index_add(0, idx1, src1),
                base.index_put((idx1,), src1, accumulate=True),
                torch.zeros(100, device=DEV).scatter_reduce(0, idx1, src1[:, 0], "amax"))

    _compile(fn)(_r(100, 16), torch.randint(0, 100, (50, 16), device=DEV), _r(50, 16),
                 torch.randint(0, 100, (50,), device=DEV), _r(50, 16))


def op_layer_norm_train():
    import torch.nn as nn

    m1, m2 = nn.LayerNorm(768).to(DEV), nn.LayerNorm(8192).to(DEV)
    a, b = _r(32, 768, grad=True), _r(8, 8192, grad=True)
    oa, ob = _compile(lambda a, b: (m1(a), m2(b)))(a, b)
    (oa.sum() + ob.sum()).backward()


def op_batch_norm_train():
    import torch.nn as nn
    import torch.nn.functional as F

    bn1, bn2 = nn.BatchNorm2d(32).to(DEV).train(), nn.BatchNorm2d(16).to(DEV).train()
    a, b = _r(8, 32, 16, 16, grad=True), _r(16, 16, 32, 32, grad=True)
    oa, ob = _compile(lambda a, b: (F.relu(bn1(a)), bn2(b)))(a, b)
    (oa.sum() + ob.sum()).backward()


def op_softmax():
    import torch

    f = _compile(lambda a, b: (torch.softmax(a, -1), torch.softmax(b, -1), torch.softmax(a, 0)))
    f(_r(32, 128), _r(8, 16384))


def op_log_softmax():
    import torch
    import torch.nn.functional as F

    f = _compile(lambda a, b, y: (F.log_softmax(a, -1), F.log_softmax(b, -1),
                                  F.cross_entropy(a, y)))
    f(_r(32, 128), _r(8, 16384), torch.randint(0, 128, (32,), device=DEV))


def op_var_mean():
    import torch

    f = _compile(lambda a, b: (torch.var_mean(a, dim=1), torch.var_mean(b, dim=1, correction=0),
                               torch.std(a), torch.var(a, dim=0)))
    f(_r(64, 512), _r(4, 20000))


def op_gelu_erf():
    import torch
    import torch.nn.functional as F

    f = _compile(lambda a: (F.gelu(a), F.gelu(a, approximate="tanh"), torch.erf(a),
                            torch.special.erfc(a), F.silu(a), F.mish(a)))
    f(_r(64, 256))


def op_unary_math():
    import torch

    def fn(a, b):
        p = a.abs() + 0.1
        return (torch.sin(a), torch.cos(a), torch.tan(a), torch.tanh(a), torch.sigmoid(a),
                torch.exp(a), torch.exp2(a), torch.log(p), torch.log2(p), torch.log1p(p),
                torch.expm1(a), torch.sqrt(p), torch.rsqrt(p), torch.sign(a), torch.floor(a),
                torch.ceil(a), torch.round(a), torch.trunc(a), torch.pow(p, 2.5),
                torch.pow(2.0, a), torch.pow(p, b), torch.atan2(a, b), torch.reciprocal(p),
                torch.clamp(a, -0.5, 0.5), torch.hypot(a, b), torch.fmod(a, 0.7),
                torch.remainder(a, 0.7), torch.asin(a.clamp(-1, 1)), torch.sinh(a),
                torch.lgamma(p), torch.isfinite(a))

    _compile(fn)(_r(64, 256), _r(64, 256))


def op_int_div_mod():
    import torch

    def fn(a, b, c):
        return (torch.div(a, b, rounding_mode="floor"), torch.remainder(a, b), a // 3, a % 7,
                torch.div(a, b, rounding_mode="trunc"), torch.fmod(a, b), a / b,
                torch.div(c, 5, rounding_mode="floor"), torch.remainder(c, -3),
                a & 15, a | b, a ^ b, a << 2, a >> 1, ~a, torch.abs(c), c.float() * 0.5)

    a = torch.randint(-100, 100, (1024,), device=DEV)
    b = torch.randint(1, 10, (1024,), device=DEV) * (torch.randint(0, 2, (1024,), device=DEV) * 2 - 1)
    c = torch.randint(-100, 100, (1024,), device=DEV, dtype=torch.int32)
    _compile(fn)(a, b, c)


def op_bf16_fp16():
    import torch

    def fn(x, y, z):
        return ((x * 2 + 1).relu(), y * y - 3, x.float() + z, x.to(torch.float16) + y,
                x.sum(dim=1), torch.softmax(y, -1), (z.to(torch.bfloat16) * x).to(torch.float32),
                torch.exp(y), x.amax(dim=0))

    _compile(fn)(_r(64, 128, dtype=torch.bfloat16), _r(64, 128, dtype=torch.float16), _r(64, 128))


def op_strides():
    import torch

    def fn(x, y, a, b, e):
        return (x + y, x.permute(0, 2, 3, 1).contiguous(), a.t() + b, a.t().contiguous(),
                a[:, ::2] * 3, a + e, torch.relu(x) * y.mean(dim=(2, 3), keepdim=True))

    x = _r(2, 16, 8, 8).contiguous(memory_format=torch.channels_last)
    _compile(fn)(x, _r(2, 16, 8, 8), _r(64, 128), _r(128, 64), _r(1, 128).expand(64, 128))


def op_where_nan():
    import torch

    def fn(a, b):
        return (torch.where(torch.isnan(a), torch.zeros_like(a), a),
                torch.where(a > 0, a, torch.full_like(a, float("nan"))),
                torch.nan_to_num(a), torch.maximum(a, b), torch.minimum(a, b),
                torch.fmax(a, b), torch.isinf(a).sum(), torch.clamp(a, min=0.0),
                torch.where(b > 0, 1.0, -1.0))

    a = _r(64, 128)
    a[::7, ::5] = float("nan")
    a[3, 3] = float("inf")
    _compile(fn)(a, _r(64, 128))


def op_any_all():
    import torch

    f = _compile(lambda a, m: (torch.any(a > 0.5), torch.any(a > 2, dim=1), torch.all(a > -3),
                               torch.any(m), torch.all(m, dim=0)))
    f(_r(64, 128), _r(64, 128) > 1)


def op_max_pool2d():
    import torch.nn.functional as F

    x = _r(2, 8, 16, 16, grad=True)
    out, idx = _compile(lambda x: F.max_pool2d(x, 3, 2, 1, return_indices=True))(x)
    out.sum().backward()
    _compile(lambda x: (F.avg_pool2d(x, 2), F.adaptive_avg_pool2d(x, 1),
                        F.max_pool2d(x, 2)))(x.detach())


def op_foreach():
    import torch

    def fn(xs, ys):
        out = torch._foreach_add(xs, ys)
        return out, torch._foreach_mul(xs, 0.5)

    def fn_(xs, ys):
        torch._foreach_add_(xs, ys, alpha=0.1)

    xs = [_r(16), _r(8, 32), _r(4, 4, 4), _r(1000)]
    ys = [_r(16), _r(8, 32), _r(4, 4, 4), _r(1000)]
    _compile(fn)(xs, ys)
    _compile(fn_)(xs, ys)


def op_reductions():
    import torch

    def fn(a, c, m):
        return (a.sum(dim=0), a.prod(dim=1), a.amax(dim=0), a.mean(), c.sum(dim=(0, 2)),
                m.sum(dim=1), torch.logsumexp(a, 1), torch.linalg.vector_norm(a, dim=1),
                c.amin(dim=-1))

    _compile(fn)(_r(512, 64), _r(16, 32, 64), _r(64, 128) > 0)


def op_cat_pad():
    import torch
    import torch.nn.functional as F

    def fn(a, b, x):
        return (torch.cat([a, b], dim=1), F.pad(x, (1, 2, 3, 4)), F.pad(x, (1, 1, 1, 1), mode="reflect"),
                torch.flip(a, [1]), torch.roll(a, 3, 1), a.repeat(2, 1), torch.stack([a, a * 2]),
                F.interpolate(x, scale_factor=2, mode="nearest"),
                F.interpolate(x, scale_factor=2, mode="bilinear", align_corners=False))

    _compile(fn)(_r(16, 32), _r(16, 8), _r(1, 4, 8, 8))


def op_dropout_rand():
    import torch
    import torch.nn.functional as F

    f = _compile(lambda a: (F.dropout(a, 0.1, training=True), torch.rand_like(a),
                            torch.randn_like(a) * 0.1 + a, torch.randint_like(a, 0, 10)))
    f(_r(64, 128))


def op_inplace():
    import torch

    def fn(a, b, idx):
        a.add_(b)
        a[:, 0] = 0
        b.index_copy_(0, idx, a[:4])
        return a.sum()

    _compile(fn)(_r(64, 32), _r(64, 32), torch.tensor([3, 1, 7, 5], device=DEV))


def op_mm_bf16_autotune():
    import torch

    _autotune()
    f = _compile(lambda a, b, c: (torch.relu(a @ b + c), torch.bmm(a.unsqueeze(0), b.unsqueeze(0))))
    f(_r(64, 128, dtype=torch.bfloat16), _r(128, 64, dtype=torch.bfloat16),
      _r(64, dtype=torch.bfloat16))


# name -> (function, compile threads). The order is the priority order (longest first)
# and the order of deduplication.
CONFIGS = collections.OrderedDict([
    ("resnet18", (cfg_resnet18, 4)),
    ("mobilenet_v2", (cfg_mobilenet_v2, 4)),
    ("vit_small", (cfg_vit_small, 2)),
    ("gpt2", (cfg_gpt2, 4)),
    ("bert", (cfg_bert, 4)),
    ("llama", (cfg_llama, 4)),
    ("mlp_train", (cfg_mlp_train, 2)),
    ("resnet18_autotune", (cfg_resnet18_autotune, 6)),
    ("gpt2_autotune", (cfg_gpt2_autotune, 6)),
] + [(n, (f, 1)) for n, f in [
    ("op_argmax_argmin", op_argmax_argmin), ("op_cumsum", op_cumsum),
    ("op_sort_topk", op_sort_topk), ("op_embedding", op_embedding),
    ("op_gather_index", op_gather_index), ("op_scatter_add", op_scatter_add),
    ("op_layer_norm_train", op_layer_norm_train), ("op_batch_norm_train", op_batch_norm_train),
    ("op_softmax", op_softmax), ("op_log_softmax", op_log_softmax), ("op_var_mean", op_var_mean),
    ("op_gelu_erf", op_gelu_erf), ("op_unary_math", op_unary_math),
    ("op_int_div_mod", op_int_div_mod), ("op_bf16_fp16", op_bf16_fp16),
    ("op_strides", op_strides), ("op_where_nan", op_where_nan), ("op_any_all", op_any_all),
    ("op_max_pool2d", op_max_pool2d), ("op_foreach", op_foreach),
    ("op_reductions", op_reductions), ("op_cat_pad", op_cat_pad),
    ("op_dropout_rand", op_dropout_rand), ("op_inplace", op_inplace),
]] + [("op_mm_bf16_autotune", (op_mm_bf16_autotune, 4))])
# Start the slow ones first.
START_ORDER = (["resnet18_autotune", "gpt2_autotune", "op_mm_bf16_autotune"]
               + [n for n in CONFIGS if n not in ("resnet18_autotune", "gpt2_autotune",
                                                  "op_mm_bf16_autotune")])


def worker(name, status_path, hook_path):
    """Runs one configuration; called in a fresh process whose env holds the cache dir."""
    t0 = time.time()
    st = {"config": name, "ok": False}
    try:
        import torch

        st.update(torch=torch.__version__, cuda=torch.version.cuda)
        try:
            import triton

            st["triton"] = triton.__version__
        except Exception:
            pass
        st["gpu"] = torch.cuda.get_device_name(0)
        torch.manual_seed(0)
        # Secondary record of every kernel handed to Triton, for cross-checking.
        from torch._inductor import async_compile as ac

        orig = ac.AsyncCompile.triton

        def hooked(self, kernel_name, source_code, *a, **k):
            with open(hook_path, "a") as f:
                f.write(json.dumps({"name": kernel_name, "src": source_code}) + "\n")
            return orig(self, kernel_name, source_code, *a, **k)

        ac.AsyncCompile.triton = hooked
        CONFIGS[name][0]()
        torch.cuda.synchronize()
        st["ok"] = True
    except BaseException as e:
        st["error"] = f"{type(e).__name__}: {e}"[:2000]
        st["traceback"] = traceback.format_exc()[-6000:]
        traceback.print_exc()
    st["seconds"] = round(time.time() - t0, 1)
    with open(status_path, "w") as f:
        json.dump(st, f, indent=1)
    sys.stdout.flush()
    os._exit(0 if st["ok"] else 1)


# --------------------------------------------------------------------------------------
# Parent: run the workers, harvest the output code
# --------------------------------------------------------------------------------------


def harvest(cache_dir, dest):
    """Copies Inductor's output-code modules (wrappers) out of cache_dir, in creation order."""
    found = []
    for root, dirs, files in os.walk(cache_dir):
        dirs[:] = [d for d in dirs if d != "triton"]
        for fn in files:
            if not fn.endswith(".py"):
                continue
            p = os.path.join(root, fn)
            try:
                with open(p, encoding="utf-8") as f:
                    text = f.read()
            except (OSError, UnicodeDecodeError):
                continue
            if "async_compile.triton(" in text and "AsyncCompile()" in text:
                found.append((os.path.getmtime(p), fn, p))
    os.makedirs(dest, exist_ok=True)
    for i, (_, fn, p) in enumerate(sorted(found)):
        shutil.copyfile(p, os.path.join(dest, f"{i:03d}_{fn}"))
    return len(found)


def run_all(args):
    names = args.only.split(",") if args.only else START_ORDER
    os.makedirs(args.work, exist_ok=True)
    with open(os.path.join(args.work, "command.txt"), "w") as f:
        f.write(" ".join(["python3", os.path.relpath(os.path.abspath(__file__))] + sys.argv[1:]))
    pending = [n for n in START_ORDER if n in names]
    running = {}  # name -> (Popen, start, cache_dir, log file)
    deadline = time.time() + args.deadline
    results = {}
    t_begin = time.time()

    def finish(n, how):
        p, t, cache, logf = running.pop(n)
        try:  # compile workers the configuration left behind
            os.killpg(p.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        logf.close()
        d = os.path.join(args.work, n)
        nw = harvest(cache, os.path.join(d, "wrappers"))
        shutil.rmtree(cache, ignore_errors=True)
        results[n] = how
        st = _read_json(os.path.join(d, "status.json")) or {}
        err = st.get("error", "") if how == "exited" else how
        print(f"[{time.time() - t_begin:6.1f}s] done  {n:24s} {time.time() - t:6.1f}s "
              f"ok={st.get('ok', False)} wrappers={nw} {err[:300]}", flush=True)
        if not st.get("ok"):
            with open(os.path.join(d, "log.txt"), errors="replace") as f:
                print("    | " + "    | ".join(f.readlines()[-12:]), flush=True)

    while pending or running:
        now = time.time()
        if now > deadline:
            for n in list(running):
                p = running[n][0]
                for sig in (signal.SIGTERM, signal.SIGKILL):
                    try:
                        os.killpg(p.pid, sig)
                    except ProcessLookupError:
                        pass
                    time.sleep(1)
                p.wait()
                finish(n, "killed at the deadline")
            for n in pending:
                print(f"not run (deadline): {n}", flush=True)
                results[n] = "not run"
            break
        while pending and len(running) < args.jobs:
            n = pending.pop(0)
            d = os.path.join(args.work, n)
            shutil.rmtree(d, ignore_errors=True)
            os.makedirs(d)
            cache = tempfile.mkdtemp(prefix=f"inductor_{n}_")
            env = dict(os.environ, TORCHINDUCTOR_CACHE_DIR=cache, TORCHINDUCTOR_FX_GRAPH_CACHE="0",
                       TORCHINDUCTOR_AUTOGRAD_CACHE="0", TRITON_CACHE_DIR=os.path.join(cache, "triton"),
                       TORCHINDUCTOR_COMPILE_THREADS=str(CONFIGS[n][1]), PYTHONUNBUFFERED="1")
            logf = open(os.path.join(d, "log.txt"), "w")
            p = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--worker", n,
                                  "--status", os.path.join(d, "status.json"),
                                  "--hook", os.path.join(d, "hook.jsonl")],
                                 env=env, stdout=logf, stderr=subprocess.STDOUT,
                                 start_new_session=True)
            running[n] = (p, time.time(), cache, logf)
            print(f"[{time.time() - t_begin:6.1f}s] start {n}", flush=True)
        for n in list(running):
            if running[n][0].poll() is not None:
                finish(n, "exited")
        time.sleep(0.5)


def _read_json(p):
    try:
        with open(p) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


# --------------------------------------------------------------------------------------
# Extraction and assembly (no torch needed)
# --------------------------------------------------------------------------------------

_TRITON_CALL = re.compile(
    r"async_compile\.triton\((['\"])(\w+)\1,\s*'''(.*?)''',\s*device_str=", re.S)


def extract_kernels(wrapper_text):
    """[(name, source)] for each async_compile.triton('NAME', '''SOURCE''', ...) call."""
    out = []
    try:
        tree = ast.parse(wrapper_text)
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "triton" and isinstance(node.func.value, ast.Name)
                    and node.func.value.id == "async_compile" and len(node.args) >= 2
                    and all(isinstance(a, ast.Constant) and isinstance(a.value, str)
                            for a in node.args[:2])):
                out.append((node.lineno, node.args[0].value, node.args[1].value))
        out = [(n, s) for _, n, s in sorted(out)]
    except SyntaxError:
        out = [(m.group(2), m.group(3)) for m in _TRITON_CALL.finditer(wrapper_text)]
    return out


def kind_of(name):
    for k in KINDS:
        if name.startswith(k):
            return k
    return "other"


def assemble(work, out, names):
    """Builds out/<config>/<kernel>.py from work/<config>/wrappers, deduplicated."""
    seen = {}  # sha -> (config, filename)
    summary = collections.OrderedDict()
    env = {}
    for f in (os.listdir(out) if os.path.isdir(out) else []):
        p = os.path.join(out, f)
        if os.path.isdir(p) and f in CONFIGS:
            shutil.rmtree(p)
    for n in names:
        d = os.path.join(work, n)
        st = _read_json(os.path.join(d, "status.json"))
        if st and not env.get("torch"):
            env = {k: st.get(k) for k in ("torch", "triton", "cuda", "gpu")}
        wdir = os.path.join(d, "wrappers")
        kernels = []
        wrappers = sorted(os.listdir(wdir)) if os.path.isdir(wdir) else []
        for w in wrappers:
            with open(os.path.join(wdir, w), encoding="utf-8") as f:
                kernels += extract_kernels(f.read())
        hook = []
        if os.path.exists(os.path.join(d, "hook.jsonl")):
            with open(os.path.join(d, "hook.jsonl")) as f:
                hook = [json.loads(line) for line in f if line.strip()]
        hook_set = {(h["name"], h["src"]) for h in hook}
        source = "output code"
        if not kernels and hook:  # no wrapper on disk (e.g. killed mid-way): use the record,
            # less the autotuning candidates (triton_mm_7, triton_convolution2d_3, ...)
            kernels = [(h["name"], h["src"]) for h in hook if h["name"].startswith(KINDS)]
            source = "async_compile record"
        missing = len({k for k in kernels} - hook_set) if hook else None
        cdir = os.path.join(out, n)
        names_used, uniq, kept, dup_of = set(), set(), 0, []
        for kname, src in kernels:
            sha = hashlib.sha256(src.encode()).hexdigest()
            if sha in uniq:
                continue
            uniq.add(sha)
            if sha in seen:
                dup_of.append("/".join(seen[sha]) + ".py")
                continue
            fname = kname
            i = 1
            while fname in names_used:
                i += 1
                fname = f"{kname}__{i}"
            names_used.add(fname)
            os.makedirs(cdir, exist_ok=True)
            with open(os.path.join(cdir, fname + ".py"), "w", encoding="utf-8", newline="") as f:
                f.write(src)
            seen[sha] = (n, fname)
            kept += 1
        status = "not run"
        if st:
            status = "ok" if st.get("ok") else "failed: " + st.get("error", "?").splitlines()[0][:200]
        elif os.path.isdir(d):
            status = "killed (time limit)"
        summary[n] = dict(status=status, graphs=len(wrappers), captured=len(uniq), kept=kept,
                          stored_elsewhere=dup_of, source=source, not_in_record=missing,
                          seconds=(st or {}).get("seconds"))
        print(f"{n:24s} graphs={len(wrappers):3d} unique={len(uniq):4d} kept={kept:4d} "
              f"from={source} not_in_record={missing} {status}")
    return summary, env


def analyse(out):
    """Counts the calls, attributes, decorators and launch grids used by the corpus."""
    c = collections.defaultdict(collections.Counter)
    kw = collections.defaultdict(set)
    kinds = collections.Counter()
    total_bytes = 0
    files = sorted(os.path.join(r, f) for r, _, fs in os.walk(out) for f in fs if f.endswith(".py"))
    mods = ("tl", "triton_helpers", "libdevice", "tl_math", "triton")

    def dotted(e):
        parts = []
        while isinstance(e, ast.Attribute):
            parts.append(e.attr)
            e = e.value
        if isinstance(e, ast.Name):
            return ".".join([e.id] + parts[::-1])
        return None

    for p in files:
        with open(p, encoding="utf-8") as f:
            src = f.read()
        total_bytes += len(src.encode())
        kinds[kind_of(os.path.basename(p))] += 1
        for m in re.finditer(r"'grid_type':\s*'(\w+)'", src):
            c["grid_type"][m.group(1)] += 1
        for m in re.finditer(r"reduction_hint=([\w.]+)", src):
            c["reduction_hint"][m.group(1)] += 1
        tree = ast.parse(src)
        for fn in [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]:
            for dec in fn.decorator_list:
                name = dotted(dec.func if isinstance(dec, ast.Call) else dec)
                c["decorator"]["@" + str(name)] += 1
                if isinstance(dec, ast.Call):
                    for k in dec.keywords:
                        if k.arg == "triton_meta" and isinstance(k.value, ast.Dict):
                            for key, val in zip(k.value.keys, k.value.values):
                                if (isinstance(key, ast.Constant) and key.value == "signature"
                                        and isinstance(val, ast.Dict)):
                                    for v in val.values:
                                        if isinstance(v, ast.Constant):
                                            c["signature type"][repr(v.value)] += 1
            for stmt in fn.body:
                inner = set()  # ids of nodes that are part of a longer dotted name or a call
                for node in ast.walk(stmt):  # breadth first: parents before children
                    if not isinstance(node, ast.expr_context):
                        c["syntax"][type(node).__name__] += 1
                    if isinstance(node, ast.Attribute):
                        inner.add(id(node.value))
                    if isinstance(node, ast.Call):
                        inner.add(id(node.func))
                        name = dotted(node.func)
                        if name and name.split(".")[0] in mods:
                            c["call"][name] += 1
                            kw[name].update(k.arg for k in node.keywords if k.arg)
                        elif isinstance(node.func, ast.Attribute):
                            c["method"]["." + node.func.attr] += 1
                        elif isinstance(node.func, ast.Name):
                            c["function"][node.func.id] += 1
                    elif isinstance(node, ast.Attribute) and id(node) not in inner:
                        name = dotted(node)
                        if name and name.split(".")[0] in mods:
                            c["attribute"][name] += 1
    return c, kw, kinds, len(files), total_bytes


def _table(counter, head, kw=None):
    rows = [f"| {head} | count |" + (" keywords |" if kw is not None else ""), "|---|---:|"
            + ("---|" if kw is not None else "")]
    for k, v in sorted(counter.items(), key=lambda x: (-x[1], x[0])):
        rows.append(f"| `{k}` | {v} |" + (f" {', '.join(sorted(kw.get(k, ()))) or ''} |"
                                          if kw is not None else ""))
    return "\n".join(rows)


def write_docs(out, summary, env, command):
    c, kw, kinds, nfiles, nbytes = analyse(out)
    per = collections.defaultdict(collections.Counter)
    for n in summary:
        d = os.path.join(out, n)
        for f in (os.listdir(d) if os.path.isdir(d) else []):
            per[n][kind_of(f)] += 1
    env_line = (f"torch {env.get('torch')}, Triton {env.get('triton')}, CUDA {env.get('cuda')}, "
                f"on an {env.get('gpu')}")
    lines = [
        "# Inductor kernel corpus",
        "",
        "Real Triton kernel sources exactly as TorchInductor writes them, for the front end's",
        "tests. Each file is the source string of one `async_compile.triton('NAME', '''SOURCE''', ...)`",
        "definition in the output code Inductor generated, saved byte for byte as `<config>/NAME.py`",
        "(it starts with the blank line Inductor puts after the opening quotes). Where two graphs",
        "of one configuration define different kernels under one name (forward and backward, say),",
        "the later ones are saved as `NAME__2.py`, `NAME__3.py`, ...",
        "",
        "## How it was produced",
        "",
    ] + [f"    {line}" for line in command.splitlines()] + [
        "",
        f"with {env_line}. `python/tools/capture_kernel_corpus.py` runs each configuration in its",
        "own process with `torch.compile(..., dynamic=False)` (Inductor, CUDA), a fresh",
        "`TORCHINDUCTOR_CACHE_DIR` and `TORCHINDUCTOR_FX_GRAPH_CACHE=0`,",
        "`TORCHINDUCTOR_AUTOGRAD_CACHE=0`, then takes the kernels out of the output-code modules",
        "in that cache directory. Models are built from configurations with deterministic random",
        "weights (`torch.manual_seed(0)`); transformers models use eager attention, so attention",
        "is softmax kernels plus matrix multiplies. The `*_autotune` configurations set",
        "`max_autotune=True`, `max_autotune_gemm_backends=\"TRITON\"`,",
        "`max_autotune_conv_backends=\"TRITON\"` (matrix multiplies and convolutions become",
        "`triton_tem_` templates) and `benchmark_epilogue_fusion=False`; `resnet18_autotune`",
        "also sets `test_configs.max_mm_configs=2` (two candidate configurations for each",
        "convolution and matrix multiply shape), because the full convolution search takes over",
        "ten minutes. The `op_*` configurations are small functions aimed at particular",
        "constructs; see the script.",
        "",
        "Identical sources are kept once, in the first configuration of the table below that",
        "produced them: `captured` counts the distinct kernels a configuration produced, `kept`",
        "those stored in its folder. `manifest.json` lists, for every configuration, the",
        "kernels it produced that are stored elsewhere.",
        "",
        "## Kernels per configuration",
        "",
        "| config | status | graphs | captured | kept | poi | red | per | tem | for |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for n, s in summary.items():
        k = per[n]
        lines.append(f"| {n} | {s['status']} | {s['graphs']} | {s['captured']} | {s['kept']} | "
                     + " | ".join(str(k[p]) for p in KINDS) + " |")
    lines += ["", f"Total: {nfiles} files, {nbytes} bytes.", "", "## By kind", "",
              "| kind | files |", "|---|---:|"]
    lines += [f"| `{k}` | {kinds[k]} |" for k in KINDS + ("other",) if kinds[k] or k != "other"]
    lines += ["", "`CONSTRUCTS.md` counts the calls, decorators and launch grids the corpus uses.", ""]
    with open(os.path.join(out, "README.md"), "w") as f:
        f.write("\n".join(lines))
    cons = ["# Constructs in the Inductor kernel corpus", "",
            f"Counted over the {nfiles} kernel files of this folder, inside the bodies of the",
            "`@triton.jit` functions (decorator arguments excluded, except where said).",
            "Regenerate with `capture_kernel_corpus.py --assemble-only`.", ""]
    sections = [("call", "Module calls (`tl.*`, `triton_helpers.*`, `libdevice.*`, `tl_math.*`)", True),
                ("attribute", "Module attributes used without a call (dtypes, `tl.constexpr`)", False),
                ("method", "Method calls on values", False),
                ("function", "Plain function calls (builtins, helper functions)", False),
                ("decorator", "Decorators", False),
                ("grid_type", "`grid_type` in `inductor_meta`", False),
                ("reduction_hint", "`reduction_hint` in the decorator", False),
                ("signature type", "Argument types in `triton_meta['signature']`", False),
                ("syntax", "Python syntax node types in kernel bodies", False)]
    for key, title, with_kw in sections:
        cons += [f"## {title}", "", _table(c[key], "name", kw if with_kw else None), ""]
    with open(os.path.join(out, "CONSTRUCTS.md"), "w") as f:
        f.write("\n".join(cons))
    return nfiles, nbytes, kinds


def write_manifest(out, summary):
    m = {n: {k: v for k, v in s.items()} for n, s in summary.items()}
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(m, f, indent=1, sort_keys=True)
        f.write("\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default="tests/data/inductor_kernels")
    ap.add_argument("--work", default=None, help="raw output (wrappers, logs); default: a temp dir")
    ap.add_argument("--jobs", type=int, default=8, help="configurations run at once")
    ap.add_argument("--deadline", type=float, default=1800, help="seconds before stopping all")
    ap.add_argument("--only", default="", help="comma-separated configurations")
    ap.add_argument("--assemble-only", action="store_true")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--status", help=argparse.SUPPRESS)
    ap.add_argument("--hook", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker(args.worker, args.status, args.hook)
    if args.list:
        print("\n".join(CONFIGS))
        return
    args.work = args.work or tempfile.mkdtemp(prefix="kernel_corpus_")
    if not args.assemble_only:
        run_all(args)
    names = [n for n in CONFIGS if not args.only or n in args.only.split(",")]
    os.makedirs(args.out, exist_ok=True)
    summary, env = assemble(args.work, args.out, names)
    write_manifest(args.out, summary)
    try:
        with open(os.path.join(args.work, "command.txt")) as f:
            command = f.read().strip()
    except OSError:
        command = "python3 python/tools/capture_kernel_corpus.py --out " + args.out
    nfiles, nbytes, kinds = write_docs(args.out, summary, env, command)
    print(f"corpus: {nfiles} files, {nbytes} bytes, {dict(kinds)}; raw output in {args.work}")


if __name__ == "__main__":
    main()
