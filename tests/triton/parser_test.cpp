// The lexer and parser on kernels as TorchInductor writes them, on Python's
// precedence rules, and on malformed input, which must fail at an exact
// FILE:LINE:COL.
#include "triton/parser.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

namespace npusim::triton {
namespace {

using ast::ExprKind;
using ast::StmtKind;

ast::Module parseSource(std::string_view source) {
  return parseModule(source, "kernel.py");
}

/// The single expression of a one-line expression statement.
ast::ExprPtr parseExpr(std::string_view source) {
  ast::Module module = parseSource(source);
  EXPECT_EQ(module.body.size(), 1u);
  EXPECT_EQ(module.body.at(0)->kind, StmtKind::Expr);
  return std::move(module.body.at(0)->value);
}

const ast::Expr &operand(const ast::Expr &expr, size_t i) {
  return *expr.operands.at(i);
}

void expectName(const ast::Expr &expr, const std::string &name) {
  EXPECT_EQ(expr.kind, ExprKind::Name);
  EXPECT_EQ(expr.name, name);
}

void expectPos(ast::Position pos, int line, int col) {
  EXPECT_EQ(pos.line, line);
  EXPECT_EQ(pos.col, col);
}

/// Python-like text of an expression: enough to check a tree's shape at a glance.
std::string show(const ast::Expr *expr) {
  if (!expr)
    return "_";
  auto list = [&](size_t from) {
    std::string s;
    for (size_t i = from; i < expr->operands.size(); ++i)
      s += (i > from ? ", " : "") + show(expr->operands[i].get());
    return s;
  };
  switch (expr->kind) {
  case ExprKind::Name: return expr->name;
  case ExprKind::Int: return std::to_string(expr->intValue);
  case ExprKind::Float: return "float(" + std::to_string(expr->floatValue) + ")";
  case ExprKind::String: return "'" + expr->text + "'";
  case ExprKind::Bool: return expr->boolValue ? "True" : "False";
  case ExprKind::None: return "None";
  case ExprKind::Ellipsis: return "...";
  case ExprKind::Binary:
    return "(" + show(expr->operands[0].get()) + " " + ast::spelling(expr->binaryOp) + " " +
           show(expr->operands[1].get()) + ")";
  case ExprKind::Unary:
    return std::string("(") + ast::spelling(expr->unaryOp) +
           (expr->unaryOp == ast::UnaryOperator::Not ? " " : "") + show(expr->operands[0].get()) + ")";
  case ExprKind::BoolOp: {
    std::string s = "(" + show(expr->operands[0].get());
    for (size_t i = 1; i < expr->operands.size(); ++i)
      s += std::string(" ") + ast::spelling(expr->boolOp) + " " + show(expr->operands[i].get());
    return s + ")";
  }
  case ExprKind::Compare: {
    std::string s = "(" + show(expr->operands[0].get());
    for (size_t i = 0; i < expr->compareOps.size(); ++i)
      s += std::string(" ") + ast::spelling(expr->compareOps[i]) + " " + show(expr->operands[i + 1].get());
    return s + ")";
  }
  case ExprKind::IfExp:
    return "(" + show(expr->operands[0].get()) + " if " + show(expr->operands[1].get()) + " else " +
           show(expr->operands[2].get()) + ")";
  case ExprKind::Call: {
    std::string s = show(expr->operands[0].get()) + "(" + list(1);
    for (size_t i = 0; i < expr->keywords.size(); ++i)
      s += (i > 0 || expr->operands.size() > 1 ? ", " : "") + expr->keywords[i].name + "=" +
           show(expr->keywords[i].value.get());
    return s + ")";
  }
  case ExprKind::Attribute: return show(expr->operands[0].get()) + "." + expr->name;
  case ExprKind::Subscript: return show(expr->operands[0].get()) + "[" + show(expr->operands[1].get()) + "]";
  case ExprKind::Slice: return "slice(" + list(0) + ")";
  case ExprKind::Tuple: return "tuple(" + list(0) + ")";
  case ExprKind::List: return "[" + list(0) + "]";
  case ExprKind::Dict: return "dict(" + list(0) + ")";
  case ExprKind::Set: return "set(" + list(0) + ")";
  }
  return "?";
}

std::string showExpr(std::string_view source) {
  ast::ExprPtr expr = parseExpr(source);
  return show(expr.get());
}

// ---------------------------------------------------------------------------
// Kernels as Inductor writes them.

const char *const kPointwiseKernel = R"PY(import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 1024}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, warp_size=32), 'constants': {}, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_relu_0', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'num_load': 1, 'num_reduction': 0, 'backend_hash': 'ABC', 'are_deterministic_algorithms_enabled': False, 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_relu_0(in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 1024
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0), xmask)
    tmp1 = tl.full([1], 0, tl.int32)
    tmp2 = triton_helpers.maximum(tmp1, tmp0)
    tl.store(out_ptr0 + (x0), tmp2, xmask)
)PY";

