"""Spec parsing and the built-in model builders (CPU; torchvision/transformers where present)."""

import math

import pytest

from npusim import models


def test_spec_parsing():
    assert models.parse_spec("mlp") == ("mlp", {})
    assert models.parse_spec("mlp,dims=784-512-10,batch=8") == ("mlp", {"dims": "784-512-10", "batch": 8})
    assert models.parse_spec("pkg.mod:make,scale=0.5,flag=true") == ("pkg.mod:make", {"scale": 0.5, "flag": True})
    with pytest.raises(ValueError):
        models.parse_spec("mlp,batch")


def test_builtin_models_build():
    pytest.importorskip("torch")
    for spec in ("mlp", "moe", "sliding-window", "mlp,dims=4-4"):
        b = models.build(spec)
        assert b.inputs and b.model is not None
    with pytest.raises(ValueError):
        models.build("mlp,nope=1")
    with pytest.raises(ValueError):
        models.build("no_such_model")


def test_vision_models_build():
    pytest.importorskip("torchvision")
    for spec in ("vit", "resnet18,image=64", "mobilenet_v2,num_classes=10"):
        assert models.build(spec).model is not None


def test_param_init_roles():
    torch = pytest.importorskip("torch")
    m = models.build("moe").model
    roles = {}
    for mname, mod in m.named_modules():
        for pname, p in mod.named_parameters(recurse=False):
            q = f"{mname}.{pname}" if mname else pname
            init, role = models.param_init(q, mod, p)
            roles[q] = (init, role)
    assert roles["ln1.weight"][0] == {"kind": "uniform", "low": 0.5, "high": 1.5}
    assert roles["qkv.bias"][1] == "bias"
    w = roles["qkv.weight"][0]
    assert w["high"] == pytest.approx(1 / 64 ** 0.5) and w["low"] == -w["high"]
    bn = torch.nn.BatchNorm2d(4)
    assert models.buffer_init("bn.running_var", bn.running_var)[0]["low"] == 0.5
    assert models.buffer_init("bn.num_batches_tracked", bn.num_batches_tracked)[0] == {"kind": "constant", "value": 0}


def _inputs(torch, built, gen):
    """Random values for the model inputs of a Built (targets left out)."""
    out = []
    for s in built.inputs:
        if s.target:
            continue
        lo, hi = s.init["low"], s.init["high"]
        if s.dtype == "fp32":
            out.append(lo + (hi - lo) * torch.rand(s.shape, generator=gen))
        else:
            out.append(torch.randint(lo, hi, s.shape, generator=gen))
    return out


@pytest.mark.parametrize("spec,shapes", [
    ("clip", [(2, 2), (2, 2)]), ("mistral-plain", [(1, 32, 512)]), ("deepseek_v3", [(1, 16, 512)]),
    ("unet", [(1, 4, 16, 16)]), ("convnextv2", [(1, 10)]), ("swinv2", [(1, 10)]),
    ("cnn", [(4, 10)]), ("resnet_small", [(4, 10)]), ("lstm_tagger", [(2, 8, 5)]),
    ("branchy", [(4, 10)])])
def test_suite_models_run_eagerly(spec, shapes):
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    b = models.build(spec)
    out = b.model(*_inputs(torch, b, torch.Generator().manual_seed(1)))
    outs = list(out) if isinstance(out, tuple) else [out]
    assert [tuple(o.shape) for o in outs] == shapes
    assert all(bool(torch.isfinite(o).all()) for o in outs)
    for mname, m in b.model.named_modules():  # no table the generator would overwrite
        if not isinstance(m, torch.nn.BatchNorm2d):
            assert not list(m.named_buffers(recurse=False)), mname


def test_clip_logits_are_scaled_cosines():
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    b = models.build("clip,batch=3")
    with torch.no_grad():
        b.model.logit_scale.fill_(math.log(2.0))
        per_image, per_text = b.model(*_inputs(torch, b, torch.Generator().manual_seed(2)))
    assert torch.equal(per_text, per_image.t())
    # Cosines of unit vectors scaled by exp(log 2) = 2: within [-2, 2], not all equal.
    assert float(per_image.abs().max()) <= 2.0 + 1e-6
    assert float(per_image.std()) > 0


