"""Dynamic sizes in a capture (docs/bundle-format.md, "Dynamic sizes").

    PYTHONPATH=python python3 -m npusim.dynamic_shapes SPEC OUT_DIR --sizes batch=8[,seq=16]

SIZES names options of the built-in model SPEC (``mlp``'s ``batch``) and their captured
values. The model is compiled with ``torch.compile(dynamic=True)`` (Inductor), so its
sizes are symbols (``s0``, and the kernels' ``ks0`` and numel scalars), and captured
(``npusim.capture``) at the captured sizes and at further bindings of them. Every integer
of the bundle that changes between the bindings (storage sizes, shapes, strides, offsets,
scalar arguments, library-call arguments) is written as an expression of the symbols:
the polynomial with each symbol to a power of at most 2 and integer coefficients that
reproduces it at every binding (the bindings are the grid that determines it and one more
binding off the grid, at which it is checked). A launch's grid is Inductor's
``cdiv(xnumel, XBLOCK)`` (y, z likewise) where that reproduces every binding, each with its
own block size. Block sizes and warps are the launcher's tuning choices, not sizes: the
captured binding's are kept. A value that no such expression reproduces fails, naming it.

The symbols' ranges and the guards come from the graph's ``ShapeEnv``: ``var_to_range``
and ``guards``. Symbols the ShapeEnv fixed to one value (a size that a weight's shape
decides), and symbols that every binding held at one value, are that constant
(symbols_and_guards). Guards that are comparisons of integer expressions (sums,
products, ``//``, ``%``, ``min``, ``max``) of the bundle's symbols, or conjunctions of
them, are written in the format's expression syntax; any other guard is recorded as
text, ``"checked": false``.
"""

import argparse
import gc
import itertools
import json
import os
import shutil
import sys

from .recorder import CaptureError

MAX_DEGREE = 2
# A launch's keys that are the launcher's tuning choices, not sizes.
TUNING = ("constexprs", "num_warps", "num_stages")


def parse_sizes(text):
    """'batch=8,seq=16' -> {"batch": 8, "seq": 16}: each at least 2 (Dynamo specialises 0
    and 1) and distinct (Dynamo gives equal sizes one symbol)."""
    out = {}
    for item in [p.strip() for p in str(text).split(",") if p.strip()]:
        name, _, v = item.partition("=")
        if not name.strip().isidentifier() or not v.strip().lstrip("-").isdigit():
            raise CaptureError(f"--sizes {item!r}: expected NAME=INTEGER")
        out[name.strip()] = int(v)
    if not out:
        raise CaptureError("--sizes names no size")
    for name, v in out.items():
        if v < 2:
            raise CaptureError(f"--sizes {name}={v}: a dynamic size must be at least 2 (Dynamo "
                               "specialises 0 and 1)")
    if len(set(out.values())) != len(out):
        raise CaptureError(f"--sizes {out}: the sizes must differ (Dynamo gives equal sizes one "
                           "symbol)")
    return out


def monomials(names):
    """The monomials with each name's exponent at most MAX_DEGREE (a tensor-product basis:
    batch * seq^2, the elements of a batch of attention scores, is one), as tuples of names."""
    out = []
    for exps in itertools.product(range(MAX_DEGREE + 1), repeat=len(names)):
        out.append(tuple(n for n, e in zip(names, exps) for _ in range(e)))
    return sorted(out, key=len)


def further_bindings(captured):
    """Bindings beside the captured one: the grid of offsets 0..MAX_DEGREE from the captured
    values on every axis (which determines the tensor-product polynomial exactly), and one
    binding off the grid, so that a fit is also checked where it was not determined."""
    names = list(captured)
    out = []
    for offs in itertools.product(range(MAX_DEGREE + 1), repeat=len(names)):
        if any(offs):
            out.append({n: captured[n] + d for n, d in zip(names, offs)})
    out.append({n: captured[n] + MAX_DEGREE + 1 + 2 * i for i, n in enumerate(names)})
    for b in out:
        if len(set(b.values())) != len(b):
            raise CaptureError(f"--dynamic: the binding {b} beside the captured one has equal "
                               "sizes (Dynamo would give them one symbol); capture at sizes "
                               "further apart")
    return out


# ---- the structure of a graph: its integers that may depend on the sizes ----

