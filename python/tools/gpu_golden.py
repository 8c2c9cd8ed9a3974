#!/usr/bin/env python3
"""GPU golden fingerprints for the reference interpreter.

Proves npusim's reference interpreter against real Triton on the Inductor kernel
corpus (tests/data/inductor_kernels): the same launch (kernel, grid, constexprs)
on the same generated inputs, compared by fingerprints of every pointer buffer
after the launch. tests/cli/gpu_golden_test.cpp does the comparison.

Subcommands:

  manifest [--npusim build/npusim] [--corpus tests/data/inductor_kernels]
           [--out tests/data/gpu_golden/manifest.json] [--jobs 2]
      Runs `npusim check-kernel` and `npusim kernel FILE --out DIR` (no flags, seed 0)
      on every kernel file; the kernels that run cleanly go into the manifest with
      their grid, constexprs (from the summary line) and every run-time parameter in
      def order: pointers with dtype, element count (the output .npy's length) and
      generator stream (the parameter's position in the def); scalars with the value
      the CLI used (the literal the body re-binds them to). Needs numpy (here:
      /usr/bin/python3).

  run MANIFEST OUT.json [--jobs N] [--deadline SECONDS] [--only ID ...]
      On a machine with a GPU, torch and Triton: imports each kernel file, launches
      the Triton JITFunction behind Inductor's heuristics wrapper with the recorded
      grid, constexprs and scalars on buffers made by the numpy port of the npusim
      generator, and writes a fingerprint of every pointer buffer after the launch
      (per-kernel exceptions are recorded as "error"). --jobs N runs N processes, one
      CUDA context each, so Triton compiles on N cores; on an H200 machine
      `--jobs 12` did the 202 kernels in 36 s.

  local MANIFEST OUT.json [--npusim build/npusim] [--only ID ...]
      The same fingerprints from `npusim kernel` (the reference interpreter).
  compare LOCAL.json GPU.json
      Lists the buffers whose fingerprints differ, with the C++ test's tolerances.

  selftest [--npusim build/npusim]
      Prints the generator's first values for each dtype; with --npusim, compares
      them bit for bit with buffers the C++ generator wrote (npusim kernel on a
      small generated kernel holding one pointer of each dtype).

The fingerprint of a buffer (see fingerprint()): element count, dtype, NaN/+inf/-inf
counts, the sum and the sum of absolute values of the finite elements in float64
(exact integers for integer and bool buffers), and 64 values at positions
round(k*(n-1)/63), k = 0..63 (floats as float64, with NaN/inf as the strings
"nan"/"inf"/"-inf" so that the JSON stays standard; integers as int64).
"""

import argparse
import ast
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import traceback
from concurrent.futures import ThreadPoolExecutor

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SAMPLES = 64

# Signature type -> (npy/numpy dtype name used in the manifest, kind).
SIG_DTYPES = {
    "fp16": "float16", "bf16": "bfloat16", "fp32": "float32", "fp64": "float64",
    "i1": "bool", "i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64",
    "u8": "uint8", "u16": "uint16", "u32": "uint32", "u64": "uint64",
}
PRECISION_BITS = {"float16": 11, "bfloat16": 8, "float32": 24, "float64": 53}
MASK64 = (1 << 64) - 1


# --------------------------------------------------------------------------- generator
# A numpy port of apps/npusim/generator.cpp; bit-identical (see `selftest`).

def splitmix64_int(z):
    z = (z + 0x9E3779B97F4A7C15) & MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def splitmix64_array(z):
    import numpy as np
    with np.errstate(over="ignore"):
        z = z + np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return z ^ (z >> np.uint64(31))


