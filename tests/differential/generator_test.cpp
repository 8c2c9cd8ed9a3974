// The kernel generator: deterministic for a seed, and every kernel it writes
// is one the front end parses and lowers, for each of its families.
#include "differential/kernel_generator.h"
#include "triton/frontend.h"

#include <gtest/gtest.h>

#include <set>

namespace npusim::differential {
namespace {

TEST(KernelGenerator, SameSeedSameKernel) {
  for (uint64_t seed : {0ull, 1ull, 42ull, 123456789ull}) {
    const GeneratedKernel a = generateKernel(seed), b = generateKernel(seed);
    EXPECT_EQ(a.source, b.source);
    ASSERT_EQ(a.buffers.size(), b.buffers.size());
    for (size_t i = 0; i < a.buffers.size(); ++i)
      EXPECT_EQ(a.buffers[i].elements, b.buffers[i].elements);
  }
  EXPECT_NE(generateKernel(1).source, generateKernel(2).source);
}

TEST(KernelGenerator, EveryKernelParsesAndLowers) {
  std::set<std::string> families;
  for (uint64_t seed = 0; seed < 200; ++seed) {
    const GeneratedKernel kernel = generateKernel(seed);
    families.insert(kernel.family);
    try {
      const triton::KernelFile file = triton::loadKernel(kernel.source, kernel.name + ".py");
      EXPECT_EQ(file.metadata.kernelName, kernel.name);
      size_t pointers = 0;
      for (const triton::ParameterSpec &p : file.metadata.parameters)
        if (p.isPointer) {
          ASSERT_LT(pointers, kernel.buffers.size());
          EXPECT_EQ(p.name, kernel.buffers[pointers].name) << "seed " << seed;
          EXPECT_EQ(p.dtype, kernel.buffers[pointers].dtype) << "seed " << seed;
          ++pointers;
        }
      EXPECT_EQ(pointers, kernel.buffers.size()) << "seed " << seed;
      for (const int64_t budget : {4096, 64})
        EXPECT_NE(triton::lowerKernel(file, triton::defaultConstexprs(file.metadata, budget)), nullptr);
    } catch (const std::exception &e) {
      ADD_FAILURE() << "seed " << seed << ": " << e.what() << "\n" << kernel.source;
    }
  }
  EXPECT_EQ(families, (std::set<std::string>{"looped", "persistent", "pointwise1d", "pointwise2d"}));
}

TEST(KernelGenerator, BuffersHaveRoomForEveryElement) {
  for (uint64_t seed = 0; seed < 200; ++seed)
    for (const GeneratedBuffer &b : generateKernel(seed).buffers)
      EXPECT_GE(b.elements, 1) << "seed " << seed << " " << b.name;
}

} // namespace
} // namespace npusim::differential
