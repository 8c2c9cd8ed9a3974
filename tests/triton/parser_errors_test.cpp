// Malformed input must fail with a core::CompileError at an exact
// FILE:LINE:COL, and no input may crash, hang or throw anything else.
#include "triton/parser.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <string_view>

namespace npusim::triton {
namespace {

using namespace std::string_view_literals;

ast::Module parse(std::string_view source) {
  return parseModule(source, "kernel.py");
}

const char *const kKernel = R"PY(@triton.jit
def triton_per_fused_sum_0(in_ptr0, out_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr):
    R0_BLOCK: tl.constexpr = 16
    xindex = tl.program_id(0) * XBLOCK + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    tmp0 = tl.load(in_ptr0 + (r0_index + 16*xindex), xmask, other=0.0)
    tmp1 = tl.where(xmask, tmp0 ** 2, float("-inf")) if r0_numel > 1 else -tmp0
    tmp2, = tl.associative_scan((tmp1,), 1, _triton_helper_fn_add0)
    for r0_offset in range(0, r0_numel, R0_BLOCK):
        if r0_offset == 0 and not xmask: continue
        elif r0_offset > 0x10: tmp2 += 1e-05
        else:
            pass
    tl.device_assert((0 <= tmp2) | ~(xmask), "index out of bounds: 0 <= tmp2 < 16")
    tl.store(out_ptr0 + (xindex), tl.sum(tmp2, 1)[:, None], xmask)
)PY";

// ---------------------------------------------------------------------------
// Malformed input: each must fail at an exact position with a clear message.

struct BadInput {
  std::string_view source;
  int line;
  int col;
  const char *message;
};

class ParserErrors : public testing::TestWithParam<BadInput> {};

TEST_P(ParserErrors, FailsAtPosition) {
  const BadInput &bad = GetParam();
  const std::string fileName = "dir/bad_kernel.py";
  try {
    parseModule(bad.source, fileName);
    ADD_FAILURE() << "parsed without error: " << bad.source;
  } catch (const core::CompileError &error) {
    EXPECT_EQ(error.where().file, fileName);
    EXPECT_EQ(error.where().line, bad.line) << error.what();
    EXPECT_EQ(error.where().col, bad.col) << error.what();
    EXPECT_NE(error.message().find(bad.message), std::string::npos) << error.what();
    const std::string prefix =
        fileName + ":" + std::to_string(bad.line) + ":" + std::to_string(bad.col) + ": error: ";
    EXPECT_EQ(std::string(error.what()).rfind(prefix, 0), 0u) << error.what();
  }
}

const std::string kDeepParens = "x = " + std::string(201, '(') + "1" + std::string(201, ')') + "\n";
const std::string kDeepUnary = "x = " + std::string(300, '-') + "1\n";
const std::string kLongChain = [] {
  std::string s = "x = a";
  for (int i = 0; i < 1200; ++i)
    s += "+a";
  return s + "\n";
}();
const std::string kDeepBlocks = [] {
  std::string s;
  for (int i = 0; i <= 100; ++i)
    s += std::string(static_cast<size_t>(i), ' ') + "if x:\n";
  return s + std::string(101, ' ') + "pass\n";
}();

const BadInput kBadInputs[] = {
    {"x = 'abc\n", 1, 5, "unterminated string literal"},
    {"x = 1\ny = \"\"\"abc\n\n", 2, 5, "unterminated triple-quoted string literal"},
    {"x = f(a,\n      [b,\n", 2, 7, "'[' was never closed"},
    {"x = (1, 2]\n", 1, 10, "closing parenthesis ']' does not match opening parenthesis '('"},
    {"x = 1)\n", 1, 6, "unmatched ')'"},
    {"if x:\n        a = 1\n    b = 2\n", 3, 5, "unindent does not match any outer indentation level"},
    {"x = 1\n    y = 2\n", 2, 5, "unexpected indent"},
    {"x = 1 $ 2\n", 1, 7, "unexpected character '$'"},
    {"x = 1 ? 2\n", 1, 7, "unexpected character '?'"},
    {"x = a ! b\n", 1, 7, "unexpected character '!'"},
    {"class Kernel:\n    pass\n", 1, 1, "class definitions are not supported"},
    {"f = lambda x: x + 1\n", 1, 5, "lambda expressions are not supported"},
    {"y = tl.load(*args)\n", 1, 13, "'*args'"},
    {"y = f(a, **kwargs)\n", 1, 10, "'**kwargs'"},
    {"def f(a, *args):\n    pass\n", 1, 10, "'*args' parameters are not supported"},
    {"def f(**kw):\n    pass\n", 1, 7, "'**kwargs' parameters are not supported"},
    {"if x > 0\n    pass\n", 1, 9, "expected ':'"},
    {"def f():\n", 2, 1, "expected an indented block after function definition on line 1"},
    {"for i in range(4):\nx = 1\n", 2, 1, "expected an indented block after 'for' statement on line 1"},
    {"x = 1\ny = 18446744073709551616\n", 2, 5, "does not fit in 64 bits"},
    {"y = 9223372036854775808\n", 1, 5, "does not fit in int64"},
    {"y = -9223372036854775808 ** 2\n", 1, 6, "does not fit in int64"},
    {"y = -9223372036854775809\n", 1, 6, "does not fit in int64"},
    {kDeepParens, 1, 205, "too many nested parentheses"},
    {kDeepUnary, 1, 204, "nesting too deep"},
    {kLongChain, 1, 5, "expression too deeply nested"},
    {kDeepBlocks, 102, 102, "too many levels of indentation"},
    {"if (n := 10) > 5:\n    pass\n", 1, 7, "':='"},
    {"s = f'{x}'\n", 1, 5, "f-strings are not supported"},
    {"s = RB'x'\n", 1, 5, "bytes literals are not supported"},
    {"if x:\n\tpass\n        pass\n", 3, 9, "inconsistent use of tabs and spaces"},
    {"if x:\n        pass\n\tpass\n", 3, 2, "inconsistent use of tabs and spaces"},
    {"x = 1\ny = 2\0\n"sv, 2, 6, "NUL"},
    {"x = 1 # \xC3\xA9 \xFF\n", 1, 11, "invalid UTF-8 byte 0xFF"},
    {"x = \xC3\xA9\n", 1, 5, "non-ASCII"},
    {"y = [i * 2 for i in x]\n", 1, 12, "list comprehensions are not supported"},
    {"y = sum(i for i in x)\n", 1, 11, "generator expressions are not supported"},
    {"y = {k: v for k in x}\n", 1, 11, "dict comprehensions are not supported"},
    {"y = {k for k in x}\n", 1, 8, "set comprehensions are not supported"},
    {"with open(f) as g:\n    pass\n", 1, 1, "'with' statements are not supported"},
    {"try:\n    pass\nexcept E:\n    pass\n", 1, 1, "'try' statements are not supported"},
    {"def f():\n    yield 1\n", 2, 5, "'yield' is not supported"},
    {"async def f():\n    pass\n", 1, 1, "'async'"},
    {"x = await y\n", 1, 5, "'await' is not supported"},
    {"raise ValueError()\n", 1, 1, "'raise' statements are not supported"},
    {"x = 1 +\n", 1, 8, "expected an expression, found end of line"},
    {"x = a b\n", 1, 7, "expected end of line, found name 'b'"},
    {"x = 0b102\n", 1, 9, "invalid digit '2' in binary literal"},
    {"x = 1__0\n", 1, 5, "invalid decimal literal"},
    {"x = 12abc\n", 1, 5, "invalid decimal literal"},
    {"x = 0x\n", 1, 7, "invalid hexadecimal literal"},
    {"x = 012\n", 1, 5, "leading zeros"},
    {"x = 1j\n", 1, 5, "complex literals are not supported"},
    {"x = '\\x4g'\n", 1, 6, "truncated \\xXX escape"},
    {"x = '\\ud800'\n", 1, 6, "surrogate"},
    {"x = '\\N{DASH}'\n", 1, 6, "\\N{...}"},
    {"x = r'\\'\n", 1, 5, "unterminated string literal"},
    {"x = 1 + \\ 2\n", 1, 9, "unexpected character after line continuation character"},
    {"x = 1 + \\", 1, 9, "unexpected end of file after line continuation character"},
    {"f(a=1, b)\n", 1, 8, "positional argument follows keyword argument"},
    {"f(a=1, a=2)\n", 1, 8, "keyword argument repeated: a"},
    {"def f(a=1, b):\n    pass\n", 1, 12, "parameter without a default follows parameter with a default"},
    {"def f(a, a):\n    pass\n", 1, 10, "duplicate parameter 'a'"},
    {"1 = x\n", 1, 1, "cannot assign to literal"},
    {"f() = 1\n", 1, 1, "cannot assign to function call"},
    {"a, b += 1\n", 1, 1, "illegal target for augmented assignment"},
    {"a, b: int = 1, 2\n", 1, 1, "only a single target (not a tuple) can be annotated"},
    {"for f() in x:\n    pass\n", 1, 5, "cannot assign to function call"},
    {"if x: if y: pass\n", 1, 7, "'if' cannot follow ':'"},
    {"x = {**a}\n", 1, 6, "dict unpacking"},
    {"import a,\n", 1, 9, "trailing comma not allowed"},
    {"from a import *\n", 1, 15, "import *"},
    {"@triton.jit\nx = 1\n", 2, 1, "expected 'def' after decorators"},
    {"@triton.jit\nclass K:\n    pass\n", 2, 1, "class definitions are not supported"},
    {"x = a if b\n", 1, 11, "expected 'else'"},
    {"x = (a, b c)\n", 1, 11, "expected ',' or ')'"},
    {"x = a.if\n", 1, 7, "expected an attribute name after '.', found 'if'"},
    {"x = y[]\n", 1, 7, "expected an expression, found ']'"},
    {"def f(x, /):\n    pass\n", 1, 10, "positional-only parameters"},
    {"x = [*a]\n", 1, 6, "starred expressions are not supported"},
    {"x = 1;;\n", 1, 7, "expected an expression, found ';'"},
    {"x = \x01\n", 1, 5, "unexpected character U+0001"},
};

INSTANTIATE_TEST_SUITE_P(Malformed, ParserErrors, testing::ValuesIn(kBadInputs));

TEST(ParserRobustness, LimitsAcceptWhatFitsBelowThem) {
  EXPECT_NO_THROW(parse("x = " + std::string(199, '(') + "1" + std::string(199, ')') + "\n"));
  std::string chain = "x = a";
  for (int i = 0; i < 900; ++i)
    chain += " + a";
  EXPECT_NO_THROW(parse(chain));
  std::string elifs = "if a:\n  pass\n";
  for (int i = 0; i < 150; ++i)
    elifs += "elif b:\n  pass\n";
  EXPECT_NO_THROW(parse(elifs));
}

TEST(ParserRobustness, OnlyCompileErrorsOnMutatedKernels) {
  // Every prefix of a kernel, and random byte edits of it, either parse or
  // fail with a CompileError that has a position; nothing else escapes.
  const std::string kernel = kKernel;
  auto check = [](const std::string &source) {
    try {
      parseModule(source, "m.py");
    } catch (const core::CompileError &error) {
      EXPECT_TRUE(error.where().known()) << error.what();
    }
  };
  for (size_t n = 0; n <= kernel.size(); n += 7)
    check(kernel.substr(0, n));
  std::mt19937 random(12345);
  const std::string alphabet = "()[]{}:,.=+-*/\\\"'#\n\t \0\xC3\xFFx1eE_jrbf";
  for (int i = 0; i < 2000; ++i) {
    std::string source = kernel;
    for (int edits = 1 + static_cast<int>(random() % 4); edits > 0; --edits) {
      const size_t at = random() % source.size();
      const char c = alphabet[random() % alphabet.size()];
      switch (random() % 3) {
      case 0: source[at] = c; break;
      case 1: source.insert(source.begin() + static_cast<std::ptrdiff_t>(at), c); break;
      default: source.erase(at, 1 + random() % 8); break;
      }
    }
    check(source);
  }
}

} // namespace
} // namespace npusim::triton