def test_mistral_sliding_window_limits_the_receptive_field():
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    b = models.build("mistral-plain,layers=1,window=4,seq=12")
    (ids,) = _inputs(torch, b, torch.Generator().manual_seed(3))
    other = ids.clone()
    other[0, 0] = (ids[0, 0] + 1) % 512
    with torch.no_grad():
        d = (b.model(ids) - b.model(other)).abs().amax(dim=-1)[0]
    # One layer, window 4: token 0 is seen by queries 0..3 only.
    assert bool((d[:4] > 0).all()) and float(d[4:].max()) == 0.0


def test_deepseek_routing_picks_top_k_in_top_groups():
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    b = models.build("deepseek_v3,experts=8,groups=4,topk_group=2,top_k=3,scaling=2.5")
    moe = b.model.layers[1].mlp
    h = torch.randn(20, 64, generator=torch.Generator().manual_seed(4))
    with torch.no_grad():
        gates = moe.route(h)
        scores = torch.sigmoid(moe.router(h))
    nz = gates != 0
    assert nz.sum(dim=1).tolist() == [3] * 20
    assert torch.allclose(gates.sum(dim=1), torch.full((20,), 2.5))
    for t in range(20):  # by hand: the two groups of two experts with the best pair sums
        pair = scores[t].view(4, 2).sum(dim=1)
        allowed = set()
        for g in pair.topk(2).indices.tolist():
            allowed |= {2 * g, 2 * g + 1}
        chosen = set(nz[t].nonzero().flatten().tolist())
        assert chosen <= allowed
        best = sorted(allowed, key=lambda e: -float(scores[t, e]))[:3]
        assert chosen == set(best)


def test_swin_relative_tables_by_hand():
    torch = pytest.importorskip("torch")
    table, index = models.swin_relative_tables(2)
    # Offsets (-1..1)^2 scaled to +-8: sign * log2(9) / 3, and 0 for a zero offset.
    v = math.log2(9) / 3
    assert table.shape == (9, 2)
    assert torch.allclose(table[0], torch.tensor([-v, -v])) and torch.equal(table[4], torch.zeros(2))
    # Positions (0,0),(0,1),(1,0),(1,1); the offset p - q + 1 in rows of 3.
    assert index.tolist() == [[4, 3, 1, 0], [5, 4, 2, 1], [7, 6, 4, 3], [8, 7, 5, 4]]
    mask = models.swin_shift_mask(4, 4, 2, 1)
    # 4 windows; the first window lies in one region, the last in four.
    assert mask.shape == (4, 4, 4)
    assert float(mask[0].abs().max()) == 0.0
    assert int((mask[3] == 0).sum()) == 4


def test_convnextv2_grn_closed_form():
    torch = pytest.importorskip("torch")
    b = models.build("convnextv2")
    grn = b.model.stages[0][0].grn
    with torch.no_grad():
        grn.gamma.fill_(0.5)
        grn.beta.fill_(0.25)
        x = torch.full((1, 3, 3, grn.gamma.shape[-1]), 2.0)
        # Every channel has the same L2 norm (6), so N(x) = 6 / (6 + 1e-6) ~ 1.
        y = grn(x)
    assert torch.allclose(y, torch.full_like(x, 0.5 * 2.0 + 0.25 + 2.0), atol=1e-5)


def test_unet_uses_timestep_and_context():
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    b = models.build("unet")
    sample, t, ctx = _inputs(torch, b, torch.Generator().manual_seed(5))
    with torch.no_grad():
        base = b.model(sample, t, ctx)
        assert float((b.model(sample, t + 1, ctx) - base).abs().max()) > 0
        assert float((b.model(sample, t, ctx * 0.5) - base).abs().max()) > 0


def test_resnet_small_keeps_four_values_per_channel_in_the_last_stage():
    """Batch 4 at 64x64: the last stage's BatchNorms see 4 x 2 x 2 values per channel
    (stem /2, pool /2, three stride-2 stages: 64 / 32 = 2)."""
    torch = pytest.importorskip("torch")
    b = models.build("resnet_small")
    seen = []
    last = [m for m in b.model.modules() if isinstance(m, torch.nn.BatchNorm2d)][-1]
    last.register_forward_hook(lambda m, i, o: seen.append(tuple(i[0].shape)))
    b.model(*_inputs(torch, b, torch.Generator().manual_seed(3)))
    assert seen == [(4, 128, 2, 2)]


def test_branchy_takes_the_branch_its_data_picks():
    torch = pytest.importorskip("torch")
    import torch.nn.functional as F

    b = models.build("branchy")
    m = b.model
    x = torch.Generator().manual_seed(4)
    (inp,) = _inputs(torch, b, x)
    with torch.no_grad():
        for shift in (5.0, -5.0):  # fc1's bias moves the mean above or below zero
            m.fc1.bias.fill_(shift)
            h = m.fc1(inp)
            want = m.fc2(F.relu(h) if shift > 0 else F.gelu(h) * 2)
            assert torch.allclose(m(inp), want)