def skeleton(graph):
    """The parts of graph.json whose integers are sizes: storages, the inputs' and outputs'
    tensors, and the steps without their fingerprints and drawn values."""
    return {
        "storages": graph["storages"],
        "inputs": [{"name": i["name"], "tensor": i["tensor"]} for i in graph["inputs"]],
        "steps": [{k: v for k, v in s.items() if k not in ("fingerprints", "values")}
                  for s in graph["steps"]],
        "outputs": [{"name": o["name"], "tensor": o["tensor"]} for o in graph["outputs"]],
    }


def _leaves(node, path, out):
    if isinstance(node, dict):
        for k in node:
            _leaves(node[k], path + (k,), out)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            _leaves(v, path + (i,), out)
    else:
        out[path] = node
    return out


def _eval_poly(coeffs, binding):
    total = 0
    for mono, c in coeffs:
        term = c
        for n in mono:
            term *= binding[n]
        total += term
    return total


def fit_polynomial(values, bindings, names):
    """Integer coefficients of the polynomial of degree <= MAX_DEGREE that gives values[k]
    at bindings[k] for every k, or None. Solved by least squares, rounded, then checked
    exactly at every binding."""
    import numpy as np

    monos = monomials(names)
    a = np.array([[float(_eval_poly([(m, 1)], b)) for m in monos] for b in bindings])
    y = np.array([float(v) for v in values])
    sol, *_ = np.linalg.lstsq(a, y, rcond=None)
    coeffs = [(m, int(round(c))) for m, c in zip(monos, sol) if int(round(c)) != 0]
    if all(_eval_poly(coeffs, b) == v for b, v in zip(bindings, values)):
        return coeffs
    return None


def poly_text(coeffs):
    """'64*batch*seq + 3*seq - 1' (monomials in order of increasing degree)."""
    if not coeffs:
        return "0"
    parts = []
    for mono, c in coeffs:
        factors = list(mono)
        if not factors:
            term = str(abs(c))
        elif abs(c) == 1:
            term = "*".join(factors)
        else:
            term = "*".join([str(abs(c))] + factors)
        parts.append(("-" if c < 0 else "+", term))
    text = ("-" if parts[0][0] == "-" else "") + parts[0][1]
    for sign, term in parts[1:]:
        text += f" {sign} {term}"
    return text


def _cdiv(a, b):
    return -(-a // b)


def symbolize(graph, skeletons, bindings, param_name=lambda step, j: ""):
    """Writes into graph (the captured binding's, bindings[0]) every integer that differs
    between the skeletons as {"sym": EXPR}; returns the number of such values. Raises
    CaptureError naming every value that is not an integer expression of the symbols, or
    whose structure differs between bindings (a recompiled graph). param_name(step, j):
    the name of a launch's j-th kernel parameter."""
    names = list(bindings[0])
    leaves = [_leaves(s, (), {}) for s in skeletons]
    problems = []
    for k, lv in enumerate(leaves[1:], 1):
        if lv.keys() != leaves[0].keys():
            diff = sorted(set(lv) ^ set(leaves[0]), key=str)[:3]
            raise CaptureError(f"the graph at {bindings[k]} differs in structure from the graph at "
                               f"{bindings[0]} (first differences at {diff}): Inductor compiled "
                               "another graph there, or its buffers are laid out differently")
    exprs = {}
    grids = []
    for path, v0 in leaves[0].items():
        vals = [lv[path] for lv in leaves]
        is_grid = path[0] == "steps" and len(path) == 4 and path[2] == "grid"
        if path[0] == "steps" and path[2] in TUNING:
            continue  # the captured binding's choice
        if all(v == v0 for v in vals) and not is_grid:
            continue
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in vals):
            problems.append(f"{_path_text(path)}: {vals} differ between bindings and are not integers")
            continue
        if is_grid:
            grids.append((path, vals))  # after the arguments it follows from
            continue
        coeffs = fit_polynomial(vals, bindings, names)
        if coeffs is not None:
            exprs[path] = poly_text(coeffs)
        else:
            problems.append(f"{_path_text(path)}: {vals} at {bindings}: no polynomial with "
                            f"each of {names} to a power <= {MAX_DEGREE} and integer coefficients")
    # A launch's grid: Inductor's launcher computes cdiv(xnumel, XBLOCK) on axis x (y, z
    # likewise), which is constant over small bindings and not beyond them; so that rule
    # comes first, then a polynomial, then cdiv(any scalar argument, a power of two).
    for path, vals in grids:
        si, axis = path[1], path[3]
        step = skeletons[0]["steps"][si]
        args = step.get("args", [])

        def arg_vals(j):
            return [leaves[k].get(("steps", si, "args", j, "value")) for k in range(len(leaves))]

        def arg_expr(j):
            return exprs.get(("steps", si, "args", j, "value"), str(arg_vals(j)[0]))

        found = None
        letter = "xyz"[axis] if axis < 3 else None
        bkey = f"{letter.upper()}BLOCK" if letter else None
        blocks = [sk["steps"][si].get("constexprs", {}).get(bkey) for sk in skeletons]
        for j, a in enumerate(args):
            if (all(isinstance(b, int) and b > 0 for b in blocks) and isinstance(a, dict)
                    and "value" in a and param_name(step, j) == f"{letter}numel"
                    and all(isinstance(x, int) and _cdiv(x, b) == v
                            for x, b, v in zip(arg_vals(j), blocks, vals))):
                found = f"cdiv({arg_expr(j)}, {blocks[0]})"
        if found is None and any(v != vals[0] for v in vals):
            coeffs = fit_polynomial(vals, bindings, names)
            if coeffs is not None:
                found = poly_text(coeffs)
            for j, a in enumerate(args):
                if found is not None:
                    break
                if not isinstance(a, dict) or "value" not in a:
                    continue
                for c in [2 ** e for e in range(17)]:
                    if all(isinstance(x, int) and _cdiv(x, c) == v for x, v in zip(arg_vals(j), vals)):
                        found = f"cdiv({arg_expr(j)}, {c})"
                        break
            if found is None:
                problems.append(f"{_path_text(path)}: {vals} at {bindings}: neither a polynomial "
                                "nor cdiv(a scalar argument, a power of two)")
        if found is not None:
            exprs[path] = found
    if problems:
        raise CaptureError("dynamic sizes that are no expression npusim can evaluate:\n  "
                           + "\n  ".join(problems[:20]))
    for path, e in exprs.items():
        node = graph
        for p in path[:-1]:
            node = node[p]
        node[path[-1]] = {"sym": e}
    return len(exprs)


