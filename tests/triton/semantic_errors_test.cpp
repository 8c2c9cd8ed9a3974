// Kernels that parse but are wrong: loading or lowering each must throw a
// core::CompileError whose what() starts with "FILE:LINE:COL: error: ", where
// LINE:COL is the first character of the offending construct (Python's
// convention: a call at its callee, a binary expression at its left operand, a
// statement at its keyword), and whose message says what is wrong.
//
// The expected position is not written as numbers: each case names a snippet
// of its own source (and which occurrence), and the test computes the line and
// column of that snippet's first character from the text.
#include "triton/frontend.h"

#include <gtest/gtest.h>

#include <ostream>
#include <string>
#include <vector>

namespace npusim::triton {
namespace {

const char *const kHeader = R"PY(
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()
)PY";

const char *const kDevice =
    "DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, "
    "regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, "
    "warp_size=32)";

const char *const kDefaultSignature =
    "'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'";
const char *const kDefaultParams = "in_ptr0, in_ptr1, out_ptr0, xnumel, XBLOCK : tl.constexpr";
const char *const kDefaultPrologue = R"PY(    xnumel = 100
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0), xmask)
)PY";

struct BadKernel {
  std::string name;    // test name and file name
  std::string body;    // statements after the standard prologue
  std::string needle;  // the offending construct, as written in the source
  int occurrence = 1;  // which occurrence of the needle
  std::string message; // a substring of the message
  std::string signature = kDefaultSignature;
  std::string params = kDefaultParams;
  std::string helpers; // @triton.jit helpers before the kernel
  std::string mutated; // mutated_arg_names entries
  bool bindXBlock = true;
  int64_t xblock = 128;
  bool prologue = true;
  bool inBody = true; // the needle is searched in the kernel's body (else the whole file)
};

void PrintTo(const BadKernel &k, std::ostream *os) {
  *os << k.name;
}

std::string sourceOf(const BadKernel &k) {
  const std::string kernelName = "triton_poi_fused_" + k.name + "_0";
  std::string s = kHeader;
  s += k.helpers;
  s += "\n@triton_heuristics.pointwise(\n    size_hints={'x': 128}, \n    filename=__file__,\n";
  s += "    triton_meta={'signature': {" + k.signature + "}, 'device': " + kDevice +
       ", 'constants': {}, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', "
       "16]]}]},\n";
  s += "    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': '" + kernelName +
       "', 'mutated_arg_names': [" + k.mutated +
       "], 'optimize_mem': True, 'no_x_dim': False, 'num_load': 1, "
       "'num_reduction': 0},\n    min_elem_per_thread=0\n)\n@triton.jit\n";
  s += "def " + kernelName + "(" + k.params + "):\n";
  if (k.prologue)
    s += kDefaultPrologue;
  s += k.body;
  return s;
}

/// 1-based line and column of the n-th occurrence of needle in text, counting from `from`.
bool locate(const std::string &text, const std::string &needle, size_t from, int occurrence, int &line,
            int &col) {
  size_t at = std::string::npos;
  for (int i = 0; i < occurrence; ++i) {
    at = text.find(needle, from);
    if (at == std::string::npos)
      return false;
    from = at + 1;
  }
  line = 1;
  size_t lineStart = 0;
  for (size_t i = 0; i < at; ++i)
    if (text[i] == '\n') {
      ++line;
      lineStart = i + 1;
    }
  col = static_cast<int>(at - lineStart) + 1;
  return true;
}

