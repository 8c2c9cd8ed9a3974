"""Bundle files (docs/bundle-format.md): JSON writing, fingerprints, validation.

Nothing here needs torch; fingerprints and .npy files need numpy.
"""

import ast
import collections
import json
import math
import os
import re

from . import BUNDLE_FORMAT, BUNDLE_VERSION
from .generator import DTYPES, FLOAT_DTYPES

REFERENCE_MAX_ELEMENTS = 65536
SAMPLES = 64
RTOL = ATOL = 1e-4

TOP_KEYS = ("format", "version", "model", "seed", "storages", "inputs", "steps", "outputs")
OPTIONAL_TOP_KEYS = ("fingerprint_source",)
# Where the fingerprints come from: the capturing device's run of the compiled model
# (the default), or npusim's reference interpreter and host library (no GPU).
FINGERPRINT_SOURCES = ("device", "npusim-reference")
ITEMSIZE = {"fp32": 4, "fp16": 2, "bf16": 2, "fp64": 8, "i1": 1, "i8": 1, "i16": 2, "i32": 4,
            "i64": 8, "u8": 1}


# --------------------------------------------------------------------------------------
# JSON
# --------------------------------------------------------------------------------------


def sanitize(x):
    """Replaces non-finite floats by the strings "nan", "inf", "-inf" (recursively)."""
    if isinstance(x, float):
        if x != x:
            return "nan"
        if x == math.inf:
            return "inf"
        if x == -math.inf:
            return "-inf"
        return x
    if isinstance(x, dict):
        return {k: sanitize(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [sanitize(v) for v in x]
    return x


def _dump(x):
    return json.dumps(sanitize(x), allow_nan=False, ensure_ascii=True)


def dumps_graph(graph):
    """graph.json text: the top level indented, one line per storage, input, step and output."""
    lines = ["{"]
    keys = [k for k in TOP_KEYS if k in graph] + [k for k in graph if k not in TOP_KEYS]
    for n, k in enumerate(keys):
        v = graph[k]
        comma = "," if n + 1 < len(keys) else ""
        if isinstance(v, list) and v:
            lines.append(f" {json.dumps(k)}: [")
            for m, item in enumerate(v):
                lines.append("  " + _dump(item) + ("," if m + 1 < len(v) else ""))
            lines.append(" ]" + comma)
        else:
            lines.append(f" {json.dumps(k)}: {_dump(v)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def write_graph(path, graph):
    text = dumps_graph(graph)
    json.loads(text)  # must parse
    with open(path, "w", encoding="ascii", newline="\n") as f:
        f.write(text)


def load_graph(bundle_dir):
    with open(os.path.join(bundle_dir, "graph.json"), encoding="utf-8") as f:
        return json.load(f)


# --------------------------------------------------------------------------------------
# Fingerprints (numpy)
# --------------------------------------------------------------------------------------


def sample_indices(n):
    """Logical indices round(k * (n - 1) / 63), k = 0..63, without repeats (n < 64: all)."""
    if n <= 0:
        return []
    out = []
    for k in range(SAMPLES):
        # k * (n - 1) / 63 is never exactly halfway (63 is odd), so this is plain rounding.
        i = (2 * k * (n - 1) + 63) // 126
        if not out or out[-1] != i:
            out.append(i)
    return out


def fingerprint(arr, dtype):
    """Fingerprint of a numpy array in logical (C) order; bf16 given as float32 values."""
    import numpy as np

    flat = np.ascontiguousarray(arr).reshape(-1)
    n = int(flat.size)
    idx = sample_indices(n)
    fp = {"elements": n}
    if dtype in FLOAT_DTYPES:
        x = flat.astype(np.float64)
        isnan = np.isnan(x)
        isinf = np.isinf(x)
        fin = np.where(isnan | isinf, 0.0, x)
        fp["sum"] = float(fin.sum())
        fp["abs_sum"] = float(np.abs(fin).sum())
        fp["nan"] = int(isnan.sum())
        fp["inf"] = int(isinf.sum())
        fp["samples"] = [[i, float(x[i])] for i in idx]
    else:
        x = flat.astype(np.int64)
        if n and int(np.abs(x).max()) >= (1 << 40):
            s = sum(int(v) for v in x)
            a = sum(abs(int(v)) for v in x)
        else:
            s = int(x.sum())
            a = int(np.abs(x).sum())
        fp["sum"] = s
        fp["abs_sum"] = a
        fp["nan"] = 0
        fp["inf"] = 0
        fp["samples"] = [[i, int(x[i])] for i in idx]
    return fp


def _f(v):
    if isinstance(v, str):
        return {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}[v]
    return v


# --------------------------------------------------------------------------------------
# Tolerances of 16-bit floats (docs/bundle-format.md, "Tolerances of 16-bit floats")
# --------------------------------------------------------------------------------------

# Unit roundoff u = 2^-p of a format with p significand bits: bf16 8, fp16 11.
UNIT_ROUNDOFF = {"bf16": 2.0 ** -8, "fp16": 2.0 ** -11}
# lambda of the probabilistic bound: exceeded with probability at most
# 2 d exp(-lambda^2 (1 - u)^2 / 2) under the model's independent roundings.
ROUNDING_LAMBDA = 6.0


def rounding_tolerance(dtype, depth):
    """The allowance, relative to |expected| + mean |expected|, of a value of `dtype` that
    `depth` roundings separate from the inputs, compared between two runs that each round:
    2 (exp(lambda sqrt(d) u + d u^2 / (1 - u)) - 1), Higham and Mary's probabilistic bound
    (SIAM J. Sci. Comput. 41(5), 2019) on each side. 0 for formats not in UNIT_ROUNDOFF
    (fp32 keeps the fixed tolerance)."""
    u = UNIT_ROUNDOFF.get(dtype)
    if u is None or depth <= 0:
        return 0.0
    return 2.0 * math.expm1(ROUNDING_LAMBDA * math.sqrt(depth) * u + depth * u * u / (1.0 - u))


def _storages_in(v, out):
    if isinstance(v, dict):
        if "storage" in v and isinstance(v["storage"], int):
            out.add(v["storage"])
        for x in v.values():
            _storages_in(x, out)
    elif isinstance(v, list):
        for x in v:
            _storages_in(x, out)
    return out


def step_storages(step):
    """(read, written) storage ids of a graph step."""
    read = _storages_in(step.get("args", []), set())
    if step["kind"] == "launch":
        written = set()
        for a in step.get("writes", []):
            written |= _storages_in(step["args"][a], set())
    else:
        written = _storages_in(step.get("out", []), set())
    return read, written


def storage_depths(steps_of_graph):
    """Per storage id (a dict, 0 for a storage never written): the steps on the longest
    chain from the graph's inputs to what the storage holds after the last step, and per
    step index its own depth (1 + the deepest storage it reads). Each step rounds what it
    stores once."""
    depth = collections.defaultdict(int)
    steps = []
    for s in steps_of_graph:
        read, written = step_storages(s)
        d = 1 + max((depth[r] for r in read), default=0)
        steps.append(d)
        for w in written:
            depth[w] = max(depth[w], d)
    return depth, steps


def match_fingerprint(a, b, rtol=RTOL, atol=ATOL, rounding=0.0):
    """(ok, reason): does run `a` match reference fingerprint `b` (rules of the format).
    `rounding` (rounding_tolerance) widens each sample's tolerance by rounding * (|b| +
    mean |b|) and the sum's by 2 * rounding * abs_sum."""
    if a["elements"] != b["elements"]:
        return False, f"elements {a['elements']} != {b['elements']}"
    if a["nan"] != b["nan"] or a["inf"] != b["inf"]:
        return False, f"nan/inf counts {a['nan']}/{a['inf']} != {b['nan']}/{b['inf']}"
    ints = isinstance(b["sum"], int) and not isinstance(b["sum"], bool)
    if ints:
        if a["sum"] != b["sum"]:
            return False, f"sum {a['sum']} != {b['sum']}"
    else:
        sa, sb, ab = _f(a["sum"]), _f(b["sum"]), _f(b["abs_sum"])
        if not abs(sa - sb) <= 1e-4 * (ab + 1) + 2.0 * rounding * ab:
            return False, f"sum {sa} vs {sb} (abs_sum {ab})"
    sb = dict((i, v) for i, v in b["samples"])
    mean = _f(b["abs_sum"]) / b["elements"] if not ints and b["elements"] else 0.0
    for i, va in a["samples"]:
        if i not in sb:
            return False, f"sample index {i} not in the reference"
        vb = sb[i]
        if ints:
            if va != vb:
                return False, f"sample {i}: {va} != {vb}"
            continue
        va, vb = _f(va), _f(vb)
        if math.isnan(vb) or math.isnan(va):
            if not (math.isnan(va) and math.isnan(vb)):
                return False, f"sample {i}: {va} vs {vb}"
        elif math.isinf(vb) or math.isinf(va):
            if va != vb:
                return False, f"sample {i}: {va} vs {vb}"
        elif not abs(va - vb) <= atol + rtol * abs(vb) + rounding * (abs(vb) + mean):
            return False, f"sample {i}: {va} vs {vb}"
    return True, ""


# --------------------------------------------------------------------------------------
# .npy (header only, no numpy needed)
# --------------------------------------------------------------------------------------


def npy_header(path):
    """(descr, fortran_order, shape) of a .npy file."""
    with open(path, "rb") as f:
        magic = f.read(6)
        if magic != b"\x93NUMPY":
            raise ValueError(f"{path}: not a .npy file")
        major, _minor = f.read(2)
        if major == 1:
            hlen = int.from_bytes(f.read(2), "little")
        else:
            hlen = int.from_bytes(f.read(4), "little")
        header = ast.literal_eval(f.read(hlen).decode("latin1"))
    return header["descr"], header["fortran_order"], tuple(header["shape"])


NPY_DESCR = {"fp32": "<f4", "fp16": "<f2", "fp64": "<f8", "bf16": "<u2", "i1": "|b1", "i8": "|i1",
             "i16": "<i2", "i32": "<i4", "i64": "<i8", "u8": "|u1"}


# --------------------------------------------------------------------------------------
# Kernel signature (for validation)
# --------------------------------------------------------------------------------------


def kernel_params(source, name=None):
    """(name, runtime params, constexpr params) of the kernel in a kernel source: the
    @triton.jit function called `name`, else the last one (a source can define helper
    @triton.jit functions first, such as the combine function of a scan)."""
    tree = ast.parse(source)
    found = []
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef):
            continue
        decos = [ast.unparse(d) for d in node.decorator_list]
        if not any(d.startswith(("triton.jit", "jit")) for d in decos):
            continue
        runtime, const = [], []
        for a in node.args.args:
            ann = ast.unparse(a.annotation) if a.annotation is not None else ""
            (const if ann.endswith("constexpr") else runtime).append(a.arg)
        found.append((node.name, runtime, const))
    if not found:
        raise ValueError("no @triton.jit function")
    for f in found:
        if f[0] == name:
            return f
    if name is not None:
        raise ValueError(f"no @triton.jit function named {name}")
    return found[-1]


# --------------------------------------------------------------------------------------
# Validation
# --------------------------------------------------------------------------------------


class BundleError(Exception):
    pass


def _is_int(x):
    return isinstance(x, int) and not isinstance(x, bool)


def _is_num(x):
    return (_is_int(x) or isinstance(x, float)
            or (isinstance(x, str) and x in ("nan", "inf", "-inf")))


def view_elements(ref):
    n = 1
    for s in ref["shape"]:
        n *= s
    return n


def validate(bundle_dir, check_files=True):
    """Checks a bundle against docs/bundle-format.md; returns a list of error strings."""
    errors = []

    def err(where, msg):
        errors.append(f"{where}: {msg}")

    try:
        g = load_graph(bundle_dir)
    except Exception as e:  # noqa: BLE001
        return [f"graph.json: {e}"]
    if not isinstance(g, dict):
        return ["graph.json: not an object"]
    for k in g:
        if k not in TOP_KEYS + OPTIONAL_TOP_KEYS:
            err("graph.json", f"unknown key {k!r}")
    for k in TOP_KEYS:
        if k not in g:
            err("graph.json", f"missing key {k!r}")
    if errors:
        return errors
    if g["format"] != BUNDLE_FORMAT:
        err("format", f"{g['format']!r}")
    if g["version"] != BUNDLE_VERSION:
        err("version", f"{g['version']!r}")
    if not isinstance(g["model"], dict):
        err("model", "not an object")
    if not _is_int(g["seed"]) or g["seed"] < 0:
        err("seed", "not a non-negative integer")
    if g.get("fingerprint_source", "device") not in FINGERPRINT_SOURCES:
        err("fingerprint_source", f"{g['fingerprint_source']!r}: one of {', '.join(FINGERPRINT_SOURCES)}")

    storages = g["storages"]
    for n, s in enumerate(storages):
        w = f"storages[{n}]"
        if not isinstance(s, dict) or set(s) != {"id", "dtype", "elements"}:
            err(w, f"keys must be id, dtype, elements: {s!r}")
            continue
        if s["id"] != n:
            err(w, f"id {s['id']} is not dense (expected {n})")
        if s["dtype"] not in DTYPES:
            err(w, f"dtype {s['dtype']!r}")
        if not _is_int(s["elements"]) or s["elements"] < 0:
            err(w, f"elements {s['elements']!r}")
    if errors:
        return errors

    def check_ref(w, t):
        if not isinstance(t, dict) or set(t) != {"storage", "offset", "shape", "stride"}:
            err(w, f"a tensor reference needs storage, offset, shape, stride: {t!r}")
            return False
        sid = t["storage"]
        if not _is_int(sid) or not 0 <= sid < len(storages):
            err(w, f"storage {sid!r} is not declared")
            return False
        shape, stride, off = t["shape"], t["stride"], t["offset"]
        if (not isinstance(shape, list) or not isinstance(stride, list)
                or len(shape) != len(stride) or not all(_is_int(x) and x >= 0 for x in shape)
                or not all(_is_int(x) for x in stride) or not _is_int(off) or off < 0):
            err(w, f"bad shape/stride/offset {shape!r} {stride!r} {off!r}")
            return False
        if any(x == 0 for x in shape):
            return True
        lo = off + sum(min(0, (n - 1) * st) for n, st in zip(shape, stride))
        hi = off + sum(max(0, (n - 1) * st) for n, st in zip(shape, stride))
        if lo < 0 or hi >= storages[sid]["elements"]:
            err(w, f"view addresses [{lo}, {hi}] outside storage {sid} of "
                   f"{storages[sid]['elements']} elements")
            return False
        return True

    def check_fp(w, fp, key, dtype, n_elements):
        keys = {key, "elements", "sum", "abs_sum", "nan", "inf", "samples"}
        if not isinstance(fp, dict) or set(fp) != keys:
            err(w, f"fingerprint keys must be {sorted(keys)}: {sorted(fp) if isinstance(fp, dict) else fp!r}")
            return
        if fp["elements"] != n_elements:
            err(w, f"fingerprint elements {fp['elements']} != view elements {n_elements}")
        if not (_is_num(fp["sum"]) and _is_num(fp["abs_sum"])):
            err(w, "sum/abs_sum not numbers")
        if dtype not in FLOAT_DTYPES and not (_is_int(fp["sum"]) and _is_int(fp["abs_sum"])):
            err(w, "integer tensors need integer sums")
        expect = sample_indices(n_elements)
        if [s[0] for s in fp["samples"] if isinstance(s, list) and len(s) == 2] != expect:
            err(w, "sample indices are not round(k * (n - 1) / 63)")
        for s in fp["samples"]:
            if not (isinstance(s, list) and len(s) == 2 and _is_num(s[1])):
                err(w, f"bad sample {s!r}")
                break

    # inputs
    input_storage_init = {}
    streams = {}
    for n, inp in enumerate(g["inputs"]):
        w = f"inputs[{n}]"
        if not isinstance(inp, dict) or set(inp) != {"name", "tensor", "init"}:
            err(w, f"keys must be name, tensor, init: {sorted(inp) if isinstance(inp, dict) else inp!r}")
            continue
        if not check_ref(w, inp["tensor"]):
            continue
        init = inp["init"]
        sid = inp["tensor"]["storage"]
        dtype = storages[sid]["dtype"]
        kind = init.get("kind") if isinstance(init, dict) else None
        want = {"uniform": {"kind", "low", "high", "stream"}, "randint": {"kind", "low", "high", "stream"},
                "constant": {"kind", "value"}}.get(kind)
        if want is None or set(init) != want:
            err(w, f"bad init {init!r}")
            continue
        if kind == "uniform":
            if dtype not in FLOAT_DTYPES:
                err(w, f"uniform init on a {dtype} storage")
            if not (isinstance(init["low"], (int, float)) and isinstance(init["high"], (int, float))):
                err(w, "uniform low/high must be numbers")
        if kind == "randint" and not (_is_int(init["low"]) and _is_int(init["high"])
                                      and init["high"] > init["low"]):
            err(w, f"randint needs integers high > low: {init!r}")
        if kind in ("uniform", "randint"):
            if not _is_int(init["stream"]) or init["stream"] < 0:
                err(w, f"bad stream {init['stream']!r}")
        if sid in input_storage_init:
            if input_storage_init[sid] != init:
                err(w, f"storage {sid} is also an earlier input's, with a different init")
        else:
            input_storage_init[sid] = init
            if "stream" in init:
                if init["stream"] in streams:
                    err(w, f"stream {init['stream']} is also input {streams[init['stream']]}'s")
                streams[init["stream"]] = n

    # steps
    kernel_cache = {}
    for n, st in enumerate(g["steps"]):
        w = f"steps[{n}]"
        if not isinstance(st, dict):
            err(w, "not an object")
            continue
        kind = st.get("kind")
        if kind == "launch":
            keys = {"kind", "kernel", "grid", "constexprs", "args", "writes", "fingerprints"}
            if set(st) - {"num_warps", "num_stages"} != keys:
                err(w, f"launch keys must be {sorted(keys)} [and num_warps, num_stages]: {sorted(st)}")
                continue
            for key in ("num_warps", "num_stages"):
                if key in st and not (_is_int(st[key]) and st[key] >= 1):
                    err(w, f"{key} must be a positive integer: {st[key]!r}")
            kname = st["kernel"]
            if not isinstance(kname, str) or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", kname):
                err(w, f"bad kernel name {kname!r}")
                continue
            if check_files:
                if kname not in kernel_cache:
                    p = os.path.join(bundle_dir, "kernels", kname + ".py")
                    try:
                        with open(p, encoding="utf-8") as f:
                            kernel_cache[kname] = kernel_params(f.read(), kname)
                    except Exception as e:  # noqa: BLE001
                        kernel_cache[kname] = e
                kp = kernel_cache[kname]
                if isinstance(kp, Exception):
                    err(w, f"kernels/{kname}.py: {kp}")
                else:
                    _, runtime, const = kp
                    if len(runtime) != len(st["args"]):
                        err(w, f"{len(st['args'])} args for {len(runtime)} parameters {runtime}")
                    for c in st["constexprs"]:
                        if c not in const:
                            err(w, f"constexpr {c!r} is not a constexpr parameter of {kname}")
            grid = st["grid"]
            if not (isinstance(grid, list) and len(grid) == 3 and all(_is_int(x) and x >= 0 for x in grid)):
                err(w, f"bad grid {grid!r}")
            if not isinstance(st["constexprs"], dict) or not all(
                    _is_int(v) or isinstance(v, bool) for v in st["constexprs"].values()):
                err(w, f"bad constexprs {st['constexprs']!r}")
            tensor_args = set()
            for m, a in enumerate(st["args"]):
                if isinstance(a, dict) and set(a) == {"tensor"}:
                    if check_ref(f"{w}.args[{m}]", a["tensor"]):
                        tensor_args.add(m)
                elif isinstance(a, dict) and set(a) == {"value"} and _is_num(a["value"]):
                    pass
                else:
                    err(f"{w}.args[{m}]", f"bad argument {a!r}")
            if not isinstance(st["writes"], list) or not all(x in tensor_args for x in st["writes"]):
                err(w, f"writes {st['writes']!r} must index tensor arguments")
                continue
            fps = st["fingerprints"]
            if not isinstance(fps, list):
                err(w, "fingerprints not a list")
                continue
            for fp in fps:
                a = fp.get("arg") if isinstance(fp, dict) else None
                if a not in st["writes"]:
                    err(w, f"fingerprint for arg {a!r}, not a written argument")
                    continue
                t = st["args"][a]["tensor"]
                check_fp(f"{w}.fingerprints", fp, "arg", storages[t["storage"]]["dtype"], view_elements(t))
        elif kind == "call":
            keys = {"kind", "op", "args", "out", "fingerprints"}
            if set(st) - {"values"} != keys:
                err(w, f"call keys must be {sorted(keys)} [and values]: {sorted(st)}")
                continue
            if not isinstance(st["op"], str) or not re.fullmatch(r"[a-z_]+\.[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)?", st["op"]):
                err(w, f"bad op {st['op']!r}")

            def walk(v, path):
                if isinstance(v, dict):
                    if set(v) == {"tensor"}:
                        check_ref(path, v["tensor"])
                    else:
                        err(path, f"an object argument must be a tensor reference: {v!r}")
                elif isinstance(v, list):
                    for k, x in enumerate(v):
                        walk(x, f"{path}[{k}]")
                elif v is None or isinstance(v, (bool, int, float, str)):
                    pass
                else:
                    err(path, f"bad argument {v!r}")

            walk(st["args"], f"{w}.args")
            outs = st["out"]
            if not isinstance(outs, list):
                err(w, "out not a list")
                continue
            for m, o in enumerate(outs):
                if not (isinstance(o, dict) and set(o) == {"tensor"}):
                    err(f"{w}.out[{m}]", f"bad out {o!r}")
                else:
                    check_ref(f"{w}.out[{m}]", o["tensor"])
            for v in st.get("values", []):
                o = v.get("out") if isinstance(v, dict) else None
                if not isinstance(v, dict) or set(v) != {"out", "data"} or not _is_int(o) \
                        or not 0 <= o < len(outs) or not isinstance(v["data"], list):
                    err(f"{w}.values", f"bad values entry (want out, data) {str(v)[:80]!r}")
                    continue
                n_el = view_elements(outs[o]["tensor"])
                if len(v["data"]) != n_el:
                    err(f"{w}.values", f"{len(v['data'])} values for out {o} of {n_el} elements")
                elif not all((isinstance(x, (int, float)) and not isinstance(x, bool))
                             or x in ("nan", "inf", "-inf") for x in v["data"]):
                    err(f"{w}.values", "values must be numbers (or \"nan\", \"inf\", \"-inf\")")
            for fp in st["fingerprints"]:
                o = fp.get("out") if isinstance(fp, dict) else None
                if not _is_int(o) or not 0 <= o < len(outs):
                    err(w, f"fingerprint for out {o!r}")
                    continue
                t = outs[o]["tensor"]
                check_fp(f"{w}.fingerprints", fp, "out", storages[t["storage"]]["dtype"], view_elements(t))
        else:
            err(w, f"unknown step kind {kind!r}")

    # outputs
    for n, o in enumerate(g["outputs"]):
        w = f"outputs[{n}]"
        if not isinstance(o, dict) or not ({"name", "tensor", "fingerprint"} <= set(o) <= {
                "name", "tensor", "fingerprint", "reference"}):
            err(w, f"keys must be name, tensor, [reference,] fingerprint: {o!r}")
            continue
        if not check_ref(w, o["tensor"]):
            continue
        dtype = storages[o["tensor"]["storage"]]["dtype"]
        ne = view_elements(o["tensor"])
        fp = dict(o["fingerprint"], out=0) if isinstance(o["fingerprint"], dict) else o["fingerprint"]
        check_fp(f"{w}.fingerprint", fp, "out", dtype, ne)
        if ne <= REFERENCE_MAX_ELEMENTS and "reference" not in o:
            err(w, f"{ne} elements and no reference")
        if "reference" in o:
            ref = o["reference"]
            if not isinstance(ref, str) or not ref.startswith("reference/") or not ref.endswith(".npy"):
                err(w, f"bad reference path {ref!r}")
            elif check_files:
                try:
                    descr, fortran, shape = npy_header(os.path.join(bundle_dir, ref))
                    if fortran or list(shape) != o["tensor"]["shape"]:
                        err(w, f"{ref}: shape {shape} (fortran {fortran}) != {o['tensor']['shape']}")
                    if descr != NPY_DESCR[dtype] and not (dtype == "bf16" and descr == "<f4"):
                        err(w, f"{ref}: dtype {descr} for a {dtype} output")
                except Exception as e:  # noqa: BLE001
                    err(w, f"{ref}: {e}")
    return errors


def summary(bundle_dir):
    """Counts for reports: launches, distinct kernels, calls by op, bytes."""
    g = load_graph(bundle_dir)
    launches = [s for s in g["steps"] if s["kind"] == "launch"]
    calls = [s for s in g["steps"] if s["kind"] == "call"]
    ops = {}
    for c in calls:
        ops[c["op"]] = ops.get(c["op"], 0) + 1
    size = 0
    for root, _, files in os.walk(bundle_dir):
        for f in files:
            size += os.path.getsize(os.path.join(root, f))
    return {"launches": len(launches), "kernels": len({s["kernel"] for s in launches}),
            "calls": len(calls), "ops": ops, "storages": len(g["storages"]),
            "inputs": len(g["inputs"]), "outputs": len(g["outputs"]), "bytes": size}
