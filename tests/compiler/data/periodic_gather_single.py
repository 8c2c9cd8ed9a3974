# One program instance over 512 elements with per-channel parameters at
# `x % 64` and no program id: the index starts at the immediate 0, so the
# compiler gathers one period (lcm(64, lanes) elements) and replicates it.
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties

@triton_heuristics.pointwise(
    size_hints={'x': 512},
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32'}, 'constants': {}, 'configs': []},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'periodic_gather_single', 'mutated_arg_names': [], 'num_load': 2, 'num_store': 1, 'num_reduction': 0},
    min_elem_per_thread=0
)
@triton.jit
def periodic_gather_single(in_ptr0, in_ptr1, out_ptr0, xnumel):
    xnumel = 512
    xindex = tl.arange(0, 512)
    x0 = xindex % 64
    tmp0 = tl.load(in_ptr0 + xindex)
    tmp1 = tl.load(in_ptr1 + x0)
    tl.store(out_ptr0 + xindex, tmp0 + tmp1)
