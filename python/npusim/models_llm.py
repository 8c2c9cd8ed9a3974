"""A Llama-architecture decoder in the two graphs LLM serving runs: a prefill over a
prompt, and a decode step of one new token per sequence against a key/value cache of
the tokens before it (docs/python.md, "LLM steps").

The cache is functional: a decode step takes the cached keys and values of every layer
as inputs ``[layers, batch, kv_heads, past, head_dim]`` and returns the new token's keys
and values ``[layers, batch, kv_heads, 1, head_dim]`` beside its logits; a prefill
returns its prompt's. The server appends them, so the cached length ``past`` is a plain
size of the decode graph (a dynamic size: ``python -m npusim.dynamic_shapes
"llama_decode,..." OUT --sizes past=N``), and a step's cost grows with it as attention
over ``past + 1`` keys does; the cache is read in place, never concatenated. Both specs build the same parameters in the same order, so
a prefill and the decode steps after it are one model.
"""

import math

from .models_common import Built, InputSpec, _heads, _merge, _ri, _rmsnorm_cls, _rope, _take, _u

_DEFAULTS = {"batch": 1, "layers": 2, "hidden": 256, "heads": 8, "kv_heads": 2, "intermediate": 512,
             "vocab": 1024, "dtype": "fp32"}
_DTYPES = ("fp32", "bf16", "fp16")


def llm_module(c):
    """The decoder of config `c`: forward(input_ids, k_cache=None, v_cache=None, past=0)
    -> (logits, keys, values) of the step's tokens."""
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    if c["hidden"] % c["heads"] or c["heads"] % c["kv_heads"]:
        raise ValueError(f"llm: hidden={c['hidden']} heads={c['heads']} kv_heads={c['kv_heads']}: "
                         "heads must divide hidden and kv_heads heads")
    if c.get("dtype", "fp32") not in _DTYPES:
        raise ValueError(f"llm: dtype={c['dtype']!r} is not one of {', '.join(_DTYPES)}")
    RMSNorm = _rmsnorm_cls()
    hd = c["hidden"] // c["heads"]
    rep = c["heads"] // c["kv_heads"]

    class Layer(nn.Module):
        def __init__(self):
            super().__init__()
            d = c["hidden"]
            self.input_norm = RMSNorm(d)
            self.q = nn.Linear(d, c["heads"] * hd, bias=False)
            self.k = nn.Linear(d, c["kv_heads"] * hd, bias=False)
            self.v = nn.Linear(d, c["kv_heads"] * hd, bias=False)
            self.o = nn.Linear(c["heads"] * hd, d, bias=False)
            self.post_norm = RMSNorm(d)
            self.gate = nn.Linear(d, c["intermediate"], bias=False)
            self.up = nn.Linear(d, c["intermediate"], bias=False)
            self.down = nn.Linear(c["intermediate"], d, bias=False)

        def forward(self, x, past_k, past_v, start):
            h = self.input_norm(x)
            q = _rope(_heads(self.q(h), c["heads"]), start)
            k = _rope(_heads(self.k(h), c["kv_heads"]), start)
            v = _heads(self.v(h), c["kv_heads"])
            # The step's own keys, causally (a prompt's tokens see themselves and the
            # ones before).
            own = q @ k.repeat_interleave(rep, dim=1).transpose(-2, -1) / math.sqrt(hd)
            t = q.shape[-2]
            if t > 1:
                i = torch.arange(t, device=x.device)
                own = own.masked_fill(i[None, :] > i[:, None], float("-inf"))
            if past_k is None:
                att = own.softmax(dim=-1) @ v.repeat_interleave(rep, dim=1)
            else:
                # The cache's keys in a softmax of their own, joined with the step's by
                # their maxima and sums: the cache is read, never copied.
                cached = q @ past_k.repeat_interleave(rep, dim=1).transpose(-2, -1) / math.sqrt(hd)
                top = torch.maximum(cached.amax(dim=-1, keepdim=True), own.amax(dim=-1, keepdim=True))
                pc, po = (cached - top).exp(), (own - top).exp()
                total = pc.sum(dim=-1, keepdim=True) + po.sum(dim=-1, keepdim=True)
                att = (pc @ past_v.repeat_interleave(rep, dim=1) + po @ v.repeat_interleave(rep, dim=1)) / total
            x = x + self.o(_merge(att))
            h = self.post_norm(x)
            return x + self.down(F.silu(self.gate(h)) * self.up(h)), k, v

    class Decoder(nn.Module):
        """RMSNorm, RoPE, grouped-query attention over the cache and the step's tokens,
        SwiGLU MLP, LM head."""

        def __init__(self):
            super().__init__()
            self.embed = nn.Embedding(c["vocab"], c["hidden"])
            self.layers = nn.ModuleList([Layer() for _ in range(c["layers"])])
            self.norm = RMSNorm(c["hidden"])
            self.lm_head = nn.Linear(c["hidden"], c["vocab"], bias=False)

        def forward(self, input_ids, k_cache=None, v_cache=None, block_table=None):
            if block_table is not None:
                # Paged: the caches are pools of blocks [layers, blocks, kv_heads, block,
                # head_dim] and a sequence's row of the table lists its blocks in order;
                # its `past` tokens are the first ones of those blocks.
                k_cache, v_cache = _gather_pages(k_cache, block_table, c["past"]), \
                    _gather_pages(v_cache, block_table, c["past"])
            past = 0 if k_cache is None else k_cache.shape[3]
            x = self.embed(input_ids)
            keys, values = [], []
            for i, layer in enumerate(self.layers):
                x, k, v = layer(x, None if k_cache is None else k_cache[i],
                                None if v_cache is None else v_cache[i], past)
                keys.append(k)
                values.append(v)
            return self.lm_head(self.norm(x)), torch.stack(keys), torch.stack(values)

    dtype = {"fp32": torch.float32, "bf16": torch.bfloat16, "fp16": torch.float16}[c.get("dtype", "fp32")]
    return Decoder().to(dtype)  # the model as served: parameters, activations and cache in one dtype