std::vector<BadKernel> badKernels() {
  std::vector<BadKernel> v;
  auto add = [&](std::string name, std::string body, std::string needle, std::string message) -> BadKernel & {
    BadKernel k;
    k.name = std::move(name);
    k.body = std::move(body);
    k.needle = std::move(needle);
    k.message = std::move(message);
    v.push_back(std::move(k));
    return v.back();
  };

  add("undefined_name", "    tmp1 = tmp0 + tmp9\n    tl.store(out_ptr0 + (x0), tmp1, xmask)\n", "tmp9",
      "name 'tmp9' is not defined");
  add("arange_not_power_of_two", "    r0 = tl.arange(0, 48)\n", "tl.arange(0, 48)", "power of 2");
  add("add_shape_mismatch",
      "    tmp1 = tl.load(in_ptr1 + tl.arange(0, 64))\n    tmp2 = tmp0 + tmp1\n    tl.store(out_ptr0 + (x0), "
      "tmp2, xmask)\n",
      "tmp0 + tmp1", "cannot broadcast");
  add("slice_past_the_axis", "    tmp1 = tmp0[64:160]\n", "64:160",
      "a window must be nonempty and inside the axis");
  add("empty_slice", "    tmp1 = tmp0[-8:-8]\n", "-8:-8", "slice [120:120] of an axis of 128 elements");
  add("slice_of_a_run_time_bound", "    tmp1 = tmp0[xoffset:]\n", "xoffset:]",
      "bounds must be compile-time ints");
  add("slice_with_a_step", "    tmp1 = tmp0[0:64:2]\n", "0:64:2", "indexed with ':', None and 'a:b'");
  add("float_floordiv", "    tmp1 = tmp0 // tmp0\n", "tmp0 // tmp0", "'//' needs integer operands");
  add("bitwise_and_on_floats", "    tmp1 = tmp0 & tmp0\n", "tmp0 & tmp0", "needs integer operands");
  add("bitwise_not_on_floats", "    tmp1 = ~tmp0\n", "~tmp0", "'~' needs an integer operand");
  add("store_to_non_pointer", "    tl.store(tmp0 + (x0), tmp0, xmask)\n", "tl.store(tmp0", "needs a pointer");
  add("load_other_without_mask", "    tmp1 = tl.load(in_ptr1 + (x0), other=0.0)\n", "tl.load(in_ptr1",
      "'other' needs a mask");
  add("mask_not_boolean", "    tmp1 = tl.load(in_ptr1 + (x0), x0)\n", "tl.load(in_ptr1", "must be boolean");
  add("unknown_tl_function", "    tmp1 = tl.foo(tmp0)\n", "tl.foo", "'tl.foo' is not supported");
  add("unknown_libdevice_function", "    tmp1 = libdevice.frobnicate(tmp0)\n", "libdevice.frobnicate",
      "'libdevice.frobnicate' is not supported");
  add("helper_called_with_too_many_arguments", "    tmp1 = _triton_helper_fn_add0(tmp0, tmp0, tmp0)\n",
      "_triton_helper_fn_add0(tmp0", "takes 2 arguments, got 3")
      .helpers = "\n@triton.jit\ndef _triton_helper_fn_add0(arg0_0, arg1_0):\n    tmp0 = arg0_0 + arg1_0\n   "
                 " return tmp0\n";
  add("scan_combine_function_arity", "    tmp1, = tl.associative_scan((tmp0,), 0, _triton_helper_fn_add3)\n",
      "tl.associative_scan", "is missing argument 'arg2_0'")
      .helpers = "\n@triton.jit\ndef _triton_helper_fn_add3(arg0_0, arg1_0, arg2_0):\n    tmp0 = arg0_0 + "
                 "arg1_0 + arg2_0\n    return tmp0\n";
  add("loop_carried_type_change",
      "    _tmp2 = tl.full([XBLOCK], 0, tl.int32)\n    for r0_offset in range(0, 64, 16):\n"
      "        tmp1 = tl.load(in_ptr1 + (x0 + r0_offset), xmask, other=0.0)\n        _tmp2 = _tmp2 + tmp1\n"
      "    tl.store(out_ptr0 + (x0), _tmp2, xmask)\n",
      "for r0_offset", "loop-carried '_tmp2' is i32");
  add("tile_as_if_condition", "    if xmask:\n        tl.store(out_ptr0 + (x0), tmp0)\n",
      "xmask:", "a run-time condition must be a scalar");
  add("while_on_run_time_value", "    while xoffset < xnumel:\n        xoffset = xoffset + 1\n",
      "xoffset < xnumel", "while loops need a compile-time condition");
  add("break_in_loop",
      "    for r0_offset in range(0, 64, 16):\n        tmp1 = tl.load(in_ptr1 + (x0 + r0_offset), xmask)\n   "
      "     break\n",
      "break", "'break' is not supported");
  add("return_inside_loop",
      "    for r0_offset in range(0, 64, 16):\n        tmp1 = tl.load(in_ptr1 + (x0 + r0_offset), xmask)\n   "
      "     return\n",
      "return", "return inside a loop is not supported");
  add("kernel_returns_a_value", "    return tmp0\n", "return tmp0", "a kernel cannot return a value");
  add("dot_inner_dimensions_differ",
      "    a = tl.zeros([16, 32], tl.float32)\n    b = tl.zeros([16, 16], tl.float32)\n    c = tl.dot(a, "
      "b)\n",
      "tl.dot", "inner dimensions differ");
  add("program_id_axis_out_of_range", "    pid = tl.program_id(3)\n", "tl.program_id(3)",
      "axis must be 0, 1 or 2");
  add("run_time_shape", "    tmp1 = tl.full([xoffset], 0.0, tl.float32)\n", "tl.full([xoffset]",
      "shape entries must be compile-time ints");
  add("dtype_given_as_string", "    tmp1 = tl.full([XBLOCK], 0, 'fp32')\n", "tl.full([XBLOCK], 0, 'fp32')",
      "must be a dtype");
  add("branches_disagree_on_type",
      "    pid = tl.program_id(0)\n    if pid < 2:\n        tmp1 = tl.full([XBLOCK], 0, tl.int32)\n    "
      "else:\n"
      "        tmp1 = tl.full([XBLOCK], 0.0, tl.float32)\n    tl.store(out_ptr0 + (x0), tmp1, xmask)\n",
      "if pid < 2", "'tmp1' is i32");
  add("float_pointer_offset", "    tmp1 = tl.load(in_ptr1 + tmp0, xmask)\n", "in_ptr1 + tmp0",
      "a pointer offset must be an integer");
  add("reduction_axis_out_of_range", "    tmp1 = tl.sum(tmp0, 1)\n", "tl.sum", "axis 1 is out of range");
  add("stored_value_does_not_fit_the_pointer",
      "    tmp1 = tl.full([XBLOCK, 2], 0.0, tl.float32)\n    tl.store(out_ptr0 + (x0), tmp1, xmask)\n",
      "tl.store(out_ptr0 + (x0), tmp1", "cannot broadcast");
  add("tensor_constexpr_annotation", "    R0_BLOCK: tl.constexpr = xoffset\n", "xoffset\n",
      "a tl.constexpr must be a compile-time value");

  add("mask_shape_wider_than_pointer",
      "    tmp1 = tl.load(in_ptr1 + (x0), tl.full([XBLOCK, 2], True, tl.int1))\n", "tl.load(in_ptr1",
      "cannot broadcast");
  add("floordiv_mixed_signedness", "    tmp1 = x0.to(tl.uint32)\n    tmp2 = x0 // tmp1\n", "x0 // tmp1",
      "differ in signedness");
  add("unpack_a_tensor_into_names", "    r0, r1 = tl.arange(0, XBLOCK)\n", "r0, r1", "cannot unpack");
  add("dot_of_one_dimensional_tiles", "    tmp1 = tl.dot(tmp0, tmp0)\n", "tl.dot", "needs 2-D operands");
  add("block_size_not_power_of_two", "    tl.store(out_ptr0 + (x0), tmp0, xmask)\n", "tl.arange(0, XBLOCK)",
      "power of 2")
      .xblock = 100;

  // Launch and metadata errors.
  add("constexpr_without_value", "    tl.store(out_ptr0 + (x0), tmp0, xmask)\n", "XBLOCK : tl.constexpr",
      "constexpr 'XBLOCK'");
  v.back().bindXBlock = false;
  v.back().inBody = false;
  {
    BadKernel &k =
        add("signature_names_a_non_parameter", "", "'in_ptr7'", "'in_ptr7', which is not a parameter");
    k.signature = std::string(kDefaultSignature) + ", 'in_ptr7': '*fp32'";
    k.inBody = false;
  }
  {
    BadKernel &k =
        add("parameter_missing_from_signature", "", "in_ptr2", "missing from triton_meta['signature']");
    k.params = "in_ptr0, in_ptr1, in_ptr2, out_ptr0, xnumel, XBLOCK : tl.constexpr";
    k.inBody = false;
  }
  {
    BadKernel &k = add("unknown_signature_type", "", "'*fp8e9'", "unsupported type '*fp8e9'");
    k.signature = "'in_ptr0': '*fp32', 'in_ptr1': '*fp8e9', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': "
                  "'constexpr'";
    k.inBody = false;
  }
  {
    BadKernel &k = add("mutated_arg_is_not_a_pointer", "", "'xnumel'", "mutated_arg_names lists 'xnumel'");
    k.mutated = "'xnumel'";
    k.inBody = false;
    k.occurrence = 2; // the first is the signature's
  }
  return v;
}