def generate(dtype, count, seed, stream):
    """Element i of parameter `stream`'s buffer, as the C++ generator makes it.
    bfloat16 comes back as uint16 bit patterns."""
    import numpy as np
    count = int(count)
    if dtype == "bool":
        return (np.arange(count, dtype=np.int64) % 2).astype(np.bool_)
    key = splitmix64_int((splitmix64_int(seed & MASK64) + stream) & MASK64)
    with np.errstate(over="ignore"):
        h = splitmix64_array(np.arange(count, dtype=np.uint64) + np.uint64(key))
    if dtype in PRECISION_BITS:
        p = PRECISION_BITS[dtype]
        k = (h >> np.uint64(64 - p)).astype(np.float64)  # exact: p <= 53
        value = k * (2.0 ** (1 - p)) - 1.0                # exact in double
        if dtype == "bfloat16":
            # value has at most 8 significant bits: truncation is exact rounding.
            return (value.astype(np.float32).view(np.uint32) >> np.uint32(16)).astype(np.uint16)
        return value.astype(dtype)
    return (h % np.uint64(100)).astype(dtype)


# --------------------------------------------------------------------------- fingerprint

def sample_positions(n):
    # round(k*(n-1)/63) with halves up; 63 is odd, so no exact halves occur anyway.
    if n <= 0:
        return []
    return [(2 * k * (n - 1) + (SAMPLES - 1)) // (2 * (SAMPLES - 1)) for k in range(SAMPLES)]


def float_json(v):
    v = float(v)
    if v != v:
        return "nan"
    if v == float("inf"):
        return "inf"
    if v == float("-inf"):
        return "-inf"
    return v


def fingerprint(values, dtype):
    """values: a numpy array of the buffer (bfloat16 as uint16 bits)."""
    import numpy as np
    n = int(values.size)
    fp = {"dtype": dtype, "n": n}
    pos = sample_positions(n)
    if dtype in PRECISION_BITS:
        if dtype == "bfloat16":
            f = (values.astype(np.uint32) << np.uint32(16)).view(np.float32).astype(np.float64)
        else:
            f = values.astype(np.float64)
        finite = np.isfinite(f)
        fin = f[finite]
        fp["nan"] = int(np.isnan(f).sum())
        fp["posinf"] = int((f == np.inf).sum())
        fp["neginf"] = int((f == -np.inf).sum())
        fp["sum"] = float(fin.sum())
        fp["abs_sum"] = float(np.abs(fin).sum())
        fp["samples"] = [float_json(f[i]) for i in pos]
    else:
        iv = values.astype(np.int64)
        fp["sum"] = int(iv.sum(dtype=np.int64))
        fp["abs_sum"] = int(np.abs(iv).sum(dtype=np.int64))
        fp["samples"] = [int(iv[i]) for i in pos]
    return fp


# --------------------------------------------------------------------------- manifest

SUMMARY = re.compile(r"^(\S+) grid=\((\d+), (\d+), (\d+)\) constexprs=\((.*)\) programs=(\d+) wall_ms=([\d.]+) out=")
CHECK = re.compile(r"^(\S+) kind=(\S+) args=\((.*)\) constexprs=\((.*)\) grid=(\S+) tileir_ops=(\d+)")


def parse_pairs(text, sep):
    out = []
    for item in [s.strip() for s in text.split(",") if s.strip()]:
        name, value = item.split(sep, 1)
        out.append((name.strip(), value.strip()))
    return out


def parse_const_value(text):
    if text in ("True", "False"):
        return text == "True"
    if text == "None":
        return None
    try:
        return int(text)
    except ValueError:
        return float(text)


def kernel_def(path, name):
    """The kernel's parameter names in def order and its body constants (the first
    top-level `NAME = <int literal>` for each name, as triton::loadKernel reads them)."""
    with open(path) as f:
        tree = ast.parse(f.read(), path)
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == name:
            params = [a.arg for a in node.args.args]
            consts = {}
            for stmt in node.body:
                if (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)
                        and isinstance(stmt.value, ast.Constant) and type(stmt.value.value) is int):
                    consts.setdefault(stmt.targets[0].id, stmt.value.value)
            return params, consts
    raise ValueError("no def %s in %s" % (name, path))


