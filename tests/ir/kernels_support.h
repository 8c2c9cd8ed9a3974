#pragma once
// Small, well-formed TileIR functions built with ir::Builder, shared by the
// printer and verifier tests. Each is what the front end would make of a
// typical kernel shape; the printer tests hold their exact text.
#include "ir/builder.h"

#include <memory>

namespace npusim::ir::testing {

/// triton_poi_fused_add_0: out[i] = in[i] + 1 for i < xnumel, XBLOCK = 128.
std::unique_ptr<Function> pointwiseKernel();
/// A loop over r in [0, rnumel) step 16 carrying an fp32[8, 16] accumulator and
/// an i32 counter, then a sum over axis 1.
std::unique_ptr<Function> forKernel();
/// A scalar if/else with one result.
std::unique_ptr<Function> ifKernel();
/// max-with-index as a Combine reduce over axis 1 of fp32[4, 8] and i32[4, 8].
std::unique_ptr<Function> combineReduceKernel();
/// fp16[16, 32] x fp16[32, 8] + fp32[16, 8].
std::unique_ptr<Function> dotKernel();

} // namespace npusim::ir::testing
