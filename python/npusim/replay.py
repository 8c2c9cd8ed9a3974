"""Replay a bundle on a GPU from the bundle alone (a reference reader in Python).

    PYTHONPATH=python python3 -m npusim.replay BUNDLE [BUNDLE ...]

Allocates every storage (floats filled with NaN, integers with 0x5A bytes), regenerates
the inputs, runs every step in order (Triton launches from kernels/*.py with the recorded
grid and block sizes; library calls with the aten operator of that name; or, with
steps_on="npusim", every step on npusim's reference interpreter and host library, for a
machine without a GPU or Triton), checks every
fingerprint after its step and the outputs against the reference values (an Adam-family
optimizer step's elements whose first moment is within its measured rounding of zero against
Adam's bound instead: npusim.optimizer_bound). This checks
that a bundle is complete and self-contained; it is not part of npusim proper.
"""

import importlib
import json
import os
import sys
import time


def _alloc(torch, st, device):
    from .recorder import BUNDLE_TO_TORCH

    dt = BUNDLE_TO_TORCH[st["dtype"]]
    n = st["elements"]
    t = torch.empty(max(n, 1), dtype=dt, device=device)
    if dt.is_floating_point:
        t.fill_(float("nan"))
    else:
        t.view(torch.uint8).fill_(0x5A) if dt != torch.bool else t.view(torch.uint8).fill_(1)
    return t


def _view(torch, storages, ref):
    base = storages[ref["storage"]]
    return torch.as_strided(base, ref["shape"], ref["stride"], ref["offset"])


def _decode(torch, v, typ, storages):
    from .recorder import BUNDLE_TO_TORCH

    if isinstance(v, dict) and set(v) == {"tensor"}:
        return _view(torch, storages, v["tensor"])
    if isinstance(v, list):
        inner = typ[:-2] if typ.endswith("[]") else typ
        return [_decode(torch, x, inner, storages) for x in v]
    if isinstance(v, str):
        if v.startswith("torch."):  # layouts and memory formats
            return getattr(torch, v.split(".", 1)[1])
        if v in BUNDLE_TO_TORCH and ("ScalarType" in typ or "int" in typ):
            return BUNDLE_TO_TORCH[v]
        if "Device" in typ or v.startswith(("cuda", "cpu")):
            return torch.device(v)
        if v in ("nan", "inf", "-inf") and "str" not in typ:
            return float(v)
    return v


def _refs(v):
    if isinstance(v, dict) and set(v) == {"tensor"}:
        return [v]
    if isinstance(v, list):
        return [r for x in v for r in _refs(x)]
    return []


_KERNELS = {}


def _kernel(bundle_dir, name):
    key = (bundle_dir, name)
    if key not in _KERNELS:
        from torch._inductor.codecache import PyCodeCache

        from .bundle import kernel_params

        with open(os.path.join(bundle_dir, "kernels", name + ".py"), encoding="utf-8") as f:
            src = f.read()
        fname, _, _ = kernel_params(src, name)
        mod = PyCodeCache.load(src)
        _KERNELS[key] = getattr(mod, fname).fn
    return _KERNELS[key]


# Modules that register the operators of a torch.ops namespace when imported, in
# the order to try: `import transformers` is lazy and does not import the module
# that calls torch.library.custom_op("transformers::grouped_mm_fallback", ...).
# torch itself registers aten and prims; any other namespace is first tried as a
# module of that name.
_NAMESPACE_MODULES = {
    "aten": [],
    "prims": [],
    "transformers": ["transformers", "transformers.integrations.moe"],
}


def _lookup(torch, parts):
    """torch.ops.NS.NAME.OVERLOAD, or None when it is not registered."""
    packet = getattr(getattr(torch.ops, parts[0]), parts[1], None)
    return None if packet is None else getattr(packet, parts[2] if len(parts) > 2 else "default", None)


def _resolve_op(torch, op, imported, import_module):
    """(overload, None), or (None, why it cannot be run)."""
    parts = op.split(".")
    if len(parts) < 2:
        return None, "not a namespace.operator name"
    ov = _lookup(torch, parts)
    tried = []
    for module in [] if ov is not None else _NAMESPACE_MODULES.get(parts[0], [parts[0]]):
        tried.append(module)
        if module not in imported:
            try:
                import_module(module)
            except Exception as e:  # noqa: BLE001 (any import failure is reported)
                return None, f"cannot import {module}, which registers torch.ops.{parts[0]}: {type(e).__name__}: {e}"
            imported.add(module)
        ov = _lookup(torch, parts)
        if ov is not None:
            break
    if ov is None:
        return None, "torch.ops has no such operator" + (f" after importing {', '.join(tried)}" if tried else "")
    return ov, None


