"""The Adam bound in the replay (npusim.replay, and so the capture's self-replay): a hand-made
training step of aten calls (run by PyTorch on the CPU) with a weight whose gradient is well
determined and a bias whose gradient is rounding noise that the "device" computed with other
signs. The device's values are AdamW's formula evaluated here in float64 on the device's
gradients; the step's calls are correct or deliberately wrong. Needs torch, not a GPU."""

import json
import math
import os

import numpy as np
import pytest

from npusim import generator, optimizer_bound

torch = pytest.importorskip("torch")

N = 64  # every element is a fingerprint sample
SEED = 5
NOISE = 1e-6  # the bias gradient: noise well above eps, so AdamW moves it by about lr


def _fp32(x):
    return np.asarray(x, dtype=np.float64).astype(np.float32).astype(np.float64)


def _uniform(low, high, stream):
    return {"kind": "uniform", "low": low, "high": high, "stream": stream}


def _gen(init):
    return generator.generate(init, "fp32", N, SEED).astype(np.float64)


def _tensor(storage, n=N):
    return {"storage": storage, "offset": 0, "shape": [n] if n > 1 else [], "stride": [1] if n > 1 else []}


def _fingerprint(values, **key):
    v = np.asarray(values, dtype=np.float64).reshape(-1)
    return dict(key, elements=int(v.size), sum=float(v.sum()), abs_sum=float(np.abs(v).sum()), nan=0,
                inf=0, samples=[[i, float(x)] for i, x in enumerate(v)])


def _device_adamw(p0, g, lr, b1, b2, eps, wd):
    m, v = (1 - b1) * g, (1 - b2) * g * g
    m_hat, v_hat = m / (1 - b1), v / (1 - b2)
    return _fp32(p0 * (1 - lr * wd) - lr * m_hat / (np.sqrt(v_hat) + eps)), _fp32(m)


class Calls:
    """What the step's aten calls compute for one parameter (AdamW's first step by default)."""

    def __init__(self, lr=0.01, beta1=0.9, beta2=0.999, eps=1e-8, wd=0.01, bias_correction=True, sign=1.0):
        self.lr, self.beta1, self.beta2, self.eps, self.wd = lr, beta1, beta2, eps, wd
        self.bias_correction, self.sign = bias_correction, sign


def _call(op, args, out, fingerprints=()):
    return {"kind": "call", "op": op, "args": args, "out": [{"tensor": o} for o in out],
            "fingerprints": list(fingerprints)}


