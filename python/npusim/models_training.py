"""Models for training steps and graph breaks, in plain PyTorch: ResNet-18's layout at a
small width (BatchNorm in training), a bidirectional LSTM tagger and an MLP that branches
on its data (graph breaks), a decoder trained through scaled_dot_product_attention."""

from .models_common import (Built, InputSpec, _heads, _lm_inputs, _lm_loss, _merge, _ri, _take,
                            _transformer_layers, _u)


def build_resnet_small(**over):
    """ResNet-18's layout (7x7 stride-2 stem, max pool, four stages of two basic blocks,
    average pool, linear) with stage widths width, 2, 4 and 8 times width; for training
    with BatchNorm at a size where every BatchNorm of the last stage still averages over
    batch x 2 x 2 values."""
    import torch.nn as nn
    import torch.nn.functional as F

    c = _take(over, {"batch": 4, "image": 64, "width": 16, "classes": 10})

    class Block(nn.Module):
        def __init__(self, cin, cout, stride):
            super().__init__()
            self.conv1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
            self.bn1 = nn.BatchNorm2d(cout)
            self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
            self.bn2 = nn.BatchNorm2d(cout)
            self.down = None
            if stride != 1 or cin != cout:
                self.down = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False),
                                          nn.BatchNorm2d(cout))

        def forward(self, x):
            y = F.relu(self.bn1(self.conv1(x)))
            y = self.bn2(self.conv2(y))
            return F.relu(y + (x if self.down is None else self.down(x)))

    w = c["width"]
    stages, cin = [], w
    for i, cout in enumerate((w, 2 * w, 4 * w, 8 * w)):
        stages += [Block(cin, cout, 1 if i == 0 else 2), Block(cout, cout, 1)]
        cin = cout
    model = nn.Sequential(nn.Conv2d(3, w, 7, 2, 3, bias=False), nn.BatchNorm2d(w), nn.ReLU(),
                          nn.MaxPool2d(3, 2, 1), *stages, nn.AdaptiveAvgPool2d(1), nn.Flatten(),
                          nn.Linear(8 * w, c["classes"]))
    inputs = [InputSpec("x", (c["batch"], 3, c["image"], c["image"]), "fp32", _u(-1, 1)),
              InputSpec("labels", (c["batch"],), "i64", _ri(0, c["classes"]), target=True)]
    return Built(model, inputs, loss=lambda out, y: F.cross_entropy(out, y), config=c)


def build_lstm_tagger(**over):
    """A sequence tagger: embedding, a bidirectional nn.LSTM, a linear layer per token.
    torch.compile runs the LSTM eagerly (Dynamo breaks the graph at RNN modules), so a
    step is two compiled graphs with the LSTM's aten calls between them."""
    import torch.nn as nn

    c = _take(over, {"batch": 2, "seq": 8, "vocab": 64, "embed": 16, "hidden": 16, "tags": 5,
                     "layers": 1})

    class Tagger(nn.Module):
        def __init__(self):
            super().__init__()
            self.embed = nn.Embedding(c["vocab"], c["embed"])
            self.lstm = nn.LSTM(c["embed"], c["hidden"], num_layers=c["layers"], batch_first=True,
                                bidirectional=True)
            self.out = nn.Linear(2 * c["hidden"], c["tags"])

        def forward(self, input_ids):
            h, _ = self.lstm(self.embed(input_ids))
            return self.out(h)

    inputs = [InputSpec("input_ids", (c["batch"], c["seq"]), "i64", _ri(0, c["vocab"])),
              InputSpec("labels", (c["batch"], c["seq"]), "i64", _ri(0, c["tags"]), target=True)]
    return Built(Tagger(), inputs, loss=_lm_loss, config=c)


def build_branchy(**over):
    """An MLP whose Python branches on a value of the data (the mean of the first layer's
    activations): Dynamo breaks the graph at the branch and compiles the branch taken."""
    import torch.nn as nn
    import torch.nn.functional as F

    c = _take(over, {"batch": 4, "dim": 32, "hidden": 64, "classes": 10})

    class Branchy(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc1 = nn.Linear(c["dim"], c["hidden"])
            self.fc2 = nn.Linear(c["hidden"], c["classes"])

        def forward(self, x):
            h = self.fc1(x)
            if h.mean() > 0:  # data-dependent: a graph break
                h = F.relu(h)
            else:
                h = F.gelu(h) * 2
            return self.fc2(h)

    inputs = [InputSpec("x", (c["batch"], c["dim"]), "fp32", _u(-1, 1)),
              InputSpec("labels", (c["batch"],), "i64", _ri(0, c["classes"]), target=True)]
    return Built(Branchy(), inputs, loss=lambda out, y: F.cross_entropy(out, y), config=c)


def build_attention_train(**over):
    """A small decoder for training through F.scaled_dot_product_attention (on the GPU
    Inductor keeps the fused attention and its backward as library calls): embedding,
    then per layer a pre-norm block whose attention is causal (is_causal) in even layers
    and takes an additive float mask with an explicit scale in odd ones, and an MLP; an
    LM head."""
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    c = _take(over, {"batch": 2, "seq": 16, "vocab": 128, "hidden": 64, "heads": 4, "layers": 2})
    dim, heads = c["hidden"], c["heads"]

    class Block(nn.Module):
        def __init__(self, causal):
            super().__init__()
            self.causal = causal
            _transformer_layers(self, dim)

        def forward(self, x):
            q, k, v = (_heads(t, heads) for t in self.qkv(self.ln1(x)).split(dim, dim=-1))
            if self.causal:
                y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
            else:  # a distance penalty: -0.1 |i - j|
                t = x.shape[1]
                i = torch.arange(t, device=x.device, dtype=x.dtype)
                bias = -0.1 * (i[:, None] - i[None, :]).abs()
                y = F.scaled_dot_product_attention(q, k, v, attn_mask=bias, scale=0.3)
            x = x + self.proj(_merge(y))
            return x + self.fc2(F.gelu(self.fc1(self.ln2(x))))

    class Decoder(nn.Module):
        def __init__(self):
            super().__init__()
            self.embed = nn.Embedding(c["vocab"], dim)
            self.blocks = nn.ModuleList([Block(n % 2 == 0) for n in range(c["layers"])])
            self.ln_f = nn.LayerNorm(dim)
            self.head = nn.Linear(dim, c["vocab"], bias=False)

        def forward(self, input_ids):
            x = self.embed(input_ids)
            for b in self.blocks:
                x = b(x)
            return self.head(self.ln_f(x))

    return Built(Decoder(), _lm_inputs(c, c["vocab"], False), loss=_lm_loss, config=c)
