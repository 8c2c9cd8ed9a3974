// Triton text the GEMM kernels share (gemm_text.h).
#include "library/gemm_text.h"

namespace npusim::library::detail {

std::string indent(int spaces) {
  return std::string(static_cast<size_t>(spaces), ' ');
}

std::string operandCast(const GemmKernelFlags &k) {
  return k.aType == k.bType ? "" : ".to(tl.float32)";
}

std::string loadTile(const std::string &cast, const std::string &target, const std::string &base,
                     const std::string &rowIndex, const std::string &rowStride, const std::string &rowMask,
                     const std::string &colIndex, const std::string &colStride, const std::string &colMask,
                     bool turned, int spaces) {
  const std::string &outer = turned ? colIndex : rowIndex, &inner = turned ? rowIndex : colIndex;
  const std::string &outerStride = turned ? colStride : rowStride,
                    &innerStride = turned ? rowStride : colStride;
  const std::string &outerMask = turned ? colMask : rowMask, &innerMask = turned ? rowMask : colMask;
  std::string mask;
  if (!outerMask.empty() || !innerMask.empty())
    mask = ", mask=" + (outerMask.empty() ? "" : outerMask + "[:, None]") +
           (!outerMask.empty() && !innerMask.empty() ? " & " : "") +
           (innerMask.empty() ? "" : innerMask + "[None, :]") + ", other=0.0";
  const std::string load = "tl.load(" + base + " + " + outer + "[:, None] * " + outerStride + " + " + inner +
                           "[None, :] * " + innerStride + mask + ")";
  return indent(spaces) + target + " = " + (turned ? "tl.trans(" + load + ")" : load) + cast + "\n";
}

std::string startRowBias(const GemmKernelFlags &k, const std::string &acc, const std::string &cols, int spaces) {
  if (!k.hasBias || k.scaleProduct)
    return "";
  const std::string in = indent(spaces), row = acc + "_bias_row";
  std::string out = in + "if STRIDE_BIASM == 0:\n";
  out += in + "    " + row + " = tl.load(bias_base + " + cols + " * STRIDE_BIASN" +
         (k.nRagged ? ", mask=" + cols + " < N, other=0.0" : "") + ").to(tl.float32)\n";
  out += in + "    " + acc + " = " + acc + " + " + row + "[None, :]" + (k.scaleBias ? " * beta" : "") + "\n";
  return out;
}

std::string storeProduct(const GemmKernelFlags &k, const std::string &acc, const std::string &bias,
                         const std::string &rows, const std::string &cols, int spaces, bool rowBiasStarted) {
  const std::string in = indent(spaces);
  std::string mask, out;
  if (k.mRagged || k.nRagged)
    mask = ", mask=" + std::string(k.mRagged ? "(" + rows + " < M)[:, None]" : "") +
           (k.mRagged && k.nRagged ? " & " : "") + (k.nRagged ? "(" + cols + " < N)[None, :]" : "");
  if (k.scaleProduct)
    out += in + acc + " = " + acc + " * alpha\n";
  if (k.hasBias) {
    const bool started = rowBiasStarted && !k.scaleProduct;
    const std::string inner = started ? in + "    " : in;
    if (started)
      out += in + "if STRIDE_BIASM != 0:\n";
    out += inner + bias + " = tl.load(bias_base + " + rows + "[:, None] * STRIDE_BIASM + " + cols +
           "[None, :] * STRIDE_BIASN" + mask + (mask.empty() ? "" : ", other=0.0") + ").to(tl.float32)\n";
    out += inner + acc + " = " + acc + " + " + bias + (k.scaleBias ? " * beta" : "") + "\n";
  }
  out += in + "tl.store(c_base + " + rows + "[:, None] * STRIDE_CM + " + cols + "[None, :] * STRIDE_CN, " + acc +
         mask + ")\n";
  return out;
}

} // namespace npusim::library::detail
