#pragma once
// The distinct library calls of the committed bundles (examples/*/graph.json:
// bert, gpt2, llama, mlp, mlp-train, mobilenet_v2, moe, resnet18, vit), with
// their shapes, strides and arguments as the bundles spell them.
#include "library/plan_harness.h"

#include <optional>
#include <string>
#include <vector>

namespace npusim::library::harness {

struct BundleCall {
  std::string label; // "resnet18 conv 64->64 3x3 56x56"
  std::string op;
  CallFixture fixture; // owns the buffers the views name
  std::vector<CallArgument> args;
  std::vector<std::optional<TensorRef>> outs;
  int64_t macs = 0; // multiply-accumulates of the call (GEMMs, convolutions, attention)
};

std::vector<BundleCall> bundleCalls();

} // namespace npusim::library::harness
