"""The Adam bound of an optimizer step, for a replay that checks fingerprints (npusim.replay,
and so the capture's self-replay). The rule, its derivation and its numbers are
docs/bundle-format.md, "Optimizer steps"; npusim's verification applies the same rule
(src/runtime/optimizer_bound.h).

Adam moves an element by lr * m^ / (sqrt(v^) + eps). Where the first moment m is within its
measured rounding of zero (a gradient that is zero in exact arithmetic, computed as rounding
noise: an attention key bias's), the sign of the update is whatever rounding gave it: the
parameter may lie anywhere in the decayed value +- lr * B(t), and that is its check. On a first
step an element whose gradient is near eps gets the allowance its measured rounding moves
x / (|x| + eps) by. Every other element keeps the fixed tolerance. The rounding of m is measured
against every computation of it the bundle records: the step's fingerprint of exp_avg (the
device's compiled step) and an output of exp_avg's storage (the reference computation's moment,
which the outputs of the parameters come from): 8 times the largest |replay - device| / (|device|
+ mean |device|) over their samples, times (|m| + mean |device|). An element the replay computes
as exactly 0 is no rounding when the samples show the device's exact zeros at the replay's (a
gradient no term reaches: an unused embedding row, a dropped-out input).
"""

import math

import numpy as np

# kDriftSafetyFactor in src/runtime/drift.h: the measured drift at 64 samples stands for every
# element and for a third computation (eager PyTorch's reference).
SAFETY = 8.0
PREFIX = "optimizer."


def update_bound(beta1, beta2, t):
    """B(t): the largest |m^| / sqrt(v^) that t steps of Adam's moments from zero allow
    (Cauchy-Schwarz); 1 for t = 1."""
    if t < 1:
        return 1.0
    gamma = beta1 * beta1 / beta2
    geometric = t if abs(gamma - 1.0) < 1e-12 else (1.0 - gamma ** t) / (1.0 - gamma)
    return ((1.0 - beta1) / (1.0 - beta1 ** t) * math.sqrt((1.0 - beta2 ** t) / (1.0 - beta2))
            * math.sqrt(geometric))


def first_step_spread(x, rounding, eps):
    """u(|x| + r) - u(max(|x| - r, 0)) for u(y) = y / (y + eps): how far a first step's update
    moves for a bias-corrected gradient x known to within r (numpy arrays or numbers)."""
    a = np.abs(np.asarray(x, dtype=np.float64))
    r = np.asarray(rounding, dtype=np.float64)

    def u(y):
        return np.where(y > 0, y / np.where(y > 0, y + eps, 1.0), 0.0)

    return u(a + r) - u(np.maximum(a - r, 0.0))


def storage_offsets(ref):
    """The storage element of each logical index of a tensor reference, in logical order."""
    off = np.array(ref["offset"], dtype=np.int64)
    for n, st in zip(ref["shape"], ref["stride"]):
        off = off[..., None] + np.arange(n, dtype=np.int64) * st
    return off.reshape(-1)


def fingerprint_targets(step):
    """(fingerprint, tensor reference) of a step's fingerprints."""
    out = []
    for fp in step.get("fingerprints", []):
        if "arg" in fp:
            a = step["args"][fp["arg"]]
            if isinstance(a, dict) and "tensor" in a:
                out.append((fp, a["tensor"]))
        elif "out" in fp and step["out"][fp["out"]] is not None:
            out.append((fp, step["out"][fp["out"]]["tensor"]))
    return out


def _written_storages(step):
    if step["kind"] == "launch":
        return {step["args"][w]["tensor"]["storage"] for w in step["writes"]}
    return {o["tensor"]["storage"] for o in step["out"] if o is not None}


def _f(v):
    return float(v)  # numbers, and the format's "nan", "inf", "-inf"


class Rule:
    """How to judge the logical elements of one view of a parameter."""

    def __init__(self, interval, low, high, allowance):
        self.interval = interval  # bool per element: judged by [low, high]
        self.low, self.high, self.allowance = low, high, allowance
        self.sum_allowance = float(np.sum(np.where(interval, high - low, allowance)))

    def matches(self, index, actual, expected, rtol, atol):
        """Bool array: element `index` (array) matches under the rule."""
        actual = np.asarray(actual, dtype=np.float64)
        expected = np.asarray(expected, dtype=np.float64)
        lo, hi = self.low[index], self.high[index]
        tol_i = atol + rtol * np.maximum(np.abs(lo), np.abs(hi))
        in_interval = np.isfinite(actual) & (actual >= lo - tol_i) & (actual <= hi + tol_i)
        close = np.abs(actual - expected) <= atol + rtol * np.abs(expected) + self.allowance[index]
        same = (actual == expected) | (np.isnan(actual) & np.isnan(expected))
        return np.where(self.interval[index], in_interval, close | same)


