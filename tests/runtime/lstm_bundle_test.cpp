// tests/data/bundles/lstm: one aten._cudnn_rnn call (a 2-layer bidirectional
// batch-first LSTM as cuDNN records it) against torch.nn.LSTM's values on the
// CPU (make_lstm.py): the loader's list of weight views over one buffer, the
// transposed output view, the empty reserve and the returned weight buffer.
#include "runtime/loader.h"
#include "runtime/runner.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace npusim::runtime {
namespace {

TEST(LstmBundle, CudnnRnnVerifiesAgainstTorchLstm) {
  const Bundle bundle = loadBundle(std::filesystem::path(NPUSIM_TEST_DATA) / "bundles" / "lstm");
  RunOptions options;
  options.verify = true;
  const RunReport r = runBundle(bundle, options);
  EXPECT_TRUE(r.verified) << r.failure;
  EXPECT_EQ(r.calls, 1);
  EXPECT_EQ(r.fingerprintsCompared, 3); // output, hy, cy
  ASSERT_EQ(r.outputs.size(), 1u);
  EXPECT_EQ(r.outputs[0].result, Outcome::Verified) << r.outputs[0].message;
}

} // namespace
} // namespace npusim::runtime
