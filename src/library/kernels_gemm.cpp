// The GEMM family: aten.mm, addmm, bmm and baddbmm as one batched Triton GEMM
// kernel. tl.dot runs the product on the systolic arrays with fp32
// accumulation (no tf32: PyTorch's reference numerics do not use it); alpha,
// beta and the bias run as a vector-unit epilogue on the accumulator.
#include "core/error.h"
#include "library/dot_steps.h"
#include "library/gemm_pipelined.h"
#include "library/gemm_resident.h"
#include "library/gemm_vector.h"
#include "library/mapping.h"
#include "library/planners.h"

#include <algorithm>
#include <limits>
#include <optional>

namespace npusim::library::detail {

namespace {

// Grid: (cdiv(M, BLOCK_M), cdiv(N, BLOCK_N), batches). Every size and stride is
// a constexpr of the launch, so each address is an affine function of the
// program ids, the aranges and the loop counter.
constexpr std::string_view kGemmSource = R"TRITON(
import triton
import triton.language as tl


@triton.jit
def {{NAME}}({{GEMM_PARAMETERS}}
             HAS_BIAS: tl.constexpr, SCALE_PRODUCT: tl.constexpr, SCALE_BIAS: tl.constexpr,
             A_M_CONTIGUOUS: tl.constexpr, B_K_CONTIGUOUS: tl.constexpr, FULL_TILES: tl.constexpr,
             BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    batch = tl.program_id(2)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    m_mask = rm < M
    n_mask = rn < N
    if not FULL_TILES:
        # A's row bound made in its tile's own shape and layout (a sum with
        # a zero vector is a tile of its own), so that no mask is stretched
        # across the lanes. B's column bound and the store's row bound are
        # affine in one axis each: the DMA clips them (no mask tile, no
        # vector work), and B's is there only where N is ragged.
        a_rows_ok = (rm[:, None] + (rk // BLOCK_K)[None, :]) < M
        c_rows_ok = m_mask[:, None]
        if N % BLOCK_N != 0:
            b_cols_ok = n_mask[:, None]
    a_base = a_ptr + batch * STRIDE_AB
    b_base = b_ptr + batch * STRIDE_BB
{{INIT}}
    # A bias broadcast along M (addmm's [N] self) starts the first
    # accumulator: the epilogue then allocates no bias tile, whose bytes
    # could be those the previous program's store still reads.
    if HAS_BIAS:
        if STRIDE_BIASM == 0:
            if SCALE_PRODUCT == 0:
                bias_row = tl.load(bias_ptr + batch * STRIDE_BIASB + rn * STRIDE_BIASN, mask=n_mask,
                                   other=0.0).to(tl.float32)
                if SCALE_BIAS:
                    bias_row = bias_row * beta
                acc_0 = acc_0 + bias_row[None, :]
    for k0 in range(0, K, {{STEPS}} * BLOCK_K):
{{LOADS}}
{{DOTS}}
{{SUM}}
    # Epilogue on the vector unit.
    if SCALE_PRODUCT:
        acc = acc * alpha
    if FULL_TILES or M % BLOCK_M == 0:
        c_mask = m_mask[:, None] & n_mask[None, :]
    else:
        c_mask = c_rows_ok & n_mask[None, :]
    if HAS_BIAS:
        if STRIDE_BIASM != 0 or SCALE_PRODUCT != 0:
            bias = tl.load(bias_ptr + batch * STRIDE_BIASB + rm[:, None] * STRIDE_BIASM +
                           rn[None, :] * STRIDE_BIASN, mask=c_mask, other=0.0).to(tl.float32)
            if SCALE_BIAS:
                bias = bias * beta
            acc = acc + bias
    tl.store(c_ptr + batch * STRIDE_CB + rm[:, None] * STRIDE_CM + rn[None, :] * STRIDE_CN, acc, mask=c_mask)
)TRITON";

// One K block's operands (suffix S, block k0 + OFFSET * BLOCK_K), each loaded
// with its contiguous axis last (one DMA run per row) and transposed in the
// scratchpad when that axis is not the dot's; unmasked when no tile crosses
// an edge.
constexpr std::string_view kGemmStep = R"TRITON(
        ka{{S}} = k0 + {{OFFSET}} * BLOCK_K + rk
        if A_M_CONTIGUOUS:
            if FULL_TILES:
                a{{S}} = tl.trans(tl.load(a_base + ka{{S}}[:, None] * STRIDE_AK + rm[None, :] * STRIDE_AM)){{A_CAST}}
            else:
                a{{S}} = tl.trans(tl.load(a_base + ka{{S}}[:, None] * STRIDE_AK + rm[None, :] * STRIDE_AM,
                         mask=(ka{{S}}[:, None] < K) & m_mask[None, :], other=0.0)){{A_CAST}}
        else:
            if FULL_TILES:
                a{{S}} = tl.load(a_base + rm[:, None] * STRIDE_AM + ka{{S}}[None, :] * STRIDE_AK){{A_CAST}}
            else:
                a{{S}} = tl.load(a_base + rm[:, None] * STRIDE_AM + ka{{S}}[None, :] * STRIDE_AK,
                         mask=a_rows_ok & (ka{{S}}[None, :] < K), other=0.0){{A_CAST}}
        if B_K_CONTIGUOUS:
            if FULL_TILES:
                b{{S}} = tl.trans(tl.load(b_base + rn[:, None] * STRIDE_BN + ka{{S}}[None, :] * STRIDE_BK)){{B_CAST}}
            elif N % BLOCK_N == 0:
                b{{S}} = tl.trans(tl.load(b_base + rn[:, None] * STRIDE_BN + ka{{S}}[None, :] * STRIDE_BK,
                         mask=ka{{S}}[None, :] < K, other=0.0)){{B_CAST}}
            else:
                b{{S}} = tl.trans(tl.load(b_base + rn[:, None] * STRIDE_BN + ka{{S}}[None, :] * STRIDE_BK,
                         mask=b_cols_ok & (ka{{S}}[None, :] < K), other=0.0)){{B_CAST}}
        else:
            if FULL_TILES:
                b{{S}} = tl.load(b_base + ka{{S}}[:, None] * STRIDE_BK + rn[None, :] * STRIDE_BN){{B_CAST}}
            else:
                b{{S}} = tl.load(b_base + ka{{S}}[:, None] * STRIDE_BK + rn[None, :] * STRIDE_BN,
                         mask=(ka{{S}}[:, None] < K) & n_mask[None, :], other=0.0){{B_CAST}}
)TRITON";

const char *opName(GemmOp op) {
  switch (op) {
  case GemmOp::Mm: return "aten.mm";
  case GemmOp::Addmm: return "aten.addmm";
  case GemmOp::Bmm: return "aten.bmm";
  case GemmOp::Baddbmm: return "aten.baddbmm";
  }
  return "?";
}

} // namespace

KernelLaunch gemmLaunch(const TensorRef &a, const TensorRef &b, const TensorRef *bias, const TensorRef &c,
                        double alpha, double beta, const MachineShape &machine) {
  const int64_t batches = a.shape[0], m = a.shape[1], k = a.shape[2], n = b.shape[2];
  const bool sameOperandType = a.dtype == b.dtype;
  const core::DType dotType = sameOperandType ? a.dtype : core::DType::Float32;
  const bool bKContiguous = b.stride[1] == 1 && b.stride[2] != 1 && k > 1;
  const ConvMapping mapping = chooseMapping(
      GemmProblem{m, n, k, batches, core::byteSize(dotType), false, false, bKContiguous, bias != nullptr},
      machine);
  const core::DType biasType = bias ? bias->dtype : c.dtype;
  const std::string types = tritonType(a.dtype) + "_" + tritonType(b.dtype) + "_" + tritonType(biasType) +
                            "_" + tritonType(c.dtype);
  auto bind = [&](LaunchBuilder &launch) {
    launch.pointer(a).pointer(b).pointer(bias ? *bias : c).pointer(c).floatScalar(alpha).floatScalar(beta);
    launch.constant("M", m).constant("N", n).constant("K", k);
    launch.constant("STRIDE_AB", a.stride[0])
        .constant("STRIDE_AM", a.stride[1])
        .constant("STRIDE_AK", a.stride[2]);
    launch.constant("STRIDE_BB", b.stride[0])
        .constant("STRIDE_BK", b.stride[1])
        .constant("STRIDE_BN", b.stride[2]);
    launch.constant("STRIDE_BIASB", bias ? bias->stride[0] : 0)
        .constant("STRIDE_BIASM", bias ? bias->stride[1] : 0)
        .constant("STRIDE_BIASN", bias ? bias->stride[2] : 0);
    launch.constant("STRIDE_CB", c.stride[0])
        .constant("STRIDE_CM", c.stride[1])
        .constant("STRIDE_CN", c.stride[2]);
  };
  const bool aMContiguous = a.stride[1] == 1 && a.stride[2] != 1 && m > 1;
  // An external mapping for this shape keeps the tiled kernel it describes.
  // Otherwise the kernel asked for (gemmKernel), or by the estimates the
  // resident-B kernel where its estimate beats the tiled one's.
  const bool external =
      machine.mapping.count(std::to_string(m) + "_" + std::to_string(n) + "_" + std::to_string(k)) > 0;
  const std::string &asked = machine.gemmKernel;
  if (!asked.empty() && std::find(gemmKernelNames().begin(), gemmKernelNames().end(), asked) == gemmKernelNames().end())
    throw core::RuntimeError("GEMM kernel '" + asked + "' is not one of " + joinNames(gemmKernelNames()));
  if (external && !asked.empty() && asked != "tiled")
    throw core::RuntimeError("GEMM kernel '" + asked + "': the external mapping names this shape's tiles");
  if (asked == "vector") {
    // Plain products only: alpha, beta and a bias are the tiled kernel's.
    const std::optional<VectorTiles> t =
        bias == nullptr && alpha == 1.0 ? chooseVectorTiles(m, n, k, batches, b.stride, machine) : std::nullopt;
    if (!t)
      throw core::RuntimeError("GEMM kernel 'vector' has no tiles for " + std::to_string(m) + " x " +
                               std::to_string(k) + " x " + std::to_string(n) + " (it takes at most " +
                               std::to_string(kVectorGemmRows) + " rows and no bias or scale)");
    return vectorGemmLaunch(a, b, c, *t);
  }
  std::optional<ResidentTiles> resident;
  std::optional<PipelinedTiles> pipelined;
  if (!external && asked != "tiled") {
    double cheapest = asked.empty() ? mapping.cycles : std::numeric_limits<double>::infinity();
    if (asked.empty() || asked == "resident")
      if (const auto r =
              chooseResidentTiles(m, n, k, core::byteSize(dotType), aMContiguous, bKContiguous, machine);
          r && static_cast<double>(batches) * r->cycles < cheapest) {
        resident = r;
        cheapest = static_cast<double>(batches) * r->cycles;
      }
    // The pipelined kernels (pipelined, deep-k) only when asked for: their
    // estimates and the tiled one's are not comparable enough to choose
    // between them (the runtime times them all, docs/library-kernels.md,
    // "GEMM kernels").
    if (asked == "pipelined" || asked == "deep-k")
      if (const auto p = choosePipelinedTiles(m, n, k, batches, core::byteSize(dotType), aMContiguous,
                                              bKContiguous, bias != nullptr, asked == "deep-k", machine);
          p && p->cycles < cheapest) {
        pipelined = p;
        resident.reset();
      }
    if (!asked.empty() && !resident && !pipelined)
      throw core::RuntimeError("GEMM kernel '" + asked + "' has no tiles for " + std::to_string(m) + " x " +
                               std::to_string(k) + " x " + std::to_string(n) + " on this machine");
  }
  const GemmKernelFlags flags{false, aMContiguous, bKContiguous, false, false, alpha != 1.0, bias != nullptr,
                              beta != 1.0, tritonType(a.dtype), tritonType(b.dtype), tritonType(biasType),
                              tritonType(c.dtype)};
  if (resident) {
    const ResidentTiles &t = *resident;
    GemmKernelFlags kernel = flags;
    kernel.mRagged = m % t.blockM != 0;
    kernel.nRagged = n != t.columnBlocks * t.panels * t.panel;
    kernel.kRagged = k != t.blockK;
    const std::string name =
        "npusim_gemm_resident_" + types + "_" + residentVariant(kernel, t, ceilDiv(m, t.blockM));
    LaunchBuilder launch(name, residentGemmSource(name, kernel, t, ceilDiv(m, t.blockM)));
    bind(launch);
    launch.constant("BLOCK_M", t.blockM).constant("BLOCK_K", t.blockK).constant("PANEL", t.panel);
    launch.grid(1, t.columnBlocks, batches);
    return launch.build();
  }
  if (pipelined) {
    const PipelinedTiles &t = *pipelined;
    GemmKernelFlags kernel = flags;
    kernel.mRagged = m % programRows(t) != 0;
    kernel.nRagged = n % programColumns(t) != 0;
    kernel.kRagged = k % t.blockK != 0;
    const std::string name = "npusim_gemm_pipelined_" + types + "_" + pipelinedVariant(kernel, t, k);
    LaunchBuilder launch(name, pipelinedGemmSource(name, kernel, t, k));
    bind(launch);
    launch.constant("BLOCK_M", t.blockM).constant("BLOCK_N", t.blockN).constant("BLOCK_K", t.blockK);
    launch.grid(ceilDiv(m, programRows(t)), ceilDiv(n, programColumns(t)), batches);
    return launch.build();
  }
  const std::string kernelName = "npusim_gemm_" + tritonType(a.dtype) + "_" + tritonType(b.dtype) + "_" +
                                 tritonType(biasType) + "_" + tritonType(c.dtype) +
                                 (mapping.steps > 1 ? "_k" + std::to_string(mapping.steps) : "");
  const std::string cast = sameOperandType ? "" : ".to(tl.float32)";
  const DotSteps loop =
      dotSteps(kGemmStep, static_cast<int>(mapping.steps), "a", "b", "A_CAST", "B_CAST", cast);
  std::string source = instantiate(kGemmSource, {{"NAME", kernelName},
                                                 {"GEMM_PARAMETERS", instantiate(kGemmParameters,
                                                                                 {{"A", tritonType(a.dtype)},
                                                                                  {"B", tritonType(b.dtype)},
                                                                                  {"BIAS", tritonType(biasType)},
                                                                                  {"C", tritonType(c.dtype)}})},
                                                 {"STEPS", std::to_string(mapping.steps)},
                                                 {"INIT", loop.init},
                                                 {"LOADS", loop.loads},
                                                 {"DOTS", loop.dots},
                                                 {"SUM", loop.sum}});
  LaunchBuilder launch(kernelName, std::move(source));
  bind(launch);
  launch.constant("HAS_BIAS", bias ? 1 : 0)
      .constant("SCALE_PRODUCT", alpha != 1.0 ? 1 : 0)
      .constant("SCALE_BIAS", beta != 1.0 ? 1 : 0);
  // Column-major operands (weights of nn.Linear seen through .t()) load transposed.
  launch.constant("A_M_CONTIGUOUS", aMContiguous ? 1 : 0);
  launch.constant("B_K_CONTIGUOUS", bKContiguous ? 1 : 0);
  // Tiles that never cross an edge load without masks (no mask tiles to build).
  launch.constant("FULL_TILES", m % mapping.blockM == 0 && n % mapping.blockN == 0 &&
                                        k % (mapping.steps * mapping.blockK) == 0
                                    ? 1
                                    : 0);
  launch.constant("BLOCK_M", mapping.blockM)
      .constant("BLOCK_N", mapping.blockN)
      .constant("BLOCK_K", mapping.blockK);
  launch.grid(ceilDiv(m, mapping.blockM), ceilDiv(n, mapping.blockN), batches);
  return launch.build();
}

const std::vector<std::string> &gemmKernelNames() {
  // In the runtime's ranking order: on equal cycles the earlier stands.
  static const std::vector<std::string> kNames = {"tiled", "resident", "pipelined", "deep-k", "vector"};
  return kNames;
}

CallPlan planGemm(const CallArgs &call, GemmOp op, const MachineShape &machine) {
  const std::string_view name = opName(op);
  const bool hasSelf = op == GemmOp::Addmm || op == GemmOp::Baddbmm;
  const bool batched = op == GemmOp::Bmm || op == GemmOp::Baddbmm;
  const size_t first = hasSelf ? 1 : 0;
  const char *aName = hasSelf ? (batched ? "batch1" : "mat1") : "self";
  const char *bName = hasSelf ? (batched ? "batch2" : "mat2") : "mat2";
  TensorRef a = call.tensor(first, aName), b = call.tensor(first + 1, bName);
  TensorRef c = call.out(0);
  const size_t rank = batched ? 3 : 2;
  expectRank(name, a, rank, aName);
  expectRank(name, b, rank, bName);
  expectRank(name, c, rank, "out");
  if (!batched) {
    a = unsqueeze(a, 0);
    b = unsqueeze(b, 0);
    c = unsqueeze(c, 0);
  }
  const int64_t batches = a.shape[0], m = a.shape[1], k = a.shape[2], n = b.shape[2];
  if (b.shape[0] != batches)
    fail(name, "batch sizes differ: " + shapeString(a.shape) + " and " + shapeString(b.shape));
  if (b.shape[1] != k)
    fail(name, "the operands' shapes " + shapeString(a.shape) + " and " + shapeString(b.shape) +
                   " cannot be multiplied (inner sizes " + std::to_string(k) + " and " +
                   std::to_string(b.shape[1]) + " differ)");
  const std::vector<int64_t> outShape = {batches, m, n};
  expectShape(name, c, outShape, "out");
  expectFloat(name, a, aName);
  expectFloat(name, b, bName);
  expectFloat(name, c, "out");

  double beta = 1.0, alpha = 1.0;
  const TensorRef *self = nullptr;
  TensorRef bias;
  if (hasSelf) {
    self = &call.tensor(0, "self");
    beta = call.number(3, "beta");
    alpha = call.number(4, "alpha");
    if (!batched && self->shape.size() > 2)
      fail(name, "self has shape " + shapeString(self->shape) + "; it must broadcast to the product");
    if (beta != 0.0) { // beta == 0 ignores self, NaN included
      expectFloat(name, *self, "self");
      bias = broadcastTo(name, *self, outShape, "self");
    } else {
      self = nullptr;
    }
  }
  checkIndexRange(name, a, aName);
  checkIndexRange(name, b, bName);
  checkIndexRange(name, c, "out");
  checkNoOverlap(name, c, a, aName, false);
  checkNoOverlap(name, c, b, bName, false);
  if (self) {
    checkIndexRange(name, bias, "self");
    checkNoOverlap(name, c, bias, "self", true);
  }

  CallPlan plan;
  plan.outputDefined.assign(call.numOuts(), true);
  if (batches == 0 || m == 0 || n == 0)
    return plan;

  plan.launches.push_back(gemmLaunch(a, b, self ? &bias : nullptr, c, alpha, beta, machine));
  return plan;
}

} // namespace npusim::library::detail