def build(tmp, optimizer="adamw", weight=None, bias=None):
    """Storages 0-1 gradient sources, 2-3 the weight and bias, 4-6 and 7-9 their exp_avg,
    exp_avg_sq, step, 10-11 the gradients, 12.. intermediates."""
    weight, bias = weight or Calls(), bias or Calls()
    described = Calls()
    sources = [_uniform(-1.0, 1.0, 0), _uniform(-1.0, 1.0, 1)]
    params = [_uniform(-0.5, 0.5, 2), _uniform(-0.1, 0.1, 3)]
    ws, bs = _gen(sources[0]), _gen(sources[1])
    gw, gb_device = _fp32(ws), _fp32(-NOISE * np.roll(bs, -7))  # the device's other noise
    device = [_device_adamw(_gen(params[0]), gw, described.lr, described.beta1, described.beta2,
                            described.eps, described.wd),
              _device_adamw(_gen(params[1]), gb_device, described.lr, described.beta1, described.beta2,
                            described.eps, described.wd)]
    zero = {"kind": "constant", "value": 0}
    inputs = [{"name": "w_source", "tensor": _tensor(0), "init": sources[0]},
              {"name": "b_source", "tensor": _tensor(1), "init": sources[1]},
              {"name": "w", "tensor": _tensor(2), "init": params[0]},
              {"name": "b", "tensor": _tensor(3), "init": params[1]}]
    for name, base in (("w", 4), ("b", 7)):
        inputs += [{"name": f"optimizer.{name}.exp_avg", "tensor": _tensor(base), "init": zero},
                   {"name": f"optimizer.{name}.exp_avg_sq", "tensor": _tensor(base + 1), "init": zero},
                   {"name": f"optimizer.{name}.step", "tensor": _tensor(base + 2, 1), "init": zero}]
    storages = [{"id": i, "dtype": "fp32", "elements": 1 if i in (6, 9) else N} for i in range(12)]
    steps = [_call("aten.mul.Scalar", [{"tensor": _tensor(0)}, 1.0], [_tensor(10)]),
             _call("aten.mul.Scalar", [{"tensor": _tensor(1)}, NOISE], [_tensor(11)])]

    def tmp_storage():
        storages.append({"id": len(storages), "dtype": "fp32", "elements": N})
        return _tensor(len(storages) - 1)

    def t(ref):
        return {"tensor": ref}

    for (p, base, g), calls, (p_dev, m_dev) in zip(((2, 4, 10), (3, 7, 11)), (weight, bias), device):
        m, v, step = _tensor(base), _tensor(base + 1), _tensor(base + 2, 1)
        steps.append(_call("aten.add_.Scalar", [t(step), 1.0, 1], [step]))
        mt, g2, vt = tmp_storage(), tmp_storage(), tmp_storage()
        steps.append(_call("aten.mul.Scalar", [t(_tensor(g)), 1 - calls.beta1], [mt]))
        steps.append(_call("aten.copy_", [t(m), t(mt), False], [m], [_fingerprint(m_dev, out=0)]))
        steps.append(_call("aten.mul.Tensor", [t(_tensor(g)), t(_tensor(g))], [g2]))
        steps.append(_call("aten.mul.Scalar", [t(g2), 1 - calls.beta2], [vt]))
        steps.append(_call("aten.copy_", [t(v), t(vt), False], [v],
                           [_fingerprint(_fp32((1 - described.beta2) * (gw if p == 2 else gb_device) ** 2), out=0)]))
        bc1 = 1 - calls.beta1 if calls.bias_correction else 1.0
        bc2 = 1 - calls.beta2 if calls.bias_correction else 1.0
        sq, scaled, denom, ratio, upd, decayed, new = (tmp_storage() for _ in range(7))
        steps.append(_call("aten.sqrt", [t(v)], [sq]))
        steps.append(_call("aten.div.Scalar", [t(sq), math.sqrt(bc2)], [scaled]))
        steps.append(_call("aten.add.Scalar", [t(scaled), calls.eps, 1], [denom]))
        steps.append(_call("aten.div.Tensor", [t(m), t(denom)], [ratio]))
        steps.append(_call("aten.mul.Scalar", [t(ratio), calls.sign * calls.lr / bc1], [upd]))
        steps.append(_call("aten.mul.Scalar", [t(_tensor(p)), 1 - calls.lr * calls.wd], [decayed]))
        steps.append(_call("aten.sub.Tensor", [t(decayed), t(upd), 1], [new]))
        steps.append(_call("aten.copy_", [t(_tensor(p)), t(new), False], [_tensor(p)],
                           [_fingerprint(p_dev, out=0)]))
    os.makedirs(tmp / "reference", exist_ok=True)
    outputs = []
    for name, storage, (p_dev, _) in (("updated.w", 2, device[0]), ("updated.b", 3, device[1])):
        np.save(tmp / "reference" / f"{name}.npy", p_dev.astype(np.float32))
        outputs.append({"name": name, "tensor": _tensor(storage), "reference": f"reference/{name}.npy",
                        "fingerprint": _fingerprint(p_dev)})
    model = {}
    if optimizer:
        model["optimizer"] = {"name": optimizer, "lr": described.lr, "betas": [described.beta1, described.beta2],
                              "eps": described.eps, "weight_decay": described.wd}
    graph = {"format": "npusim-bundle", "version": 1, "model": model, "seed": SEED, "storages": storages,
             "inputs": inputs, "steps": steps, "outputs": outputs}
    with open(tmp / "graph.json", "w") as f:
        json.dump(graph, f)
    return str(tmp)


