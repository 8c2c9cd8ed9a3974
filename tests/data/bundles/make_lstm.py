#!/usr/bin/python3
"""Writes tests/data/bundles/lstm: one aten._cudnn_rnn call as cuDNN records it (a
2-layer bidirectional batch-first LSTM, its weights views of one flat buffer, the
output a transposed [B, T, 2H] view of a [T, B, 2H] buffer, an empty reserve, the
weight buffer returned), with the fingerprints and reference of torch.nn.LSTM on the
CPU: an implementation independent of npusim's.

    cd python && PYTHONPATH=$PWD /usr/bin/python3 ../tests/data/bundles/make_lstm.py
"""
import os

import numpy as np
import torch

from npusim import bundle, generator

out_dir = os.path.join(os.path.dirname(os.path.abspath(__file__)), "lstm")
B, T, IN, H, L, D = 2, 5, 3, 4, 2, 2
lstm = torch.nn.LSTM(IN, H, num_layers=L, batch_first=True, bidirectional=True)
total = sum(p.numel() for p in lstm.parameters())
seed = 0
w_init = {"kind": "uniform", "low": -0.5, "high": 0.5, "stream": 0}
x_init = {"kind": "uniform", "low": -1.0, "high": 1.0, "stream": 1}
zero = {"kind": "constant", "value": 0}
flat = generator.generate(w_init, "fp32", total, seed)
xs = generator.generate(x_init, "fp32", B * T * IN, seed)
with torch.no_grad():
    off = 0
    for (n, p) in lstm.named_parameters():
        p.copy_(torch.from_numpy(np.array(flat[off:off + p.numel()])).view_as(p))
        off += p.numel()
    y, (hy, cy) = lstm(torch.from_numpy(np.array(xs)).view(B, T, IN))

def ref(sid, shape, offset=0, stride=None):
    if stride is None:
        stride = [int(np.prod(shape[i + 1:])) for i in range(len(shape))]
    return {"tensor": {"storage": sid, "offset": offset, "shape": list(shape), "stride": stride}}

storages = [{"id": 0, "dtype": "fp32", "elements": B * T * IN}, {"id": 1, "dtype": "fp32", "elements": total},
            {"id": 2, "dtype": "fp32", "elements": L * D * B * H}, {"id": 3, "dtype": "fp32", "elements": L * D * B * H},
            {"id": 4, "dtype": "fp32", "elements": B * T * D * H}, {"id": 5, "dtype": "fp32", "elements": L * D * B * H},
            {"id": 6, "dtype": "fp32", "elements": L * D * B * H}, {"id": 7, "dtype": "u8", "elements": 0}]
weights, off = [], 0
for (n, p) in lstm.named_parameters():
    weights.append(ref(1, list(p.shape), off))
    off += p.numel()
state = [L * D, B, H]
# cuDNN writes [T, B, 2H] and returns it transposed: a [B, T, 2H] view with strides (2H, B*2H, 1).
out_view = ref(4, [B, T, D * H], 0, [D * H, B * D * H, 1])
args = [ref(0, [B, T, IN]), weights, 4, ref(1, [total]), ref(2, state), ref(3, state), 2, H, 0, L, True, 0.0,
        False, True, [], None]
outs = [out_view, ref(5, state), ref(6, state), ref(7, [0]), ref(1, [total])]
fps = [{"out": 0, **bundle.fingerprint(y.numpy(), "fp32")}, {"out": 1, **bundle.fingerprint(hy.numpy(), "fp32")},
       {"out": 2, **bundle.fingerprint(cy.numpy(), "fp32")}]
graph = {"format": "npusim-bundle", "version": 1, "model": {"spec": "hand-made _cudnn_rnn"}, "seed": seed,
         "storages": storages,
         "inputs": [{"name": "x", **ref(0, [B, T, IN]), "init": x_init},
                    {"name": "lstm.weights", **ref(1, [total]), "init": w_init},
                    {"name": "h0", **ref(2, state), "init": zero}, {"name": "c0", **ref(3, state), "init": zero}],
         "steps": [{"kind": "call", "op": "aten._cudnn_rnn", "args": args, "out": outs, "fingerprints": fps}],
         "outputs": [{"name": "output", **out_view, "reference": "reference/output.npy",
                      "fingerprint": bundle.fingerprint(y.numpy(), "fp32")}]}
os.makedirs(os.path.join(out_dir, "reference"), exist_ok=True)
np.save(os.path.join(out_dir, "reference", "output.npy"), np.ascontiguousarray(y.numpy()))
bundle.write_graph(os.path.join(out_dir, "graph.json"), graph)
print(bundle.validate(out_dir))