def _path_text(path):
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".")


# ---- ShapeEnv: symbols, ranges, guards ----

def env_record(shape_env):
    """What the bundle needs of a ShapeEnv, as JSON (sympy's srepr of each guard, so that
    it is read back without torch): every symbol's value and range, and the guards."""
    import sympy

    vals = getattr(shape_env, "backed_var_to_val", None) or shape_env.var_to_val
    return {"val": {str(k): int(v) for k, v in vals.items() if getattr(v, "is_Integer", True)},
            "rng": {str(k): [str(r.lower), str(r.upper)] for k, r in shape_env.var_to_range.items()},
            "guards": [[sympy.srepr(g.expr), str(g.expr)] for g in shape_env.guards]}


def _read_srepr(text):
    """A guard's srepr read back with sympy alone: torch's functions (FloorDiv, PythonMod,
    ...) become undefined functions of their name, which expr_text knows by name."""
    import sympy

    ns = {k: getattr(sympy, k) for k in dir(sympy) if not k.startswith("_")}

    class Namespace(dict):
        def __missing__(self, key):
            return sympy.Function(key)

    return eval(text, {"__builtins__": {}}, Namespace(ns))  # noqa: S307 - our own srepr


class NotExpressible(Exception):
    pass


def expr_text(e, names):
    """A sympy integer expression in the format's syntax, or NotExpressible. names maps the
    ShapeEnv's symbols' names to the bundle's names (or to constants)."""
    import sympy

    cls = type(e).__name__
    if e.is_Integer:
        return str(int(e))
    if e.is_Symbol:  # by name: the ShapeEnv gives a symbol assumptions a srepr may lack
        if str(e) not in names:
            raise NotExpressible(f"symbol {e} is no dynamic size of the bundle")
        return names[str(e)]
    if isinstance(e, sympy.Add):
        return "(" + " + ".join(expr_text(a, names) for a in e.args) + ")"
    if isinstance(e, sympy.Mul):
        return "(" + "*".join(expr_text(a, names) for a in e.args) + ")"
    if isinstance(e, sympy.Pow) and e.exp.is_Integer and int(e.exp) >= 0:
        base = expr_text(e.base, names)
        return "(" + "*".join([base] * int(e.exp)) + ")" if int(e.exp) else "1"
    if cls in ("FloorDiv", "CleanDiv"):  # CleanDiv: a division Inductor knows is exact
        return f"({expr_text(e.args[0], names)} // {expr_text(e.args[1], names)})"
    if cls in ("Mod", "PythonMod"):
        return f"({expr_text(e.args[0], names)} % {expr_text(e.args[1], names)})"
    if cls == "CeilDiv":
        return f"cdiv({expr_text(e.args[0], names)}, {expr_text(e.args[1], names)})"
    if cls in ("Max", "Min") and len(e.args) == 2:
        return f"{cls.lower()}({expr_text(e.args[0], names)}, {expr_text(e.args[1], names)})"
    raise NotExpressible(f"{cls} is not in the format's expression syntax")


