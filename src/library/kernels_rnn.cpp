// aten._cudnn_rnn in inference on the NPU: LSTM, GRU and the tanh and ReLU
// RNNs, any number of layers, one or two directions. One program per layer and
// direction runs that layer's whole recurrence, the gate weights resident in
// the scratchpad (W_ih^T and W_hh^T as [in, H] and [H, H] tiles per gate) and
// the states carried across the time steps; each step is a GEMM pair per gate
// on the systolic array and the gates on the vector unit:
//   LSTM  (i f g o): c = sigmoid(f) c + sigmoid(i) tanh(g),  h = sigmoid(o) tanh(c)
//   GRU   (r z n):   n = tanh(x W_in + b_in + sigmoid(r) (h W_hn + b_hn)),
//                    h = (1 - sigmoid(z)) n + sigmoid(z) h
//   RNN:             h = tanh or relu(x W_ih + b_ih + h W_hh + b_hh)
// Layer l > 0 reads both directions' outputs of layer l - 1, which the plan
// keeps in scratch buffers (two, alternating). Packed input, projections and
// training run on the host.
#include "library/planners.h"

namespace npusim::library::detail {

namespace {

constexpr std::string_view kRnnOp = "aten._cudnn_rnn";

// cuDNN's mode numbers (cudnnRNNMode_t), as PyTorch passes them.
enum Mode : int64_t { RnnRelu = 0, RnnTanh = 1, Lstm = 2, Gru = 3 };

// Grid: (1, 1, 1). tanh(x) = 2 sigmoid(2x) - 1. {{STEP}} computes h (and c)
// from x and the previous h; {{STATE}} and {{FINISH}} load and store the cell
// state of an LSTM.
constexpr std::string_view kRecurrenceSource = R"TRITON(
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
    # Gate g's W_ih^T [in, H] and W_hh^T [H, H], and its biases.
{{WEIGHTS}}
    bh_mask = b_mask[:, None] & j_mask[None, :]
    h = tl.load(h0_ptr + rb[:, None] * SH0_B + rj[None, :] * SH0_J, mask=bh_mask, other=0.0)
{{STATE}}    for s in range(0, T):
        t = s + REVERSE * (T - 1 - 2 * s)
        x = tl.load(x_ptr + t * SX_T + rb[:, None] * SX_B + ri[None, :] * SX_I,
                    mask=b_mask[:, None] & i_mask[None, :], other=0.0)
{{STEP}}
        tl.store(out_ptr + t * SO_T + rb[:, None] * SO_B + rj[None, :] * SO_J, h, mask=bh_mask)
    if WRITE_HY:
        tl.store(hy_ptr + rb[:, None] * SHY_B + rj[None, :] * SHY_J, h, mask=bh_mask)
{{FINISH}})TRITON";

constexpr std::string_view kGateWeights =
    R"TRITON(    wi_{{G}} = tl.load(wih_ptr + ({{G}} * H + rj[None, :]) * SWI_R + ri[:, None] * SWI_C, mask=wi_mask, other=0.0)
    wh_{{G}} = tl.load(whh_ptr + ({{G}} * H + rj[None, :]) * SWH_R + rj[:, None] * SWH_C, mask=wh_mask, other=0.0)
)TRITON";
// Both biases of a gate summed once, where the gate adds them.
constexpr std::string_view kGateBias =
    R"TRITON(    bias_{{G}} = tl.load(bih_ptr + ({{G}} * H + rj) * SBI, mask=j_mask, other=0.0) + \
        tl.load(bhh_ptr + ({{G}} * H + rj) * SBH, mask=j_mask, other=0.0)
)TRITON";
// The GRU's new gate, which scales the hidden half by the reset gate.
constexpr std::string_view kNewGateBiases =
    R"TRITON(    bias_in = tl.load(bih_ptr + (2 * H + rj) * SBI, mask=j_mask, other=0.0)
    bias_hn = tl.load(bhh_ptr + (2 * H + rj) * SBH, mask=j_mask, other=0.0)
)TRITON";

constexpr std::string_view kCellState =
    R"TRITON(    c = tl.load(c0_ptr + rb[:, None] * SC0_B + rj[None, :] * SC0_J, mask=bh_mask, other=0.0)
)TRITON";
constexpr std::string_view kCellStore = R"TRITON(    if WRITE_CY:
        tl.store(cy_ptr + rb[:, None] * SCY_B + rj[None, :] * SCY_J, c, mask=bh_mask)
)TRITON";

std::string dot(std::string_view operand, std::string_view weight, int g) {
  return "tl.dot(" + std::string(operand) + ", " + std::string(weight) + "_" + std::to_string(g) +
         ", allow_tf32=False, out_dtype=tl.float32)";
}