def _replay(path):
    from npusim import replay

    return replay.replay(path, log=lambda m: None, device="cpu")


def test_a_correct_adamw_with_a_noise_gradient_bias_replays(tmp_path):
    r = _replay(build(tmp_path))
    assert r["fingerprint_mismatches"] == [] and r["output_mismatches"] == [], r
    b = r["optimizer_bound"]
    assert b["optimizer"] == "adamw"
    # Every bias element's gradient is noise on both sides; no weight element's is.
    assert b["elements_within_rounding"] == N and b["parameters_within_rounding"] == 1
    by_name = {p["name"]: p for p in b["parameters"]}
    assert by_name["b"]["within_rounding"] == N and by_name["w"]["within_rounding"] == 0


def test_without_the_optimizers_description_the_noise_fails(tmp_path):
    r = _replay(build(tmp_path, optimizer=None))
    assert any(m.startswith("step 29 (aten.copy_)") for m in r["fingerprint_mismatches"]), r  # the bias's update
    assert any("updated.b" in m for m in r["output_mismatches"]), r
    assert "optimizer_bound" not in r


@pytest.mark.parametrize("wrong,moves_weight", [(dict(beta1=0.8), False), (dict(bias_correction=False), True),
                                                (dict(sign=-1.0), True), (dict(beta2=0.99), False),
                                                (dict(eps=0.1), True)],
                         ids=["beta1", "no-bias-correction", "sign", "beta2", "eps"])
def test_a_deliberately_wrong_adamw_fails(tmp_path, wrong, moves_weight):
    # A wrong beta with its own bias correction moves the parameter rightly but its moment wrongly.
    r = _replay(build(tmp_path, weight=Calls(**wrong), bias=Calls(**wrong)))
    assert r["fingerprint_mismatches"], r
    assert any("updated.w" in m for m in r["output_mismatches"]) == moves_weight, r


def test_the_bound_catches_an_update_larger_than_adam_allows(tmp_path):
    # Without bias correction the noise bias moves by lr * 0.1 / sqrt(0.001) = 3.16 lr.
    r = _replay(build(tmp_path, bias=Calls(bias_correction=False)))
    assert r["fingerprint_mismatches"] and "under the Adam bound" in r["fingerprint_mismatches"][0], r
    assert all("updated.w" not in m for m in r["output_mismatches"]), r


def test_the_capture_self_replay_applies_the_bound_and_fails_otherwise(tmp_path):
    from npusim import capture
    from npusim.recorder import CaptureError

    capture.self_replay_on_device(build(tmp_path / "ok"), log=lambda m: None, device="cpu")
    with pytest.raises(CaptureError, match="does not reproduce"):
        capture.self_replay_on_device(build(tmp_path / "wrong", weight=Calls(sign=-1.0)), log=lambda m: None, device="cpu")


def test_update_bound_is_the_largest_normalised_update():
    b1, b2 = 0.9, 0.999
    assert optimizer_bound.update_bound(b1, b2, 1) == 1.0
    for t in (2, 7, 50):
        m = v = 0.0
        for i in range(1, t + 1):  # equality in Cauchy-Schwarz
            g = (b1 / b2) ** (t - i)
            m, v = b1 * m + (1 - b1) * g, b2 * v + (1 - b2) * g * g
        ratio = (m / (1 - b1 ** t)) / math.sqrt(v / (1 - b2 ** t))
        assert optimizer_bound.update_bound(b1, b2, t) == pytest.approx(ratio, rel=1e-12)


def test_first_step_spread():
    def u(x):
        return x / (abs(x) + 1e-8)

    assert optimizer_bound.first_step_spread(-2e-8, 2e-9, 1e-8) == pytest.approx(u(2.2e-8) - u(1.8e-8), abs=1e-15)
    assert optimizer_bound.first_step_spread(1e-3, 0.0, 1e-8) == 0.0
