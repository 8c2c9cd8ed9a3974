"""Bundle schema validation (docs/bundle-format.md) on a hand-made bundle and on the
bundles committed under examples/, and the fingerprint rules. No torch needed."""

import copy
import glob
import json
import os

import pytest

from npusim import bundle

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))

KERNEL = '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics

@triton_heuristics.pointwise(
    size_hints={'x': 256},
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_poi_fused_relu_0', 'mutated_arg_names': []},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_relu_0(in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 200
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    tmp0 = tl.load(in_ptr0 + (xindex), xmask)
    tmp1 = triton_helpers.maximum(0, tmp0)
    tl.store(out_ptr0 + (xindex), tmp1, xmask)
'''


def _fp(values, key=None, idx=0):
    import numpy as np

    fp = bundle.fingerprint(np.asarray(values, dtype=np.float32), "fp32")
    if key:
        fp = {key: idx, **fp}
    return fp


def make_bundle(d):
    import numpy as np

    x = np.linspace(-1, 1, 200, dtype=np.float32)
    y = np.maximum(x, 0)
    t_in = {"storage": 0, "offset": 0, "shape": [10, 20], "stride": [20, 1]}
    t_out = {"storage": 1, "offset": 0, "shape": [10, 20], "stride": [20, 1]}
    t_mm = {"storage": 2, "offset": 0, "shape": [10, 10], "stride": [10, 1]}
    g = {
        "format": "npusim-bundle", "version": 1,
        "model": {"spec": "hand-made", "anything": [1, 2]},
        "seed": 0,
        "storages": [{"id": 0, "dtype": "fp32", "elements": 200},
                     {"id": 1, "dtype": "fp32", "elements": 200},
                     {"id": 2, "dtype": "fp32", "elements": 100}],
        "inputs": [{"name": "x", "tensor": t_in,
                    "init": {"kind": "uniform", "low": -1.0, "high": 1.0, "stream": 0}}],
        "steps": [
            {"kind": "launch", "kernel": "triton_poi_fused_relu_0", "grid": [2, 1, 1],
             "constexprs": {"XBLOCK": 128}, "args": [{"tensor": t_in}, {"tensor": t_out}, {"value": 200}],
             "writes": [1], "fingerprints": [_fp(y, "arg", 1)]},
            {"kind": "call", "op": "aten.mm",
             "args": [{"tensor": t_out},
                      {"tensor": {"storage": 1, "offset": 0, "shape": [20, 10], "stride": [1, 20]}}],
             "out": [{"tensor": t_mm}], "fingerprints": [_fp(np.zeros(100), "out", 0)]},
        ],
        "outputs": [{"name": "output_0", "tensor": t_mm, "reference": "reference/output_0.npy",
                     "fingerprint": _fp(np.zeros(100))}],
    }
    os.makedirs(os.path.join(d, "kernels"))
    os.makedirs(os.path.join(d, "reference"))
    with open(os.path.join(d, "kernels", "triton_poi_fused_relu_0.py"), "w") as f:
        f.write(KERNEL)
    np.save(os.path.join(d, "reference", "output_0.npy"), np.zeros((10, 10), np.float32))
    bundle.write_graph(os.path.join(d, "graph.json"), g)
    return g


def rewrite(d, g):
    bundle.write_graph(os.path.join(d, "graph.json"), g)
    return bundle.validate(d)


def test_hand_made_bundle_validates(tmp_path):
    make_bundle(str(tmp_path))
    assert bundle.validate(str(tmp_path)) == []
    s = bundle.summary(str(tmp_path))
    assert s["launches"] == 1 and s["calls"] == 1 and s["ops"] == {"aten.mm": 1}


def test_graph_json_is_one_line_per_item(tmp_path):
    g = make_bundle(str(tmp_path))
    text = open(os.path.join(str(tmp_path), "graph.json")).read()
    assert json.loads(text) == json.loads(json.dumps(g))
    # braces 2, scalars 4, then each list: header, items, closing line
    assert len(text.splitlines()) == 2 + 4 + (2 + 3) + (2 + 1) + (2 + 2) + (2 + 1)


MUTATIONS = [
    ("unknown top-level key", lambda g: g.__setitem__("extra", 1), "unknown key"),
    ("storage ids not dense", lambda g: g["storages"][1].__setitem__("id", 5), "not dense"),
    ("bad dtype", lambda g: g["storages"][0].__setitem__("dtype", "float"), "dtype"),
    ("view out of bounds", lambda g: g["inputs"][0]["tensor"].__setitem__("offset", 1), "outside storage"),
    ("stride rank", lambda g: g["inputs"][0]["tensor"].__setitem__("stride", [1]), "shape/stride"),
    ("uniform on ints", lambda g: g["storages"][0].__setitem__("dtype", "i64"), "uniform init"),
    ("randint high <= low", lambda g: g["inputs"][0].__setitem__(
        "init", {"kind": "randint", "low": 3, "high": 3, "stream": 0}), "randint"),
    ("arg count", lambda g: g["steps"][0]["args"].pop(), "args for"),
    ("writes a scalar", lambda g: g["steps"][0].__setitem__("writes", [2]), "writes"),
    ("unknown constexpr", lambda g: g["steps"][0]["constexprs"].__setitem__("YBLOCK", 1), "constexpr"),
    ("missing kernel", lambda g: g["steps"][0].__setitem__("kernel", "triton_nope"), "triton_nope"),
    ("launch extra key", lambda g: g["steps"][0].__setitem__("note", ""), "launch keys"),
    ("call out of bounds", lambda g: g["steps"][1]["out"][0]["tensor"].__setitem__("shape", [11, 10]), "outside"),
    ("fingerprint samples", lambda g: g["steps"][0]["fingerprints"][0]["samples"].pop(), "sample indices"),
    ("fingerprint elements", lambda g: g["steps"][1]["fingerprints"][0].__setitem__("elements", 3), "elements"),
    ("missing reference", lambda g: g["outputs"][0].pop("reference"), "no reference"),
    ("reference shape", lambda g: g["outputs"][0]["tensor"].__setitem__("shape", [5, 10]), "shape"),
    ("step kind", lambda g: g["steps"][1].__setitem__("kind", "copy"), "unknown step kind"),
    ("bad op", lambda g: g["steps"][1].__setitem__("op", "mm"), "bad op"),
]


@pytest.mark.parametrize("what,mutate,needle", MUTATIONS, ids=[m[0] for m in MUTATIONS])
def test_invalid_bundles_are_rejected(tmp_path, what, mutate, needle):
    g = make_bundle(str(tmp_path))
    g2 = copy.deepcopy(g)
    mutate(g2)
    errs = rewrite(str(tmp_path), g2)
    assert errs, what
    assert any(needle in e for e in errs), errs


def test_shared_storage_inputs_need_identical_init(tmp_path):
    g = make_bundle(str(tmp_path))
    inp = copy.deepcopy(g["inputs"][0])
    inp["name"] = "x_alias"
    g["inputs"].append(inp)
    assert rewrite(str(tmp_path), g) == []
    g["inputs"][1]["init"] = dict(inp["init"], stream=3)
    assert any("different init" in e for e in rewrite(str(tmp_path), g))


def test_sample_indices():
    assert bundle.sample_indices(0) == []
    assert bundle.sample_indices(1) == [0]
    assert bundle.sample_indices(5) == [0, 1, 2, 3, 4]
    s = bundle.sample_indices(802816)
    assert len(s) == 64 and s[0] == 0 and s[-1] == 802815
    assert s[1] == round(802815 / 63)
    for n in (64, 65, 100, 1000, 12345):
        assert bundle.sample_indices(n) == sorted(set(round(k * (n - 1) / 63) for k in range(64)))


def test_fingerprint_and_match():
    import numpy as np

    a = np.array([1.0, np.nan, np.inf, -2.0, 3.0], dtype=np.float32)
    fp = bundle.fingerprint(a, "fp32")
    assert fp["sum"] == 2.0 and fp["abs_sum"] == 6.0 and fp["nan"] == 1 and fp["inf"] == 1
    j = json.loads(json.dumps(bundle.sanitize(fp)))
    assert j["samples"][1] == [1, "nan"] and j["samples"][2] == [2, "inf"]
    assert bundle.match_fingerprint(fp, j)[0]
    b = a.copy()
    b[3] = -2.0001
    assert bundle.match_fingerprint(bundle.fingerprint(b, "fp32"), j)[0]
    b[3] = -2.01
    assert not bundle.match_fingerprint(bundle.fingerprint(b, "fp32"), j)[0]
    i = bundle.fingerprint(np.array([[1, -2], [3, 4]], dtype=np.int64), "i64")
    assert i["sum"] == 6 and i["abs_sum"] == 10 and i["samples"] == [[0, 1], [1, -2], [2, 3], [3, 4]]
    i2 = dict(i, sum=7)
    assert not bundle.match_fingerprint(i2, i)[0]


def test_kernel_params():
    name, runtime, const = bundle.kernel_params(KERNEL)
    assert name == "triton_poi_fused_relu_0"
    assert runtime == ["in_ptr0", "out_ptr0", "xnumel"] and const == ["XBLOCK"]


EXAMPLES = sorted(os.path.dirname(p) for p in glob.glob(os.path.join(REPO, "examples", "*", "graph.json")))


@pytest.mark.parametrize("bundle_dir", EXAMPLES, ids=[os.path.basename(p) for p in EXAMPLES])
def test_committed_examples_validate(bundle_dir):
    assert bundle.validate(bundle_dir) == []
    size = sum(os.path.getsize(os.path.join(r, f)) for r, _, fs in os.walk(bundle_dir) for f in fs)
    # Small configurations, no weights. A training step's bundle carries the reference
    # values of every updated parameter and a fingerprint per step of the backward too:
    # the largest, mobilenet_v2-train (506 steps; 263 outputs, the loss and every updated
    # parameter and buffer), is 4.9 MB, half of it the samples of its fingerprints.
    assert size < 5 << 20, f"{bundle_dir}: {size} bytes"
    g = bundle.load_graph(bundle_dir)
    kernels = {s["kernel"] for s in g["steps"] if s["kind"] == "launch"}
    # A bundle of library calls alone has no kernels (git keeps no empty folder).
    kernel_dir = os.path.join(bundle_dir, "kernels")
    files = {f[:-3] for f in os.listdir(kernel_dir)} if os.path.isdir(kernel_dir) else set()
    assert kernels == files