/// `a = x W_ih^T + h W_hh^T (+ both biases)` of gate g, as one statement.
std::string preActivation(std::string_view a, int g, bool biases) {
  return "        " + std::string(a) + " = " + dot("x", "wi", g) + " + \\\n            " + dot("h", "wh", g) +
         (biases ? " + bias_" + std::to_string(g) + "[None, :]" : "") + "\n";
}

std::string sigmoid(std::string_view gate, std::string_view a) {
  return "        " + std::string(gate) + " = 1.0 / (1.0 + tl.exp(-" + std::string(a) + "))\n";
}

/// The source of one mode's recurrence kernel, and its name (unique per source).
std::pair<std::string, std::string> recurrenceSource(int64_t mode, bool biases) {
  const int gates = mode == Lstm ? 4 : mode == Gru ? 3 : 1;
  std::string weights, step, state, finish;
  for (int g = 0; g < gates; ++g) {
    weights += instantiate(kGateWeights, {{"G", std::to_string(g)}});
    if (biases && !(mode == Gru && g == 2))
      weights += instantiate(kGateBias, {{"G", std::to_string(g)}});
  }
  if (biases && mode == Gru)
    weights += kNewGateBiases;
  std::string name;
  if (mode == Lstm) {
    name = "npusim_lstm";
    step = preActivation("a_i", 0, biases) + preActivation("a_f", 1, biases) +
           preActivation("a_g", 2, biases) + preActivation("a_o", 3, biases) + sigmoid("gate_i", "a_i") +
           sigmoid("gate_f", "a_f") + "        gate_g = 2.0 / (1.0 + tl.exp(-2.0 * a_g)) - 1.0\n" +
           sigmoid("gate_o", "a_o") +
           "        c = gate_f * c + gate_i * gate_g\n"
           "        h = gate_o * (2.0 / (1.0 + tl.exp(-2.0 * c)) - 1.0)\n"
           "        h = tl.where(bh_mask, h, 0.0)\n"
           "        c = tl.where(bh_mask, c, 0.0)\n";
    state = kCellState;
    finish = kCellStore;
  } else if (mode == Gru) {
    name = "npusim_gru";
    step = preActivation("a_r", 0, biases) + preActivation("a_z", 1, biases) +
           "        x_n = " + dot("x", "wi", 2) + (biases ? " + bias_in[None, :]" : "") +
           "\n        h_n = " + dot("h", "wh", 2) + (biases ? " + bias_hn[None, :]" : "") + "\n" +
           sigmoid("gate_r", "a_r") + sigmoid("gate_z", "a_z") +
           "        gate_n = 2.0 / (1.0 + tl.exp(-2.0 * (x_n + gate_r * h_n))) - 1.0\n"
           "        h = (1.0 - gate_z) * gate_n + gate_z * h\n"
           "        h = tl.where(bh_mask, h, 0.0)\n";
  } else {
    name = mode == RnnTanh ? "npusim_rnn_tanh" : "npusim_rnn_relu";
    step = preActivation("a", 0, biases) +
           (mode == RnnTanh ? "        h = 2.0 / (1.0 + tl.exp(-2.0 * a)) - 1.0\n"
                            : "        h = tl.maximum(a, 0.0)\n") +
           "        h = tl.where(bh_mask, h, 0.0)\n";
  }
  if (!biases)
    name += "_nobias";
  weights.pop_back(); // the source's own line breaks follow
  step.pop_back();
  return {name,
          instantiate(
              kRecurrenceSource,
              {{"NAME", name}, {"WEIGHTS", weights}, {"STATE", state}, {"STEP", step}, {"FINISH", finish}})};
}

/// The 3-d view's strides with axis `a` first, then the others in order.
std::vector<int64_t> axisFirst(const TensorRef &t, size_t a) {
  std::vector<int64_t> r = {t.stride[a]};
  for (size_t i = 0; i < t.stride.size(); ++i)
    if (i != a)
      r.push_back(t.stride[i]);
  return r;
}