def resolve_ops(torch, steps, import_module=importlib.import_module):
    """Every call step's operator overload, by op name. An operator outside
    torch.ops.aten (a custom op such as transformers.grouped_mm_fallback) is
    looked up after importing the library that registers it. Raises
    RuntimeError naming each op that cannot be run, its steps and why, before
    any step runs."""
    wanted = {}
    for n, s in enumerate(steps):
        if s["kind"] == "call":
            wanted.setdefault(s["op"], []).append(n)
    imported, resolved, problems = set(), {}, []
    for op, at in wanted.items():
        ov, why = _resolve_op(torch, op, imported, import_module)
        if why:
            problems.append(f"{op} (step{'s' if len(at) > 1 else ''} {', '.join(map(str, at))}): {why}")
        resolved[op] = ov
    if problems:
        raise RuntimeError("the bundle calls operators this PyTorch cannot run: " + "; ".join(problems))
    return resolved


def _to_wide(torch, x):
    """x on the CPU with fp32 tensors widened to float64 (lists too); None when the
    value has a tensor of a floating type other than fp32 (nothing to widen to)."""
    if isinstance(x, torch.Tensor):
        if x.dtype == torch.float32:
            return x.detach().cpu().double()
        return None if x.is_floating_point() else x.detach().cpu()
    if isinstance(x, (list, tuple)):
        items = [_to_wide(torch, v) for v in x]
        return None if any(v is None and w is not None for v, w in zip(items, x)) else type(x)(items)
    return x


def wide_mismatches(torch, op, ov, pos, kw, results):
    """The fp32 results of a library call, as the device computed them (results: (index,
    fingerprint of that result) pairs), against the call computed again in float64 on the
    CPU: npusim computes its reference in double, so a device that rounded more (TF32)
    shows here, though its own replay reproduces it. Returns the mismatches; a call that
    has no CPU float64 form (a CUDA-only kernel) is not checked."""
    from . import bundle
    from .recorder import tensor_fingerprint

    pos64 = [_to_wide(torch, x) for x in pos]
    kw64 = {k: _to_wide(torch, v) for k, v in kw.items()}
    if any(x is None and y is not None for x, y in zip(pos64, pos)) or \
            any(kw64[k] is None and kw[k] is not None for k in kw):
        return []
    try:
        res = ov(*pos64, **kw64)
    except Exception:  # noqa: BLE001
        return []
    res = list(res) if isinstance(res, (tuple, list)) else [res]
    bad = []
    for i, fp in results:
        r = res[i] if i < len(res) else None
        if not isinstance(r, torch.Tensor) or r.dtype != torch.float64:
            continue
        ok, why = bundle.match_fingerprint(tensor_fingerprint(r.float()), fp)
        if not ok:
            bad.append(f"{op} result {i}: the device's fp32 value differs from float64 on the "
                       f"CPU ({why}): reduced precision (TF32) on the device?")
    return bad


def _run_on_npusim(graph, bundle_dir, storages, step):
    """One step on npusim's reference interpreter and host library (the extension), in place
    on the replay's CPU storages."""
    import numpy as np
    import torch

    from . import api
    from .generator import NUMPY_DTYPES

    arrays = []
    for t, st in zip(storages, graph["storages"]):
        base = t[:st["elements"]]
        if base.dtype == torch.bfloat16:
            base = base.view(torch.int16)
        arrays.append(base.numpy().view(np.dtype(NUMPY_DTYPES[st["dtype"]])))
    api.run_graph(dict(graph, steps=[step], outputs=[]), arrays, kernels_dir=bundle_dir, mode="reference")


