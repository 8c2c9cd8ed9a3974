// Scaled dot-product attention (the efficient, flash, cuDNN and CPU-flash
// aten kernels) as one flash-attention kernel: per block of queries, loop over
// blocks of keys with tl.dot for q k^T and p v on the systolic arrays and an
// online softmax on the vector unit (running max, rescaled sums), so the
// [L, S] score matrix never exists in full.
#include "library/planners.h"

#include "core/error.h"

#include <algorithm>
#include <cmath>
#include <optional>

namespace npusim::library::detail {

namespace {

// Grid: (cdiv(max(L, LSE_ROWS), BLOCK_L), heads, batch). Rows at or past L
// compute nothing that is stored but the +inf logsumexp padding.
constexpr std::string_view kAttentionSource = R"TRITON(
import triton
import triton.language as tl


@triton.jit
def {{NAME}}(q_ptr: "*{{Q}}", k_ptr: "*{{K}}", v_ptr: "*{{V}}", bias_ptr: "*{{BIAS}}", o_ptr: "*{{O}}",
             lse_ptr: "*{{LSE}}", scale: "fp32",
             KV_GROUP: tl.constexpr, L: tl.constexpr, S: tl.constexpr, E: tl.constexpr, EV: tl.constexpr,
             LSE_ROWS: tl.constexpr,
{{VIEWS}}
             SL_B: tl.constexpr, SL_H: tl.constexpr, SL_L: tl.constexpr,
             BIAS_KIND: tl.constexpr, IS_CAUSAL: tl.constexpr, WRITE_LSE: tl.constexpr, K_E_CONTIGUOUS: tl.constexpr,
             BLOCK_L: tl.constexpr, BLOCK_S: tl.constexpr, BLOCK_E: tl.constexpr, BLOCK_EV: tl.constexpr):
{{PROLOGUE}}
    q = tl.load(q_ptr + b * SQ_B + h * SQ_H + rl[:, None] * SQ_L + re[None, :] * SQ_E,
                mask=l_mask[:, None] & e_mask[None, :], other=0.0){{QK_CAST}}
    k_base = k_ptr + b * SK_B + hk * SK_H
    v_base = v_ptr + b * SV_B + hk * SV_H
    m_i = tl.full([BLOCK_L], float("-inf"), tl.float32)
    l_i = tl.zeros([BLOCK_L], dtype=tl.float32)
    acc = tl.zeros([BLOCK_L, BLOCK_EV], dtype=tl.float32)
    for s0 in range(0, S, BLOCK_S):
        cols = s0 + rs
        s_mask = cols < S
        if K_E_CONTIGUOUS:  # load keys as [S, E] rows, transpose in the scratchpad
            kt = tl.trans(tl.load(k_base + cols[:, None] * SK_S + re[None, :] * SK_E,
                                  mask=s_mask[:, None] & e_mask[None, :], other=0.0)){{QK_CAST}}
        else:
            kt = tl.load(k_base + cols[None, :] * SK_S + re[:, None] * SK_E,
                         mask=e_mask[:, None] & s_mask[None, :], other=0.0){{QK_CAST}}
        qk = tl.dot(q, kt, allow_tf32=False, out_dtype=tl.float32) * scale
        keep = l_mask[:, None] & s_mask[None, :]
        if BIAS_KIND == 1:
            bias = tl.load(bias_ptr + b * SM_B + h * SM_H + rl[:, None] * SM_L + cols[None, :] * SM_S,
                           mask=keep, other=0.0).to(tl.float32)
            qk = qk + bias
        if BIAS_KIND == 2:
            allowed = tl.load(bias_ptr + b * SM_B + h * SM_H + rl[:, None] * SM_L + cols[None, :] * SM_S,
                              mask=keep, other=0)
            keep = keep & (allowed != 0)
        if IS_CAUSAL:
            keep = keep & (cols[None, :] <= rl[:, None])
        qk = tl.where(keep, qk, float("-inf"))
        # Online softmax: rescale what was summed so far to the new running max.
        m_new = tl.maximum(m_i, tl.max(qk, 1))
        m_safe = tl.where(m_new == float("-inf"), 0.0, m_new)
        alpha = tl.exp(m_i - m_safe)
        p = tl.exp(qk - m_safe[:, None])
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(v_base + cols[:, None] * SV_S + rev[None, :] * SV_E,
                    mask=s_mask[:, None] & ev_mask[None, :], other=0.0).to(tl.float32)
        acc = acc * alpha[:, None] + tl.dot(p, v, allow_tf32=False, out_dtype=tl.float32)
        m_i = m_new
    # A row no key takes part in: 0, and a logsumexp of -inf.
    empty = l_i == 0.0
    l_div = tl.where(empty, 1.0, l_i)
    out = tl.where(empty[:, None], 0.0, acc / l_div[:, None])
    tl.store(o_ptr + b * SO_B + h * SO_H + rl[:, None] * SO_L + rev[None, :] * SO_E, out,
             mask=l_mask[:, None] & ev_mask[None, :])
    if WRITE_LSE:
        lse = tl.where(empty, float("-inf"), m_i + tl.log(l_div))
        lse = tl.where(l_mask, lse, float("inf"))
        tl.store(lse_ptr + b * SL_B + h * SL_H + rl * SL_L, lse, mask=rl < LSE_ROWS)
)TRITON";

// The same attention with the scores transposed: per block of keys the dot
// k q^T gives s^T [BLOCK_S, BLOCK_L], whose reductions over the keys run
// along each lane's slots on the vector unit (the queries have the lanes)
// instead of across the lanes, and the rescaling by the running max and sum
// is per lane; o^T += v^T p^T gives the output with the queries on the lanes
// too (docs/library-kernels.md, "Attention").
constexpr std::string_view kAttentionColumnsSource = R"TRITON(
import triton
import triton.language as tl


@triton.jit
def {{NAME}}(q_ptr: "*{{Q}}", k_ptr: "*{{K}}", v_ptr: "*{{V}}", bias_ptr: "*{{BIAS}}", o_ptr: "*{{O}}",
             lse_ptr: "*{{LSE}}", scale: "fp32",
             KV_GROUP: tl.constexpr, L: tl.constexpr, S: tl.constexpr, E: tl.constexpr, EV: tl.constexpr,
             LSE_ROWS: tl.constexpr,
{{VIEWS}}
             SL_B: tl.constexpr, SL_H: tl.constexpr, SL_L: tl.constexpr,
             BIAS_KIND: tl.constexpr, IS_CAUSAL: tl.constexpr, WRITE_LSE: tl.constexpr, K_E_CONTIGUOUS: tl.constexpr,
             BLOCK_L: tl.constexpr, BLOCK_S: tl.constexpr, BLOCK_E: tl.constexpr, BLOCK_EV: tl.constexpr):
{{PROLOGUE}}
    qt = tl.load(q_ptr + b * SQ_B + h * SQ_H + rl[None, :] * SQ_L + re[:, None] * SQ_E,
                 mask=e_mask[:, None] & l_mask[None, :], other=0.0){{QK_CAST}}
    k_base = k_ptr + b * SK_B + hk * SK_H
    v_base = v_ptr + b * SV_B + hk * SV_H
    m_i = tl.full([BLOCK_L], float("-inf"), tl.float32)
    l_i = tl.zeros([BLOCK_L], dtype=tl.float32)
    acc = tl.zeros([BLOCK_EV, BLOCK_L], dtype=tl.float32)
    for s0 in range(0, S, BLOCK_S):
        cols = s0 + rs
        s_mask = cols < S
        kk = tl.load(k_base + cols[:, None] * SK_S + re[None, :] * SK_E,
                     mask=s_mask[:, None] & e_mask[None, :], other=0.0){{QK_CAST}}
        st = tl.dot(kk, qt, allow_tf32=False, out_dtype=tl.float32) * scale
        keep = s_mask[:, None] & l_mask[None, :]
        if BIAS_KIND == 1:
            bias = tl.load(bias_ptr + b * SM_B + h * SM_H + rl[None, :] * SM_L + cols[:, None] * SM_S,
                           mask=keep, other=0.0).to(tl.float32)
            st = st + bias
        if BIAS_KIND == 2:
            allowed = tl.load(bias_ptr + b * SM_B + h * SM_H + rl[None, :] * SM_L + cols[:, None] * SM_S,
                              mask=keep, other=0)
            keep = keep & (allowed != 0)
        if IS_CAUSAL:
            keep = keep & (cols[:, None] <= rl[None, :])
        st = tl.where(keep, st, float("-inf"))
        # Online softmax over the keys (axis 0): rescale what was summed so far.
        m_new = tl.maximum(m_i, tl.max(st, 0))
        m_safe = tl.where(m_new == float("-inf"), 0.0, m_new)
        alpha = tl.exp(m_i - m_safe)
        pt = tl.exp(st - m_safe[None, :])
        l_i = l_i * alpha + tl.sum(pt, 0)
        vt = tl.load(v_base + cols[None, :] * SV_S + rev[:, None] * SV_E,
                     mask=ev_mask[:, None] & s_mask[None, :], other=0.0).to(tl.float32)
        acc = acc * alpha[None, :] + tl.dot(vt, pt, allow_tf32=False, out_dtype=tl.float32)
        m_i = m_new
    # A row no key takes part in: 0, and a logsumexp of -inf.
    empty = l_i == 0.0
    l_div = tl.where(empty, 1.0, l_i)
    out = tl.where(empty[None, :], 0.0, acc / l_div[None, :])
    tl.store(o_ptr + b * SO_B + h * SO_H + rl[None, :] * SO_L + rev[:, None] * SO_E, out,
             mask=ev_mask[:, None] & l_mask[None, :])
    if WRITE_LSE:
        lse = tl.where(empty, float("-inf"), m_i + tl.log(l_div))
        lse = tl.where(l_mask, lse, float("inf"))
        tl.store(lse_ptr + b * SL_B + h * SL_H + rl * SL_L, lse, mask=rl < LSE_ROWS)
)TRITON";

} // namespace