const char *const kReductionKernel = R"PY(
@triton_heuristics.reduction(
    size_hints={'x': 64, 'r0_': 2048},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'in_ptr0': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, warp_size=32), 'constants': {}, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_red_fused__softmax_0', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': False, 'num_load': 2, 'num_reduction': 2}
)
@triton.jit
def triton_red_fused__softmax_0(in_out_ptr0, in_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 64
    r0_numel = 2048
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    x0 = xindex
    _tmp2 = tl.full([XBLOCK, R0_BLOCK], float("-inf"), tl.float32)
    for r0_offset in range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        r0_1 = r0_index
        tmp0 = tl.load(in_ptr0 + (r0_1 + 2048*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
        tmp3 = triton_helpers.maximum(_tmp2, tmp1)
        _tmp2 = tl.where(r0_mask & xmask, tmp3, _tmp2)
    tmp2 = triton_helpers.max2(_tmp2, 1)[:, None]
    tmp5 = libdevice.rsqrt(tmp2 / 2048.0 + 1e-05)
    tl.debug_barrier()
    tl.store(in_out_ptr0 + (x0), tmp5, xmask)
)PY";

const char *const kTemplateKernel = R"PY(@triton.jit
def triton_tem_fused_mm_0(arg_A, arg_B, out_ptr0):
    GROUP_M : tl.constexpr = 8
    EVEN_K : tl.constexpr = True
    ALLOW_TF32 : tl.constexpr = False
    ACC_TYPE : tl.constexpr = tl.float32
    BLOCK_M : tl.constexpr = 64
    BLOCK_N : tl.constexpr = 64
    BLOCK_K : tl.constexpr = 32
    A = arg_A
    B = arg_B

    M = 128
    N = 64
    K = 256
    if M * N == 0:
        # early exit due to zero-size input(s)
        return
    stride_am = 256
    stride_ak = 1
    stride_bk = 64
    stride_bn = 1

    # based on triton.ops.matmul
    pid = tl.program_id(0)
    grid_m = (M + BLOCK_M - 1) // BLOCK_M
    grid_n = (N + BLOCK_N - 1) // BLOCK_N

    # re-order program ID for better L2 performance
    width = GROUP_M * grid_n
    group_id = pid // width
    group_size = min(grid_m - group_id * GROUP_M, GROUP_M)
    pid_m = group_id * GROUP_M + (pid % group_size)
    pid_n = (pid % width) // (group_size)
    tl.assume(pid_m >= 0)

    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    if ((stride_am == 1 and stride_ak == M) or (stride_am == K and stride_ak == 1)) and M >= BLOCK_M:
        offs_a_m = tl.max_contiguous(tl.multiple_of(rm % M, BLOCK_M), BLOCK_M)
    else:
        offs_a_m = rm % M
    offs_b_n = rn % N
    offs_k = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=ACC_TYPE)

    for k_idx in range(0, tl.cdiv(K, BLOCK_K)):
        a_k_idx_vals = offs_k[None, :] + (k_idx * BLOCK_K)
        idx_m = offs_a_m[:, None]
        idx_n = a_k_idx_vals
        xindex = idx_n + 256*idx_m
        a = tl.load(A + (xindex))
        b = tl.load(B + (offs_k[:, None] + k_idx * BLOCK_K) * stride_bk + offs_b_n[None, :] * stride_bn)
        acc += tl.dot(a, b, allow_tf32=ALLOW_TF32, out_dtype=ACC_TYPE)

    # rematerialize rm and rn to save registers
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    idx_m = rm[:, None]
    idx_n = rn[None, :]
    mask = (idx_m < M) & (idx_n < N)
    xindex = idx_n + 64*idx_m
    tl.store(out_ptr0 + (tl.broadcast_to(xindex, acc.shape)), acc, mask)
)PY";

const char *const kHelperAndForeachKernel = R"PY(@triton.jit
def _triton_helper_fn_add0(arg0_0, arg1_0):
    tmp0 = arg0_0 + arg1_0
    return tmp0

