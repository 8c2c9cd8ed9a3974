// aten.embedding on the NPU: each program gathers a block of indices' rows of
// the weight, a block of columns at a time (an indirect load per row, the
// indices' values as addresses). An index out of range fails the kernel's
// device assertion, as Inductor's own gathers do. Index or output views whose
// leading axes do not merge into one axis run on the host.
//
// aten.embedding_dense_backward without atomics: each program owns a block of
// weight rows and, per block of indices, adds the one-hot [rows, indices]
// matrix of their matches (padding_idx matching nothing) times the indices'
// gradient rows, as a dot. scale_grad_by_freq runs on the host.
#include "library/planners.h"

#include <optional>

namespace npusim::library::detail {

namespace {

constexpr std::string_view kEmbeddingOp = "aten.embedding";

// Grid: (cdiv(N, BLOCK_N), 1, 1); N = the number of indices.
constexpr std::string_view kEmbeddingSource = R"TRITON(
import triton
import triton.language as tl


@triton.jit
def {{NAME}}(w_ptr: "*{{W}}", idx_ptr: "*{{I}}", out_ptr: "*{{OUT}}",
             N: tl.constexpr, ROWS: tl.constexpr, D: tl.constexpr, SW0: tl.constexpr, SW1: tl.constexpr,
             SI: tl.constexpr, SO0: tl.constexpr, SO1: tl.constexpr,
             BLOCK_N: tl.constexpr, BLOCK_D: tl.constexpr):
    rn = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    nmask = rn < N
    idx = tl.load(idx_ptr + rn * SI, mask=nmask, other=0)
    tl.device_assert(((0 <= idx) & (idx < ROWS)) | ~nmask, "index out of bounds: 0 <= idx < ROWS")
    for d0 in range(0, D, BLOCK_D):
        rd = d0 + tl.arange(0, BLOCK_D)
        m = nmask[:, None] & (rd[None, :] < D)
        x = tl.load(w_ptr + idx[:, None] * SW0 + rd[None, :] * SW1, mask=m, other=0.0)
        tl.store(out_ptr + rn[:, None] * SO0 + rd[None, :] * SO1, x, mask=m)
)TRITON";

constexpr std::string_view kBackwardOp = "aten.embedding_dense_backward";

// Grid: (cdiv(ROWS, BLOCK_R), 1, 1).
constexpr std::string_view kEmbeddingBackwardSource = R"TRITON(
import triton
import triton.language as tl


@triton.jit
def {{NAME}}(g_ptr: "*{{G}}", idx_ptr: "*{{I}}", out_ptr: "*{{OUT}}",
             N: tl.constexpr, ROWS: tl.constexpr, D: tl.constexpr, PAD: tl.constexpr,
             SG0: tl.constexpr, SG1: tl.constexpr, SI: tl.constexpr, SO0: tl.constexpr, SO1: tl.constexpr,
             BLOCK_R: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_D: tl.constexpr):
    rr = tl.program_id(0) * BLOCK_R + tl.arange(0, BLOCK_R)
    for d0 in range(0, D, BLOCK_D):
        rd = d0 + tl.arange(0, BLOCK_D)
        acc = tl.zeros([BLOCK_R, BLOCK_D], dtype=tl.float32)
        for n0 in range(0, N, BLOCK_N):
            rn = n0 + tl.arange(0, BLOCK_N)
            idx = tl.load(idx_ptr + rn * SI, mask=rn < N, other=-1)
            g = tl.load(g_ptr + rn[:, None] * SG0 + rd[None, :] * SG1,
                        mask=(rn[:, None] < N) & (rd[None, :] < D), other=0.0).to(tl.float32)
            hit = (rr[:, None] == idx[None, :]) & (idx[None, :] != PAD)
            acc += tl.dot(hit.to(tl.float32), g, allow_tf32=False)
        tl.store(out_ptr + rr[:, None] * SO0 + rd[None, :] * SO1, acc,
                 mask=(rr[:, None] < ROWS) & (rd[None, :] < D))
)TRITON";

/// The stride of the first `count` axes of `t` seen as one row-major axis (size
/// 1 axes dropped), or none when they do not merge.
std::optional<int64_t> mergedStride(const TensorRef &t, size_t count) {
  std::optional<int64_t> stride;
  int64_t inner = 0; // the size merged so far, from the innermost axis out
  for (size_t i = count; i-- > 0;) {
    if (t.shape[i] == 1)
      continue;
    if (!stride) {
      stride = t.stride[i];
      inner = t.shape[i];
    } else if (t.stride[i] == *stride * inner) {
      inner *= t.shape[i];
    } else {
      return std::nullopt;
    }
  }
  return stride.value_or(1);
}

} // namespace

