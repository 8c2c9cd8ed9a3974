"""npusim.dynamic_shapes without torch: the fit of sizes as expressions, the grid rule,
guards read back from a ShapeEnv record, and run_bundle(sizes=...) on the committed
dynamic bundle (docs/bundle-format.md, "Dynamic sizes")."""

import json
import os

import pytest

from npusim import dynamic_shapes as d
from npusim.recorder import CaptureError

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MLP_DYNAMIC = os.path.join(REPO, "tests", "data", "bundles", "mlp_dynamic")


def test_bindings_are_the_grid_and_one_off_it():
    b = d.further_bindings({"batch": 2, "seq": 8})
    # 3 x 3 grid of offsets 0..2 less the captured point, then (2 + 3, 8 + 3 + 2).
    assert len(b) == 9
    assert b[0] == {"batch": 2, "seq": 9} and b[-1] == {"batch": 5, "seq": 13}
    assert len(d.monomials(["batch", "seq"])) == 9  # batch^i seq^j, i, j <= 2


def test_fit_attention_scores_and_reject_ceiling():
    names = ["batch", "seq"]
    bs = [{"batch": 2, "seq": 8}] + d.further_bindings({"batch": 2, "seq": 8})
    # Scores of 4 heads: 4 * batch * seq^2 elements, plus an offset of seq - 1.
    vals = [4 * b["batch"] * b["seq"] ** 2 + b["seq"] - 1 for b in bs]
    assert d.poly_text(d.fit_polynomial(vals, bs, names)) == "-1 + seq + 4*batch*seq*seq"
    # ceil(seq / 4) is no polynomial: the binding off the grid (seq 13) refutes any fit.
    assert d.fit_polynomial([-(-b["seq"] // 4) for b in bs], bs, names) is None


def _launch_skeleton(batch, xblock):
    xnumel = 64 * batch
    return {"storages": [{"id": 0, "dtype": "fp32", "elements": xnumel}], "inputs": [],
            "steps": [{"kind": "launch", "kernel": "k", "grid": [-(-xnumel // xblock), 1, 1],
                       "constexprs": {"XBLOCK": xblock}, "args": [{"value": xnumel}]}],
            "outputs": []}


def test_symbolize_grid_follows_numel_with_each_bindings_block():
    bs = [{"batch": 8}] + d.further_bindings({"batch": 8})
    # The launcher chose XBLOCK 256 at batch 10 and 128 elsewhere; the grid is
    # cdiv(64 batch, XBLOCK) at each, and the captured XBLOCK is kept.
    blocks = [128, 128, 256, 128]
    sk = [_launch_skeleton(b["batch"], x) for b, x in zip(bs, blocks)]
    graph = json.loads(json.dumps(sk[0]))
    n = d.symbolize(graph, sk, bs, lambda step, j: "xnumel")
    assert n == 3
    assert graph["storages"][0]["elements"] == {"sym": "64*batch"}
    assert graph["steps"][0]["args"][0]["value"] == {"sym": "64*batch"}
    assert graph["steps"][0]["grid"][0] == {"sym": "cdiv(64*batch, 128)"}
    assert graph["steps"][0]["constexprs"] == {"XBLOCK": 128}


def test_symbolize_fails_naming_a_value_it_cannot_express():
    bs = [{"batch": 8}] + d.further_bindings({"batch": 8})
    sk = [_launch_skeleton(b["batch"], 128) for b in bs]
    for s, b in zip(sk, bs):
        s["storages"][0]["elements"] = 2 ** b["batch"]
    with pytest.raises(CaptureError, match=r"storages\[0\]\.elements: \[256, 512, 1024, 2048\]"):
        d.symbolize(json.loads(json.dumps(sk[0])), sk, bs)


def test_guards_from_a_shape_env_record():
    # As the H200's ShapeEnv of the MLP recorded them (model.dynamic.shape_env).
    env = {"val": {"s33": 8, "s50": 32},
           "rng": {"s33": ["2", "int_oo"], "s50": ["32", "32"]},
           "guards": [["Equality(Symbol('s50', positive=True, integer=True), Integer(32))", "Eq(s50, 32)"],
                      ["LessThan(Mul(Integer(64), Symbol('s33', positive=True, integer=True)), "
                       "Integer(2147483647))", "64*s33 <= 2147483647"],
                      ["Equality(FloorDiv(Symbol('s33', positive=True, integer=True), Integer(2)), "
                       "Integer(4))", "Eq((s33//2), 4)"],
                      ["Equality(Foo(Symbol('s33', positive=True, integer=True)), Integer(1))", "Eq(Foo(s33), 1)"]]}
    symbols, guards = d.symbols_and_guards(env, {"batch": 8})
    assert symbols == [{"name": "batch", "value": 8, "min": 2, "max": None, "inductor": "s33"}]
    assert guards[0] == {"expr": "32 == 32", "checked": True}
    assert guards[1] == {"expr": "(64*batch) <= 2147483647", "checked": True}
    assert guards[2] == {"expr": "(batch // 2) == 4", "checked": True}
    assert guards[3]["checked"] is False and guards[3]["expr"] == "Eq(Foo(s33), 1)"


def test_guards_hold_other_free_symbols_at_their_captured_value():
    # As a Llama decode step's ShapeEnv recorded them: Dynamo made the cache's batch (s59) and
    # heads (s21, a symbol without the positive assumption) dynamic too, but every binding
    # held them at one value, so they are constants of a bundle whose one size is past (s31).
    env = {"val": {"s31": 100, "s59": 32, "s21": 8},
           "rng": {"s31": ["2", "int_oo"], "s59": ["32", "2147483647"], "s21": ["2", "int_oo"]},
           "guards": [["StrictGreaterThan(Symbol('s59', positive=True, integer=True), Integer(31))",
                       "s59 > 31"],
                      ["LessThan(Mul(Integer(4), Symbol('s31', positive=True, integer=True), "
                       "Symbol('s59', positive=True, integer=True), Symbol('s21', integer=True)), "
                       "Integer(2147483647))", "4*s31*s59*s21 <= 2147483647"],
                      ["Or(Equality(Symbol('s59', positive=True, integer=True), Integer(1)), "
                       "Equality(Symbol('s21', integer=True), Integer(8)))", "Eq(s59, 1) | Eq(s21, 8)"],
                      ["And(GreaterThan(CleanDiv(Symbol('s31', positive=True, integer=True), Integer(4)), "
                       "Integer(0)), LessThan(Symbol('s31', positive=True, integer=True), Integer(512)))",
                       "(CleanDiv(s31, 4) >= 0) & (s31 <= 512)"]]}
    symbols, guards = d.symbols_and_guards(env, {"past": 100})
    assert [s["inductor"] for s in symbols] == ["s31"]
    assert guards[0] == {"expr": "32 > 31", "checked": True}
    assert guards[1] == {"expr": "(4*8*past*32) <= 2147483647", "checked": True}
    assert guards[2]["checked"] is False  # a disjunction is not in the format's syntax
    # A conjunction is its comparisons, each a guard; an exact division is a floor division.
    assert sorted(guards[3:], key=lambda g: g["expr"]) == [
        {"expr": "(past // 4) >= 0", "checked": True}, {"expr": "past <= 512", "checked": True}]
    # A symbol whose value an input's varying size has (a mask of past + 1 keys: s21 = 101
    # here) varies with past without being it: its guards stay unchecked, not constant.
    env["val"]["s21"] = 101
    _, guards = d.symbols_and_guards(env, {"past": 100}, varying={100, 101})
    assert guards[0] == {"expr": "32 > 31", "checked": True}
    assert guards[1]["checked"] is False and "s21" in guards[1]["why"]


def test_varying_input_values_are_the_views_integers_that_differ():
    def graph(past):
        return {"inputs": [{"tensor": {"shape": [8, past, 128], "stride": [128 * past, 128, 1],
                                       "offset": 0}},
                           {"tensor": {"shape": [past + 1], "stride": [1], "offset": 64}}]}
    assert d.varying_input_values([graph(100), graph(101), graph(102)]) == {100, 12800, 101}


def test_parse_sizes_errors():
    assert d.parse_sizes("batch=8, seq=16") == {"batch": 8, "seq": 16}
    with pytest.raises(CaptureError, match="at least 2"):
        d.parse_sizes("batch=1")
    with pytest.raises(CaptureError, match="must differ"):
        d.parse_sizes("batch=8,seq=8")


def test_run_bundle_binds_sizes():
    import npusim

    at3 = npusim.run_bundle(MLP_DYNAMIC, mode="functional", verify=True, sizes={"batch": 3})
    assert at3["result"] == "verified"
    assert at3["sizes"]["symbols"] == {"batch": {"value": 3, "captured": 8}}
    assert at3["sizes"]["at_captured"] is False
    assert at3["totals"]["fingerprints_compared"] == 0
    at9 = npusim.run_bundle(MLP_DYNAMIC, mode="functional", verify=True, sizes={"batch": 9})
    assert at9["result"] == "verified" and at9["sizes"]["recorded"] is True
    assert at9["totals"]["fingerprints_compared"] == 3  # the H200's, recorded at batch 9
    at8 = npusim.run_bundle(MLP_DYNAMIC, mode="functional", verify=True)
    assert at8["sizes"]["at_captured"] is True
    assert at8["totals"]["fingerprints_compared"] == 3
    with pytest.raises(npusim.InputError, match="no size named 'seq'; the bundle's sizes: batch"):
        npusim.run_bundle(MLP_DYNAMIC, mode="functional", sizes={"seq": 4})
    with pytest.raises(npusim.InputError, match="expected a name and an integer"):
        npusim.run_bundle(MLP_DYNAMIC, mode="functional", sizes={"batch": "3"})


def test_one_binding_out_of_range_and_assembly_without_a_shape_env_record(tmp_path, capsys):
    # Four bindings for one size (8, 9, 10 and one off the grid): --binding 4 names them,
    # before any model is built; --assemble without binding 0's env.json names the file.
    with pytest.raises(CaptureError, match=r"--binding 4: the bindings are 0\.\.3"):
        d.capture_dynamic("mlp", str(tmp_path), {"batch": 8}, only=4)
    dirs = d.binding_dirs(str(tmp_path), 4)
    assert dirs[2] == str(tmp_path / "bindings" / "b2")
    assert d.env_path(dirs[0]) == str(tmp_path / "bindings" / "env.json")
    assert d.main(["mlp", str(tmp_path / "out"), "--sizes", "batch=8", "--assemble", *dirs]) == 1
    assert "no ShapeEnv record" in capsys.readouterr().err