@triton.jit
def triton_per_fused_cumsum_embedding_0(in_ptr0, in_ptr1, out_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 4
    r0_numel = 16
    R0_BLOCK: tl.constexpr = 16
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    roffset = 0
    r0_mask = tl.full([XBLOCK, R0_BLOCK], True, tl.int1)
    tmp0 = tl.load(in_ptr0 + (r0_index + 16*xindex), xmask, other=0.0)
    tmp2 = tmp0.to(tl.float32)
    tmp3, = tl.associative_scan((tmp2,), 1, _triton_helper_fn_add0)
    tmp4_mean, tmp4_m2, tmp4_weight = triton_helpers.welford_reduce(tmp3, tmp3, tmp3, tmp3, roffset == 0)
    tmp5 = tl.full([XBLOCK, R0_BLOCK], 50257, tl.int32)
    tmp6 = tmp0 + tmp5
    tmp7 = tl.where(tmp0 < 0, tmp6, tmp0)
    tl.device_assert(((0 <= tmp7) & (tmp7 < 50257)) | ~(xmask), "index out of bounds: 0 <= tmp7 < 50257")
    tmp8 = tl.load(in_ptr1 + (tmp7), xmask, eviction_policy='evict_last').to(tl.float32, bitcast=True)
    tmp9 = tl.full([1], -9223372036854775808, tl.int64)
    tmp10 = tmp8 != tmp8
    tmp11 = tl.where(tmp10, float("nan"), -tmp8 ** 2)
    tl.store(out_ptr0 + (r0_index + 16*xindex), tmp11, xmask)

@triton.jit
def triton_for_fused_0(in_ptr0, out_ptr0, out_ptr1):
    pid = tl.program_id(0)
    XBLOCK: tl.constexpr = 1024
    num_xblocks_0 = tl.cdiv(4, XBLOCK)
    num_xblocks_1 = num_xblocks_0 + tl.cdiv(8, XBLOCK)
    if pid < num_xblocks_0:
        pid_offset = pid
        xnumel = 4
        xoffset = pid_offset * XBLOCK
        xindex = xoffset + tl.arange(0, XBLOCK)[:]
        xmask = xindex < xnumel
        tl.store(out_ptr0 + (xindex), tl.load(in_ptr0 + (xindex), xmask), xmask)
    elif pid < num_xblocks_1:
        pid_offset = pid - num_xblocks_0
        tl.store(out_ptr1 + (pid_offset), 0.0)
    else:
        pass
)PY";

TEST(Parser, PointwiseKernelShape) {
  ast::Module module = parseModule(kPointwiseKernel, "kernels/triton_poi_fused_relu_0.py");
  EXPECT_EQ(module.file, "kernels/triton_poi_fused_relu_0.py");
  ASSERT_EQ(module.body.size(), 7u);
  EXPECT_EQ(module.body[0]->kind, StmtKind::Import);
  EXPECT_EQ(module.body[1]->names, std::vector<std::string>{"triton.language"});
  EXPECT_EQ(module.body[1]->asNames, std::vector<std::string>{"tl"});
  EXPECT_EQ(module.body[3]->kind, StmtKind::ImportFrom);
  EXPECT_EQ(module.body[3]->module, "torch._inductor.runtime.triton_helpers");
  EXPECT_EQ(module.body[3]->names, (std::vector<std::string>{"libdevice", "math"}));
  EXPECT_EQ(module.body[3]->asNames, (std::vector<std::string>{"", "tl_math"}));
  EXPECT_EQ(show(module.body[5]->value.get()), "triton_helpers.set_driver_to_gpu()");
  expectName(*module.body[5]->value->operands[0]->operands[0], "triton_helpers");

  const ast::Stmt &def = *module.body[6];
  ASSERT_EQ(def.kind, StmtKind::FunctionDef);
  expectPos(def.pos, 9, 1); // the first decorator's '@'
  const ast::FunctionDef &function = *def.function;
  EXPECT_EQ(function.name, "triton_poi_fused_relu_0");
  ASSERT_EQ(function.decorators.size(), 2u);
  EXPECT_EQ(show(function.decorators[1].get()), "triton.jit");

  const ast::Expr &heuristics = *function.decorators[0];
  ASSERT_EQ(heuristics.kind, ExprKind::Call);
  expectPos(heuristics.pos, 9, 2);
  EXPECT_EQ(show(heuristics.operands[0].get()), "triton_heuristics.pointwise");
  ASSERT_EQ(heuristics.keywords.size(), 5u);
  EXPECT_EQ(heuristics.keywords[0].name, "size_hints");
  expectPos(heuristics.keywords[0].pos, 10, 5);
  EXPECT_EQ(show(heuristics.keywords[0].value.get()), "dict('x', 1024)");
  EXPECT_EQ(show(heuristics.keywords[1].value.get()), "__file__");
  EXPECT_EQ(show(heuristics.keywords[4].value.get()), "0");

  const ast::Expr &tritonMeta = *heuristics.keywords[2].value;
  ASSERT_EQ(tritonMeta.kind, ExprKind::Dict);
  ASSERT_EQ(tritonMeta.operands.size(), 8u);
  EXPECT_EQ(show(&operand(tritonMeta, 1)),
            "dict('in_ptr0', '*fp32', 'out_ptr0', '*fp32', 'xnumel', 'i32', 'XBLOCK', 'constexpr')");
  const ast::Expr &device = operand(tritonMeta, 3);
  ASSERT_EQ(device.kind, ExprKind::Call);
  EXPECT_EQ(device.keywords.size(), 8u);
  EXPECT_EQ(device.keywords[0].value->text, "cuda");
  EXPECT_EQ(show(&operand(tritonMeta, 7)),
            "[dict(tuple(0), [['tt.divisibility', 16]], tuple(1), [['tt.divisibility', 16]])]");

  const ast::Expr &inductorMeta = *heuristics.keywords[3].value;
  ASSERT_EQ(inductorMeta.operands.size(), 42u);
  EXPECT_EQ(show(&operand(inductorMeta, 3)), "set()");
  EXPECT_EQ(show(&operand(inductorMeta, 7)), "[]");
  EXPECT_EQ(operand(inductorMeta, 9).kind, ExprKind::Bool);
  EXPECT_EQ(operand(inductorMeta, 26).text, "autotune_remote_cache");
  EXPECT_EQ(show(&operand(inductorMeta, 27)), "None");

  ASSERT_EQ(function.params.size(), 4u);
  EXPECT_EQ(function.params[3].name, "XBLOCK");
  expectPos(function.params[3].pos, 17, 56);
  EXPECT_EQ(show(function.params[3].annotation.get()), "tl.constexpr");
  EXPECT_EQ(function.params[0].annotation, nullptr);

  ASSERT_EQ(function.body.size(), 9u);
  EXPECT_EQ(show(function.body[1]->value.get()), "(tl.program_id(0) * XBLOCK)");
  EXPECT_EQ(show(function.body[2]->value.get()), "(xoffset + tl.arange(0, XBLOCK)[slice(_, _, _)])");
  EXPECT_EQ(show(function.body[5]->value.get()), "tl.load((in_ptr0 + x0), xmask)");
  EXPECT_EQ(show(function.body[6]->value.get()), "tl.full([1], 0, tl.int32)");
  const ast::Stmt &store = *function.body[8];
  EXPECT_EQ(store.kind, StmtKind::Expr);
  expectPos(store.pos, 26, 5);
  EXPECT_EQ(show(store.value.get()), "tl.store((out_ptr0 + x0), tmp2, xmask)");
  // `out_ptr0 + (x0)`: the argument starts at out_ptr0, its x0 inside parentheses.
  expectPos(store.value->operands[1]->pos, 26, 14);
  expectPos(store.value->operands[1]->operands[1]->pos, 26, 26);
}

