// The vector GEMM (docs/library-kernels.md, "Vector GEMM"). Each program
// owns BLOCK_R of the product's columns (or, rowsAreBatches, BLOCK_R batches
// of one column) for each of A's M rows. Per K block it loads B's tile once
// and, per row, multiplies it by the row's K elements broadcast across the
// tile into an fp32 accumulator of the tile's shape; the sum over K runs
// once, after the loop. Every size and stride is a constexpr, so each load
// is one affine DMA clipped at the edges.
#include "library/gemm_vector.h"

namespace npusim::library::detail {

namespace {

constexpr std::string_view kVectorGemmSource = R"TRITON(
import triton
import triton.language as tl


@triton.jit
def {{NAME}}(a_ptr: "*{{A}}", b_ptr: "*{{B}}", c_ptr: "*{{C}}",
             R: tl.constexpr, K: tl.constexpr,
             A_O: tl.constexpr, A_R: tl.constexpr, A_M: tl.constexpr, A_K: tl.constexpr,
             B_O: tl.constexpr, B_R: tl.constexpr, B_K: tl.constexpr,
             C_O: tl.constexpr, C_R: tl.constexpr, C_M: tl.constexpr,
             BLOCK_R: tl.constexpr, BLOCK_K: tl.constexpr):
    r = tl.program_id(0) * BLOCK_R + tl.arange(0, BLOCK_R)
    other = tl.program_id(1)
    rk = tl.arange(0, BLOCK_K)
    r_ok = r < R
    a_base = a_ptr + other * A_O
    b_base = b_ptr + other * B_O
{{INIT}}
    for k0 in range(0, K, BLOCK_K):
        kk = k0 + rk
        k_ok = kk < K
        b = tl.load(b_base + {{TILE_OFFSETS_B}}, mask={{TILE_MASK}}, other=0.0).to(tl.float32)
{{ROWS}}
{{STORES}}
)TRITON";

/// `r` and `k` placed on the tile's axes: [R, K], or [K, R] when the
/// reduction axis comes first.
std::string tileOffsets(bool reductionFirst, const std::string &rStride, const std::string &kStride) {
  return reductionFirst ? "kk[:, None] * " + kStride + " + r[None, :] * " + rStride
                        : "r[:, None] * " + rStride + " + kk[None, :] * " + kStride;
}

int64_t powerOfTwoAtMost(int64_t v) {
  int64_t p = 1;
  while (p * 2 <= v)
    p *= 2;
  return p;
}

} // namespace

std::optional<VectorTiles> chooseVectorTiles(int64_t m, int64_t n, int64_t k, int64_t batches,
                                             const std::vector<int64_t> &bStride, const MachineShape &machine) {
  if (m < 1 || m > kVectorGemmRows || n < 1 || k < 1 || batches < 1)
    return std::nullopt;
  VectorTiles t;
  // Few columns over many batches: the batches fill the tile's rows.
  t.rowsAreBatches = n < 16 && n * 8 <= batches;
  const int64_t rows = t.rowsAreBatches ? batches : n, others = t.rowsAreBatches ? n : batches;
  const int64_t rStride = t.rowsAreBatches ? bStride[0] : bStride[2];
  constexpr int64_t kMaxGridY = 65535;
  if (others > kMaxGridY)
    return std::nullopt;
  // B's tile is loaded with its contiguous axis last (one DMA run per row).
  t.reductionFirst = rStride == 1 && bStride[1] != 1;
  // Live fp32 tiles of one program: B's tile, its fp32 copy, the product and
  // one accumulator per row, within a quarter of the tile budget.
  const int64_t elements = std::max<int64_t>(
      machine.lanes, powerOfTwoAtMost(tileBudgetBytes(machine) / 4 / (4 * (3 + m))));
  const int64_t lanes = laneBlock(machine);
  t.blockR = std::min(nextPowerOfTwo(rows), std::max<int64_t>(1, elements / std::min(nextPowerOfTwo(k), lanes)));
  t.blockK = std::min(nextPowerOfTwo(k), std::max<int64_t>(1, elements / t.blockR));
  return t;
}