_RELATIONS = {"Equality": "==", "Unequality": "!=", "StrictLessThan": "<", "LessThan": "<=",
              "StrictGreaterThan": ">", "GreaterThan": ">="}


def guards_json(expr, names):
    """guard_json of each comparison of a conjunction (one guard each, since all must hold),
    or of the expression."""
    if type(expr).__name__ == "And":
        return [j for a in expr.args for j in guards_json(a, names)]
    return [guard_json(expr, names)]


def guard_json(expr, names):
    """{"expr": "A OP B", "checked": true} or {"expr": sympy text, "checked": false, "why"}."""
    op = _RELATIONS.get(type(expr).__name__)
    try:
        if op is None:
            raise NotExpressible(f"{type(expr).__name__} is not a comparison")
        return {"expr": f"{expr_text(expr.lhs, names)} {op} {expr_text(expr.rhs, names)}",
                "checked": True}
    except NotExpressible as e:
        return {"expr": str(expr), "checked": False, "why": str(e)}


def varying_input_values(graphs):
    """The integers of the inputs' views (shape, stride, offset) that differ between the
    captures of the bindings (graphs, the captured binding's first), at the captured binding:
    the values a ShapeEnv symbol that varies with the sizes may have there."""
    out = set()
    for k, inp in enumerate(graphs[0]["inputs"]):
        views = [g["inputs"][k]["tensor"] for g in graphs]
        for key in ("shape", "stride"):
            for j, v in enumerate(views[0][key]):
                if any(view[key][j] != v for view in views[1:]):
                    out.add(v)
        if any(view["offset"] != views[0]["offset"] for view in views[1:]):
            out.add(views[0]["offset"])
    return out


def symbols_and_guards(env, binding, varying=()):
    """(symbols, guards) of the bundle from env_record's record: each of binding's names with
    its captured value and the range of the ShapeEnv symbol of that value; the guards, with
    every other symbol written as its captured value. That is a symbol the ShapeEnv fixed to
    one value, or one Dynamo made dynamic that the capture held at one value at every
    binding (a model dimension it reads off a tensor, such as a cache's heads): the
    bundle's kernels and integers were captured at that value, so it is a constant of the
    bundle. A symbol whose value is one of `varying` (varying_input_values) may vary with the
    sizes without being one of them: it stays a symbol, and its guards are not checked."""
    by_value = {}
    for sym, val in env["val"].items():
        lo, hi = env["rng"].get(sym, [None, None])
        if lo != hi:  # a symbol the ShapeEnv did not fix
            by_value.setdefault(int(val), []).append(sym)
    names, symbols = {}, []
    for name, v in binding.items():
        syms = by_value.get(v, [])
        if len(syms) != 1:
            raise CaptureError(f"size {name}={v}: {len(syms)} free symbols of the ShapeEnv have "
                               f"that value ({syms}); expected one")
        names[syms[0]] = name
        lo, hi = env["rng"][syms[0]]
        symbols.append({"name": name, "value": int(v), "min": _bound(lo) or 0, "max": _bound(hi),
                        "inductor": syms[0]})
    for sym, val in env["val"].items():  # every other symbol: its captured value
        if sym not in names and int(val) not in varying:
            names[sym] = str(int(val))
    guards, seen = [], set()
    for rep, text in env["guards"]:
        try:
            e = _read_srepr(rep)
        except Exception as exc:  # noqa: BLE001
            read = [{"expr": text, "checked": False, "why": f"not read: {exc}"}]
        else:
            read = guards_json(e, names)
        for j in read:
            if j["expr"] not in seen:
                seen.add(j["expr"])
                guards.append(j)
    return symbols, guards


