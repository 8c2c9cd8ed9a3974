"""Single-operator workloads and blocks, as silicon-validation experiments define them
(docs/validation.md): a matrix multiply, LayerNorm, softmax, a convolution, attention
and a transformer encoder block, each a module whose forward is that one computation.
Shapes are overrides; ``channels_last=true`` puts the model and its 4-D inputs in
channels-last memory format."""

import math

from .models_common import Built, InputSpec, _take, _u


def build_matmul(**over):
    """``a @ b`` with a [m, k] and b [k, n], fp32."""
    import torch.nn as nn

    c = _take(over, {"m": 256, "k": 256, "n": 256})

    class MatMul(nn.Module):
        def forward(self, a, b):
            return a @ b

    inputs = [InputSpec("a", (c["m"], c["k"]), "fp32", _u(-1, 1)),
              InputSpec("b", (c["k"], c["n"]), "fp32", _u(-1, 1))]
    return Built(MatMul(), inputs, config=c)


def build_layernorm(**over):
    """``nn.LayerNorm(width)`` on [rows, width]."""
    import torch.nn as nn

    c = _take(over, {"rows": 512, "width": 768})
    inputs = [InputSpec("x", (c["rows"], c["width"]), "fp32", _u(-1, 1))]
    return Built(nn.LayerNorm(c["width"]), inputs, config=c)


def build_softmax(**over):
    """``nn.Softmax(dim=1)`` on [rows, cols]."""
    import torch.nn as nn

    c = _take(over, {"rows": 512, "cols": 512})
    inputs = [InputSpec("x", (c["rows"], c["cols"]), "fp32", _u(-4, 4))]
    return Built(nn.Softmax(dim=1), inputs, config=c)


def build_conv(**over):
    """One ``nn.Conv2d`` (no bias unless bias=true) on [batch, cin, size, size]."""
    import torch.nn as nn

    c = _take(over, {"batch": 1, "cin": 64, "cout": 64, "size": 56, "kernel": 3, "stride": 1,
                     "padding": -1, "dilation": 1, "groups": 1, "bias": False,
                     "channels_last": False})
    pad = c["kernel"] // 2 * c["dilation"] if c["padding"] < 0 else c["padding"]
    model = nn.Conv2d(c["cin"], c["cout"], c["kernel"], stride=c["stride"], padding=pad,
                      dilation=c["dilation"], groups=c["groups"], bias=bool(c["bias"]))
    inputs = [InputSpec("x", (c["batch"], c["cin"], c["size"], c["size"]), "fp32", _u(-1, 1))]
    return Built(model, inputs, config=c, channels_last=bool(c["channels_last"]))


def build_attention(**over):
    """softmax(q k^T / sqrt(dim)) v over [batch, heads, seq, dim] (batch=0: [heads, seq,
    dim]), written as two matrix multiplies and a softmax (sdpa=true:
    F.scaled_dot_product_attention). probs=true returns the probabilities too, as an
    experiment that keeps them does."""
    import torch.nn as nn
    import torch.nn.functional as F

    c = _take(over, {"batch": 1, "heads": 12, "seq": 512, "dim": 64, "sdpa": False,
                     "probs": False})
    if c["sdpa"] and c["probs"]:
        raise ValueError("attention: sdpa=true keeps no probabilities (probs=true)")
    scale = 1.0 / math.sqrt(c["dim"])

    class Attention(nn.Module):
        def forward(self, q, k, v):
            if c["sdpa"]:
                return F.scaled_dot_product_attention(q, k, v)
            p = (q @ k.transpose(-2, -1) / math.sqrt(c["dim"])).softmax(dim=-1) \
                if c["probs"] else ((q @ k.transpose(-2, -1)) * scale).softmax(dim=-1)
            return (p @ v, p) if c["probs"] else p @ v

    shape = ((c["batch"],) if c["batch"] else ()) + (c["heads"], c["seq"], c["dim"])
    inputs = [InputSpec(n, shape, "fp32", _u(-1, 1)) for n in ("q", "k", "v")]
    return Built(Attention(), inputs, config=c)


def build_encoder(**over):
    """A BERT-style post-norm transformer encoder block on [batch, seq, width] (batch=0:
    [seq, width]) in inference: x = LayerNorm(x + proj(attention(q, k, v))), then
    x = LayerNorm(x + fc2(act(fc1(x)))), with fc1 of 4 * width and attention written as
    matrix multiplies and a softmax over heads of width / heads. activation=gelu|relu;
    shared_norm=true applies one LayerNorm module (one weight and bias) both times."""
    import torch.nn as nn
    import torch.nn.functional as F

    from .models_common import _attention, _heads, _merge

    c = _take(over, {"batch": 1, "seq": 512, "width": 768, "heads": 12, "activation": "gelu",
                     "shared_norm": False})
    w = c["width"]
    if c["activation"] not in ("gelu", "relu"):
        raise ValueError(f"encoder: activation={c['activation']} (gelu or relu)")
    act = F.gelu if c["activation"] == "gelu" else F.relu

    class EncoderBlock(nn.Module):
        def __init__(self):
            super().__init__()
            self.q, self.k, self.v = nn.Linear(w, w), nn.Linear(w, w), nn.Linear(w, w)
            self.proj = nn.Linear(w, w)
            self.ln1 = nn.LayerNorm(w)
            self.fc1, self.fc2 = nn.Linear(w, 4 * w), nn.Linear(4 * w, w)
            self.ln2 = self.ln1 if c["shared_norm"] else nn.LayerNorm(w)

        def forward(self, x):
            h = c["heads"]
            rows = x if c["batch"] else x.unsqueeze(0)
            att = _attention(_heads(self.q(rows), h), _heads(self.k(rows), h),
                             _heads(self.v(rows), h))
            rows = self.ln1(rows + self.proj(_merge(att)))
            rows = self.ln2(rows + self.fc2(act(self.fc1(rows))))
            return rows if c["batch"] else rows.squeeze(0)

    shape = ((c["batch"],) if c["batch"] else ()) + (c["seq"], w)
    inputs = [InputSpec("x", shape, "fp32", _u(-1, 1))]
    return Built(EncoderBlock(), inputs, config=c)
