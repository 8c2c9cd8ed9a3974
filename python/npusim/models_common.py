"""Building blocks shared by the built-in models (npusim.models, npusim.models_suite):
the input and build records, generator inits, attention, rotary embedding, masks,
RMSNorm, and the language-model loss and inputs."""

import dataclasses
import math
from typing import Any, Callable, Optional


@dataclasses.dataclass
class InputSpec:
    name: str
    shape: tuple
    dtype: str  # bundle dtype: fp32, i64, ...
    init: dict  # generator init without "stream": {"kind": "uniform", "low": .., "high": ..}
    kwarg: bool = False  # passed to the model by keyword
    target: bool = False  # a loss target (only used with --train)


@dataclasses.dataclass
class Built:
    model: Any
    inputs: list
    static_kwargs: dict = dataclasses.field(default_factory=dict)
    loss: Optional[Callable] = None  # loss(output, *targets) for --train
    lr: float = 0.01
    config: dict = dataclasses.field(default_factory=dict)
    channels_last: bool = False  # the model and its 4-D inputs in channels-last format


def _u(low, high):
    return {"kind": "uniform", "low": float(low), "high": float(high)}


def _ri(low, high):
    return {"kind": "randint", "low": int(low), "high": int(high)}


def _take(over, defaults):
    unknown = set(over) - set(defaults)
    if unknown:
        raise ValueError(f"unknown overrides {sorted(unknown)}; known: {sorted(defaults)}")
    return {**defaults, **over}


def _sdpa(q, k, v, causal=False):
    """F.scaled_dot_product_attention where torch has it (2.0 on), else the same in matmuls."""
    import torch.nn.functional as F

    if hasattr(F, "scaled_dot_product_attention"):
        return F.scaled_dot_product_attention(q, k, v, is_causal=causal)
    mask = _causal_mask(q.shape[-2], 0, q.device) if causal else None
    return _attention(q, k, v, mask)


def _attention(q, k, v, mask=None):
    """softmax(q k^T / sqrt(d) + mask) v over [..., tokens, head_dim]; mask is additive."""
    att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(q.shape[-1]))
    if mask is not None:
        att = att + mask
    return att.softmax(dim=-1) @ v


def _heads(x, heads):
    b, t, d = x.shape
    return x.view(b, t, heads, d // heads).transpose(1, 2)


def _merge(x):
    b, h, t, d = x.shape
    return x.transpose(1, 2).reshape(b, t, h * d)


def _rope(x, start=0):
    """Rotary position embedding (rotate-half form, base 10000) of x [b, h, t, d]; the
    angles come from iota, position start + t for token t (a decode step's tokens follow
    the cached ones)."""
    import torch

    t, d = x.shape[-2], x.shape[-1]
    inv = 1.0 / (10000.0 ** (torch.arange(0, d, 2, device=x.device, dtype=torch.float32) / d))
    positions = torch.arange(t, device=x.device, dtype=torch.float32)
    if start:
        positions = positions + start
    ang = positions[:, None] * inv[None, :]
    cos = torch.cat([ang.cos(), ang.cos()], dim=-1)
    sin = torch.cat([ang.sin(), ang.sin()], dim=-1)
    x1, x2 = x[..., :d // 2], x[..., d // 2:]
    # The angles in fp32, the rotation in x's dtype (a bf16 model stays bf16).
    return x * cos.to(x.dtype) + torch.cat([-x2, x1], dim=-1) * sin.to(x.dtype)


def _causal_mask(t, window, device):
    """Additive mask [t, t]: 0 where key j may be seen from query i (j <= i, and
    i - j < window when window > 0), -inf elsewhere."""
    import torch

    i = torch.arange(t, device=device)
    allowed = i[None, :] <= i[:, None]
    if window > 0:
        allowed = allowed & (i[:, None] - i[None, :] < window)
    return torch.zeros(t, t, device=device).masked_fill(~allowed, float("-inf"))


def _rmsnorm_cls():
    import torch
    import torch.nn as nn

    class RMSNorm(nn.Module):
        def __init__(self, dim, eps=1e-6):
            super().__init__()
            self.weight = nn.Parameter(torch.ones(dim))
            self.eps = eps

        def forward(self, x):
            return self.weight * (x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps))

    return RMSNorm


def _lm_loss(out, labels):
    """Cross entropy of a language model's logits (a tensor, or transformers' output with
    .logits) against one label per position."""
    import torch.nn.functional as F

    logits = out if not hasattr(out, "logits") else out.logits
    return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), labels.reshape(-1))


def _lm_inputs(c, vocab, kwarg):
    return [InputSpec("input_ids", (c["batch"], c["seq"]), "i64", _ri(0, vocab), kwarg=kwarg),
            InputSpec("labels", (c["batch"], c["seq"]), "i64", _ri(0, vocab), target=True)]


def _transformer_layers(block, dim):
    """Gives a pre-norm transformer block its layers, in this order (the order of the
    generator's streams): ln1, qkv (3 * dim), proj, ln2, fc1 (4 * dim), fc2."""
    import torch.nn as nn

    block.ln1 = nn.LayerNorm(dim)
    block.qkv = nn.Linear(dim, 3 * dim)
    block.proj = nn.Linear(dim, dim)
    block.ln2 = nn.LayerNorm(dim)
    block.fc1 = nn.Linear(dim, 4 * dim)
    block.fc2 = nn.Linear(4 * dim, dim)
