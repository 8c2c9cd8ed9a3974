// The attention backward kernels (efficient, flash, cuDNN and CPU-flash
// backward) in FlashAttention-2's form: the probabilities are recomputed per
// tile from q, k and the forward's logsumexp, P = exp(S - lse), and
// D = rowsum(dO * O) comes from the forward's output, so no [L, S] matrix is
// stored (the efficient kernel's bias gradient, dS itself, is stored per tile
// when asked for). Two launches:
//   query gradient, per block of queries over blocks of keys:
//     dS = P * (dO v^T - D),  dQ += dS k * scale
//   key and value gradients, per block of keys over the query heads of its
//   key head and blocks of queries, in the transposed orientation
//   (S^T = k q^T, so every product is a plain tl.dot):
//     dV += P^T dO,  dS^T = P^T * (v dO^T - D),  dK += dS^T q * scale
#include "library/planners.h"

#include <algorithm>
#include <cmath>
#include <optional>

namespace npusim::library::detail {

namespace {

// Shared by both kernels: the scores of a [rows, cols] tile with the mask and
// causality applied ({{ROW}} indexes queries, {{COL}} keys, in the tile's own
// orientation), then P = exp(S - lse) (0 where the key takes no part).
constexpr std::string_view kProbabilities = R"TRITON(
        keep = {{KEEP}}
        if BIAS_KIND == 1:
            qk = qk + tl.load(bias_ptr + b * SM_B + h * SM_H + {{ROW}} * SM_L + {{COL}} * SM_S,
                              mask=keep, other=0.0).to(tl.float32)
        if BIAS_KIND == 2:
            allowed = tl.load(bias_ptr + b * SM_B + h * SM_H + {{ROW}} * SM_L + {{COL}} * SM_S,
                              mask=keep, other=0)
            keep = keep & (allowed != 0)
        if IS_CAUSAL:
            keep = keep & ({{COL}} <= {{ROW}})
        p = tl.where(keep, tl.exp(qk - {{LSE}}), 0.0)
)TRITON";

// Grid: (cdiv(L, BLOCK_L), heads, batch).
constexpr std::string_view kQuerySource = R"TRITON(
import triton
import triton.language as tl


@triton.jit
def {{NAME}}(q_ptr: "*{{T}}", k_ptr: "*{{T}}", v_ptr: "*{{T}}", bias_ptr: "*{{BIAS}}", o_ptr: "*{{T}}",
             do_ptr: "*{{T}}", lse_ptr: "*{{LSE}}", dq_ptr: "*{{T}}", scale: "fp32",
             KV_GROUP: tl.constexpr, L: tl.constexpr, S: tl.constexpr, E: tl.constexpr, EV: tl.constexpr,
{{VIEWS}}
             SD_B: tl.constexpr, SD_H: tl.constexpr, SD_L: tl.constexpr, SD_E: tl.constexpr,
             SL_B: tl.constexpr, SL_H: tl.constexpr, SL_L: tl.constexpr,
             SG_B: tl.constexpr, SG_H: tl.constexpr, SG_L: tl.constexpr, SG_E: tl.constexpr,
             BIAS_KIND: tl.constexpr, IS_CAUSAL: tl.constexpr,
             BLOCK_L: tl.constexpr, BLOCK_S: tl.constexpr, BLOCK_E: tl.constexpr, BLOCK_EV: tl.constexpr):
{{PROLOGUE}}
    q = tl.load(q_ptr + b * SQ_B + h * SQ_H + rl[:, None] * SQ_L + re[None, :] * SQ_E,
                mask=l_mask[:, None] & e_mask[None, :], other=0.0).to(tl.float32)
    lev = l_mask[:, None] & ev_mask[None, :]
    do = tl.load(do_ptr + b * SD_B + h * SD_H + rl[:, None] * SD_L + rev[None, :] * SD_E, mask=lev,
                 other=0.0).to(tl.float32)
    o = tl.load(o_ptr + b * SO_B + h * SO_H + rl[:, None] * SO_L + rev[None, :] * SO_E, mask=lev,
                other=0.0).to(tl.float32)
    delta = tl.sum(do * o, 1)
    lse = tl.load(lse_ptr + b * SL_B + h * SL_H + rl * SL_L, mask=l_mask, other=0.0).to(tl.float32)
    lse = tl.where(lse == float("-inf"), 0.0, lse)
    dq = tl.zeros([BLOCK_L, BLOCK_E], dtype=tl.float32)
    for s0 in range(0, S, BLOCK_S):
        cols = s0 + rs
        s_mask = cols < S
        kt = tl.load(k_ptr + b * SK_B + hk * SK_H + cols[None, :] * SK_S + re[:, None] * SK_E,
                     mask=e_mask[:, None] & s_mask[None, :], other=0.0).to(tl.float32)
        kr = tl.load(k_ptr + b * SK_B + hk * SK_H + cols[:, None] * SK_S + re[None, :] * SK_E,
                     mask=s_mask[:, None] & e_mask[None, :], other=0.0).to(tl.float32)
        vt = tl.load(v_ptr + b * SV_B + hk * SV_H + cols[None, :] * SV_S + rev[:, None] * SV_E,
                     mask=ev_mask[:, None] & s_mask[None, :], other=0.0).to(tl.float32)
        qk = tl.dot(q, kt, allow_tf32=False, out_dtype=tl.float32) * scale
{{PROBABILITIES}}
        dp = tl.dot(do, vt, allow_tf32=False, out_dtype=tl.float32)
        ds = p * (dp - delta[:, None])
        dq += tl.dot(ds, kr, allow_tf32=False, out_dtype=tl.float32)
    tl.store(dq_ptr + b * SG_B + h * SG_H + rl[:, None] * SG_L + re[None, :] * SG_E, dq * scale,
             mask=l_mask[:, None] & e_mask[None, :])
)TRITON";