def test_operator_workloads_compute_their_definitions():
    """The silicon-validation workloads (npusim.models_operators) against the same
    arithmetic written out here."""
    torch = pytest.importorskip("torch")
    g = torch.Generator().manual_seed(0)
    b = models.build("matmul,m=8,k=5,n=3")
    a, w = torch.rand(8, 5, generator=g), torch.rand(5, 3, generator=g)
    assert torch.allclose(b.model(a, w), torch.einsum("mk,kn->mn", a, w), atol=1e-6)
    x = torch.rand(6, 768, generator=g)
    mean, var = x.mean(-1, keepdim=True), x.var(-1, unbiased=False, keepdim=True)
    assert torch.allclose(models.build("layernorm,rows=6").model(x), (x - mean) / torch.sqrt(var + 1e-5), atol=1e-5)
    x = torch.rand(4, 7, generator=g)
    e = torch.exp(x - x.max(1, keepdim=True).values)
    assert torch.allclose(models.build("softmax,rows=4,cols=7").model(x), e / e.sum(1, keepdim=True), atol=1e-6)
    q, k, v = (torch.rand(1, 2, 5, 4, generator=g) for _ in range(3))
    s = torch.softmax(torch.einsum("bhqd,bhkd->bhqk", q, k) / 2.0, -1)
    assert torch.allclose(models.build("attention,heads=2,seq=5,dim=4").model(q, k, v),
                          torch.einsum("bhqk,bhkd->bhqd", s, v), atol=1e-6)
    conv = models.build("conv,batch=2,cin=3,cout=4,size=6,stride=2,channels_last=true")
    assert conv.channels_last and conv.model.stride == (2, 2) and conv.model.padding == (1, 1)
    enc = models.build("encoder,width=32,heads=4,seq=5")
    assert enc.model(torch.rand(1, 5, 32, generator=g)).shape == (1, 5, 32)
    # The experiment's forms: unbatched, the probabilities kept, ReLU and one LayerNorm.
    q, k, v = (torch.rand(2, 5, 4, generator=g) for _ in range(3))
    s = torch.softmax(torch.einsum("hqd,hkd->hqk", q, k) / 2.0, -1)
    out, probs = models.build("attention,heads=2,seq=5,dim=4,batch=0,probs=true").model(q, k, v)
    assert torch.allclose(probs, s, atol=1e-6)
    assert torch.allclose(out, torch.einsum("hqk,hkd->hqd", s, v), atol=1e-6)
    enc = models.build("encoder,width=8,heads=2,seq=5,batch=0,activation=relu,shared_norm=true")
    m, x = enc.model, torch.rand(5, 8, generator=g)
    assert m.ln1 is m.ln2 and len(list(m.parameters())) == 14
    with torch.no_grad():
        m.ln1.weight.uniform_(0.5, 1.5)

        def heads(t):
            return t.view(5, 2, 4).transpose(0, 1)

        att = torch.softmax(heads(m.q(x)) @ heads(m.k(x)).transpose(1, 2) / 2.0, -1) @ heads(m.v(x))
        h = m.ln1(x + m.proj(att.transpose(0, 1).reshape(5, 8)))
        assert torch.allclose(m(x), m.ln1(h + m.fc2(torch.clamp(m.fc1(h), min=0))), atol=1e-5)
    with pytest.raises(ValueError):
        models.build("encoder,activation=tanh")
    with pytest.raises(ValueError):
        models.build("matmul,p=3")


def test_llm_decode_steps_continue_the_prefill():
    """llama_prefill and llama_decode are one model: decoding token by token against the
    cache the prefill returned gives the logits a prefill of the whole sequence gives at
    each position, and greedy decoding picks the same tokens."""
    torch = pytest.importorskip("torch")
    small = "layers=2,hidden=32,heads=4,kv_heads=2,intermediate=64,vocab=50,batch=2"
    torch.manual_seed(0)
    prefill = models.build(f"llama_prefill,{small},seq=5").model.eval()
    decode = models.build(f"llama_decode,{small},past=5").model.eval()
    decode.load_state_dict(prefill.state_dict())
    prompt = torch.randint(0, 50, (2, 5), generator=torch.Generator().manual_seed(1))
    with torch.no_grad():
        logits, k, v = prefill(prompt)
        assert k.shape == (2, 2, 2, 5, 8) and v.shape == k.shape
        tokens = prompt
        for _ in range(6):
            step = logits[:, -1].argmax(-1, keepdim=True)
            tokens = torch.cat([tokens, step], dim=1)
            logits, k_new, v_new = decode(step, k, v)
            assert logits.shape == (2, 1, 50) and k_new.shape == (2, 2, 2, 1, 8)
            k, v = torch.cat([k, k_new], dim=3), torch.cat([v, v_new], dim=3)
            whole, _, _ = prefill(tokens)
            assert torch.allclose(logits[:, 0], whole[:, -1], atol=1e-5)
            assert torch.equal(logits[:, 0].argmax(-1), whole[:, -1].argmax(-1))
    with pytest.raises(ValueError):
        models.build("llama_decode,past=0")


