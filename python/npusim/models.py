"""Built-in model specifications for capture.

A SPEC is ``NAME`` or ``NAME,key=value,key=value`` where NAME is a built-in model
(see BUILTINS) or ``module.path:factory``. A factory is called with the overrides as
keyword arguments and returns ``(model, inputs)`` or a ``Built``; ``inputs`` is a list of
``InputSpec`` (or of tensors, whose shape and dtype are kept and whose values are
regenerated: floats uniform in [-1, 1), integers randint [0, 2)).

Weights are never loaded: models are built from configurations, and every parameter,
buffer and input is then set from the bundle generator (see ``param_init``).
"""

import importlib
import math

from .models_common import Built, InputSpec, _lm_inputs, _lm_loss, _ri, _take, _u
from .models_llm import build_llama_decode, build_llama_decode_paged, build_llama_prefill
from .models_operators import (build_attention, build_conv, build_encoder, build_layernorm,
                               build_matmul, build_softmax)
from .models_training import (build_attention_train, build_branchy, build_lstm_tagger,
                              build_resnet_small)
from .models_suite import (_DEEPSEEK, _MISTRAL, build_clip, build_cnn,
                           build_convnextv2, build_deepseek_v3, build_mistral_plain,
                           build_swinv2, build_unet)
# For the tests and users of npusim.models: the Swin window helpers.
from .models_suite import (swin_relative_tables, swin_shift_mask, swin_unwindows,  # noqa: F401
                           swin_windows)


def _value(s):
    low = s.lower()
    if low in ("true", "false"):
        return low == "true"
    for conv in (int, float):
        try:
            return conv(s)
        except ValueError:
            pass
    return s


def parse_spec(spec):
    """'name,k=v,...' -> (name, {k: v})."""
    head, *rest = [p for p in spec.split(",")]
    over = {}
    for item in rest:
        if not item:
            continue
        if "=" not in item:
            raise ValueError(f"override {item!r} in {spec!r} is not key=value")
        k, v = item.split("=", 1)
        over[k.strip()] = _value(v.strip())
    return head.strip(), over


def build_mlp(**over):
    import torch.nn as nn
    import torch.nn.functional as F

    c = _take(over, {"dims": "784-256-10", "batch": 16})
    dims = [int(d) for d in str(c["dims"]).split("-")]
    layers = []
    for i in range(len(dims) - 1):
        layers.append(nn.Linear(dims[i], dims[i + 1]))
        if i + 2 < len(dims):
            layers.append(nn.ReLU())
    model = nn.Sequential(*layers)
    inputs = [InputSpec("x", (c["batch"], dims[0]), "fp32", _u(-1, 1)),
              InputSpec("labels", (c["batch"],), "i64", _ri(0, dims[-1]), target=True)]
    return Built(model, inputs, loss=lambda out, y: F.cross_entropy(out, y), config=c)


def _vision(name, extra=None, **over):
    import torchvision

    extra = extra or {}
    c = _take(over, {"batch": 1, "image": 224, "num_classes": 1000, "channels_last": False, **extra})
    kw = {k: c[k] for k in extra if c[k] != extra[k]}  # only what was asked for
    model = getattr(torchvision.models, name)(weights=None, num_classes=c["num_classes"], **kw)
    inputs = [InputSpec("x", (c["batch"], 3, c["image"], c["image"]), "fp32", _u(-1, 1)),
              InputSpec("labels", (c["batch"],), "i64", _ri(0, c["num_classes"]), target=True)]
    import torch.nn.functional as F

    return Built(model, inputs, loss=lambda out, y: F.cross_entropy(out, y), config=c,
                 channels_last=bool(c["channels_last"]))


def build_resnet18(**over):
    return _vision("resnet18", **over)


def build_resnet50(**over):
    return _vision("resnet50", **over)


def build_mobilenet_v2(**over):
    return _vision("mobilenet_v2", {"width_mult": 1.0}, **over)