class SemanticErrors : public ::testing::TestWithParam<BadKernel> {};

TEST_P(SemanticErrors, FailAtTheOffendingConstruct) {
  const BadKernel &k = GetParam();
  const std::string source = sourceOf(k);
  const std::string file = "kernels/" + k.name + ".py";
  int line = 0, col = 0;
  const size_t from = k.inBody ? source.find('\n', source.find("\ndef triton_poi_") + 1) : 0;
  ASSERT_TRUE(locate(source, k.needle, from, k.occurrence, line, col))
      << "needle not in the source: " << k.needle;
  ConstexprBindings constexprs;
  if (k.bindXBlock)
    constexprs["XBLOCK"] = k.xblock;
  try {
    KernelFile kf = loadKernel(source, file);
    lowerKernel(kf, constexprs);
    ADD_FAILURE() << "no error; source:\n" << source;
  } catch (const core::CompileError &e) {
    const std::string what = e.what();
    const std::string prefix = file + ":" + std::to_string(line) + ":" + std::to_string(col) + ": error: ";
    EXPECT_EQ(what.substr(0, prefix.size()), prefix)
        << "expected the error at '" << k.needle << "'; got: " << what;
    EXPECT_NE(e.message().find(k.message), std::string::npos)
        << "expected '" << k.message << "' in: " << what;
  }
}

INSTANTIATE_TEST_SUITE_P(Kernels, SemanticErrors, ::testing::ValuesIn(badKernels()),
                         [](const ::testing::TestParamInfo<BadKernel> &p) { return p.param.name; });

// The standard source of these tests is itself correct: every failure above
// comes from its one defect.
TEST(SemanticErrorsBaseline, TheUnmodifiedKernelLowers) {
  BadKernel k;
  k.name = "baseline";
  k.body = "    tmp1 = tl.load(in_ptr1 + (x0), xmask)\n    tmp2 = tmp0 + tmp1\n    tl.store(out_ptr0 + (x0), "
           "tmp2, xmask)\n";
  KernelFile kf = loadKernel(sourceOf(k), "kernels/baseline.py");
  EXPECT_NO_THROW(lowerKernel(kf, {{"XBLOCK", int64_t{128}}}));
}

} // namespace
} // namespace npusim::triton
