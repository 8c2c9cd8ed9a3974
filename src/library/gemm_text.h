#pragma once
// Triton text the GEMM kernels share (internal): what a generated GEMM must
// handle, operand tile loads and the epilogue's stores.
#include <string>
#include <string_view>

namespace npusim::library::detail {

/// What a generated GEMM kernel must handle (only the masks and epilogue
/// terms a call needs are generated).
/// The parameters the GEMM kernels start with: the four pointers ({{A}},
/// {{B}}, {{BIAS}}, {{C}} their element types), alpha, beta, the sizes and
/// every stride, as constexprs (each address affine in the aranges).
constexpr std::string_view kGemmParameters =
    R"TRITON(a_ptr: "*{{A}}", b_ptr: "*{{B}}", bias_ptr: "*{{BIAS}}", c_ptr: "*{{C}}",
             alpha: "fp32", beta: "fp32",
             M: tl.constexpr, N: tl.constexpr, K: tl.constexpr,
             STRIDE_AB: tl.constexpr, STRIDE_AM: tl.constexpr, STRIDE_AK: tl.constexpr,
             STRIDE_BB: tl.constexpr, STRIDE_BK: tl.constexpr, STRIDE_BN: tl.constexpr,
             STRIDE_BIASB: tl.constexpr, STRIDE_BIASM: tl.constexpr, STRIDE_BIASN: tl.constexpr,
             STRIDE_CB: tl.constexpr, STRIDE_CM: tl.constexpr, STRIDE_CN: tl.constexpr,)TRITON";

struct GemmKernelFlags {
  bool mRagged = false;      // M is not a multiple of the row block: row masks
  bool aMContiguous = false; // A column-major: loaded [K, M] and turned
  bool bKContiguous = false; // B's contiguous axis is K: loaded [N, K] and turned
  bool nRagged = false, kRagged = false;
  bool scaleProduct = false, hasBias = false, scaleBias = false;
  std::string aType, bType, biasType, cType; // Triton element types
};

std::string indent(int spaces);

/// ".to(tl.float32)" when A and B differ in type (the dot takes fp32), else "".
std::string operandCast(const GemmKernelFlags &k);

/// A tile load `target = tl.load(base + ...)` of a [R, C] operand tile (R
/// over `rowIndex` with stride `rowStride`, C likewise), `cast` appended;
/// `turned`: loaded [C, R] (its contiguous axis last, one DMA run per row)
/// and transposed on chip. A mask term only for each non-empty row or column
/// mask (a [R] or [C] boolean expression).
std::string loadTile(const std::string &cast, const std::string &target, const std::string &base,
                     const std::string &rowIndex, const std::string &rowStride, const std::string &rowMask,
                     const std::string &colIndex, const std::string &colStride, const std::string &colMask,
                     bool turned, int spaces);

/// The init lines that start accumulator `acc` from the bias row of the
/// columns `cols` when addmm's self is broadcast along M (STRIDE_BIASM == 0)
/// and the product is not scaled: the epilogue then allocates no bias tile,
/// whose bytes could be those a store of the previous product still reads.
std::string startRowBias(const GemmKernelFlags &k, const std::string &acc, const std::string &cols, int spaces);

/// The epilogue of the fp32 product `acc` over rows `rows` and columns `cols`
/// (alpha, the bias times beta, as the flags ask) and its store through
/// `c_base`; `bias` names the bias tile it loads through `bias_base`.
/// `rowBiasStarted`: the init started `acc` from startRowBias, so a bias
/// row of an unscaled product is not added again.
std::string storeProduct(const GemmKernelFlags &k, const std::string &acc, const std::string &bias,
                         const std::string &rows, const std::string &cols, int spaces,
                         bool rowBiasStarted = false);

} // namespace npusim::library::detail