def build_vit(**over):
    import torch.nn.functional as F
    from torchvision.models.vision_transformer import VisionTransformer

    c = _take(over, {"batch": 1, "image": 32, "patch": 8, "layers": 2, "hidden": 64, "heads": 2,
                     "mlp": 128, "classes": 10})
    model = VisionTransformer(image_size=c["image"], patch_size=c["patch"], num_layers=c["layers"],
                              num_heads=c["heads"], hidden_dim=c["hidden"], mlp_dim=c["mlp"],
                              num_classes=c["classes"])
    inputs = [InputSpec("x", (c["batch"], 3, c["image"], c["image"]), "fp32", _u(-1, 1)),
              InputSpec("labels", (c["batch"],), "i64", _ri(0, c["classes"]), target=True)]
    return Built(model, inputs, loss=lambda out, y: F.cross_entropy(out, y), config=c)


def _hf(cls_name, cfg_name, cfg_kwargs):
    import transformers

    cfg = getattr(transformers, cfg_name)(**cfg_kwargs)
    cls = getattr(transformers, cls_name)
    try:
        m = cls._from_config(cfg, attn_implementation="eager")
    except Exception:  # noqa: BLE001  older/newer API
        try:
            cfg._attn_implementation = "eager"
        except Exception:  # noqa: BLE001
            pass
        m = cls(cfg)
    return m, cfg


def build_bert(**over):
    c = _take(over, {"batch": 1, "seq": 32, "layers": 2, "hidden": 768, "heads": 12,
                     "intermediate": 3072, "vocab": 30522, "mask": True})
    model, cfg = _hf("BertModel", "BertConfig",
                     dict(num_hidden_layers=c["layers"], hidden_size=c["hidden"],
                          num_attention_heads=c["heads"], intermediate_size=c["intermediate"],
                          vocab_size=c["vocab"]))
    b, s = c["batch"], c["seq"]
    inputs = [InputSpec("input_ids", (b, s), "i64", _ri(0, cfg.vocab_size), kwarg=True),
              InputSpec("token_type_ids", (b, s), "i64", _ri(0, cfg.type_vocab_size), kwarg=True)]
    if c["mask"]:
        inputs.append(InputSpec("attention_mask", (b, s), "i64", _ri(0, 2), kwarg=True))
    return Built(model, inputs, config=c)


def build_gpt2(**over):
    c = _take(over, {"batch": 1, "seq": 32, "layers": 2, "hidden": 768, "heads": 12,
                     "positions": 64, "vocab": 50257})
    model, cfg = _hf("GPT2LMHeadModel", "GPT2Config",
                     dict(n_layer=c["layers"], n_embd=c["hidden"], n_head=c["heads"],
                          n_positions=c["positions"], vocab_size=c["vocab"]))
    return Built(model, _lm_inputs(c, cfg.vocab_size, True), static_kwargs={"use_cache": False},
                 loss=_lm_loss, config=c)


def build_llama(**over):
    """transformers' Llama; dtype=bf16 or fp16 casts its parameters (the model as served)."""
    import torch

    c = _take(over, {"batch": 1, "seq": 32, "layers": 2, "hidden": 256, "heads": 8, "kv_heads": 2,
                     "intermediate": 512, "positions": 128, "vocab": 32000, "dtype": "fp32"})
    dtypes = {"fp32": torch.float32, "bf16": torch.bfloat16, "fp16": torch.float16}
    if c["dtype"] not in dtypes:
        raise ValueError(f"llama: dtype={c['dtype']!r} is not one of {sorted(dtypes)}")
    model, cfg = _hf("LlamaForCausalLM", "LlamaConfig",
                     dict(hidden_size=c["hidden"], num_hidden_layers=c["layers"],
                          num_attention_heads=c["heads"], num_key_value_heads=c["kv_heads"],
                          intermediate_size=c["intermediate"],
                          max_position_embeddings=c["positions"], vocab_size=c["vocab"]))
    model = model.to(dtypes[c["dtype"]])
    return Built(model, _lm_inputs(c, cfg.vocab_size, True), static_kwargs={"use_cache": False},
                 loss=_lm_loss, config=c)