def replay(bundle_dir, log=print, check_every_step=True, device="cuda", check_wide=False, steps_on="device"):
    """Returns a dict: steps, fingerprint mismatches, output mismatches, and with
    check_wide the library calls whose fp32 results differ from float64 (wide_mismatches).
    steps_on="npusim" (device "cpu"): the steps run on npusim's reference interpreter and host
    library instead of Triton and PyTorch; the checks are the same."""
    if steps_on not in ("device", "npusim"):
        raise ValueError(f"steps_on: 'device' or 'npusim', not {steps_on!r}")
    if steps_on == "npusim" and (device != "cpu" or check_wide):
        raise ValueError("steps_on='npusim' replays on the CPU's storages, without check_wide")
    import numpy as np
    import torch

    from . import bundle, generator_torch, optimizer_bound
    from .recorder import tensor_fingerprint

    g = bundle.load_graph(bundle_dir)
    # An Adam-family step's updates that rounding decides are judged by Adam's bound.
    adam = optimizer_bound.AdamBound(g)

    def storage_values(sid):
        st = g["storages"][sid]
        return storages[sid][:st["elements"]].detach().double().cpu().numpy()

    def logical_values(ref):
        return _view(torch, storages, ref).detach().double().cpu().numpy().reshape(-1)

    # 16-bit floats are judged by their rounding at their depth (bundle.rounding_tolerance).
    depths, step_depths = bundle.storage_depths(g["steps"])

    def rounding(ref, depth):
        return bundle.rounding_tolerance(g["storages"][ref["storage"]]["dtype"], depth)

    def matches(t, ref, fp, depth):
        """(ok, why) of a written view against its fingerprint, under Adam's bound where
        it applies."""
        rule = adam.rule(ref) if adam.active() and t.is_floating_point() else None
        if rule is None:
            return bundle.match_fingerprint(tensor_fingerprint(t), fp, rounding=rounding(ref, depth))
        ok, why, needed = optimizer_bound.match_fingerprint(
            logical_values(ref), fp, rule, bundle.RTOL, bundle.ATOL)
        adam.note(ref, needed)
        return ok, why
    ops = resolve_ops(torch, g["steps"]) if steps_on == "device" else {}
    storages = [_alloc(torch, s, device) for s in g["storages"]]
    seed = g["seed"]
    done = set()
    for inp in g["inputs"]:
        sid = inp["tensor"]["storage"]
        if sid in done:
            continue
        done.add(sid)
        st = g["storages"][sid]
        generator_torch.fill(torch, storages[sid][:st["elements"]], inp["init"], st["dtype"], seed)
    mismatches, wide_bad = [], []
    t0 = time.time()
    for n, s in enumerate(g["steps"]):
        if adam.active():
            adam.before_step(s, storage_values)
        if steps_on == "npusim":
            _run_on_npusim(g, bundle_dir, storages, s)
            written = [(fp, _view(torch, storages, ref), ref) for fp, ref in optimizer_bound.fingerprint_targets(s)]
        elif s["kind"] == "launch":
            fn = _kernel(bundle_dir, s["kernel"])
            args = [_view(torch, storages, a["tensor"]) if "tensor" in a else a["value"]
                    for a in s["args"]]
            launch = {k: s[k] for k in ("num_warps", "num_stages") if k in s}
            fn[tuple(s["grid"])](*args, **s["constexprs"], **launch)
            written = [(fp, args[fp["arg"]], s["args"][fp["arg"]]["tensor"]) for fp in s["fingerprints"]]
        else:
            ov = ops[s["op"]]
            schema = ov._schema
            fargs = [a for a in schema.arguments
                     if not (a.kwarg_only and a.alias_info is not None and a.alias_info.is_write)]
            if len(fargs) != len(s["args"]):
                raise RuntimeError(f"step {n}: {s['op']} has {len(s['args'])} args, "
                                   f"{s['op']}.default takes {len(fargs)}")
            pos, kw = [], {}
            for a, v in zip(fargs, s["args"]):
                x = _decode(torch, v, str(a.type), storages)
                if a.kwarg_only:
                    kw[a.name] = x
                else:
                    pos.append(x)
            outs = [_view(torch, storages, o["tensor"]) for o in s["out"]]
            if "values" in s:
                # A random operator: write what the capture's generator drew.
                for v in s["values"]:
                    o = outs[v["out"]]
                    o.copy_(torch.tensor(v["data"], dtype=o.dtype).reshape(o.shape).to(o.device))
            else:
                # outs: the written (mutable) arguments in schema order (an out= argument
                # among them, passed by keyword), then the results that are new tensors.
                n_written, j = 0, 0
                for a in schema.arguments:
                    is_out = a.kwarg_only and a.alias_info is not None and a.alias_info.is_write
                    if is_out:
                        kw[a.name] = outs[n_written]
                        n_written += 1
                        continue
                    if a.alias_info is not None and a.alias_info.is_write:
                        n_written += len(_refs(s["args"][j]))
                    j += 1
                res = ov(*pos, **kw)
                res_list = list(res) if isinstance(res, (tuple, list)) else [res]
                fresh = [r for r, ret in zip(res_list, schema.returns)
                         if isinstance(r, torch.Tensor) and ret.alias_info is None]
                for o, r in zip(outs[n_written:], fresh):
                    o.copy_(r)
                # Only calls that write nothing in place (their inputs are as they were).
                if check_wide and n_written == 0 and len(fresh) == len(res_list):
                    fps = [(fp["out"], {k: v for k, v in fp.items() if k != "out"})
                           for fp in s["fingerprints"] if outs[fp["out"]].dtype == torch.float32]
                    if fps:
                        wide_bad += [f"step {n}: {m}" for m in wide_mismatches(
                            torch, s["op"], ov, pos, kw, fps)]
            written = [(fp, outs[fp["out"]], s["out"][fp["out"]]["tensor"]) for fp in s["fingerprints"]]
        if adam.active():
            adam.measure(s, storage_values, logical_values)
        if check_every_step:
            for fp, t, ref in written:
                ok, why = matches(t, ref, {k: v for k, v in fp.items() if k not in ("arg", "out")},
                                  step_depths[n])
                if not ok:
                    what = s.get("kernel") or s.get("op")
                    mismatches.append(f"step {n} ({what}) {'arg' if 'arg' in fp else 'out'} "
                                      f"{fp.get('arg', fp.get('out'))}: {why}")
    if device == "cuda":
        torch.cuda.synchronize()
    out_bad = []
    for o in g["outputs"]:
        t = _view(torch, storages, o["tensor"])
        ok, why = matches(t, o["tensor"], o["fingerprint"], depths[o["tensor"]["storage"]])
        if not ok:
            out_bad.append(f"output {o['name']}: {why}")
        if "reference" in o:
            ref = np.load(os.path.join(bundle_dir, o["reference"]))
            x = t.float().cpu().numpy() if t.dtype == torch.bfloat16 else t.cpu().numpy()
            rule = adam.rule(o["tensor"]) if adam.active() and x.dtype.kind == "f" else None
            if rule is not None:
                xs, rs = x.astype(np.float64).reshape(-1), ref.astype(np.float64).reshape(-1)
                idx = np.arange(xs.size)
                good = rule.matches(idx, xs, rs, 1e-3, 1e-3)
                adam.note(o["tensor"], idx[good & ~rule.interval & ~np.isclose(xs, rs, 1e-3, 1e-3, True)])
                if not good.all():
                    k = int(np.argmin(good))
                    out_bad.append(f"output {o['name']}: not close to {o['reference']} under the Adam "
                                   f"bound ({int((~good).sum())} elements, first {k}: {xs[k]} vs {rs[k]})")
            elif x.dtype.kind == "f":
                xs, rs = x.astype(np.float64), ref.astype(np.float64)
                err = float(np.max(np.abs(xs - rs) / (1e-3 + np.abs(rs)))) if x.size else 0.0
                # The eager reference rounds too: a 16-bit output may differ by its rounding.
                r = rounding(o["tensor"], depths[o["tensor"]["storage"]])
                finite = np.isfinite(rs)
                mean = float(np.mean(np.abs(rs[finite]))) if finite.any() else 0.0
                close = np.isclose(xs, rs, rtol=1e-3, atol=1e-3, equal_nan=True) | (
                    np.isfinite(xs) & finite & (np.abs(xs - rs) <= r * (np.abs(rs) + mean)))
                if not close.all():
                    out_bad.append(f"output {o['name']}: not close to {o['reference']} (max rel {err:.3g}"
                                   + (f"; {g['storages'][o['tensor']['storage']]['dtype']} rounding "
                                      f"allowance {r:.3g} x (|ref| + {mean:.3g})" if r else "") + ")")
            elif not np.array_equal(x, ref):
                out_bad.append(f"output {o['name']}: differs from {o['reference']}")
    res = {"steps": len(g["steps"]), "fingerprint_mismatches": mismatches,
           "output_mismatches": out_bad, "seconds": round(time.time() - t0, 1)}
    if check_wide:
        res["wide_mismatches"] = wide_bad
    if adam.summary() is not None:
        res["optimizer_bound"] = adam.summary()
    return res


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    from .torch_env import setup_env

    setup_env()
    import torch  # noqa: F401

    from .precision import set_full_fp32

    set_full_fp32(torch, print)
    rc = 0
    for b in argv:
        try:
            r = replay(b)
        except Exception as e:  # noqa: BLE001
            import traceback

            traceback.print_exc()
            r = {"error": f"{type(e).__name__}: {e}"}
        bad = r.get("error") or r.get("fingerprint_mismatches") or r.get("output_mismatches")
        r["bundle"] = b
        r["ok"] = not bad
        print(json.dumps(r)[:4000], flush=True)
        if bad:
            rc = 1
    return rc


if __name__ == "__main__":
    sys.exit(main())
