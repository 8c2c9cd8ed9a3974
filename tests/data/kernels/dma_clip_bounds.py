# Masks that are bounds on single axes (compiled to DMA clip boxes,
# docs/compiler.md "Masks as clip boxes") beside one that is not. x is
# [300, 100]; a grid of ceil(300 / 128) programs of 128 rows; n_ptr holds one
# int32, a bound read from DRAM.
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics


@triton_heuristics.template(
num_stages=1,
num_warps=4,
triton_meta={'signature': {'x_ptr': '*fp32', 'n_ptr': '*i32', 'out_ptr': '*fp32', 'out_t_ptr': '*fp32', 'out_every_ptr': '*fp32'}, 'constants': {}},
inductor_meta={'kernel_name': 'dma_clip_bounds', 'grid_type': 'FixedGrid', 'fixed_grid': ['_grid_0', '_grid_1', '_grid_2'], 'config_args': {}},
)
@triton.jit
def dma_clip_bounds(x_ptr, n_ptr, out_ptr, out_t_ptr, out_every_ptr):
    pid = tl.program_id(0)
    rows = pid * 128 + tl.arange(0, 128)
    cols = tl.arange(0, 128)
    n = tl.load(n_ptr)
    # x < n, x >= n and n >= x: this program's rows below 300, columns 7 to 90.
    inside = (rows < 300)[:, None] & (cols >= 7)[None, :] & (90 >= cols)[None, :]
    x = tl.load(x_ptr + rows[:, None] * 100 + cols[None, :], mask=inside, other=-1.0)
    tl.store(out_ptr + rows[:, None] * 100 + cols[None, :], x, mask=(rows < 300)[:, None] & (cols < 100)[None, :])
    # Transposed (out_t is [100, 300]), bounded by the loaded n and by x <= 99.
    tl.store(out_t_ptr + cols[None, :] * 300 + rows[:, None], x,
             mask=(300 > rows)[:, None] & (n > cols)[None, :] & (cols <= 99)[None, :])
    # Not a bound: every third column is left out, so this load keeps its mask tile.
    every = tl.load(x_ptr + rows[:, None] * 100 + cols[None, :],
                    mask=((cols % 3) != 0)[None, :] & (cols < 100)[None, :] & (rows < 300)[:, None], other=0.0)
    tl.store(out_every_ptr + rows[:, None] * 100 + cols[None, :], every, mask=(rows < 300)[:, None] & (cols < 100)[None, :])
