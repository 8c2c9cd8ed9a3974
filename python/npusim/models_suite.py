"""Suite models in plain PyTorch (small configurations). Every table a model needs, such
as relative positions, is computed in forward from iota so that no buffer holds it: the
capture sets every buffer from the generator."""

import math

from .models_common import (Built, InputSpec, _attention, _causal_mask, _heads, _lm_inputs,
                            _lm_loss, _merge, _ri, _rmsnorm_cls, _rope, _sdpa, _take,
                            _transformer_layers, _u)


def _clip_module(c):
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    def quick_gelu(x):
        return x * torch.sigmoid(1.702 * x)

    class Block(nn.Module):
        """Pre-norm transformer block of CLIP (quick GELU); causal for the text tower."""

        def __init__(self, dim, heads, causal):
            super().__init__()
            self.heads, self.causal = heads, causal
            _transformer_layers(self, dim)

        def forward(self, x):
            q, k, v = self.qkv(self.ln1(x)).chunk(3, dim=-1)
            q, k, v = (_heads(t, self.heads) for t in (q, k, v))
            y = _sdpa(q, k, v, self.causal)
            x = x + self.proj(_merge(y))
            return x + self.fc2(quick_gelu(self.fc1(self.ln2(x))))

    class CLIP(nn.Module):
        """Vision tower (patch embedding, class token, pre-norm ViT, projection of the class
        token), text tower (token and position embeddings, causal transformer, projection of
        the last token, where CLIP's end-of-text token is), and the contrastive logits:
        exp(logit_scale) * normalised image features @ normalised text features^T."""

        def __init__(self):
            super().__init__()
            w, e = c["vision_width"], c["embed"]
            n_patches = (c["image"] // c["patch"]) ** 2
            self.patch = nn.Conv2d(3, w, c["patch"], stride=c["patch"], bias=False)
            self.class_embedding = nn.Parameter(torch.zeros(w))
            self.vision_positions = nn.Parameter(torch.zeros(n_patches + 1, w))
            self.vision_pre = nn.LayerNorm(w)
            self.vision_blocks = nn.ModuleList([Block(w, c["heads"], False) for _ in range(c["layers"])])
            self.vision_post = nn.LayerNorm(w)
            self.vision_proj = nn.Linear(w, e, bias=False)
            tw = c["text_width"]
            self.token_embedding = nn.Embedding(c["vocab"], tw)
            self.text_positions = nn.Parameter(torch.zeros(c["seq"], tw))
            self.text_blocks = nn.ModuleList([Block(tw, c["heads"], True) for _ in range(c["layers"])])
            self.text_final = nn.LayerNorm(tw)
            self.text_proj = nn.Linear(tw, e, bias=False)
            self.logit_scale = nn.Parameter(torch.zeros(()))

        def forward(self, pixel_values, input_ids):
            x = self.patch(pixel_values).flatten(2).transpose(1, 2)
            cls = self.class_embedding.expand(x.shape[0], 1, -1)
            x = self.vision_pre(torch.cat([cls, x], dim=1) + self.vision_positions)
            for blk in self.vision_blocks:
                x = blk(x)
            image = self.vision_proj(self.vision_post(x[:, 0]))
            t = self.token_embedding(input_ids) + self.text_positions
            for blk in self.text_blocks:
                t = blk(t)
            text = self.text_proj(self.text_final(t)[:, -1])
            image = image / image.norm(dim=-1, keepdim=True)
            text = text / text.norm(dim=-1, keepdim=True)
            logits_per_image = self.logit_scale.exp() * image @ text.t()
            return logits_per_image, logits_per_image.t()

    return CLIP()


def build_clip(**over):
    c = _take(over, {"batch": 2, "image": 32, "patch": 8, "vision_width": 64, "text_width": 64,
                     "heads": 4, "layers": 2, "embed": 32, "seq": 16, "vocab": 512})
    inputs = [InputSpec("pixel_values", (c["batch"], 3, c["image"], c["image"]), "fp32", _u(-1, 1)),
              InputSpec("input_ids", (c["batch"], c["seq"]), "i64", _ri(0, c["vocab"]))]
    return Built(_clip_module(c), inputs, config=c)


def _mistral_module(c):
    import torch.nn as nn
    import torch.nn.functional as F

    RMSNorm = _rmsnorm_cls()
    hd = c["hidden"] // c["heads"]

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

        def forward(self, x, mask):
            h = self.input_norm(x)
            q = _rope(_heads(self.q(h), c["heads"]))
            k = _rope(_heads(self.k(h), c["kv_heads"]))
            v = _heads(self.v(h), c["kv_heads"])
            rep = c["heads"] // c["kv_heads"]
            k, v = k.repeat_interleave(rep, dim=1), v.repeat_interleave(rep, dim=1)
            x = x + self.o(_merge(_attention(q, k, v, mask)))
            h = self.post_norm(x)
            return x + self.down(F.silu(self.gate(h)) * self.up(h))

    class Mistral(nn.Module):
        """Mistral decoder: RMSNorm, RoPE, grouped-query attention over a causal sliding
        window of `window` tokens, SwiGLU MLP, LM head."""

        def __init__(self):
            super().__init__()
            self.embed = nn.Embedding(c["vocab"], c["hidden"])
            self.layers = nn.ModuleList([Layer() for _ in range(c["layers"])])
            self.norm = RMSNorm(c["hidden"])
            self.lm_head = nn.Linear(c["hidden"], c["vocab"], bias=False)

        def forward(self, input_ids):
            x = self.embed(input_ids)
            mask = _causal_mask(input_ids.shape[1], c["window"], input_ids.device)
            for layer in self.layers:
                x = layer(x, mask)
            return self.lm_head(self.norm(x))

    return Mistral()


_MISTRAL = {"batch": 1, "seq": 32, "layers": 2, "hidden": 64, "heads": 4, "kv_heads": 2,
            "intermediate": 128, "window": 8, "vocab": 512}


def build_mistral_plain(**over):
    c = _take(over, _MISTRAL)
    return Built(_mistral_module(c), _lm_inputs(c, c["vocab"], False), loss=_lm_loss, config=c)


def _deepseek_module(c):
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    RMSNorm = _rmsnorm_cls()
    nope, rope_d, vd, heads = c["qk_nope"], c["qk_rope"], c["v_head"], c["heads"]

    class MLA(nn.Module):
        """Multi-head latent attention: queries through a low-rank bottleneck (q_lora),
        keys and values from one compressed latent (kv_lora) plus a rotary key part shared
        by all heads; each query/key head = [no-position part, rotary part]."""

        def __init__(self):
            super().__init__()
            d = c["hidden"]
            self.q_a = nn.Linear(d, c["q_lora"], bias=False)
            self.q_a_norm = RMSNorm(c["q_lora"])
            self.q_b = nn.Linear(c["q_lora"], heads * (nope + rope_d), bias=False)
            self.kv_a = nn.Linear(d, c["kv_lora"] + rope_d, bias=False)
            self.kv_a_norm = RMSNorm(c["kv_lora"])
            self.kv_b = nn.Linear(c["kv_lora"], heads * (nope + vd), bias=False)
            self.o = nn.Linear(heads * vd, d, bias=False)

        def forward(self, x, mask):
            b, t, _ = x.shape
            q = self.q_b(self.q_a_norm(self.q_a(x))).view(b, t, heads, nope + rope_d).transpose(1, 2)
            q_nope, q_rope = q.split([nope, rope_d], dim=-1)
            kv = self.kv_a(x)
            latent, k_rope = kv.split([c["kv_lora"], rope_d], dim=-1)
            kv = self.kv_b(self.kv_a_norm(latent)).view(b, t, heads, nope + vd).transpose(1, 2)
            k_nope, v = kv.split([nope, vd], dim=-1)
            k_rope = _rope(k_rope.view(b, 1, t, rope_d)).expand(b, heads, t, rope_d)
            q = torch.cat([q_nope, _rope(q_rope)], dim=-1)
            k = torch.cat([k_nope, k_rope], dim=-1)
            return self.o(_merge(_attention(q, k, v, mask)))

    class Expert(nn.Module):
        def __init__(self, inter):
            super().__init__()
            self.gate = nn.Linear(c["hidden"], inter, bias=False)
            self.up = nn.Linear(c["hidden"], inter, bias=False)
            self.down = nn.Linear(inter, c["hidden"], bias=False)

        def forward(self, x):
            return self.down(F.silu(self.gate(x)) * self.up(x))

    class MoE(nn.Module):
        """DeepSeek-V3 routing: sigmoid affinities; experts chosen by top-k over the scores
        plus a bias correction, within the top `topk_group` of `groups` groups (a group's
        score: the sum of its two best); the gates are the chosen affinities normalised and
        scaled. Every routed expert runs on all tokens and is weighted by its gate (zero
        when not chosen); the shared experts always add."""

        def __init__(self):
            super().__init__()
            self.router = nn.Linear(c["hidden"], c["experts"], bias=False)
            self.e_score_correction_bias = nn.Parameter(torch.zeros(c["experts"]), requires_grad=False)
            self.experts = nn.ModuleList([Expert(c["moe_inter"]) for _ in range(c["experts"])])
            self.shared = Expert(c["moe_inter"] * c["shared"])

        def route(self, h):
            """Gates [tokens, experts]: top_k nonzero per token."""
            scores = torch.sigmoid(self.router(h))
            choice = scores + self.e_score_correction_bias
            g = c["groups"]
            grouped = choice.view(h.shape[0], g, c["experts"] // g)
            group_scores = grouped.topk(2, dim=-1).values.sum(dim=-1)
            top_groups = group_scores.topk(c["topk_group"], dim=-1).indices
            group_mask = torch.zeros_like(group_scores).scatter(1, top_groups, 1.0)
            expert_mask = group_mask.unsqueeze(-1).expand_as(grouped).reshape(h.shape[0], -1)
            choice = choice.masked_fill(expert_mask == 0, float("-inf"))
            top_idx = choice.topk(c["top_k"], dim=-1).indices
            top_w = scores.gather(1, top_idx)
            top_w = top_w / (top_w.sum(dim=-1, keepdim=True) + 1e-20) * c["scaling"]
            return torch.zeros_like(scores).scatter(1, top_idx, top_w)

        def forward(self, x):
            b, t, d = x.shape
            h = x.reshape(b * t, d)
            gates = self.route(h)
            out = self.shared(h)
            for e, expert in enumerate(self.experts):
                out = out + gates[:, e:e + 1] * expert(h)
            return out.view(b, t, d)

    class Layer(nn.Module):
        def __init__(self, moe):
            super().__init__()
            self.attn_norm = RMSNorm(c["hidden"])
            self.attn = MLA()
            self.mlp_norm = RMSNorm(c["hidden"])
            self.mlp = MoE() if moe else Expert(c["intermediate"])

        def forward(self, x, mask):
            x = x + self.attn(self.attn_norm(x), mask)
            return x + self.mlp(self.mlp_norm(x))

    class DeepseekV3(nn.Module):
        """Decoder of DeepSeek-V3's architecture: the first `dense_layers` layers have a
        dense SwiGLU MLP, the others the routed MoE with shared experts; causal MLA."""

        def __init__(self):
            super().__init__()
            self.embed = nn.Embedding(c["vocab"], c["hidden"])
            self.layers = nn.ModuleList([Layer(i >= c["dense_layers"]) for i in range(c["layers"])])
            self.norm = RMSNorm(c["hidden"])
            self.lm_head = nn.Linear(c["hidden"], c["vocab"], bias=False)

        def forward(self, input_ids):
            x = self.embed(input_ids)
            mask = _causal_mask(input_ids.shape[1], 0, input_ids.device)
            for layer in self.layers:
                x = layer(x, mask)
            return self.lm_head(self.norm(x))

    return DeepseekV3()


_DEEPSEEK = {"batch": 1, "seq": 16, "layers": 2, "dense_layers": 1, "hidden": 64, "heads": 4,
             "q_lora": 32, "kv_lora": 32, "qk_nope": 16, "qk_rope": 8, "v_head": 16,
             "intermediate": 128, "moe_inter": 32, "experts": 8, "shared": 1, "top_k": 2,
             "groups": 4, "topk_group": 2, "scaling": 2.5, "vocab": 512}


def build_deepseek_v3(**over):
    c = _take(over, _DEEPSEEK)
    return Built(_deepseek_module(c), _lm_inputs(c, c["vocab"], False), loss=_lm_loss, config=c)


def _unet_module(c):
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    groups = c["groups"]

    class ResBlock(nn.Module):
        """GroupNorm, SiLU, 3x3 conv; plus the projected timestep embedding; GroupNorm, SiLU,
        3x3 conv; a 1x1 conv on the skip path when the channel count changes."""

        def __init__(self, cin, cout, temb):
            super().__init__()
            self.norm1 = nn.GroupNorm(groups, cin)
            self.conv1 = nn.Conv2d(cin, cout, 3, padding=1)
            self.temb = nn.Linear(temb, cout)
            self.norm2 = nn.GroupNorm(groups, cout)
            self.conv2 = nn.Conv2d(cout, cout, 3, padding=1)
            self.skip = nn.Conv2d(cin, cout, 1) if cin != cout else nn.Identity()

        def forward(self, x, emb):
            h = self.conv1(F.silu(self.norm1(x)))
            h = h + self.temb(F.silu(emb))[:, :, None, None]
            h = self.conv2(F.silu(self.norm2(h)))
            return self.skip(x) + h

    class Transformer(nn.Module):
        """Spatial transformer of SD: GroupNorm, 1x1 in-projection, self-attention,
        cross-attention to the text context, GEGLU feed-forward, 1x1 out-projection, residual."""

        def __init__(self, ch):
            super().__init__()
            self.heads = c["heads"]
            self.norm = nn.GroupNorm(groups, ch)
            self.proj_in = nn.Conv2d(ch, ch, 1)
            self.ln1 = nn.LayerNorm(ch)
            self.q1, self.k1, self.v1 = (nn.Linear(ch, ch, bias=False) for _ in range(3))
            self.o1 = nn.Linear(ch, ch)
            self.ln2 = nn.LayerNorm(ch)
            self.q2 = nn.Linear(ch, ch, bias=False)
            self.k2 = nn.Linear(c["context_dim"], ch, bias=False)
            self.v2 = nn.Linear(c["context_dim"], ch, bias=False)
            self.o2 = nn.Linear(ch, ch)
            self.ln3 = nn.LayerNorm(ch)
            self.ff1 = nn.Linear(ch, 8 * ch)
            self.ff2 = nn.Linear(4 * ch, ch)
            self.proj_out = nn.Conv2d(ch, ch, 1)

        def attend(self, q, k, v):
            h = self.heads
            return _merge(_sdpa(_heads(q, h), _heads(k, h), _heads(v, h)))

        def forward(self, x, context):
            b, ch, hh, ww = x.shape
            t = self.proj_in(self.norm(x)).flatten(2).transpose(1, 2)
            h = self.ln1(t)
            t = t + self.o1(self.attend(self.q1(h), self.k1(h), self.v1(h)))
            h = self.ln2(t)
            t = t + self.o2(self.attend(self.q2(h), self.k2(context), self.v2(context)))
            a, gate = self.ff1(self.ln3(t)).chunk(2, dim=-1)
            t = t + self.ff2(a * F.gelu(gate))
            return x + self.proj_out(t.transpose(1, 2).reshape(b, ch, hh, ww))

    class UNet(nn.Module):
        """Stable-Diffusion-style UNet: sinusoidal timestep embedding and its MLP; a 3x3 conv
        in; per level a ResBlock (and a spatial transformer at the levels in `attn`), then a
        stride-2 conv down; a middle ResBlock, transformer, ResBlock; per level up a ResBlock
        over the concatenated skip (and a transformer), then nearest 2x upsampling and a 3x3
        conv; GroupNorm, SiLU and a 3x3 conv out."""

        def __init__(self):
            super().__init__()
            base = c["channels"]
            chans = [base * int(m) for m in str(c["mult"]).split("-")]
            attn = [int(a) for a in str(c["attn"]).split("-")] if str(c["attn"]) else []
            temb = 4 * base
            self.time1 = nn.Linear(base, temb)
            self.time2 = nn.Linear(temb, temb)
            self.conv_in = nn.Conv2d(c["in_channels"], chans[0], 3, padding=1)
            self.down_res, self.down_attn, self.down_sample = nn.ModuleList(), nn.ModuleList(), nn.ModuleList()
            cin = chans[0]
            skips = []
            for i, ch in enumerate(chans):
                self.down_res.append(ResBlock(cin, ch, temb))
                self.down_attn.append(Transformer(ch) if i in attn else nn.Identity())
                self.down_sample.append(nn.Conv2d(ch, ch, 3, stride=2, padding=1))
                skips.append(ch)
                cin = ch
            self.mid1 = ResBlock(cin, cin, temb)
            self.mid_attn = Transformer(cin)
            self.mid2 = ResBlock(cin, cin, temb)
            self.up_sample, self.up_res, self.up_attn = nn.ModuleList(), nn.ModuleList(), nn.ModuleList()
            for i in reversed(range(len(chans))):
                self.up_sample.append(nn.Conv2d(cin, cin, 3, padding=1))
                self.up_res.append(ResBlock(cin + skips[i], chans[i], temb))
                self.up_attn.append(Transformer(chans[i]) if i in attn else nn.Identity())
                cin = chans[i]
            self.norm_out = nn.GroupNorm(groups, cin)
            self.conv_out = nn.Conv2d(cin, c["in_channels"], 3, padding=1)
            self.base = base

        def forward(self, sample, timestep, encoder_hidden_states):
            half = self.base // 2
            freqs = torch.exp(-math.log(10000.0) * torch.arange(half, device=sample.device,
                                                                 dtype=torch.float32) / half)
            ang = timestep[:, None].float() * freqs[None, :]
            emb = self.time2(F.silu(self.time1(torch.cat([ang.cos(), ang.sin()], dim=-1))))
            x = self.conv_in(sample)
            skips = []
            for res, attn, down in zip(self.down_res, self.down_attn, self.down_sample):
                x = res(x, emb)
                x = attn(x, encoder_hidden_states) if isinstance(attn, Transformer) else x
                skips.append(x)
                x = down(x)
            x = self.mid2(self.mid_attn(self.mid1(x, emb), encoder_hidden_states), emb)
            for up, res, attn in zip(self.up_sample, self.up_res, self.up_attn):
                x = up(F.interpolate(x, scale_factor=2.0, mode="nearest"))
                x = res(torch.cat([x, skips.pop()], dim=1), emb)
                x = attn(x, encoder_hidden_states) if isinstance(attn, Transformer) else x
            return self.conv_out(F.silu(self.norm_out(x)))

    return UNet()


def build_unet(**over):
    c = _take(over, {"batch": 1, "in_channels": 4, "image": 16, "channels": 32, "mult": "1-2",
                     "attn": "1", "heads": 4, "groups": 8, "context": 8, "context_dim": 32})
    b = c["batch"]
    inputs = [InputSpec("sample", (b, c["in_channels"], c["image"], c["image"]), "fp32", _u(-1, 1)),
              InputSpec("timestep", (b,), "fp32", _u(0, 1000)),
              InputSpec("encoder_hidden_states", (b, c["context"], c["context_dim"]), "fp32", _u(-1, 1))]
    return Built(_unet_module(c), inputs, config=c)


def _convnextv2_module(c):
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    class ChannelsFirstNorm(nn.Module):
        """LayerNorm over the channels of an NCHW tensor."""

        def __init__(self, ch):
            super().__init__()
            self.weight = nn.Parameter(torch.ones(ch))
            self.bias = nn.Parameter(torch.zeros(ch))

        def forward(self, x):
            return F.layer_norm(x.permute(0, 2, 3, 1), x.shape[1:2], self.weight,
                                self.bias, 1e-6).permute(0, 3, 1, 2)

    class GRN(nn.Module):
        """Global response norm: x * (gamma * N(x) ) + beta + x with N the per-channel L2
        norm over the spatial positions divided by its mean over the channels."""

        def __init__(self, ch):
            super().__init__()
            self.gamma = nn.Parameter(torch.zeros(1, 1, 1, ch))
            self.beta = nn.Parameter(torch.zeros(1, 1, 1, ch))

        def forward(self, x):  # NHWC
            gx = torch.norm(x, p=2, dim=(1, 2), keepdim=True)
            nx = gx / (gx.mean(dim=-1, keepdim=True) + 1e-6)
            return self.gamma * (x * nx) + self.beta + x

    class Block(nn.Module):
        def __init__(self, ch):
            super().__init__()
            self.dwconv = nn.Conv2d(ch, ch, 7, padding=3, groups=ch)
            self.norm = nn.LayerNorm(ch, eps=1e-6)
            self.pw1 = nn.Linear(ch, 4 * ch)
            self.grn = GRN(4 * ch)
            self.pw2 = nn.Linear(4 * ch, ch)

        def forward(self, x):
            h = self.norm(self.dwconv(x).permute(0, 2, 3, 1))
            h = self.pw2(self.grn(F.gelu(self.pw1(h))))
            return x + h.permute(0, 3, 1, 2)

    class ConvNeXtV2(nn.Module):
        """4x4 stride-4 stem with a channels-first LayerNorm; stages of ConvNeXtV2 blocks
        (7x7 depthwise conv, LayerNorm, 4x pointwise MLP with GELU and GRN), between stages
        a LayerNorm and a 2x2 stride-2 conv; global average pool, LayerNorm, linear head."""

        def __init__(self):
            super().__init__()
            dims = [int(d) for d in str(c["dims"]).split("-")]
            depths = [int(d) for d in str(c["depths"]).split("-")]
            self.stem = nn.Sequential(nn.Conv2d(3, dims[0], 4, stride=4), ChannelsFirstNorm(dims[0]))
            self.stages = nn.ModuleList()
            for i, (d, n) in enumerate(zip(dims, depths)):
                layers = []
                if i:
                    layers += [ChannelsFirstNorm(dims[i - 1]), nn.Conv2d(dims[i - 1], d, 2, stride=2)]
                layers += [Block(d) for _ in range(n)]
                self.stages.append(nn.Sequential(*layers))
            self.norm = nn.LayerNorm(dims[-1], eps=1e-6)
            self.head = nn.Linear(dims[-1], c["classes"])

        def forward(self, x):
            x = self.stem(x)
            for s in self.stages:
                x = s(x)
            return self.head(self.norm(x.mean(dim=(2, 3))))

    return ConvNeXtV2()


def build_convnextv2(**over):
    import torch.nn.functional as F

    c = _take(over, {"batch": 1, "image": 32, "dims": "16-32-64", "depths": "1-1-2", "classes": 10})
    inputs = [InputSpec("x", (c["batch"], 3, c["image"], c["image"]), "fp32", _u(-1, 1)),
              InputSpec("labels", (c["batch"],), "i64", _ri(0, c["classes"]), target=True)]
    return Built(_convnextv2_module(c), inputs, loss=lambda out, y: F.cross_entropy(out, y), config=c)


def swin_windows(x, win):
    """[b, h, w, ch] -> [b * windows, win * win, ch], windows in row-major order."""
    b, h, w, ch = x.shape
    x = x.view(b, h // win, win, w // win, win, ch).permute(0, 1, 3, 2, 4, 5)
    return x.reshape(-1, win * win, ch)


def swin_unwindows(x, win, b, h, w):
    ch = x.shape[-1]
    x = x.view(b, h // win, w // win, win, win, ch).permute(0, 1, 3, 2, 4, 5)
    return x.reshape(b, h, w, ch)


def swin_relative_tables(win, device=None):
    """SwinV2's log-spaced relative coordinates [(2 win - 1)^2, 2] (offsets scaled to +-8,
    then sign * log2(1 + |.|) / 3) and, for each pair of positions of a window, the row of
    their offset in that table [win^2, win^2]; both from iota."""
    import torch

    r = torch.arange(-(win - 1), win, device=device, dtype=torch.float32)
    table = torch.stack(torch.meshgrid(r, r, indexing="ij"), dim=-1).reshape(-1, 2)
    table = table / (win - 1) * 8
    table = torch.sign(table) * torch.log2(table.abs() + 1.0) / math.log2(8)
    p = torch.arange(win, device=device)
    coords = torch.stack(torch.meshgrid(p, p, indexing="ij")).flatten(1)  # [2, win^2]
    rel = coords[:, :, None] - coords[:, None, :] + (win - 1)
    return table, rel[0] * (2 * win - 1) + rel[1]


def swin_shift_mask(h, w, win, shift, device=None):
    """Additive mask [windows, win^2, win^2] of a window shift: -100 between two positions
    of one shifted window that come from different regions of the unshifted image."""
    import torch

    region = torch.zeros(h, w, device=device)
    n = 0
    for hs in (slice(0, -win), slice(-win, -shift), slice(-shift, None)):
        for ws in (slice(0, -win), slice(-win, -shift), slice(-shift, None)):
            region[hs, ws] = n
            n += 1
    rw = swin_windows(region.view(1, h, w, 1), win).squeeze(-1)
    diff = rw[:, None, :] - rw[:, :, None]
    return torch.zeros_like(diff).masked_fill(diff != 0, -100.0)


def _swinv2_module(c):
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    win = c["window"]

    def windows(x):
        return swin_windows(x, win)

    def unwindows(x, b, h, w):
        return swin_unwindows(x, win, b, h, w)

    class Attention(nn.Module):
        """Scaled cosine attention with a learned per-head logit scale (at most log 100) and
        the continuous position bias: an MLP over the relative coordinates, 16 * sigmoid."""

        def __init__(self, dim, heads):
            super().__init__()
            self.heads = heads
            self.qkv = nn.Linear(dim, 3 * dim)
            self.logit_scale = nn.Parameter(torch.zeros(heads, 1, 1))
            self.cpb1 = nn.Linear(2, c["cpb_hidden"])
            self.cpb2 = nn.Linear(c["cpb_hidden"], heads, bias=False)
            self.proj = nn.Linear(dim, dim)

        def forward(self, x, mask):
            q, k, v = (_heads(t, self.heads) for t in self.qkv(x).chunk(3, dim=-1))
            att = F.normalize(q, dim=-1) @ F.normalize(k, dim=-1).transpose(-2, -1)
            att = att * torch.clamp(self.logit_scale, max=math.log(100.0)).exp()
            table, index = swin_relative_tables(win, x.device)
            bias = self.cpb2(F.relu(self.cpb1(table)))  # [(2w-1)^2, heads]
            bias = bias[index.reshape(-1)].view(win * win, win * win, -1).permute(2, 0, 1)
            att = att + 16 * torch.sigmoid(bias)
            if mask is not None:
                nw = mask.shape[0]
                att = att.view(-1, nw, self.heads, win * win, win * win) + mask[None, :, None]
                att = att.view(-1, self.heads, win * win, win * win)
            return self.proj(_merge(att.softmax(dim=-1) @ v))

    class Block(nn.Module):
        """SwinV2 block with residual post-norm: x + LN(attn(x)), then x + LN(MLP(x));
        odd blocks shift the windows by half a window (torch.roll) with the region mask."""

        def __init__(self, dim, heads, shift):
            super().__init__()
            self.shift = shift
            self.attn = Attention(dim, heads)
            self.norm1 = nn.LayerNorm(dim)
            self.fc1 = nn.Linear(dim, 4 * dim)
            self.fc2 = nn.Linear(4 * dim, dim)
            self.norm2 = nn.LayerNorm(dim)

        def forward(self, x):
            b, h, w, ch = x.shape
            s = self.shift if min(h, w) > win else 0
            y = torch.roll(x, (-s, -s), dims=(1, 2)) if s else x
            mask = swin_shift_mask(h, w, win, s, x.device) if s else None
            y = unwindows(self.attn(windows(y), mask), b, h, w)
            y = torch.roll(y, (s, s), dims=(1, 2)) if s else y
            x = x + self.norm1(y)
            return x + self.norm2(self.fc2(F.gelu(self.fc1(x))))

    class PatchMerging(nn.Module):
        """2x2 neighbours concatenated, a linear reduction to twice the channels, LayerNorm
        after (SwinV2's order)."""

        def __init__(self, dim):
            super().__init__()
            self.reduction = nn.Linear(4 * dim, 2 * dim, bias=False)
            self.norm = nn.LayerNorm(2 * dim)

        def forward(self, x):
            x = torch.cat([x[:, 0::2, 0::2], x[:, 1::2, 0::2], x[:, 0::2, 1::2], x[:, 1::2, 1::2]], -1)
            return self.norm(self.reduction(x))

    class SwinV2(nn.Module):
        """Patch embedding (conv, LayerNorm), stages of shifted-window blocks with patch
        merging between them, LayerNorm, average pool, linear head."""

        def __init__(self):
            super().__init__()
            dim = c["embed"]
            depths = [int(d) for d in str(c["depths"]).split("-")]
            heads = [int(h) for h in str(c["heads"]).split("-")]
            self.patch = nn.Conv2d(3, dim, c["patch"], stride=c["patch"])
            self.patch_norm = nn.LayerNorm(dim)
            self.stages = nn.ModuleList()
            for i, (n, nh) in enumerate(zip(depths, heads)):
                layers = [PatchMerging(dim // 2)] if i else []
                layers += [Block(dim, nh, win // 2 if j % 2 else 0) for j in range(n)]
                self.stages.append(nn.Sequential(*layers))
                dim *= 2
            dim //= 2
            self.norm = nn.LayerNorm(dim)
            self.head = nn.Linear(dim, c["classes"])

        def forward(self, x):
            x = self.patch_norm(self.patch(x).permute(0, 2, 3, 1))
            for s in self.stages:
                x = s(x)
            return self.head(self.norm(x).mean(dim=(1, 2)))

    return SwinV2()


def build_swinv2(**over):
    import torch.nn.functional as F

    c = _take(over, {"batch": 1, "image": 32, "patch": 2, "embed": 32, "depths": "2-2",
                     "heads": "2-4", "window": 4, "cpb_hidden": 64, "classes": 10})
    inputs = [InputSpec("x", (c["batch"], 3, c["image"], c["image"]), "fp32", _u(-1, 1)),
              InputSpec("labels", (c["batch"],), "i64", _ri(0, c["classes"]), target=True)]
    return Built(_swinv2_module(c), inputs, loss=lambda out, y: F.cross_entropy(out, y), config=c)


def build_cnn(**over):
    """A small CNN with BatchNorm (for training): conv-BN-ReLU, a stride-2 conv-BN-ReLU,
    average pool, linear."""
    import torch.nn as nn
    import torch.nn.functional as F

    c = _take(over, {"batch": 4, "image": 16, "channels": 8, "classes": 10})
    ch = c["channels"]
    model = nn.Sequential(nn.Conv2d(3, ch, 3, padding=1, bias=False), nn.BatchNorm2d(ch), nn.ReLU(),
                          nn.Conv2d(ch, 2 * ch, 3, stride=2, padding=1, bias=False),
                          nn.BatchNorm2d(2 * ch), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
                          nn.Linear(2 * ch, c["classes"]))
    inputs = [InputSpec("x", (c["batch"], 3, c["image"], c["image"]), "fp32", _u(-1, 1)),
              InputSpec("labels", (c["batch"],), "i64", _ri(0, c["classes"]), target=True)]
    return Built(model, inputs, loss=lambda out, y: F.cross_entropy(out, y), config=c)

