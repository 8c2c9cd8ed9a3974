#!/usr/bin/python3
"""Writes tests/data/bundles/attention_backward: the efficient attention forward
(an additive [L, S] bias broadcast to [B, H, L, S], scale 0.5, a padded logsumexp)
and two backward calls as the capture records them: grad_input_mask [T, T, T, F]
with three results, and [F, T, T, T] with the three results it writes (key, value
and bias gradients), which the loader places on result positions 1 to 3. The
fingerprints come from torch autograd of softmax(q k^T * 0.5 + bias) v on the CPU
in float64: an implementation independent of npusim's.

    cd python && PYTHONPATH=$PWD /usr/bin/python3 ../tests/data/bundles/make_attention_backward.py
"""
import os

import numpy as np
import torch

from npusim import bundle, generator

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "attention_backward")
B, H, L, S, E = 1, 2, 5, 5, 4
SCALE, PAD, SEED = 0.5, 32, 0
inits = [{"kind": "uniform", "low": -1.0, "high": 1.0, "stream": n} for n in range(5)]
shapes = {"q": [B, H, L, E], "k": [B, H, S, E], "v": [B, H, S, E], "grad_out": [B, H, L, E], "bias": [L, S]}
names = list(shapes)
values = {n: torch.from_numpy(np.array(generator.generate(inits[i], "fp32", int(np.prod(shapes[n])), SEED),
                                       dtype=np.float64)).view(*shapes[n]) for i, n in enumerate(names)}
q, k, v, go = (values[n].clone().requires_grad_(True) for n in ("q", "k", "v", "grad_out"))
bias_full = values["bias"].expand(B, H, L, S).clone().requires_grad_(True)
scores = q @ k.transpose(-2, -1) * SCALE + bias_full
out = scores.softmax(-1) @ v
lse = torch.logsumexp(scores, -1)
(out * values["grad_out"]).sum().backward()


def contiguous(shape):
    return [int(np.prod(shape[i + 1:])) for i in range(len(shape))]


storages, refs = [], {}


def storage(name, shape, dtype="fp32", stride=None, elements=None):
    sid = len(storages)
    storages.append({"id": sid, "dtype": dtype, "elements": int(np.prod(shape)) if elements is None else elements})
    refs[name] = {"tensor": {"storage": sid, "offset": 0, "shape": list(shape),
                             "stride": contiguous(shape) if stride is None else stride}}
    return refs[name]


for n in names:
    storage(n, shapes[n])
bias_view = {"tensor": dict(refs["bias"]["tensor"], shape=[B, H, L, S], stride=[0, 0, S, 1])}
for n, shape in (("out", [B, H, L, E]), ("lse", [B, H, PAD]), ("dq", [B, H, L, E]), ("dk", [B, H, S, E]),
                 ("dv", [B, H, S, E]), ("dk2", [B, H, S, E]), ("dv2", [B, H, S, E]), ("dbias", [B, H, L, S])):
    storage(n, shape)
storage("seed", [], "i64", [], 1)
storage("offset", [], "i64", [], 1)


def fp(t):
    return bundle.fingerprint(t.detach().float().numpy(), "fp32")


lse_padded = torch.full((B, H, PAD), float("inf"), dtype=torch.float64)
lse_padded[:, :, :L] = lse.detach()
forward = {"kind": "call", "op": "aten._scaled_dot_product_efficient_attention",
           "args": [refs["q"], refs["k"], refs["v"], bias_view, True, 0.0, False, SCALE],
           "out": [refs["out"], refs["lse"], refs["seed"], refs["offset"]],
           "fingerprints": [{"out": 0, **fp(out)}, {"out": 1, **fp(lse_padded)}]}


def backward(mask, outs, grads):
    return {"kind": "call", "op": "aten._scaled_dot_product_efficient_attention_backward",
            "args": [refs["grad_out"], refs["q"], refs["k"], refs["v"], bias_view, refs["out"], refs["lse"],
                     refs["seed"], refs["offset"], 0.0, mask, False, SCALE],
            "out": [refs[o] for o in outs],
            "fingerprints": [{"out": i, **fp(g)} for i, g in enumerate(grads)]}


steps = [forward,
         backward([True, True, True, False], ["dq", "dk", "dv"], [q.grad, k.grad, v.grad]),
         backward([False, True, True, True], ["dk2", "dv2", "dbias"], [k.grad, v.grad, bias_full.grad])]
os.makedirs(os.path.join(OUT, "reference"), exist_ok=True)
np.save(os.path.join(OUT, "reference", "grad_attn_bias.npy"), bias_full.grad.float().numpy())
graph = {"format": "npusim-bundle", "version": 1, "model": {"spec": "hand-made attention backward"},
         "seed": SEED, "storages": storages,
         "inputs": [{"name": n, **refs[n], "init": inits[i]} for i, n in enumerate(names)],
         "steps": steps,
         "outputs": [{"name": "grad_attn_bias", **refs["dbias"], "reference": "reference/grad_attn_bias.npy",
                      "fingerprint": fp(bias_full.grad)}]}
bundle.write_graph(os.path.join(OUT, "graph.json"), graph)
print(bundle.validate(OUT))