def build_mixtral(**over):
    """transformers' Mixtral: top-k routed experts, which transformers 5 runs
    through its grouped_mm custom op (aten.histc counts the tokens per expert)."""
    c = _take(over, {"batch": 1, "seq": 16, "layers": 1, "hidden": 64, "heads": 4, "kv_heads": 2,
                     "intermediate": 128, "experts": 4, "top_k": 2, "vocab": 256})
    model, cfg = _hf("MixtralForCausalLM", "MixtralConfig",
                     dict(hidden_size=c["hidden"], num_hidden_layers=c["layers"],
                          num_attention_heads=c["heads"], num_key_value_heads=c["kv_heads"],
                          intermediate_size=c["intermediate"], num_local_experts=c["experts"],
                          num_experts_per_tok=c["top_k"], vocab_size=c["vocab"],
                          max_position_embeddings=64))
    inputs = [InputSpec("input_ids", (c["batch"], c["seq"]), "i64", _ri(0, cfg.vocab_size), kwarg=True)]
    return Built(model, inputs, static_kwargs={"use_cache": False}, config=c)


def _moe_module(vocab, dim, heads, experts, top_k, ffn, window):
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    class MoEBlock(nn.Module):
        """Embedding, one pre-norm transformer block whose MLP is a top-k routed mixture of
        experts (dense dispatch: every expert runs, outputs are gated), and an LM head.
        window > 0 makes the causal attention a sliding window of that many tokens."""

        def __init__(self):
            super().__init__()
            self.embed = nn.Embedding(vocab, dim)
            self.ln1 = nn.LayerNorm(dim)
            self.qkv = nn.Linear(dim, 3 * dim)
            self.proj = nn.Linear(dim, dim)
            self.ln2 = nn.LayerNorm(dim)
            self.router = nn.Linear(dim, experts, bias=False)
            self.w1 = nn.ModuleList([nn.Linear(dim, ffn) for _ in range(experts)])
            self.w2 = nn.ModuleList([nn.Linear(ffn, dim) for _ in range(experts)])
            self.ln_f = nn.LayerNorm(dim)
            self.head = nn.Linear(dim, vocab, bias=False)

        def forward(self, input_ids):
            b, t = input_ids.shape
            x = self.embed(input_ids)
            h = self.ln1(x)
            q, k, v = self.qkv(h).split(dim, dim=-1)
            hd = dim // heads
            q = q.view(b, t, heads, hd).transpose(1, 2)
            k = k.view(b, t, heads, hd).transpose(1, 2)
            v = v.view(b, t, heads, hd).transpose(1, 2)
            att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(hd))
            i = torch.arange(t, device=input_ids.device)
            allowed = i[None, :] <= i[:, None]
            if window > 0:
                allowed = allowed & (i[:, None] - i[None, :] < window)
            att = att.masked_fill(~allowed, float("-inf")).softmax(dim=-1)
            y = (att @ v).transpose(1, 2).reshape(b, t, dim)
            x = x + self.proj(y)
            h = self.ln2(x)
            probs = self.router(h).softmax(dim=-1)
            topv, topi = probs.topk(top_k, dim=-1)
            topv = topv / topv.sum(dim=-1, keepdim=True)
            gates = torch.zeros_like(probs).scatter(-1, topi, topv)
            moe = 0
            for e in range(experts):
                moe = moe + gates[..., e:e + 1] * self.w2[e](F.gelu(self.w1[e](h)))
            x = x + moe
            return self.head(self.ln_f(x))

    return MoEBlock()


