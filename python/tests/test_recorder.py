"""Recorder bookkeeping of several graphs (needs torch, not a GPU)."""

import pytest

pytest.importorskip("torch")

from npusim import recorder  # noqa: E402

SRC_A = "@triton.jit\ndef triton_poi_fused_add_0(in_ptr0, xnumel):\n    pass  # 'kernel_name': 'triton_poi_fused_add_0'\n"
SRC_B = "@triton.jit\ndef triton_poi_fused_add_0(in_ptr0, out_ptr0, xnumel):\n    pass\n"


def test_kernel_names_of_two_graphs():
    rec = recorder.Recorder()
    rec.graphs.append({"region": "forward"})
    assert rec.bundle_kernel_name("triton_poi_fused_add_0", SRC_A) == "triton_poi_fused_add_0"
    rec.graphs.append({"region": "backward"})
    # Same name, same source: one file.
    assert rec.bundle_kernel_name("triton_poi_fused_add_0", SRC_A) == "triton_poi_fused_add_0"
    rec.graphs.append({"region": "optimizer"})
    # Same name, another source: renamed after the graph's index, in the source too.
    assert rec.bundle_kernel_name("triton_poi_fused_add_0", SRC_B) == "triton_poi_fused_add_0_g2"
    renamed = rec.kernels["triton_poi_fused_add_0_g2"]
    assert "def triton_poi_fused_add_0_g2(in_ptr0, out_ptr0, xnumel):" in renamed
    assert rec.kernels["triton_poi_fused_add_0"] == SRC_A
    # The same launch again in that graph keeps the name.
    assert rec.bundle_kernel_name("triton_poi_fused_add_0", SRC_B) == "triton_poi_fused_add_0_g2"
    assert len(rec.kernels) == 2