TEST(Parser, ReductionKernelShape) {
  ast::Module module = parseSource(kReductionKernel);
  ASSERT_EQ(module.body.size(), 1u);
  const ast::FunctionDef &function = *module.body[0]->function;
  expectPos(module.body[0]->pos, 2, 1);
  EXPECT_EQ(function.params.size(), 6u);
  EXPECT_EQ(show(function.decorators[0]->keywords[1].value.get()), "ReductionHint.INNER");

  const ast::Stmt &annotated = *function.body[3];
  ASSERT_EQ(annotated.kind, StmtKind::AnnAssign);
  EXPECT_EQ(show(annotated.targets[0].get()), "RBLOCK");
  EXPECT_EQ(show(annotated.annotation.get()), "tl.constexpr");
  EXPECT_EQ(show(annotated.value.get()), "R0_BLOCK");

  EXPECT_EQ(show(function.body[5]->value.get()),
            "(xoffset + tl.arange(0, XBLOCK)[tuple(slice(_, _, _), None)])");
  EXPECT_EQ(show(function.body[7]->value.get()), "tl.arange(0, R0_BLOCK)[tuple(None, slice(_, _, _))]");
  EXPECT_EQ(show(function.body[9]->value.get()), "tl.full([XBLOCK, R0_BLOCK], float('-inf'), tl.float32)");

  const ast::Stmt &loop = *function.body[10];
  ASSERT_EQ(loop.kind, StmtKind::For);
  expectPos(loop.pos, 21, 5);
  EXPECT_EQ(show(loop.targets[0].get()), "r0_offset");
  EXPECT_EQ(show(loop.iter.get()), "range(0, r0_numel, R0_BLOCK)");
  ASSERT_EQ(loop.body.size(), 7u);
  EXPECT_TRUE(loop.orelse.empty());
  EXPECT_EQ(show(loop.body[3]->value.get()),
            "tl.load((in_ptr0 + (r0_1 + (2048 * x0))), (r0_mask & xmask), eviction_policy='evict_last', "
            "other=float(0.000000))");
  EXPECT_EQ(show(function.body[11]->value.get()),
            "triton_helpers.max2(_tmp2, 1)[tuple(slice(_, _, _), None)]");
  const ast::Expr &epsilon = operand(*function.body[12]->value->operands[1], 1);
  ASSERT_EQ(epsilon.kind, ExprKind::Float);
  EXPECT_DOUBLE_EQ(epsilon.floatValue, 1e-05);
}