class AdamBound:
    """The rule over one run of a bundle's steps (a graph.json dict)."""

    def __init__(self, graph):
        opt = (graph.get("model") or {}).get("optimizer") or {}
        self.name = opt.get("name")
        self.params = []
        self.not_covered = []
        if self.name not in ("adam", "adamw"):
            return
        self.lr = float(opt["lr"])
        self.beta1, self.beta2 = (float(b) for b in opt["betas"])
        self.eps = float(opt["eps"])
        self.weight_decay = float(opt["weight_decay"])
        by_name = {i["name"]: i for i in graph["inputs"]}
        for i in graph["inputs"]:
            n = i["name"]
            if not (n.startswith(PREFIX) and n.endswith(".exp_avg")):
                continue
            name = n[len(PREFIX):-len(".exp_avg")]
            value, sq = by_name.get(name), by_name.get(f"{PREFIX}{name}.exp_avg_sq")
            step = by_name.get(f"{PREFIX}{name}.step")
            if value is None or sq is None or step is None:
                self.not_covered.append(f"{name}: its parameter, exp_avg_sq or step is no input")
                continue
            same = all(value["tensor"][k] == t["tensor"][k] for t in (i, sq) for k in ("shape", "stride"))
            if not same:
                self.not_covered.append(f"{name}: the parameter and its moments are viewed differently")
                continue
            self.params.append({"name": name, "value": value["tensor"], "exp_avg": i["tensor"],
                                "exp_avg_sq": sq["tensor"], "step": step["tensor"],
                                "snapshot": False, "measured": False, "eps_regime": set()})
        # The outputs are the storages' final values: an output of exp_avg's storage is
        # another computation of the moment that the step last writing it wrote.
        self.writes, self.writes_seen = {}, {}
        for step in graph["steps"]:
            for sid in _written_storages(step):
                self.writes[sid] = self.writes.get(sid, 0) + 1
        self.outputs = [(o["fingerprint"], o["tensor"]) for o in graph.get("outputs", [])
                        if "fingerprint" in o]

    def active(self):
        return bool(self.params)

    def _param_of(self, storage):
        return next((p for p in self.params if p["value"]["storage"] == storage), None)

    def before_step(self, step, read_storage):
        """read_storage(storage id) -> the whole storage as a float64 numpy array."""
        written = _written_storages(step)
        for sid in written:
            self.writes_seen[sid] = self.writes_seen.get(sid, 0) + 1
        for p in self.params:
            if p["snapshot"] or not written & {p[k]["storage"] for k in ("value", "exp_avg", "exp_avg_sq", "step")}:
                continue
            p["snapshot"] = True
            p["before"] = read_storage(p["value"]["storage"])
            count = float(read_storage(p["step"]["storage"])[p["step"]["offset"]])
            p["t"] = int(count) + 1 if math.isfinite(count) and count >= 0 and count == int(count) else 0
            zero = all(not np.any(read_storage(p[k]["storage"])[storage_offsets(p[k])])
                       for k in ("exp_avg", "exp_avg_sq"))
            p["first_step"] = p["t"] == 1 and zero

    def _moment(self, p, e):
        return p["moment"][e - p["value"]["offset"] + p["exp_avg"]["offset"]]

    def _rounding(self, p, m):
        return SAFETY * p["drift"] * (np.abs(m) + p["scale"])

    def measure(self, step, read_storage, logical_values):
        """After the step ran: logical_values(tensor ref) -> the view's values in logical
        order (float64)."""
        now = []
        written = _written_storages(step)
        finals = [(fp, ref) for fp, ref in self.outputs if ref["storage"] in written
                  and self.writes_seen.get(ref["storage"]) == self.writes[ref["storage"]]]
        for fp, ref in fingerprint_targets(step) + finals:
            for p in self.params:
                if not p["snapshot"] or p["t"] < 1 or ref["storage"] != p["exp_avg"]["storage"] \
                        or fp["elements"] <= 0:
                    continue
                if p not in now:
                    now.append(p)
                    p["drift"] = p["scale"] = 0.0
                    p["zeros_kept"] = p["zeros_lost"] = 0
                scale = _f(fp["abs_sum"]) / fp["elements"]
                vals = logical_values(ref)
                drift = 0.0
                for i, dev in fp["samples"]:
                    dev, got = _f(dev), float(vals[i])
                    if math.isfinite(dev) and math.isfinite(got) and abs(dev) + scale > 0:
                        drift = max(drift, abs(got - dev) / (abs(dev) + scale))
                    if got == 0.0:
                        p["zeros_kept" if dev == 0.0 else "zeros_lost"] += 1
                p["drift"] = max(p["drift"], drift)
                p["scale"] = max(p["scale"], scale)
        for p in now:
            p["measured"] = True
            p["moment"] = read_storage(p["exp_avg"]["storage"])
            offs = storage_offsets(p["value"])
            m = self._moment(p, offs)
            within = np.isfinite(m) & (np.abs(m) < self._rounding(p, m))
            if p["zeros_kept"] and not p["zeros_lost"]:
                within &= m != 0.0  # the device's exact zeros are the replay's
            p["within"] = np.zeros(len(p["before"]), dtype=bool)
            p["within"][offs[within]] = True
            p["within_indices"] = np.nonzero(within)[0]

    def rule(self, ref):
        """The Rule for a view of a parameter whose first moment is measured, else None."""
        p = self._param_of(ref["storage"])
        if p is None or not p["measured"]:
            return None
        e = storage_offsets(ref)
        interval = p["within"][e]
        decay = 1.0 - self.lr * self.weight_decay if self.name == "adamw" else 1.0
        half = self.lr * update_bound(self.beta1, self.beta2, p["t"])
        centre = p["before"][e] * decay
        allowance = np.zeros(len(e))
        if p["first_step"] and self.beta1 < 1.0:
            bc = 1.0 - self.beta1
            m = self._moment(p, e)
            spread = self.lr * first_step_spread(m / bc, self._rounding(p, m) / bc, self.eps)
            allowance = np.where(interval | ~np.isfinite(m), 0.0, spread)
        return Rule(interval, centre - half, centre + half, allowance)

    def note(self, ref, needed):
        """Keeps the logical elements of a comparison of `ref` that matched only through the
        eps-regime allowance."""
        p = self._param_of(ref["storage"])
        if p is not None and len(needed):
            p["eps_regime"].update(int(x) for x in storage_offsets(ref)[needed])

    def summary(self):
        """What the rule judged, per parameter (as npusim's report's optimizer_bound)."""
        if self.name not in ("adam", "adamw"):
            return None
        params = [{"name": p["name"], "measured": p["measured"],
                   "within_rounding": int(len(p["within_indices"])) if p["measured"] else 0,
                   "within_rounding_indices": [int(x) for x in p["within_indices"][:64]]
                   if p["measured"] else [],
                   "eps_regime": len(p["eps_regime"])} for p in self.params]
        return {"optimizer": self.name,
                "elements_within_rounding": sum(q["within_rounding"] for q in params),
                "parameters_within_rounding": sum(1 for q in params if q["within_rounding"]),
                "eps_regime_elements": sum(q["eps_regime"] for q in params),
                "parameters": params, "not_covered": self.not_covered}


