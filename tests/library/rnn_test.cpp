// aten._cudnn_rnn: the one-layer LSTM recurrence kernel on the reference
// interpreter and on an NPU against the host call (itself checked against a
// hand step and torch.nn.LSTM in tests/runtime).
#include "config/hardware.h"
#include "library/plan_harness.h"

#include <gtest/gtest.h>

namespace npusim::library {
namespace {

using core::DType;
using harness::CallFixture;
using C = CallFixture;

std::string compareLstm(int64_t batch, int64_t steps, int64_t in, int64_t hidden, bool bidirectional,
                        bool batchFirst, const std::optional<config::HardwareConfig> &npu,
                        int64_t *launches) {
  CallFixture f;
  if (npu)
    f.useNpu(*npu);
  const int64_t dirs = bidirectional ? 2 : 1;
  const TensorRef x = batchFirst ? f.tensor(DType::Float32, {batch, steps, in})
                                 : f.tensor(DType::Float32, {steps, batch, in});
  CallArgument weights;
  weights.kind = core::CallKind::List;
  for (int64_t d = 0; d < dirs; ++d) {
    // w_ih transposed in memory ([in, 4H] storage seen as [4H, in]), the others row-major.
    weights.list.push_back(C::arg(f.tensor(DType::Float32, {4 * hidden, in}, {1, 4 * hidden}, 0, -0.5, 0.5)));
    weights.list.push_back(C::arg(f.tensor(DType::Float32, {4 * hidden, hidden}, {}, 0, -0.5, 0.5)));
    weights.list.push_back(C::arg(f.tensor(DType::Float32, {4 * hidden}, {}, 0, -0.5, 0.5)));
    weights.list.push_back(C::arg(f.tensor(DType::Float32, {4 * hidden}, {}, 0, -0.5, 0.5)));
  }
  const TensorRef h0 = f.tensor(DType::Float32, {dirs, batch, hidden});
  const TensorRef c0 = f.tensor(DType::Float32, {dirs, batch, hidden});
  // The output as cuDNN returns it for batch_first: [B, T, D*H] over a [T, B, D*H] buffer.
  const TensorRef out = batchFirst ? f.tensor(DType::Float32, {batch, steps, dirs * hidden},
                                              {dirs * hidden, batch * dirs * hidden, 1})
                                   : f.tensor(DType::Float32, {steps, batch, dirs * hidden});
  const TensorRef hy = f.tensor(DType::Float32, {dirs, batch, hidden});
  const TensorRef cy = f.tensor(DType::Float32, {dirs, batch, hidden});
  const TensorRef reserve = f.tensor(DType::UInt8, {0});
  harness::RunStats stats;
  const std::string r =
      f.compare("aten._cudnn_rnn",
                {C::arg(x), weights, C::integer(4), C::none(), C::arg(h0), C::arg(c0), C::integer(2),
                 C::integer(hidden), C::integer(0), C::integer(1), C::boolean(batchFirst), C::number(0.0),
                 C::boolean(false), C::boolean(bidirectional), C::integers({}), C::none()},
                {out, hy, cy, reserve, std::nullopt}, {}, {}, &stats);
  *launches = stats.launches;
  return r;
}

TEST(LibraryLstm, RecurrenceOnTheInterpreterAndTheNpu) {
  int64_t launches = 0;
  EXPECT_EQ(compareLstm(2, 8, 16, 16, true, true, std::nullopt, &launches), "") << "the tagger's LSTM";
  EXPECT_EQ(launches, 2); // one per direction
  EXPECT_EQ(compareLstm(3, 5, 7, 9, false, false, std::nullopt, &launches), "") << "ragged sizes";
  EXPECT_EQ(launches, 1);
  EXPECT_EQ(compareLstm(2, 6, 5, 12, true, true, config::loadConfig("edge-8lane"), &launches), "");
  EXPECT_EQ(launches, 2);
}

} // namespace
} // namespace npusim::library