TEST(Parser, TemplateKernelShape) {
  ast::Module module = parseSource(kTemplateKernel);
  const ast::FunctionDef &function = *module.body.at(0)->function;
  const ast::StmtList &body = function.body;
  ASSERT_EQ(body.size(), 39u);
  EXPECT_EQ(body[3]->kind, StmtKind::AnnAssign);
  EXPECT_EQ(show(body[3]->value.get()), "tl.float32");

  const ast::Stmt &earlyExit = *body[12];
  ASSERT_EQ(earlyExit.kind, StmtKind::If);
  EXPECT_EQ(show(earlyExit.test.get()), "((M * N) == 0)");
  ASSERT_EQ(earlyExit.body.size(), 1u);
  EXPECT_EQ(earlyExit.body[0]->kind, StmtKind::Return);
  EXPECT_EQ(earlyExit.body[0]->value, nullptr);
  expectPos(earlyExit.body[0]->pos, 18, 9);

  EXPECT_EQ(show(body[18]->value.get()), "(((M + BLOCK_M) - 1) // BLOCK_M)");
  expectPos(body[18]->value->pos, 26, 14);              // the '(' that opens the left operand
  expectPos(body[18]->value->operands[0]->pos, 26, 15); // inside it
  EXPECT_EQ(show(body[22]->value.get()), "min((grid_m - (group_id * GROUP_M)), GROUP_M)");

  const ast::Stmt &layout = *body[28];
  ASSERT_EQ(layout.kind, StmtKind::If);
  EXPECT_EQ(show(layout.test.get()), "((((stride_am == 1) and (stride_ak == M)) or ((stride_am == K) and "
                                     "(stride_ak == 1))) and (M >= BLOCK_M))");
  ASSERT_EQ(layout.orelse.size(), 1u);
  EXPECT_EQ(layout.orelse[0]->kind, StmtKind::Assign);

  EXPECT_EQ(show(body[31]->value.get()), "tl.zeros(tuple(BLOCK_M, BLOCK_N), dtype=ACC_TYPE)");
  const ast::Stmt &loop = *body[32];
  ASSERT_EQ(loop.kind, StmtKind::For);
  const ast::Stmt &accumulate = *loop.body.back();
  ASSERT_EQ(accumulate.kind, StmtKind::AugAssign);
  EXPECT_EQ(accumulate.augOp, ast::BinaryOperator::Add);
  EXPECT_EQ(show(accumulate.value.get()), "tl.dot(a, b, allow_tf32=ALLOW_TF32, out_dtype=ACC_TYPE)");
  EXPECT_EQ(show(body[36]->value.get()), "((idx_m < M) & (idx_n < N))");
  EXPECT_EQ(show(body[38]->value.get()),
            "tl.store((out_ptr0 + tl.broadcast_to(xindex, acc.shape)), acc, mask)");
}

TEST(Parser, HelperAndForeachKernelShape) {
  ast::Module module = parseSource(kHelperAndForeachKernel);
  ASSERT_EQ(module.body.size(), 3u);
  const ast::FunctionDef &helper = *module.body[0]->function;
  EXPECT_EQ(helper.name, "_triton_helper_fn_add0");
  ASSERT_EQ(helper.body.size(), 2u);
  EXPECT_EQ(show(helper.body[1]->value.get()), "tmp0");

  const ast::StmtList &body = module.body[1]->function->body;
  const ast::Stmt &scan = *body[13];
  ASSERT_EQ(scan.kind, StmtKind::Assign);
  EXPECT_EQ(show(scan.targets[0].get()), "tuple(tmp3)");
  EXPECT_EQ(show(scan.value.get()), "tl.associative_scan(tuple(tmp2), 1, _triton_helper_fn_add0)");
  const ast::Stmt &welford = *body[14];
  EXPECT_EQ(show(welford.targets[0].get()), "tuple(tmp4_mean, tmp4_m2, tmp4_weight)");
  EXPECT_EQ(show(body[18]->value.get()), "tl.device_assert((((0 <= tmp7) & (tmp7 < 50257)) | (~xmask)), "
                                         "'index out of bounds: 0 <= tmp7 < 50257')");
  EXPECT_EQ(show(body[19]->value.get()),
            "tl.load((in_ptr1 + tmp7), xmask, eviction_policy='evict_last').to(tl.float32, bitcast=True)");
  const ast::Expr &minimum = operand(*body[20]->value, 2);
  ASSERT_EQ(minimum.kind, ExprKind::Int);
  EXPECT_EQ(minimum.intValue, std::numeric_limits<int64_t>::min());
  expectPos(minimum.pos, 28, 25); // the '-' folded into the literal
  EXPECT_EQ(show(body[22]->value.get()), "tl.where(tmp10, float('nan'), (-(tmp8 ** 2)))");

  const ast::StmtList &foreach = module.body[2]->function->body;
  const ast::Stmt &branch = *foreach[4];
  ASSERT_EQ(branch.kind, StmtKind::If);
  EXPECT_EQ(branch.body.size(), 6u);
  ASSERT_EQ(branch.orelse.size(), 1u);
  const ast::Stmt &elif = *branch.orelse[0];
  ASSERT_EQ(elif.kind, StmtKind::If);
  expectPos(elif.pos, 46, 5);
  EXPECT_EQ(show(elif.test.get()), "(pid < num_xblocks_1)");
  ASSERT_EQ(elif.orelse.size(), 1u);
  EXPECT_EQ(elif.orelse[0]->kind, StmtKind::Pass);
}

// ---------------------------------------------------------------------------
// Precedence and expression forms.

