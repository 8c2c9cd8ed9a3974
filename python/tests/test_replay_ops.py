"""replay.resolve_ops: custom operators are looked up after importing the library
that registers them, and every operator that cannot be run is reported before any
step runs. Runs without torch: the torch.ops tree and the importer are stand-ins."""

import os
import sys
import types

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from npusim import replay  # noqa: E402


class _Namespace:
    """torch.ops.NS: attributes appear when a module "registers" them."""


def _fake_torch():
    ops = types.SimpleNamespace(aten=_Namespace(), transformers=_Namespace())
    ops.aten.mm = types.SimpleNamespace(default="aten.mm.default")
    return types.SimpleNamespace(ops=ops)


def _steps(*ops):
    return [{"kind": "launch"}] + [{"kind": "call", "op": op} for op in ops]


def test_custom_op_is_found_after_importing_its_library():
    torch = _fake_torch()
    imported = []

    def import_module(name):
        imported.append(name)
        if name == "transformers.integrations.moe":  # where the custom op is registered
            torch.ops.transformers.grouped_mm_fallback = types.SimpleNamespace(default="fallback")

    ops = replay.resolve_ops(torch, _steps("aten.mm", "transformers.grouped_mm_fallback"), import_module)
    assert ops == {"aten.mm": "aten.mm.default", "transformers.grouped_mm_fallback": "fallback"}
    assert imported == ["transformers", "transformers.integrations.moe"]


def test_missing_library_is_a_clear_error_naming_steps():
    torch = _fake_torch()

    def import_module(name):
        raise ModuleNotFoundError(f"No module named '{name}'")

    try:
        replay.resolve_ops(torch, _steps("transformers.grouped_mm_fallback", "aten.mm",
                                         "transformers.grouped_mm_fallback"), import_module)
    except RuntimeError as e:
        assert str(e) == ("the bundle calls operators this PyTorch cannot run: "
                          "transformers.grouped_mm_fallback (steps 1, 3): cannot import transformers, "
                          "which registers torch.ops.transformers: ModuleNotFoundError: "
                          "No module named 'transformers'")
    else:
        raise AssertionError("resolve_ops accepted an operator it cannot run")


def test_unregistered_op_names_what_was_imported():
    torch = _fake_torch()
    try:
        replay.resolve_ops(torch, _steps("transformers.gone"), lambda name: None)
    except RuntimeError as e:
        assert str(e).endswith("transformers.gone (step 1): torch.ops has no such operator after importing "
                               "transformers, transformers.integrations.moe")
    else:
        raise AssertionError("resolve_ops accepted an unregistered operator")


def test_unregistered_aten_op_imports_nothing():
    torch = _fake_torch()
    try:
        replay.resolve_ops(torch, _steps("aten.no_such_op"), lambda name: None)
    except RuntimeError as e:
        assert str(e).endswith("aten.no_such_op (step 1): torch.ops has no such operator")
    else:
        raise AssertionError("resolve_ops accepted an unregistered operator")


if __name__ == "__main__":
    for name, f in list(globals().items()):
        if name.startswith("test_"):
            f()
    print("ok")
