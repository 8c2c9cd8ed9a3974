"""Spec parsing and the built-in model builders (CPU; torchvision/transformers where present)."""

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