def test_llm_paged_decode_reads_the_blocks_its_table_names():
    """llama_decode_paged against a pool whose blocks hold each sequence's cache in a
    shuffled order, with the table naming them, gives llama_decode's logits and new keys
    and values on the contiguous cache; a table naming other blocks does not."""
    torch = pytest.importorskip("torch")
    small = "layers=2,hidden=32,heads=4,kv_heads=2,intermediate=64,vocab=50,batch=2"
    past, block = 11, 4  # three pages per sequence, the last one partly used
    torch.manual_seed(0)
    decode = models.build(f"llama_decode,{small},past={past}").model.eval()
    built = models.build(f"llama_decode_paged,{small},past={past},block={block},pool=8")
    paged = built.model.eval()
    paged.load_state_dict(decode.state_dict())
    assert [i.shape for i in built.inputs][1:] == [(2, 8, 2, 4, 8), (2, 8, 2, 4, 8), (2, 3)]
    g = torch.Generator().manual_seed(2)
    k = torch.rand(2, 2, 2, past, 8, generator=g)
    v = torch.rand(2, 2, 2, past, 8, generator=g)
    table = torch.randperm(8, generator=g)[:6].reshape(2, 3)
    k_pool = torch.rand(2, 8, 2, block, 8, generator=g)  # unused slots hold other values
    v_pool = torch.rand(2, 8, 2, block, 8, generator=g)
    for b in range(2):
        for page in range(3):
            used = min(block, past - page * block)
            k_pool[:, table[b, page], :, :used] = k[:, b, :, page * block:page * block + used]
            v_pool[:, table[b, page], :, :used] = v[:, b, :, page * block:page * block + used]
    token = torch.tensor([[3], [7]])
    with torch.no_grad():
        want = decode(token, k, v)
        got = paged(token, k_pool, v_pool, table)
        for w, o in zip(want, got):
            assert torch.equal(w, o)
        other = paged(token, k_pool, v_pool, table.flip(1))
        assert not torch.allclose(other[0], want[0])


def test_llm_dtype_makes_the_model_as_served():
    """dtype=bf16 holds parameters, activations and cache in bf16: the decode step's
    outputs are bf16, and within bf16's rounding of the fp32 model with the same weights
    (a 2-layer model of outputs near 1: about a hundred roundings of 2^-9 relative each
    bound the difference by 0.2; measured about 0.02), yet not equal to them."""
    torch = pytest.importorskip("torch")
    small = "layers=2,hidden=32,heads=4,kv_heads=2,intermediate=64,vocab=50,past=5"
    torch.manual_seed(0)
    fp32 = models.build(f"llama_decode,{small}").model.eval()
    built = models.build(f"llama_decode,{small},dtype=bf16")
    assert [i.dtype for i in built.inputs] == ["i64", "bf16", "bf16"]
    bf16 = built.model.eval()
    bf16.load_state_dict({k: v.to(torch.bfloat16) for k, v in fp32.state_dict().items()})
    assert all(p.dtype == torch.bfloat16 for p in bf16.parameters())
    g = torch.Generator().manual_seed(3)
    k, v = torch.rand(2, 1, 2, 5, 8, generator=g) - 0.5, torch.rand(2, 1, 2, 5, 8, generator=g) - 0.5
    token = torch.tensor([[7]])
    with torch.no_grad():
        want = fp32(token, k, v)
        got = bf16(token, k.bfloat16(), v.bfloat16())
    for w, o in zip(want, got):
        assert o.dtype == torch.bfloat16
        diff = (o.float() - w).abs().max().item()
        assert 0 < diff < 0.2, diff
    with pytest.raises(ValueError, match="dtype"):
        models.build("llama_decode,dtype=int8")
