// Hand-made bundles of library calls as the capture records them, with
// fingerprints from PyTorch on the CPU (tests/data/bundles/make_*.py), an
// implementation independent of npusim's:
// - lstm: one aten._cudnn_rnn call (a 2-layer bidirectional batch-first LSTM
//   as cuDNN records it: weights as views of one flat buffer, a transposed
//   output view, an empty reserve, the weight buffer returned) against
//   torch.nn.LSTM;
// - attention_backward: the efficient attention forward and two backward calls
//   against torch autograd, the second with grad_input_mask [F, T, T, T] and
//   its three written results, which the loader places on positions 1 to 3.
#include "config/hardware.h"
#include "runtime/loader.h"
#include "runtime/runner.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace npusim::runtime {
namespace {

const std::filesystem::path kBundles = std::filesystem::path(NPUSIM_TEST_DATA) / "bundles";

RunReport verify(const std::string &name, Mode mode = Mode::Reference) {
  RunOptions options;
  options.verify = true;
  options.mode = mode;
  if (mode != Mode::Reference)
    options.machine = config::loadConfig("edge-8lane");
  return runBundle(loadBundle(kBundles / name), options);
}

TEST(CallBundles, CudnnRnnVerifiesAgainstTorchLstm) {
  const RunReport r = verify("lstm");
  EXPECT_TRUE(r.verified) << r.failure;
  EXPECT_EQ(r.calls, 1);
  EXPECT_EQ(r.fingerprintsCompared, 3); // output, hy, cy
  ASSERT_EQ(r.outputs.size(), 1u);
  EXPECT_EQ(r.outputs[0].result, Outcome::Verified) << r.outputs[0].message;
}

TEST(CallBundles, AttentionBackwardVerifiesAgainstTorchAutograd) {
  for (const Mode mode : {Mode::Reference, Mode::Functional}) {
    const RunReport r = verify("attention_backward", mode);
    EXPECT_TRUE(r.verified) << r.failure;
    EXPECT_EQ(r.calls, 3);
    EXPECT_EQ(r.fingerprintsCompared, 8); // forward 2, backward 3 + 3
    ASSERT_EQ(r.outputs.size(), 1u);
    EXPECT_EQ(r.outputs[0].result, Outcome::Verified) << r.outputs[0].message;
  }
}

} // namespace
} // namespace npusim::runtime