TEST(Parser, Precedence) {
  EXPECT_EQ(showExpr("-x ** 2"), "(-(x ** 2))");
  EXPECT_EQ(showExpr("2 ** -1"), "(2 ** (-1))");
  EXPECT_EQ(showExpr("a ** b ** c"), "(a ** (b ** c))");
  EXPECT_EQ(showExpr("-a.b[0] ** -c(d)"), "(-(a.b[0] ** (-c(d))))");
  EXPECT_EQ(showExpr("a - b - c"), "((a - b) - c)");
  EXPECT_EQ(showExpr("a < b < c"), "(a < b < c)");
  EXPECT_EQ(showExpr("not a == b"), "(not (a == b))");
  EXPECT_EQ(showExpr("a if b else c"), "(a if b else c)");
  EXPECT_EQ(showExpr("a if b else c if d else e"), "(a if b else (c if d else e))");
  EXPECT_EQ(showExpr("a or b and c or d"), "(a or (b and c) or d)");
  EXPECT_EQ(showExpr("not a and not b"), "((not a) and (not b))");
  EXPECT_EQ(showExpr("a | b ^ c & d << e + f * g"), "(a | (b ^ (c & (d << (e + (f * g))))))");
  EXPECT_EQ(showExpr("a * b @ c / d // e % f"), "(((((a * b) @ c) / d) // e) % f)");
  EXPECT_EQ(showExpr("~a + +b - -c"), "(((~a) + (+b)) - (-c))");
  EXPECT_EQ(showExpr("a >> 1 << 2"), "((a >> 1) << 2)");
  EXPECT_EQ(showExpr("x is not None and y is None"), "((x is not None) and (y is None))");
  EXPECT_EQ(showExpr("a not in b in c"), "(a not in b in c)");
  EXPECT_EQ(showExpr("a <= b >= c != d == e > f"), "(a <= b >= c != d == e > f)");
  EXPECT_EQ(showExpr("(a + b) * c"), "((a + b) * c)");
  EXPECT_EQ(showExpr("f(a)(b)[c].d"), "f(a)(b)[c].d");
}

TEST(Parser, ExpressionPositions) {
  ast::ExprPtr product = parseExpr("(a + b) * c");
  expectPos(product->pos, 1, 1);
  expectPos(product->operands[0]->pos, 1, 2);
  expectPos(product->operands[1]->pos, 1, 11);

  ast::Module module = parseSource("x = -y ** 2\n  # indented comment\ns = \"\xC3\xA9\xE2\x82\xAC\"; t = 1\n");
  const ast::Expr &negation = *module.body[0]->value;
  expectPos(negation.pos, 1, 5);
  expectPos(negation.operands[0]->pos, 1, 6);
  expectPos(negation.operands[0]->operands[1]->pos, 1, 11);
  // Columns count characters, not bytes.
  expectPos(module.body[2]->pos, 3, 11);
  EXPECT_EQ(module.body[1]->value->text, "\xC3\xA9\xE2\x82\xAC");

  ast::ExprPtr call = parseExpr("f(x,\n  key=[1, (2, 3)])");
  expectPos(call->keywords[0].pos, 2, 3);
  expectPos(call->keywords[0].value->pos, 2, 7);
  expectPos(call->keywords[0].value->operands[1]->pos, 2, 11);

  ast::ExprPtr subscript = parseExpr("x[1:, ::2]");
  const ast::Expr &index = *subscript->operands[1];
  ASSERT_EQ(index.kind, ExprKind::Tuple);
  expectPos(index.pos, 1, 3);
  expectPos(index.operands[1]->pos, 1, 7);
  EXPECT_EQ(show(&index), "tuple(slice(1, _, _), slice(_, _, 2))");
}

TEST(Parser, Literals) {
  EXPECT_EQ(parseExpr("9223372036854775807")->intValue, std::numeric_limits<int64_t>::max());
  ast::ExprPtr minimum = parseExpr("-9223372036854775808");
  ASSERT_EQ(minimum->kind, ExprKind::Int);
  EXPECT_EQ(minimum->intValue, std::numeric_limits<int64_t>::min());
  EXPECT_EQ(showExpr("- -9223372036854775808"), "(--9223372036854775808)");
  EXPECT_EQ(showExpr("-0x8000000000000000"), "-9223372036854775808");
  EXPECT_EQ(showExpr("[0x_1F, 0o17, 0b1_01, 1_000, 0, 00, 0_0]"), "[31, 15, 5, 1000, 0, 0, 0]");
  EXPECT_DOUBLE_EQ(parseExpr("1e-06")->floatValue, 1e-06);
  EXPECT_DOUBLE_EQ(parseExpr("1.")->floatValue, 1.0);
  EXPECT_DOUBLE_EQ(parseExpr(".5")->floatValue, 0.5);
  EXPECT_DOUBLE_EQ(parseExpr("1_000.0")->floatValue, 1000.0);
  EXPECT_DOUBLE_EQ(parseExpr("1E+3")->floatValue, 1000.0);
  EXPECT_DOUBLE_EQ(parseExpr("007.5")->floatValue, 7.5);
  EXPECT_TRUE(std::isinf(parseExpr("1e999")->floatValue));
  EXPECT_EQ(parseExpr("inf")->kind, ExprKind::Name);
  EXPECT_EQ(showExpr("float('-inf')"), "float('-inf')");

  EXPECT_EQ(parseExpr(R"('a\n\t\\\'\"\x41\u00e9\101\q')")->text, "a\n\t\\'\"A\xC3\xA9"
                                                                 "A\\q");
  EXPECT_EQ(parseExpr(R"(r'\n\'' R"\d" u'x' U"y")")->text, "\\n\\'\\dxy");
  EXPECT_EQ(parseExpr("('abc' \"def\"\n 'g\\\nh')")->text, "abcdefgh");
  EXPECT_EQ(parseExpr("'''a\n'b'\"\"c'''")->text, "a\n'b'\"\"c");
  EXPECT_EQ(parseExpr("\"\"\"x\\\ny\"\"\"")->text, "xy");
  EXPECT_EQ(showExpr("[True, False, None, ...]"), "[True, False, None, ...]");
}