// The view strides' constexpr parameters of q, k, v, the mask and the output,
// and the start of a program over one block of queries.
const std::string_view kAttentionViewParameters =
    R"TRITON(             SQ_B: tl.constexpr, SQ_H: tl.constexpr, SQ_L: tl.constexpr, SQ_E: tl.constexpr,
             SK_B: tl.constexpr, SK_H: tl.constexpr, SK_S: tl.constexpr, SK_E: tl.constexpr,
             SV_B: tl.constexpr, SV_H: tl.constexpr, SV_S: tl.constexpr, SV_E: tl.constexpr,
             SM_B: tl.constexpr, SM_H: tl.constexpr, SM_L: tl.constexpr, SM_S: tl.constexpr,
             SO_B: tl.constexpr, SO_H: tl.constexpr, SO_L: tl.constexpr, SO_E: tl.constexpr,)TRITON";
const std::string_view kAttentionQueryPrologue = R"TRITON(    pid_l = tl.program_id(0)
    h = tl.program_id(1)
    b = tl.program_id(2)
    hk = h // KV_GROUP
    rl = pid_l * BLOCK_L + tl.arange(0, BLOCK_L)
    rs = tl.arange(0, BLOCK_S)
    re = tl.arange(0, BLOCK_E)
    rev = tl.arange(0, BLOCK_EV)
    l_mask = rl < L
    e_mask = re < E
    ev_mask = rev < EV)TRITON";

