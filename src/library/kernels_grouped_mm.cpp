// aten._grouped_mm (2-D x 3-D, and 3-D x 3-D as a batched GEMM) and
// transformers.grouped_mm_fallback: the MoE experts' products. Row group g is
// rows offs[g-1] .. offs[g] of self times mat2[g]; offs is data, so each
// program reads its group's bounds and masks its rows by them: a loop of
// GEMMs over the groups, one grid axis per group. A program whose row block
// holds no row of its group does nothing; the last group's programs also
// write the rows past the last offset (0, as the host call).
#include "library/planners.h"

#include <algorithm>

namespace npusim::library::detail {

namespace {

// Grid: (cdiv(M, BLOCK_M), cdiv(N, BLOCK_N), G).
constexpr std::string_view kGroupedSource = R"TRITON(
import triton
import triton.language as tl


@triton.jit
def {{NAME}}(a_ptr: "*{{A}}", b_ptr: "*{{B}}", offs_ptr: "*{{OFFS}}", c_ptr: "*{{C}}",
             M: tl.constexpr, N: tl.constexpr, K: tl.constexpr, G: tl.constexpr,
             STRIDE_AM: tl.constexpr, STRIDE_AK: tl.constexpr,
             STRIDE_BG: tl.constexpr, STRIDE_BK: tl.constexpr, STRIDE_BN: tl.constexpr,
             STRIDE_OFFS: tl.constexpr, STRIDE_CM: tl.constexpr, STRIDE_CN: tl.constexpr,
             B_K_CONTIGUOUS: tl.constexpr,
             BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    g = tl.program_id(2)
    end = tl.load(offs_ptr + g * STRIDE_OFFS).to(tl.int32)
    start = end * 0
    if g > 0:
        start = tl.load(offs_ptr + (g - 1) * STRIDE_OFFS).to(tl.int32)
    # The last group also owns the rows past its end (they are 0).
    is_last = (g == G - 1).to(tl.int32)
    store_end = end + (M - end) * is_last
    first = pid_m * BLOCK_M
    if (first < store_end) & (first + BLOCK_M > start):
        rm = first + tl.arange(0, BLOCK_M)
        rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
        rk = tl.arange(0, BLOCK_K)
        in_group = (rm >= start) & (rm < end)
        n_mask = rn < N
        b_base = b_ptr + g * STRIDE_BG
        acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
        for k0 in range(0, K, BLOCK_K):
            ka = k0 + rk
            a = tl.load(a_ptr + rm[:, None] * STRIDE_AM + ka[None, :] * STRIDE_AK,
                        mask=in_group[:, None] & (ka[None, :] < K), other=0.0){{CAST}}
            if B_K_CONTIGUOUS:
                b = tl.trans(tl.load(b_base + rn[:, None] * STRIDE_BN + ka[None, :] * STRIDE_BK,
                             mask=n_mask[:, None] & (ka[None, :] < K), other=0.0)){{CAST}}
            else:
                b = tl.load(b_base + ka[:, None] * STRIDE_BK + rn[None, :] * STRIDE_BN,
                            mask=(ka[:, None] < K) & n_mask[None, :], other=0.0){{CAST}}
            acc += tl.dot(a, b, allow_tf32=False)
        c_mask = ((rm >= start) & (rm < store_end) & (rm < M))[:, None] & n_mask[None, :]
        tl.store(c_ptr + rm[:, None] * STRIDE_CM + rn[None, :] * STRIDE_CN, acc, mask=c_mask)
)TRITON";

} // namespace

CallPlan planGroupedMm(const CallArgs &call, const MachineShape &machine) {
  const std::string op(call.op());
  const auto operands = core::groupedMmOperands(call);
  const char *aName = operands.aName, *bName = operands.bName;
  const TensorRef &a = operands.a, &b = operands.b, &c = operands.out;
  const TensorRef *offs = operands.offs;
  expectFloat(op, a, aName);
  expectFloat(op, b, bName);
  expectFloat(op, c, "out");
  CallPlan plan;
  plan.outputDefined.assign(call.numOuts(), true);
  if (a.shape.size() == 3 && b.shape.size() == 3 && !offs) { // a batched product
    expectRank(op, c, 3, "out");
    if (b.shape[0] != a.shape[0] || b.shape[1] != a.shape[2])
      fail(op, "the operands' shapes " + shapeString(a.shape) + " and " + shapeString(b.shape) +
                   " cannot be multiplied group by group");
    const std::vector<int64_t> outShape = {a.shape[0], a.shape[1], b.shape[2]};
    expectShape(op, c, outShape, "out");
    for (const auto &[t, what] : {std::pair{&a, aName}, std::pair{&b, bName}}) {
      checkIndexRange(op, *t, what);
      checkNoOverlap(op, c, *t, what, false);
    }
    checkIndexRange(op, c, "out");
    if (numel(c) > 0)
      plan.launches.push_back(gemmLaunch(a, b, nullptr, c, 1.0, 0.0, machine));
    return plan;
  }
  if (a.shape.size() != 2 || b.shape.size() != 3 || !offs)
    fail(op, "only the 2-D x 3-D form with offs (and 3-D x 3-D without) has an NPU kernel, got " +
                 shapeString(a.shape) + " x " + shapeString(b.shape));
  expectRank(op, *offs, 1, "offs");
  expectRank(op, c, 2, "out");
  if (offs->dtype != core::DType::Int32 && offs->dtype != core::DType::Int64)
    call.fail(2, "offs", "expected an integer tensor, got " + tritonType(offs->dtype));
  const int64_t m = a.shape[0], k = a.shape[1], groups = b.shape[0], n = b.shape[2];
  if (b.shape[1] != k)
    fail(op, "the contraction sizes of " + shapeString(a.shape) + " and " + shapeString(b.shape) + " differ");
  if (offs->shape[0] != groups)
    call.fail(2, "offs",
              "has " + std::to_string(offs->shape[0]) + " groups, " + bName + " " + std::to_string(groups));
  const std::vector<int64_t> outShape = {m, n};
  expectShape(op, c, outShape, "out");
  for (const auto &[t, what] : {std::pair{&a, aName}, std::pair{&b, bName}, std::pair{offs, "offs"}}) {
    checkIndexRange(op, *t, what);
    checkNoOverlap(op, c, *t, what, false);
  }
  checkIndexRange(op, c, "out");
  if (m == 0 || n == 0 || groups == 0)
    return plan;

  // Tiles: rows of one group (the average group, at least 16), columns and
  // the reduction up to the array width; a [BLOCK_M, BLOCK_K] and a
  // [BLOCK_K, BLOCK_N] operand tile and an fp32 accumulator per program.
  const int64_t lanes = laneBlock(machine);
  const int64_t blockN = blockFor(n, 16, lanes), blockK = blockFor(k, 16, lanes);
  int64_t blockM = blockFor(ceilDiv(m, groups), 16, lanes);
  const int64_t operandBytes = std::max(core::byteSize(a.dtype), core::byteSize(b.dtype));
  while (blockM > 16 && 2 * (blockM * blockK + blockK * blockN) * operandBytes + blockM * blockN * 4 >
                            tileBudgetBytes(machine))
    blockM /= 2;
  const bool sameType = a.dtype == b.dtype;
  const std::string name = "npusim_grouped_mm_" + tritonType(a.dtype) + "_" + tritonType(b.dtype) + "_" +
                           tritonType(offs->dtype) + "_" + tritonType(c.dtype);
  LaunchBuilder launch(name, instantiate(kGroupedSource, {{"NAME", name},
                                                          {"A", tritonType(a.dtype)},
                                                          {"B", tritonType(b.dtype)},
                                                          {"OFFS", tritonType(offs->dtype)},
                                                          {"C", tritonType(c.dtype)},
                                                          {"CAST", sameType ? "" : ".to(tl.float32)"}}));
  launch.pointer(a).pointer(b).pointer(*offs).pointer(c);
  launch.constant("M", m).constant("N", n).constant("K", k).constant("G", groups);
  launch.constant("STRIDE_AM", a.stride[0]).constant("STRIDE_AK", a.stride[1]);
  launch.constant("STRIDE_BG", b.stride[0])
      .constant("STRIDE_BK", b.stride[1])
      .constant("STRIDE_BN", b.stride[2]);
  launch.constant("STRIDE_OFFS", offs->stride[0])
      .constant("STRIDE_CM", c.stride[0])
      .constant("STRIDE_CN", c.stride[1]);
  // nn.Linear-style expert weights ([E, N, K] seen through .transpose(-2, -1)) load transposed.
  launch.constant("B_K_CONTIGUOUS", b.stride[1] == 1 && b.stride[2] != 1 && k > 1 ? 1 : 0);
  launch.constant("BLOCK_M", blockM).constant("BLOCK_N", blockN).constant("BLOCK_K", blockK);
  launch.grid(ceilDiv(m, blockM), ceilDiv(n, blockN), groups);
  plan.launches.push_back(launch.build());
  return plan;
}

} // namespace npusim::library::detail