TEST(Parser, Displays) {
  EXPECT_EQ(showExpr("()"), "tuple()");
  EXPECT_EQ(showExpr("(a,)"), "tuple(a)");
  EXPECT_EQ(showExpr("(a)"), "a");
  EXPECT_EQ(showExpr("a, b,"), "tuple(a, b)");
  EXPECT_EQ(showExpr("[a, b,]"), "[a, b]");
  EXPECT_EQ(showExpr("{}"), "dict()");
  EXPECT_EQ(showExpr("{(0,): [1], 'k': {'v': 2},}"), "dict(tuple(0), [1], 'k', dict('v', 2))");
  EXPECT_EQ(showExpr("{a, b,}"), "set(a, b)");
  EXPECT_EQ(showExpr("f(a, b=1,)"), "f(a, b=1)");
  EXPECT_EQ(showExpr("x[a,]"), "x[tuple(a)]");
  EXPECT_EQ(showExpr("x[None, :, 1:2:3]"), "x[tuple(None, slice(_, _, _), slice(1, 2, 3))]");
  EXPECT_EQ(showExpr("x[::]"), "x[slice(_, _, _)]");
}

// ---------------------------------------------------------------------------
// Statements.

TEST(Parser, Statements) {
  ast::Module module = parseSource("a = b = c\n"
                             "(x, y) = z, w = f()\n"
                             "p: int\n"
                             "q[0] //= 2; r.s **= 3;\n"
                             "if a: return\n"
                             "for i, (j, k) in zip(a, b): x += 1\n"
                             "else: pass\n"
                             "while a: break\n"
                             "else: continue\n"
                             "from . import m\n"
                             "from ...pkg.mod import (a as b, c,)\n"
                             "import os, os.path as osp\n"
                             "assert x\n"
                             "del x, y[0], (z.a)\n"
                             "global g; nonlocal h, i\n"
                             "def f(a, b: int = 1, c=2,) -> None: return a, b\n");
  const ast::StmtList &body = module.body;
  ASSERT_EQ(body.size(), 16u);
  ASSERT_EQ(body[0]->kind, StmtKind::Assign);
  EXPECT_EQ(body[0]->targets.size(), 2u);
  EXPECT_EQ(show(body[0]->value.get()), "c");
  EXPECT_EQ(show(body[1]->targets[0].get()), "tuple(x, y)");
  EXPECT_EQ(show(body[1]->targets[1].get()), "tuple(z, w)");
  expectPos(body[1]->targets[1]->pos, 2, 10);
  EXPECT_EQ(body[2]->kind, StmtKind::AnnAssign);
  EXPECT_EQ(body[2]->value, nullptr);
  EXPECT_EQ(body[3]->augOp, ast::BinaryOperator::FloorDiv);
  EXPECT_EQ(body[4]->augOp, ast::BinaryOperator::Pow);
  expectPos(body[4]->pos, 4, 13);
  ASSERT_EQ(body[5]->kind, StmtKind::If);
  EXPECT_EQ(body[5]->body.at(0)->kind, StmtKind::Return);
  ASSERT_EQ(body[6]->kind, StmtKind::For);
  EXPECT_EQ(show(body[6]->targets[0].get()), "tuple(i, tuple(j, k))");
  EXPECT_EQ(body[6]->orelse.at(0)->kind, StmtKind::Pass);
  EXPECT_EQ(body[7]->orelse.at(0)->kind, StmtKind::Continue);
  EXPECT_EQ(body[8]->module, ".");
  EXPECT_EQ(body[9]->module, "...pkg.mod");
  EXPECT_EQ(body[9]->names, (std::vector<std::string>{"a", "c"}));
  EXPECT_EQ(body[9]->asNames, (std::vector<std::string>{"b", ""}));
  EXPECT_EQ(body[10]->names, (std::vector<std::string>{"os", "os.path"}));
  EXPECT_EQ(body[10]->asNames, (std::vector<std::string>{"", "osp"}));
  EXPECT_EQ(body[11]->kind, StmtKind::Assert);
  EXPECT_EQ(body[11]->value, nullptr);
  ASSERT_EQ(body[12]->kind, StmtKind::Delete);
  EXPECT_EQ(body[12]->targets.size(), 3u);
  EXPECT_EQ(body[13]->kind, StmtKind::Global);
  EXPECT_EQ(body[14]->names, (std::vector<std::string>{"h", "i"}));
  const ast::FunctionDef &f = *body[15]->function;
  ASSERT_EQ(f.params.size(), 3u);
  EXPECT_EQ(show(f.params[1].annotation.get()), "int");
  EXPECT_EQ(show(f.params[1].defaultValue.get()), "1");
  EXPECT_EQ(show(f.returns.get()), "None");
  EXPECT_EQ(show(f.body.at(0)->value.get()), "tuple(a, b)");
}