def build_moe(**over):
    c = _take(over, {"batch": 1, "seq": 32, "vocab": 512, "dim": 64, "heads": 4, "experts": 4,
                     "top_k": 2, "ffn": 128, "window": 0})
    model = _moe_module(c["vocab"], c["dim"], c["heads"], c["experts"], c["top_k"], c["ffn"],
                        c["window"])
    inputs = [InputSpec("input_ids", (c["batch"], c["seq"]), "i64", _ri(0, c["vocab"]))]
    return Built(model, inputs, config=c)


def build_sliding_window(**over):
    over = dict(over)
    over.setdefault("window", 8)
    return build_moe(**over)


def build_mistral(**over):
    """transformers' MistralForCausalLM (sliding_window) when transformers has it, else the
    plain PyTorch Mistral of build_mistral_plain."""
    c = _take(over, _MISTRAL)
    try:
        import transformers

        transformers.MistralConfig  # noqa: B018
    except (ImportError, AttributeError):
        return build_mistral_plain(**over)
    model, cfg = _hf("MistralForCausalLM", "MistralConfig",
                     dict(hidden_size=c["hidden"], num_hidden_layers=c["layers"],
                          num_attention_heads=c["heads"], num_key_value_heads=c["kv_heads"],
                          intermediate_size=c["intermediate"], sliding_window=c["window"],
                          max_position_embeddings=max(64, c["seq"]), vocab_size=c["vocab"]))
    return Built(model, _lm_inputs(c, cfg.vocab_size, True), static_kwargs={"use_cache": False},
                 loss=_lm_loss, config=c)


def build_deepseek_v3_hf(**over):
    """transformers' DeepseekV3ForCausalLM (its MoE runs transformers 5's grouped experts)."""
    c = _take(over, _DEEPSEEK)
    model, cfg = _hf("DeepseekV3ForCausalLM", "DeepseekV3Config",
                     dict(vocab_size=c["vocab"], hidden_size=c["hidden"],
                          intermediate_size=c["intermediate"], moe_intermediate_size=c["moe_inter"],
                          num_hidden_layers=c["layers"], num_attention_heads=c["heads"],
                          num_key_value_heads=c["heads"], n_shared_experts=c["shared"],
                          n_routed_experts=c["experts"], routed_scaling_factor=c["scaling"],
                          kv_lora_rank=c["kv_lora"], q_lora_rank=c["q_lora"],
                          qk_rope_head_dim=c["qk_rope"], qk_nope_head_dim=c["qk_nope"],
                          v_head_dim=c["v_head"], n_group=c["groups"], topk_group=c["topk_group"],
                          num_experts_per_tok=c["top_k"], first_k_dense_replace=c["dense_layers"],
                          max_position_embeddings=64))
    return Built(model, _lm_inputs(c, cfg.vocab_size, True), static_kwargs={"use_cache": False},
                 loss=_lm_loss, config=c)


BUILTINS = {
    "mlp": build_mlp,
    "resnet18": build_resnet18,
    "resnet50": build_resnet50,
    "mobilenet_v2": build_mobilenet_v2,
    "vit": build_vit,
    "bert": build_bert,
    "gpt2": build_gpt2,
    "llama": build_llama,
    "moe": build_moe,
    "mixtral": build_mixtral,
    "sliding-window": build_sliding_window,
    "clip": build_clip,
    "mistral": build_mistral,
    "mistral-plain": build_mistral_plain,
    "llama_prefill": build_llama_prefill,
    "llama_decode": build_llama_decode,
    "llama_decode_paged": build_llama_decode_paged,
    "deepseek_v3": build_deepseek_v3,
    "deepseek_v3-hf": build_deepseek_v3_hf,
    "unet": build_unet,
    "convnextv2": build_convnextv2,
    "swinv2": build_swinv2,
    "cnn": build_cnn,
    "resnet_small": build_resnet_small,
    "lstm_tagger": build_lstm_tagger,
    "branchy": build_branchy,
    "attention_train": build_attention_train,
    "matmul": build_matmul,
    "layernorm": build_layernorm,
    "softmax": build_softmax,
    "conv": build_conv,
    "attention": build_attention,
    "encoder": build_encoder,
}


