// aten._cudnn_rnn of a one-layer LSTM in inference on the NPU: one program
// per direction runs the whole recurrence, the gate weights resident in the
// scratchpad (W_ih^T and W_hh^T as [in, H] and [H, H] tiles per gate) and h, c
// carried across the time steps:
//   gates = x_t W_ih^T + h W_hh^T + b_ih + b_hh   (four tl.dot pairs, i f g o)
//   c = sigmoid(f) c + sigmoid(i) tanh(g),  h = sigmoid(o) tanh(c)
// Several layers (which need the previous layer's whole output), GRU and RNN
// modes, packed input and training run on the host.
#include "library/planners.h"

namespace npusim::library::detail {

namespace {

constexpr std::string_view kOp = "aten._cudnn_rnn";

// Grid: (1, 1, 1). tanh(x) = 2 sigmoid(2x) - 1.
constexpr std::string_view kLstmSource = R"TRITON(
import triton
import triton.language as tl


@triton.jit
def {{NAME}}(x_ptr: "*fp32", wih_ptr: "*fp32", whh_ptr: "*fp32", bih_ptr: "*fp32", bhh_ptr: "*fp32",
             h0_ptr: "*fp32", c0_ptr: "*fp32", out_ptr: "*fp32", hy_ptr: "*fp32", cy_ptr: "*fp32",
             T: tl.constexpr, B: tl.constexpr, IN: tl.constexpr, H: tl.constexpr, REVERSE: tl.constexpr,
             SX_T: tl.constexpr, SX_B: tl.constexpr, SX_I: tl.constexpr,
             SWI_R: tl.constexpr, SWI_C: tl.constexpr, SWH_R: tl.constexpr, SWH_C: tl.constexpr,
             SBI: tl.constexpr, SBH: tl.constexpr,
             SH0_B: tl.constexpr, SH0_J: tl.constexpr, SC0_B: tl.constexpr, SC0_J: tl.constexpr,
             SO_T: tl.constexpr, SO_B: tl.constexpr, SO_J: tl.constexpr,
             SHY_B: tl.constexpr, SHY_J: tl.constexpr, SCY_B: tl.constexpr, SCY_J: tl.constexpr,
             WRITE_HY: tl.constexpr, WRITE_CY: tl.constexpr,
             BLOCK_B: tl.constexpr, BLOCK_I: tl.constexpr, BLOCK_H: tl.constexpr):
    rb = tl.arange(0, BLOCK_B)
    ri = tl.arange(0, BLOCK_I)
    rj = tl.arange(0, BLOCK_H)
    b_mask = rb < B
    i_mask = ri < IN
    j_mask = rj < H
    wi_mask = i_mask[:, None] & j_mask[None, :]
    wh_mask = j_mask[:, None] & j_mask[None, :]
    # Gate g's W_ih^T [in, H] and W_hh^T [H, H], and its two biases summed.
{{GATES}}
    bh_mask = b_mask[:, None] & j_mask[None, :]
    h = tl.load(h0_ptr + rb[:, None] * SH0_B + rj[None, :] * SH0_J, mask=bh_mask, other=0.0)
    c = tl.load(c0_ptr + rb[:, None] * SC0_B + rj[None, :] * SC0_J, mask=bh_mask, other=0.0)
    for s in range(0, T):
        t = s + REVERSE * (T - 1 - 2 * s)
        x = tl.load(x_ptr + t * SX_T + rb[:, None] * SX_B + ri[None, :] * SX_I,
                    mask=b_mask[:, None] & i_mask[None, :], other=0.0)
        a_i = tl.dot(x, wi_0, allow_tf32=False, out_dtype=tl.float32) + \
            tl.dot(h, wh_0, allow_tf32=False, out_dtype=tl.float32) + bias_0[None, :]
        a_f = tl.dot(x, wi_1, allow_tf32=False, out_dtype=tl.float32) + \
            tl.dot(h, wh_1, allow_tf32=False, out_dtype=tl.float32) + bias_1[None, :]
        a_g = tl.dot(x, wi_2, allow_tf32=False, out_dtype=tl.float32) + \
            tl.dot(h, wh_2, allow_tf32=False, out_dtype=tl.float32) + bias_2[None, :]
        a_o = tl.dot(x, wi_3, allow_tf32=False, out_dtype=tl.float32) + \
            tl.dot(h, wh_3, allow_tf32=False, out_dtype=tl.float32) + bias_3[None, :]
        gate_i = 1.0 / (1.0 + tl.exp(-a_i))
        gate_f = 1.0 / (1.0 + tl.exp(-a_f))
        gate_g = 2.0 / (1.0 + tl.exp(-2.0 * a_g)) - 1.0
        gate_o = 1.0 / (1.0 + tl.exp(-a_o))
        c = gate_f * c + gate_i * gate_g
        h = gate_o * (2.0 / (1.0 + tl.exp(-2.0 * c)) - 1.0)
        h = tl.where(bh_mask, h, 0.0)
        c = tl.where(bh_mask, c, 0.0)
        tl.store(out_ptr + t * SO_T + rb[:, None] * SO_B + rj[None, :] * SO_J, h, mask=bh_mask)
    if WRITE_HY:
        tl.store(hy_ptr + rb[:, None] * SHY_B + rj[None, :] * SHY_J, h, mask=bh_mask)
    if WRITE_CY:
        tl.store(cy_ptr + rb[:, None] * SCY_B + rj[None, :] * SCY_J, c, mask=bh_mask)
)TRITON";

constexpr std::string_view kGate =
    R"TRITON(    wi_{{G}} = tl.load(wih_ptr + ({{G}} * H + rj[None, :]) * SWI_R + ri[:, None] * SWI_C, mask=wi_mask, other=0.0)
    wh_{{G}} = tl.load(whh_ptr + ({{G}} * H + rj[None, :]) * SWH_R + rj[:, None] * SWH_C, mask=wh_mask, other=0.0)
    bias_{{G}} = tl.load(bih_ptr + ({{G}} * H + rj) * SBI, mask=j_mask, other=0.0) + \
        tl.load(bhh_ptr + ({{G}} * H + rj) * SBH, mask=j_mask, other=0.0)
)TRITON";

