# Per-channel parameters of a flat pointwise kernel, indexed `x % C` as Inductor
# writes batch-norm kernels: with a block a multiple of the period, the compiler
# gathers one period and replicates it on chip (docs/compiler.md "DMA forms").
# C = 64 and 256 take that form on 8 and 128 lanes; C = 3 and the strided
# (2 x) % 12 take it only where the block is a multiple of their period
# (24 / 48 on 8 lanes, 384 / 768 on 128 lanes: never for power-of-two blocks).
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties

@triton_heuristics.pointwise(
    size_hints={'x': 4096},
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'in_ptr2': '*fp32', 'in_ptr3': '*fp32', 'in_ptr4': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'periodic_gather', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'num_load': 5, 'num_store': 1, 'num_reduction': 0},
    min_elem_per_thread=0
)
@triton.jit
def periodic_gather(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 4096
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x2 = xindex
    x0 = (xindex % 64)
    x1 = (xindex % 256)
    x3 = (xindex % 3)
    x4 = ((2 * xindex) % 12)
    tmp0 = tl.load(in_ptr0 + (x2), None)
    tmp1 = tl.load(in_ptr1 + (x0), None, eviction_policy='evict_last')
    tmp2 = tl.load(in_ptr2 + (x1), None, eviction_policy='evict_last')
    tmp3 = tl.load(in_ptr3 + (x3), None, eviction_policy='evict_last')
    tmp4 = tl.load(in_ptr4 + (x4), None, eviction_policy='evict_last')
    tmp5 = tmp0 * tmp1 + tmp2 - tmp3 * tmp4
    tl.store(out_ptr0 + (x2), tmp5, None)
