# Windows of tiles (docs/frontend.md, "Slices"): the shifted-tap pattern of a
# convolution, whose dots read rows t * 2 .. t * 2 + 32 of one loaded
# [64, 128] tile; a window of the lane axis (the first 16 columns) and of
# rows from the end (-32:); a window of an index vector; and the second lane
# group of a [256, 16] tile whose rows (the dot's K) are on the lanes.
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics


@triton_heuristics.template(
num_stages=1,
num_warps=4,
triton_meta={'signature': {'x_ptr': '*fp32', 'w_ptr': '*fp32', 'y_ptr': '*fp32', 'z_ptr': '*fp32', 'v_ptr': '*fp32'}, 'constants': {}},
inductor_meta={'kernel_name': 'slice_windows', 'grid_type': 'FixedGrid', 'fixed_grid': ['_grid_0', '_grid_1', '_grid_2'], 'config_args': {}},
)
@triton.jit
def slice_windows(x_ptr, w_ptr, y_ptr, z_ptr, v_ptr):
    rh = tl.arange(0, 64)
    rc = tl.arange(0, 128)
    x = tl.load(x_ptr + rh[:, None] * 128 + rc[None, :])
    rn = tl.arange(0, 16)
    acc = tl.zeros((32, 16), tl.float32)
    for t in tl.static_range(3):
        w = tl.load(w_ptr + t * 128 * 16 + rc[:, None] * 16 + rn[None, :])
        acc += tl.dot(x[t * 2:t * 2 + 32, :], w)
    rm = rh[16:48] - 16
    tl.store(y_ptr + rm[:, None] * 16 + rn[None, :], acc + x[-32:, :16])
    tl.store(z_ptr + rn, tl.sum(x[5:6, 0:16], axis=0))
    wb = tl.load(w_ptr + tl.arange(0, 256)[:, None] * 16 + rn[None, :])
    tl.store(v_ptr + rm[:, None] * 16 + rn[None, :], tl.dot(x[0:32, :], wb[128:256, :]))