def _from_tensor(i, t):
    import torch

    dt = {torch.float32: "fp32", torch.float16: "fp16", torch.bfloat16: "bf16",
          torch.float64: "fp64", torch.int64: "i64", torch.int32: "i32", torch.bool: "i1"}[t.dtype]
    init = _u(-1, 1) if t.is_floating_point() else _ri(0, 2)
    return InputSpec(f"input_{i}", tuple(t.shape), dt, init)


def build(spec):
    """SPEC -> Built (model on the CPU, not yet initialised)."""
    name, over = parse_spec(spec)
    if name in BUILTINS:
        return BUILTINS[name](**over)
    if ":" not in name:
        raise ValueError(f"unknown model {name!r}: built-ins are {sorted(BUILTINS)}, "
                         "or give module.path:factory")
    mod, fn = name.split(":", 1)
    res = getattr(importlib.import_module(mod), fn)(**over)
    if isinstance(res, Built):
        return res
    model, inputs = res
    specs = []
    for i, x in enumerate(inputs):
        specs.append(x if isinstance(x, InputSpec) else _from_tensor(i, x))
    return Built(model, specs, config=dict(over))


def _is_norm(module):
    import torch.nn as nn

    norm_types = (nn.modules.batchnorm._NormBase, nn.LayerNorm, nn.GroupNorm)
    return isinstance(module, norm_types) or "Norm" in type(module).__name__


def param_init(qualname, module, tensor):
    """Generator init (without stream) of a parameter, by its role:
    norm weights uniform [0.5, 1.5), biases and norm biases +-0.1, weight matrices and
    convolution kernels +-1/sqrt(fan_in), other parameters (embeddings of positions, class
    tokens, 1-D weights) +-0.1."""
    leaf = qualname.rsplit(".", 1)[-1]
    if _is_norm(module):
        if leaf == "weight":
            return _u(0.5, 1.5), "norm weight"
        return _u(-0.1, 0.1), "norm bias"
    if leaf == "bias" or leaf.endswith("_bias"):
        return _u(-0.1, 0.1), "bias"
    if leaf.endswith("weight") and tensor.dim() >= 2:
        if type(module).__name__ == "Conv1D":  # transformers' GPT-2 layers store [in, out]
            fan_in = tensor.shape[0]
        else:
            fan_in = tensor.numel() // tensor.shape[0]
        b = 1.0 / math.sqrt(max(1, fan_in))
        return _u(-b, b), "weight"
    return _u(-0.1, 0.1), "parameter"


def buffer_init(qualname, tensor, config=None):
    """Generator init (without stream) of a buffer or tensor attribute, by name and dtype."""
    import torch

    leaf = qualname.rsplit(".", 1)[-1]
    if tensor.dtype == torch.bool:
        return {"kind": "constant", "value": 1}, "mask"
    if not tensor.is_floating_point():
        if leaf == "num_batches_tracked":
            return {"kind": "constant", "value": 0}, "counter"
        if "position" in leaf:
            n = getattr(config, "max_position_embeddings", None) if config is not None else None
            if n:
                return _ri(0, n), "positions"
        if "token_type" in leaf:
            n = getattr(config, "type_vocab_size", None) if config is not None else None
            if n:
                return _ri(0, n), "token types"
        return {"kind": "constant", "value": 0}, "integer buffer"
    if leaf == "running_var":
        return _u(0.5, 1.5), "running_var"
    if leaf == "running_mean":
        return _u(-0.1, 0.1), "running_mean"
    if "inv_freq" in leaf:
        return _u(0.0, 1.0), "rope inv_freq"
    return _u(-0.1, 0.1), "buffer"
