// aten._cudnn_rnn on the host: one LSTM step by hand, and a two-layer
// bidirectional batch-first LSTM and a GRU against a cell-by-cell recurrence
// written here (the reverse direction as the forward recurrence over the
// reversed sequence).
#include "core/error.h"
#include "reference/host_calls.h"
#include "runtime/host_call_values.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace npusim::reference {
namespace {

using namespace test;
using core::DType;

double sig(double x) {
  return 1.0 / (1.0 + std::exp(-x));
}

struct Net {
  int64_t mode, layers, dirs, in, hidden, steps, batch, gates;
  std::vector<Buffer> weights; // per (layer, direction): w_ih, w_hh, b_ih, b_hh
};

Net makeNet(int64_t mode, int64_t layers, int64_t dirs, int64_t in, int64_t hidden, int64_t steps,
            int64_t batch) {
  Net n{mode, layers, dirs, in, hidden, steps, batch, mode == 2 ? 4 : 3, {}};
  uint32_t salt = 50;
  for (int64_t l = 0; l < layers; ++l)
    for (int64_t d = 0; d < dirs; ++d) {
      const int64_t layerIn = l == 0 ? in : dirs * hidden;
      n.weights.push_back(floats(n.gates * hidden * layerIn, salt++));
      n.weights.push_back(floats(n.gates * hidden * hidden, salt++));
      n.weights.push_back(floats(n.gates * hidden, salt++));
      n.weights.push_back(floats(n.gates * hidden, salt++));
    }
  return n;
}

/// One cell step of the test's own recurrence: returns the new h (and updates c).
std::vector<double> cell(const Net &n, size_t at, int64_t layerIn, const std::vector<double> &x,
                         std::vector<double> &h, std::vector<double> &c) {
  const int64_t hs = n.hidden;
  auto pre = [&](int64_t g, int64_t j, bool input) {
    const Buffer &w = n.weights[at + (input ? 0 : 1)];
    const Buffer &b = n.weights[at + (input ? 2 : 3)];
    const int64_t width = input ? layerIn : hs;
    double s = el(b, g * hs + j);
    for (int64_t k = 0; k < width; ++k)
      s += el(w, (g * hs + j) * width + k) * (input ? x[static_cast<size_t>(k)] : h[static_cast<size_t>(k)]);
    return s;
  };
  std::vector<double> out(static_cast<size_t>(hs));
  for (int64_t j = 0; j < hs; ++j) {
    if (n.mode == 2) {
      const double i = sig(pre(0, j, true) + pre(0, j, false)), f = sig(pre(1, j, true) + pre(1, j, false));
      const double g = std::tanh(pre(2, j, true) + pre(2, j, false)),
                   o = sig(pre(3, j, true) + pre(3, j, false));
      c[static_cast<size_t>(j)] = f * c[static_cast<size_t>(j)] + i * g;
      out[static_cast<size_t>(j)] = o * std::tanh(c[static_cast<size_t>(j)]);
    } else {
      const double r = sig(pre(0, j, true) + pre(0, j, false)), z = sig(pre(1, j, true) + pre(1, j, false));
      const double nn = std::tanh(pre(2, j, true) + r * pre(2, j, false));
      out[static_cast<size_t>(j)] = (1 - z) * nn + z * h[static_cast<size_t>(j)];
    }
  }
  h = out;
  return out;
}

/// Expected output [B, T, dirs * H] (batch first) from x [B, T, in], zero initial states.
std::vector<double> expected(const Net &n, const Buffer &x) {
  std::vector<std::vector<std::vector<double>>> seq(static_cast<size_t>(n.batch)); // [b][t][feature]
  for (int64_t b = 0; b < n.batch; ++b)
    for (int64_t t = 0; t < n.steps; ++t) {
      std::vector<double> f(static_cast<size_t>(n.in));
      for (int64_t k = 0; k < n.in; ++k)
        f[static_cast<size_t>(k)] = el(x, (b * n.steps + t) * n.in + k);
      seq[static_cast<size_t>(b)].push_back(f);
    }
  for (int64_t l = 0; l < n.layers; ++l) {
    const int64_t layerIn = l == 0 ? n.in : n.dirs * n.hidden;
    for (auto &s : seq) {
      std::vector<std::vector<double>> next(s.size());
      for (int64_t d = 0; d < n.dirs; ++d) {
        std::vector<double> h(static_cast<size_t>(n.hidden), 0.0), c(static_cast<size_t>(n.hidden), 0.0);
        std::vector<std::vector<double>> order = s;
        if (d == 1)
          std::reverse(order.begin(), order.end());
        for (size_t t = 0; t < order.size(); ++t) {
          const std::vector<double> y =
              cell(n, static_cast<size_t>((l * n.dirs + d) * 4), layerIn, order[t], h, c);
          const size_t at = d == 1 ? order.size() - 1 - t : t;
          next[at].insert(next[at].end(), y.begin(), y.end());
        }
      }
      s = next;
    }
  }
  std::vector<double> r;
  for (auto &s : seq)
    for (auto &f : s)
      r.insert(r.end(), f.begin(), f.end());
  return r;
}

std::vector<bool> runRnn(Net &n, Buffer &x, Buffer &out, Buffer &hy, Buffer &cy, Buffer &h0, Buffer &c0,
                         bool train = false) {
  std::vector<HostCallValue> ws;
  for (int64_t l = 0; l < n.layers; ++l)
    for (int64_t d = 0; d < n.dirs; ++d) {
      const int64_t layerIn = l == 0 ? n.in : n.dirs * n.hidden, gh = n.gates * n.hidden;
      const size_t at = static_cast<size_t>((l * n.dirs + d) * 4);
      ws.push_back(tensorValue(view(n.weights[at], 0, {gh, layerIn}, {layerIn, 1})));
      ws.push_back(tensorValue(view(n.weights[at + 1], 0, {gh, n.hidden}, {n.hidden, 1})));
      ws.push_back(tensorValue(view(n.weights[at + 2], 0, {gh}, {1})));
      ws.push_back(tensorValue(view(n.weights[at + 3], 0, {gh}, {1})));
    }
  const int64_t ld = n.layers * n.dirs;
  const std::vector<int64_t> st = {n.batch * n.hidden, n.hidden, 1};
  const TensorView ov = view(out, 0, {n.batch, n.steps, n.dirs * n.hidden},
                             {n.steps * n.dirs * n.hidden, n.dirs * n.hidden, 1});
  const TensorView hyv = view(hy, 0, {ld, n.batch, n.hidden}, st),
                   cyv = view(cy, 0, {ld, n.batch, n.hidden}, st);
  Buffer reserve = filled(0, 0.0);
  const TensorView rv = view(reserve, 0, {0}, {1});
  const std::vector<HostCallValue> args = {
      tensorValue(view(x, 0, {n.batch, n.steps, n.in}, {n.steps * n.in, n.in, 1})),
      listValue(ws),
      intValue(4),
      HostCallValue{},
      tensorValue(view(h0, 0, {ld, n.batch, n.hidden}, st)),
      n.mode == 2 ? tensorValue(view(c0, 0, {ld, n.batch, n.hidden}, st)) : HostCallValue{},
      intValue(n.mode),
      intValue(n.hidden),
      intValue(0),
      intValue(n.layers),
      boolValue(true),
      floatValue(0.0),
      boolValue(train),
      boolValue(n.dirs == 2),
      intsValue({}),
      HostCallValue{}};
  const std::vector<const TensorView *> outs = {&ov, &hyv, n.mode == 2 ? &cyv : nullptr, &rv, nullptr};
  return runHostCall("aten._cudnn_rnn", args, outs);
}

TEST(HostCudnnRnn, OneLstmStepByHand) {
  // Zero weights and biases: i = f = o = sigmoid(0) = 0.5, g = tanh(0) = 0, so
  // c' = 0.5 * c0 = 0.5 and h' = 0.5 * tanh(0.5) = 0.2310585786 for c0 = 1.
  Net n = makeNet(2, 1, 1, 1, 1, 1, 1);
  for (Buffer &w : n.weights)
    for (int64_t i = 0; i < static_cast<int64_t>(w.bytes.size() / 4); ++i)
      storeElement(w, i, 0.0);
  Buffer x = filled(1, 3.0), out = filled(1, -1.0), hy = filled(1, -1.0), cy = filled(1, -1.0);
  Buffer h0 = filled(1, 0.7), c0 = filled(1, 1.0);
  const std::vector<bool> defined = runRnn(n, x, out, hy, cy, h0, c0);
  EXPECT_EQ(defined, (std::vector<bool>{true, true, true, false, false}));
  EXPECT_NEAR(el(out, 0), 0.2310585786, 1e-7);
  EXPECT_NEAR(el(hy, 0), 0.2310585786, 1e-7);
  EXPECT_NEAR(el(cy, 0), 0.5, 1e-7);
}

TEST(HostCudnnRnn, TwoLayerBidirectionalLstmAndGru) {
  for (int64_t mode : {2, 3}) {
    Net n = makeNet(mode, 2, 2, 3, 4, 5, 2);
    const int64_t ld = 4;
    Buffer x = floats(n.batch * n.steps * n.in, 9), out = filled(n.batch * n.steps * 8, -1.0);
    Buffer hy = filled(ld * n.batch * n.hidden, -1.0), cy = filled(ld * n.batch * n.hidden, -1.0);
    Buffer h0 = filled(ld * n.batch * n.hidden, 0.0), c0 = filled(ld * n.batch * n.hidden, 0.0);
    runRnn(n, x, out, hy, cy, h0, c0);
    const std::vector<double> want = expected(n, x);
    ASSERT_EQ(static_cast<int64_t>(want.size()), n.batch * n.steps * 8);
    for (size_t i = 0; i < want.size(); ++i)
      expectNear(el(out, static_cast<int64_t>(i)), want[i],
                 "mode " + std::to_string(mode) + " output " + std::to_string(i));
    // hy of the last layer: the forward direction's last step, the reverse's first.
    for (int64_t b = 0; b < n.batch; ++b)
      for (int64_t j = 0; j < n.hidden; ++j) {
        const double fwd = want[static_cast<size_t>((b * n.steps + n.steps - 1) * 8 + j)];
        const double rev = want[static_cast<size_t>((b * n.steps + 0) * 8 + 4 + j)];
        expectNear(el(hy, (2 * n.batch + b) * n.hidden + j), fwd, "hy forward");
        expectNear(el(hy, (3 * n.batch + b) * n.hidden + j), rev, "hy reverse");
      }
  }
}

TEST(HostCudnnRnn, TrainingAndBadWeightsAreErrors) {
  Net n = makeNet(2, 1, 1, 2, 2, 2, 1);
  Buffer x = floats(4, 1), out = filled(4, 0.0), hy = filled(2, 0.0), cy = filled(2, 0.0),
         h0 = filled(2, 0.0), c0 = filled(2, 0.0);
  try {
    runRnn(n, x, out, hy, cy, h0, c0, true);
    FAIL() << "train accepted";
  } catch (const core::RuntimeError &e) {
    EXPECT_NE(std::string(e.what()).find("train"), std::string::npos) << e.what();
  }
  n.weights[0] = floats(3, 2); // w_ih of the wrong size
  EXPECT_THROW(runRnn(n, x, out, hy, cy, h0, c0), core::RuntimeError);
}

} // namespace
} // namespace npusim::reference