// Grid: (cdiv(S, BLOCK_S), key heads, batch).
constexpr std::string_view kKeyValueSource = R"TRITON(
import triton
import triton.language as tl


@triton.jit
def {{NAME}}(q_ptr: "*{{T}}", k_ptr: "*{{T}}", v_ptr: "*{{T}}", bias_ptr: "*{{BIAS}}", o_ptr: "*{{T}}",
             do_ptr: "*{{T}}", lse_ptr: "*{{LSE}}", dk_ptr: "*{{T}}", dv_ptr: "*{{T}}", db_ptr: "*{{DB}}",
             scale: "fp32",
             KV_GROUP: tl.constexpr, L: tl.constexpr, S: tl.constexpr, E: tl.constexpr, EV: tl.constexpr,
{{VIEWS}}
             SD_B: tl.constexpr, SD_H: tl.constexpr, SD_L: tl.constexpr, SD_E: tl.constexpr,
             SL_B: tl.constexpr, SL_H: tl.constexpr, SL_L: tl.constexpr,
             SGK_B: tl.constexpr, SGK_H: tl.constexpr, SGK_S: tl.constexpr, SGK_E: tl.constexpr,
             SGV_B: tl.constexpr, SGV_H: tl.constexpr, SGV_S: tl.constexpr, SGV_E: tl.constexpr,
             SB_B: tl.constexpr, SB_H: tl.constexpr, SB_L: tl.constexpr, SB_S: tl.constexpr,
             BIAS_KIND: tl.constexpr, IS_CAUSAL: tl.constexpr, WRITE_K: tl.constexpr, WRITE_V: tl.constexpr,
             WRITE_BIAS: tl.constexpr,
             BLOCK_L: tl.constexpr, BLOCK_S: tl.constexpr, BLOCK_E: tl.constexpr, BLOCK_EV: tl.constexpr):
    pid_s = tl.program_id(0)
    hk = tl.program_id(1)
    b = tl.program_id(2)
    cols = pid_s * BLOCK_S + tl.arange(0, BLOCK_S)
    rl0 = tl.arange(0, BLOCK_L)
    re = tl.arange(0, BLOCK_E)
    rev = tl.arange(0, BLOCK_EV)
    s_mask = cols < S
    e_mask = re < E
    ev_mask = rev < EV
    kr = tl.load(k_ptr + b * SK_B + hk * SK_H + cols[:, None] * SK_S + re[None, :] * SK_E,
                 mask=s_mask[:, None] & e_mask[None, :], other=0.0).to(tl.float32)
    vr = tl.load(v_ptr + b * SV_B + hk * SV_H + cols[:, None] * SV_S + rev[None, :] * SV_E,
                 mask=s_mask[:, None] & ev_mask[None, :], other=0.0).to(tl.float32)
    dk = tl.zeros([BLOCK_S, BLOCK_E], dtype=tl.float32)
    dv = tl.zeros([BLOCK_S, BLOCK_EV], dtype=tl.float32)
    for g in range(0, KV_GROUP):
        h = hk * KV_GROUP + g
        for l0 in range(0, L, BLOCK_L):
            rl = l0 + rl0
            l_mask = rl < L
            lev = l_mask[:, None] & ev_mask[None, :]
            qt = tl.load(q_ptr + b * SQ_B + h * SQ_H + rl[None, :] * SQ_L + re[:, None] * SQ_E,
                         mask=e_mask[:, None] & l_mask[None, :], other=0.0).to(tl.float32)
            qr = tl.load(q_ptr + b * SQ_B + h * SQ_H + rl[:, None] * SQ_L + re[None, :] * SQ_E,
                         mask=l_mask[:, None] & e_mask[None, :], other=0.0).to(tl.float32)
            do = tl.load(do_ptr + b * SD_B + h * SD_H + rl[:, None] * SD_L + rev[None, :] * SD_E, mask=lev,
                         other=0.0).to(tl.float32)
            dot_ = tl.load(do_ptr + b * SD_B + h * SD_H + rl[None, :] * SD_L + rev[:, None] * SD_E,
                           mask=ev_mask[:, None] & l_mask[None, :], other=0.0).to(tl.float32)
            o = tl.load(o_ptr + b * SO_B + h * SO_H + rl[:, None] * SO_L + rev[None, :] * SO_E, mask=lev,
                        other=0.0).to(tl.float32)
            delta = tl.sum(do * o, 1)
            lse = tl.load(lse_ptr + b * SL_B + h * SL_H + rl * SL_L, mask=l_mask, other=0.0).to(tl.float32)
            lse = tl.where(lse == float("-inf"), 0.0, lse)
            qk = tl.dot(kr, qt, allow_tf32=False, out_dtype=tl.float32) * scale
{{PROBABILITIES}}
            dv += tl.dot(p, do, allow_tf32=False, out_dtype=tl.float32)
            dp = tl.dot(vr, dot_, allow_tf32=False, out_dtype=tl.float32)
            ds = p * (dp - delta[None, :])
            dk += tl.dot(ds, qr, allow_tf32=False, out_dtype=tl.float32)
            if WRITE_BIAS:  # each (b, h, query, key) belongs to one tile of one program
                tl.store(db_ptr + b * SB_B + h * SB_H + rl[None, :] * SB_L + cols[:, None] * SB_S, ds,
                         mask=s_mask[:, None] & l_mask[None, :])
    if WRITE_K:
        tl.store(dk_ptr + b * SGK_B + hk * SGK_H + cols[:, None] * SGK_S + re[None, :] * SGK_E, dk * scale,
                 mask=s_mask[:, None] & e_mask[None, :])
    if WRITE_V:
        tl.store(dv_ptr + b * SGV_B + hk * SGV_H + cols[:, None] * SGV_S + rev[None, :] * SGV_E, dv,
                 mask=s_mask[:, None] & ev_mask[None, :])
)TRITON";