/// The 3-d view's strides with axis `a` first, then the others in order.
std::vector<int64_t> axisFirst(const TensorRef &t, size_t a) {
  std::vector<int64_t> r = {t.stride[a]};
  for (size_t i = 0; i < t.stride.size(); ++i)
    if (i != a)
      r.push_back(t.stride[i]);
  return r;
}

} // namespace

CallPlan planCudnnRnn(const CallArgs &call, const MachineShape &machine) {
  const TensorRef &input = call.tensor(0, "input");
  const std::vector<CallArgument> &weights = call.list(1, "weight");
  const int64_t stride0 = call.integer(2, "weight_stride0");
  const TensorRef *weightBuf = call.optionalTensor(3, "weight_buf");
  const TensorRef &hx = call.tensor(4, "hx");
  const TensorRef *cx = call.optionalTensor(5, "cx");
  const int64_t mode = call.integer(6, "mode"), hidden = call.integer(7, "hidden_size");
  const int64_t layers = call.integer(9, "num_layers");
  const bool batchFirst = call.boolean(10, "batch_first");
  const int64_t dirs = call.boolean(13, "bidirectional") ? 2 : 1;
  if (mode != 2 || layers != 1 || stride0 != 4 || !cx || call.integer(8, "proj_size") != 0 ||
      call.boolean(12, "train") || !call.integers(14, "batch_sizes").empty())
    fail(kOp, "the NPU kernel runs one-layer LSTMs with biases in inference (the host runs the rest)");
  if (static_cast<int64_t>(weights.size()) != dirs * 4)
    call.fail(1, "weight", "expected " + std::to_string(dirs * 4) + " tensors");
  expectRank(kOp, input, 3, "input");
  const int64_t steps = input.shape[batchFirst ? 1 : 0], batch = input.shape[batchFirst ? 0 : 1],
                inSize = input.shape[2];
  const TensorRef &out = call.out(0);
  const std::vector<int64_t> state = {dirs, batch, hidden};
  expectShape(kOp, hx, state, "hx");
  expectShape(kOp, *cx, state, "cx");
  expectShape(kOp, out,
              batchFirst ? std::vector<int64_t>{batch, steps, dirs * hidden}
                         : std::vector<int64_t>{steps, batch, dirs * hidden},
              "output");
  const TensorRef *hy = call.optionalOut(1), *cy = call.optionalOut(2);
  if (hy)
    expectShape(kOp, *hy, state, "hy");
  if (cy)
    expectShape(kOp, *cy, state, "cy");
  std::vector<const TensorRef *> reads = {&input, &hx, cx};
  for (size_t i = 0; i < weights.size(); ++i) {
    if (weights[i].kind != core::CallKind::Tensor)
      call.fail(1, "weight", "entry " + std::to_string(i) + " is not a tensor");
    const int64_t cols = i % 4 == 0 ? inSize : hidden;
    const TensorRef &w = weights[i].tensor;
    if (i % 4 < 2)
      expectShape(kOp, w, std::vector<int64_t>{4 * hidden, cols}, "weight");
    else
      expectShape(kOp, w, std::vector<int64_t>{4 * hidden}, "bias");
    reads.push_back(&w);
  }
  for (const TensorRef *t : reads) {
    if (t->dtype != core::DType::Float32)
      fail(kOp, "the NPU kernel takes fp32 tensors");
    checkIndexRange(kOp, *t, "an input");
  }
  for (const TensorRef *written : {&out, hy, cy})
    if (written) {
      if (written->dtype != core::DType::Float32)
        fail(kOp, "the NPU kernel writes fp32 tensors");
      checkIndexRange(kOp, *written, "a result");
      for (const TensorRef *r : reads)
        checkNoOverlap(kOp, *written, *r, "an input", false);
    }
  CallPlan plan;
  plan.outputDefined.assign(call.numOuts(), false);
  plan.outputDefined[0] = true;
  if (hy && plan.outputDefined.size() > 1)
    plan.outputDefined[1] = true;
  if (cy && plan.outputDefined.size() > 2)
    plan.outputDefined[2] = true;
  if (const TensorRef *reserve = call.optionalOut(3); reserve && numel(*reserve) != 0)
    fail(kOp, "reserve must be empty in inference");
  if (const TensorRef *buf = call.optionalOut(4)) {
    // The flat weight buffer is returned as given: its values are already there.
    if (!weightBuf || buf->buffer != weightBuf->buffer || buf->offset != weightBuf->offset ||
        buf->shape != weightBuf->shape || buf->stride != weightBuf->stride)
      fail(kOp, "the returned weight_buf is not the weight_buf given");
    if (plan.outputDefined.size() > 4)
      plan.outputDefined[4] = true;
  }
  if (steps == 0 || batch == 0 || hidden == 0)
    return plan;

  const int64_t blockB = blockFor(batch, 16, laneBlock(machine)), blockI = blockFor(inSize, 16, 1 << 20),
                blockH = blockFor(hidden, 16, 1 << 20);
  // The eight resident weight tiles, the four biases, x, h, c and the four gate tiles.
  const int64_t bytes =
      4 * (4 * (blockI * blockH + blockH * blockH + blockH) + blockB * blockI + 6 * blockB * blockH);
  if (blockB < batch || bytes > tileBudgetBytes(machine))
    fail(kOp, "the LSTM's weights and states do not fit the scratchpad");
  const std::vector<int64_t> xs = axisFirst(input, batchFirst ? 1 : 0),
                             os = axisFirst(out, batchFirst ? 1 : 0);
  std::string gates;
  for (int g = 0; g < 4; ++g)
    gates += instantiate(kGate, {{"G", std::to_string(g)}});
  gates.pop_back(); // the source's own line break follows
  const std::string name = "npusim_lstm";
  const std::string source = instantiate(kLstmSource, {{"NAME", name}, {"GATES", gates}});
  for (int64_t d = 0; d < dirs; ++d) {
    const TensorRef &wih = weights[static_cast<size_t>(4 * d)].tensor,
                    &whh = weights[static_cast<size_t>(4 * d + 1)].tensor;
    const TensorRef &bih = weights[static_cast<size_t>(4 * d + 2)].tensor,
                    &bhh = weights[static_cast<size_t>(4 * d + 3)].tensor;
    LaunchBuilder launch(name, source);
    launch.pointer(input).pointer(wih).pointer(whh).pointer(bih).pointer(bhh);
    launch.pointer(hx.buffer, hx.offset + d * hx.stride[0])
        .pointer(cx->buffer, cx->offset + d * cx->stride[0]);
    launch.pointer(out.buffer, out.offset + d * hidden * out.stride[2]);
    launch.pointer(hy ? hy->buffer : out.buffer, hy ? hy->offset + d * hy->stride[0] : out.offset);
    launch.pointer(cy ? cy->buffer : out.buffer, cy ? cy->offset + d * cy->stride[0] : out.offset);
    launch.constant("T", steps).constant("B", batch).constant("IN", inSize).constant("H", hidden);
    launch.constant("REVERSE", d);
    launch.constant("SX_T", xs[0]).constant("SX_B", xs[1]).constant("SX_I", xs[2]);
    launch.constant("SWI_R", wih.stride[0]).constant("SWI_C", wih.stride[1]);
    launch.constant("SWH_R", whh.stride[0]).constant("SWH_C", whh.stride[1]);
    launch.constant("SBI", bih.stride[0]).constant("SBH", bhh.stride[0]);
    launch.constant("SH0_B", hx.stride[1]).constant("SH0_J", hx.stride[2]);
    launch.constant("SC0_B", cx->stride[1]).constant("SC0_J", cx->stride[2]);
    launch.constant("SO_T", os[0]).constant("SO_B", os[1]).constant("SO_J", os[2]);
    launch.constant("SHY_B", hy ? hy->stride[1] : 0).constant("SHY_J", hy ? hy->stride[2] : 0);
    launch.constant("SCY_B", cy ? cy->stride[1] : 0).constant("SCY_J", cy ? cy->stride[2] : 0);
    launch.constant("WRITE_HY", hy ? 1 : 0).constant("WRITE_CY", cy ? 1 : 0);
    launch.constant("BLOCK_B", blockB).constant("BLOCK_I", blockI).constant("BLOCK_H", blockH);
    launch.grid(1, 1, 1);
    plan.launches.push_back(launch.build());
  }
  return plan;
}

} // namespace npusim::library::detail