/// State tensor `t` ([layers * dirs, B, H]) at entry `at`: its pointer's buffer and offset.
std::pair<int, int64_t> stateEntry(const TensorRef &t, int64_t at) {
  return {t.buffer, t.offset + at * t.stride[0]};
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
  if (mode < RnnRelu || mode > Gru)
    call.fail(6, "mode", "unknown RNN mode " + std::to_string(mode) + " (0 relu, 1 tanh, 2 LSTM, 3 GRU)");
  if (call.integer(8, "proj_size") != 0 || call.boolean(12, "train") ||
      !call.integers(14, "batch_sizes").empty())
    fail(kRnnOp,
         "the NPU kernels run inference without projections or packed sequences (the host runs the rest)");
  if (mode == Lstm && !cx)
    call.fail(5, "cx", "an LSTM needs its initial cell state");
  if (stride0 != 2 && stride0 != 4)
    call.fail(2, "weight_stride0", "expected 2 (no biases) or 4, got " + std::to_string(stride0));
  if (layers < 1)
    call.fail(9, "num_layers", "expected at least one layer, got " + std::to_string(layers));
  if (static_cast<int64_t>(weights.size()) != layers * dirs * stride0)
    call.fail(1, "weight", "expected " + std::to_string(layers * dirs * stride0) + " tensors");
  const bool biases = stride0 == 4;
  const int64_t gates = mode == Lstm ? 4 : mode == Gru ? 3 : 1;
  expectRank(kRnnOp, input, 3, "input");
  const int64_t steps = input.shape[batchFirst ? 1 : 0], batch = input.shape[batchFirst ? 0 : 1],
                inSize = input.shape[2];
  const TensorRef &out = call.out(0);
  const std::vector<int64_t> state = {layers * dirs, batch, hidden};
  expectShape(kRnnOp, hx, state, "hx");
  if (mode == Lstm)
    expectShape(kRnnOp, *cx, state, "cx");
  expectShape(kRnnOp, out,
              batchFirst ? std::vector<int64_t>{batch, steps, dirs * hidden}
                         : std::vector<int64_t>{steps, batch, dirs * hidden},
              "output");
  const TensorRef *hy = call.optionalOut(1), *cy = mode == Lstm ? call.optionalOut(2) : nullptr;
  if (hy)
    expectShape(kRnnOp, *hy, state, "hy");
  if (cy)
    expectShape(kRnnOp, *cy, state, "cy");
  std::vector<const TensorRef *> reads = {&input, &hx};
  if (mode == Lstm)
    reads.push_back(cx);
  for (size_t i = 0; i < weights.size(); ++i) {
    if (weights[i].kind != core::CallKind::Tensor)
      call.fail(1, "weight", "entry " + std::to_string(i) + " is not a tensor");
    const int64_t layer = static_cast<int64_t>(i) / (dirs * stride0), k = static_cast<int64_t>(i) % stride0;
    const int64_t cols = k == 0 ? (layer == 0 ? inSize : dirs * hidden) : hidden;
    const TensorRef &w = weights[i].tensor;
    if (k < 2)
      expectShape(kRnnOp, w, std::vector<int64_t>{gates * hidden, cols}, k == 0 ? "w_ih" : "w_hh");
    else
      expectShape(kRnnOp, w, std::vector<int64_t>{gates * hidden}, "bias");
    reads.push_back(&w);
  }
  for (const TensorRef *t : reads) {
    if (t->dtype != core::DType::Float32)
      fail(kRnnOp, "the NPU kernels take fp32 tensors");
    checkIndexRange(kRnnOp, *t, "an input");
  }
  for (const TensorRef *written : {&out, hy, cy})
    if (written) {
      if (written->dtype != core::DType::Float32)
        fail(kRnnOp, "the NPU kernels write fp32 tensors");
      checkIndexRange(kRnnOp, *written, "a result");
      for (const TensorRef *r : reads)
        checkNoOverlap(kRnnOp, *written, *r, "an input", false);
    }
  CallPlan plan;
  plan.outputDefined.assign(call.numOuts(), false);
  plan.outputDefined[0] = true;
  if (hy && plan.outputDefined.size() > 1)
    plan.outputDefined[1] = true;
  if (cy && plan.outputDefined.size() > 2)
    plan.outputDefined[2] = true;
  if (const TensorRef *reserve = call.optionalOut(3); reserve && numel(*reserve) != 0)
    fail(kRnnOp, "reserve must be empty in inference");
  if (const TensorRef *buf = call.optionalOut(4)) {
    // The flat weight buffer is returned as given: its values are already there.
    if (!weightBuf || buf->buffer != weightBuf->buffer || buf->offset != weightBuf->offset ||
        buf->shape != weightBuf->shape || buf->stride != weightBuf->stride)
      fail(kRnnOp, "the returned weight_buf is not the weight_buf given");
    if (plan.outputDefined.size() > 4)
      plan.outputDefined[4] = true;
  }
  if (steps == 0 || batch == 0 || hidden == 0)
    return plan;

  const int64_t blockB = blockFor(batch, 16, laneBlock(machine)), blockH = blockFor(hidden, 16, 1 << 20);
  if (blockB < batch)
    fail(kRnnOp, "the batch of " + std::to_string(batch) + " is wider than the lane block");
  const auto [name, source] = recurrenceSource(mode, biases);
  // Layer l < layers - 1 writes scratch buffer l % 2, [T, B, D*H] row-major,
  // which layer l + 1 reads.
  const int scratchBase = scratchBufferBase(call.values(), call.outs());
  const int64_t width = dirs * hidden;
  const std::vector<int64_t> scratchStrides = {batch * width, width, 1};
  for (int64_t i = 0; i < std::min<int64_t>(layers - 1, 2); ++i)
    plan.scratch.push_back({core::DType::Float32, steps * batch * width});
  const std::vector<int64_t> inputStrides = axisFirst(input, batchFirst ? 1 : 0),
                             outStrides = axisFirst(out, batchFirst ? 1 : 0);
  for (int64_t l = 0; l < layers; ++l) {
    const int64_t layerIn = l == 0 ? inSize : width;
    const int64_t blockI = blockFor(layerIn, 16, 1 << 20);
    // The resident weight tiles and biases, x, h, c and the gate tiles.
    const int64_t bytes = 4 * (gates * (blockI * blockH + blockH * blockH) + (gates + 1) * blockH +
                               blockB * blockI + (gates + 2) * blockB * blockH);
    if (bytes > tileBudgetBytes(machine))
      fail(kRnnOp, "layer " + std::to_string(l) + "'s weights and states (" + std::to_string(bytes) +
                    " bytes) do not fit half the scratchpad (" + std::to_string(tileBudgetBytes(machine)) +
                    ")");
    const bool last = l == layers - 1;
    const int readBuffer = l == 0 ? input.buffer : scratchBase + static_cast<int>((l - 1) % 2);
    const int64_t readOffset = l == 0 ? input.offset : 0;
    const std::vector<int64_t> &xs = l == 0 ? inputStrides : scratchStrides;
    const int writeBuffer = last ? out.buffer : scratchBase + static_cast<int>(l % 2);
    const int64_t writeOffset = last ? out.offset : 0;
    const std::vector<int64_t> &os = last ? outStrides : scratchStrides;
    for (int64_t d = 0; d < dirs; ++d) {
      const int64_t at = l * dirs + d;
      const size_t first = static_cast<size_t>(at * stride0);
      const TensorRef &wih = weights[first].tensor, &whh = weights[first + 1].tensor;
      // Without biases the bias pointers are never read.
      const TensorRef &bih = biases ? weights[first + 2].tensor : wih,
                      &bhh = biases ? weights[first + 3].tensor : whh;
      const TensorRef &c0 = mode == Lstm ? *cx : hx;
      LaunchBuilder launch(name, source);
      launch.pointer(readBuffer, readOffset).pointer(wih).pointer(whh).pointer(bih).pointer(bhh);
      const auto [h0Buffer, h0Offset] = stateEntry(hx, at);
      const auto [c0Buffer, c0Offset] = stateEntry(c0, at);
      launch.pointer(h0Buffer, h0Offset).pointer(c0Buffer, c0Offset);
      launch.pointer(writeBuffer, writeOffset + d * hidden * os[2]);
      const auto [hyBuffer, hyOffset] = hy ? stateEntry(*hy, at) : std::pair{out.buffer, out.offset};
      const auto [cyBuffer, cyOffset] = cy ? stateEntry(*cy, at) : std::pair{out.buffer, out.offset};
      launch.pointer(hyBuffer, hyOffset).pointer(cyBuffer, cyOffset);
      launch.constant("T", steps).constant("B", batch).constant("IN", layerIn).constant("H", hidden);
      launch.constant("REVERSE", d);
      launch.constant("SX_T", xs[0]).constant("SX_B", xs[1]).constant("SX_I", xs[2]);
      launch.constant("SWI_R", wih.stride[0]).constant("SWI_C", wih.stride[1]);
      launch.constant("SWH_R", whh.stride[0]).constant("SWH_C", whh.stride[1]);
      launch.constant("SBI", biases ? bih.stride[0] : 0).constant("SBH", biases ? bhh.stride[0] : 0);
      launch.constant("SH0_B", hx.stride[1]).constant("SH0_J", hx.stride[2]);
      launch.constant("SC0_B", c0.stride[1]).constant("SC0_J", c0.stride[2]);
      launch.constant("SO_T", os[0]).constant("SO_B", os[1]).constant("SO_J", os[2]);
      launch.constant("SHY_B", hy ? hy->stride[1] : 0).constant("SHY_J", hy ? hy->stride[2] : 0);
      launch.constant("SCY_B", cy ? cy->stride[1] : 0).constant("SCY_J", cy ? cy->stride[2] : 0);
      launch.constant("WRITE_HY", hy ? 1 : 0).constant("WRITE_CY", cy ? 1 : 0);
      launch.constant("BLOCK_B", blockB).constant("BLOCK_I", blockI).constant("BLOCK_H", blockH);
      launch.grid(1, 1, 1);
      plan.launches.push_back(launch.build());
    }
  }
  return plan;
}

} // namespace npusim::library::detail
