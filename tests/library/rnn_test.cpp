// aten._cudnn_rnn: the recurrence kernels (LSTM, GRU, tanh and ReLU RNNs; one
// or more layers; one or two directions) on the reference interpreter and on
// an NPU against the host call (itself checked against a hand step and a
// cell-by-cell recurrence in tests/runtime/host_rnn_test.cpp).
#include "config/hardware.h"
#include "library/plan_harness.h"

#include <gtest/gtest.h>

namespace npusim::library {
namespace {

using core::DType;
using harness::CallFixture;
using C = CallFixture;

struct Rnn {
  int64_t mode = 2; // 0 relu, 1 tanh, 2 LSTM, 3 GRU
  int64_t layers = 1;
  bool bidirectional = false, batchFirst = false, biases = true;
  int64_t batch = 2, steps = 4, in = 5, hidden = 6;
};

std::string compareRnn(const Rnn &n, const std::optional<config::HardwareConfig> &npu, int64_t *launches) {
  CallFixture f;
  if (npu)
    f.useNpu(*npu);
  const int64_t dirs = n.bidirectional ? 2 : 1, gates = n.mode == 2 ? 4 : n.mode == 3 ? 3 : 1;
  const int64_t gh = gates * n.hidden;
  const TensorRef x = n.batchFirst ? f.tensor(DType::Float32, {n.batch, n.steps, n.in})
                                   : f.tensor(DType::Float32, {n.steps, n.batch, n.in});
  CallArgument weights;
  weights.kind = core::CallKind::List;
  for (int64_t l = 0; l < n.layers; ++l)
    for (int64_t d = 0; d < dirs; ++d) {
      const int64_t in = l == 0 ? n.in : dirs * n.hidden;
      // w_ih transposed in memory ([in, G*H] storage seen as [G*H, in]), the others row-major.
      weights.list.push_back(C::arg(f.tensor(DType::Float32, {gh, in}, {1, gh}, 0, -0.5, 0.5)));
      weights.list.push_back(C::arg(f.tensor(DType::Float32, {gh, n.hidden}, {}, 0, -0.5, 0.5)));
      if (n.biases) {
        weights.list.push_back(C::arg(f.tensor(DType::Float32, {gh}, {}, 0, -0.5, 0.5)));
        weights.list.push_back(C::arg(f.tensor(DType::Float32, {gh}, {}, 0, -0.5, 0.5)));
      }
    }
  const std::vector<int64_t> state = {n.layers * dirs, n.batch, n.hidden};
  const TensorRef h0 = f.tensor(DType::Float32, state);
  const std::optional<TensorRef> c0 =
      n.mode == 2 ? std::optional<TensorRef>(f.tensor(DType::Float32, state)) : std::nullopt;
  // The output as cuDNN returns it for batch_first: [B, T, D*H] over a [T, B, D*H] buffer.
  const int64_t width = dirs * n.hidden;
  const TensorRef out = n.batchFirst
                            ? f.tensor(DType::Float32, {n.batch, n.steps, width}, {width, n.batch * width, 1})
                            : f.tensor(DType::Float32, {n.steps, n.batch, width});
  const TensorRef hy = f.tensor(DType::Float32, state);
  const std::optional<TensorRef> cy =
      n.mode == 2 ? std::optional<TensorRef>(f.tensor(DType::Float32, state)) : std::nullopt;
  const TensorRef reserve = f.tensor(DType::UInt8, {0});
  harness::RunStats stats;
  const std::string r =
      f.compare("aten._cudnn_rnn",
                {C::arg(x), weights, C::integer(n.biases ? 4 : 2), C::none(), C::arg(h0),
                 c0 ? C::arg(*c0) : C::none(), C::integer(n.mode), C::integer(n.hidden), C::integer(0),
                 C::integer(n.layers), C::boolean(n.batchFirst), C::number(0.0), C::boolean(false),
                 C::boolean(n.bidirectional), C::integers({}), C::none()},
                {out, hy, cy, reserve, std::nullopt}, {}, {}, &stats);
  *launches = stats.launches;
  return r;
}

TEST(LibraryLstm, RecurrenceOnTheInterpreterAndTheNpu) {
  int64_t launches = 0;
  EXPECT_EQ(compareRnn({2, 1, true, true, true, 2, 8, 16, 16}, std::nullopt, &launches), "")
      << "the tagger's LSTM";
  EXPECT_EQ(launches, 2); // one per direction
  EXPECT_EQ(compareRnn({2, 1, false, false, true, 3, 5, 7, 9}, std::nullopt, &launches), "")
      << "ragged sizes";
  EXPECT_EQ(launches, 1);
  EXPECT_EQ(compareRnn({2, 1, true, true, true, 2, 6, 5, 12}, config::loadConfig("edge-8lane"), &launches),
            "");
  EXPECT_EQ(launches, 2);
}

TEST(LibraryRnn, LayersDirectionsAndModes) {
  int64_t launches = 0;
  // Three layers, both directions: layer 1 reads layer 0's output from one
  // scratch buffer while writing the other, layer 2 writes the call's output.
  EXPECT_EQ(compareRnn({2, 3, true, true, true, 3, 5, 4, 7}, std::nullopt, &launches), "") << "3-layer LSTM";
  EXPECT_EQ(launches, 6); // layers x directions
  EXPECT_EQ(compareRnn({3, 2, true, false, true, 2, 4, 5, 6}, std::nullopt, &launches), "") << "GRU";
  EXPECT_EQ(launches, 4);
  EXPECT_EQ(compareRnn({3, 2, false, true, false, 2, 3, 4, 5}, std::nullopt, &launches), "")
      << "GRU, no biases";
  EXPECT_EQ(compareRnn({2, 2, false, false, false, 2, 3, 4, 5}, std::nullopt, &launches), "")
      << "LSTM, no biases";
  EXPECT_EQ(compareRnn({1, 2, true, false, true, 2, 4, 3, 5}, std::nullopt, &launches), "") << "tanh RNN";
  EXPECT_EQ(compareRnn({0, 1, false, false, true, 3, 4, 3, 5}, std::nullopt, &launches), "") << "ReLU RNN";
}

TEST(LibraryRnn, LayersOnTheNpu) {
  int64_t launches = 0;
  for (const char *preset : {"tpuv3-like", "edge-8lane"}) {
    const config::HardwareConfig npu = config::loadConfig(preset);
    EXPECT_EQ(compareRnn({2, 2, true, true, true, 2, 4, 5, 6}, npu, &launches), "") << preset << ": LSTM";
    EXPECT_EQ(launches, 4);
    EXPECT_EQ(compareRnn({3, 2, true, false, true, 2, 4, 5, 6}, npu, &launches), "") << preset << ": GRU";
    EXPECT_EQ(compareRnn({1, 1, false, false, false, 2, 3, 4, 5}, npu, &launches), "") << preset << ": RNN";
  }
}

} // namespace
} // namespace npusim::library
