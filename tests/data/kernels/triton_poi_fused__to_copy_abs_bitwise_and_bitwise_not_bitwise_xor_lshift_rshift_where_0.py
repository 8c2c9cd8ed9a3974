
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 64}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*i64', 'in_ptr2': '*i1', 'out_ptr0': '*i32', 'out_ptr1': '*fp32', 'out_ptr2': '*i8', 'out_ptr3': '*i1', 'out_ptr4': '*fp32', 'out_ptr5': '*i64', 'out_ptr6': '*i64', 'out_ptr7': '*i64', 'out_ptr8': '*i64', 'out_ptr9': '*i64', 'out_ptr10': '*i64', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]], (8,): [['tt.divisibility', 16]], (9,): [['tt.divisibility', 16]], (10,): [['tt.divisibility', 16]], (11,): [['tt.divisibility', 16]], (12,): [['tt.divisibility', 16]], (13,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused__to_copy_abs_bitwise_and_bitwise_not_bitwise_xor_lshift_rshift_where_0', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 3, 'num_store': 11, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 3000}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused__to_copy_abs_bitwise_and_bitwise_not_bitwise_xor_lshift_rshift_where_0(in_ptr0, in_ptr1, in_ptr2, out_ptr0, out_ptr1, out_ptr2, out_ptr3, out_ptr4, out_ptr5, out_ptr6, out_ptr7, out_ptr8, out_ptr9, out_ptr10, xnumel, XBLOCK : tl.constexpr):
    xnumel = 40
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0), xmask)
    tmp2 = tl.load(in_ptr1 + (x0), xmask)
    tmp6 = tl.load(in_ptr2 + (x0), xmask).to(tl.int1)
    tmp1 = tmp0.to(tl.int32)
    tmp3 = tmp2.to(tl.float32)
    tmp4 = tmp2.to(tl.int8)
    tmp5 = tmp0.to(tl.int1)
    tmp7 = tl.full([1], -1.0, tl.float32)
    tmp8 = tl.where(tmp6, tmp0, tmp7)
    tmp9 = tl.full([1], 3, tl.int64)
    tmp10 = tmp2 >> tmp9
    tmp11 = tl.full([1], 2, tl.int64)
    tmp12 = tmp2 << tmp11
    tmp13 = ~tmp2
    tmp14 = tl.full([1], 255, tl.int64)
    tmp15 = tmp2 & tmp14
    tmp16 = tl.full([1], -7, tl.int64)
    tmp17 = tmp2 ^ tmp16
    tmp18 = tl_math.abs(tmp2)
    tl.store(out_ptr0 + (x0), tmp1, xmask)
    tl.store(out_ptr1 + (x0), tmp3, xmask)
    tl.store(out_ptr2 + (x0), tmp4, xmask)
    tl.store(out_ptr3 + (x0), tmp5, xmask)
    tl.store(out_ptr4 + (x0), tmp8, xmask)
    tl.store(out_ptr5 + (x0), tmp10, xmask)
    tl.store(out_ptr6 + (x0), tmp12, xmask)
    tl.store(out_ptr7 + (x0), tmp13, xmask)
    tl.store(out_ptr8 + (x0), tmp15, xmask)
    tl.store(out_ptr9 + (x0), tmp17, xmask)
    tl.store(out_ptr10 + (x0), tmp18, xmask)