def manifest_one(npusim, path, rel, corpus_root):
    import numpy as np
    chk = subprocess.run([npusim, "check-kernel", path], capture_output=True, text=True, timeout=300)
    if chk.returncode != 0:
        return {"file": rel, "skip": "check-kernel failed: " + chk.stderr.strip().splitlines()[-1][:300]}
    m = CHECK.match(chk.stdout.strip().splitlines()[0])
    name, kind, args_text = m.group(1), m.group(2), m.group(3)
    if kind in ("template", "foreach"):
        return {"file": rel, "name": name, "skip": "kind " + kind + " needs flags"}
    with tempfile.TemporaryDirectory(prefix="gpu-golden-") as tmp:
        t0 = time.time()
        run = subprocess.run([npusim, "kernel", path, "--out", tmp], capture_output=True, text=True, timeout=600)
        elapsed = time.time() - t0
        if run.returncode != 0:
            err = (run.stderr.strip().splitlines() or ["?"])[-1]
            err = err.replace(path + ": error: ", "").replace("kernel '%s', " % name, "").replace(path, "FILE")
            return {"file": rel, "name": name, "skip": "kernel failed: " + err[:500]}
        s = SUMMARY.match(run.stdout.strip().splitlines()[-1])
        if not s or s.group(1) != name:
            return {"file": rel, "name": name, "skip": "unparsed summary: " + run.stdout.strip()[:300]}
        grid = [int(s.group(2)), int(s.group(3)), int(s.group(4))]
        constexprs = {k: parse_const_value(v) for k, v in parse_pairs(s.group(5), "=")}
        params, body_consts = kernel_def(path, name)
        params_out = []
        for pname, ptype in parse_pairs(args_text, ":"):
            entry = {"name": pname}
            if ptype.startswith("*"):
                dtype = SIG_DTYPES[ptype[1:]]
                arr = np.load(os.path.join(tmp, pname + ".npy"))
                entry.update(kind="pointer", dtype=dtype, n=int(arr.size), stream=params.index(pname))
            else:
                if pname not in body_consts:
                    return {"file": rel, "name": name, "skip": "scalar %s has no body literal" % pname}
                entry.update(kind="scalar", type=ptype, value=body_consts[pname])
            params_out.append(entry)
    kid = os.path.splitext(os.path.relpath(path, corpus_root))[0]
    return {"id": kid, "file": rel, "name": name, "kind": kind, "grid": grid, "constexprs": constexprs,
            "params": params_out, "cli_seconds": round(elapsed, 3)}


