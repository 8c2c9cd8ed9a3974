"""Greedy decoding on the NPU: the committed 2-layer Llama's prefill bundle over a prompt,
then 16 steps of its decode bundle, each graph bound to that step's sizes
(npusim.bind_sizes, run_graph(sizes=...)) and run by npusim in full mode on storages the test fills (the
cache the earlier steps returned), pick the tokens eager PyTorch picks for the same
weights. Needs the extension and torch (any version: the eager model runs on the CPU)."""

import json
import os

import numpy as np
import pytest

import npusim
from graph_arrays import generated_storages, view

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PREFILL = os.path.join(REPO, "tests", "data", "bundles", "llama_prefill")
DECODE = os.path.join(REPO, "tests", "data", "bundles", "llama_decode")
PROMPT_TOKENS = 12
DECODE_STEPS = 16


def graph_of(bundle):
    with open(os.path.join(bundle, "graph.json")) as f:
        return json.load(f)


def named(graph, name):
    return next(i["tensor"] for i in graph["inputs"] if i["name"] == name)


def run_npu(bundle, sizes, inputs):
    """One step on the NPU: the bundle's graph at `sizes`, its named inputs replaced by
    `inputs`; returns its outputs as arrays."""
    graph = npusim.bind_sizes(graph_of(bundle), sizes)
    storages = generated_storages(graph)
    for name, value in inputs.items():
        target = view(storages, named(graph, name))
        assert target.shape == value.shape, name
        target[...] = value
    report = npusim.run_graph(graph_of(bundle), storages, kernels_dir=bundle, mode="full", sizes=sizes)
    assert report["totals"]["cycles"] > 0
    return [view(storages, o["tensor"]).copy() for o in graph["outputs"]]


def eager_model(torch):
    """The decoder both bundles were captured from, with the bundles' generated weights."""
    from npusim.models_llm import llm_module

    graph = npusim.bind_sizes(graph_of(DECODE))
    model = llm_module(graph["model"]["config"]).eval()
    storages = generated_storages(graph)
    state = {name: torch.from_numpy(view(storages, named(graph, name)).copy())
             for name in model.state_dict()}
    model.load_state_dict(state, strict=True)
    return model


def test_the_prefill_and_decode_bundles_hold_the_same_weights():
    """A server runs both graphs as one model: every parameter is generated alike."""
    prefill = npusim.bind_sizes(graph_of(PREFILL))
    decode = npusim.bind_sizes(graph_of(DECODE))
    p, d = generated_storages(prefill), generated_storages(decode)
    weights = [i["name"] for i in decode["inputs"] if i["name"] not in ("input_ids", "k_cache", "v_cache")]
    assert len(weights) == 2 * 9 + 3
    for name in weights:
        np.testing.assert_array_equal(view(p, named(prefill, name)), view(d, named(decode, name)), err_msg=name)


def test_greedy_tokens_of_a_prompt_and_16_decode_steps_match_eager_pytorch():
    torch = pytest.importorskip("torch")
    model = eager_model(torch)
    vocab = model.lm_head.out_features
    prompt = np.random.default_rng(7).integers(0, vocab, (1, PROMPT_TOKENS)).astype(np.int64)

    logits, keys, values = run_npu(PREFILL, {"seq": PROMPT_TOKENS}, {"input_ids": prompt})
    with torch.no_grad():
        eager_logits, eager_keys, eager_values = model(torch.from_numpy(prompt))
    np.testing.assert_allclose(logits, eager_logits.numpy(), rtol=0, atol=1e-4)

    npu_tokens, eager_tokens, margins = [], [], []
    for _ in range(DECODE_STEPS):
        npu_tokens.append(int(logits[0, -1].argmax()))
        eager_tokens.append(int(eager_logits[0, -1].argmax()))
        top2 = np.sort(eager_logits[0, -1].numpy())[-2:]
        margins.append(float(top2[1] - top2[0]))
        # Each side continues from its own token and its own cache: a divergence in any
        # step shows in the tokens that follow.
        step = np.array([[npu_tokens[-1]]], np.int64)
        logits, new_keys, new_values = run_npu(DECODE, {"past": keys.shape[3]},
                                               {"input_ids": step, "k_cache": keys, "v_cache": values})
        keys, values = np.concatenate([keys, new_keys], axis=3), np.concatenate([values, new_values], axis=3)
        with torch.no_grad():
            eager_logits, k, v = model(torch.tensor([[eager_tokens[-1]]]), eager_keys, eager_values)
        eager_keys, eager_values = torch.cat([eager_keys, k], dim=3), torch.cat([eager_values, v], dim=3)
        np.testing.assert_allclose(logits, eager_logits.numpy(), rtol=0, atol=1e-4)

    assert npu_tokens == eager_tokens, f"NPU {npu_tokens}\neager {eager_tokens}\ntop-2 margins {margins}"
    assert keys.shape[3] == PROMPT_TOKENS + DECODE_STEPS
    np.testing.assert_allclose(keys, eager_keys.numpy(), rtol=0, atol=1e-4)
    # The comparison could fail: the tokens are not all one, and no step is a near tie
    # that rounding alone would decide.
    assert len(set(npu_tokens)) > 1
    assert min(margins) > 1e-3, margins


def test_bind_sizes_checks_the_binding():
    graph = graph_of(DECODE)
    bound = npusim.bind_sizes(graph, {"past": 40})
    assert "symbols" not in bound and "guards" not in bound
    assert named(bound, "k_cache")["shape"] == [2, 1, 2, 40, 16]
    assert all("fingerprint" not in o for o in bound["outputs"])  # they hold at the captured sizes only
    with pytest.raises(npusim.InputError, match=r"past"):
        npusim.bind_sizes(graph, {"past": 1})  # below the symbol's range (min 2)
    with pytest.raises(npusim.InputError, match=r"batch"):
        npusim.bind_sizes(graph, {"batch": 4})  # no such size
    with pytest.raises(npusim.InputError, match=r"sizes"):
        npusim.bind_sizes(graph, {"past": "40"})
