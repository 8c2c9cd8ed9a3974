// Builtins registered from files of their own (triton/builtins_internal.h):
// tl.sigmoid lives in builtin_sigmoid.cpp, outside the table of
// lower_builtins.cpp, and kernels still reach it.
#include "ir/ir.h"
#include "triton/frontend.h"

#include <gtest/gtest.h>

#include <string>

namespace npusim::triton {
namespace {

constexpr std::string_view kSigmoidKernel = R"(
import triton
import triton.language as tl


@triton.jit
def sigmoid_kernel(in_ptr0: "*fp32", out_ptr0: "*fp32", XBLOCK: tl.constexpr):
    x0 = tl.arange(0, XBLOCK)
    tmp0 = tl.load(in_ptr0 + x0)
    tmp1 = tl.sigmoid(tmp0)
    tl.store(out_ptr0 + x0, tmp1)
)";

// Triton defines sigmoid(x) as 1 / (1 + exp(-x)): a negation (of a float
// tile, 0.0 - x), an exp, an add and a division, in that order, between the
// load and the store.
TEST(Builtins, OneInAFileOfItsOwnIsCalled) {
  const KernelFile file = loadKernel(kSigmoidKernel, "sigmoid_kernel.py");
  const std::string text = ir::print(*lowerKernel(file, {{"XBLOCK", int64_t{64}}}));
  size_t at = text.find("= load ");
  for (const char *op : {"= sub ", "= math exp ", "= add ", "= div ", "store "}) {
    ASSERT_NE(at, std::string::npos) << text;
    at = text.find(op, at);
    EXPECT_NE(at, std::string::npos) << op << " missing after the previous step in\n" << text;
  }
}

} // namespace
} // namespace npusim::triton
