// aten._cudnn_rnn, the recurrent layers (nn.LSTM, nn.GRU, nn.RNN) as cuDNN
// runs them, in inference: per layer and direction, over the time steps in
// order (reversed for the backward direction), with PyTorch's gate order
//   LSTM: i, f, g, o;  c' = f c + i g,  h' = o tanh(c')
//   GRU:  r, z, n;     n = tanh(x_n + r (h_n + b_hn)),  h' = (1 - z) n + z h
//   RNN:  h' = tanh or relu(W_ih x + b_ih + W_hh h + b_hh)
// Layer l > 0 reads both directions' outputs of layer l - 1, concatenated.
// Sums run in double; each result is rounded once when stored.
#include "reference/host_calls_internal.h"

#include <algorithm>
#include <cmath>

namespace npusim::reference::host {

namespace {

constexpr std::string_view kRnnOp = "aten._cudnn_rnn";

// cuDNN's mode numbers (cudnnRNNMode_t), as PyTorch passes them.
enum Mode : int64_t { RnnRelu = 0, RnnTanh = 1, Lstm = 2, Gru = 3 };

double sigmoid(double x) {
  return 1.0 / (1.0 + std::exp(-x));
}

struct Layer {
  std::vector<double> wIh, wHh, bIh, bHh; // [G*H, in], [G*H, H], [G*H], [G*H] (biases may be empty)
};

} // namespace

std::vector<bool> callCudnnRnn(const CallArgs &c) {
  const TensorView &input = c.tensor(0, "input");
  const std::vector<HostCallValue> &weights = c.list(1, "weight");
  const int64_t stride0 = c.integer(2, "weight_stride0");
  const TensorView *weightBuf = c.optionalTensor(3, "weight_buf");
  const TensorView &hx = c.tensor(4, "hx");
  const TensorView *cx = c.optionalTensor(5, "cx");
  const int64_t mode = c.integer(6, "mode");
  const int64_t hidden = c.integer(7, "hidden_size");
  if (c.integer(8, "proj_size") != 0)
    c.fail(8, "proj_size", "LSTM projections are not implemented");
  const int64_t layers = c.integer(9, "num_layers");
  const bool batchFirst = c.boolean(10, "batch_first");
  const double dropout = c.number(11, "dropout");
  if (c.boolean(12, "train"))
    c.fail(12, "train",
           "training through cuDNN's RNN keeps its reserve workspace in cuDNN's private layout: only "
           "inference (train = False) is implemented");
  (void)dropout; // applied only when training
  const int64_t dirs = c.boolean(13, "bidirectional") ? 2 : 1;
  if (!c.integers(14, "batch_sizes").empty())
    c.fail(14, "batch_sizes", "packed sequences are not implemented");
  const int64_t gates = mode == Lstm ? 4 : mode == Gru ? 3 : mode == RnnRelu || mode == RnnTanh ? 1 : 0;
  if (gates == 0)
    c.fail(6, "mode", "unknown RNN mode " + std::to_string(mode) + " (0 relu, 1 tanh, 2 LSTM, 3 GRU)");
  if (mode == Lstm && !cx)
    c.fail(5, "cx", "an LSTM needs its initial cell state");
  if (stride0 != 2 && stride0 != 4)
    c.fail(2, "weight_stride0", "expected 2 (no biases) or 4, got " + std::to_string(stride0));
  if (static_cast<int64_t>(weights.size()) != layers * dirs * stride0)
    c.fail(1, "weight",
           std::to_string(weights.size()) + " tensors for " + std::to_string(layers) + " layers x " +
               std::to_string(dirs) + " directions x " + std::to_string(stride0));
  if (input.dim() != 3)
    fail(kRnnOp, "input must be 3-d, but has shape " + shapeString(input.shape));
  checkView(input, std::string(kRnnOp) + ": input");
  // [T, B, in] whatever the layout.
  const TensorView x = batchFirst ? transposed(input, 0, 1) : input;
  const int64_t steps = x.shape[0], batch = x.shape[1], inSize = x.shape[2];
  const std::vector<int64_t> stateShape = {layers * dirs, batch, hidden};
  expectShape(hx, stateShape, kRnnOp, "hx");
  checkView(hx, std::string(kRnnOp) + ": hx");
  if (cx) {
    expectShape(*cx, stateShape, kRnnOp, "cx");
    checkView(*cx, std::string(kRnnOp) + ": cx");
  }
  const TensorView &out = c.out(0);
  const std::vector<int64_t> outShape = batchFirst ? std::vector<int64_t>{batch, steps, dirs * hidden}
                                                   : std::vector<int64_t>{steps, batch, dirs * hidden};
  expectShape(out, outShape, kRnnOp, "output");
  checkView(out, std::string(kRnnOp) + ": output");

  std::vector<Layer> params(static_cast<size_t>(layers * dirs));
  for (int64_t l = 0; l < layers; ++l)
    for (int64_t d = 0; d < dirs; ++d) {
      const size_t at = static_cast<size_t>((l * dirs + d) * stride0);
      const int64_t layerIn = l == 0 ? inSize : dirs * hidden;
      auto read = [&](size_t k, std::vector<int64_t> shape, const char *what) {
        const HostCallValue &w = weights[at + k];
        const std::string name = "weight[" + std::to_string(at + k) + "] (" + what + " of layer " +
                                 std::to_string(l) + (d ? ", reverse" : "") + ")";
        if (w.kind != core::CallKind::Tensor)
          c.fail(1, "weight", name + " is not a tensor");
        expectShape(w.tensor, shape, kRnnOp, name);
        checkView(w.tensor, std::string(kRnnOp) + ": " + name);
        return readValues(w.tensor);
      };
      Layer &p = params[static_cast<size_t>(l * dirs + d)];
      p.wIh = read(0, {gates * hidden, layerIn}, "w_ih");
      p.wHh = read(1, {gates * hidden, hidden}, "w_hh");
      if (stride0 == 4) {
        p.bIh = read(2, {gates * hidden}, "b_ih");
        p.bHh = read(3, {gates * hidden}, "b_hh");
      }
    }
  std::vector<double> seq = readValues(x); // [T, B, in] of the current layer
  const std::vector<double> h0 = readValues(hx);
  const std::vector<double> c0 = cx ? readValues(*cx) : std::vector<double>();
  std::vector<double> hy(h0.size()), cy(c0.size());
  const int64_t gh = gates * hidden;
  for (int64_t l = 0; l < layers; ++l) {
    const int64_t layerIn = l == 0 ? inSize : dirs * hidden;
    std::vector<double> next(static_cast<size_t>(steps * batch * dirs * hidden));
    for (int64_t d = 0; d < dirs; ++d) {
      const Layer &p = params[static_cast<size_t>(l * dirs + d)];
      const size_t state = static_cast<size_t>((l * dirs + d) * batch * hidden);
      std::vector<double> h(h0.begin() + static_cast<std::ptrdiff_t>(state),
                            h0.begin() +
                                static_cast<std::ptrdiff_t>(state + static_cast<size_t>(batch * hidden)));
      std::vector<double> cell =
          mode == Lstm ? std::vector<double>(c0.begin() + static_cast<std::ptrdiff_t>(state),
                                             c0.begin() + static_cast<std::ptrdiff_t>(
                                                              state + static_cast<size_t>(batch * hidden)))
                       : std::vector<double>();
      std::vector<double> xi(static_cast<size_t>(gh)), hh(static_cast<size_t>(gh));
      for (int64_t s = 0; s < steps; ++s) {
        const int64_t t = d == 0 ? s : steps - 1 - s;
        for (int64_t b = 0; b < batch; ++b) {
          const double *xt = seq.data() + (t * batch + b) * layerIn;
          double *hb = h.data() + b * hidden;
          for (int64_t r = 0; r < gh; ++r) {
            double a = p.bIh.empty() ? 0.0 : p.bIh[static_cast<size_t>(r)];
            for (int64_t k = 0; k < layerIn; ++k)
              a += p.wIh[static_cast<size_t>(r * layerIn + k)] * xt[k];
            double u = p.bHh.empty() ? 0.0 : p.bHh[static_cast<size_t>(r)];
            for (int64_t k = 0; k < hidden; ++k)
              u += p.wHh[static_cast<size_t>(r * hidden + k)] * hb[k];
            xi[static_cast<size_t>(r)] = a;
            hh[static_cast<size_t>(r)] = u;
          }
          for (int64_t j = 0; j < hidden; ++j) {
            const auto gate = [&](int64_t g) {
              return xi[static_cast<size_t>(g * hidden + j)] + hh[static_cast<size_t>(g * hidden + j)];
            };
            double hNew = 0.0;
            if (mode == Lstm) {
              double &cj = cell[static_cast<size_t>(b * hidden + j)];
              cj = sigmoid(gate(1)) * cj + sigmoid(gate(0)) * std::tanh(gate(2));
              hNew = sigmoid(gate(3)) * std::tanh(cj);
            } else if (mode == Gru) {
              const double r = sigmoid(gate(0)), z = sigmoid(gate(1));
              const double n = std::tanh(xi[static_cast<size_t>(2 * hidden + j)] +
                                         r * hh[static_cast<size_t>(2 * hidden + j)]);
              hNew = (1.0 - z) * n + z * hb[j];
            } else {
              hNew = mode == RnnTanh ? std::tanh(gate(0)) : std::max(0.0, gate(0));
            }
            next[static_cast<size_t>((t * batch + b) * dirs * hidden + d * hidden + j)] = hNew;
          }
          for (int64_t j = 0; j < hidden; ++j)
            hb[j] = next[static_cast<size_t>((t * batch + b) * dirs * hidden + d * hidden + j)];
        }
      }
      std::copy(h.begin(), h.end(), hy.begin() + static_cast<std::ptrdiff_t>(state));
      if (mode == Lstm)
        std::copy(cell.begin(), cell.end(), cy.begin() + static_cast<std::ptrdiff_t>(state));
    }
    seq = std::move(next);
  }
  std::vector<bool> defined(c.numOuts(), false);
  writeValues(batchFirst ? transposed(out, 0, 1) : out, seq);
  defined[0] = true;
  if (const TensorView *o = c.optionalOut(1)) {
    expectShape(*o, stateShape, kRnnOp, "hy");
    writeValues(*o, hy);
    defined[1] = true;
  }
  if (const TensorView *o = c.optionalOut(2); o && mode == Lstm) {
    expectShape(*o, stateShape, kRnnOp, "cy");
    writeValues(*o, cy);
    defined[2] = true;
  }
  if (const TensorView *o = c.optionalOut(3); o && o->numel() != 0)
    fail(kRnnOp, "reserve has " + std::to_string(o->numel()) + " elements; in inference it is empty");
  if (const TensorView *o = c.optionalOut(4); o && weightBuf) {
    // The flat weight buffer, returned as given.
    expectShape(*o, weightBuf->shape, kRnnOp, "weight_buf");
    writeValues(*o, readValues(*weightBuf));
    defined[4] = true;
  }
  return defined;
}

} // namespace npusim::reference::host