AttentionSizes attentionSizes(std::string_view op, const TensorRef &q, const TensorRef &k,
                              const TensorRef &v) {
  AttentionSizes z{q.shape[0], q.shape[1], q.shape[2], q.shape[3], k.shape[1], k.shape[2], v.shape[3]};
  if (k.shape[0] != z.batch || v.shape[0] != z.batch || v.shape[1] != z.kvHeads || v.shape[2] != z.s ||
      k.shape[3] != z.e)
    fail(op, "query " + shapeString(q.shape) + ", key " + shapeString(k.shape) + " and value " +
                 shapeString(v.shape) + " do not agree");
  if (z.kvHeads == 0 || z.heads % z.kvHeads != 0)
    fail(op, "query has " + std::to_string(z.heads) + " heads, not a multiple of key's " +
                 std::to_string(z.kvHeads));
  return z;
}

LseLayout lseLayout(std::string_view op, const TensorRef &lse, int64_t batch, int64_t heads, int64_t l) {
  LseLayout layout;
  if (numel(lse) == 0)
    return layout;
  if (lse.shape.size() == 3 && lse.shape[0] == batch && lse.shape[1] == heads && lse.shape[2] >= l)
    return {lse.shape[2], lse.stride[0], lse.stride[1], lse.stride[2]};
  if (numel(lse) == batch * heads * l) {
    // Match the axes other than size-1 ones with B, H, L (size-1 ones of those get stride 0).
    const int64_t wanted[3] = {batch, heads, l};
    int64_t strides[3] = {0, 0, 0};
    size_t axis = 0;
    bool ok = true;
    for (int k = 0; k < 3 && ok; ++k) {
      if (wanted[k] == 1)
        continue;
      while (axis < lse.shape.size() && lse.shape[axis] == 1)
        ++axis;
      if (axis == lse.shape.size() || lse.shape[axis] != wanted[k])
        ok = false;
      else
        strides[k] = lse.stride[axis++];
    }
    if (ok)
      return {l, strides[0], strides[1], strides[2]};
  }
  fail(op, "logsumexp has shape " + shapeString(lse.shape) + "; expected [" + std::to_string(batch) + ", " +
               std::to_string(heads) + ", " + std::to_string(l) + "] (or a padded last axis)");
}

