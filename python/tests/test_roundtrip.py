"""Round trip on a GPU: capture a tiny model into a bundle, validate it, and replay the
bundle from its files alone (inputs regenerated, every step's fingerprints and the
reference outputs checked). Skipped where torch or CUDA is missing."""

import json
import os
import subprocess
import sys

import pytest

from npusim import bundle

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")

PYDIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(args, timeout=400):
    env = dict(os.environ, PYTHONPATH=PYDIR, PYTHONUNBUFFERED="1")
    p = subprocess.run([sys.executable, "-m"] + args, env=env, capture_output=True, text=True,
                       timeout=timeout)
    return p.returncode, p.stdout + p.stderr


@pytest.mark.parametrize("spec,flags", [("mlp,dims=32-16-4,batch=4", []),
                                        ("mlp,dims=24-8-3,batch=5", ["--train"]),
                                        ("mlp,dims=24-8-3,batch=5", ["--train", "--optimizer=adamw"]),
                                        ("mlp,dims=24-8-3,batch=5", ["--train", "--trace=make_fx"])],
                         ids=["mlp", "mlp-train", "mlp-train-adamw", "mlp-train-make_fx"])
def test_capture_validate_replay(tmp_path, spec, flags):
    out = str(tmp_path / "bundle")
    rc, log = run(["npusim.capture", spec, out, "--debug-dir", str(tmp_path / "debug")] + flags)
    assert rc == 0, log
    assert bundle.validate(out) == []
    g = bundle.load_graph(out)
    s = bundle.summary(out)
    assert s["launches"] >= 1
    assert g["model"]["train"] == bool(flags)
    assert g["model"]["regenerated_inputs_checked"] == len(g["inputs"])
    names = [i["name"] for i in g["inputs"]]
    assert "x" in names and "0.weight" in names
    if flags:
        assert [o["name"] for o in g["outputs"]][0] == "loss"
        assert any(o["name"] == "updated.0.weight" for o in g["outputs"])
        assert "labels" in names
    if flags and "--trace=make_fx" not in flags:
        # forward, backward and optimizer graphs, in that order
        assert [x["region"] for x in g["model"]["graphs"]] == ["forward", "backward", "optimizer"]
    rc, log = run(["npusim.replay", out])
    assert rc == 0, log
    r = json.loads(log.strip().splitlines()[-1])
    assert r["ok"], r