def _bound(b):
    try:
        v = int(str(b))
    except (TypeError, ValueError, OverflowError):
        return None  # +-oo, int_oo
    return v if abs(v) < 2 ** 62 else None


# ---- the capture and the bundle ----

def binding_dirs(out_dir, count):
    """Where capture_dynamic puts the capture at each of `count` bindings."""
    return [os.path.join(out_dir, "bindings", f"b{k}") for k in range(count)]


def env_path(binding_dir):
    """The ShapeEnv record (env_record) beside the captures of the bindings."""
    return os.path.join(os.path.dirname(os.path.abspath(binding_dir)), "env.json")


def capture_dynamic(spec, out_dir, sizes, log=print, seed=0, only=None):
    """Captures SPEC with the sizes (parse_sizes) dynamic, at the captured binding and the
    further bindings (each under out_dir/bindings/bK, the first with its self-replay and
    the ShapeEnv's record in out_dir/bindings/env.json), and writes the dynamic bundle to
    out_dir (assemble). With `only` = K, captures binding K alone and returns None: a
    model too large to capture every binding in one process's time is captured one
    binding per process, and assembled by `--assemble` from the directories."""
    bindings = [sizes] + further_bindings(sizes)
    if only is not None and not 0 <= only < len(bindings):
        raise CaptureError(f"--binding {only}: the bindings are 0..{len(bindings) - 1} ({bindings})")
    import torch

    from . import capture

    capture.require_inductor(torch)
    envs = []

    def compile_fn(fn):
        from torch._guards import detect_fake_mode
        from torch._inductor.compile_fx import compile_fx

        def backend(gm, example_inputs):  # Inductor, keeping the graph's ShapeEnv
            fake = detect_fake_mode(example_inputs)
            if fake is not None and fake.shape_env is not None:
                envs.append(fake.shape_env)
            return compile_fx(gm, example_inputs)

        return torch.compile(fn, backend=backend, dynamic=True)

    import torch._dynamo.config as dcfg

    for key in ("recompile_limit", "cache_size_limit"):  # one compile per binding
        if hasattr(dcfg, key):
            setattr(dcfg, key, 64)
    # A model's Python floats (an RMSNorm's eps) stay constants of the graph: unspecialised,
    # Dynamo would make each a float64 scalar input that no model tensor provides.
    if hasattr(dcfg, "specialize_float"):
        dcfg.specialize_float = True
    dirs = binding_dirs(out_dir, len(bindings))
    env = None
    for k, b in enumerate(bindings):
        d = dirs[k]
        if only is not None and k != only:
            continue
        full = spec + "".join(f",{n}={v}" for n, v in b.items())
        log(f"binding {k}: {full}")
        capture.capture(full, d, compile_fn=compile_fn, self_replay=(k == 0), seed=seed,
                        size_inputs=True, log=log)
        if k == 0:
            env = env_record(envs[-1])
            with open(env_path(d), "w") as f:
                json.dump(env, f)
        # Each binding builds its own model: Dynamo's cache would keep the last one's
        # graph, and with it its parameters on the device, alive beside the next (a
        # billion-parameter model's weights once per binding).
        envs.clear()
        torch._dynamo.reset()
        gc.collect()
        if torch.cuda.is_available():
            torch.cuda.empty_cache()
    if only is not None:
        return None
    return assemble(dirs, bindings, env, out_dir)