CallPlan planAttention(const CallArgs &call, const MachineShape &machine) {
  // The variants differ in where their arguments sit (core::findSchema): an
  // additive mask as attn_bias or attn_mask or none, compute_log_sumexp or
  // always a logsumexp.
  const std::string_view op = call.op();
  const TensorRef &q = call.tensor(0, "query");
  const TensorRef &k = call.tensor(1, "key");
  const TensorRef &v = call.tensor(2, "value");
  const TensorRef *mask = nullptr;
  for (const char *name : {"attn_bias", "attn_mask"})
    if (const std::optional<size_t> at = call.position(name))
      mask = call.optionalTensor(*at, name);
  const std::optional<size_t> lseAt = call.position("compute_log_sumexp");
  const bool wantLse = lseAt ? call.boolean(*lseAt, "compute_log_sumexp") : true;
  const size_t dropoutAt = call.position("dropout_p").value_or(0);
  const double dropout = call.number(dropoutAt, "dropout_p");
  if (dropout != 0.0)
    call.fail(dropoutAt, "dropout_p",
              "dropout_p=" + std::to_string(dropout) + ": attention dropout is random and not supported");
  const bool isCausal = call.boolean(call.position("is_causal").value_or(0), "is_causal");
  const std::optional<double> scaleArg = call.optionalNumber(call.position("scale").value_or(0), "scale");
  const TensorRef &out = call.out(0);
  const TensorRef *lse = wantLse ? call.optionalOut(1) : nullptr;

  expectRank(op, q, 4, "query");
  expectRank(op, k, 4, "key");
  expectRank(op, v, 4, "value");
  using Named = std::pair<const TensorRef *, const char *>;
  const Named operands[] = {{&q, "query"}, {&k, "key"}, {&v, "value"}, {&out, "output"}};
  for (const auto &[t, what] : operands)
    expectFloat(op, *t, what);
  const AttentionSizes sizes = attentionSizes(op, q, k, v);
  const int64_t batch = sizes.batch, heads = sizes.heads, l = sizes.l, e = sizes.e;
  const int64_t kvHeads = sizes.kvHeads, s = sizes.s, ev = sizes.ev;
  const std::vector<int64_t> outShape = {batch, heads, l, ev};
  expectShape(op, out, outShape, "output");
  TensorRef bias;
  int biasKind = 0;
  if (mask) {
    const std::vector<int64_t> scoreShape = {batch, heads, l, s};
    bias = broadcastTo(op, *mask, scoreShape, "attn_bias");
    if (mask->dtype == core::DType::Bool)
      biasKind = 2;
    else {
      expectFloat(op, *mask, "attn_bias");
      biasKind = 1;
    }
    checkIndexRange(op, bias, "attn_bias");
  }
  LseLayout lseRows;
  if (lse) {
    expectFloat(op, *lse, "logsumexp");
    lseRows = lseLayout(op, *lse, batch, heads, l);
    checkIndexRange(op, *lse, "logsumexp");
  }
  for (const auto &[t, what] : operands)
    checkIndexRange(op, *t, what);
  for (const TensorRef *written : {&out, lse ? lse : &out}) {
    if (!written)
      continue;
    checkNoOverlap(op, *written, q, "query", false);
    checkNoOverlap(op, *written, k, "key", false);
    checkNoOverlap(op, *written, v, "value", false);
    if (mask)
      checkNoOverlap(op, *written, *mask, "attn_bias", false);
  }
  if (lse)
    checkNoOverlap(op, *lse, out, "output", false);

  CallPlan plan;
  plan.outputDefined.assign(call.numOuts(), false);
  plan.outputDefined[0] = true;
  if (lse && plan.outputDefined.size() > 1)
    plan.outputDefined[1] = true;
  const int64_t rows = std::max(l, lseRows.rows);
  if (batch == 0 || heads == 0 || rows == 0 || (ev == 0 && lseRows.rows == 0))
    return plan;

  // Blocks: the embeddings whole; keys by up to four arrays' widths (fewer
  // iterations of the online softmax, whose reductions and rescaling cost
  // per iteration: 12 heads of 512 x 64 at tpuv3-like took 348.9 k cycles
  // with blocks of 128 keys, 246.2 k with 512); queries by lanes; queries
  // halved (then keys) until q, k^T, v, the scores, p and the accumulator fit.
  const int64_t lane = laneBlock(machine);
  const bool sameQk = q.dtype == k.dtype;
  const int64_t qkBytes = core::byteSize(sameQk ? q.dtype : core::DType::Float32);
  const int64_t blockE = blockFor(e, 16, int64_t{1} << 20), blockEv = blockFor(ev, 16, int64_t{1} << 20);
  int64_t blockL = blockFor(rows, 16, lane), blockS = blockFor(s, 16, 4 * lane);
  auto bytes = [&] {
    return blockL * blockE * qkBytes + blockE * blockS * qkBytes + blockS * blockEv * 4 +
           2 * blockL * blockS * 4 + blockL * blockEv * 4;
  };
  while (bytes() > tileBudgetBytes(machine) && (blockL > 16 || blockS > 16))
    (blockL >= blockS && blockL > 16 ? blockL : blockS) /= 2;

  const core::DType biasType = mask ? mask->dtype : out.dtype;
  const core::DType lseType = lse ? lse->dtype : out.dtype;
  // Scores by query rows (the default) or transposed, by key rows, as asked
  // (MachineShape::attentionKernel; the runtime times both).
  const std::string &asked = machine.attentionKernel;
  if (!asked.empty() && std::find(attentionKernels().begin(), attentionKernels().end(), asked) ==
                            attentionKernels().end())
    throw core::RuntimeError("attention kernel '" + asked + "' is not one of rows, columns");
  const bool columns = asked == "columns";
  const std::string name = std::string(columns ? "npusim_attention_columns_" : "npusim_attention_") +
                           tritonType(q.dtype) + "_" + tritonType(k.dtype) + "_" + tritonType(v.dtype) + "_" +
                           tritonType(biasType) + "_" + tritonType(out.dtype) + "_" + tritonType(lseType);
  LaunchBuilder launch(name,
                       instantiate(columns ? kAttentionColumnsSource : kAttentionSource, {{"NAME", name},
                                                      {"VIEWS", std::string(kAttentionViewParameters)},
                                                      {"PROLOGUE", std::string(kAttentionQueryPrologue)},
                                                      {"Q", tritonType(q.dtype)},
                                                      {"K", tritonType(k.dtype)},
                                                      {"V", tritonType(v.dtype)},
                                                      {"BIAS", tritonType(biasType)},
                                                      {"O", tritonType(out.dtype)},
                                                      {"LSE", tritonType(lseType)},
                                                      {"QK_CAST", sameQk ? "" : ".to(tl.float32)"}}));
  const double scale = scaleArg ? *scaleArg : 1.0 / std::sqrt(static_cast<double>(e));
  launch.pointer(q).pointer(k).pointer(v);
  launch.pointer(mask ? mask->buffer : out.buffer, mask ? bias.offset : out.offset);
  launch.pointer(out);
  launch.pointer(lse ? lse->buffer : out.buffer, lse ? lse->offset : out.offset);
  launch.floatScalar(scale);
  launch.constant("KV_GROUP", heads / kvHeads)
      .constant("L", l)
      .constant("S", s)
      .constant("E", e)
      .constant("EV", ev);
  launch.constant("LSE_ROWS", lseRows.rows);
  const std::pair<const TensorRef *, const char *> views[] = {
      {&q, "SQ"}, {&k, "SK"}, {&v, "SV"}, {&out, "SO"}};
  for (const auto &[t, prefix] : views) {
    const char *axes[] = {"_B", "_H", "_L", "_E"};
    const char *kAxes[] = {"_B", "_H", "_S", "_E"};
    for (size_t i = 0; i < 4; ++i)
      launch.constant(std::string(prefix) + (t == &k || t == &v ? kAxes[i] : axes[i]), t->stride[i]);
  }
  const char *maskAxes[] = {"SM_B", "SM_H", "SM_L", "SM_S"};
  for (size_t i = 0; i < 4; ++i)
    launch.constant(maskAxes[i], mask ? bias.stride[i] : 0);
  launch.constant("SL_B", lseRows.strideB)
      .constant("SL_H", lseRows.strideH)
      .constant("SL_L", lseRows.strideL);
  launch.constant("BIAS_KIND", biasKind).constant("IS_CAUSAL", isCausal ? 1 : 0);
  launch.constant("WRITE_LSE", lseRows.rows > 0 ? 1 : 0);
  launch.constant("K_E_CONTIGUOUS", k.stride[3] == 1 && k.stride[2] != 1 && e > 1 ? 1 : 0);
  launch.constant("BLOCK_L", blockL)
      .constant("BLOCK_S", blockS)
      .constant("BLOCK_E", blockE)
      .constant("BLOCK_EV", blockEv);
  launch.grid(ceilDiv(rows, blockL), heads, batch);
  plan.launches.push_back(launch.build());
  return plan;
}

} // namespace npusim::library::detail