TEST(Parser, IfElifElse) {
  ast::Module module = parseSource("if a:\n    x = 1\nelif b:\n    x = 2\nelif c:\n    pass\nelse:\n    x = 3\n");
  ASSERT_EQ(module.body.size(), 1u);
  const ast::Stmt &top = *module.body[0];
  ASSERT_EQ(top.orelse.size(), 1u);
  const ast::Stmt &elif1 = *top.orelse[0];
  EXPECT_EQ(elif1.kind, StmtKind::If);
  expectPos(elif1.pos, 3, 1);
  ASSERT_EQ(elif1.orelse.size(), 1u);
  const ast::Stmt &elif2 = *elif1.orelse[0];
  EXPECT_EQ(show(elif2.test.get()), "c");
  ASSERT_EQ(elif2.orelse.size(), 1u);
  EXPECT_EQ(elif2.orelse[0]->kind, StmtKind::Assign);
}

TEST(Parser, LayoutRules) {
  // Empty files, comment-only files, no trailing newline, CRLF, form feeds,
  // tabs, backslash continuation, comments between continued lines.
  EXPECT_TRUE(parseSource("").body.empty());
  EXPECT_TRUE(parseSource("# only a comment").body.empty());
  EXPECT_TRUE(parseSource("\n\n   \n\t\n").body.empty());
  EXPECT_EQ(parseSource("x = 1").body.size(), 1u);
  ast::Module noNewline = parseSource("if x:\n    pass");
  EXPECT_EQ(noNewline.body.at(0)->body.size(), 1u);
  ast::Module crlf = parseSource("if x:\r\n  y = 1\r\n\r\nz = 2\r\n");
  ASSERT_EQ(crlf.body.size(), 2u);
  expectPos(crlf.body[1]->pos, 4, 1);
  ast::Module tabs = parseSource("if x:\n\tif y:\n\t\tpass\n\telse:\n\t  pass\nz = 1\n");
  ASSERT_EQ(tabs.body.size(), 2u);
  EXPECT_EQ(tabs.body[0]->body.at(0)->orelse.size(), 1u);
  ast::Module joined = parseSource("x = 1 + \\\n  2\ny = (1 +  # comment\n\n  2)\nz = [\n1,\n]\n");
  ASSERT_EQ(joined.body.size(), 3u);
  expectPos(joined.body[1]->pos, 3, 1);
  EXPECT_EQ(parseSource("\xEF\xBB\xBFx = 1\n").body.at(0)->pos.col, 1);
  EXPECT_EQ(parseSource("x = 1\n\f\ny = 2\n").body.size(), 2u);
  ast::Module dedents = parseSource("def f():\n  if a:\n    if b:\n      pass\nx = 1\n");
  EXPECT_EQ(dedents.body.size(), 2u);
}

// ---------------------------------------------------------------------------
// Real kernels, when the data folder holds them.

TEST(InductorKernels, EveryFileUnderTestDataParses) {
  const std::filesystem::path root = std::filesystem::path(NPUSIM_TEST_DATA) / "inductor_kernels";
  if (!std::filesystem::is_directory(root)) {
    std::printf("[   INFO   ] %s does not exist: no Inductor kernels to parse\n", root.c_str());
    return;
  }
  std::vector<std::filesystem::path> files;
  for (const auto &entry : std::filesystem::recursive_directory_iterator(root))
    if (entry.is_regular_file() && entry.path().extension() == ".py")
      files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  ASSERT_GE(files.size(), 1u) << root << " exists but holds no .py file";
  size_t parsed = 0;
  for (const auto &file : files) {
    std::ifstream in(file, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    try {
      ast::Module module = parseModule(text.str(), file.string());
      EXPECT_FALSE(module.body.empty()) << file;
      ++parsed;
    } catch (const core::CompileError &error) {
      ADD_FAILURE() << error.what();
    }
  }
  std::printf("[   INFO   ] parsed %zu of %zu Inductor kernels under %s\n", parsed, files.size(),
              root.c_str());
}

} // namespace
} // namespace npusim::triton