KernelLaunch vectorGemmLaunch(const TensorRef &a, const TensorRef &b, const TensorRef &c, const VectorTiles &t) {
  const int64_t batches = a.shape[0], m = a.shape[1], k = a.shape[2], n = b.shape[2];
  const std::string name = "npusim_gemm_vector_" + tritonType(a.dtype) + "_" + tritonType(b.dtype) + "_" +
                           tritonType(c.dtype) + (t.rowsAreBatches ? "_batches" : "_columns") +
                           (t.reductionFirst ? "_kr" : "_rk") + "_m" + std::to_string(m);
  const std::string tileMask =
      t.reductionFirst ? "k_ok[:, None] & r_ok[None, :]" : "r_ok[:, None] & k_ok[None, :]";
  const std::string shape = t.reductionFirst ? "[BLOCK_K, BLOCK_R]" : "[BLOCK_R, BLOCK_K]";
  std::string init, rows, stores;
  for (int64_t row = 0; row < m; ++row) {
    const std::string i = std::to_string(row);
    init += "    acc_" + i + " = tl.zeros(" + shape + ", tl.float32)\n";
    // A row of one batch broadcasts over the columns; with batches on the
    // tile's rows, A's rows differ per tile row and load as a tile.
    const std::string aLoad =
        t.rowsAreBatches
            ? "tl.load(a_base + " + i + " * A_M + " + tileOffsets(t.reductionFirst, "A_R", "A_K") +
                  ", mask=" + tileMask + ", other=0.0).to(tl.float32)"
            : "tl.load(a_base + " + i + " * A_M + kk * A_K, mask=k_ok, other=0.0).to(tl.float32)" +
                  std::string(t.reductionFirst ? "[:, None]" : "[None, :]");
    rows += "        a_" + i + " = " + aLoad + "\n";
    rows += "        acc_" + i + " += b * a_" + i + "\n";
    // A K block of one element has nothing to sum: the accumulator is the
    // product's row as it stands.
    const std::string sum = t.blockK == 1 ? "tl.reshape(acc_" + i + ", [BLOCK_R])"
                                          : "tl.sum(acc_" + i + ", axis=" + (t.reductionFirst ? "0" : "1") + ")";
    stores += "    tl.store(c_ptr + other * C_O + " + i + " * C_M + r * C_R, " + sum + ", mask=r_ok)\n";
  }
  LaunchBuilder launch(name, instantiate(kVectorGemmSource,
                                         {{"NAME", name},
                                          {"A", tritonType(a.dtype)},
                                          {"B", tritonType(b.dtype)},
                                          {"C", tritonType(c.dtype)},
                                          {"INIT", init},
                                          {"TILE_OFFSETS_B", tileOffsets(t.reductionFirst, "B_R", "B_K")},
                                          {"TILE_MASK", tileMask},
                                          {"ROWS", rows},
                                          {"STORES", stores}}));
  launch.pointer(a).pointer(b).pointer(c);
  launch.constant("R", t.rowsAreBatches ? batches : n).constant("K", k);
  launch.constant("A_O", t.rowsAreBatches ? 0 : a.stride[0])
      .constant("A_R", t.rowsAreBatches ? a.stride[0] : 0)
      .constant("A_M", a.stride[1])
      .constant("A_K", a.stride[2]);
  launch.constant("B_O", t.rowsAreBatches ? b.stride[2] : b.stride[0])
      .constant("B_R", t.rowsAreBatches ? b.stride[0] : b.stride[2])
      .constant("B_K", b.stride[1]);
  launch.constant("C_O", t.rowsAreBatches ? c.stride[2] : c.stride[0])
      .constant("C_R", t.rowsAreBatches ? c.stride[0] : c.stride[2])
      .constant("C_M", c.stride[1]);
  launch.constant("BLOCK_R", t.blockR).constant("BLOCK_K", t.blockK);
  const int64_t rowsCovered = t.rowsAreBatches ? batches : n;
  launch.grid(ceilDiv(rowsCovered, t.blockR), t.rowsAreBatches ? n : batches, 1);
  return launch.build();
}

} // namespace npusim::library::detail