def _gather_pages(pool, table, past):
    """A paged cache's tokens in order: pool [layers, blocks, kv_heads, block, head_dim]
    and table [batch, pages] -> [layers, batch, kv_heads, past, head_dim]."""
    layers, _, kv_heads, block, head_dim = pool.shape
    batch, pages = table.shape
    rows = pool[:, table.reshape(-1)]  # [layers, batch * pages, kv_heads, block, head_dim]
    rows = rows.reshape(layers, batch, pages, kv_heads, block, head_dim).permute(0, 1, 3, 2, 4, 5)
    return rows.reshape(layers, batch, kv_heads, pages * block, head_dim)[:, :, :, :past]


def build_llama_prefill(**over):
    """The prefill graph: `seq` prompt tokens per sequence -> logits and their keys and
    values for the cache."""
    c = _take(over, {**_DEFAULTS, "seq": 32})
    inputs = [InputSpec("input_ids", (c["batch"], c["seq"]), "i64", _ri(0, c["vocab"]))]
    return Built(llm_module(c), inputs, config=c)


def build_llama_decode(**over):
    """One decode step: one token per sequence against `past` cached tokens -> logits and
    the token's keys and values."""
    c = _take(over, {**_DEFAULTS, "past": 128})
    if c["past"] < 1:
        raise ValueError(f"llama_decode: past={c['past']} (at least one cached token)")
    hd = c["hidden"] // c["heads"]
    cache = (c["layers"], c["batch"], c["kv_heads"], c["past"], hd)
    inputs = [InputSpec("input_ids", (c["batch"], 1), "i64", _ri(0, c["vocab"])),
              InputSpec("k_cache", cache, c["dtype"], _u(-1, 1)),
              InputSpec("v_cache", cache, c["dtype"], _u(-1, 1))]
    return Built(llm_module(c), inputs, config=c)


def build_llama_decode_paged(**over):
    """One decode step against a paged cache, as a server with a block allocator holds it:
    pools `k_cache`, `v_cache` of `pool` blocks of `block` tokens [layers, pool, kv_heads,
    block, head_dim] and `block_table` [batch, pages] naming each sequence's blocks in
    order (pages = ceil(past / block); `pool` 0: batch x pages). The table's entries are
    generated in [0, pool): sequences may share blocks, as with a shared prefix."""
    c = _take(over, {**_DEFAULTS, "past": 128, "block": 16, "pool": 0})
    if c["past"] < 1 or c["block"] < 1:
        raise ValueError(f"llama_decode_paged: past={c['past']} block={c['block']} (each at least 1)")
    pages = -(-c["past"] // c["block"])
    pool = c["pool"] or c["batch"] * pages
    hd = c["hidden"] // c["heads"]
    cache = (c["layers"], pool, c["kv_heads"], c["block"], hd)
    inputs = [InputSpec("input_ids", (c["batch"], 1), "i64", _ri(0, c["vocab"])),
              InputSpec("k_cache", cache, c["dtype"], _u(-1, 1)),
              InputSpec("v_cache", cache, c["dtype"], _u(-1, 1)),
              InputSpec("block_table", (c["batch"], pages), "i64", _ri(0, pool))]
    return Built(llm_module(c), inputs, config=c)