/// The probabilities block, indented for a loop nest of `depth` levels.
std::string probabilities(bool transposed, int depth) {
  const std::string text = transposed
                               ? instantiate(kProbabilities, {{"KEEP", "s_mask[:, None] & l_mask[None, :]"},
                                                              {"ROW", "rl[None, :]"},
                                                              {"COL", "cols[:, None]"},
                                                              {"LSE", "lse[None, :]"}})
                               : instantiate(kProbabilities, {{"KEEP", "l_mask[:, None] & s_mask[None, :]"},
                                                              {"ROW", "rl[:, None]"},
                                                              {"COL", "cols[None, :]"},
                                                              {"LSE", "lse[:, None]"}});
  const std::string pad(static_cast<size_t>(4 * (depth - 2)), ' ');
  std::string out;
  size_t start = 0;
  while (start < text.size()) {
    const size_t end = text.find('\n', start);
    const std::string line = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (!line.empty())
      out += pad + line + "\n";
    start = end == std::string::npos ? text.size() : end + 1;
  }
  if (!out.empty())
    out.pop_back();
  return out;
}

/// PREFIX_B, PREFIX_H, PREFIX_<row>, PREFIX_<last>: the strides of a 4-d view (0 without one).
void strides(LaunchBuilder &launch, const std::string &prefix, const TensorRef *t, const char *row,
             const char *last = "E") {
  const std::string axes[] = {"_B", "_H", std::string("_") + row, std::string("_") + last};
  for (size_t i = 0; i < 4; ++i)
    launch.constant(prefix + axes[i], t ? t->stride[i] : 0);
}

} // namespace

