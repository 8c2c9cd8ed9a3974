# A flat pointwise kernel whose loads index a strided box with Inductor's `//`
# and `%` arithmetic: x0 = x % 128, x1 = (x // 128) % 4, x2 = x // 512 read
# in_ptr0 + x0 + 256 x1 + 2048 x2 (a [4, 4, 128] box of a [.., 8, 256] input,
# as a 2x2 max pool reads its rows), the second load shifted by 128 with a mask
# that is not a box (x1 < 3). With a block a multiple of 512 both loads are
# strided DMAs over [B / 512, 4, 128] (docs/compiler.md "DMA forms").
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties

@triton_heuristics.pointwise(
    size_hints={'x': 8192},
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'box_access', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'num_load': 2, 'num_store': 1, 'num_reduction': 0},
    min_elem_per_thread=0
)
@triton.jit
def box_access(in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 8192
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x0 = (xindex % 128)
    x1 = ((xindex // 128) % 4)
    x2 = xindex // 512
    x3 = xindex
    tmp0 = tl.load(in_ptr0 + (x0 + 256*x1 + 2048*x2), None)
    tmp1 = x1 < 3
    tmp2 = tl.load(in_ptr0 + (128 + x0 + 256*x1 + 2048*x2), tmp1, other=float("-inf"))
    tmp3 = triton_helpers.maximum(tmp0, tmp2)
    tl.store(out_ptr0 + (x3), tmp3, None)