def match_fingerprint(values, fp, rule, rtol, atol):
    """(ok, why, needed): a view's logical values against a device fingerprint under a Rule, as
    bundle.match_fingerprint does without one; `needed` the sample indices that matched only
    through the eps-regime allowance."""
    values = np.asarray(values, dtype=np.float64)
    finite = values[np.isfinite(values)]
    if len(values) != fp["elements"]:
        return False, f"elements {len(values)} != {fp['elements']}", []
    nan, inf = int(np.isnan(values).sum()), int(np.isinf(values).sum())
    if nan != fp["nan"] or inf != fp["inf"]:
        return False, f"nan/inf counts {nan}/{inf} != {fp['nan']}/{fp['inf']}", []
    s, sb, ab = float(finite.sum()), _f(fp["sum"]), _f(fp["abs_sum"])
    if not abs(s - sb) <= 1e-4 * (ab + 1) + rule.sum_allowance:
        return False, f"sum {s} vs {sb} (abs_sum {ab}, allowance under the Adam bound {rule.sum_allowance:.3g})", []
    idx = np.array([i for i, _ in fp["samples"]], dtype=np.int64)
    dev = np.array([_f(v) for _, v in fp["samples"]])
    ok = rule.matches(idx, values[idx], dev, rtol, atol)
    if not ok.all():
        k = int(np.argmin(ok))
        return False, f"sample {idx[k]}: {values[idx[k]]} vs {dev[k]} (under the Adam bound)", []
    plain = np.abs(values[idx] - dev) <= atol + rtol * np.abs(dev)
    return True, "", idx[~plain & ~rule.interval[idx]]