CallPlan planAttentionBackward(const CallArgs &call, const MachineShape &machine) {
  const std::string_view op = call.op();
  const size_t dropoutAt = *call.position("dropout_p");
  const double dropout = call.number(dropoutAt, "dropout_p");
  if (dropout != 0.0)
    call.fail(dropoutAt, "dropout_p",
              "dropout_p=" + std::to_string(dropout) + ": the attention dropout mask is not recorded");
  const size_t gradAt = call.position("grad_out_").value_or(0);
  const TensorRef &gradOut = call.tensor(gradAt, call.position("grad_out_") ? "grad_out_" : "grad_out");
  const TensorRef &q = call.tensor(1, "query");
  const TensorRef &k = call.tensor(2, "key");
  const TensorRef &v = call.tensor(3, "value");
  const TensorRef &out = call.tensor(*call.position("out"), "out");
  const TensorRef &lse = call.tensor(*call.position("logsumexp"), "logsumexp");
  const TensorRef *mask = nullptr;
  for (const char *name : {"attn_bias", "attn_mask"})
    if (const std::optional<size_t> at = call.position(name))
      mask = call.optionalTensor(*at, name);
  const bool isCausal = call.boolean(*call.position("is_causal"), "is_causal");
  const std::optional<double> scaleArg = call.optionalNumber(*call.position("scale"), "scale");
  const TensorRef *dbias = nullptr; // the efficient kernel's grad_attn_bias, when asked for
  if (const std::optional<size_t> at = call.position("grad_input_mask")) {
    const std::vector<CallArgument> &bits = call.list(*at, "grad_input_mask");
    if (bits.size() == 4 && bits[3].kind == core::CallKind::Bool && bits[3].boolValue)
      dbias = call.optionalOut(3);
  }
  const TensorRef *dq = call.optionalOut(0), *dk = call.optionalOut(1), *dv = call.optionalOut(2);

  for (const auto &[t, what] :
       {std::pair{&q, "query"}, {&k, "key"}, {&v, "value"}, {&out, "out"}, {&gradOut, "grad_out"}}) {
    expectRank(op, *t, 4, what);
    expectFloat(op, *t, what);
    checkIndexRange(op, *t, what);
  }
  const core::DType type = q.dtype;
  for (const TensorRef *t : {&k, &v, &out, &gradOut, dq, dk, dv, dbias})
    if (t && t->dtype != type)
      fail(op, "the attention backward kernels take one dtype for query, key, value, out, grad_out and "
               "the gradients");
  const AttentionSizes sizes = attentionSizes(op, q, k, v);
  const int64_t batch = sizes.batch, heads = sizes.heads, l = sizes.l, e = sizes.e;
  const int64_t kvHeads = sizes.kvHeads, s = sizes.s, ev = sizes.ev;
  const std::vector<int64_t> outShape = {batch, heads, l, ev};
  expectShape(op, out, outShape, "out");
  expectShape(op, gradOut, outShape, "grad_out");
  const LseLayout lseRows = lseLayout(op, lse, batch, heads, l);
  if (lseRows.rows < l)
    fail(op, "logsumexp has no rows: the forward did not compute it");
  checkIndexRange(op, lse, "logsumexp");
  TensorRef bias;
  int biasKind = 0;
  if (mask) {
    const std::vector<int64_t> scoreShape = {batch, heads, l, s};
    bias = broadcastTo(op, *mask, scoreShape, "attn_bias");
    biasKind = mask->dtype == core::DType::Bool ? 2 : 1;
    if (biasKind == 1)
      expectFloat(op, *mask, "attn_bias");
    checkIndexRange(op, bias, "attn_bias");
  }
  const std::pair<const TensorRef *, const char *> grads[] = {
      {dq, "grad_query"}, {dk, "grad_key"}, {dv, "grad_value"}};
  const std::vector<int64_t> shapes[] = {q.shape, k.shape, v.shape};
  for (size_t i = 0; i < 3; ++i) {
    const auto &[g, what] = grads[i];
    if (!g)
      continue;
    expectShape(op, *g, shapes[i], what);
    checkIndexRange(op, *g, what);
    for (const auto &[t, name] : {std::pair{&q, "query"},
                                  {&k, "key"},
                                  {&v, "value"},
                                  {&out, "out"},
                                  {&gradOut, "grad_out"},
                                  {&lse, "logsumexp"}})
      checkNoOverlap(op, *g, *t, name, false);
    if (mask)
      checkNoOverlap(op, *g, *mask, "attn_bias", false);
  }

  if (dbias) {
    // One store per score: the gradient must be a full [B, H, L, S] view of
    // distinct elements (a broadcast one would sum: the host does that).
    if (biasKind != 1)
      fail(op, "grad_attn_bias is asked for, but there is no additive attn_bias");
    const std::vector<int64_t> scoreShape = {batch, heads, l, s};
    expectShape(op, *dbias, scoreShape, "grad_attn_bias");
    std::vector<std::pair<int64_t, int64_t>> axes; // (stride, size) of the axes longer than 1
    for (size_t i = 0; i < 4; ++i)
      if (dbias->shape[i] > 1)
        axes.emplace_back(dbias->stride[i], dbias->shape[i]);
    std::sort(axes.begin(), axes.end());
    for (size_t i = 0; i < axes.size(); ++i)
      if (axes[i].first <= 0 || (i > 0 && axes[i].first < axes[i - 1].first * axes[i - 1].second))
        fail(op, "grad_attn_bias " + shapeString(dbias->shape) + " with strides " +
                     shapeString(dbias->stride) +
                     " names an element twice: the NPU kernel stores each score once");
    checkIndexRange(op, *dbias, "grad_attn_bias");
    for (const TensorRef *t : {&q, &k, &v, &out, &gradOut, &lse, mask})
      checkNoOverlap(op, *dbias, *t, "an input", false);
  }

  CallPlan plan;
  plan.outputDefined.assign(call.numOuts(), false);
  for (size_t i = 0; i < 3 && i < plan.outputDefined.size(); ++i)
    plan.outputDefined[i] = grads[i].first != nullptr;
  if (dbias && plan.outputDefined.size() > 3)
    plan.outputDefined[3] = true;
  if (batch == 0 || heads == 0 || l == 0 || s == 0)
    fail(op, "empty attention has no NPU kernel");

  // Blocks as the forward's: embeddings whole, rows and keys by lanes, halved
  // until q, q^T, k, k^T, v^T, dO, O, the scores, P, dP, dS and the accumulator fit.
  const int64_t lane = laneBlock(machine);
  const int64_t blockE = blockFor(e, 16, int64_t{1} << 20), blockEv = blockFor(ev, 16, int64_t{1} << 20);
  int64_t blockL = blockFor(l, 16, lane), blockS = blockFor(s, 16, lane);
  auto bytes = [&] {
    return 4 * (2 * blockL * blockE + 2 * blockS * blockE + 2 * blockS * blockEv + 3 * blockL * blockEv +
                4 * blockL * blockS + blockS * (blockE + blockEv));
  };
  while (bytes() > tileBudgetBytes(machine) && (blockL > 16 || blockS > 16))
    (blockL >= blockS && blockL > 16 ? blockL : blockS) /= 2;
  const double scale = scaleArg ? *scaleArg : 1.0 / std::sqrt(static_cast<double>(e));
  const std::string types =
      tritonType(type) + "_" + tritonType(mask ? mask->dtype : type) + "_" + tritonType(lse.dtype);
  const auto common = [&](LaunchBuilder &launch) {
    launch.pointer(q).pointer(k).pointer(v);
    launch.pointer(mask ? mask->buffer : out.buffer, mask ? bias.offset : out.offset);
    launch.pointer(out).pointer(gradOut).pointer(lse);
  };
  const auto constants = [&](LaunchBuilder &launch) {
    launch.constant("KV_GROUP", heads / kvHeads)
        .constant("L", l)
        .constant("S", s)
        .constant("E", e)
        .constant("EV", ev);
    strides(launch, "SQ", &q, "L");
    strides(launch, "SK", &k, "S");
    strides(launch, "SV", &v, "S");
    strides(launch, "SM", mask ? &bias : nullptr, "L", "S");
    strides(launch, "SO", &out, "L");
    strides(launch, "SD", &gradOut, "L");
    launch.constant("SL_B", lseRows.strideB)
        .constant("SL_H", lseRows.strideH)
        .constant("SL_L", lseRows.strideL);
  };
  const auto blocks = [&](LaunchBuilder &launch) {
    launch.constant("BIAS_KIND", biasKind).constant("IS_CAUSAL", isCausal ? 1 : 0);
  };
  const auto blockSizes = [&](LaunchBuilder &launch) {
    launch.constant("BLOCK_L", blockL)
        .constant("BLOCK_S", blockS)
        .constant("BLOCK_E", blockE)
        .constant("BLOCK_EV", blockEv);
  };
  if (dq) {
    const std::string name = "npusim_attention_dq_" + types;
    LaunchBuilder launch(name,
                         instantiate(kQuerySource, {{"NAME", name},
                                                    {"T", tritonType(type)},
                                                    {"BIAS", tritonType(mask ? mask->dtype : type)},
                                                    {"LSE", tritonType(lse.dtype)},
                                                    {"PROBABILITIES", probabilities(false, 2)},
                                                    {"VIEWS", std::string(kAttentionViewParameters)},
                                                    {"PROLOGUE", std::string(kAttentionQueryPrologue)}}));
    common(launch);
    launch.pointer(*dq).floatScalar(scale);
    constants(launch);
    strides(launch, "SG", dq, "L");
    blocks(launch);
    blockSizes(launch);
    launch.grid(ceilDiv(l, blockL), heads, batch);
    plan.launches.push_back(launch.build());
  }
  if (dk || dv || dbias) {
    const std::string name = "npusim_attention_dkv_" + types;
    LaunchBuilder launch(name,
                         instantiate(kKeyValueSource, {{"NAME", name},
                                                       {"T", tritonType(type)},
                                                       {"BIAS", tritonType(mask ? mask->dtype : type)},
                                                       {"LSE", tritonType(lse.dtype)},
                                                       {"DB", tritonType(type)},
                                                       {"PROBABILITIES", probabilities(true, 3)},
                                                       {"VIEWS", std::string(kAttentionViewParameters)}}));
    common(launch);
    // A gradient not asked for is not stored: another result stands in for its pointer.
    const TensorRef &any = dk ? *dk : dv ? *dv : *dbias;
    launch.pointer(dk ? *dk : any).pointer(dv ? *dv : any).pointer(dbias ? *dbias : any).floatScalar(scale);
    constants(launch);
    strides(launch, "SGK", dk ? dk : dv, "S");
    strides(launch, "SGV", dv ? dv : dk, "S");
    strides(launch, "SB", dbias, "L", "S");
    blocks(launch);
    launch.constant("WRITE_K", dk ? 1 : 0)
        .constant("WRITE_V", dv ? 1 : 0)
        .constant("WRITE_BIAS", dbias ? 1 : 0);
    blockSizes(launch);
    launch.grid(ceilDiv(s, blockS), kvHeads, batch);
    plan.launches.push_back(launch.build());
  }
  return plan;
}

} // namespace npusim::library::detail