CallPlan planEmbedding(const CallArgs &call, const MachineShape &machine) {
  const TensorRef &weight = call.tensor(0, "weight");
  const TensorRef &indices = call.tensor(1, "indices");
  const TensorRef &out = call.out(0);
  if (weight.shape.size() != 2)
    call.fail(0, "weight",
              "must be 2-d [num_weights, embedding_dim], but has shape " + shapeString(weight.shape));
  if (indices.dtype != core::DType::Int64 && indices.dtype != core::DType::Int32)
    call.fail(1, "indices", "must be int64 or int32");
  expectFloat(kEmbeddingOp, weight, "weight");
  expectFloat(kEmbeddingOp, out, "out");
  if (out.dtype != weight.dtype)
    fail(kEmbeddingOp, "out has another dtype than weight");
  std::vector<int64_t> shape = indices.shape;
  shape.push_back(weight.shape[1]);
  expectShape(kEmbeddingOp, out, shape, "out");
  checkIndexRange(kEmbeddingOp, weight, "weight");
  checkIndexRange(kEmbeddingOp, indices, "indices");
  checkIndexRange(kEmbeddingOp, out, "out");
  checkNoOverlap(kEmbeddingOp, out, weight, "weight", false);
  checkNoOverlap(kEmbeddingOp, out, indices, "indices", false);
  const int64_t n = numel(indices), rows = weight.shape[0], d = weight.shape[1];
  if (n == 0 || d == 0)
    fail(kEmbeddingOp, "an empty embedding runs on the host");
  const std::optional<int64_t> indexStride = mergedStride(indices, indices.shape.size());
  const std::optional<int64_t> outStride = mergedStride(out, indices.shape.size());
  if (!indexStride || !outStride)
    fail(kEmbeddingOp,
         "the NPU kernel takes indices and output rows that merge into one axis (the host runs the rest)");

  const int64_t blockD = blockFor(d, 16, laneBlock(machine));
  // Per block: the indices, their rows' addresses and a [BLOCK_N, BLOCK_D] tile.
  int64_t blockN = blockFor(n, 16, 256);
  while (blockN > 16 && blockN * (blockD * 8 + 32) > tileBudgetBytes(machine))
    blockN /= 2;
  const std::string name = "npusim_embedding_" + tritonType(weight.dtype) + "_" + tritonType(indices.dtype);
  LaunchBuilder launch(name, instantiate(kEmbeddingSource, {{"NAME", name},
                                                            {"W", tritonType(weight.dtype)},
                                                            {"I", tritonType(indices.dtype)},
                                                            {"OUT", tritonType(out.dtype)}}));
  launch.pointer(weight).pointer(indices).pointer(out);
  launch.constant("N", n).constant("ROWS", rows).constant("D", d);
  launch.constant("SW0", weight.stride[0]).constant("SW1", weight.stride[1]).constant("SI", *indexStride);
  launch.constant("SO0", *outStride).constant("SO1", out.stride.back());
  launch.constant("BLOCK_N", blockN).constant("BLOCK_D", blockD);
  launch.grid(ceilDiv(n, blockN), 1, 1);
  CallPlan plan;
  plan.outputDefined.assign(call.numOuts(), true);
  plan.launches.push_back(launch.build());
  return plan;
}

CallPlan planEmbeddingBackward(const CallArgs &call, const MachineShape &machine) {
  const TensorRef &grad = call.tensor(0, "grad_output");
  const TensorRef &indices = call.tensor(1, "indices");
  const int64_t rows = call.integer(2, "num_weights");
  const int64_t padding = call.integer(3, "padding_idx");
  if (call.boolean(4, "scale_grad_by_freq"))
    fail(kBackwardOp, "scale_grad_by_freq runs on the host");
  const TensorRef &out = call.out(0);
  if (indices.dtype != core::DType::Int64 && indices.dtype != core::DType::Int32)
    call.fail(1, "indices", "must be int64 or int32");
  expectFloat(kBackwardOp, grad, "grad_output");
  expectFloat(kBackwardOp, out, "out");
  const int64_t n = numel(indices);
  if (grad.shape.size() != indices.shape.size() + 1 || n == 0 || rows <= 0)
    fail(kBackwardOp, "grad_output " + shapeString(grad.shape) + " and indices " +
                          shapeString(indices.shape) + " run on the host");
  const int64_t d = grad.shape.back();
  expectShape(kBackwardOp, out, std::vector<int64_t>{rows, d}, "out");
  checkIndexRange(kBackwardOp, grad, "grad_output");
  checkIndexRange(kBackwardOp, indices, "indices");
  checkIndexRange(kBackwardOp, out, "out");
  checkNoOverlap(kBackwardOp, out, grad, "grad_output", false);
  checkNoOverlap(kBackwardOp, out, indices, "indices", false);
  const std::optional<int64_t> indexStride = mergedStride(indices, indices.shape.size());
  const std::optional<int64_t> gradStride = mergedStride(grad, indices.shape.size());
  if (!indexStride || !gradStride)
    fail(kBackwardOp, "the NPU kernel takes indices and gradient rows that merge into one axis");

  const int64_t lanes = laneBlock(machine);
  const int64_t blockR = blockFor(rows, 16, lanes), blockD = blockFor(d, 16, lanes);
  int64_t blockN = blockFor(n, 16, 128);
  // The one-hot tile, the gradient tile and the accumulator.
  while (blockN > 16 && (blockR * blockN + blockN * blockD + blockR * blockD) * 4 > tileBudgetBytes(machine))
    blockN /= 2;
  const std::string name =
      "npusim_embedding_backward_" + tritonType(grad.dtype) + "_" + tritonType(indices.dtype);
  LaunchBuilder launch(name, instantiate(kEmbeddingBackwardSource, {{"NAME", name},
                                                                    {"G", tritonType(grad.dtype)},
                                                                    {"I", tritonType(indices.dtype)},
                                                                    {"OUT", tritonType(out.dtype)}}));
  launch.pointer(grad).pointer(indices).pointer(out);
  launch.constant("N", n).constant("ROWS", rows).constant("D", d).constant("PAD", padding);
  launch.constant("SG0", *gradStride).constant("SG1", grad.stride.back()).constant("SI", *indexStride);
  launch.constant("SO0", out.stride[0]).constant("SO1", out.stride[1]);
  launch.constant("BLOCK_R", blockR).constant("BLOCK_N", blockN).constant("BLOCK_D", blockD);
  launch.grid(ceilDiv(rows, blockR), 1, 1);
  CallPlan plan;
  plan.outputDefined.assign(call.numOuts(), true);
  plan.launches.push_back(launch.build());
  return plan;
}

} // namespace npusim::library::detail