def assemble(dirs, bindings, env, out_dir):
    """The dynamic bundle in out_dir from the captures in dirs (at bindings; the first is the
    captured one, whose kernels, fingerprints and references the bundle keeps) and the
    ShapeEnv's record env. Returns the bundle's symbols."""
    from . import bundle

    graphs = [bundle.load_graph(d) for d in dirs]
    kernel_sets = [sorted(os.listdir(os.path.join(d, "kernels"))) for d in dirs]
    for d, ks in zip(dirs[1:], kernel_sets[1:]):
        if ks != kernel_sets[0]:
            only_here = sorted(set(ks) - set(kernel_sets[0]))
            only_first = sorted(set(kernel_sets[0]) - set(ks))
            raise CaptureError(
                f"{d}: Inductor compiled this binding into other kernels than {dirs[0]} "
                f"(only here: {only_here}; only there: {only_first}). A captured size equal to "
                "one of the model's own dimensions shares that dimension's symbol at the captured "
                "binding alone (Dynamo gives equal sizes one symbol): capture at sizes no "
                "dimension of the model has")
    graph = graphs[0]

    def param_name(step, j):
        src = open(os.path.join(dirs[0], "kernels", step["kernel"] + ".py"), encoding="utf-8").read()
        try:
            return bundle.kernel_params(src)[1][j]
        except Exception:  # noqa: BLE001
            return ""

    varying = varying_input_values(graphs)
    n = symbolize(graph, [skeleton(g) for g in graphs], bindings, param_name)
    symbols, guards = symbols_and_guards(env, bindings[0], varying)
    graph["symbols"] = symbols
    graph["guards"] = guards
    # The device's fingerprints and eager PyTorch's outputs at the other bindings, which
    # their captures recorded: a reader verifies against them at those sizes.
    recorded, references = [], {}
    for k, (g, d) in enumerate(zip(graphs[1:], dirs[1:]), 1):
        outs = []
        for o in g["outputs"]:
            out = {"fingerprint": o["fingerprint"]}
            if "reference" in o:
                out["reference"] = f"reference/b{k}/{os.path.basename(o['reference'])}"
                references[out["reference"]] = os.path.join(d, o["reference"])
            outs.append(out)
        recorded.append({"sizes": bindings[k],
                         "steps": [st.get("fingerprints", []) for st in g["steps"]],
                         "outputs": outs})
    graph["recorded_sizes"] = recorded
    graph["model"]["dynamic"] = {"bindings_captured": bindings, "symbolic_values": n,
                                 "shape_env": env}
    if os.path.abspath(out_dir) != os.path.abspath(dirs[0]):
        for sub in ("kernels", "reference"):
            shutil.rmtree(os.path.join(out_dir, sub), ignore_errors=True)
            if os.path.isdir(os.path.join(dirs[0], sub)):
                shutil.copytree(os.path.join(dirs[0], sub), os.path.join(out_dir, sub))
    for rel, src in references.items():
        os.makedirs(os.path.dirname(os.path.join(out_dir, rel)), exist_ok=True)
        shutil.copyfile(src, os.path.join(out_dir, rel))
    bundle.write_graph(os.path.join(out_dir, "graph.json"), graph)
    return symbols, guards, n


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 -m npusim.dynamic_shapes",
                                 description="Capture a model with dynamic sizes into an npusim bundle.")
    ap.add_argument("spec")
    ap.add_argument("out_dir")
    ap.add_argument("--sizes", required=True, help="NAME=VALUE,...: the model options that are "
                    "dynamic sizes, with their captured values")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--binding", type=int, metavar="K",
                    help="capture binding K alone (0 is the captured sizes, with the self-replay "
                         "and OUT_DIR/bindings/env.json), to assemble later with --assemble")
    ap.add_argument("--assemble", nargs="+", metavar="DIR",
                    help="only assemble: the captures at each binding (the captured first), "
                         "with the ShapeEnv record at DIR0/../env.json")
    args = ap.parse_args(argv)
    try:
        sizes = parse_sizes(args.sizes)
        if args.assemble:
            if not os.path.isfile(env_path(args.assemble[0])):
                raise CaptureError(f"--assemble: no ShapeEnv record {env_path(args.assemble[0])} "
                                   "(binding 0's capture writes it)")
            with open(env_path(args.assemble[0])) as f:
                env = json.load(f)
            bindings = [sizes] + further_bindings(sizes)
            if len(bindings) != len(args.assemble):
                raise CaptureError(f"--assemble: {len(args.assemble)} directories for "
                                   f"{len(bindings)} bindings {bindings}")
            symbols, guards, n = assemble(args.assemble, bindings, env, args.out_dir)
        else:
            from .torch_env import setup_env

            setup_env()
            done = capture_dynamic(args.spec, args.out_dir, sizes, seed=args.seed, only=args.binding)
            if done is None:
                count = len(further_bindings(sizes)) + 1
                print(f"binding {args.binding} of 0..{count - 1} captured in "
                      f"{binding_dirs(args.out_dir, count)[args.binding]}; assemble with --assemble "
                      + " ".join(binding_dirs(args.out_dir, count)))
                return 0
            symbols, guards, n = done
    except CaptureError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    unchecked = [g["expr"] for g in guards if not g["checked"]]
    print(f"{n} values are expressions of {[s['name'] for s in symbols]}; {len(guards)} guards, "
          f"{len(unchecked)} not checked by npusim" + (f": {unchecked}" if unchecked else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