def cmd_manifest(a):
    corpus = os.path.join(REPO, a.corpus)
    files = []
    for root, _, names in os.walk(corpus):
        files += [os.path.join(root, n) for n in names if n.endswith(".py")]
    files.sort()
    npusim = os.path.join(REPO, a.npusim)

    def job(path):
        rel = os.path.relpath(path, REPO)
        try:
            r = manifest_one(npusim, path, rel, corpus)
        except Exception as e:  # a hung or broken kernel is a skip, not a crash
            r = {"file": rel, "skip": "error: %s" % e}
        print("%-70s %s" % (rel, r.get("skip", "ok %.2fs" % r.get("cli_seconds", 0))), flush=True)
        return r

    with ThreadPoolExecutor(a.jobs) as ex:
        results = list(ex.map(job, files))
    kernels = [r for r in results if "skip" not in r]
    # Messages name files by absolute path; keep the manifest machine-independent.
    skipped = [{"file": r["file"], "reason": r["skip"].replace(REPO + os.sep, "")} for r in results if "skip" in r]
    for r in kernels:
        r.pop("cli_seconds", None)
    doc = {
        "about": "Launches of the Inductor kernel corpus that `npusim kernel FILE` runs cleanly with no flags "
                 "(seed 0). Pointer buffers are generated (apps/npusim/generator.cpp) with stream = the "
                 "parameter's position in the def. Made by `python/tools/gpu_golden.py manifest`.",
        "seed": 0,
        "kernels": kernels,
        "skipped": skipped,
    }
    os.makedirs(os.path.dirname(os.path.join(REPO, a.out)), exist_ok=True)
    with open(os.path.join(REPO, a.out), "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    print("%d kernels, %d skipped -> %s" % (len(kernels), len(skipped), a.out))


# --------------------------------------------------------------------------- run (GPU)

def jit_function(module, name):
    import triton
    obj = getattr(module, name)
    JIT = triton.runtime.jit.JITFunction
    seen = set()
    # CachingAutotuner (Inductor's heuristics wrapper) keeps the JITFunction in .fn;
    # a plain @triton.jit kernel is one itself; Autotuner/Heuristics wrap one in .fn too.
    while not isinstance(obj, JIT):
        if id(obj) in seen or not hasattr(obj, "fn"):
            raise TypeError("%s: no triton JITFunction behind %r" % (name, type(obj)))
        seen.add(id(obj))
        obj = obj.fn
    return obj


def cmd_run(a):
    if a.jobs > 1:
        return run_parallel(a)
    import importlib.util
    import numpy as np
    import torch
    import triton

    with open(a.manifest) as f:
        manifest = json.load(f)
    seed = manifest.get("seed", 0)
    kernels = manifest["kernels"]
    if a.only:
        kernels = [k for k in kernels if k["id"] in a.only]
    kernels = kernels[a.shard::a.shards]
    out = {
        "about": "Fingerprints of every pointer buffer after each launch of the manifest, on a real GPU "
                 "(python/tools/gpu_golden.py run).",
        "device": torch.cuda.get_device_name(0),
        "torch": torch.__version__,
        "triton": triton.__version__,
        "numpy": np.__version__,
        "kernels": {},
    }
    torch_dtypes = {"float16": torch.float16, "float32": torch.float32, "float64": torch.float64,
                    "bool": torch.bool, "int8": torch.int8, "int16": torch.int16, "int32": torch.int32,
                    "int64": torch.int64, "uint8": torch.uint8}
    t_start = time.time()
    for i, k in enumerate(kernels):
        t0 = time.time()
        rec = {"name": k["name"], "file": k["file"], "grid": k["grid"], "constexprs": k["constexprs"]}
        try:
            path = os.path.join(REPO, k["file"])
            modname = "gpu_golden_%d_%d" % (a.shard, i)
            spec = importlib.util.spec_from_file_location(modname, path)
            module = importlib.util.module_from_spec(spec)
            sys.modules[modname] = module
            spec.loader.exec_module(module)
            fn = jit_function(module, k["name"])
            kwargs, buffers = {}, []
            for p in k["params"]:
                if p["kind"] == "scalar":
                    kwargs[p["name"]] = p["value"]
                    continue
                host = generate(p["dtype"], p["n"], seed, p["stream"])
                if p["dtype"] == "bfloat16":
                    t = torch.from_numpy(host.view(np.int16).copy()).cuda().view(torch.bfloat16)
                else:
                    t = torch.from_numpy(host.copy()).cuda()
                    assert t.dtype == torch_dtypes[p["dtype"]], (t.dtype, p["dtype"])
                kwargs[p["name"]] = t
                buffers.append((p, t))
            # Everything by name: a parameter the signature calls constexpr without the
            # annotation (load_seed_offset) sits between run-time parameters in the def.
            kwargs.update(k["constexprs"])
            fn[tuple(k["grid"])](**kwargs)
            torch.cuda.synchronize()
            fps = {}
            for p, t in buffers:
                if p["dtype"] == "bfloat16":
                    host = t.view(torch.int16).cpu().numpy().view(np.uint16)
                else:
                    host = t.cpu().numpy()
                fps[p["name"]] = fingerprint(host, p["dtype"])
            rec["buffers"] = fps
        except Exception as e:
            rec["error"] = "%s: %s" % (type(e).__name__, str(e)[:2000])
            traceback.print_exc()
            try:
                torch.cuda.synchronize()
            except Exception:
                pass
        rec["seconds"] = round(time.time() - t0, 3)
        out["kernels"][k["id"]] = rec
        print("[%d %d/%d] %s %s %.2fs (total %.0fs)" % (a.shard, i + 1, len(kernels), k["id"],
              "ERROR " + rec["error"][:200] if "error" in rec else "ok", rec["seconds"], time.time() - t_start),
              flush=True)
        # Written after every kernel, so a run stopped at its deadline keeps its results.
        write_json(a.out, out)
    write_json(a.out, out)
    errors = [n for n, r in out["kernels"].items() if "error" in r]
    print("shard %d: %d kernels, %d errors: %s" % (a.shard, len(kernels), len(errors), " ".join(errors)))


def write_json(path, doc):
    """Standard JSON (no NaN literals), one kernel a line, so diffs stay readable."""
    head = {k: v for k, v in doc.items() if k != "kernels"}
    lines = ["{"]
    for k, v in head.items():
        lines.append("%s: %s," % (json.dumps(k), json.dumps(v, allow_nan=False)))
    kernels = doc.get("kernels", {})
    lines.append('"kernels": {')
    for i, (name, rec) in enumerate(kernels.items()):
        lines.append("%s: %s%s" % (json.dumps(name), json.dumps(rec, allow_nan=False, separators=(",", ":")),
                                   "," if i + 1 < len(kernels) else ""))
    lines.append("}}")
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(tmp, path)


def run_parallel(a):
    """`a.jobs` processes (one CUDA context each) take every a.jobs-th kernel; Triton's
    compilation, the bulk of the time, then runs on that many cores. Stops them at
    --deadline seconds and merges what they wrote, in manifest order."""
    with open(a.manifest) as f:
        names = [k["id"] for k in json.load(f)["kernels"]]
    procs, parts = [], []
    for shard in range(a.jobs):
        part = "%s.part%d" % (a.out, shard)
        cmd = [sys.executable, os.path.abspath(__file__), "run", a.manifest, part, "--shard", str(shard),
               "--shards", str(a.jobs), "--jobs", "1"]
        if a.only:
            cmd += ["--only"] + a.only
        procs.append(subprocess.Popen(cmd))
        parts.append(part)
    t0 = time.time()
    while any(p.poll() is None for p in procs) and time.time() - t0 < a.deadline:
        time.sleep(1)
    for p in procs:
        if p.poll() is None:
            print("deadline: stopping shard process %d" % p.pid, flush=True)
            p.kill()
            p.wait()
    merged, kernels = None, {}
    for part in parts:
        if os.path.exists(part):
            with open(part) as f:
                doc = json.load(f)
            kernels.update(doc.pop("kernels"))
            merged = merged or doc
            os.remove(part)
    merged = merged or {}
    merged["kernels"] = {n: kernels[n] for n in names if n in kernels}
    write_json(a.out, merged)
    errors = [n for n, r in merged["kernels"].items() if "error" in r]
    missing = [n for n in names if n not in kernels and (not a.only or n in a.only)]
    print("run: %d fingerprinted, %d errors, %d not run, %.0fs" % (
        len(merged["kernels"]) - len(errors), len(errors), len(missing), time.time() - t0))
    for n in errors:
        print("  error %s: %s" % (n, merged["kernels"][n]["error"][:300]))
    for n in missing:
        print("  not run %s" % n)


# --------------------------------------------------------------------------- local, compare

def cmd_local(a):
    """The same fingerprints from `npusim kernel` (the reference interpreter), for
    comparing with `compare` while investigating; the C++ test does this for CI."""
    import numpy as np
    with open(a.manifest) as f:
        manifest = json.load(f)
    kernels = [k for k in manifest["kernels"] if not a.only or k["id"] in a.only]
    out = {"about": "npusim reference interpreter fingerprints", "kernels": {}}
    npusim = os.path.join(REPO, a.npusim)
    for k in kernels:
        rec = {"name": k["name"], "file": k["file"], "grid": k["grid"], "constexprs": k["constexprs"]}
        with tempfile.TemporaryDirectory(prefix="gpu-golden-local-") as tmp:
            cmd = [npusim, "kernel", os.path.join(REPO, k["file"]), "--out", tmp, "--seed", str(manifest["seed"]),
                   "--grid", ",".join(str(g) for g in k["grid"])]
            for name, v in k["constexprs"].items():
                cmd += ["--const", "%s=%s" % (name, v)]
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode != 0:
                rec["error"] = r.stderr.strip()[-2000:]
            else:
                rec["buffers"] = {}
                for p in k["params"]:
                    if p["kind"] == "pointer":
                        rec["buffers"][p["name"]] = fingerprint(np.load(os.path.join(tmp, p["name"] + ".npy")),
                                                                p["dtype"])
        out["kernels"][k["id"]] = rec
    write_json(a.out, out)


def as_float(v):
    return float(v)  # also "nan", "inf", "-inf"


def close(a, b, rtol=1e-4, atol=1e-4):
    a, b = as_float(a), as_float(b)
    if a != a or b != b:
        return a != a and b != b
    if abs(a) == float("inf") or abs(b) == float("inf"):
        return a == b
    return abs(a - b) <= atol + rtol * abs(b)


def compare_buffer(got, want):
    """Differences between two fingerprints (got: npusim, want: GPU), as the C++ test sees them."""
    diffs = []
    if got["n"] != want["n"] or got["dtype"] != want["dtype"]:
        return ["n/dtype %s/%s vs %s/%s" % (got["n"], got["dtype"], want["n"], want["dtype"])]
    if got["dtype"] in PRECISION_BITS:
        for key in ("nan", "posinf", "neginf"):
            if got[key] != want[key]:
                diffs.append("%s %d vs %d" % (key, got[key], want[key]))
        bound = 1e-4 * (want["abs_sum"] + 1) + 1e-3
        for key in ("sum", "abs_sum"):
            if abs(got[key] - want[key]) > bound:
                diffs.append("%s %.9g vs %.9g" % (key, got[key], want[key]))
        bad = [i for i, (x, y) in enumerate(zip(got["samples"], want["samples"])) if not close(x, y)]
    else:
        for key in ("sum", "abs_sum"):
            if got[key] != want[key]:
                diffs.append("%s %d vs %d" % (key, got[key], want[key]))
        bad = [i for i, (x, y) in enumerate(zip(got["samples"], want["samples"])) if x != y]
    if bad:
        diffs.append("%d samples differ, first k=%d: %s vs %s" % (len(bad), bad[0], got["samples"][bad[0]],
                                                                   want["samples"][bad[0]]))
    return diffs


def cmd_compare(a):
    with open(a.got) as f:
        got = json.load(f)["kernels"]
    with open(a.want) as f:
        want = json.load(f)["kernels"]
    same = 0
    for name, w in want.items():
        g = got.get(name)
        if g is None:
            continue
        if "error" in w or "error" in g:
            print("%s: error: %s" % (name, (w.get("error") or g.get("error"))[:200]))
            continue
        lines = []
        for buf, wf in w["buffers"].items():
            for d in compare_buffer(g["buffers"][buf], wf):
                lines.append("  %s: %s" % (buf, d))
        if lines:
            print("%s (%s)" % (name, w["file"]))
            print("\n".join(lines))
        else:
            same += 1
    print("%d of %d kernels match" % (same, len(want)))


# --------------------------------------------------------------------------- selftest

SELFTEST_KERNEL = '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.hints import DeviceProperties

@triton_heuristics.pointwise(
    size_hints={'x': 64},
    filename=__file__,
    triton_meta={'signature': {%(sig)s, 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'configs': []},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_poi_selftest_0', 'mutated_arg_names': []},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_selftest_0(%(params)s, xnumel, XBLOCK : tl.constexpr):
    xnumel = %(n)d
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    tmp0 = tl.load(in_ptr0 + (xindex), xmask)
    tl.store(in_ptr0 + (xindex), tmp0, xmask)
'''
SELFTEST_DTYPES = [("fp32", "float32"), ("fp16", "float16"), ("bf16", "bfloat16"), ("fp64", "float64"),
                   ("i1", "bool"), ("i8", "int8"), ("i16", "int16"), ("i32", "int32"), ("i64", "int64"),
                   ("u8", "uint8")]


def cmd_selftest(a):
    import numpy as np
    n = 1000
    for p, (_, dtype) in enumerate(SELFTEST_DTYPES):
        v = generate(dtype, n, 0, p)
        print("%-9s stream %d: %s" % (dtype, p, " ".join(str(x) for x in v[:6].tolist())))
    if not a.npusim:
        return
    names = ["in_ptr%d" % i for i in range(len(SELFTEST_DTYPES))]
    src = SELFTEST_KERNEL % {
        "sig": ", ".join("'%s': '*%s'" % (nm, sig) for nm, (sig, _) in zip(names, SELFTEST_DTYPES)),
        "params": ", ".join(names), "n": n}
    bad = 0
    with tempfile.TemporaryDirectory(prefix="gpu-golden-selftest-") as tmp:
        kpath = os.path.join(tmp, "triton_poi_selftest_0.py")
        with open(kpath, "w") as f:
            f.write(src)
        for seed in (0, 12345):
            outdir = os.path.join(tmp, "out%d" % seed)
            subprocess.run([os.path.join(REPO, a.npusim), "kernel", kpath, "--out", outdir, "--seed", str(seed)],
                           check=True)
            for p, (nm, (_, dtype)) in enumerate(zip(names, SELFTEST_DTYPES)):
                cpp = np.load(os.path.join(outdir, nm + ".npy"))
                py = generate(dtype, n, seed, p)
                same = cpp.size == py.size and cpp.tobytes() == py.tobytes()
                bad += not same
                print("seed %-5d %-9s %s" % (seed, dtype, "identical" if same else "DIFFERENT"))
    print("selftest: %s" % ("all identical" if bad == 0 else "%d buffers differ" % bad))
    sys.exit(1 if bad else 0)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    m = sub.add_parser("manifest")
    m.add_argument("--npusim", default="build/npusim")
    m.add_argument("--corpus", default="tests/data/inductor_kernels")
    m.add_argument("--out", default="tests/data/gpu_golden/manifest.json")
    m.add_argument("--jobs", type=int, default=2)
    r = sub.add_parser("run")
    r.add_argument("manifest")
    r.add_argument("out")
    r.add_argument("--only", nargs="*")
    r.add_argument("--jobs", type=int, default=1, help="processes (each with its own CUDA context)")
    r.add_argument("--shard", type=int, default=0)
    r.add_argument("--shards", type=int, default=1)
    r.add_argument("--deadline", type=float, default=480, help="seconds before --jobs stops the processes")
    s = sub.add_parser("selftest")
    s.add_argument("--npusim", default=None)
    lo = sub.add_parser("local")
    lo.add_argument("manifest")
    lo.add_argument("out")
    lo.add_argument("--npusim", default="build/npusim")
    lo.add_argument("--only", nargs="*")
    c = sub.add_parser("compare")
    c.add_argument("got", help="npusim fingerprints (from `local`)")
    c.add_argument("want", help="GPU fingerprints (from `run`)")
    a = ap.parse_args()
    {"manifest": cmd_manifest, "run": cmd_run, "selftest": cmd_selftest, "local": cmd_local,
     "compare": cmd_compare}[a.cmd](a)


if __name__ == "__main__":
    main()
